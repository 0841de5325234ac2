// The voice module's entry point: one Synthesizer for the process, each engine started on its
// first line, every line made 48 kHz, trimmed and normalised the same way whatever spoke it.
#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>

#include "render/av/audio_decode.hpp"
#include "render/voice/module/espeak_voice.hpp"
#include "render/voice/module/festival_voice.hpp"
#include "render/voice/module/level.hpp"
#include "render/voice/synthesizer.hpp"

namespace render::voice {

namespace {

using story::VoiceEngine;

// The engine's marks, moved by the samples trimmed off the front (or padded before it); where it
// gave none, at the mark's share of the text (a take's words are not known).
std::vector<double> place_marks(const RawSpeech& raw, const LineRequest& request,
                                std::ptrdiff_t trimmed, std::size_t samples) {
    const double seconds = static_cast<double>(samples) / kAudioRate;
    const double shift = static_cast<double>(trimmed) / kAudioRate;
    std::vector<double> marks;
    for (std::size_t i = 0; i < request.marks.size(); ++i) {
        const double proportional = request.text.empty()
                                        ? 0
                                        : seconds * static_cast<double>(request.marks[i]) /
                                              static_cast<double>(request.text.size());
        const double t = std::isnan(raw.marks[i]) ? proportional : raw.marks[i] - shift;
        marks.push_back(std::clamp(t, 0.0, seconds));
    }
    // Offsets in text order give times in that order, whatever an engine reported.
    for (std::size_t i = 1; i < marks.size(); ++i) {
        if (request.marks[i] >= request.marks[i - 1]) marks[i] = std::max(marks[i], marks[i - 1]);
    }
    return marks;
}

Line finish(const RawSpeech& raw, const LineRequest& request) {
    Line line;
    line.pcm = resample_mono(raw.pcm, raw.rate);
    const std::ptrdiff_t trimmed = trim_silence(line.pcm);
    normalise_loudness(line.pcm);
    line.marks = place_marks(raw, request, trimmed, line.pcm.size());
    return line;
}

class Module final : public Synthesizer {
  public:
    Outcome voices(VoiceEngine engine, std::vector<std::string>& names) override {
        const std::lock_guard<std::mutex> lock(mutex_);
        try {
            if (engine == VoiceEngine::espeak)
                names = espeak().voices();
            else if (engine == VoiceEngine::festival)
                names = festival().voices();
            else
                names.clear();
            return {};
        } catch (const std::exception& e) {
            return {Outcome::Kind::failed, e.what()};
        }
    }

    // Engines are started and entered under the lock, but each line is spoken in a child and
    // levelled outside it: lines asked for by several threads are spoken side by side.
    Outcome speak(const LineRequest& request, Line& line) override {
        try {
            if (request.engine == VoiceEngine::recorded) return decode_take(request, line);
            RawSpeech raw;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                raw = request.engine == VoiceEngine::festival
                          ? festival().speak(lock, request.voice, request.wpm, request.text,
                                             request.marks)
                          : espeak().speak(lock, request.voice, request.wpm, request.text,
                                           request.marks);
            }
            line = finish(raw, request);
            return {};
        } catch (const std::exception& e) {
            return {Outcome::Kind::failed, e.what()};
        }
    }

  private:
    // Every failure to read the take as sound is the take's fault (exit 2), not the system's.
    static Outcome decode_take(const LineRequest& request, Line& line) {
        RawSpeech raw;
        try {
            raw.pcm = decode_audio(request.take, 1).samples;
        } catch (const std::exception& e) {
            return {Outcome::Kind::bad_take, e.what()};
        }
        if (raw.pcm.empty()) return {Outcome::Kind::bad_take, request.take + " holds no sound"};
        raw.rate = kAudioRate;
        raw.marks.assign(request.marks.size(), std::nan(""));
        line = finish(raw, request);
        return {};
    }

    Espeak& espeak() {
        if (!espeak_) espeak_ = std::make_unique<Espeak>();
        return *espeak_;
    }
    Festival& festival() {
        if (!festival_) festival_ = std::make_unique<Festival>();
        return *festival_;
    }

    std::mutex mutex_;  // neither engine may be entered by two threads at once
    std::unique_ptr<Espeak> espeak_;
    std::unique_ptr<Festival> festival_;
};

}  // namespace

}  // namespace render::voice

extern "C" __attribute__((visibility("default"))) render::voice::Synthesizer*
shardreel_voice_synthesizer() {
    static render::voice::Module module;
    return &module;
}
