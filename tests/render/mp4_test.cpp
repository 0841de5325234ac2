// MP4 sink, stream-copy concat and read-back: encoded files are checked through libavformat
// (codec, size, colour tags, rate, frame count, chapters, captions) and decoded pixels.
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "render/container/concat.hpp"
#include "render/container/video_probe.hpp"
#include "render/draw/fonts.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "render/sys/error.hpp"
#include "tests/catch.hpp"

namespace fs = std::filesystem;
using render::Frame;
using story::Color;
using story::hex;

namespace {

// A fresh directory per test, removed afterwards.
struct ScratchDir {
    fs::path path;
    ScratchDir() {
        static int counter = 0;
        path = fs::temp_directory_path() / ("shardreel-mp4-test-" + std::to_string(::getpid()) +
                                            "-" + std::to_string(counter++));
        fs::create_directories(path);
    }
    ~ScratchDir() { fs::remove_all(path); }
    std::string file(const std::string& name) const { return (path / name).string(); }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(path))
            names.push_back(e.path().filename().string());
        return names;
    }
};

const render::Fonts& fonts() {
    static const render::Fonts instance(render::default_font_dir());
    return instance;
}

// Cairo ARGB32 is a native-endian 32-bit word 0xAARRGGBB.
void fill(Frame& frame, int x0, int y0, int w, int h, Color c) {
    const std::uint32_t pixel = 0xFF000000u | (c.r << 16) | (c.g << 8) | c.b;
    for (int y = y0; y < y0 + h; ++y) {
        for (int x = x0; x < x0 + w; ++x) {
            std::memcpy(&frame.data[static_cast<std::size_t>(y) * frame.stride + x * 4], &pixel, 4);
        }
    }
}

Frame solid(int width, int height, Color c) {
    Frame frame{width, height, width * 4, std::vector<std::uint8_t>(width * height * 4)};
    fill(frame, 0, 0, width, height, c);
    return frame;
}

const std::vector<Color> kPalette = {hex(0x56B4E9), hex(0xE69F00), hex(0x009E73), hex(0xF0E442),
                                     hex(0x0072B2), hex(0xD55E00), hex(0xCC79A7), hex(0x808080)};

// Frame i is flat kPalette[i % size], so a decoded frame tells which index it was.
void encode_palette(const std::string& path, int width, int height, int fps, int frames) {
    render::Mp4Sink sink(fonts());
    sink.begin({path, width, height, fps});
    for (int i = 0; i < frames; ++i)
        sink.write_frame(solid(width, height, kPalette[i % kPalette.size()]));
    sink.finish();
}

// A rectangle sliding right across a dark background, drawn through the painter.
story::Scene moving_rect(int f) {
    story::Scene scene;
    scene.background = hex(0x101418);
    story::Rect rect;
    rect.x = 100.0 + 40 * f;
    rect.y = 400;
    rect.w = 480;
    rect.h = 280;
    rect.fill = hex(0x56B4E9);
    scene.add(rect);
    return scene;
}

void encode_scenes(const std::string& path, int width, int height, int fps, int frames,
                   render::EncoderSettings settings = {}) {
    render::Mp4Sink sink(fonts(), settings);
    sink.begin({path, width, height, fps});
    for (int f = 0; f < frames; ++f) sink.write(moving_rect(f));
    sink.finish();
}

std::vector<char> bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Mean absolute difference per channel between a decoded RGB24 picture and a flat colour.
std::vector<double> mean_error(const std::vector<std::uint8_t>& rgb, Color c) {
    std::vector<double> sum(3, 0);
    const int expected[3] = {c.r, c.g, c.b};
    for (std::size_t i = 0; i < rgb.size(); ++i) sum[i % 3] += std::abs(rgb[i] - expected[i % 3]);
    for (double& s : sum) s /= static_cast<double>(rgb.size() / 3);
    return sum;
}

void require_close(const std::vector<std::uint8_t>& rgb, Color c) {
    for (double e : mean_error(rgb, c)) REQUIRE(e < 3);
}

}  // namespace

TEST_CASE("Mp4Sink writes BT.709 yuv420p H.264 at the requested size and rate") {
    ScratchDir dir;
    const std::string path = dir.file("scene.mp4");
    const auto [fps, frames] = GENERATE(std::pair{30, 12}, std::pair{24, 10}, std::pair{15, 9});
    encode_scenes(path, 480, 270, fps, frames);

    const render::VideoInfo info = render::probe_video(path);
    CHECK(info.codec == "h264");
    CHECK(info.width == 480);
    CHECK(info.height == 270);
    CHECK(info.pix_fmt == "yuv420p");
    CHECK(info.color_primaries == "bt709");
    CHECK(info.color_trc == "bt709");
    CHECK(info.colorspace == "bt709");
    CHECK(info.color_range == "tv");
    CHECK(info.fps_num == fps);
    CHECK(info.fps_den == 1);
    CHECK(info.frame_count == frames);
    CHECK(info.duration_seconds == Approx(double(frames) / fps).margin(1e-9));
    CHECK(info.chapters.empty());
    CHECK(info.subtitles.empty());
    CHECK(dir.entries() == std::vector<std::string>{"scene.mp4"});
}

TEST_CASE("Mp4Sink encodes 1280x720 and the moving rectangle reads back where it was drawn") {
    ScratchDir dir;
    const std::string path = dir.file("hd.mp4");
    encode_scenes(path, 1280, 720, 30, 6);
    const render::VideoInfo info = render::probe_video(path);
    CHECK(info.width == 1280);
    CHECK(info.height == 720);
    CHECK(info.frame_count == 6);
    CHECK(info.duration_seconds == Approx(0.2).margin(1e-9));

    // Frame 5: the rectangle spans x 300..780, y 400..680 of 1920x1080, i.e. 200..520 x
    // 266..453 at 1280x720; sample its centre and the background well away from its edges.
    const std::vector<std::uint8_t> rgb = render::decode_frame_rgb(path, 5);
    REQUIRE(rgb.size() == 1280u * 720 * 3);
    const auto pixel = [&](int x, int y) {
        return &rgb[(static_cast<std::size_t>(y) * 1280 + x) * 3];
    };
    const std::uint8_t* inside = pixel(360, 360);
    CHECK(std::abs(inside[0] - 0x56) <= 3);
    CHECK(std::abs(inside[1] - 0xB4) <= 3);
    CHECK(std::abs(inside[2] - 0xE9) <= 3);
    const std::uint8_t* outside = pixel(1000, 100);
    CHECK(std::abs(outside[0] - 0x10) <= 3);
    CHECK(std::abs(outside[1] - 0x14) <= 3);
    CHECK(std::abs(outside[2] - 0x18) <= 3);
}

TEST_CASE("Mp4Sink output is byte-identical for identical input") {
    ScratchDir dir;
    encode_scenes(dir.file("a.mp4"), 1280, 720, 30, 10);
    encode_scenes(dir.file("b.mp4"), 1280, 720, 30, 10);
    const std::vector<char> a = bytes_of(dir.file("a.mp4"));
    REQUIRE(a.size() > 1000);
    CHECK(a == bytes_of(dir.file("b.mp4")));
}

TEST_CASE("Mp4Sink puts the index first (+faststart) and stores no creation time") {
    ScratchDir dir;
    encode_palette(dir.file("fast.mp4"), 480, 270, 30, 4);
    const std::vector<char> bytes = bytes_of(dir.file("fast.mp4"));
    const std::string text(bytes.begin(), bytes.end());
    const std::size_t moov = text.find("moov"), mdat = text.find("mdat");
    REQUIRE(moov != std::string::npos);
    REQUIRE(mdat != std::string::npos);
    CHECK(moov < mdat);
    // mvhd version 0: 4 bytes of version/flags, then creation and modification times.
    const std::size_t mvhd = text.find("mvhd");
    REQUIRE(mvhd != std::string::npos);
    CHECK(text.substr(mvhd + 4, 12) == std::string(12, '\0'));
}

TEST_CASE("Mp4Sink decodes back to the colours it was given, frame by frame") {
    ScratchDir dir;
    const std::string path = dir.file("flat.mp4");
    encode_palette(path, 480, 270, 30, 8);
    for (int k : {0, 3, 7}) {
        INFO("frame " << k);
        require_close(render::decode_frame_rgb(path, k), kPalette[k]);
    }
    CHECK_THROWS_AS(render::decode_frame_rgb(path, 8), render::SystemError);
}

TEST_CASE("Mp4Sink abort and destruction leave no file behind") {
    ScratchDir dir;
    const std::string path = dir.file("gone.mp4");
    SECTION("abort") {
        render::Mp4Sink sink(fonts());
        sink.begin({path, 480, 270, 30});
        for (int i = 0; i < 3; ++i) sink.write_frame(solid(480, 270, kPalette[i]));
        CHECK(dir.entries().size() == 1);  // the temporary file
        sink.abort();
        CHECK(dir.entries().empty());
        CHECK_THROWS_AS(sink.finish(), render::SystemError);
    }
    SECTION("destroyed before finish") {
        {
            render::Mp4Sink sink(fonts());
            sink.begin({path, 480, 270, 30});
            sink.write_frame(solid(480, 270, kPalette[0]));
        }
        CHECK(dir.entries().empty());
    }
    SECTION("a frame of the wrong size") {
        render::Mp4Sink sink(fonts());
        sink.begin({path, 480, 270, 30});
        CHECK_THROWS_AS(sink.write_frame(solid(640, 360, kPalette[0])), render::SystemError);
        sink.abort();
        CHECK(dir.entries().empty());
    }
}

TEST_CASE("Mp4Sink rejects sizes yuv420p cannot hold") {
    ScratchDir dir;
    render::Mp4Sink sink(fonts());
    CHECK_THROWS_AS(sink.begin({dir.file("odd.mp4"), 481, 270, 30}), render::SystemError);
    CHECK(dir.entries().empty());
}

TEST_CASE("to_string(EncoderSettings) names every field") {
    render::EncoderSettings s;
    CHECK(render::to_string(s) ==
          "preset=medium crf=20 tune= threads=2 gop_seconds=2 rc_lookahead=10");
    s.tune = "animation";
    s.crf = 18;
    CHECK(render::to_string(s) ==
          "preset=medium crf=18 tune=animation threads=2 gop_seconds=2 rc_lookahead=10");
}

TEST_CASE("concat_mp4 joins segments by stream copy") {
    ScratchDir dir;
    encode_palette(dir.file("a.mp4"), 480, 270, 30, 10);
    encode_palette(dir.file("b.mp4"), 480, 270, 30, 8);
    const std::string out = dir.file("joined.mp4");
    render::concat_mp4({dir.file("a.mp4"), dir.file("b.mp4")}, out);

    const render::VideoInfo info = render::probe_video(out);
    CHECK(info.codec == "h264");
    CHECK(info.width == 480);
    CHECK(info.color_primaries == "bt709");
    CHECK(info.fps_num == 30);
    CHECK(info.fps_den == 1);
    CHECK(info.frame_count == 18);
    CHECK(info.duration_seconds == Approx(0.6).margin(1e-9));

    std::vector<std::vector<std::uint8_t>> expected = render::video_packets(dir.file("a.mp4"));
    for (auto& p : render::video_packets(dir.file("b.mp4"))) expected.push_back(std::move(p));
    CHECK(render::video_packets(out) == expected);
    require_close(render::decode_frame_rgb(out, 9), kPalette[9 % kPalette.size()]);
    require_close(render::decode_frame_rgb(out, 12), kPalette[2]);  // b's frame 2

    const std::vector<char> once = bytes_of(out);
    render::concat_mp4({dir.file("a.mp4"), dir.file("b.mp4")}, out);
    CHECK(bytes_of(out) == once);
}

TEST_CASE(
    "concat_mp4 writes chapters and a mov_text caption track per language, the first default") {
    ScratchDir dir;
    encode_palette(dir.file("a.mp4"), 480, 270, 30, 10);
    encode_palette(dir.file("b.mp4"), 480, 270, 30, 8);
    render::ConcatExtras extras;
    extras.chapters = {{"Why it does not fit", 0, 1.0 / 3}, {"Ring all-reduce", 1.0 / 3, 0.6}};
    extras.captions = {{"eng",
                        {{0.1, 0.25, "Training holds more than weights."},
                         {0.4, 0.55, "Ring: 2(N-1)/N × B per card"}}},
                       {"deu", {{0.1, 0.25, "Training hält mehr als die Gewichte."}}}};
    const std::string out = dir.file("full.mp4");
    render::concat_mp4({dir.file("a.mp4"), dir.file("b.mp4")}, out, extras);

    const render::VideoInfo info = render::probe_video(out);
    CHECK(info.frame_count == 18);
    REQUIRE(info.chapters.size() == 2);
    CHECK(info.chapters[0].title == "Why it does not fit");
    CHECK(info.chapters[0].start_seconds == Approx(0).margin(1e-9));
    CHECK(info.chapters[0].end_seconds == Approx(0.333).margin(1e-9));
    CHECK(info.chapters[1].title == "Ring all-reduce");
    CHECK(info.chapters[1].start_seconds == Approx(0.333).margin(1e-9));
    CHECK(info.chapters[1].end_seconds == Approx(0.6).margin(1e-9));

    REQUIRE(info.subtitles.size() == 2);
    const render::ProbedSubtitles& subs = info.subtitles[0];
    CHECK(subs.codec == "mov_text");
    CHECK(subs.language == "eng");
    CHECK(subs.is_default);
    const render::ProbedSubtitles& german = info.subtitles[1];
    CHECK(german.codec == "mov_text");
    CHECK(german.language == "deu");
    CHECK_FALSE(german.is_default);
    REQUIRE(german.cues.size() == 1);
    CHECK(german.cues[0].text == "Training hält mehr als die Gewichte.");
    CHECK(german.cues[0].end_seconds == Approx(0.25).margin(1e-9));
    REQUIRE(subs.cues.size() == 2);
    CHECK(subs.cues[0].text == "Training holds more than weights.");
    CHECK(subs.cues[0].start_seconds == Approx(0.1).margin(1e-9));
    CHECK(subs.cues[0].end_seconds == Approx(0.25).margin(1e-9));
    CHECK(subs.cues[1].text == "Ring: 2(N-1)/N × B per card");
    CHECK(subs.cues[1].start_seconds == Approx(0.4).margin(1e-9));
    CHECK(subs.cues[1].end_seconds == Approx(0.55).margin(1e-9));
}

TEST_CASE("concat_mp4 refuses segments with different video parameters") {
    ScratchDir dir;
    encode_palette(dir.file("small.mp4"), 480, 270, 30, 3);
    encode_palette(dir.file("large.mp4"), 640, 360, 30, 3);
    CHECK_THROWS_AS(
        render::concat_mp4({dir.file("small.mp4"), dir.file("large.mp4")}, dir.file("mixed.mp4")),
        render::SystemError);
    CHECK_THROWS_AS(render::concat_mp4({}, dir.file("none.mp4")), render::SystemError);
    CHECK(!fs::exists(dir.file("mixed.mp4")));
    CHECK(dir.entries().size() == 2);
}
