// The templates of validate()'s problems, in one list (see problem.hpp).
#include "engine/problem.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "engine/placeholders.hpp"

namespace engine {
namespace {

constexpr std::array kFormats = {
    N_("{name} = {value} must be at least 1"),
    N_("{what} = {value} is not divisible by {by} = {divisor} (try {fix}={fit})"),
    N_("zero = {zero} is not a ZeRO stage (use 0, 1, 2 or 3)"),
    N_("tp x pp = {product} does not divide {gpus} GPUs (try tp={tp}, pp={pp})"),
    N_("tp x pp x cp = {product} does not divide {gpus} GPUs (try cp={cp})"),
    N_("cp = {cp} does not divide the sequence of {seq_len} tokens (try cp={fit})"),
    N_("params must be positive (got {params})"),
    N_("top_k must be between 1 and the {experts} experts (got {top_k}; the experts each token "
       "goes through: Mixtral uses 2 of 8)"),
    N_("shared_experts and dense_layers describe a mixture of experts: give experts too "
       "(DeepSeek-V3: 256 experts, 1 shared, 3 dense layers)"),
    N_("dense_layers = {dense_layers} leaves no layer with experts of the {layers} (use "
       "dense_layers < layers)"),
    N_("layers = {layers} is fewer than pp = {pp} pipeline stages (use pp <= {layers})"),
    N_("the interleaved schedule needs layers divisible by pp x chunks: {layers} layers, pp x "
       "chunks = {product} (try chunks={chunks})"),
    N_("the interleaved schedule needs layers divisible by pp x chunks: {layers} layers, pp x "
       "chunks = {product} (pick pp dividing the layers)"),
    N_("the interleaved schedule needs micro_batches a multiple of pp: {micro_batches} "
       "micro-batches, pp = {pp} (try micro_batches={fit})"),
    N_("the dualpipe schedule needs an even pp (stage s shares a GPU with stage pp-1-s): pp = "
       "{pp} (try pp={fit})"),
    N_("the dualpipe schedule needs micro_batches even and at least 2 x pp: {micro_batches} "
       "micro-batches, pp = {pp} (try micro_batches={fit})"),
    N_("ep = {ep} splits the experts, but the model has none (use ep=1, or a mixture of experts "
       "such as mixtral-8x7b)"),
    N_("ep = {ep} splits the experts, but {model} has none (use ep=1, or a mixture of experts "
       "such as mixtral-8x7b)"),
    N_("ep = {ep} does not divide the {experts} experts (try ep={fit})"),
    N_("ep = {ep} does not divide the data-parallel degree {dp}: expert parallelism splits the "
       "data-parallel ranks (try ep={fit})"),
    N_("shard_group = {shard_group} must be at least 1 (0: plain ZeRO-3)"),
    N_("shard_group = {shard_group} shards ZeRO-3's parameters, gradients and optimizer states, "
       "but zero = {zero} (use zero=3, or drop shard_group)"),
    N_("shard_group = {shard_group} with ep = {ep} is not modelled (use one of them)"),
    N_("shard_group = {shard_group} does not divide the {replicas} data-parallel ranks (dp x cp) "
       "that hold the same weights (try shard_group={fit})"),
    N_("offload = {offload} moves ZeRO's optimizer partition to the host, but zero = 0 (use "
       "zero=1 or higher)"),
    N_("offload = {offload} needs ZeRO-3's parameter partitions (ZeRO-Infinity), but zero = "
       "{zero} (use zero=3, or offload=optimizer)"),
    N_("offload = {offload} steps the optimizer on the host's CPUs, where DeepSpeed has Adam and "
       "Lion only; optimizer = {optimizer} has no CPU step (use optimizer=adam or lion, or "
       "offload=none)"),
    N_("offload = {offload} needs the GPU's PCIe bandwidth, and {gpu} has none given"),
    N_("mfu must be a fraction of peak above 0 and at most 1, or 0 to predict it (got {mfu})"),
    N_("step_time must not be negative"),
    N_("capacity_factor must be positive (got {capacity_factor}; 1 sends each expert its even "
       "share of the tokens)"),
    N_("nvlink bandwidth must be positive (got {value} B/s)"),
    N_("network bandwidth must be positive (got {value} B/s)"),
    N_("gpu memory must be positive (got {value} B)"),
    N_("gpu bf16 throughput must be positive (got {value} TFLOPS)"),
    N_("pipeline_split = compute leaves the last of pp = {pp} stages without a block: the loss "
       "lands before it, and the labels are sent to a stage without the loss (use pp={fit}, or "
       "pipeline_split = layers)"),
    N_("a global batch of {sequences} sequences does not split into micro-batches of dp x "
       "micro_batch = {dp} x {micro_batch} sequences (try {fit})"),
};
static_assert(kFormats.size() == std::size_t(Msg::count), "one template per Msg");

}  // namespace

std::span<const char* const> problem_formats() { return kFormats; }

const char* problem_format(Msg m) { return kFormats[std::size_t(m)]; }

std::string english(const Problem& p) {
    return fill_placeholders(p.format, [&](std::string_view name) -> std::optional<std::string> {
        const auto arg = std::ranges::find(p.args, name, &ProblemArg::name);
        if (arg == p.args.end()) return std::nullopt;
        return arg->text;
    });
}

std::optional<std::string> english(const std::optional<Problem>& p) {
    if (!p) return std::nullopt;
    return english(*p);
}

}  // namespace engine
