// Golden stills of every chapter kind, as each kind's KindInfo::goldens names them: the first
// chapter of the kind in tests/storyboards/good/kind_<kind>.yaml at each golden's moment, at
// 480x270. A kind without its storyboard or a golden fails here.
#include <filesystem>
#include <sstream>

#include "render/inputs/storyboard_inputs.hpp"
#include "story/chapter/chapter.hpp"
#include "tests/catch.hpp"
#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

namespace {

std::string kind_storyboard(const std::string& kind) {
    return "tests/storyboards/good/kind_" + kind + ".yaml";
}

// The id of the first chapter of `kind` in its storyboard.
std::string first_chapter_of(const std::string& kind) {
    std::ostringstream errors;
    const auto board = render::load_storyboard(kind_storyboard(kind), errors);
    INFO(errors.str());
    REQUIRE(board);
    for (const story::ChapterSpec& c : board->chapters)
        if (c.kind == kind) return c.id;
    FAIL(kind_storyboard(kind) << " has no chapter of kind " << kind);
    return {};
}

}  // namespace

TEST_CASE("every chapter kind matches its golden stills", "[golden][chapters]") {
    REQUIRE(story::chapter_kinds().size() >= 16);
    for (const story::KindInfo& kind : story::chapter_kinds()) {
        INFO(kind.name);
        REQUIRE(std::filesystem::exists(kind_storyboard(kind.name)));
        REQUIRE_FALSE(kind.goldens.empty());
        const std::string id = first_chapter_of(kind.name);
        for (const story::Golden& g : kind.goldens) {
            INFO(g.png << " at " << g.at << " s: " << g.what);
            render_test::check_golden(
                g.png, render_test::chapter_png(kind_storyboard(kind.name), id, g.at));
        }
    }
}

// The chapter in each language the default film ships besides English: the catalogue's words,
// the locale's figures (Arabic-Indic digits in ar), Noto's scripts, Arabic right to left.
TEST_CASE("bytes_per_parameter golden in German, Arabic, Japanese and Hindi",
          "[golden][chapters][languages]") {
    for (const char* lang : {"de", "ar", "ja", "hi"}) {
        INFO(lang);
        render_test::check_golden(
            std::string("chapter_bytes_") + lang,
            render_test::chapter_png("tests/storyboards/good/kind_bytes_languages.yaml", "bytes",
                                     9.5, 960, 540, lang));
    }
}
