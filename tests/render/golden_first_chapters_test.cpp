// Golden stills of the title and bytes_per_parameter chapters at their key moments.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

namespace {
const std::string kTitle = "tests/storyboards/good/kind_title.yaml";
const std::string kBytes = "tests/storyboards/good/kind_bytes_per_parameter.yaml";
}  // namespace

TEST_CASE("title chapter golden", "[golden][chapters]") {
    render_test::check_golden("chapter_title", render_test::chapter_png(kTitle, "title", 3.0));
}

TEST_CASE("bytes_per_parameter golden: one card overflowing, then fourteen cards",
          "[golden][chapters]") {
    render_test::check_golden("chapter_bytes_single",
                              render_test::chapter_png(kBytes, "bytes", 9.0));
    render_test::check_golden("chapter_bytes_grid",
                              render_test::chapter_png(kBytes, "bytes", 19.0));
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
