// Filling beats' speech from the cache or the voice module; see speech.hpp.
#include "render/voice/speech.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <thread>
#include <tuple>

#include "render/sys/cancel.hpp"
#include "render/sys/children.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "render/voice/open_jtalk_files.hpp"
#include "render/voice/speech_cache.hpp"
#include "render/voice/voice_module.hpp"
#include "story/storyboard/diagnostics.hpp"

namespace render {
namespace fs = std::filesystem;
using story::VoiceEngine;

namespace {

// The order a take's extensions are tried in; README "Narration voices".
const std::vector<std::string> kTakeExtensions = {"wav", "flac", "mp3", "opus", "ogg", "m4a"};

// `espeak-ng` or `festival` without a voice name speaks English.
std::string voice_or_default(const story::Narration& narration) {
    if (!narration.voice.empty()) return narration.voice;
    if (narration.engine == VoiceEngine::espeak) return "en-us";
    if (narration.engine == VoiceEngine::festival) return "cmu_us_slt_arctic_hts";
    return "";
}

bool exists(const fs::path& path) {
    std::error_code ec;
    return fs::exists(path, ec);
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// A line the cache did not hold.
struct Miss {
    story::Beat* beat = nullptr;
    voice::LineRequest request;
    SpeechKey key;
    story::SourcePos voice_pos, take_pos;
};

class SpeechFiller {
  public:
    SpeechFiller(story::Storyboard& board, const std::string& cache_dir, int workers)
        : file_(board.file),
          base_(fs::path(board.file).parent_path()),
          cache_(cache_dir),
          workers_(workers > 0 ? workers : static_cast<int>(std::thread::hardware_concurrency())) {}

    bool run(story::Storyboard& board, story::Diagnostics& diags) {
        for (story::ChapterSpec& chapter : board.chapters) {
            if (chapter.narration.engine == VoiceEngine::off) continue;
            for (std::size_t i = 0; i < chapter.beats.size(); ++i) {
                if (!chapter.beats[i].say.empty()) look_up(chapter, i);
            }
        }
        if (!misses_.empty()) speak_in_speaker();
        diags.append(diags_);
        return diags_.empty();
    }

  private:
    void look_up(story::ChapterSpec& chapter, std::size_t index) {
        story::Beat& beat = chapter.beats[index];
        story::VoicedLine voiced =
            story::voiced_line(beat.say, beat.marks, chapter.narration.readings);
        Miss miss{&beat,
                  {chapter.narration.engine, voice_or_default(chapter.narration),
                   chapter.narration.wpm, std::move(voiced.text), std::move(voiced.marks), ""},
                  {},
                  chapter.narration.pos,
                  beat.take.empty() ? beat.pos : beat.take_pos};
        std::string file_digest;
        if (miss.request.engine == VoiceEngine::open_jtalk) {
            if (auto too_long = voice::open_jtalk_line_error(miss.request.text))
                return report(beat.say_pos, *too_long);
            file_digest = htsvoice_digest(miss.request.voice);
        } else if (miss.request.engine == VoiceEngine::recorded) {
            const auto take = find_take(chapter, index + 1, beat);
            if (!take) return;
            std::string error;
            const auto bytes = read_file(*take, error);
            if (!bytes) return report(miss.take_pos, "cannot read take " + *take + ": " + error);
            miss.request.take = *take;
            file_digest = xxh3_hex(*bytes);
        }
        miss.key = speech_key(miss.request, file_digest);
        if (auto hit = cache_.lookup(miss.key)) {
            beat.speech = std::move(*hit);
        } else {
            misses_.push_back(std::move(miss));
        }
    }

    // XXH3-128 of an Open JTalk voice's .htsvoice, read once a run; empty for a voice that is not
    // installed (known_voice reports it before anything is spoken).
    const std::string& htsvoice_digest(const std::string& voice) {
        const auto [digest, fresh] = htsvoice_digests_.try_emplace(voice);
        if (!fresh) return digest->second;
        const auto files = voice::open_jtalk_voices();
        const auto file = files.find(voice);
        std::string error;
        const auto bytes = file == files.end() ? std::nullopt : read_file(file->second, error);
        if (bytes) digest->second = xxh3_hex(*bytes);
        return digest->second;
    }

    // `take: FILE`, else <takes>/<chapter>-<n>.<ext> with n the beat's place among all the
    // chapter's beats (from 1) and exactly one of the extensions present.
    std::optional<std::string> find_take(const story::ChapterSpec& chapter, std::size_t n,
                                         const story::Beat& beat) {
        if (!beat.take.empty()) {
            const std::string path = (base_ / beat.take).string();
            if (exists(path)) return path;
            report(beat.take_pos, "take " + path + " does not exist");
            return std::nullopt;
        }
        if (chapter.narration.takes.empty()) {
            report(beat.pos,
                   "narration: recorded needs `takes: DIR`, or `take: FILE` on this beat");
            return std::nullopt;
        }
        const std::string stem =
            (base_ / chapter.narration.takes / (chapter.id + "-" + std::to_string(n))).string();
        std::vector<std::string> found;
        for (const std::string& ext : kTakeExtensions) {
            if (exists(stem + "." + ext)) found.push_back(stem + "." + ext);
        }
        if (found.size() == 1) return found.front();
        if (found.empty()) {
            report(beat.pos, "no take for this line: expected " + stem +
                                 ".wav (or .flac, .mp3, .opus, .ogg or .m4a)");
        } else {
            report(beat.pos, "two takes for this line: " + found[0] + " and " + found[1] +
                                 " (keep one, or name it with `take:`)");
        }
        return std::nullopt;
    }

    // Speaks the misses in a child process, the speaker, which stores them in the cache and
    // reports its errors back; this process then reads them from the cache like hits. So the
    // process that goes on to render never maps the engines: Festival's interpreter, lexicon
    // and voice would stay resident in it to the end (37 MB for the default film).
    void speak_in_speaker() {
        std::string reply;
        run_children(
            1, 1, [&](std::size_t) { return speak_here(); },
            [] { return !process_token().cancelled(); },
            [&](std::size_t, const std::string& r) {
                reply = r;
                return true;
            });
        process_token().check();
        if (reply.empty() || reply[0] != '\0')
            throw SystemError(reply.empty() ? "the speaker gave no reply" : reply.substr(1));
        const auto record = nlohmann::json::parse(reply.substr(1));
        for (const auto& e : record["errors"])
            report({e["line"].get<int>(), e["col"].get<int>()}, e["message"].get<std::string>());
        if (record.contains("failure")) throw SystemError(record["failure"].get<std::string>());
        for (Miss& m : misses_) {
            if (auto hit = cache_.lookup(m.key)) m.beat->speech = std::move(*hit);
        }
    }

    // The speaker's work and its reply: "\0" and {"errors": [{line, col, message}], "failure"}.
    std::string speak_here() {
        nlohmann::json record;
        try {
            speak_misses();
        } catch (const Interrupted&) {
            return failure_reply("interrupted");
        } catch (const std::exception& e) {
            record["failure"] = e.what();
        }
        record["errors"] = nlohmann::json::array();
        for (const story::Diagnostic& d : diags_.list())
            record["errors"].push_back(
                {{"line", d.pos.line}, {"col", d.pos.col}, {"message", d.message}});
        return '\0' + record.dump();
    }

    // Loads the module (the first miss of the process does), checks every voice, then speaks
    // each line once (beats saying the same line with the same voice share it), `workers_` at
    // once, and stores it. After an error nothing is stored; only the takes are still decoded,
    // to report them all.
    void speak_misses() {
        voice::Synthesizer& synthesizer = voice_synthesizer();
        std::vector<std::vector<Miss*>> lines;  // in file order, each with the beats saying it
        std::map<std::string, std::size_t> line_of;
        for (Miss& m : misses_) {
            if (!known_voice(synthesizer, m)) continue;
            const auto [at, fresh] = line_of.try_emplace(m.key.key, lines.size());
            if (fresh) lines.emplace_back();
            lines[at->second].push_back(&m);
        }
        const bool store = diags_.empty();
        std::vector<std::vector<Miss*>> asked;
        std::vector<voice::LineRequest> requests;
        for (std::vector<Miss*>& line : lines) {
            if (!store && line.front()->request.engine != VoiceEngine::recorded) continue;
            requests.push_back(line.front()->request);
            asked.push_back(std::move(line));
        }
        Receiver receiver(*this, asked, store);
        synthesizer.speak_all(requests, workers_, receiver);
        process_token().check();
        if (receiver.failure) throw SystemError(*receiver.failure);
    }

    // Stores each line as it comes; the first engine failure stops the rest.
    struct Receiver final : voice::LineReceiver {
        Receiver(SpeechFiller& filler, const std::vector<std::vector<Miss*>>& lines, bool store)
            : filler(filler), lines(lines), store(store) {}
        bool keep_going() override { return !process_token().cancelled(); }
        bool take(std::size_t i, const voice::Outcome& outcome, voice::Line& line) override {
            const Miss& first = *lines[i].front();
            failure = filler.check(outcome, first);
            if (failure) return false;
            if (!store || outcome.kind != voice::Outcome::Kind::ok) return true;
            const story::Speech speech = filler.cache_.store(first.key, line);
            for (Miss* m : lines[i]) m->beat->speech = speech;
            return true;
        }
        SpeechFiller& filler;
        const std::vector<std::vector<Miss*>>& lines;
        bool store;
        std::optional<std::string> failure;
    };

    // A take that is no sound is the storyboard's error; an engine's failure is the system's,
    // returned as its message.
    std::optional<std::string> check(const voice::Outcome& outcome, const Miss& m) {
        if (outcome.kind == voice::Outcome::Kind::bad_take)
            report(m.take_pos, "take is not audio: " + outcome.message);
        if (outcome.kind != voice::Outcome::Kind::failed) return std::nullopt;
        return std::string(voice::engine_name(m.request.engine)) + " could not speak the line of " +
               file_ + ":" + std::to_string(m.beat->pos.line) + ": " + outcome.message;
    }

    bool known_voice(voice::Synthesizer& synthesizer, const Miss& m) {
        const VoiceEngine engine = m.request.engine;
        if (engine == VoiceEngine::recorded) return true;
        const std::string what = std::string(voice::engine_name(engine)) + " voice";
        auto [names, fresh] = voices_.try_emplace(engine);
        if (fresh) {
            const voice::Outcome outcome = synthesizer.voices(engine, names->second);
            if (outcome.kind != voice::Outcome::Kind::ok)
                throw SystemError(what + "s are not available: " + outcome.message);
        }
        const std::vector<std::string>& voices = names->second;
        if (std::binary_search(voices.begin(), voices.end(), m.request.voice)) return true;
        std::string message = story::unknown_name(what, m.request.voice, voices);
        if (message.find("did you mean") != std::string::npos)
            message += "; voices: " + join(voices);
        report(m.voice_pos, message + " (`shardreel voices` lists them)");
        return false;
    }

    // A chapter inheriting the film's voice reports its problem at the film's `narration:` once.
    void report(story::SourcePos pos, const std::string& message) {
        if (reported_.insert({pos.line, pos.col, message}).second)
            diags_.error(file_, pos, message);
    }

    std::string file_;
    fs::path base_;
    SpeechCache cache_;
    int workers_;
    story::Diagnostics diags_;
    std::set<std::tuple<int, int, std::string>> reported_;
    std::vector<Miss> misses_;
    std::map<VoiceEngine, std::vector<std::string>> voices_;
    std::map<std::string, std::string> htsvoice_digests_;  // by voice name
};

}  // namespace

bool fill_speech(story::Storyboard& board, const std::string& cache_dir, story::Diagnostics& diags,
                 int workers) {
    return SpeechFiller(board, cache_dir, workers).run(board, diags);
}

bool fill_speech(story::Storyboard& board, const std::string& cache_dir, std::ostream& err,
                 int workers) {
    story::Diagnostics diags;
    const bool ok = fill_speech(board, cache_dir, diags, workers);
    err << diags.format();
    return ok;
}

std::optional<SpeechLine> speech_line(const story::Beat& beat, const std::string& cache_dir) {
    if (!beat.speech || beat.speech->key.empty()) return std::nullopt;
    return SpeechLine{beat.speech->key, SpeechCache(cache_dir).pcm_path(beat.speech->key),
                      beat.speech->seconds};
}

}  // namespace render
