// scene_at is a pure function of time: one instance asked at shuffled times (a seeked player, a
// worker pool) draws what a fresh instance draws at that time, for every chapter of every kind
// and of every shipped storyboard.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <set>

#include "chapter_fixture.hpp"
#include "story/chapter/chapter.hpp"
#include "tests/catch.hpp"

using namespace story;
namespace fs = std::filesystem;

namespace {

using Make = std::function<std::unique_ptr<Chapter>()>;

// Both ends, a grid across the chapter and off-grid times, each asked twice, in a shuffled
// order fixed by the seed: a chapter that keeps anything from one call to the next draws a
// different scene somewhere in it.
std::vector<double> shuffled_times(double duration) {
    std::mt19937 rng(20240611);
    std::uniform_real_distribution<double> anywhere(0, duration);
    std::vector<double> times{0, duration};
    for (int i = 1; i < 16; ++i) times.push_back(duration * i / 16);
    for (int i = 0; i < 16; ++i) times.push_back(anywhere(rng));
    const std::size_t once = times.size();
    times.insert(times.end(), times.begin(), times.begin() + static_cast<long>(once));
    std::shuffle(times.begin(), times.end(), rng);
    return times;
}

// The first time at which the reused instance's scene differs from a fresh instance's.
std::optional<double> first_impure_time(const Make& make, double duration) {
    const auto reused = make();
    for (double t : shuffled_times(duration))
        if (reused->scene_at(t) != make()->scene_at(t)) return t;
    return std::nullopt;
}

struct Board {
    std::string file;
    Storyboard storyboard;
};

// storyboards/*.yaml (shipped) and the one-kind boards under tests/storyboards/good/.
std::vector<Board> boards() {
    std::vector<fs::path> paths;
    for (const char* dir : {"storyboards", "tests/storyboards/good"})
        for (const auto& e : fs::directory_iterator(fs::path(SHARDREEL_SOURCE_DIR) / dir))
            if (e.path().extension() == ".yaml") paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    std::vector<Board> out;
    for (const fs::path& p : paths)
        out.push_back({p.string(), chapter_test::load_file(p.string())});
    return out;
}

// Draws a different frame each call: what the check must catch.
class Drifting final : public Chapter {
  public:
    Scene scene_at(double t) const override {
        Scene s;
        s.add(Rect{t + static_cast<double>(calls_++), 0, 10, 10});
        return s;
    }
    std::vector<Stat> stats_at(double) const override { return {}; }

  private:
    mutable int calls_ = 0;
};

}  // namespace

TEST_CASE("the purity check catches a chapter that keeps state between calls", "[chapters]") {
    CHECK(first_impure_time([] { return std::make_unique<Drifting>(); }, 10).has_value());
}

TEST_CASE("scene_at at shuffled times equals a fresh chapter's scene, for every chapter",
          "[chapters]") {
    std::set<std::string> kinds;
    for (const Board& board : boards())
        for (const ChapterSpec& spec : board.storyboard.chapters) {
            INFO(board.file << ": chapter '" << spec.id << "' (" << spec.kind << ")");
            const Make make = [&] {
                return make_chapter(spec, board.storyboard.video, chapter_test::kMetrics);
            };
            const std::optional<double> impure = first_impure_time(make, spec.duration);
            INFO("differs from a fresh chapter at " << impure.value_or(-1) << " s");
            CHECK_FALSE(impure.has_value());
            kinds.insert(spec.kind);
        }
    CHECK(kinds.size() == chapter_kinds().size());  // every kind took part
}
