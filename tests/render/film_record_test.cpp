// Films' records (render/film/film_record.hpp): a render with nothing changed keeps the film it
// wrote (no segment looked up, nothing joined or written); an output or caption file edited,
// cut short, replaced, removed or given its time back, a record written in the tick of the
// file's change whose bytes differ, an option that changes the file (size, burnt or no
// captions, crf, a cue's sound, --no-audio) and one of several films changed: each assembled
// again, byte for byte as a cold render writes it.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "render/container/video_probe.hpp"
#include "render/film/director.hpp"
#include "render/film/film_key.hpp"
#include "render/sound/decode/audio_decode.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sounds.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using render_test::q;
using render_test::slurp;
using render_test::TempDir;
using render_test::write_text;

namespace {

// `render STORYBOARD -o DIR/film.mp4 --cache DIR/cache --json EXTRA`'s report.
json render_into(const fs::path& dir, const fs::path& storyboard, const std::string& extra = "") {
    const auto run = render_test::run_cli("render " + q(storyboard) + " -o " + q(dir / "film.mp4") +
                                          " --cache " + q(dir / "cache") + " --json " + extra);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return json::parse(run.out);
}

// What tells a file written again from the one left alone: its inode and change time.
struct Written {
    ino_t inode = 0;
    std::int64_t ctime_ns = 0;
    bool operator==(const Written&) const = default;
};
Written written(const fs::path& path) {
    struct stat s {};
    REQUIRE(::stat(path.c_str(), &s) == 0);
    return {s.st_ino,
            static_cast<std::int64_t>(s.st_ctim.tv_sec) * 1'000'000'000 + s.st_ctim.tv_nsec};
}

// The one film record in dir/cache/films.
fs::path record_in(const fs::path& dir) {
    std::vector<fs::path> records;
    for (const auto& e : fs::directory_iterator(dir / "cache" / "films"))
        records.push_back(e.path());
    REQUIRE(records.size() == 1);
    return records[0];
}

// The film and its captions as a cold render writes them, into a fresh directory.
struct Cold {
    std::string film, vtt, srt;
};
Cold cold(const fs::path& dir, const fs::path& storyboard, const std::string& extra = "") {
    const json report = render_into(dir, storyboard, extra);
    CHECK(report["frames_drawn"].get<int>() > 0);
    return {slurp(dir / "film.mp4"), slurp(dir / "film.vtt"), slurp(dir / "film.srt")};
}

// The film as a cold render writes it (into dir/cold), once it is rendered into dir too.
Cold rendered(const fs::path& dir, const fs::path& storyboard) {
    Cold c = cold(dir / "cold", storyboard);
    render_into(dir, storyboard);
    return c;
}

void check_same(const fs::path& dir, const Cold& c) {
    CHECK(slurp(dir / "film.mp4") == c.film);
    CHECK(slurp(dir / "film.vtt") == c.vtt);
    CHECK(slurp(dir / "film.srt") == c.srt);
}

}  // namespace

TEST_CASE("a render with nothing changed keeps the film it wrote and looks no segment up",
          "[film-record]") {
    TempDir dir;
    const Cold reference = rendered(dir.path, render_test::short_film());
    const Written film = written(dir.path / "film.mp4");
    const Written vtt = written(dir.path / "film.vtt");
    // Segments cut short: a lookup would find them bad and draw them again.
    for (const std::string& key : render_test::segment_keys(dir.path / "cache"))
        fs::resize_file(dir.path / "cache" / (key + ".mp4"), 100);

    const json again = render_into(dir.path, render_test::short_film());
    CHECK(again["frames_drawn"] == 0);
    CHECK(again["chapters"][0]["cached"] == true);
    CHECK(again["chapters"][1]["frames"] == 23);
    CHECK(written(dir.path / "film.mp4") == film);  // neither joined nor written
    CHECK(written(dir.path / "film.vtt") == vtt);
    check_same(dir.path, reference);
}

TEST_CASE("an output edited, cut short, replaced, removed or timed back is assembled again",
          "[film-record]") {
    TempDir dir;
    const fs::path board = render_test::short_film();
    const Cold reference = rendered(dir.path, board);
    const fs::path film = dir.path / "film.mp4";
    const auto edit = [&](const fs::path& path) {
        const auto time = fs::last_write_time(path);
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(fs::file_size(path) / 2));
        f.put('\x5a');
        f.close();
        fs::last_write_time(path, time);  // its time set back: only the change time tells
    };
    const std::vector<std::pair<const char*, std::function<void()>>> damages{
        {"a byte edited in place, its time set back", [&] { edit(film); }},
        {"cut short", [&] { fs::resize_file(film, fs::file_size(film) / 2); }},
        {"replaced",
         [&] {
             write_text(dir.path / "other.mp4", std::string(fs::file_size(film), 'x'));
             fs::rename(dir.path / "other.mp4", film);
         }},
        {"removed", [&] { fs::remove(film); }},
        {"its WebVTT captions edited", [&] { edit(dir.path / "film.vtt"); }},
        {"its SRT captions removed", [&] { fs::remove(dir.path / "film.srt"); }},
    };
    for (const auto& [name, damage] : damages) {
        INFO(name);
        damage();
        const json report = render_into(dir.path, board);
        CHECK(report["frames_drawn"] == 0);  // joined again from the cached segments
        check_same(dir.path, reference);
        const Written kept = written(film);
        render_into(dir.path, board);
        CHECK(written(film) == kept);  // and kept by the next render
    }
}

TEST_CASE("a record written in the tick of the film's last change compares the bytes",
          "[film-record]") {
    TempDir dir;
    const fs::path board = render_test::short_film();
    render_into(dir.path, board);
    const fs::path film = dir.path / "film.mp4", record = record_in(dir.path);
    const std::string bytes = slurp(film);
    const auto racy = [&] {  // as if written before the film's last change
        fs::last_write_time(record, fs::last_write_time(film) - std::chrono::seconds(1));
    };

    racy();
    Written before = written(film);
    render_into(dir.path, board);
    CHECK(written(film) == before);                                  // the same bytes: kept
    CHECK(fs::last_write_time(record) > fs::last_write_time(film));  // and recorded again

    // Other bytes under the same times (a change within the tick): assembled again.
    json altered = json::parse(slurp(record));
    altered["files"][0]["xxh3"] = std::string(32, '0');
    write_text(record, altered.dump());
    racy();
    before = written(film);
    render_into(dir.path, board);
    CHECK_FALSE(written(film) == before);
    CHECK(slurp(film) == bytes);
}

TEST_CASE("an option that changes the film assembles it again, as a cold render writes it",
          "[film-record]") {
    TempDir dir;
    const fs::path board = render_test::short_film();
    const Cold plain = rendered(dir.path, board);
    // The storyboard burns its captions in; under track or off no frame draws them, and off
    // differs from track only in the film's caption track.
    const std::vector<std::string> options{"--size 320x180", "--captions-as track",
                                           "--captions-as off"};
    for (std::size_t i = 0; i < options.size(); ++i) {
        const std::string& option = options[i];
        INFO(option);
        const Cold changed = cold(dir.path / ("cold-" + std::to_string(i)), board, option);
        CHECK(changed.film != plain.film);
        const json report = render_into(dir.path, board, option);
        CHECK(report["frames_drawn"] == (i == 2 ? 0 : 38));  // off: track's segments
        check_same(dir.path, changed);
        render_into(dir.path, board);  // back: joined from the segments still cached
        check_same(dir.path, plain);
    }
    CHECK(render::probe_video((dir.path / "cold-2/film.mp4").string()).subtitles.empty());

    // The encoder's settings, given in-process: crf 30 draws other segments and joins them.
    const auto render_crf = [&](const fs::path& out, int crf) {
        const story::Storyboard b = render_test::load_unvoiced(board);
        render::BatchOptions options;
        options.cache_dir = (out.parent_path() / "cache").string();
        options.encoder.crf = crf;
        render::CancelToken cancel;
        const render::Fonts fonts(render::default_font_dir());
        return render::render_films({{b, b.video, out.string()}}, fonts, options, cancel, {})[0];
    };
    CHECK(render_crf(dir.path / "crf/film.mp4", 30).frames_drawn == 38);
    CHECK(render_crf(dir.path / "film.mp4", 30).frames_drawn == 38);
    CHECK(slurp(dir.path / "film.mp4") == slurp(dir.path / "crf/film.mp4"));
    CHECK(slurp(dir.path / "film.mp4") != plain.film);
}

TEST_CASE("a cue's sound changed, or the film silenced, assembles it again", "[film-record]") {
    TempDir dir;
    const fs::path board = render_test::short_variant(dir.path / "cue.yaml", "      - at: 0.6s\n",
                                                      "      - at: 0.6s\n        sound: cue.wav\n");
    const auto cue = [&](double hz) {
        render_test::write_wav(dir.path / "cue.wav", render_test::tone(0.3, hz, 0.3), 1, 48000);
    };
    cue(440);
    const Cold low = cold(dir.path / "low", board);
    cue(880);
    const Cold high = cold(dir.path / "high", board);
    CHECK(low.film != high.film);
    const fs::path out = dir.path / "out";
    render_into(out, board);
    check_same(out, high);
    cue(440);
    render_into(out, board);
    check_same(out, low);

    render_into(out, board, "--no-audio");
    CHECK_THROWS(render::probe_audio((out / "film.mp4").string()));  // no sound track
    const Written silent = written(out / "film.mp4");
    render_into(out, board, "--no-audio");
    CHECK(written(out / "film.mp4") == silent);
    render_into(out, board);
    check_same(out, low);
}

TEST_CASE("of several films in one call, only the changed one is written again", "[film-record]") {
    TempDir dir;
    fs::create_directory(dir.path / "boards");
    fs::copy_file(render_test::short_film(), dir.path / "boards/a.yaml");
    const fs::path b = render_test::short_variant(dir.path / "boards/b.yaml", "title: Short film",
                                                  "title: Film B");
    const auto render_both = [&] {
        const auto run = render_test::run_cli("render boards --quiet", dir.path);
        INFO(run.err);
        REQUIRE(run.exit_code == 0);
    };
    render_both();
    const Written a = written(dir.path / "out/a.mp4"), before = written(dir.path / "out/b.mp4");
    render_test::short_variant(b, "title: Short film", "title: Film B, again");
    render_both();
    CHECK(written(dir.path / "out/a.mp4") == a);
    CHECK_FALSE(written(dir.path / "out/b.mp4") == before);
    CHECK(render::probe_video((dir.path / "out/b.mp4").string()).chapters.size() == 2);
}

TEST_CASE("a film's key holds the digests of the code that draws, mixes, joins and names it",
          "[film-record]") {
    TempDir dir;
    render_into(dir.path, render_test::short_film());
    const json inputs = json::parse(slurp(record_in(dir.path)))["inputs"];
    std::set<std::string> digests;
    for (const char* code : {"drawing", "sound_code", "container", "code"}) {
        INFO(code);
        const std::string digest = inputs.at(code);
        CHECK(digest.size() == 64);
        digests.insert(digest);
    }
    CHECK(digests.size() == 4);
    CHECK(inputs["code"] == render::built_code_digest());
}
