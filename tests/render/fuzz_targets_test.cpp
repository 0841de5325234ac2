// The new fuzz targets' inputs on the normal build (docs/fuzzing.md): the corpora kept in
// fuzz/corpus/ and every crasher fixed since (tests/fuzz/), replayed through the targets' own
// code (fuzz/*_input.hpp), each held to what the target checks; and the studio's pages answered
// with no socket, as fuzz_studio calls them, byte for byte.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz/audio_input.hpp"
#include "fuzz/flags_input.hpp"
#include "fuzz/studio_input.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using render_test::slurp;

namespace {

// The files of fuzz/corpus/TARGET and tests/fuzz/TARGET, each read whole.
std::vector<std::pair<std::string, std::string>> inputs(const std::string& target) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const char* where : {"fuzz/corpus/", "tests/fuzz/"}) {
        const fs::path dir = fs::path(SHARDREEL_SOURCE_DIR) / where / target;
        if (!fs::exists(dir)) continue;
        for (const auto& entry : fs::directory_iterator(dir))
            out.emplace_back(entry.path().string(), slurp(entry.path()));
    }
    return out;
}

fuzz::StudioInput& studio() {
    static fuzz::StudioInput s;
    return s;
}

// A reply's body: what follows the blank line after its headers.
std::string body_of(const std::string& reply) { return reply.substr(reply.find("\r\n\r\n") + 4); }

}  // namespace

TEST_CASE("the flags corpus parses to exit 0 or 2, never a throw", "[fuzz]") {
    const auto files = inputs("flags");
    REQUIRE(files.size() >= 10);
    for (const auto& [path, text] : files) {
        INFO(path);
        const auto args = fuzz::flag_arguments(text);
        if (args.empty()) continue;
        const int code = fuzz::run_flags(args);
        CHECK((code == 0 || code == 2));
    }
}

TEST_CASE("the audio corpus decodes or is refused with a SystemError", "[fuzz]") {
    const auto files = inputs("audio");
    REQUIRE(files.size() >= 5);
    const fs::path dir = fuzz::private_dir("shardreel-test-fuzz-audio");
    int decoded = 0;
    for (const auto& [path, bytes] : files) {
        INFO(path);
        if (bytes.empty()) continue;
        const std::string take = fuzz::write_take(
            dir, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        decoded += fuzz::read_take(take);
    }
    fs::remove_all(dir);
    CHECK(decoded >= 5);  // the seeds of every format at least
}

TEST_CASE("the studio corpus gets replies, none a 500", "[fuzz]") {
    const auto files = inputs("studio");
    REQUIRE(files.size() >= 10);
    for (const auto& [path, request] : files) {
        INFO(path);
        CHECK(fuzz::StudioInput::status(studio().answer(request)) != 500);
    }
}

TEST_CASE("the studio answers from memory as over a socket", "[fuzz]") {
    const std::string missing = studio().answer("/nowhere");
    CHECK(fuzz::StudioInput::status(missing) == 404);
    CHECK(body_of(missing) ==
          "shardreel: error: no page /nowhere here: the studio serves /, /film.json, /frame.png, "
          "/numbers.json, /still.png, /still.svg, /audio.m4a and /events\n");

    const std::string forged =
        studio().answer("GET /film.json HTTP/1.1\r\nHost: evil.example:8640\r\n\r\n");
    CHECK(fuzz::StudioInput::status(forged) == 403);

    const std::string tiny = studio().answer("/frame.png?size=7x7");
    CHECK(fuzz::StudioInput::status(tiny) == 400);

    // A PNG of the size asked: IHDR's width and height, big-endian, at bytes 16 and 20.
    const std::string png = body_of(studio().answer("/frame.png?at=bubble@2s&size=320x180"));
    REQUIRE(png.size() > 24);
    CHECK(png.substr(1, 3) == "PNG");
    const auto be32 = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png[at + i]);
        return v;
    };
    CHECK(be32(16) == 320);
    CHECK(be32(20) == 180);
}
