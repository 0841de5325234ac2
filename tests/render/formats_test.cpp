// WebM, GIF and PNG-sequence outputs, read back: VP9 and GIF decoded frame by frame against the
// stills, GIF timing, the sequence's files; deterministic bytes and nothing left behind on abort.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "render/container/video_probe.hpp"
#include "render/sinks/png_sequence_sink.hpp"
#include "render/sinks/video/gif_sink.hpp"
#include "render/sinks/video/make_sink.hpp"
#include "render/sinks/video/palette.hpp"
#include "render/sys/error.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/pixels.hpp"
#include "tests/render/test_scene.hpp"

namespace fs = std::filesystem;
using render_test::mean_abs_diff;
using render_test::q;
using render_test::run_cli;
using render_test::slurp;
using render_test::TempDir;

namespace {

// `frames` scenes through make_sink(path): a bar that moves, so frames differ.
void write_film(const std::string& path, int frames, int fps, int width = 320, int height = 180) {
    const auto sink = render::make_sink(path, render_test::shipped_fonts());
    sink->begin({path, width, height, fps});
    for (int f = 0; f < frames; ++f) {
        story::Scene scene = render_test::test_scene(story::ThemeName::dark);
        scene.add(story::Rect{100.0 + 40 * f, 900, 120, 60, 0, story::hex(0xE69F00)});
        sink->write(scene);
    }
    sink->finish();
}

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("WebM is VP9 yuv420p with every frame, byte-identical when rendered twice", "[formats]") {
    TempDir dir;
    const std::string a = (dir.path / "a.webm").string(), b = (dir.path / "b.webm").string();
    write_film(a, 12, 15);
    write_film(b, 12, 15);
    const render::VideoInfo info = render::probe_video(a);
    CHECK(info.codec == "vp9");
    CHECK(info.pix_fmt == "yuv420p");
    CHECK(info.width == 320);
    CHECK(info.height == 180);
    CHECK(info.frame_count == 12);
    CHECK(info.fps_num == 15);
    CHECK(info.fps_den == 1);
    CHECK(slurp(a) == slurp(b));
    CHECK(names_in(dir.path) == std::vector<std::string>{"a.webm", "b.webm"});
}

TEST_CASE("GIF delays are whole centiseconds whose sum stays exact", "[formats]") {
    using render::GifFrame;
    CHECK(render::gif_timing(4, 30) == std::vector<GifFrame>{{0, 0}, {1, 3}, {2, 7}, {3, 10}});
    CHECK(render::gif_timing(3, 25) == std::vector<GifFrame>{{0, 0}, {1, 4}, {2, 8}});
    // 60 fps would need 1-2 cs delays, which browsers stretch: two frames in three are kept,
    // 2 and 3 cs apart (40 fps on average).
    const auto kept = render::gif_timing(60, 60);
    CHECK(kept.size() == 40);
    CHECK(kept.back().start == 97);
    for (std::size_t i = 1; i < kept.size(); ++i) {
        CHECK(kept[i].start - kept[i - 1].start >= 2);
        CHECK(kept[i].start - kept[i - 1].start <= 3);
    }
}

TEST_CASE("median cut keeps few colours exactly and is deterministic", "[formats]") {
    render::ColorHistogram few{{0x102030, 5}, {0xFFFFFF, 1}};
    CHECK(render::median_cut(few) == std::vector<std::uint32_t>{0x102030, 0xFFFFFF});
    render::ColorHistogram many;
    for (std::uint32_t c = 0; c < 5000; ++c) many[c * 3331 % 0xFFFFFF] = 1 + c % 7;
    const auto palette = render::median_cut(many);
    CHECK(palette.size() == 256);
    CHECK(render::median_cut(many) == palette);
}

TEST_CASE("GIF has one image per frame and the film's length, byte-identical twice", "[formats]") {
    TempDir dir;
    const std::string a = (dir.path / "a.gif").string(), b = (dir.path / "b.gif").string();
    write_film(a, 10, 10);
    write_film(b, 10, 10);
    const render::VideoInfo info = render::probe_video(a);
    CHECK(info.codec == "gif");
    CHECK(info.width == 320);
    CHECK(info.height == 180);
    CHECK(info.frame_count == 10);
    CHECK(info.duration_seconds == Approx(1.0).margin(0.011));
    CHECK(slurp(a).substr(0, 6) == "GIF89a");
    CHECK(slurp(a) == slurp(b));
}

TEST_CASE("a PNG sequence fills its directory through a temporary one", "[formats]") {
    TempDir dir;
    const std::string pattern = (dir.path / "frames/f%03d.png").string();
    write_film(pattern, 5, 15);
    CHECK(names_in(dir.path) == std::vector<std::string>{"frames"});
    CHECK(names_in(dir.path / "frames") ==
          std::vector<std::string>{"f000.png", "f001.png", "f002.png", "f003.png", "f004.png"});
    CHECK(slurp(dir.path / "frames/f004.png").substr(1, 3) == "PNG");

    // A shorter re-render replaces the whole sequence: no stale frames remain.
    write_film(pattern, 2, 15);
    CHECK(names_in(dir.path / "frames") == std::vector<std::string>{"f000.png", "f001.png"});

    // An abort leaves the previous sequence and no temporary directory.
    const auto sink = render::make_sink(pattern, render_test::shipped_fonts());
    sink->begin({pattern, 320, 180, 15});
    sink->write(render_test::test_scene(story::ThemeName::light));
    CHECK(names_in(dir.path).size() == 2);
    sink->abort();
    CHECK(names_in(dir.path) == std::vector<std::string>{"frames"});
    CHECK(names_in(dir.path / "frames").size() == 2);
}

TEST_CASE("a PNG sequence never replaces a directory holding other files", "[formats]") {
    TempDir dir;
    fs::create_directories(dir.path / "mixed");
    std::ofstream(dir.path / "mixed/notes.txt") << "keep me";
    const std::string pattern = (dir.path / "mixed/%05d.png").string();
    const auto sink = render::make_sink(pattern, render_test::shipped_fonts());
    CHECK_THROWS_WITH(sink->begin({pattern, 320, 180, 15}),
                      Catch::Contains("refusing to replace") && Catch::Contains("notes.txt"));
    CHECK(slurp(dir.path / "mixed/notes.txt") == "keep me");
}

TEST_CASE("frame patterns", "[formats]") {
    const auto p = render::parse_frame_pattern("out/frames/shot-%05d.png");
    REQUIRE(p);
    CHECK(p->dir == "out/frames");
    CHECK(p->name(42) == "shot-00042.png");
    CHECK(p->matches("shot-00042.png"));
    CHECK_FALSE(p->matches("shot-.png"));
    CHECK_FALSE(p->matches("other-00042.png"));
    CHECK(render::parse_frame_pattern("out/%d.png")->name(7) == "7.png");
    CHECK_FALSE(render::parse_frame_pattern("%05d.png"));           // the working directory
    CHECK_FALSE(render::parse_frame_pattern("out/%05d-%05d.png"));  // two numbers
    CHECK_FALSE(render::parse_frame_pattern("out/%s.png"));
}

// The lifecycle the MP4, WebM, GIF and PNG-sequence sinks share (render/sinks/sink_output.hpp).
TEST_CASE("every video sink refuses frames before begin, leaves nothing on abort, closes on finish",
          "[formats]") {
    const story::Scene scene = render_test::test_scene(story::ThemeName::dark);
    using Case = std::tuple<std::string, std::string, std::size_t>;  // output, sink, files open
    for (const auto& [name, sink_class, open_files] :
         {Case{"film.mp4", "Mp4Sink", 1}, Case{"film.webm", "WebmSink", 1},
          Case{"film.gif", "GifSink", 0}, Case{"frames/%03d.png", "PngSequenceSink", 1}}) {
        INFO(name);
        TempDir dir;
        const std::string path = (dir.path / name).string();
        const auto sink = render::make_sink(path, render_test::shipped_fonts());
        const auto before_begin = [&](const std::string& call) {
            return Catch::Matchers::Message(sink_class + "::" + call + " before begin()");
        };
        CHECK_THROWS_MATCHES(sink->write(scene), render::SystemError, before_begin("write"));
        CHECK_THROWS_MATCHES(sink->finish(), render::SystemError, before_begin("finish"));

        sink->begin({path, 64, 36, 10});
        sink->write(scene);
        CHECK(names_in(dir.path).size() == open_files);  // a temporary file or folder, if any
        sink->abort();
        CHECK(names_in(dir.path).empty());

        sink->begin({path, 64, 36, 10});
        sink->write(scene);
        sink->finish();
        CHECK(names_in(dir.path) == std::vector<std::string>{fs::path(name).begin()->string()});
        CHECK_THROWS_MATCHES(sink->write(scene), render::SystemError, before_begin("write"));
    }
}

TEST_CASE("make_sink names every format it knows", "[formats]") {
    CHECK_THROWS_WITH(
        render::make_sink("out.avi", render_test::shipped_fonts()),
        Catch::Contains(".webm") && Catch::Contains(".gif") && Catch::Contains("%05d.png"));
}

TEST_CASE("render writes WebM and GIF films whose decoded frames are the stills of their moments",
          "[formats][cli]") {
    TempDir dir;
    const std::string board = render_test::short_film().string();
    // Frame 15 + 9 is bytes@9f, mid-morph: the frames either side of it show other numbers.
    const std::vector<std::pair<std::string, int>> moments{
        {"intro@7f", 7}, {"bytes@9f", 24}, {"bytes@end", 37}};
    for (const auto& [at, frame] : moments)
        REQUIRE(run_cli("still " + q(board) + " --at " + at + " -o " + q(dir.path / (at + ".png")))
                    .exit_code == 0);
    // Mean error per channel, out of 255. VP9 at the film's quality stays under 1 (measured
    // 0.46-0.91); the GIF is within 0.05, its palette holding these few colours almost exactly.
    // A frame off by one at bytes@9f is 2.7 (WebM) and 2.1 (GIF) away.
    for (const auto& [name, codec, tolerance] :
         {std::tuple<std::string, std::string, double>{"short.webm", "vp9", 1.5},
          {"short.gif", "gif", 0.3}}) {
        const std::string film = (dir.path / name).string();
        const auto run = run_cli("render " + q(board) + " --quiet -o " + q(film));
        INFO(name << ": " << run.err);
        REQUIRE(run.exit_code == 0);
        const render::VideoInfo info = render::probe_video(film);
        CHECK(info.codec == codec);
        CHECK(info.width == 480);
        CHECK(info.height == 270);
        CHECK(info.frame_count == 38);  // 1 s + 1.5 s at 15 fps
        for (const auto& [at, frame] : moments) {
            INFO(at);
            const fs::path still = dir.path / (at + ".png");
            CHECK(mean_abs_diff(still, render::decode_frame_rgb(film, frame), 480, 270) <
                  tolerance);
        }
        // ...and the tolerance tells the moment from its neighbours.
        for (const int wrong : {23, 25})
            CHECK(mean_abs_diff(dir.path / "bytes@9f.png", render::decode_frame_rgb(film, wrong),
                                480, 270) > tolerance);
    }
}
