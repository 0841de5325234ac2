// `shardreel numbers`: the cost model's figures for one model and cluster as a Markdown table,
// CSV or JSON, so an article can quote exactly what the film shows.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/report.hpp"
#include "render/cli/commands.hpp"
#include "render/cli/config_flags.hpp"
#include "render/inputs/numbers_json.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/settings.hpp"
#include "story/storyboard/units.hpp"
#include "story/text/format.hpp"
#include "story/time/film_time.hpp"
#include "story/time/moment.hpp"
#include "story/uses/explore.hpp"

namespace render {
namespace {

using Json = nlohmann::ordered_json;
using Errors = std::vector<std::string>;

struct Flags {
    std::string storyboard, at, format = "md";
    std::string tokens;  // --tokens: a whole run's length, for its days and GPU-hours
    ConfigFlags config;
};

// Every problem with the flags, then (when they all parse) every problem with the setup.
Errors build_config(const Flags& f, engine::Config& c) {
    Errors errors;
    if (f.format != "md" && f.format != "csv" && f.format != "json") {
        errors.push_back("--format: expected md, csv or json, got '" + f.format + "'");
    }
    if (!f.tokens.empty())
        if (auto e = tokens_problem(f.tokens)) errors.push_back(story::problem_line(*e));
    for (std::string& e : apply_config_flags(f.config, c)) errors.push_back(std::move(e));
    if (errors.empty()) errors = engine::validate(c);
    return errors;
}

// Bytes print as whole numbers (rounded down, as ZeRO's table does).
// key,value rows with the JSON's dotted keys.
void write_csv(std::ostream& out, const Json& j, const std::string& prefix = "") {
    for (const auto& [key, value] : j.items()) {
        if (value.is_object()) {
            write_csv(out, value, prefix + key + ".");
        } else {
            out << prefix << key << "," << value.dump() << "\n";
        }
    }
}

// FLOPs in scientific notation, three significant figures: "4.44e11".
std::string flops_text(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    std::string out = text;
    if (auto e = out.find("e+"); e != std::string::npos) out.erase(e + 1, 1);
    if (auto e = out.find('e'); e != std::string::npos && out[e + 1] == '0') out.erase(e + 1, 1);
    return out;
}

std::string comm_cell(engine::Bytes bytes, engine::Seconds time) {
    return story::format_bytes(bytes.value) + " in " + story::format_time(time.value);
}

// "16 GPUs = dp 4 x tp 2 x pp 1 x cp 2, ZeRO-1, ep 2 (inside dp)": cp, ep and a shard group only
// when used.
std::string layout_text(const engine::Parallel& p) {
    std::string text = story::format_int(p.gpus) + " GPUs = dp " + std::to_string(p.dp()) +
                       " x tp " + std::to_string(p.tp) + " x pp " + std::to_string(p.pp);
    if (p.cp > 1) text += " x cp " + std::to_string(p.cp);
    text += ", ZeRO-" + std::to_string(p.zero);
    if (p.shard_group > 0) text += " sharded in groups of " + std::to_string(p.shard_group);
    if (p.ep > 1) text += ", ep " + std::to_string(p.ep) + " (inside dp)";
    return text;
}

using Rows = std::vector<std::pair<std::string, std::string>>;

// The first-order figure the films teach: model states and activations.
Rows on_paper_rows(const engine::PerGpu& g) {
    return {{"per GPU on paper: weights", story::format_bytes(g.weights.value)},
            {"per GPU on paper: gradients", story::format_bytes(g.gradients.value)},
            {"per GPU on paper: optimizer", story::format_bytes(g.optimizer.value)},
            {"per GPU on paper: activations", story::format_bytes(g.activations.value)},
            {"per GPU on paper: total", story::format_bytes(g.total.value)}};
}

// "12.3 GB", or "12.3 GB (first stage) / 4.1 GB (last stage)" when the stages' figures differ.
template <class Term>
std::string stages_cell(const engine::ExpectedPeak& e, Term of) {
    const double first = of(e.first.terms).value, last = of(e.last.terms).value;
    if (first == last) return story::format_bytes(first);
    return story::format_bytes(first) + " (first stage) / " + story::format_bytes(last) +
           " (last stage)";
}

// The expected peak (engine/peak.hpp), term by term, and whether it fits.
Rows expected_rows(const engine::PerGpu& g, engine::CrossEntropy loss) {
    using T = engine::PeakTerms;
    const engine::ExpectedPeak& e = g.expected;
    static constexpr std::pair<const char*, engine::Bytes T::*> kTerms[] = {
        {"weights", &T::weights},
        {"gradients", &T::gradients},
        {"fp32 gradient accumulation", &T::grad_accum},
        {"optimizer", &T::optimizer},
        {"data-parallel buckets", &T::dp_buckets},
        {"gathered weights (ZeRO-1 step, ZeRO-3 layers)", &T::param_gather},
        {"tensor-parallel gather buffer", &T::tp_gather},
        {"activations", &T::activations},
        {"logits and loss", &T::logits},
        {"allocator reserve", &T::reserve},
        {"CUDA context and NCCL", &T::context}};
    Rows rows;
    for (const auto& [name, term] : kTerms)
        rows.emplace_back(
            std::string("expected peak: ") + name +
                (term == &T::logits && loss == engine::CrossEntropy::fused ? " (fused)" : ""),
            stages_cell(e, [member = term](const T& t) { return t.*member; }));
    rows.emplace_back("expected peak: PyTorch's allocator (max_memory_reserved)",
                      stages_cell(e, [](const T& t) { return t.allocator(); }));
    rows.emplace_back("expected peak per GPU", story::format_bytes(e.total.value) + " of " +
                                                   story::format_bytes(g.capacity.value) +
                                                   (g.fits ? " (fits)" : " (does not fit)"));
    return rows;
}

// Where the step time comes from: a measured step, an assumed MFU, or the step model.
std::string step_time_name(const engine::Report& r) {
    if (r.step.source == engine::StepSource::measured) return "step time (measured)";
    if (r.step.source == engine::StepSource::given_mfu) return "step time (at the given MFU)";
    return std::string("step time (predicted, ") + kPredictedStepSource + ")";
}

// The blocks a model counts where they are not Llama's, and dropout where it is not the blocks'
// own (engine::dropout_of): ", gpt blocks without dropout".
std::string blocks_text(const engine::ModelSpec& m) {
    const std::string dropout = m.dropout == engine::dropout_of(m.arch)
                                    ? ""
                                    : (m.dropout ? " with dropout" : " without dropout");
    if (m.arch == engine::Arch::llama && dropout.empty()) return "";
    return ", " + std::string(engine::to_string(m.arch)) + " blocks" + dropout;
}

void write_markdown(std::ostream& out, const engine::Config& c, const engine::Report& r) {
    const engine::BytesPerParam& b = r.bytes_per_param;
    const engine::PerGpu& g = r.per_gpu;
    const std::string capacity = story::format_bytes(g.capacity.value);
    Rows rows = {
        {"model",
         c.model.name + " (" + story::format_params(r.params) + " parameters" +
             (c.model.experts ? ", " + story::format_params(r.params_active) + " active per token"
                              : "") +
             blocks_text(c.model) + ")"},
        {"bytes per parameter",
         story::format_sig3(b.weights) + " + " + story::format_sig3(b.gradients) + " + " +
             story::format_sig3(b.optimizer) + " = " + story::format_bytes_per_param(b.total()) +
             " (weights + gradients + optimizer)"},
        {"model states", story::format_bytes(r.model_states.value)},
        {"GPUs to hold the model states",
         story::format_int(r.gpus_to_hold_model_states) + " x " + capacity},
        {"layout", layout_text(r.layout)},
        {"per GPU: host memory (offload)",
         story::format_bytes(g.host.value) + " of " + story::format_bytes(g.host_capacity.value)},
        {"activations per layer (one micro-batch)",
         story::format_bytes(r.activations.per_layer.value)},
        {"layers per GPU", std::to_string(r.activations.layers_per_gpu)},
        {"micro-batches in flight", story::format_sig3(r.activations.in_flight_micro_batches)},
        {"comm per step on paper: data parallel", comm_cell(r.comm.dp_per_gpu, r.comm.dp_time)},
        {"comm per step on paper: tensor parallel", comm_cell(r.comm.tp_per_gpu, r.comm.tp_time)},
        {"comm per step on paper: pipeline", comm_cell(r.comm.pp_per_gpu, r.comm.pp_time)},
        {"comm per step on paper: data parallel inside / across shard groups",
         comm_cell(r.comm.dp_intra_per_gpu, r.comm.dp_intra_time) + " / " +
             comm_cell(r.comm.dp_inter_per_gpu, r.comm.dp_inter_time)},
        {"comm per step on paper: expert parallel", comm_cell(r.comm.ep_per_gpu, r.comm.ep_time)},
        {"comm per step on paper: context parallel", comm_cell(r.comm.cp_per_gpu, r.comm.cp_time)},
        {"comm time per step on paper (bytes over each link's bandwidth)",
         story::format_time(r.comm.total().value)},
        {"offload over PCIe per step (" + std::string(engine::to_string(c.layout.offload)) + ")",
         story::format_bytes(r.offload.bytes().value) + " in " +
             story::format_time(r.offload.seconds.value)},
        {"pipeline bubble", story::format_percent(r.bubble_fraction)},
        {"FLOPs per token (model)", flops_text(r.flops.per_token)},
        {"FLOPs per step: model / executed / as HFU counts them",
         flops_text(r.flops.model_per_step) + " / " + flops_text(r.flops.executed_per_step) +
             " / " + flops_text(r.flops.hardware_per_step) + " (" +
             flops_text(r.flops.tokens_per_step) + " tokens)"},
        {step_time_name(r),
         story::format_time(r.step.seconds) +
             (r.step.measured()
                  ? ""
                  : " = compute " + story::format_time(r.step.compute_seconds) +
                        " + exposed comm " + story::format_time(r.step.exposed_comm_seconds))},
        {"MFU / HFU",
         story::format_percent(r.step.mfu) + " / " + story::format_percent(r.step.hfu)},
        {"tokens per second per GPU", story::format_sig3(r.step.tokens_per_second_per_gpu)},
    };
    const auto at = rows.begin() + 5;  // after the layout
    const Rows paper = on_paper_rows(g), expected = expected_rows(g, c.training.cross_entropy);
    rows.insert(rows.insert(at, paper.begin(), paper.end()) + long(paper.size()), expected.begin(),
                expected.end());
    out << "| quantity | value |\n|---|---|\n";
    for (const auto& [name, value] : rows) out << "| " << name << " | " << value << " |\n";
}

// The run's totals as rows below the table (numbers --tokens).
void write_run_rows(std::ostream& out, const engine::RunTotals& run) {
    const std::string of = " (" + story::format_params(run.tokens) + " tokens)";
    out << "| run" << of << ": steps | " << story::format_int(std::llround(run.steps)) << " |\n"
        << "| run" << of << ": days | " << story::format_sig3(run.days) << " |\n"
        << "| run" << of << ": GPU-hours | " << story::format_sig3(run.gpu_hours) << " |\n";
}

int run(const Flags& f) {
    engine::Config c = story::default_config();
    if (!f.at.empty() && f.storyboard.empty()) {
        std::cerr << "shardreel: error: --at names a moment of a storyboard: give the storyboard "
                     "too (numbers STORYBOARD --at ID@TIME)\n";
        return 2;
    }
    if (!f.storyboard.empty()) {
        const auto board = load_storyboard(f.storyboard, std::cerr);
        if (!board) return 2;
        c = board->defaults;  // flags given on the command line override it below
        if (!f.at.empty()) {
            story::Moment at;
            if (auto bad = story::resolve_at(
                    *board, story::FilmTime(board->chapters, board->video.fps), f.at, at)) {
                std::cerr << "shardreel: error: " << *bad << "\n";
                return 2;
            }
            const story::ChapterSpec& spec = board->chapters[at.chapter];
            c = story::drawn_at(spec, at.t, board->video.fps);
            if (!story::figures_drawn(spec, at.t, board->video.fps))
                std::cerr << "shardreel: note: at " << f.at
                          << " the chapter draws no figures yet (its panel shows \"—\"): these "
                             "are the configuration on screen's, not those it draws later\n";
        }
    }
    const Errors errors = build_config(f, c);
    for (const std::string& e : errors) std::cerr << "shardreel: error: " << e << "\n";
    if (!errors.empty()) return 2;
    const engine::Report r = engine::analyze(c);
    const Json j = numbers_json(c, r, f.tokens);
    if (f.format == "json") {
        std::cout << j.dump(2) << "\n";
    } else if (f.format == "csv") {
        std::cout << "key,value\n";
        write_csv(std::cout, j);
    } else {
        write_markdown(std::cout, c, r);
        if (const auto run = run_of(r, c.layout.gpus, f.tokens)) write_run_rows(std::cout, *run);
    }
    return 0;
}

}  // namespace

void add_numbers_command(CLI::App& app, int& exit_code) {
    auto f = std::make_shared<Flags>();
    CLI::App* cmd = app.add_subcommand(
        "numbers", "Print the cost model's figures for a model and cluster (md, csv or json)");
    cmd->add_option("storyboard", f->storyboard, "Take defaults from this storyboard");
    cmd->add_option("--at", f->at,
                    "ID@TIME: the configuration on screen at that moment of the storyboard "
                    "(3.5s, 500ms, 90f, end), as still --at names it");
    register_config_flags(cmd, f->config);
    cmd->add_option("--format", f->format, "md (default) | csv | json");
    cmd->add_option(kTokensFlag.flag, f->tokens, kTokensFlag.help);
    cmd->callback([f, &exit_code] { exit_code = run(*f); });
}

}  // namespace render
