// Bounds on what a storyboard or the command line may ask for, so that hostile or mistaken input
// fails with a clear error instead of exhausting memory, time or the stack.
#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/problem.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/units.hpp"

namespace story::limits {

inline constexpr int kMinSide = 16;
inline constexpr int kMaxWidth = 7680, kMaxHeight = 4320;  // 8K UHD
inline constexpr int kMaxFps = 120;
inline constexpr double kMaxFilmSeconds = 3600;  // a chapter, and the whole film
inline constexpr std::size_t kMaxStoryboardBytes = 1 << 20;
inline constexpr int kMaxNesting = 32;                        // YAML collections inside collections
inline constexpr long long kMaxYamlNodes = 100'000;           // after expanding aliases
inline constexpr long long kMaxGpus = 65536;                  // also gpus_per_node x nodes
inline constexpr double kMinParams = 1e6, kMaxParams = 1e15;  // a model's parameter count
inline constexpr long long kMaxExploreVariants = 64;  // combinations of a chapter's explore:

// A whole number's inclusive range, and what it counts (the schema's description).
struct Bound {
    std::string_view key;
    long long lo, hi;
    std::string_view what;
};

// Every whole number a storyboard gives, by key: video.fps, the flat settings (settings.hpp)
// and the fields of a model map. The loader, the settings, the JSON Schema
// (story/load/schema.hpp) and README's limits all read this one table.
inline constexpr Bound kWholeNumbers[] = {
    {"fps", 1, kMaxFps, "Frames per second"},
    {"seq_len", 1, 1 << 20, "Sequence length in tokens"},
    {"micro_batch", 1, 65536, "Sequences per micro-batch"},
    {"micro_batches", 1, 4096, "Micro-batches per step (pipeline)"},
    {"chunks", 1, 64, "Virtual pipeline stages per GPU (interleaved)"},
    {"gpus", 1, kMaxGpus, "GPUs in the job (default gpus_per_node x nodes)"},
    {"tp", 1, kMaxGpus, "Tensor parallel degree"},
    {"pp", 1, kMaxGpus, "Pipeline parallel degree"},
    {"zero", 0, 3, "ZeRO stage"},
    {"shard_group", 0, kMaxGpus,
     "ZeRO-3 hybrid sharding: replicas per sharding group (0: all of them, plain ZeRO-3)"},
    {"cp", 1, kMaxGpus, "Context parallel degree: GPUs each sequence is split over"},
    {"ep", 1, 4096,
     "Expert parallel degree: ranks of the data-parallel group the experts split over"},
    {"gpus_per_node", 1, kMaxGpus, "GPUs per node"},
    {"nodes", 1, kMaxGpus, "Nodes"},
    {"layers", 1, 1000, "Transformer layers"},
    {"hidden", 1, 1 << 20, "Hidden size"},
    {"heads", 1, 1 << 14, "Attention heads"},
    {"kv_heads", 1, 1 << 14, "Key/value heads (GQA)"},
    {"ffn", 1, 1 << 22, "MLP inner size"},
    {"vocab", 1, 1 << 24, "Vocabulary size"},
    {"experts", 1, 4096, "MLP experts per layer (mixture of experts; absent: a dense model)"},
    {"top_k", 1, 4096, "Experts each token goes through (with experts)"},
    {"shared_experts", 0, 64, "Experts every token goes through besides its top_k (DeepSeek)"},
    {"dense_layers", 0, 1000, "Leading layers with a dense MLP instead of experts"},
    {"dense_ffn", 1, 1 << 22, "MLP inner size of the leading dense layers (default: ffn)"},
    {"wpm", 80, 450, "Speaking rate in words per minute (default: the voice's own)"},
};

// The table's entry for `key`, or nullptr.
constexpr const Bound* find_whole_number(std::string_view key) {
    for (const Bound& b : kWholeNumbers)
        if (b.key == key) return &b;
    return nullptr;
}
// The same where the key is written in the code: a key missing from the table does not compile.
consteval Bound whole_number(std::string_view key) { return *find_whole_number(key); }

// A keyword's names: the canonical ones, which messages and editors offer, then short forms.
struct Choice {
    std::string_view key;
    std::span<const std::string_view> names, aliases;
    std::string_view what;
    std::vector<std::string> listed() const { return {names.begin(), names.end()}; }
};

inline constexpr std::string_view kThemes[] = {"dark", "light"};
inline constexpr std::string_view kCaptionModes[] = {"burn", "track", "off"};
inline constexpr std::string_view kPrecisions[] = {"fp32", "bf16-mixed", "fp8-mixed"};
inline constexpr std::string_view kPrecisionAliases[] = {"bf16", "fp8"};
inline constexpr std::string_view kGradDtypes[] = {"bf16", "fp32"};
inline constexpr std::string_view kGradAccumDtypes[] = {"same", "fp32"};
inline constexpr std::string_view kGradReduces[] = {"overlapped", "after-backward"};
inline constexpr std::string_view kCrossEntropies[] = {"fp32", "fused"};
inline constexpr std::string_view kStageSplits[] = {"layers", "compute"};
inline constexpr std::string_view kRecomputes[] = {"none", "selective", "full"};
inline constexpr std::string_view kSchedules[] = {"gpipe", "1f1b",  "interleaved",
                                                  "zb-h1", "zb-h2", "dualpipe"};
inline constexpr std::string_view kOptimizers[] = {"adam", "adam-8bit", "sgd-momentum",
                                                   "lion", "adafactor", "muon"};
inline constexpr std::string_view kFits[] = {"tail", "stretch"};
inline constexpr std::string_view kOverlaps[] = {"none", "dp", "all"};
inline constexpr std::string_view kCpModes[] = {"allgather", "ring"};
inline constexpr std::string_view kCpSplits[] = {"balanced", "naive"};
inline constexpr std::string_view kOffloads[] = {"none", "optimizer", "optimizer+params"};
inline constexpr std::string_view kArchs[] = {"llama", "gpt"};

// Every keyword a storyboard gives, by key (video's theme and captions, and the settings).
inline constexpr Choice kChoices[] = {
    {"theme", kThemes, {}, "Colour theme."},
    {"captions",
     kCaptionModes,
     {},
     "burn: drawn and embedded; track: embedded only; off: neither."},
    {"precision", kPrecisions, kPrecisionAliases,
     "Mixed precision recipe (bf16 and fp8 are short for the -mixed ones)."},
    {"grad_dtype", kGradDtypes, {}, "Gradient accumulation dtype."},
    {"grad_accum_dtype",
     kGradAccumDtypes,
     {},
     "Where gradients accumulate across micro-batches: in themselves (same, the default), or in a "
     "separate fp32 buffer beside bf16 gradients (fp32: nanotron's accumulate_grad_in_fp32). Only "
     "the expected peak counts the buffer."},
    {"grad_reduce",
     kGradReduces,
     {},
     "When the predicted step reduces the gradients over the data-parallel group: bucket by "
     "bucket during the last backward (overlapped, the default: PyTorch DDP, Megatron-Core's "
     "overlap_grad_reduce), or as one all-reduce of the whole buffer after it (after-backward: "
     "nanotron's ZeRO-1, Megatron-LM's default). Only the predicted step uses it."},
    {"cross_entropy",
     kCrossEntropies,
     {},
     "How the loss reads the logits: from an fp32 copy whose softmax becomes their fp32 gradient "
     "(fp32, the default: PyTorch's cross_entropy, nanotron's and Megatron-LM's), or in one "
     "kernel on the 16-bit logits that writes their 16-bit gradient (fused: flash-attn's, "
     "llm-foundry's fused_crossentropy). Only the expected peak uses it."},
    {"pipeline_split",
     kStageSplits,
     {},
     "How the layers spread over pipeline stages: ceil(layers / pp) each, the embedding on the "
     "first and the output layer on the last (layers, Megatron-LM's, the default), or balanced by "
     "compute with the output layer weighing vocab x hidden (compute: nanotron's). Only the "
     "expected peak uses it."},
    {"recompute", kRecomputes, {}, "Activation recomputation."},
    {"schedule", kSchedules, {}, "Pipeline schedule."},
    {"overlap",
     kOverlaps,
     {},
     "Communication the step-time estimate hides behind compute: none, the data-parallel "
     "traffic, or all of it."},
    {"cp_mode",
     kCpModes,
     {},
     "How context parallelism exchanges keys and values: all-gathered before attention (Llama 3's "
     "way, the default) or passed around a ring (Megatron-Core's p2p)."},
    {"cp_split",
     kCpSplits,
     {},
     "Which of the sequence's 2 x cp chunks a context-parallel rank holds: one from each end "
     "(balanced, the default: equal causal attention work) or two neighbours (naive: the first "
     "rank idles while the last works). Only the context_parallel chapter draws it."},
    {"offload",
     kOffloads,
     {},
     "What ZeRO keeps in host memory: optimizer (ZeRO-Offload: the fp32 master, optimizer states "
     "and gradients; zero 1 or more) or optimizer+params (ZeRO-Infinity: the weights too; zero "
     "3)."},
    {"optimizer",
     kOptimizers,
     {},
     "Optimizer, for its state's bytes per parameter (Adam 8, 8-bit Adam 2, one momentum 4, "
     "Adafactor's factored moment 0), beside mixed precision's fp32 master copy."},
    {"arch",
     kArchs,
     {},
     "A custom model's blocks: llama (the default: SwiGLU MLP of three matrices, RMSNorm, rotary "
     "positions, no biases, no dropout) or gpt (GPT-2/3, MPT: a GELU MLP of two matrices, "
     "LayerNorm with biases, dropout masks kept for the backward unless dropout is off). A custom "
     "shape counts no learned position table (MPT's ALiBi has none; GPT-3's comes with its "
     "preset)."},
    {"fit",
     kFits,
     {},
     "tail: the kind's choreography at its own pace, then held to the chapter's end; stretch: "
     "slowed (or sped) to fill the chapter's duration."},
};

constexpr const Choice* find_choice(std::string_view key) {
    for (const Choice& c : kChoices)
        if (c.key == key) return &c;
    return nullptr;
}
consteval Choice choice(std::string_view key) { return *find_choice(key); }

// A real number's inclusive range and its unit: the narration's pauses and the music's level.
struct Range {
    std::string_view key;
    double lo, hi;
    std::string_view unit;  // "s" (a time, written as times are), "dB" or "" (a plain number)
    std::string_view what;
};

inline constexpr Range kRanges[] = {
    {"gap", 0, 10, "s", "Pause after the previous beat's speech before an `at: after` beat"},
    {"tail", 0.5, 10, "s", "How long a `duration: auto` chapter runs past its last speech"},
    {"music_level", -60, 0, "dB", "The music's level under the film, before ducking"},
    {"mfu", 0.01, 1, "",
     "Fraction of peak FLOPs the GPUs sustain on their work, overriding the step time the model "
     "predicts from the layout (unset: predicted)"},
    {"step_time", 0.001, 86400, "s", "A measured step time: MFU and HFU are reported from it"},
    {"capacity_factor", 0.1, 16, "",
     "Expert capacity over an even share of the tokens (mixture of experts; default 1)"},
};

constexpr const Range* find_range(std::string_view key) {
    for (const Range& r : kRanges)
        if (r.key == key) return &r;
    return nullptr;
}
consteval Range range(std::string_view key) { return *find_range(key); }

// `narration: ENGINE:VOICE` (or a bare `recorded`): the engines, in VoiceEngine's order after off.
inline constexpr std::string_view kVoiceEngines[] = {"espeak-ng", "festival", "open-jtalk",
                                                     "recorded"};
// Which of them name a voice after the colon (recorded takes its voice from the takes).
constexpr bool engine_names_voice(std::string_view engine) { return engine != "recorded"; }

// YAML 1.1's booleans (its spec's bool type): PyYAML, Ruby and older Go read these plain words as
// true or false, so a storyboard takes each of them as text wherever it means yes or no (and
// `captions: false` is off), and reads the same to YAML 1.1 and 1.2 tools.
inline constexpr std::string_view kTrueWords[] = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                                  "True", "TRUE", "on",  "On",  "ON"};
inline constexpr std::string_view kFalseWords[] = {"n",     "N",     "no",  "No",  "NO", "false",
                                                   "False", "FALSE", "off", "Off", "OFF"};

// "video size must be between 16x16 and 7680x4320, got 8000x4000", or the even-size rule.
std::optional<std::string> frame_size_error(FrameSize size, std::string_view text);

// "lasts 0.01s, less than one frame at 15 fps (0.0667s)": a chapter must hold at least one frame
// (durations round to the nearest frame).
std::optional<std::string> frame_length_error(double seconds, int fps);

// What is wrong with a chapter lasting `seconds` at `fps`: out of (0, kMaxFilmSeconds], or
// shorter than a frame.
std::optional<std::string> chapter_duration_error(double seconds, int fps);

// "the chapters add up to 3800s, more than the 3600s a film may last"
std::optional<std::string> film_length_error(double seconds);

// "'gap' must be between 0s and 10s, got 12s": value (in r's unit) outside r.
std::optional<std::string> range_error(const Range& r, double value);
std::optional<engine::Problem> range_problem(const Range& r, double value);  // its template

struct TextError {
    SourcePos pos;
    std::string message;
};
// Checked before the text reaches the YAML parser, whose recursion is bounded only by its own far
// deeper guard (with an opaque "bad file"): the size in bytes and the nesting of collections.
std::optional<TextError> storyboard_text_error(std::string_view text);

struct Nesting {
    int depth = 0;
    int line = 0;  // 1-based line where the depth was first reached
};
// How deeply collections nest in YAML text, estimated from above from indentation, "- " entries
// and brackets, skipping comments, quoted scalars and block scalars.
Nesting yaml_nesting(std::string_view text);

}  // namespace story::limits
