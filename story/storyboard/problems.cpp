// The templates of a flag's or a setting's refusal, in one list (see problems.hpp).
#include "story/storyboard/problems.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace story {
namespace {

using engine::N_;

constexpr std::array kFormats = {
    N_("expected a number for '{name}', got '{value}'"),
    N_("expected a whole number for '{name}', got '{value}'"),
    N_("'{name}' must be between {lo} and {hi}, got {value}"),
    N_("'{name}' must be between {lo}s and {hi}s, got {value}s"),
    N_("'{name}' must be between {lo}dB and {hi}dB, got {value}dB"),
    N_("cannot parse '{value}' as a size (expected e.g. 80GB or 80GiB)"),
    N_("cannot parse '{value}' as a bandwidth (expected e.g. 900GB/s or 400Gb/s)"),
    N_("cannot parse '{value}' as a time (expected e.g. 1.5s, 500ms or 45f)"),
    N_("cannot parse '{value}' as a count (expected e.g. 7B, 70e9 or 1.5M)"),
    N_("cannot parse '{value}' as a level (expected e.g. -20dB or -20)"),
    N_("unknown {what} '{value}' (did you mean '{hint}'?)"),
    N_("unknown {what} '{value}' (expected {options} or {last})"),
    N_("unknown {what} '{value}' (expected {options})"),
    N_("unknown model '{value}' (expected {options} or a parameter count such as 7B)"),
    N_("expected true or false for '{name}', got '{value}'"),
    N_("bandwidth must be positive, got '{value}'"),
    N_("expected seconds for '{name}' (e.g. 12.5s, 800ms or 12.5), got '{value}'"),
    N_("model size must be between 1M and 1000T parameters, got '{value}'"),
    N_("model size must be between 1M and 1000T parameters, got {count} from its shape"),
    N_("gpus_per_node x nodes = {product} exceeds {max} GPUs"),
    N_("{flag} describes a custom model: give {params} too"),
    N_("{flag} and {other} both given: use one"),
    N_("{flag} and {other} both given: the global batch sets the micro-batches (global batch / "
       "(dp x micro-batch))"),
    N_("expected a number of sequences (2048) or of tokens (16M tokens), got '{value}'"),
    N_("{tokens} tokens is not a whole number of {seq_len}-token sequences (try {fit} tokens)"),
    N_("expected a count of tokens such as 15T, 300B or 2e12, got '{value}'"),
    N_("expected at least 1, got {top}"),
    N_("no layout of {model} fits {gpus} x {gpu}"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       "; {fit} GPUs would (--gpus {fit_flag})"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"
       "; {fit} GPUs would (--gpus {fit_flag})"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"
       "; a GPU with more memory would hold it (--gpu {bigger})"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"
       "; a GPU with more memory would hold it (--gpu {bigger})"
       "; {fit} GPUs would (--gpus {fit_flag})"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"
       " and {host} of host memory of {host_capacity}"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"
       " and {host} of host memory of {host_capacity}"
       "; {fit} GPUs would (--gpus {fit_flag})"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"
       " and {host} of host memory of {host_capacity}"
       "; a GPU with more memory would hold it (--gpu {bigger})"),
    N_("no layout of {model} fits {gpus} x {gpu}"
       ": the nearest ({layout}) needs {need} per GPU of {capacity}"
       " and {host} of host memory of {host_capacity}"
       "; a GPU with more memory would hold it (--gpu {bigger})"
       "; {fit} GPUs would (--gpus {fit_flag})"),
    N_("{shape}, {zero}, {recompute} recompute"),
    N_("{zero} in groups of {n}"),
    N_("{zero}, offload {mode}"),
};
static_assert(kFormats.size() == std::size_t(Refusal::count), "one template per Refusal");

}  // namespace

std::span<const char* const> refusal_formats() { return kFormats; }

engine::Problem refusal(Refusal r, std::vector<engine::ProblemArg> args) {
    return {kFormats[std::size_t(r)], std::move(args)};
}

engine::ProblemArg name_arg(std::string name, std::string text) {
    return {std::move(name), std::move(text), false};
}

engine::ProblemArg number_arg(std::string name, std::string text) {
    return {std::move(name), std::move(text), true};
}

engine::ProblemArg part_arg(std::string name, engine::Problem p) {
    std::string text = engine::english(p);
    return {std::move(name), std::move(text), false, {std::move(p)}};
}

engine::Problem about_flag(std::string flag, engine::Problem p) {
    p.args.push_back(name_arg("flag", std::move(flag)));
    return p;
}

std::string problem_line(const engine::Problem& p) {
    const auto flag = std::ranges::find(p.args, "flag", &engine::ProblemArg::name);
    if (flag == p.args.end() || std::string_view(p.format).find("{flag}") != std::string::npos)
        return engine::english(p);
    return flag->text + ": " + engine::english(p);
}

}  // namespace story
