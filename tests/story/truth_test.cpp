// The film tells the truth at every frame (issue 33): every stat panel of every chapter of the
// shipped storyboards, at each beat and through each `set:` morph, holds the engine's figures
// for the configuration on screen then (config_at, as `numbers --at` and the studio read it);
// and while a `set:` morphs, every number a frame shows is one a state of the chapter shows at
// rest (no "tp = 3" between tp 2 and tp 4, no bubble formula whose terms give another figure).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>

#include "chapter_fixture.hpp"
#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "engine/strategies.hpp"
#include "on_screen.hpp"
#include "story/chapter/chapter.hpp"
#include "story/chapter/choreography.hpp"
#include "story/text/format.hpp"
#include "story/uses/explore.hpp"
#include "story/vocab/vocab.hpp"
#include "tests/catch.hpp"
#include "tests/story/films.hpp"

using namespace story;
namespace fs = std::filesystem;

namespace {

const Locale kEnglish("en");

struct Board {
    std::string file;
    Storyboard storyboard;
};

// storyboards/*.yaml, the films the project ships.
std::vector<Board> shipped() {
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(fs::path(SHARDREEL_SOURCE_DIR) / "storyboards"))
        if (e.path().extension() == ".yaml") paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    std::vector<Board> out;
    for (const fs::path& p : paths)
        out.push_back({p.filename().string(), chapter_test::load_file(p.string())});
    return out;
}

// The groups whose bytes a step sends ("dp", "tp", ...), as a set.
std::set<std::string> senders(const engine::CommPerStep& c) {
    std::set<std::string> out;
    if (c.dp_per_gpu.value > 0) out.insert("dp");
    if (c.tp_per_gpu.value > 0) out.insert("tp");
    if (c.pp_per_gpu.value > 0) out.insert("pp");
    if (c.ep_per_gpu.value > 0) out.insert("ep");
    if (c.cp_per_gpu.value > 0) out.insert("cp");
    return out;
}

// The traffic a "Comm / step" detail names ("tp + dp · 122 ms" names tp and dp), and its time.
std::pair<std::set<std::string>, std::string> named_traffic(const std::string& detail) {
    const std::string dot = " · ";
    const auto at = detail.find(dot);
    if (at == std::string::npos) return {{}, detail};
    std::set<std::string> names;
    std::istringstream in(detail.substr(0, at));
    for (std::string word; in >> word;)
        if (word != "+") names.insert(word);
    return {names, detail.substr(at + dot.size())};
}

// The panel of one report, as the engine gives it: per card, the traffic sent and its time,
// the bubble.
void check_panel(const std::vector<Stat>& stats, const engine::Report& r, const char* card) {
    REQUIRE(stats.size() == 3);
    CHECK(stats[0].label == card);
    CHECK(stats[1].label == "Comm / step");
    CHECK(stats[1].value == format_bytes(r.comm.sent_per_gpu().value, kEnglish));
    const auto [names, time] = named_traffic(stats[1].detail);
    CHECK(names == senders(r.comm));
    CHECK(time == format_time(r.comm.total().value, kEnglish));
    CHECK(stats[2].label == "Bubble");
    CHECK(stats[2].value == format_percent(r.bubble_fraction, kEnglish));
}

// When a chapter's phase `name` begins, on its beats (the chapter's end when it has none).
double phase_start(const ChapterSpec& spec, const std::string& name) {
    const KindInfo* kind = find_kind(spec.kind);
    for (const Phase& p : phases_of(*kind, spec))
        if (p.name == name) return Choreography(spec, kind).at(p.at);
    return spec.duration;
}

// The card's figure as the engine gives it, and "over by" under it where it passes the capacity.
void check_card(const Stat& stat, double bytes, double capacity) {
    CHECK(stat.value == format_bytes(bytes, kEnglish));
    CHECK(stat.detail == (bytes > capacity ? over_by(kEnglish, bytes - capacity) : ""));
    CHECK(stat.alert == (bytes > capacity));
}

// What the chapter's stat panel must hold when `c` is on screen at `t`, by kind.
void check_stats(const ChapterSpec& spec, const std::vector<Stat>& stats, engine::Config c,
                 double t) {
    const KindInfo* kind = find_kind(spec.kind);
    REQUIRE(kind);
    if (spec.kind == "title") {
        CHECK(stats.empty());
    } else if (spec.kind == "bytes_per_parameter") {
        // The whole model's state, not a card's: named so.
        REQUIRE(stats.size() == 3);
        CHECK(stats[0].label == "Model states");
        CHECK(stats[0].value == format_bytes(engine::analyze(c).model_states.value, kEnglish));
    } else if (spec.kind == "context_parallel") {
        const engine::Report r = engine::analyze(c);
        REQUIRE(stats.size() == 3);
        CHECK(stats[0].value == format_bytes(r.per_gpu.total.value, kEnglish));
        CHECK(stats[1].value == format_bytes(r.per_gpu.activations.value, kEnglish));
        CHECK(stats[2].value == format_bytes(r.comm.cp_per_gpu.value, kEnglish));
        CHECK(stats[2].detail == format_time(r.comm.cp_time.value, kEnglish));
    } else if (spec.kind == "step_memory") {
        // The chart's three levels: the figure on paper, the expected peak (once the line that
        // names it is spoken: "—" before), the card.
        const engine::PerGpu g = engine::per_gpu_memory(c);
        REQUIRE(stats.size() == 3);
        CHECK(stats[0].label == "On paper");
        CHECK(stats[0].value == format_bytes(g.total.value, kEnglish));
        CHECK(stats[1].label == "Expected peak");
        const bool named = t >= phase_start(spec, "peak");
        CHECK(stats[1].value == (named ? format_bytes(g.expected.total.value, kEnglish) : "—"));
        CHECK(later_figures_drawn(spec, t) == named);  // the studio's and page's facts follow
        CHECK(stats[2].label == "Capacity");
        CHECK(stats[2].value == format_bytes(g.capacity.value, kEnglish));
    } else if (spec.kind == "fsdp_gather") {
        // The film is FSDP's, ZeRO-3 (as the page's and studio's figures of it); the card's
        // total names the activations its gauge leaves out.
        const engine::Report r = engine::analyze(kind->facts.shown(c));
        CHECK(r.layout.zero == 3);
        check_panel(stats, r, "Per card");
        CHECK(stats[0].value == format_bytes(r.per_gpu.total.value, kEnglish));
        CHECK(stats[0].detail == "with activations");
        CHECK(r.per_gpu.activations.value > 0);
    } else if (spec.kind == "activation_checkpointing") {
        // The panel says what the card draws: its model states until the activations pour in
        // on top, then the whole card, "over by" where it overflows (issue 33).
        const engine::Report r = engine::analyze(c);
        const engine::PerGpu& g = r.per_gpu;
        const bool states_only = t < phase_start(spec, "activations");
        check_panel(stats, r, states_only ? "Model states per card" : "Per card");
        check_card(
            stats[0],
            states_only ? g.weights.value + g.gradients.value + g.optimizer.value : g.total.value,
            g.capacity.value);
    } else if (spec.kind == "plan") {
        // No winner until the search on screen ranks: every figure "—" (the test below says when).
        if (std::all_of(stats.begin(), stats.end(), [](const Stat& s) { return s.value == "—"; }))
            return;
        const engine::Report r = engine::analyze(kind->facts.shown(c));
        check_panel(stats, r, "Expected peak");
        CHECK(stats[0].value == format_bytes(r.per_gpu.expected.total.value, kEnglish));
    } else if (spec.kind == "summary") {
        // The last row's, 3D parallelism.
        const engine::Report r = engine::analyze(engine::strategy_configs(c).back().config);
        check_panel(stats, r, "Per card");
        CHECK(stats[0].value == format_bytes(r.per_gpu.total.value, kEnglish));
    } else {
        const engine::Report r = engine::analyze(c);
        check_panel(stats, r, "Per card");
        CHECK(stats[0].value == format_bytes(r.per_gpu.total.value, kEnglish));
    }
}

// Times inside the k-th state's morph, from just after its start to just before its end.
std::vector<double> through_morph(const Timeline& timeline, int k) {
    std::vector<double> out;
    for (int i = 1; i < 10; ++i)
        out.push_back(timeline.state_start(k) + timeline.state_over(k) * i / 10);
    return out;
}

// Every fully visible text of a scene, but the plan chapter's count of candidates, which counts
// up as its search replays and a `set:` restarts on its own beat: a figure of the search in
// progress, not of a blend.
std::set<std::string> texts(const Scene& s) {
    std::set<std::string> out;
    for (const on_screen::Shown& text : on_screen::shown(s)) out.insert(text.text);
    if (on_screen::count(s, "Candidates") == 1) out.erase(on_screen::beside(s, "Candidates"));
    return out;
}

// Those that hold a digit: its figures.
std::set<std::string> figures(const std::set<std::string>& texts) {
    std::set<std::string> out;
    for (const std::string& text : texts)
        if (std::ranges::any_of(text, [](unsigned char ch) { return std::isdigit(ch); }))
            out.insert(text);
    return out;
}

// The texts of `texts` that `in` shows and `out` does not.
std::set<std::string> only_in(const std::set<std::string>& texts, const std::set<std::string>& in,
                              const std::set<std::string>& out) {
    std::set<std::string> only;
    for (const std::string& text : texts)
        if (in.count(text) == 1 && out.count(text) == 0) only.insert(text);
    return only;
}

}  // namespace

TEST_CASE(
    "every stat of every beat of the shipped films is the engine's figure for the state on screen",
    "[truth]") {
    for (const Board& board : shipped())
        for (const ChapterSpec& spec : board.storyboard.chapters) {
            const int fps = board.storyboard.video.fps;
            const auto chapter = make_chapter(spec, board.storyboard.video, chapter_test::kMetrics);
            const Timeline timeline(spec, fps);
            std::vector<double> times;
            for (std::size_t i = 0; i < spec.beats.size(); ++i) {
                times.push_back(spec.beats[i].at);
                times.push_back(timeline.seconds(timeline.rest_frame(i)));
            }
            for (int k = 1; k < static_cast<int>(timeline.states().size()); ++k)
                for (double t : through_morph(timeline, k)) times.push_back(t);
            for (double t : times) {
                INFO(board.file << ": " << spec.id << " (" << spec.kind << ") at " << t << " s");
                check_stats(spec, chapter->stats_at(t), config_at(spec, t, fps), t);
            }
        }
}

TEST_CASE("checkpointing's panel gives the model states until the activations enter, then the card",
          "[truth]") {
    const std::vector<Board> boards = shipped();
    const auto film = std::find_if(boards.begin(), boards.end(), [](const Board& b) {
        return b.file == "distributed-training.yaml";
    });
    REQUIRE(film != boards.end());
    const Board& board = *film;
    const auto spec =
        std::find_if(board.storyboard.chapters.begin(), board.storyboard.chapters.end(),
                     [](const ChapterSpec& c) { return c.kind == "activation_checkpointing"; });
    REQUIRE(spec != board.storyboard.chapters.end());
    const auto chapter = make_chapter(*spec, board.storyboard.video, chapter_test::kMetrics);
    const engine::PerGpu g = engine::analyze(spec->config).per_gpu;
    const double entry = phase_start(*spec, "activations");
    // The first line: the states alone, which fit; its caption is on screen and the card has
    // no activations yet.
    const double first = spec->beats.front().at + 0.5;
    REQUIRE(first < entry);
    const std::vector<Stat> states = chapter->stats_at(first);
    CHECK(states[0].label == "Model states per card");
    check_card(states[0], g.weights.value + g.gradients.value + g.optimizer.value,
               g.capacity.value);
    CHECK(states[0].detail.empty());
    CHECK(on_screen::count(chapter->scene_at(first), "Activations") == 0);
    CHECK(on_screen::stat(chapter->scene_at(first), "Model states per card") ==
          on_screen::Lines{states[0].value});
    // Once the activations are on the card, its whole figure, over the capacity.
    const double poured = entry + 1.5;
    const std::vector<Stat> card = chapter->stats_at(poured);
    CHECK(card[0].label == "Per card");
    check_card(card[0], g.total.value, g.capacity.value);
    CHECK(g.total.value > g.capacity.value);
    CHECK(on_screen::count(chapter->scene_at(poured), "Activations") == 1);
}

TEST_CASE("the stat panel a frame draws is stats_at's", "[truth]") {
    const Board board = shipped().front();
    for (const ChapterSpec& spec : board.storyboard.chapters) {
        const auto chapter = make_chapter(spec, board.storyboard.video, chapter_test::kMetrics);
        const double t = spec.duration / 2;
        INFO(spec.id << " at " << t << " s");
        for (const Stat& stat : chapter->stats_at(t)) {
            std::vector<std::string> shown{stat.value};
            if (!stat.detail.empty()) shown.push_back(stat.detail);
            on_screen::Lines column = on_screen::stat(chapter->scene_at(t), stat.label);
            column.resize(std::min(column.size(), shown.size()));  // texts under the panel
            CHECK(column == shown);
        }
    }
}

TEST_CASE("while a set: morphs, every figure on screen is one a state of the chapter shows",
          "[truth]") {
    int morphs = 0;
    for (const Board& board : shipped())
        for (const ChapterSpec& spec : board.storyboard.chapters) {
            const Video& video = board.storyboard.video;
            const auto chapter = make_chapter(spec, video, chapter_test::kMetrics);
            const Timeline timeline(spec, video.fps);
            int k = 0;
            for (std::size_t beat = 0; beat < spec.beats.size(); ++beat) {
                if (spec.beats[beat].set.empty()) continue;
                ++k, ++morphs;
                // The same chapter where this `set:` never happens, and where it is instant: at
                // any moment of the morph, each draws what one of its two states shows then.
                ChapterSpec before = spec, after = spec;
                before.beats[beat].set.clear();
                after.beats[beat].over = 0;
                const auto old_state = make_chapter(before, video, chapter_test::kMetrics);
                const auto new_state = make_chapter(after, video, chapter_test::kMetrics);
                for (double t : through_morph(timeline, k)) {
                    INFO(board.file << ": " << spec.id << " (" << spec.kind << ") at " << t
                                    << " s, state " << k);
                    const std::set<std::string> was = texts(old_state->scene_at(t)),
                                                is = texts(new_state->scene_at(t)),
                                                shows = texts(chapter->scene_at(t));
                    for (const std::string& figure : figures(shows)) {
                        INFO("shows " << figure);
                        CHECK((was.count(figure) == 1 || is.count(figure) == 1));
                    }
                    // One state a frame: never a text only the old state shows beside one only
                    // the new state shows (texts of the choreography, which neither shows at
                    // this moment, aside).
                    const std::set<std::string> old_only = only_in(shows, was, is),
                                                new_only = only_in(shows, is, was);
                    INFO("only the old state's " << Catch::Detail::stringify(old_only));
                    INFO("only the new state's " << Catch::Detail::stringify(new_only));
                    CHECK((old_only.empty() || new_only.empty()));
                }
            }
        }
    CHECK(morphs >= 20);  // both films' morphs took part
}

// In every language the replayed search ranks its survivors within a frame of the line that
// names its winner, the chapter's last.
TEST_CASE("plan's replayed search ranks on the line naming its winner in every language",
          "[truth]") {
    for (const std::string& lang : chapter_test::film_in("beyond-3d.yaml", "").languages) {
        INFO(lang);
        const Storyboard board = chapter_test::film_in("beyond-3d.yaml", lang);
        const ChapterSpec spec = chapter_test::chapter_of(board, "plan");
        const auto chapter = make_chapter(spec, board.video, chapter_test::kMetrics);
        const double named = spec.beats.back().at, frame = 1.0 / board.video.fps;
        CHECK(chapter->stats_at(named - frame).front().value == "—");
        CHECK(chapter->stats_at(named + frame).front().value != "—");
    }
}

// A naming line too soon after the `set:` for its replayed search to rank there and still stand
// each row 1.5 s is met late: the search keeps its pace, not one that flashes its rows by.
TEST_CASE("plan's replayed search does not rush to a line that comes too soon", "[truth]") {
    const Storyboard& board = chapter_test::shipped("beyond-3d.yaml");
    ChapterSpec spec = chapter_test::chapter_of(board, "plan");
    const Timeline timeline(spec, board.video.fps);
    REQUIRE(timeline.states().size() == 2);
    const double asked = timeline.state_start(1) + timeline.state_over(1) / 2;
    spec.beats.back().at = asked + 2;  // "This time the winner ..." 2 s after the question
    const auto chapter = make_chapter(spec, board.video, chapter_test::kMetrics);
    const double frame = 1.0 / board.video.fps;
    CHECK(chapter->stats_at(asked + 2 + frame).front().value == "—");
    CHECK(chapter->stats_at(spec.duration - frame).front().value != "—");
}

// The plan chapter's panel is the winner's, and there is none until the search on screen ranks
// its survivors: "—" before (the first search's "ranked" phase; after a `set:`, from its halfway
// until the replayed search ranks, within a frame of the line naming the new winner).
TEST_CASE("plan's panel waits for the search on screen to rank its survivors", "[truth]") {
    const Storyboard& board = chapter_test::shipped("beyond-3d.yaml");
    // A copy: GCC 14 takes a reference returned beside the temporary id for a dangling one.
    const ChapterSpec spec = chapter_test::chapter_of(board, "plan");
    const auto chapter = make_chapter(spec, board.video, chapter_test::kMetrics);
    const auto dashes = [&](double t) {
        const std::vector<Stat> stats = chapter->stats_at(t);
        return std::all_of(stats.begin(), stats.end(),
                           [](const Stat& s) { return s.value == "—"; });
    };
    const double ranked = phase_start(spec, "ranked");
    CHECK(dashes(0.5));
    CHECK(dashes(ranked - 0.2));
    CHECK_FALSE(dashes(ranked + 0.2));
    const Timeline timeline(spec, board.video.fps);
    REQUIRE(timeline.states().size() == 2);
    const double asked = timeline.state_start(1) + timeline.state_over(1) / 2;
    CHECK_FALSE(dashes(asked - 0.1));
    CHECK(dashes(asked + 0.1));
    const double named = spec.beats.back().at;  // "This time the winner splits every sequence..."
    const double frame = 1.0 / board.video.fps;
    CHECK(dashes(named - frame));
    CHECK_FALSE(dashes(named + frame));
    CHECK_FALSE(dashes(spec.duration - 0.1));
    // What numbers --at, the studio and the page report follows the panel: the winner's figures
    // exactly when the frame draws them, the configuration on screen's before.
    int drawn = 0;
    for (double t = 0; t < spec.duration; t += 0.1) {
        INFO(t);
        CHECK(figures_drawn(spec, t, board.video.fps) == !dashes(t));
        const engine::Config on_screen = timeline.state_at(t);
        const bool winner = drawn_at(spec, t, board.video.fps) == as_drawn(spec.kind, on_screen);
        CHECK(winner == !dashes(t));
        drawn += !dashes(t);
    }
    CHECK(drawn > 50);  // both searches' winners, a few seconds each
}
