// Narration and timing as the loader reads them: off, a voice or a map, overridden per chapter
// field by field; duration: auto and fit:; beats at after and mark, gap, take, sound and
// bookmarks; and their errors where they are written.
#include "engine/presets.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"
#include "tests/story/load_fixture.hpp"

using story_test::errors_of;
using story_test::load_ok;
using story_test::timed_ok;

TEST_CASE("narration is off, a voice or a map, and a chapter overrides it field by field") {
    const auto sb = load_ok(R"(shardreel: 1
video:
  narration: {voice: "festival:cmu_us_slt_arctic_hts", wpm: 160, gap: 0.5s, tail: 2s}
  music: music/bed.flac
  music_level: -18dB
chapters:
  - {id: a, kind: title}
  - {id: b, kind: title, narration: off}
  - {id: c, kind: title, narration: "espeak-ng:en-gb"}
  - id: d
    kind: title
    narration: {voice: recorded, takes: takes, tail: 1.5s}
  - {id: e, kind: title, narration: false}
)");
    using story::VoiceEngine;
    const story::Narration& film = sb.video.narration;
    CHECK(film == story::Narration{VoiceEngine::festival, "cmu_us_slt_arctic_hts", 160, "", 0.5, 2,
                                   story::SourcePos{3, 22}});
    CHECK(sb.video.music == story::Music{"music/bed.flac", -18, story::SourcePos{4, 10}});
    REQUIRE(sb.chapters.size() == 5);
    CHECK(sb.chapters[0].narration == film);
    story::Narration b = film;
    b.engine = VoiceEngine::off, b.voice = "", b.pos = {8, 37};
    CHECK(sb.chapters[1].narration == b);
    CHECK(sb.chapters[2].narration ==
          story::Narration{VoiceEngine::espeak, "en-gb", 160, "", 0.5, 2, {9, 37}});
    CHECK(sb.chapters[3].narration ==
          story::Narration{VoiceEngine::recorded, "", 160, "takes", 0.5, 1.5, {12, 24}});
    CHECK(sb.chapters[4].narration.engine == VoiceEngine::off);
    CHECK(load_ok("shardreel: 1\nvideo: {music_level: -6}\nchapters: [{id: a, kind: title}]\n")
              .video.music.level == -6);
}

TEST_CASE("duration: auto and fit: stretch are read - the duration waits for timing") {
    const auto sb = load_ok(R"(shardreel: 1
chapters:
  - id: a
    kind: bytes_per_parameter
    duration: auto
    fit: stretch
    beats: [{at: 0s, say: Hello.}]
  - {id: b, kind: title, duration: 3s, fit: tail}
)");
    CHECK(sb.chapters[0].auto_duration);
    CHECK(sb.chapters[0].stretch);
    CHECK(sb.chapters[0].duration == story::find_kind("bytes_per_parameter")->default_duration);
    CHECK_FALSE(sb.chapters[1].auto_duration);
    CHECK_FALSE(sb.chapters[1].stretch);
    CHECK(timed_ok(R"(shardreel: 1
chapters:
  - id: a
    kind: bytes_per_parameter
    duration: auto
    beats: [{at: 0s, say: Hello.}]
)")
              .chapters[0]
              .duration == 1 + 1);  // the estimate (1 s at least) and the default tail
}

TEST_CASE("beats: at after and mark, gap, take, sound, and bookmarks taken out of say") {
    const auto sb = load_ok(R"(shardreel: 1
video: {narration: {voice: recorded, takes: takes}}
chapters:
  - id: a
    kind: bytes_per_parameter
    beats:
      - at: 0s
        say: "Scale to [[big]]70 billion [[end]]"
        take: takes/a-1.wav
      - at: mark:big
        set: {model: llama-2-70b}
        sound: sfx/click.wav
      - at: after
        gap: 0.8s
        say: "Then [[fp8]] fp8 halves it."
        take: takes/a-3.flac
      - {at: mark:fp8, say: "[[a]][[b]]Two at once."}
)");
    const auto& beats = sb.chapters[0].beats;
    REQUIRE(beats.size() == 4);
    CHECK(beats[0].rule == story::AtRule::fixed);
    CHECK(beats[0].say == "Scale to 70 billion");
    CHECK(beats[0].marks == std::vector<story::Bookmark>{{"big", 9}, {"end", 19}});
    CHECK(beats[0].say_pos == story::SourcePos{8, 14});
    CHECK(beats[0].take == "takes/a-1.wav");
    CHECK(beats[0].take_pos == story::SourcePos{9, 15});
    CHECK(beats[1].rule == story::AtRule::mark);
    CHECK(beats[1].mark == "big");
    CHECK(beats[1].at_pos == story::SourcePos{10, 13});
    CHECK(beats[1].sound == "sfx/click.wav");
    CHECK(beats[1].sound_pos == story::SourcePos{12, 16});
    CHECK(beats[1].set.size() == 1);
    CHECK(beats[2].rule == story::AtRule::after);
    CHECK(beats[2].gap == 0.8);
    CHECK(beats[2].say == "Then fp8 halves it.");
    CHECK(beats[2].marks == std::vector<story::Bookmark>{{"fp8", 5}});
    CHECK(beats[3].say == "Two at once.");
    CHECK(beats[3].marks == std::vector<story::Bookmark>{{"a", 0}, {"b", 0}});
    CHECK_FALSE(beats[3].gap);
}

TEST_CASE("narration and timing keys report their errors where they are written") {
    CHECK(errors_of(R"(shardreel: 1
video: {narration: "espeak:en-us", music_level: -80, music: ""}
chapters:
  - id: a
    kind: bytes_per_parameter
    duration: 3s
    narration: {voice: recordd, wpm: 50, gap: -1s, tail: 0.1s, speed: 2}
    fit: strech
    beats:
      - {at: 0s, say: "Hello [[Big]] world [[ok]]there [[ok]]again [[open"}
      - {at: "mark:okk", say: x}
      - {at: afer}
      - {at: "mark:later"}
      - {at: "mark:Later"}
      - {at: 2s, say: "now [[later]]x", take: ""}
      - {at: 2.5s, take: foo.wav, gap: 11}
      - {at: "mark:self", say: "[[self]]Me."}
  - id: b
    kind: bytes_per_parameter
    narration: recorded
    duration: auto
    beats:
      - {at: 1s}
      - {at: 2s, say: "unrecorded"}
  - {id: c, kind: title, duration: auto, narration: "festival:"}
  - {id: d, kind: title, narration: "recorded:me"}
  - {id: e, kind: title, narration: "en-us"}
)") == "test.yaml:2:20: error: unknown voice engine 'espeak' in 'espeak:en-us' (did you mean "
       "'espeak-ng'?)\n"
       "test.yaml:2:49: error: 'music_level' must be between -60dB and 0dB, got -80dB\n"
       "test.yaml:2:61: error: expected a file name for 'music', got nothing\n"
       "test.yaml:7:24: error: unknown voice 'recordd' (did you mean 'recorded'?)\n"
       "test.yaml:7:38: error: 'wpm' must be between 80 and 450, got 50\n"
       "test.yaml:7:47: error: cannot parse '-1s' as a time (expected e.g. 1.5s, 500ms or 45f)\n"
       "test.yaml:7:58: error: 'tail' must be between 0.5s and 10s, got 0.1s\n"
       "test.yaml:7:64: error: unknown key 'speed' in narration\n"
       "test.yaml:8:10: error: unknown fit 'strech' (did you mean 'stretch'?)\n"
       "test.yaml:10:23: error: bad bookmark '[[Big]]' in say: (names use a-z, 0-9, '_' and '-')\n"
       "test.yaml:10:23: error: unclosed bookmark '[[open' in say: (write [[name]] before a word)\n"
       "test.yaml:10:23: error: bookmark '[[ok]]' is already in chapter 'a' (on line 10)\n"
       "test.yaml:11:14: error: no bookmark 'okk' in an earlier beat of chapter 'a' (did you mean "
       "'ok'?)\n"
       "test.yaml:12:14: error: cannot parse 'afer' as a beat's start (did you mean 'after'?)\n"
       "test.yaml:13:14: error: bookmark 'later' is in a later beat (line 15), but a beat can "
       "start only on a bookmark of an earlier one\n"
       "test.yaml:14:14: error: bad bookmark name 'Later' in 'at: mark:Later' (names use a-z, 0-9, "
       "'_' and '-')\n"
       "test.yaml:15:47: error: expected a file name for 'take', got nothing\n"
       "test.yaml:16:26: error: take: needs a say: on its beat (the line it records)\n"
       "test.yaml:16:40: error: 'gap' must be between 0s and 10s, got 11s\n"
       "test.yaml:17:14: error: bookmark 'self' is in this beat's own line, but a beat can start "
       "only on a bookmark of an earlier one\n"
       "test.yaml:24:23: error: no recording for this line in chapter 'b': narration: recorded "
       "needs takes: FOLDER, or a take: on the beat\n"
       "test.yaml:25:36: error: duration: auto needs a beat with a say: (the chapter ends after "
       "its last line)\n"
       "test.yaml:25:53: error: voice 'festival:' needs a voice name after 'festival:' (e.g. "
       "espeak-ng:en-us, festival:cmu_us_slt_arctic_hts or open-jtalk:nitech-jp-atr503-m001)\n"
       "test.yaml:26:37: error: 'recorded' takes no voice name (the takes are the voice), got "
       "'recorded:me'\n"
       "test.yaml:27:37: error: unknown voice 'en-us' (expected espeak-ng:VOICE, festival:VOICE, "
       "open-jtalk:VOICE, recorded or off)\n");
}
