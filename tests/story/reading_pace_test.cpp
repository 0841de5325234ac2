// story::reading_pace: a silent film's captions at or under 180 words a minute (Japanese: 4
// characters a second), warned at the `say:` with what the line needs; none where a voice speaks
// or no caption shows; none in the shipped storyboards, in any language they list.
#include <filesystem>

#include "story/load/load.hpp"
#include "story/load/timed.hpp"
#include "story/storyboard/languages.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"

namespace {

// A silent bytes_per_parameter chapter of 10 s whose first line is `say` and whose next beat
// comes at `next`; `video` adds keys to the video map.
std::string silent(const std::string& say, const std::string& next, const std::string& video = "") {
    return "shardreel: 1\n"
           "video: {size: 640x360" +
           video +
           "}\n"
           "chapters:\n"
           "  - id: a\n"
           "    kind: bytes_per_parameter\n"
           "    duration: 10s\n"
           "    beats:\n"
           "      - at: 0s\n"
           "        say: " +
           say +
           "\n"
           "      - at: " +
           next +
           "\n"
           "        say: Then.\n";
}

std::vector<story::Diagnostic> pace(const std::string& text, const std::string& lang = "") {
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    const auto board = story::load_timed(text, "p.yaml", errors, warnings, {}, lang);
    INFO(errors.format());
    REQUIRE(board);
    for (const story::Diagnostic& d : warnings)  // loading adds none of these
        CHECK(d.message.find("words a minute") == std::string::npos);
    std::vector<story::Diagnostic> slow;
    story::reading_pace(*board, slow);
    return slow;
}

const std::string kTwelveWords = "One two three four five six seven eight nine ten eleven twelve.";

}  // namespace

TEST_CASE("a silent caption shown for less than its words at 180 a minute is warned at its say") {
    // Twelve words need 4 s; shown 3 s, to the next beat.
    const auto w = pace(silent(kTwelveWords, "3s"));
    REQUIRE(w.size() == 1);
    CHECK(w[0].format() ==
          "p.yaml:9:14: warning: this caption shows for 3s but needs 4s to read at 180 words a "
          "minute with no voice: give it 1s more (move the next beat or lengthen the chapter), "
          "shorten it, or narrate the chapter");
    // Exactly 180 words a minute is allowed; the last line runs to the chapter's end (6 s).
    CHECK(pace(silent(kTwelveWords, "4s")).empty());
}

TEST_CASE("no reading-pace warning where no caption shows or a voice speaks") {
    CHECK(pace(silent(kTwelveWords, "1s", ", captions: off")).empty());
    // Twenty one-letter words: read in 2.6 s by the estimate, 6.7 s at 180 words a minute.
    const std::string letters = "a b c d e f g h i j k l m n o p q r s t";
    CHECK(pace(silent(letters, "after")).size() == 1);
    CHECK(pace(silent(letters, "after", ", narration: {voice: 'espeak-ng:en-us'}")).empty());
}

TEST_CASE("Japanese captions are read at 4 characters a second") {
    CHECK(story::caption_reading_seconds("分散学習のすべて", "ja") == 2);  // 8 characters
    CHECK(story::caption_reading_seconds("eight words here and there, said plainly now", "en") ==
          Approx(8.0 / 3));
    const std::string ja = "shardreel: 1\nlanguages: [en, ja]\nfallback: en\n" +
                           silent("{en: Short., ja: 分散学習のすべて分散学習のすべて}", "3s")
                               .substr(std::string("shardreel: 1\n").size());
    REQUIRE(pace(ja, "en").empty());
    const auto w = pace(ja, "ja");  // 16 characters need 4 s
    REQUIRE(w.size() == 1);
    CHECK(w[0].pos.line == 11);
}

TEST_CASE("the shipped storyboards read at 180 words a minute or less in every language") {
    for (const auto& entry :
         std::filesystem::directory_iterator(SHARDREEL_SOURCE_DIR "/storyboards")) {
        if (entry.path().extension() != ".yaml") continue;
        const std::string text = chapter_test::slurp(entry.path().string());
        story::Diagnostics errors;
        std::vector<story::Diagnostic> warnings;
        const auto own = story::load_timed(text, entry.path().string(), errors, warnings);
        REQUIRE(own);
        for (const std::string& lang : own->languages) {
            INFO(entry.path().filename().string() << " in " << lang);
            const auto board =
                story::load_timed(text, entry.path().string(), errors, warnings, {}, lang);
            REQUIRE(board);
            std::vector<story::Diagnostic> slow;
            story::reading_pace(*board, slow);
            CHECK(story::format_diagnostics(story::Diagnostics{}, slow) == "");
        }
    }
}
