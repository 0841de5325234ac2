// Festival's C++ API: Scheme commands for the voice and the speed, the utterance's Token, Word,
// SylStructure and Segment relations for the bookmarks' times; see festival_voice.hpp.
#include "render/voice/module/festival_voice.hpp"

#include <festival/festival.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

// Where Festival's garbage collector starts scanning the C stack for live cells, and the depth
// it refuses to recurse past (libestools globals, set by its own read-eval-print loop).
extern LISP* stack_start_ptr;
extern LISP* stack_limit_ptr;
extern long stack_size;

namespace render::voice {

namespace {

// Anchors the collector's stack scan at this object, a local of the calling entry point, until
// it goes out of scope. Left where festival_initialize put it, a call from higher up the stack
// (another caller, a later test) keeps live cells in frames the scan does not reach, and they are
// freed under it. The previous anchor is put back on the way out, so that no global is left
// pointing into a finished frame (GCC 14's -Wdangling-pointer).
class StackAnchor {
  public:
    StackAnchor() : start_(stack_start_ptr), limit_(stack_limit_ptr) {
        stack_start_ptr = &base_;
        stack_limit_ptr = reinterpret_cast<LISP*>(reinterpret_cast<char*>(&base_) - stack_size);
    }
    ~StackAnchor() {
        stack_start_ptr = start_;
        stack_limit_ptr = limit_;
    }
    StackAnchor(const StackAnchor&) = delete;
    StackAnchor& operator=(const StackAnchor&) = delete;

  private:
    LISP base_ = NIL;
    LISP* start_;
    LISP* limit_;
};

// The text as a Scheme string literal.
std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

// festival_eval_command catches the interpreter's errors (a raw leval would longjmp out).
void eval(const std::string& command) {
    if (!festival_eval_command(command.c_str()))
        throw std::runtime_error("festival failed on " + command);
}

std::vector<std::string> list_voices() {
    eval("(set! shardreel_voices (voice.list))");
    std::vector<std::string> names;
    for (LISP l = siod_get_lval("shardreel_voices", nullptr); l != NIL; l = cdr(l))
        names.emplace_back(get_c_string(car(l)));
    std::sort(names.begin(), names.end());
    return names;
}

// When the token's first spoken word starts: the end of the segment before its first phone.
std::optional<double> token_start(EST_Item* token) {
    for (EST_Item* word = daughter1(token->as_relation("Token")); word; word = inext(word)) {
        EST_Item* in_syllables = word->as_relation("SylStructure");
        EST_Item* syllable = in_syllables ? daughter1(in_syllables) : nullptr;
        EST_Item* phone = syllable ? daughter1(syllable) : nullptr;
        if (!phone) continue;
        const EST_Item* before = iprev(phone->as_relation("Segment"));
        return before ? before->F("end") : 0.0;
    }
    return std::nullopt;
}

// Each mark's time: the start of the first token at or after its offset in text (tokens are
// found in the text in order by their names, which drop the punctuation around them).
std::vector<double> mark_times(EST_Utterance& utt, const std::string& text,
                               const std::vector<std::size_t>& marks) {
    std::vector<std::pair<std::size_t, double>> starts;  // (offset in text, seconds)
    std::size_t cursor = 0;
    for (EST_Item* token = utt.relation("Token")->head(); token; token = inext(token)) {
        const std::string name = token->name().str();
        const std::size_t at = name.empty() ? std::string::npos : text.find(name, cursor);
        if (at == std::string::npos) continue;
        cursor = at + name.size();
        if (const auto start = token_start(token)) starts.emplace_back(at, *start);
    }
    std::vector<double> times;
    for (std::size_t offset : marks) {
        const auto found = std::find_if(starts.begin(), starts.end(),
                                        [&](const auto& s) { return s.first >= offset; });
        times.push_back(found == starts.end() ? std::numeric_limits<double>::quiet_NaN()
                                              : found->second);
    }
    return times;
}

// Cells of Festival's Lisp heap. The default 210,000 runs out as soon as a word is not in the
// lexicon and the letter-to-sound rules load (450,000 too). With the voice loaded and warmed up
// about 460,000 are in use, and speaking one of the default film's lines takes up to 1.05
// million more: at 2,000,000 no line's child collects garbage at all. At 1,000,000 each one did,
// a mark and sweep of the whole heap that copied every page it wrote from the speaker: the film's
// 67 lines took 14.3 s and 27.4 s of CPU, against 12.9 s and 24.5 s. The heap is resident, about
// 32 bytes a cell (the speaker peaks at 110 MB, 78 MB with 1,000,000), in the speaker process
// only, never in the one that renders.
constexpr int kHeapCells = 2000000;

}  // namespace

Festival::Festival() {
    festival_initialize(/*load_init_files=*/1, kHeapCells);
    const StackAnchor anchor;
    voices_ = list_voices();
}

void Festival::select(const std::string& voice) {
    const StackAnchor anchor;
    if (voice == voice_) return;
    eval("(voice_" + voice + ")");
    eval("(set! shardreel_hts_params hts_engine_params)");  // the voice's own, before "-r"
    // What Festival loads on first use (the voice's models, the letter-to-sound rules for words
    // not in the lexicon) is loaded here, once, not again in every line's child.
    eval("(utt.synth (Utterance Text \"Warming up: 1,120 GB at 70% for shardreel.\"))");
    voice_ = voice;
}

RawSpeech Festival::speak(int wpm, const std::string& text, const std::vector<std::size_t>& marks) {
    const StackAnchor anchor;
    // HTS voices ignore Duration_Stretch: their engine's "-r" sets their pace.
    const double speed = speed_ratio(wpm);
    eval("(set! hts_engine_params (append shardreel_hts_params (list (list \"-r\" " +
         std::to_string(speed) + "))))");
    eval("(Parameter.set 'Duration_Stretch " + std::to_string(1 / speed) + ")");
    eval("(set! shardreel_utt (utt.synth (Utterance Text " + quoted(text) + ")))");
    EST_Utterance* utt = utterance(siod_get_lval("shardreel_utt", nullptr));
    EST_Wave* wave_out = wave(utt->relation("Wave")->head()->f("wave"));
    RawSpeech out;
    out.rate = wave_out->sample_rate();
    out.pcm.resize(static_cast<std::size_t>(wave_out->num_samples()));
    for (int i = 0; i < wave_out->num_samples(); ++i)
        out.pcm[static_cast<std::size_t>(i)] = static_cast<float>(wave_out->a(i, 0)) / 32768;
    out.marks = mark_times(*utt, text, marks);
    return out;
}

}  // namespace render::voice
