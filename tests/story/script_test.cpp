// The narration script: every spoken line in film order with its timecodes and take name,
// as Markdown and as RFC 4180 CSV.
#include "story/uses/script.hpp"

#include "story/load/timed.hpp"
#include "tests/catch.hpp"
#include "tests/story/lines.hpp"

namespace {

story::Storyboard board() {
    const char* yaml = R"(shardreel: 1
title: A | B
video: {fps: 30}
chapters:
  - id: intro
    kind: title
    duration: 4s
    beats:
      - {at: 1.5s, say: "First, a line"}
  - id: ring
    kind: ring_allreduce
    duration: 10s
    beats:
      - at: 0s
        say: Quoted "words", here
      - {at: 3s, set: {gpus: 16}}
      - {at: 2s, say: "Sorted | second"}
)";
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    auto b = story::load_timed(yaml, "s.yaml", diags, warnings);
    REQUIRE(diags.empty());
    b->chapters[1].beats[1].take = "takes/odd.flac";  // the sorted second beat, written third
    return *b;
}

}  // namespace

TEST_CASE("script lines follow the film's clock and name each beat's take by its written place") {
    const story::Storyboard b = board();
    const story::FilmTime time(b.chapters, 30);
    const auto lines = story::script_lines(b, time);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].chapter == 0);
    CHECK(lines[0].film_seconds == Approx(1.5));
    CHECK(lines[0].take == "intro-1.wav");
    CHECK(lines[1].film_seconds == Approx(4.0));
    CHECK(lines[1].take == "ring-1.wav");
    // Written third, sorted second by time; its own take wins over the name rule.
    CHECK(lines[2].number == 3);
    CHECK(lines[2].film_seconds == Approx(6.0));
    CHECK(lines[2].chapter_seconds == Approx(2.0));
    CHECK(lines[2].take == "takes/odd.flac");
}

TEST_CASE("script Markdown has one table per chapter with escaped pipes") {
    const story::Storyboard b = board();
    const std::string md = story::script_markdown(b, story::script_lines(b, {b.chapters, 30}));
    CHECK(story_test::lines_of(md).front() == "# Narration script: A \\| B");
    CHECK(story_test::lines_matching(md, "## .*") ==
          std::vector<std::string>{"## intro: ", "## ring: "});  // chapters without a title
    // Speech seconds: the reading estimates, without a voice (max(1 s, characters / 15)).
    CHECK(story_test::lines_matching(md, "\\| [0-9].*") ==
          std::vector<std::string>{
              "| 1 | 00:00:01.500 | 00:00:01.500 | 1.0 | intro-1.wav | First, a line |",
              "| 1 | 00:00:04.000 | 00:00:00.000 | 1.3 | ring-1.wav | Quoted \"words\", here |",
              "| 3 | 00:00:06.000 | 00:00:02.000 | 1.0 | takes/odd.flac | Sorted \\| second |"});
}

TEST_CASE("script CSV quotes fields with commas and quotes") {
    const story::Storyboard b = board();
    const std::string csv = story::script_csv(b, story::script_lines(b, {b.chapters, 30}));
    CHECK(csv ==
          "chapter,beat,timecode,chapter_time,speech_seconds,take,text\r\n"
          "intro,1,00:00:01.500,00:00:01.500,1.0,intro-1.wav,\"First, a line\"\r\n"
          "ring,1,00:00:04.000,00:00:00.000,1.3,ring-1.wav,\"Quoted \"\"words\"\", here\"\r\n"
          "ring,3,00:00:06.000,00:00:02.000,1.0,takes/odd.flac,Sorted | second\r\n");
}
