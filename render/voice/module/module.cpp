// The voice module's entry point: one Synthesizer for the process, each engine started on its
// first line, every line made 48 kHz, trimmed and normalised the same way whatever spoke it.
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "render/sound/decode/audio_decode.hpp"
#include "render/sys/children.hpp"
#include "render/voice/module/espeak_voice.hpp"
#include "render/voice/module/festival_voice.hpp"
#include "render/voice/module/level.hpp"
#include "render/voice/module/open_jtalk_voice.hpp"
#include "render/voice/synthesizer.hpp"

namespace render::voice {

namespace {

using render::Reuse;
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

// A line's reply from its child: "\0", the sample and mark counts, the samples, the marks; or
// "\2" and why the take is no sound; or render/sys/children.hpp's failure reply.
template <typename T>
void append(std::string& out, const T* data, std::size_t count) {
    out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

std::string encode(const Line& line) {
    const std::uint64_t head[2] = {line.pcm.size(), line.marks.size()};
    std::string out(1, '\0');
    append(out, head, 2);
    append(out, line.pcm.data(), line.pcm.size());
    append(out, line.marks.data(), line.marks.size());
    return out;
}

// Copies count values from the reply's bytes at `at` (std::copy: memcpy from or to an empty
// vector's data() would be undefined).
template <typename T>
void take_values(const std::string& reply, std::size_t at, std::size_t count, std::vector<T>& out) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(reply.data()) + at;
    out.resize(count);
    std::copy(bytes, bytes + count * sizeof(T), reinterpret_cast<unsigned char*>(out.data()));
}

Outcome decode(const std::string& reply, Line& line) {
    if (reply.empty()) return {Outcome::Kind::failed, "the engine gave no reply"};
    if (reply[0] == '\1') return {Outcome::Kind::failed, reply.substr(1)};
    if (reply[0] == '\2') return {Outcome::Kind::bad_take, reply.substr(1)};
    std::vector<std::uint64_t> head;
    const std::size_t pcm_at = 1 + 2 * sizeof(std::uint64_t);
    if (reply.size() < pcm_at) return {Outcome::Kind::failed, "the engine's reply is cut short"};
    take_values(reply, 1, 2, head);
    const std::size_t marks_at = pcm_at + head[0] * sizeof(float);
    if (reply.size() != marks_at + head[1] * sizeof(double))
        return {Outcome::Kind::failed, "the engine's reply is cut short"};
    take_values(reply, pcm_at, head[0], line.pcm);
    take_values(reply, marks_at, head[1], line.marks);
    return {};
}

// Every failure to read the take as sound is the take's fault (exit 2), not the system's.
std::string decode_take(const LineRequest& request) {
    RawSpeech raw;
    try {
        raw.pcm = decode_audio(request.take, 1).samples;
    } catch (const std::exception& e) {
        return '\2' + std::string(e.what());
    }
    if (raw.pcm.empty()) return '\2' + request.take + " holds no sound";
    raw.rate = kAudioRate;
    raw.marks.assign(request.marks.size(), std::nan(""));
    return encode(finish(raw, request));
}

class Module final : public Synthesizer {
  public:
    Outcome voices(VoiceEngine engine, std::vector<std::string>& names) override {
        try {
            if (engine == VoiceEngine::espeak)
                names = espeak().voices();
            else if (engine == VoiceEngine::festival)
                names = festival().voices();
            else if (engine == VoiceEngine::open_jtalk)
                names = open_jtalk().voices();
            else
                names.clear();
            return {};
        } catch (const std::exception& e) {
            return {Outcome::Kind::failed, e.what()};
        }
    }

    // Each engine a line needs is started, and the first line's Festival voice selected, here,
    // before any child is forked: what they load is then loaded once. Festival's and Open JTalk's
    // lines (each of those a run of its own program) and the takes are spoken by workers that
    // serve many lines; espeak-ng's each in a child of its own (see render/sys/children.hpp).
    // Open JTalk is let go at the end, here in the process that forked the workers: its folder
    // goes with it, and with it the files of any worker killed mid-line.
    void speak_all(const std::vector<LineRequest>& requests, int workers,
                   LineReceiver& receiver) override {
        speak_lines(requests, workers, receiver);
        open_jtalk_.reset();
    }

  private:
    void speak_lines(const std::vector<LineRequest>& requests, int workers,
                     LineReceiver& receiver) {
        try {
            keep_freed_memory();
            start_engines(requests);
            for (const Reuse reuse : {Reuse::serve_many, Reuse::fresh_per_index}) {
                const auto order = longest_first(requests, reuse);
                bool going = true;
                const auto done = [&](std::size_t k, const std::string& reply) {
                    Line line;
                    const Outcome outcome = decode(reply, line);
                    return going = receiver.take(order[k], outcome, line);
                };
                run_children(
                    order.size(), workers, [&](std::size_t k) { return speak(requests[order[k]]); },
                    [&] { return going = receiver.keep_going(); }, done, reuse);
                if (!going) return;
            }
        } catch (const std::exception& e) {
            Line none;
            receiver.take(0, {Outcome::Kind::failed, e.what()}, none);
        }
    }

    // Large blocks a line frees stay in this process (the speaker, and the workers it forks) for
    // the next line, instead of going back to the kernel to be faulted in afresh, zeroed, by the
    // next line's allocations: 5% less CPU for the default film's speech (farm-bench, 3 pairs).
    static void keep_freed_memory() {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
    }

    static Reuse reuse_of(const LineRequest& r) {
        return r.engine == VoiceEngine::espeak ? Reuse::fresh_per_index : Reuse::serve_many;
    }

    // The indices of the requests spoken with `reuse`, the longest text first (ties in file
    // order): each line costs about its length, and the long ones started first leave no worker
    // alone with one at the end.
    static std::vector<std::size_t> longest_first(const std::vector<LineRequest>& requests,
                                                  Reuse reuse) {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            if (reuse_of(requests[i]) == reuse) order.push_back(i);
        }
        std::ranges::stable_sort(order, std::greater<>(),
                                 [&](std::size_t i) { return requests[i].text.size(); });
        return order;
    }

    void start_engines(const std::vector<LineRequest>& requests) {
        for (const LineRequest& r : requests) {
            if (r.engine == VoiceEngine::espeak) espeak();
            if (r.engine == VoiceEngine::festival && !festival_) festival().select(r.voice);
            if (r.engine == VoiceEngine::open_jtalk) open_jtalk();
        }
    }

    // A line's reply (see decode), spoken in a worker.
    std::string speak(const LineRequest& request) {
        if (request.engine == VoiceEngine::recorded) return decode_take(request);
        if (request.engine == VoiceEngine::open_jtalk) {
            return encode(
                finish(open_jtalk().speak(request.voice, request.wpm, request.text, request.marks),
                       request));
        }
        if (request.engine == VoiceEngine::festival) {
            festival().select(request.voice);
            return encode(
                finish(festival().speak(request.wpm, request.text, request.marks), request));
        }
        return encode(finish(
            espeak().speak(request.voice, request.wpm, request.text, request.marks), request));
    }

    Espeak& espeak() {
        if (!espeak_) espeak_ = std::make_unique<Espeak>();
        return *espeak_;
    }
    Festival& festival() {
        if (!festival_) festival_ = std::make_unique<Festival>();
        return *festival_;
    }

    OpenJtalk& open_jtalk() {
        if (!open_jtalk_) open_jtalk_ = std::make_unique<OpenJtalk>();
        return *open_jtalk_;
    }

    std::unique_ptr<Espeak> espeak_;
    std::unique_ptr<Festival> festival_;
    std::unique_ptr<OpenJtalk> open_jtalk_;
};

}  // namespace

}  // namespace render::voice

extern "C" __attribute__((visibility("default"))) render::voice::Synthesizer*
shardreel_voice_synthesizer() {
    static render::voice::Module module;
    return &module;
}
