// First keys: every member of what a chapter is made from changes its first key; a render whose
// first keys are recorded reads their segment keys and makes no chapter; a missing, damaged or
// stale record falls back to the scenes; other chapter code redraws what it draws differently;
// `jobs` plans through the same records; a pruned segment takes its records with it.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>
#include <vector>

#include "render/film/chapter_fields.hpp"
#include "render/film/director.hpp"
#include "render/film/plan.hpp"
#include "render/film/segment_cache.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "story/load/load.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using render_test::slurp;
using render_test::TempDir;
using render_test::write_text;

namespace {

const render::Fonts& fonts() {
    static const render::Fonts f(render::default_font_dir());
    return f;
}

story::Storyboard short_board() {
    std::ostringstream err;
    auto b = render::load_storyboard(render_test::short_film().string(), err);
    INFO(err.str());
    REQUIRE(b);
    return *b;
}

template <class T>
inline constexpr bool is_vector = false;
template <class T>
inline constexpr bool is_vector<std::vector<T>> = true;
template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

// Calls `check` once for every leaf of v (a number, flag, keyword or text anywhere inside it,
// through every member render/film/chapter_fields.hpp lists) changed, and once for every list
// grown by an element and every optional emptied, restoring each after.
template <class T>
void each_change(T& v, const std::function<void()>& check) {
    if constexpr (std::is_same_v<T, bool>) {
        v = !v;
        check();
        v = !v;
    } else if constexpr (std::is_enum_v<T>) {
        const T was = v;
        v = static_cast<T>(static_cast<std::underlying_type_t<T>>(v) + 1);
        check();
        v = was;
    } else if constexpr (std::is_arithmetic_v<T>) {
        const T was = v;
        v = static_cast<T>(v + 1);
        check();
        v = was;
    } else if constexpr (std::is_same_v<T, std::string>) {
        v += "x";
        check();
        v.pop_back();
    } else if constexpr (is_vector<T>) {
        for (auto& e : v) each_change(e, check);
        v.emplace_back();
        check();
        v.pop_back();
    } else if constexpr (is_optional<T>) {
        each_change(*v, check);
        auto was = std::move(v);
        v.reset();
        check();
        v = std::move(was);
    } else {
        std::apply([&](auto&... m) { (each_change(m, check), ...); },
                   render::fields(render::Members{}, v));
    }
}

// Every list given one element more and every optional a value, all the way down, so that
// each_change reaches every member.
template <class T>
void fill(T& v) {
    if constexpr (is_vector<T>) {
        v.emplace_back();
        for (auto& e : v) fill(e);
    } else if constexpr (is_optional<T>) {
        if (!v) v.emplace();
        fill(*v);
    } else if constexpr (std::is_class_v<T> && !std::is_same_v<T, std::string>) {
        std::apply([](auto&... m) { (fill(m), ...); }, render::fields(render::Members{}, v));
    }
}

// As if the chapter's code drew one more rectangle in every frame.
class Edited final : public story::Chapter {
  public:
    explicit Edited(std::unique_ptr<story::Chapter> chapter) : chapter_(std::move(chapter)) {}
    story::Scene scene_at(double t) const override {
        story::Scene s = chapter_->scene_at(t);
        s.add(story::Rect{10, 10, 40, 40, 0, story::hex(0xE69F00)});
        return s;
    }
    std::vector<story::Stat> stats_at(double t) const override { return chapter_->stats_at(t); }

  private:
    std::unique_ptr<story::Chapter> chapter_;
};

// The build's chapter code under `digest`, counting the chapters it makes; the chapter `edited`
// (an id) is drawn by Edited, as if its kind's code had changed.
render::ChapterCode counted(std::atomic<int>& made,
                            const std::string& digest = render::built_code_digest(),
                            const std::string& edited = "") {
    return {digest, [&made, edited](const story::ChapterSpec& spec, const story::Video& video,
                                    const story::TextMetrics& metrics) {
                ++made;
                auto chapter = story::make_chapter(spec, video, metrics);
                if (spec.id == edited) chapter = std::make_unique<Edited>(std::move(chapter));
                return chapter;
            }};
}

// short.yaml rendered in-process into dir/film.mp4 with the cache dir/cache, by `code`.
render::RenderReport render_short(const fs::path& dir, const render::ChapterCode& code) {
    const story::Storyboard board = short_board();
    render::BatchOptions options;
    options.cache_dir = (dir / "cache").string();
    options.code = code;
    render::CancelToken cancel;
    const render::FilmJob film{board, board.video, (dir / "film.mp4").string()};
    const auto reports = render::render_films({film}, fonts(), options, cancel, {});
    REQUIRE(reports.size() == 1);
    return reports[0];
}

std::vector<bool> cached(const render::RenderReport& r) {
    std::vector<bool> out;
    for (const render::ChapterReport& c : r.chapters) out.push_back(c.cached);
    return out;
}

// The record of chapter `index` of short.yaml's first key under the build's code.
fs::path record_of(const fs::path& cache, std::size_t index) {
    const story::Storyboard board = short_board();
    const auto first = render::first_key(board.chapters[index], board.video, {}, fonts(),
                                         render::built_code_digest());
    return cache / "first" / (first.key + ".json");
}

std::size_t records_in(const fs::path& cache) {
    std::size_t n = 0;
    std::error_code missing;
    for (const auto& e : fs::directory_iterator(cache / "first", missing))
        n += e.path().extension() == ".json";
    return n;
}

}  // namespace

TEST_CASE("every member of a chapter's spec, its video and the encoder changes its first key",
          "[batch][key]") {
    story::ChapterSpec spec;  // every list with one element, every optional with a value
    story::Video video;
    render::EncoderSettings encoder;
    fill(spec);
    fill(video);
    const auto key = [&] {
        return render::first_key(spec, video, encoder, fonts(), render::built_code_digest()).key;
    };
    const std::string base = key();
    CHECK(key() == base);
    std::set<std::string> seen{base};
    int changes = 0;
    const auto check = [&] {
        INFO("change " << changes);
        CHECK(seen.insert(key()).second);
        ++changes;
    };
    each_change(spec, check);
    each_change(video, check);
    each_change(encoder, check);
    // The spec's 175: its 7 texts, numbers and flags, its narration's 9 (6, and a reading's 2 and
    // one more reading), the configuration's 64 (model 22, training 18, cluster 13, layout 11),
    // the film's defaults' 65 (the same 64, and none: what the settings note is told against), a
    // beat's 22 (its show: too) and one more beat, the figure's 2, an explored parameter's 4 and
    // explore_beat; the video's 17 (5, a narration's 9, the music's 2, the language) and the
    // encoder's 6.
    CHECK(changes == 175 + 17 + 6);
}

TEST_CASE("a first key holds the code, the fonts, the drawing and the catalogue, not positions",
          "[batch][key]") {
    const story::Storyboard board = short_board();
    const story::ChapterSpec& spec = board.chapters[1];
    const auto first = [&](const story::ChapterSpec& s, const story::Video& v,
                           const std::string& code = render::built_code_digest()) {
        return render::first_key(s, v, {}, fonts(), code);
    };
    const render::FirstKey base = first(spec, board.video);
    CHECK(base.key.size() == 32);
    const json inputs = json::parse(base.inputs);
    std::set<std::string> names;
    for (const auto& [name, value] : inputs.items()) names.insert(name);
    CHECK(names == std::set<std::string>{"chapter", "fonts", "drawing", "code", "catalogue"});
    CHECK(inputs["code"] == render::built_code_digest());
    CHECK(render::built_code_digest().size() == 64);
    CHECK(first(spec, board.video, "other code").key != base.key);
    story::Video german = board.video;
    german.lang = "de";
    CHECK(json::parse(first(spec, german).inputs)["catalogue"] != "");

    story::ChapterSpec moved = spec;  // where it stands in the file is not read by the chapter
    moved.pos = {99, 3};
    for (story::Beat& beat : moved.beats) {
        beat.pos = beat.at_pos = beat.say_pos = beat.set_pos = {120, 7};
        for (story::Setting& s : beat.set) s.pos = s.value_pos = {121, 9};
    }
    moved.narration.pos = {1, 1};
    CHECK(first(moved, board.video).key == base.key);
}

TEST_CASE("a render whose first keys are recorded reads their segment keys and makes no chapter",
          "[batch][key]") {
    TempDir dir;
    std::atomic<int> made = 0;
    const render::RenderReport cold = render_short(dir.path / "a", counted(made));
    CHECK(made == 2);
    CHECK(cold.frames_drawn == 38);
    CHECK(records_in(dir.path / "a/cache") == 2);

    made = 0;
    const render::RenderReport warm = render_short(dir.path / "a", counted(made));
    CHECK(made == 0);  // no chapter made, so no scene built
    CHECK(warm.frames_drawn == 0);
    CHECK(cached(warm) == std::vector<bool>{true, true});
    CHECK(warm.chapters[1].frames == 23);

    // The film assembled from the recorded keys is the film drawn afresh.
    const std::string film = slurp(dir.path / "a/film.mp4");
    render_short(dir.path / "b", counted(made));
    CHECK(slurp(dir.path / "b/film.mp4") == film);
    // A record names the segment by its key's inputs.
    const json record = json::parse(slurp(record_of(dir.path / "a/cache", 1)));
    CHECK(record["segment"]["frames"] == 23);
    CHECK(render_test::segment_keys(dir.path / "a/cache").count(record["segment"]["key"]) == 1);
}

TEST_CASE("a missing, damaged or stale record falls back to building the scenes", "[batch][key]") {
    TempDir dir;
    std::atomic<int> made = 0;
    const fs::path cache = dir.path / "cache";
    render_short(dir.path, counted(made));
    const fs::path record = record_of(cache, 1);
    const std::string kept = slurp(record);
    const json parsed = json::parse(kept);
    const fs::path segment = cache / (parsed["segment"]["key"].get<std::string>() + ".mp4");
    const std::string segment_bytes = slurp(segment);

    using Damage = std::function<void()>;
    const std::vector<std::pair<const char*, Damage>> damages{
        {"removed", [&] { fs::remove(record); }},
        {"not JSON", [&] { write_text(record, kept.substr(0, kept.size() / 2)); }},
        {"other inputs",
         [&] {
             json other = parsed;
             other["inputs"]["code"] = "0";
             write_text(record, other.dump());
         }},
        {"a segment key that is not its inputs'",
         [&] {
             json other = parsed;
             other["segment"]["inputs"]["frames"] = 22;
             write_text(record, other.dump());
         }},
        {"no segment",
         [&] {
             json other = parsed;
             other.erase("segment");
             write_text(record, other.dump());
         }},
    };
    // The film gone each time, so that it is assembled again and its chapters planned through
    // the records (its own record would otherwise find it unchanged and plan nothing).
    const auto film_gone = [&] { fs::remove(dir.path / "film.mp4"); };
    for (const auto& [name, damage] : damages) {
        INFO(name);
        damage();
        film_gone();
        made = 0;
        const render::RenderReport r = render_short(dir.path, counted(made));
        CHECK(made == 1);  // bytes, keyed by its scenes: the same segment, not drawn again
        CHECK(r.frames_drawn == 0);
        CHECK(cached(r) == std::vector<bool>{true, true});
        CHECK(slurp(record) == kept);  // recorded again
    }

    // A record whose segment is cut short names no usable segment: drawn again, as ever.
    fs::resize_file(segment, segment_bytes.size() / 2);
    film_gone();
    made = 0;
    const render::RenderReport redrawn = render_short(dir.path, counted(made));
    CHECK(made == 1);
    CHECK(cached(redrawn) == std::vector<bool>{true, false});
    CHECK(redrawn.frames_drawn == 23);
    CHECK(slurp(segment) == segment_bytes);
    film_gone();
    made = 0;
    render_short(dir.path, counted(made));
    CHECK(made == 0);
}

TEST_CASE(
    "a change to a chapter's code that changes what it draws redraws that chapter, the "
    "storyboard unchanged",
    "[batch][key]") {
    TempDir dir;
    std::atomic<int> made = 0;
    const fs::path cache = dir.path / "cache";
    render_short(dir.path, counted(made));
    const std::set<std::string> before = render_test::segment_keys(cache);
    REQUIRE(before.size() == 2);
    const std::string film = slurp(dir.path / "film.mp4");

    // The code of bytes' kind edited: another digest, and bytes draws one more rectangle.
    made = 0;
    const render::RenderReport edited =
        render_short(dir.path, counted(made, "edited code", "bytes"));
    CHECK(made == 2);  // every first key missed: each chapter keyed by its scenes again
    CHECK(cached(edited) == std::vector<bool>{true, false});  // intro draws as before
    CHECK(edited.frames_drawn == 23);
    const std::set<std::string> after = render_test::segment_keys(cache);
    CHECK(after.size() == 3);
    CHECK(std::includes(after.begin(), after.end(), before.begin(), before.end()));
    // The film joined again with the chapter redrawn: as a cold render by the edited code writes
    // it.
    const std::string edited_film = slurp(dir.path / "film.mp4");
    CHECK(edited_film != film);
    render_short(dir.path / "cold", counted(made, "edited code", "bytes"));
    CHECK(slurp(dir.path / "cold/film.mp4") == edited_film);
    made = 0;
    CHECK(render_short(dir.path, counted(made, "edited code", "bytes")).frames_drawn == 0);
    CHECK(made == 0);

    // Back to the build's code: its records still name the first segments, joined as before.
    made = 0;
    CHECK(cached(render_short(dir.path, counted(made))) == std::vector<bool>{true, true});
    CHECK(made == 0);
    CHECK(slurp(dir.path / "film.mp4") == film);
    // Why the digest covers the code: edited code under the build's digest reads the old records
    // and draws nothing (no build presents its code under another's digest).
    CHECK(
        render_short(dir.path, counted(made, render::built_code_digest(), "bytes")).frames_drawn ==
        0);
}

TEST_CASE("jobs lists the segments a render would draw, through the same first keys",
          "[batch][key]") {
    TempDir dir;
    std::atomic<int> made = 0;
    const fs::path cache = dir.path / "cache";
    const story::Storyboard board = short_board();
    const std::vector<render::FilmJob> films{
        {board, board.video, (dir.path / "film.mp4").string()}};
    CHECK(render::pending_segments(films, fonts(), cache.string(), {}, counted(made)).size() == 2);
    CHECK(made == 2);
    CHECK_FALSE(fs::exists(cache / "first"));  // listing writes nothing

    render_short(dir.path, counted(made));
    made = 0;
    CHECK(render::pending_segments(films, fonts(), cache.string(), {}, counted(made)).empty());
    CHECK(made == 0);

    const json record = json::parse(slurp(record_of(cache, 1)));
    fs::remove(cache / (record["segment"]["key"].get<std::string>() + ".mp4"));
    const auto pending =
        render::pending_segments(films, fonts(), cache.string(), {}, counted(made));
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].chapter_id == "bytes");
    CHECK(made == 1);
}

TEST_CASE("a pruned segment takes its first keys' records with it", "[batch][key]") {
    TempDir dir;
    std::atomic<int> made = 0;
    const fs::path cache = dir.path / "cache";
    render_short(dir.path, counted(made));
    REQUIRE(records_in(cache) == 2);
    const std::string intro = json::parse(slurp(record_of(cache, 0)))["segment"]["key"];
    write_text(cache / "first" / ".x.json.tmp-1-1", "{");  // an interrupted writer's, long ago
    fs::last_write_time(cache / "first" / ".x.json.tmp-1-1",
                        fs::file_time_type::clock::now() - std::chrono::hours(2));
    write_text(cache / "first" / (std::string(32, 'a') + ".json"), "{}");  // names no segment

    const render::SegmentCache segments(cache.string());
    segments.prune(0, {intro});
    CHECK(render_test::segment_keys(cache) == std::set<std::string>{intro});
    CHECK(records_in(cache) == 1);
    CHECK(fs::exists(record_of(cache, 0)));
    CHECK_FALSE(fs::exists(cache / "first" / ".x.json.tmp-1-1"));
}
