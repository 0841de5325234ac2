// story/time/moment: ID@TIME as still --at and the studio name a frame, and seconds into the film.
#include "story/time/moment.hpp"

#include "story/load/timed.hpp"
#include "tests/catch.hpp"

namespace {

story::Storyboard two_chapters() {
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    auto sb = story::load_timed(R"(shardreel: 1
video: {fps: 10, narration: off}
chapters:
  - {id: bytes, kind: bytes_per_parameter, duration: 3s}
  - {id: bubble, kind: pipeline_bubble, duration: 4s}
)",
                                "moment.yaml", diags, warnings);
    INFO(diags.format());
    REQUIRE(sb);
    return *sb;
}

}  // namespace

TEST_CASE("ID@TIME names a chapter's frame, rounded to the nearest - end is its last") {
    const story::Storyboard board = two_chapters();
    const story::FilmTime time(board.chapters, 10);
    story::Moment m;
    REQUIRE_FALSE(story::resolve_at(board, time, "bubble@1.26s", m));
    CHECK(m.chapter == 1);
    CHECK(m.frame == 13);
    CHECK(m.t == Approx(1.3));
    REQUIRE_FALSE(story::resolve_at(board, time, "bytes@end", m));
    CHECK(m.frame == 29);
    REQUIRE_FALSE(story::resolve_at(board, time, "bubble@7f", m));
    CHECK(m.frame == 7);
    CHECK(*story::resolve_at(board, time, "bubbel@1s", m) ==
          "no chapter 'bubbel' in moment.yaml (did you mean 'bubble'?)");
    CHECK(*story::resolve_at(board, time, "bubble@4s", m) ==
          "time '4s' is outside chapter 'bubble' (frames 0-39 at 10 fps)");
    CHECK(story::resolve_at(board, time, "bubble", m)->starts_with("--at expects ID@TIME"));
    CHECK(story::resolve_at(board, time, "bubble@soon", m)->starts_with("cannot parse time"));
}

TEST_CASE("seconds into the film name the frame on screen then, the last one at the end") {
    const story::Storyboard board = two_chapters();
    const story::FilmTime time(board.chapters, 10);
    const auto at = [&](double s) {
        const story::Moment m = story::moment_at(time, s);
        return std::pair{m.chapter, m.frame};
    };
    CHECK(at(0) == std::pair<std::size_t, int>{0, 0});
    CHECK(at(2.99) == std::pair<std::size_t, int>{0, 29});
    CHECK(at(3.0) == std::pair<std::size_t, int>{1, 0});  // a chapter's first frame is its own
    CHECK(at(5.55) == std::pair<std::size_t, int>{1, 25});
    CHECK(at(7.0) == std::pair<std::size_t, int>{1, 39});  // the film's end: its last frame
    CHECK(story::moment_at(time, 5.55).t == Approx(2.5));
}
