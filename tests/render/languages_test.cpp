// Text in other languages (issue 18): right-to-left runs ordered by FriBidi before HarfBuzz
// shapes them, Noto faces for the scripts Inter lacks and what happens without them, and lines
// wrapped with the real faces' advances. Glyph order is checked against HarfBuzz shaping the
// same run directly.
#include <hb.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "render/draw/fonts.hpp"
#include "story/scene/layout.hpp"
#include "story/scene/theme.hpp"
#include "story/text/lang.hpp"
#include "story/text/locale.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/golden.hpp"
#include "tests/render/test_scene.hpp"

using render::GlyphRun;
using render_test::shipped_fonts;
using story::TextStyle;
using story::Weight;

namespace fs = std::filesystem;

namespace {

TextStyle in(std::string lang, Weight w = Weight::regular) {
    return {40, w, false, std::move(lang)};
}

// Where Debian installs a fallback face's file.
std::string noto_path(const std::string& file) {
    for (const std::string& dir : render::Fonts::default_fallback_dirs())
        if (fs::exists(fs::path(dir) / file)) return (fs::path(dir) / file).string();
    FAIL("no " << file << " in Debian's Noto directories");
    return "";
}

// HarfBuzz's glyphs for text shaped as one run, straight from the font file.
std::vector<unsigned> hb_glyphs(const std::string& path, const std::string& text,
                                hb_direction_t direction, const char* lang) {
    hb_blob_t* blob = hb_blob_create_from_file(path.c_str());
    hb_face_t* face = hb_face_create(blob, 0);
    hb_font_t* font = hb_font_create(face);
    hb_buffer_t* buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, text.data(), static_cast<int>(text.size()), 0, -1);
    hb_buffer_guess_segment_properties(buffer);
    hb_buffer_set_direction(buffer, direction);
    hb_buffer_set_language(buffer, hb_language_from_string(lang, -1));
    hb_shape(font, buffer, nullptr, 0);
    unsigned count = 0;
    const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(buffer, &count);
    std::vector<unsigned> glyphs;
    for (unsigned i = 0; i < count; ++i) glyphs.push_back(info[i].codepoint);
    hb_buffer_destroy(buffer);
    hb_font_destroy(font);
    hb_face_destroy(face);
    hb_blob_destroy(blob);
    return glyphs;
}

// The glyph a face maps a character to before shaping (its isolated, unjoined form).
unsigned nominal_glyph(const std::string& path, hb_codepoint_t c) {
    hb_blob_t* blob = hb_blob_create_from_file(path.c_str());
    hb_face_t* face = hb_face_create(blob, 0);
    hb_font_t* font = hb_font_create(face);
    hb_codepoint_t glyph = 0;
    hb_font_get_nominal_glyph(font, c, &glyph);
    hb_font_destroy(font);
    hb_face_destroy(face);
    hb_blob_destroy(blob);
    return glyph;
}

std::string text_of(const std::string& utf8, const GlyphRun& run) {
    return utf8.substr(run.begin, run.end - run.begin);
}

bool has_notdef(const std::vector<GlyphRun>& runs) {
    return std::any_of(runs.begin(), runs.end(), [](const GlyphRun& r) {
        return std::find(r.glyphs.begin(), r.glyphs.end(), 0u) != r.glyphs.end();
    });
}

// The one run a right-to-left word shapes into, checked against HarfBuzz shaping the word right
// to left straight from the face's file.
GlyphRun rtl_word(const std::string& word, const char* lang, const std::string& face) {
    const auto runs = shipped_fonts().runs(word, in(lang));
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].rtl);
    CHECK(runs[0].face == face);
    CHECK(runs[0].glyphs == hb_glyphs(noto_path(face), word, HB_DIRECTION_RTL, lang));
    return runs[0];
}

}  // namespace

TEST_CASE("Hebrew shapes right to left: the first glyph drawn is the last letter", "[text][i18n]") {
    const GlyphRun run = rtl_word("שלום", "he", "NotoSansHebrew-Regular.ttf");
    const std::string path = noto_path(run.face);
    CHECK(run.glyphs.front() == nominal_glyph(path, U'ם'));  // final mem, the last letter
    CHECK(run.glyphs.back() == nominal_glyph(path, U'ש'));
}

TEST_CASE("Arabic letters join and run right to left, words in reverse order", "[text][i18n]") {
    const GlyphRun run = rtl_word("مرحبا", "ar", "NotoSansArabic-Regular.ttf");
    // Joined: the first letter (drawn last) takes its initial form, not the isolated one.
    CHECK(run.glyphs.back() != nominal_glyph(noto_path(run.face), U'م'));

    const std::string sentence = "مرحبا بالعالم";
    const auto words = shipped_fonts().runs(sentence, in("ar"));
    REQUIRE(words.size() >= 2);
    CHECK(text_of(sentence, words.front()) == "بالعالم");
    CHECK(text_of(sentence, words.back()) == "مرحبا");
}

TEST_CASE("GPU 0 inside an Arabic sentence keeps its letters and digit in order", "[text][i18n]") {
    const std::string sentence = "يعمل GPU 0 الآن";
    const auto latin = shipped_fonts().runs("GPU 0", in("en"));
    REQUIRE(latin.size() == 1);
    // The film's language makes the paragraph right to left; unknown, the first letter does.
    for (const char* lang : {"ar", ""}) {
        INFO("lang '" << lang << "'");
        const auto runs = shipped_fonts().runs(sentence, in(lang));
        const auto gpu = std::find_if(runs.begin(), runs.end(), [&](const GlyphRun& r) {
            return text_of(sentence, r) == "GPU 0";
        });
        REQUIRE(gpu != runs.end());
        CHECK_FALSE(gpu->rtl);
        CHECK(gpu->face == "Inter-Regular.otf");
        CHECK(gpu->glyphs == latin[0].glyphs);  // logical order, the 0 not mirrored
        // Read from the right: "يعمل", then "GPU 0", then "الآن" at the left end.
        CHECK(text_of(sentence, runs.front()) == "الآن");
        CHECK(text_of(sentence, runs.back()) == "يعمل");
    }
}

// The settings a chapter names under its title ("Here: ...") and plan's candidate rows are lists
// of Latin names with counts in the film's digits. Arabic-Indic digits end a Latin run, so across
// a neutral separator two names joined into one left-to-right run and their counts fell outside
// it ("ZeRO-1 · cp" beside a ٢ that read as ZeRO-1's).
TEST_CASE("an Arabic list of settings keeps each name with its count", "[text][i18n]") {
    const std::vector<std::string> items = {"٣٢ وحدات GPU", "tp ٤", "pp ٢", "ZeRO-1", "cp ٢"};
    for (const char* sep : {" · ", " × ", ", "}) {
        std::string text;
        for (const std::string& item : items)
            text += (text.empty() ? "" : story::list_separator(sep, "ar")) + item;
        INFO(text);
        const auto runs = shipped_fonts().runs(text, in("ar"));
        // Each run inside one item: its bytes between two separators.
        std::vector<std::size_t> ends;
        for (std::size_t at = text.find(sep); at != std::string::npos; at = text.find(sep, at + 1))
            ends.push_back(at);
        for (const GlyphRun& r : runs) {
            const auto words = std::count_if(ends.begin(), ends.end(), [&](std::size_t at) {
                return r.begin < at && at + std::string_view(sep).size() < r.end;
            });
            CHECK(words == 0);
        }
    }
    CHECK(story::list_separator(" · ", "de") == " · ");
}

TEST_CASE("Devanagari shapes with conjuncts", "[text][i18n]") {
    const std::string hindi = "हिन्दी";  // 6 code points: ह ि न ् द ी
    const auto runs = shipped_fonts().runs(hindi, in("hi"));
    REQUIRE(runs.size() == 1);
    CHECK_FALSE(runs[0].rtl);
    CHECK(runs[0].face == "NotoSansDevanagari-Regular.ttf");
    CHECK(runs[0].glyphs.size() < 6);
    CHECK_FALSE(has_notdef(runs));
}

TEST_CASE("fallback faces cover Arabic, Hebrew, Devanagari and CJK text", "[text][i18n]") {
    const render::Fonts& fonts = shipped_fonts();
    CHECK(fonts.missing_scripts().empty());
    for (const auto& [text, lang] : std::vector<std::pair<std::string, std::string>>{
             {"كل بطاقة تحمل نسخة من الأوزان", "ar"},
             {"כל כרטיס שומר עותק של המשקלים", "he"},
             {"हर कार्ड भार की एक प्रति रखता है", "hi"},
             {"各GPUは重みの一部だけを保持します。", "ja"},
             {"每张卡只保存一部分权重。", "zh-CN"},
             {"그래디언트를 모두 더합니다", "ko"}}) {
        INFO(text);
        CHECK_FALSE(has_notdef(fonts.runs(text, in(lang))));
    }
}

TEST_CASE("CJK text takes the face of its language's region", "[text][i18n]") {
    const auto family = [](const char* text, const char* lang) {
        const auto runs = shipped_fonts().runs(text, in(lang));
        return runs.empty() ? std::string() : runs.front().family;
    };
    CHECK(family("重み", "ja") == "Noto Sans CJK JP");
    CHECK(family("重み", "") == "Noto Sans CJK JP");
    CHECK(family("权重", "zh-CN") == "Noto Sans CJK SC");
    CHECK(family("權重", "zh-Hant") == "Noto Sans CJK TC");
    CHECK(family("權重", "zh_TW") == "Noto Sans CJK TC");
    CHECK(family("權重", "zh-HK") == "Noto Sans CJK HK");
    CHECK(family("가중치", "ko") == "Noto Sans CJK KR");
}

// The face of the run that draws byte `at` of a shaped line.
std::string face_at(const std::vector<GlyphRun>& runs, std::size_t at) {
    for (const GlyphRun& r : runs)
        if (at >= r.begin && at < r.end) return r.face;
    return "(no run)";
}

TEST_CASE("in Hindi labels the colon and the punctuation beside figures share the digits' face",
          "[text][i18n]") {
    // Labels of the Hindi film that put "X: Y" or figures between Devanagari words, from its
    // catalogue: the colon (and comma, parentheses, the thin space and "·") between Devanagari
    // and Latin digits must come from the face that draws those digits, not from the
    // Devanagari words' face (issue 33), in every weight the film draws.
    const story::Locale hi("hi");
    const std::vector<std::string> labels = {
        hi.tr("Model states: {bytes}, one card holds {capacity}",
              {{"bytes", "112\u2009GB"}, {"capacity", "80\u2009GB"}}),
        hi.tr("Recompute: full"),
        hi.tr("PCIe: {bandwidth} each way", {{"bandwidth", "64\u2009GB/s"}}),
        hi.tr("Offload: {mode}", {{"mode", "ZeRO-3"}}),
        hi.tr("Gate: each token goes to its top {k} of {experts} experts · {n} per GPU (ep {ep})",
              {{"k", 2}, {"experts", 8}, {"n", 8}, {"ep", 1}}),
        "स्थितियाँ: 12.5% (8 GPU)"};
    for (const Weight w : {Weight::regular, Weight::medium, Weight::semibold})
        for (const std::string& label : labels) {
            INFO(label << " at weight " << int(w));
            REQUIRE(label != "");
            const auto runs = shipped_fonts().runs(label, in("hi", w));
            CHECK_FALSE(has_notdef(runs));
            const std::size_t digit = label.find_first_of("0123456789");
            const std::string digits = digit == std::string::npos ? "" : face_at(runs, digit);
            bool devanagari = false;
            for (std::size_t i = 0; i < label.size(); ++i) {
                const char c = label[i];
                if (static_cast<unsigned char>(c) == 0xE0) {  // U+0800-0FFF: Devanagari here
                    devanagari = devanagari || face_at(runs, i).starts_with("NotoSansDevanagari");
                    continue;
                }
                if (std::string(":,()%").find(c) == std::string::npos) continue;
                INFO("'" << c << "' at byte " << i);
                CHECK(face_at(runs, i).starts_with("Inter-"));
                if (!digits.empty()) CHECK(face_at(runs, i) == digits);
            }
            if (!digits.empty()) CHECK(digits.starts_with("Inter-"));
            CHECK(devanagari);  // the words are Noto's: the label is mixed, not all Inter
        }
}

TEST_CASE("fallbacks match Inter's weights as closely as they offer", "[text][i18n]") {
    // fonts-noto-core has Regular and Bold: medium is nearer Regular, semibold nearer Bold.
    const auto face = [](Weight w) { return shipped_fonts().runs("مرحبا", in("ar", w))[0].face; };
    CHECK(face(Weight::regular) == "NotoSansArabic-Regular.ttf");
    CHECK(face(Weight::medium) == "NotoSansArabic-Regular.ttf");
    CHECK(face(Weight::semibold) == "NotoSansArabic-Bold.ttf");
    CHECK(shipped_fonts().runs("重み", in("ja", Weight::semibold))[0].face ==
          "NotoSansCJK-Bold.ttc");
}

TEST_CASE("tabular figures keep one advance in a right-to-left line", "[text][i18n]") {
    const TextStyle tabular{50, Weight::regular, true, "ar"};
    CHECK(shipped_fonts().measure("1,111.1", tabular).advance ==
          shipped_fonts().measure("8,808.0", tabular).advance);
    CHECK(shipped_fonts().measure("1", {50, Weight::regular, false, "ar"}).advance <
          shipped_fonts().measure("1", tabular).advance - 5);
}

TEST_CASE("without the Noto packages the fonts still load and missing glyphs are .notdef",
          "[text][i18n]") {
    const std::string empty = render_test::scratch_path("no-noto");
    fs::create_directories(empty);
    const render::Fonts fonts(render::default_font_dir(), {empty});
    CHECK(fonts.missing_scripts() ==
          std::vector<std::string>{"Arabic", "Hebrew", "Devanagari", "CJK"});
    const auto runs = fonts.runs("שלום", in("he"));
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].face == "Inter-Regular.otf");
    CHECK(runs[0].glyphs == std::vector<unsigned>(4, 0));
    CHECK(fonts.measure("שלום", in("he")).advance > 0);  // boxes, laid out like any glyph
    // Latin text is untouched.
    CHECK(fonts.runs("GPU 0", in("en"))[0].glyphs ==
          shipped_fonts().runs("GPU 0", in(""))[0].glyphs);
}

TEST_CASE("the font digest covers the fallback files found", "[text][i18n]") {
    // Links to Debian's files: the same contents give the same digest, wherever they are.
    const fs::path all = render_test::scratch_path("noto-all"),
                   no_hebrew = render_test::scratch_path("noto-no-hebrew"),
                   other_hebrew = render_test::scratch_path("noto-other-hebrew");
    for (const fs::path& dir : {all, no_hebrew, other_hebrew}) {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    for (const std::string& dir : render::Fonts::default_fallback_dirs()) {
        for (const auto& entry : fs::directory_iterator(dir)) {
            const std::string name = entry.path().filename().string();
            if (name.rfind("NotoSans", 0) != 0) continue;
            fs::create_symlink(entry.path(), all / name);
            if (name.rfind("NotoSansHebrew-", 0) == 0) {
                fs::copy_file(entry.path(), other_hebrew / name);
                std::ofstream(other_hebrew / name, std::ios::app) << '\0';
                continue;
            }
            fs::create_symlink(entry.path(), no_hebrew / name);
            fs::create_symlink(entry.path(), other_hebrew / name);
        }
    }
    const std::string dir = render::default_font_dir(), digest = shipped_fonts().digest();
    CHECK(render::Fonts(dir, {all.string()}).digest() == digest);
    const render::Fonts without(dir, {no_hebrew.string()});
    CHECK(without.missing_scripts() == std::vector<std::string>{"Hebrew"});
    CHECK(without.digest() != digest);
    CHECK(render::Fonts(dir, {other_hebrew.string()}).digest() != digest);
    CHECK(render::Fonts(dir, {other_hebrew.string()}).digest() != without.digest());
}

// Cairo writes each run's clusters into the PDF's ToUnicode map: pdftotext reads the words back
// (right-to-left lines in logical order between embedding marks) only if they map each glyph to
// its own letters. No CJK line: Cairo 1.16 loses 768 bytes finishing a PDF that embeds a
// CID-keyed font such as Noto Sans CJK, which the sanitized suite would report (its stacks
// through libcairo stop at the first frame, so no suppression can name the leak).
TEST_CASE("PDF text maps right-to-left and mixed runs back to their words", "[text][i18n]") {
    const std::vector<std::pair<std::string, std::string>> lines = {
        {"يعمل GPU 0 الآن", "ar"}, {"שלום עולם", "he"}, {"हिन्दी में GPU", "hi"}};
    story::Scene scene;
    double y = 100;
    for (const auto& [text, lang] : lines)
        scene.add(story::Text{100, y += 120, text, in(lang), story::hex(0xFFFFFF)});
    const std::string pdf = render_test::scratch_path("languages.pdf");
    render_test::render_still(scene, pdf, 1920, 1080);
    REQUIRE(std::system(("pdftotext '" + pdf + "' '" + pdf + ".txt'").c_str()) == 0);
    // One line of text for each line drawn, in order, each wrapped in pdftotext's embedding marks
    // (RLE ... PDF, an LRE ... PDF round each left-to-right run inside).
    const std::string rle = "\u202b", lre = "\u202a", pdf_mark = "\u202c";
    const std::vector<std::string> read = render_test::lines_of(render_test::slurp(pdf + ".txt"));
    REQUIRE(read.size() >= 3);
    // pdftotext (poppler 22) writes الآن, whose lam-alef is one glyph, back as اآلن, and a space
    // before the embedded run: what it reads, exactly, so a change in the map shows here.
    CHECK(read[0] == rle + "يعمل " + lre + " GPU 0" + pdf_mark + "اآلن" + pdf_mark);
    CHECK(read[1] == rle + lines[1].first + pdf_mark);
    CHECK(read[2] == rle + lre + lines[2].first + pdf_mark + pdf_mark);
}

namespace {

double widest(const std::vector<std::string>& lines, const TextStyle& style) {
    double w = 0;
    for (const std::string& l : lines) w = std::max(w, shipped_fonts().measure(l, style).advance);
    return w;
}

}  // namespace

TEST_CASE("a Japanese caption wraps between characters within the width", "[text][i18n]") {
    const std::string text = "各GPUは重みの一部だけを保持し、勾配を足し合わせてから更新します。";
    const TextStyle style{34, Weight::regular, false, "ja"};
    const auto lines = story::wrap_text(shipped_fonts(), text, style, 300);
    REQUIRE(lines.size() >= 3);
    std::string all;
    for (const std::string& l : lines) all += l;
    CHECK(all == text);  // no space added or lost: the breaks fall between characters
    CHECK(widest(lines, style) <= 300);
    CHECK(story::wrap_balanced(shipped_fonts(), text, style, 300).size() == lines.size());
}

TEST_CASE("a German label with a long compound wraps within a narrow width", "[text][i18n]") {
    const std::string text = "Der Kommunikationsaufwand wächst";
    const TextStyle style{26, Weight::medium, false, "de"};
    const double width = 180;
    REQUIRE(shipped_fonts().measure("Kommunikationsaufwand", style).advance > width);
    const auto lines = story::wrap_text(shipped_fonts(), text, style, width);
    CHECK(widest(lines, style) <= width);
    REQUIRE(lines.size() >= 3);
    CHECK(lines[0] == "Der");
    CHECK(lines[1].back() == '-');
    CHECK(lines[1].rfind("Kommunik", 0) == 0);
}

// One line in each of five languages, the right-to-left ones right-aligned at the safe area's
// right edge (guides mark both edges), drawn at 960x540 so the glyphs can be read.
TEST_CASE("five languages match their golden image", "[golden][i18n]") {
    const story::Palette& p = story::palette(story::ThemeName::dark);
    story::Scene scene;
    scene.background = p.background;
    for (const double x : {story::frame::kLeft, story::frame::kRight})
        scene.add(story::Line{{x, 120}, {x, 960}, p.grid, 2});
    const std::vector<std::pair<std::string, std::string>> lines = {
        {"يرسل GPU 0 التدرجات إلى جيرانه", "ar"},
        {"כל כרטיס שומר עותק של המשקלים", "he"},
        {"各GPUは重みの一部だけを保持します。", "ja"},
        {"हर GPU अपने हिस्से की गणना करता है", "hi"},
        {"Der Kommunikationsaufwand wächst mit der Zahl der Karten.", "de"}};
    double y = 240;
    for (const auto& [text, lang] : lines) {
        const bool rtl = story::is_rtl(lang);
        scene.add(story::Text{rtl ? story::frame::kRight : story::frame::kLeft,
                              y,
                              text,
                              {56, Weight::regular, false, lang},
                              p.text,
                              rtl ? story::Align::right : story::Align::left});
        y += 160;
    }
    const std::string png = render_test::scratch_path("text_languages.png");
    render_test::render_still(scene, png, 960, 540);
    render_test::check_golden("text_languages", png);
}
