// Every storyboard in every language it lists, every chapter, sampled through time with the
// shipped fonts' real metrics (and Noto's for the scripts Inter lacks):
// no text overlaps other text or hides under an opaque box drawn after it, all of it stays inside
// the safe area (captions inside their band), and none is smaller than 22 px at 1080p. A figure
// drawn as one group (the model's loaf, story/vocab/loaf.hpp) is a box of its own: no text on it,
// no other such figure over it, inside the picture's safe area.
#include "story/scene/layout.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <variant>

#include "render/draw/fonts.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/time.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;

namespace {

struct Box {
    double left, top, right, bottom;
    std::string text;
};

// The ink of a line of Inter: cap height above the baseline, descender below.
Box box_of(const story::PlacedText& p, const render::Fonts& fonts) {
    const double w = fonts.measure(p.text.text, p.text.style).advance;
    const double size = p.text.style.size;
    double left = p.text.x;
    if (p.text.align == story::Align::center) left -= w / 2;
    if (p.text.align == story::Align::right) left -= w;
    return {left + 1, p.text.y - 0.73 * size, left + w - 1, p.text.y + 0.2 * size, p.text.text};
}

bool intersects(const Box& a, const Box& b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

// The opaque boxes of a frame in drawing order, each with the number of texts drawn before it
// (texts_of's order): a text under a box drawn after it is hidden.
struct Cover {
    Box box;
    std::size_t texts_before;
};

void collect_covers(const std::vector<story::Item>& items, double dx, double dy, double scale,
                    double opacity, std::size_t& texts, std::vector<Cover>& out) {
    for (const story::Item& item : items) {
        const double alpha = opacity * item.opacity;
        if (std::holds_alternative<story::Text>(item.shape)) ++texts;
        if (const auto* g = std::get_if<story::Group>(&item.shape))
            collect_covers(g->items, dx + scale * g->dx, dy + scale * g->dy, scale * g->scale,
                           alpha, texts, out);
        const auto* r = std::get_if<story::Rect>(&item.shape);
        if (!r || !r->fill || r->fill->a < 250 || alpha < 0.9) continue;
        out.push_back({{dx + scale * r->x, dy + scale * r->y, dx + scale * (r->x + r->w),
                        dy + scale * (r->y + r->h), ""},
                       texts});
    }
}

// The figures drawn as groups, each one's box (around its rects), where half visible or more.
std::vector<Box> figures(const story::Scene& scene) {
    std::vector<Box> out;
    for (const story::Item& item : scene.items) {
        const auto* g = std::get_if<story::Group>(&item.shape);
        if (!g) continue;
        Box box{1e9, 1e9, -1e9, -1e9, "a figure"};
        double most = 0;
        for (const story::Item& child : g->items) {
            const auto* r = std::get_if<story::Rect>(&child.shape);
            if (!r) continue;
            most = std::max(most, item.opacity * child.opacity);
            box = {std::min(box.left, g->dx + g->scale * r->x),
                   std::min(box.top, g->dy + g->scale * r->y),
                   std::max(box.right, g->dx + g->scale * (r->x + r->w)),
                   std::max(box.bottom, g->dy + g->scale * (r->y + r->h)), box.text};
        }
        if (most >= 0.5) out.push_back(box);
    }
    return out;
}

// Problems with the figures of one frame: text on one, two overlapping, one outside the picture.
void figure_problems(const std::vector<Box>& figures, const std::vector<Box>& texts,
                     std::vector<std::string>& out) {
    namespace f = story::frame;
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const Box& b = figures[i];
        const std::string at =
            std::to_string(std::lround(b.left)) + "," + std::to_string(std::lround(b.top));
        for (const Box& t : texts)
            if (intersects(b, t)) out.push_back("'" + t.text + "' overlaps the figure at " + at);
        for (std::size_t j = 0; j < i; ++j)
            if (intersects(b, figures[j])) out.push_back("two figures overlap at " + at);
        if (b.left < f::kLeft - 1 || b.right > f::kRight + 1 || b.top < f::kTop - 1 ||
            b.bottom > f::kCaptionTop)
            out.push_back("the figure at " + at + " leaves the safe area");
    }
}

// Problems with the text of one frame, as readable lines. A text under an opaque box drawn after
// it goes into hidden_now, and is a problem when it was in hidden_before too, under the same box
// at the same place: a chip crossing a label on its way is motion, a label that stays covered is
// not.
std::vector<std::string> problems(const story::Scene& scene, const render::Fonts& fonts,
                                  const std::set<std::string>& hidden_before,
                                  std::set<std::string>& hidden_now, int& figures_seen) {
    namespace f = story::frame;
    std::vector<Box> boxes;
    std::vector<std::string> out;
    std::vector<Cover> covers;
    std::size_t texts = 0;
    collect_covers(scene.items, 0, 0, 1, 1, texts, covers);
    const std::vector<story::PlacedText> placed = story::texts_of(scene);
    for (std::size_t i = 0; i < placed.size(); ++i) {
        const story::PlacedText& p = placed[i];
        if (p.opacity < 0.5 || p.text.text.empty()) continue;  // fading in or out
        const Box b = box_of(p, fonts);
        for (const Cover& c : covers) {
            if (c.texts_before <= i || !intersects(b, c.box)) continue;
            const std::string key = b.text + " under " + std::to_string(std::lround(c.box.left)) +
                                    "," + std::to_string(std::lround(c.box.top));
            hidden_now.insert(key);
            if (hidden_before.count(key))
                out.push_back("'" + b.text + "' is hidden under a box drawn after it");
        }
        if (p.text.style.size < f::kMinTextSize - 1e-9)
            out.push_back("under 22 px: '" + b.text + "'");
        const bool caption = b.top >= f::kCaptionTop;
        if (b.left < f::kLeft - 1 || b.right > f::kRight + 1 || b.top < f::kTop - 1 ||
            b.bottom > f::kHeight - 8 || (!caption && b.bottom > f::kCaptionTop))
            out.push_back("outside the safe area: '" + b.text + "'");
        for (const Box& other : boxes)
            if (intersects(b, other))
                out.push_back("'" + b.text + "' overlaps '" + other.text + "'");
        boxes.push_back(b);
    }
    const std::vector<Box> shown = figures(scene);
    figures_seen += static_cast<int>(shown.size());
    figure_problems(shown, boxes, out);
    return out;
}

std::vector<double> sample_times(const story::ChapterSpec& spec, int fps) {
    std::vector<double> ts;
    const int frames = story::frame_count(spec.duration, fps);
    for (int f = 0; f < frames; f += fps / 4) ts.push_back(story::time_of_frame(f, fps));
    ts.push_back(story::time_of_frame(frames - 1, fps));
    for (const story::Beat& b : spec.beats) ts.push_back(b.at + b.over / 2);  // mid-morph
    return ts;
}

std::vector<fs::path> storyboards() {
    std::vector<fs::path> files;
    for (const char* dir : {"storyboards", "tests/storyboards/good"})
        for (const auto& e : fs::directory_iterator(fs::path(SHARDREEL_SOURCE_DIR) / dir))
            if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("no text or figure overlaps, hides, leaves the safe area or shrinks under 22 px",
          "[layout]") {
    const render::Fonts fonts(render::default_font_dir());
    int frames_checked = 0, figures_checked = 0;
    std::set<std::string> languages;
    for (const fs::path& file : storyboards()) {
        for (const std::string& lang : render_test::load_unvoiced(file).languages) {
            INFO(file << " in " << lang);
            languages.insert(lang);
            const story::Storyboard board = render_test::load_unvoiced(file, lang);
            for (const story::ChapterSpec& spec : board.chapters) {
                const auto chapter = story::make_chapter(spec, board.video, fonts);
                std::set<std::string> hidden;  // at the sample before
                for (double t : sample_times(spec, 30)) {
                    std::set<std::string> hidden_now;
                    const auto found =
                        problems(chapter->scene_at(t), fonts, hidden, hidden_now, figures_checked);
                    hidden = std::move(hidden_now);
                    ++frames_checked;
                    if (found.empty()) continue;
                    std::string all;
                    for (const auto& p : found) all += "\n  " + p;
                    FAIL_CHECK(file.filename().string() << " (" << lang << ") chapter '" << spec.id
                                                        << "' at " << t << " s:" << all);
                }
            }
        }
    }
    CHECK(frames_checked > 1000);
    CHECK(figures_checked > 10000);  // the loaves of tensor, pipeline, ring, zero and the racks
    // Every language the default film ships, each swept in every chapter.
    for (const char* lang : {"en", "de", "ar", "ja", "hi"}) CHECK(languages.count(lang) == 1);
}
