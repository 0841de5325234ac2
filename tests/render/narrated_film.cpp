// See narrated_film.hpp.
#include "tests/render/narrated_film.hpp"

#include <cmath>

#include "render/sound/film_audio.hpp"
#include "render/sys/cancel.hpp"
#include "story/load/load.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sounds.hpp"

namespace fs = std::filesystem;
using render::FilmJob;

namespace narrated_film {

const char* const kStoryboard = R"(shardreel: 1
title: Sound
video: {size: 320x180, fps: 15, theme: dark}
defaults: {model: 7B}
chapters:
  - id: intro
    kind: title
    duration: 3s
    title: Sound
    beats:
      - at: 0.3s
        say: One.
  - id: bytes
    kind: bytes_per_parameter
    duration: 11s
    beats:
      - at: 0.3s
        say: Two.
      - at: 3.5s
        say: Three.
      - at: 6s
        say: Four.
  - id: outro
    kind: title
    duration: 3s
    title: End
    beats:
      - at: 0.5s
        say: Five.
)";

const std::vector<Line> kLines = {{0.3, 1.5}, {3.3, 1.4}, {6.5, 1.5}, {9.0, 1.5}, {14.5, 1.4}};

const render::Fonts& fonts() {
    static const render::Fonts instance(render::default_font_dir());
    return instance;
}

FilmJob narrated(const fs::path& dir, const std::string& output,
                 const std::vector<unsigned>& seeds) {
    render_test::write_text(dir / "sound.yaml", kStoryboard);
    story::Diagnostics diags;
    auto board = story::parse_storyboard(kStoryboard, (dir / "sound.yaml").string(), diags);
    REQUIRE(diags.empty());
    fs::create_directories(dir / "speech");
    std::map<std::pair<std::size_t, std::size_t>, render::SpokenLine> lines;
    std::size_t n = 0;
    for (std::size_t c = 0; c < board->chapters.size(); ++c)
        for (std::size_t b = 0; b < board->chapters[c].beats.size(); ++b, ++n) {
            const std::string key = "line" + std::to_string(n) + "-" + std::to_string(seeds[n]);
            const fs::path path = dir / "speech" / (key + ".f32");
            render_test::write_f32(path, render_test::speech_like(kLines[n].seconds, seeds[n]));
            lines[{c, b}] = {path.string(), key};
        }
    const render::SpeechLookup speech = [&](std::size_t c, std::size_t b) {
        return std::optional<render::SpokenLine>(lines.at({c, b}));
    };
    FilmJob film{*board, board->video, (dir / output).string()};
    film.sound = render::film_audio(film.board, film.video.fps, speech, diags);
    REQUIRE(diags.empty());
    REQUIRE(film.sound);
    return film;
}

render::RenderReport render_one(const FilmJob& film, const fs::path& cache, int jobs,
                                bool sound_only) {
    render::BatchOptions options;
    options.cache_dir = cache.string();
    options.jobs = jobs;
    options.sound_only = sound_only;
    options.measure_sound = true;
    render::CancelToken cancel;
    const auto reports = render::render_films({film}, fonts(), options, cancel, {});
    REQUIRE(reports.size() == 1);
    return reports[0];
}

std::map<std::string, bool> sound_cached(const render::RenderReport& r) {
    std::map<std::string, bool> out;
    for (const auto& c : r.chapters) {
        REQUIRE(c.sound_cached);
        out[c.id] = *c.sound_cached;
    }
    return out;
}

std::set<std::string> files_with(const fs::path& dir, const std::string& ext) {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ext) out.insert(e.path().filename().string());
    return out;
}

double db(double rms) { return 20 * std::log10(std::max(rms, 1e-12)); }

std::int64_t at(double seconds) { return static_cast<std::int64_t>(seconds * kRate); }

}  // namespace narrated_film
