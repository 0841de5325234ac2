// Recorded takes (narration: recorded): decoded at 48 kHz, trimmed and levelled like a voice's
// lines, found by the beat's place or its take:, and a missing, ambiguous, unreadable or
// non-audio take is an error at its line.
#include <filesystem>
#include <string>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sound.hpp"
#include "tests/render/voice_fixture.hpp"

using namespace render_test;
namespace fs = std::filesystem;

TEST_CASE("a recorded take is decoded at 48 kHz, trimmed and levelled", "[voice]") {
    const TempDir dir;
    fs::create_directories(dir.path / "takes");
    // A quiet 44.1 kHz stereo 440 Hz tone, 1 s between half-second silences.
    const auto take =
        concat(concat(silence(0.5, 44100), tone(440, 1.0, 44100, 0.05)), silence(0.5, 44100));
    write_wav(dir.path / "takes/intro-1.wav", 44100, 2, stereo(take));
    story::Storyboard b = board(recorded("takes"), {kLine}, dir.path / "film.yaml");
    mark(b, {"state"});
    const Filled f = fill(b, dir.path / "cache");
    INFO(f.err);
    REQUIRE(f.ok);
    CHECK(speech(b).seconds == Approx(1.06).margin(0.002));  // the tone and 30 ms each side
    const std::vector<float> line = pcm(b, dir.path / "cache");
    CHECK(pitch({line.begin() + 9600, line.end() - 9600}, 48000) == Approx(440).margin(0.5));
    CHECK(lufs(line) == Approx(-16).margin(0.1));
    CHECK(peak_dbfs(line) <= -1 + 1e-4);
    // A take's words are not known: the mark sits at its share of the text.
    const double share =
        static_cast<double>(std::string(kLine).find("state")) / std::string(kLine).size();
    REQUIRE(speech(b).marks.size() == 1);
    CHECK(speech(b).marks[0] == Approx(share * speech(b).seconds));

    // A quiet take with a loud click: the tone reaches -16 LUFS, the click is held at -1 dBFS,
    // and the limiter's dip around it lasts milliseconds, not the take.
    auto clicky = tone(440, 1.0, 48000, 0.01);
    clicky[24000] = 1.0f;
    write_wav(dir.path / "takes/intro-1.wav", 48000, 1, clicky);
    story::Storyboard c = board(recorded("takes"), {kLine}, dir.path / "film.yaml");
    REQUIRE(fill(c, dir.path / "cache").ok);
    CHECK(speech(c).key != speech(b).key);  // the take's bytes are in the key
    const std::vector<float> held = pcm(c, dir.path / "cache");
    CHECK(peak_dbfs(held) == Approx(-1).margin(0.01));
    CHECK(lufs(held) == Approx(-16).margin(0.1));
    const std::size_t click = 24000;  // nothing is trimmed off the front: the tone starts at once
    CHECK(peak_dbfs({held.begin(), held.begin() + click - 960}) ==
          Approx(peak_dbfs({held.end() - 4800, held.end()})).margin(0.1));
}

TEST_CASE("takes are named by the beat's place among all the chapter's beats, or by take:",
          "[voice]") {
    const TempDir dir;
    fs::create_directories(dir.path / "takes");
    write_wav(dir.path / "takes/intro-1.wav", 48000, 1, tone(440, 1.0, 48000, 0.3));
    write_wav(dir.path / "takes/intro-3.flac.wav", 48000, 1, tone(440, 9.0, 48000, 0.3));
    write_wav(dir.path / "takes/intro-3.wav", 48000, 1, tone(440, 2.0, 48000, 0.3));
    write_wav(dir.path / "mine.wav", 48000, 1, tone(440, 3.0, 48000, 0.3));
    story::Storyboard b =
        board(recorded("takes"), {"One.", "", "Three.", "Four."}, dir.path / "film.yaml");
    b.chapters[0].beats[3].take = "mine.wav";
    REQUIRE(fill(b, dir.path / "cache").ok);
    CHECK(speech(b, 0).seconds == Approx(1.0).margin(0.07));
    CHECK_FALSE(b.chapters[0].beats[1].speech);  // it only animates
    CHECK(speech(b, 2).seconds == Approx(2.0).margin(0.07));
    CHECK(speech(b, 3).seconds == Approx(3.0).margin(0.07));
}

TEST_CASE("a take that is missing, ambiguous, unreadable or not audio is an error at its line",
          "[voice]") {
    const TempDir dir;
    fs::create_directories(dir.path / "takes");
    write_text(dir.path / "takes/intro-1.wav", "not a sound\n");
    write_wav(dir.path / "takes/intro-2.wav", 48000, 1, tone(440, 1.0, 48000, 0.3));
    write_wav(dir.path / "takes/intro-2.mp3", 48000, 1, tone(440, 1.0, 48000, 0.3));
    fs::create_directories(dir.path / "takes/intro-4.wav");  // a folder: no bytes to read
    story::Storyboard b = board(recorded("takes"), {"One.", "Two.", "Three.", "Four.", "Five."},
                                dir.path / "film.yaml");
    b.chapters[0].beats[4].take = "takes/gone.wav";
    b.chapters[0].beats[4].take_pos = {18, 13};
    const Filled f = fill(b, dir.path / "cache");
    CHECK_FALSE(f.ok);
    const std::string film = (dir.path / "film.yaml").string();
    const std::string takes = (dir.path / "takes").string();
    CHECK(f.err == film + ":10:7: error: take is not audio: cannot open " + takes +
                       "/intro-1.wav: Invalid data found when processing input\n" +  //
                       film + ":12:7: error: two takes for this line: " + takes +
                       "/intro-2.wav and " + takes +
                       "/intro-2.mp3 (keep one, or name it with `take:`)\n" +  //
                       film + ":14:7: error: no take for this line: expected " + takes +
                       "/intro-3.wav (or .flac, .mp3, .opus, .ogg or .m4a)\n" +  //
                       film + ":16:7: error: cannot read take " + takes +
                       "/intro-4.wav: Is a directory\n" +  //
                       film + ":18:13: error: take " + (dir.path / "takes/gone.wav").string() +
                       " does not exist\n");
    CHECK_FALSE(fs::exists(dir.path / "cache"));  // nothing spoken, nothing stored
}
