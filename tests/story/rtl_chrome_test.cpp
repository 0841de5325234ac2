// The shared frame in a right-to-left film (issue 18): the title ends at the right of its row,
// the caption's lines at the band's right edge, the title card's lines at the right of their
// centred block, every line set in the film's language; the diagrams keep their left-to-right
// layout.
#include <algorithm>
#include <string_view>

#include "story/scene/layout.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"

using namespace story;

namespace {

const ApproxTextMetrics kMetrics;

std::vector<Text> texts(const Scene& s) {
    std::vector<Text> out;
    for (const PlacedText& p : texts_of(s)) out.push_back(p.text);
    return out;
}

// words by value: GCC 14 takes a reference bound to a temporary argument for a dangling result.
const Text& text_of(const std::vector<Text>& all, std::string_view words) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const Text& t) { return t.text == words; });
    REQUIRE(it != all.end());
    return *it;
}

Scene chrome_in(const std::string& lang, std::vector<Stat> stats) {
    Chrome c{"כותרת הפרק", std::move(stats), "כל כרטיס שומר עותק של המשקלים"};
    c.lang = lang;
    Scene s;
    add_chrome(s, palette(ThemeName::dark), kMetrics, c);
    return s;
}

}  // namespace

TEST_CASE("right to left, the title and caption are right-aligned and set in the language") {
    const auto rtl = texts(chrome_in("he", {{"לכל כרטיס", "112 GB"}}));
    const Text& title = text_of(rtl, "כותרת הפרק");
    CHECK(title.align == Align::right);
    CHECK(title.x == kStatPanelLeft - 40);  // beside the stat panel, which keeps its place
    const Text& caption = text_of(rtl, "כל כרטיס שומר עותק של המשקלים");
    CHECK(caption.align == Align::right);
    CHECK(caption.x == frame::kRight - 60);  // the band's right edge
    for (const Text& t : rtl) CHECK(t.style.lang == "he");
    CHECK(text_of(texts(chrome_in("he", {})), "כותרת הפרק").x == frame::kRight);

    // Left to right, as ever: the title at the left, the caption centred.
    const auto ltr = texts(chrome_in("en", {{"Per card", "112 GB"}}));
    CHECK(text_of(ltr, "כותרת הפרק").align == Align::left);
    CHECK(text_of(ltr, "כותרת הפרק").x == frame::kLeft);
    CHECK(text_of(ltr, "כל כרטיס שומר עותק של המשקלים").align == Align::center);
    CHECK(text_of(ltr, "כל כרטיס שומר עותק של המשקלים").x == frame::kWidth / 2);
}

TEST_CASE("right to left, the title card's lines end together at the right of the block") {
    ChapterSpec spec = chapter_test::load_spec("short.yaml", "intro");
    spec.title = "التدريب الموزع";
    spec.subtitle =
        "من البداية إلى النهاية، في أحد عشر فصلا عن توزيع تدريب النماذج الكبيرة على مئات البطاقات";
    spec.beats.clear();  // no caption
    Video video;
    video.lang = "ar";
    const auto lines = texts(make_chapter(spec, video, kMetrics)->scene_at(spec.duration));
    REQUIRE(lines.size() >= 3);  // the title and a subtitle wrapped to two lines
    double widest = 0;
    for (const Text& t : lines) {
        CHECK(t.align == Align::right);
        CHECK(t.x == lines.front().x);
        CHECK(t.style.lang == "ar");
        widest = std::max(widest, kMetrics.measure(t.text, t.style).advance);
    }
    CHECK(lines.front().x - widest / 2 == Approx(frame::kWidth / 2));  // the block is centred
}

TEST_CASE("in a right-to-left film the diagrams keep their left-to-right layout") {
    // Hebrew: right to left, but no catalogue is shipped for it, so the diagrams' words are the
    // English ones and their places, alignment and sizes must be too (ICU's Hebrew figures carry
    // a right-to-left mark, "7B\u200f", so the text itself is compared without it). Every text is
    // set in the film's language, so each line runs in its paragraph direction (issue 33, item
    // 10: a label that began with a Latin word was laid out left to right in an Arabic film).
    const ChapterSpec spec = chapter_test::load_spec("short.yaml", "bytes");
    Video ltr, rtl;
    rtl.lang = "he";
    const double t = spec.duration;
    const auto en = texts(make_chapter(spec, ltr, kMetrics)->scene_at(t));
    const auto he = texts(make_chapter(spec, rtl, kMetrics)->scene_at(t));
    REQUIRE(en.size() == he.size());
    int diagram = 0;
    for (std::size_t i = 0; i < en.size(); ++i) {
        INFO(en[i].text + " / " + he[i].text);
        CHECK(he[i].style.lang == "he");
        if (he[i].align != en[i].align || he[i].x != en[i].x) continue;  // the frame's own lines
        ++diagram;
        Text unmarked = he[i];
        for (std::size_t at; (at = unmarked.text.find("\u200f")) != std::string::npos;)
            unmarked.text.erase(at, 3);
        unmarked.style.lang = en[i].style.lang;
        CHECK(unmarked == en[i]);
    }
    CHECK(diagram > 5);
}
