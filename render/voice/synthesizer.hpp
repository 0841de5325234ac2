// What the core asks of the voice module (build/shardreel-voice.so: espeak-ng, Festival, Open
// JTalk and recorded takes) and what it answers: plain values across the dlopen boundary, no
// exceptions.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "render/sound/decode/audio_decode.hpp"
#include "story/storyboard/narration.hpp"

namespace render::voice {

// As storyboards name the engines: "espeak-ng", "festival", "open-jtalk", "recorded", "off".
inline const char* engine_name(story::VoiceEngine engine) {
    switch (engine) {
        case story::VoiceEngine::espeak:
            return "espeak-ng";
        case story::VoiceEngine::festival:
            return "festival";
        case story::VoiceEngine::open_jtalk:
            return "open-jtalk";
        case story::VoiceEngine::recorded:
            return "recorded";
        case story::VoiceEngine::off:
            break;
    }
    return "off";
}

// One beat's line to speak.
struct LineRequest {
    story::VoiceEngine engine = story::VoiceEngine::espeak;
    std::string voice;               // the engine's voice ("en-us"); empty for recorded
    int wpm = 0;                     // words per minute; 0: the engine's own pace
    std::string text;                // the beat's say: text, bookmarks removed
    std::vector<std::size_t> marks;  // byte offsets into text of the bookmarked words
    std::string take;                // recorded: the take file's path
};

// The line as spoken: mono float at kAudioRate (48 kHz), silence trimmed, at -16 LUFS.
struct Line {
    std::vector<float> pcm;
    std::vector<double> marks;  // seconds from the first sample, one per request mark
};

struct Outcome {
    enum class Kind { ok, bad_take, failed };
    Kind kind = Kind::ok;
    std::string message;  // bad_take: why the take is no sound; failed: the engine's failure
};

// Where speak_all() hands the lines, in the order they finish.
class LineReceiver {
  public:
    virtual ~LineReceiver() = default;
    // Asked every 100 ms while lines are being spoken; false stops them all.
    virtual bool keep_going() = 0;
    // The request's line, or why there is none; false stops the rest.
    virtual bool take(std::size_t request, const Outcome& outcome, Line& line) = 0;
};

class Synthesizer {
  public:
    virtual ~Synthesizer() = default;
    // The engine's voice names, sorted (espeak-ng's ~130, Festival's and Open JTalk's installed
    // ones).
    virtual Outcome voices(story::VoiceEngine engine, std::vector<std::string>& names) = 0;
    // Speaks (or decodes) each line, every voice one voices() lists, in child processes, at most
    // `workers` at once (render/sys/children.hpp). The caller must be the process's only
    // thread: the processes are forked from it.
    virtual void speak_all(const std::vector<LineRequest>& requests, int workers,
                           LineReceiver& receiver) = 0;
};

}  // namespace render::voice

// The module's one entry point; the instance lives until exit.
extern "C" render::voice::Synthesizer* shardreel_voice_synthesizer();
