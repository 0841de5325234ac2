// The painter's test picture: a GPU card with a stacked memory bar and capacity line, a
// hatched pipeline timeline, links, a chart, aligned labels and translucent groups.
#include "tests/render/test_scene.hpp"

#include <unistd.h>

#include <filesystem>

#include "render/sinks/video/make_sink.hpp"

namespace render_test {
namespace {

using story::Color;
using story::Palette;
using story::Rect;

constexpr double label_size = 44;  // large enough to read at the golden's quarter scale
constexpr story::TextStyle label{label_size, story::Weight::regular, false};
constexpr story::TextStyle number{label_size, story::Weight::medium, true};

Rect box(double x, double y, double w, double h, double radius, std::optional<Color> fill) {
    return Rect{x, y, w, h, radius, fill, std::nullopt, 0, false, std::nullopt};
}

Rect outline(Rect r, Color stroke, double width, bool dashed) {
    r.stroke = stroke;
    r.stroke_width = width;
    r.dashed = dashed;
    return r;
}

void add_card(story::Scene& s, const Palette& p) {
    s.add(outline(box(96, 180, 420, 640, 12, p.panel), p.grid, 3, false));
    s.add(story::Text{306,
                      250,
                      "GPU 3",
                      {label_size, story::Weight::semibold, false},
                      p.text,
                      story::Align::center});
    const Color stack[] = {p.weights, p.gradients, p.optimizer, p.activations};
    double y = 780;
    for (int i = 0; i < 4; ++i) {
        const double h = 60 + 30 * i;
        y -= h;
        s.add(box(156, y, 300, h, 0, stack[i]));
    }
    s.add(story::Line{{136, 330}, {476, 330}, p.comm, 4, true});
    s.add(story::Text{476, 315, "80\u2009GB", number, p.muted, story::Align::right});
}

void add_timeline(story::Scene& s, const Palette& p) {
    for (int stage = 0; stage < 3; ++stage) {
        const double y = 200 + stage * 110;
        s.add(box(640, y, 200 + stage * 120, 80, 8, p.weights));
        Rect idle =
            outline(box(880 + stage * 120, y, 360 - stage * 120, 80, 8, p.panel), p.idle, 2, false);
        idle.hatch = p.idle;
        s.add(idle);
    }
    s.add(outline(box(640, 540, 600, 90, 10, std::nullopt), p.highlight, 4, true));
    s.add(story::Text{940, 600, "Bubble 27.3%", number, p.text, story::Align::center});
}

void add_links_and_chart(story::Scene& s, const Palette& p) {
    s.add(story::Arrow{{640, 720}, {1100, 720}, p.comm, 8, 36});
    s.add(story::Arrow{{1400, 880}, {1400, 660}, p.comm, 4, 24});
    s.add(story::Path{
        {{1500, 900}, {1600, 780}, {1700, 840}, {1800, 720}}, false, std::nullopt, p.highlight, 6});
    s.add(story::Path{{{1500, 400}, {1800, 400}, {1650, 220}}, true, p.activations, p.text, 3});
}

// Overlapping children fade as one layer; a lone rect fades through its colour's alpha.
void add_translucent(story::Scene& s, const Palette& p) {
    story::Group g{1500, 440, 0.5, {}};
    g.items.push_back({box(0, 0, 300, 200, 0, p.gradients), 1});
    g.items.push_back({box(150, 100, 300, 200, 0, p.optimizer), 1});
    g.items.push_back({story::Text{0,
                                   360,
                                   "Group",
                                   {label_size * 2, story::Weight::regular, false},
                                   p.text,
                                   story::Align::left},
                       1});
    s.add(std::move(g), 0.5);
    s.add(box(640, 800, 240, 120, 16, p.activations), 0.4);
}

}  // namespace

story::Scene test_scene(story::ThemeName theme) {
    const Palette& p = story::palette(theme);
    story::Scene s;
    s.background = p.background;
    s.add(story::Text{96,
                      130,
                      "Shardreel painter",
                      {60, story::Weight::semibold, false},
                      p.text,
                      story::Align::left});
    add_card(s, p);
    add_timeline(s, p);
    add_links_and_chart(s, p);
    add_translucent(s, p);
    s.add(story::Text{960, 1010, "Caption: AV office", label, p.text, story::Align::center});
    return s;
}

}  // namespace render_test

namespace render_test {

const render::Fonts& shipped_fonts() {
    static const render::Fonts fonts(render::default_font_dir());
    return fonts;
}

namespace {

// Removed at exit, so test runs leave nothing behind in /tmp.
struct ScratchDir {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("shardreel-render-test-" + std::to_string(::getpid()));
    ScratchDir() { std::filesystem::create_directories(path); }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

}  // namespace

std::string scratch_path(const std::string& name) {
    static const ScratchDir dir;
    return (dir.path / name).string();
}

void render_still(const story::Scene& scene, const std::string& path, int width, int height) {
    const auto sink = render::make_sink(path, shipped_fonts());
    sink->begin({path, width, height, 30});
    sink->write(scene);
    sink->finish();
}

}  // namespace render_test
