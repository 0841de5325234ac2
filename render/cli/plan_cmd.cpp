// `shardreel plan`: the layouts of a model on a cluster ranked by estimated step time, as a
// Markdown table with one line on why the first wins, or as JSON (engine/plan.hpp).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "engine/interconnect.hpp"
#include "engine/layout3d.hpp"
#include "engine/plan.hpp"
#include "render/cli/commands.hpp"
#include "render/cli/config_flags.hpp"
#include "render/inputs/plan_json.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/format.hpp"

namespace render {
namespace {

struct Flags {
    ConfigFlags config;
    int top = 5;
    std::string format = "md";
};

std::string schedule_name(const engine::Training& t) {
    std::string s(engine::to_string(t.schedule));
    if (t.schedule == engine::Schedule::interleaved) s += " (" + std::to_string(t.chunks) + ")";
    return s;
}

// Bytes each GPU sends per step on NVLink and on the network (interconnect.hpp's placement).
std::string per_link(const engine::Config& c) {
    const engine::LinkTimings l = engine::link_timings(c);
    double nvlink = 0, network = 0;
    for (const engine::LinkTiming* g : {&l.dp, &l.tp, &l.pp})
        (g->crosses_nodes ? network : nvlink) += g->bytes.value;
    return story::format_bytes(nvlink) + " / " + story::format_bytes(network);
}

std::string percent_slower(double a, double b) { return story::format_percent(b / a - 1); }

// One line on why the first layout wins: against the next, where its time goes.
// A group of `group` ranks: inside one node or across nodes.
std::string placed(const engine::Config& c, engine::RankGroup group, const char* inside) {
    return engine::within_node(c.layout, c.cluster.gpus_per_node, group) ? inside : "crosses nodes";
}

// Where the winner's model-parallel groups sit, one clause per axis it uses.
std::string placement_clauses(const engine::PlanEntry& w) {
    const engine::Config& c = w.config;
    const engine::Parallel& p = c.layout;
    std::vector<std::string> parts;
    if (p.tp > 1)
        parts.push_back("tensor parallelism " +
                        placed(c, engine::RankGroup::tp, "stays inside a node's NVLink"));
    if (p.cp > 1)
        parts.push_back("context parallelism " +
                        placed(c, engine::RankGroup::cp, "stays inside a node"));
    if (p.ep > 1)
        parts.push_back("the experts' all-to-all " +
                        placed(c, engine::RankGroup::ep, "stays inside a node"));
    if (p.pp > 1) {
        const bool inside = engine::within_node(p, c.cluster.gpus_per_node, engine::RankGroup::pp);
        parts.push_back(std::string("the pipeline ") +
                        (inside ? "stays inside a node"
                                : "spans nodes, sending only activations between stages") +
                        ", bubble " + story::format_percent(w.report.bubble_fraction));
    }
    if (parts.empty()) return "data parallel only, with no model-parallel group to place";
    std::string out = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) out += ", " + parts[i];
    return out;
}

std::string why(const engine::PlanResult& r) {
    const engine::PlanEntry& w = r.best.front();
    const engine::StepReport& s = w.report.step;
    std::string line = plan_layout_name(w.config) + " wins";
    if (r.best.size() > 1) {
        const engine::PlanEntry& n = r.best[1];
        const std::string next = plan_layout_name(n.config) + ", ZeRO-" +
                                 plan_zero_name(n.config.layout) + ", recompute " +
                                 std::string(engine::to_string(n.config.training.recompute)) +
                                 ", " + schedule_name(n.config.training);
        if (n.report.step.seconds - s.seconds < 5e-4 * s.seconds) {
            line += ", tied on step time with " + next + " and holding " +
                    story::format_bytes(w.report.per_gpu.expected.total.value) +
                    " per GPU at its peak against " +
                    story::format_bytes(n.report.per_gpu.expected.total.value);
        } else {
            line += ", " + percent_slower(s.seconds, n.report.step.seconds) + " ahead of " + next +
                    " (compute " + story::format_time(s.compute_seconds) + " vs " +
                    story::format_time(n.report.step.compute_seconds) + ", exposed communication " +
                    story::format_time(s.exposed_comm_seconds) + " vs " +
                    story::format_time(n.report.step.exposed_comm_seconds) + ")";
        }
    }
    return line + ": " + placement_clauses(w) + ".";
}

void write_rejected(std::ostream& out, const engine::PlanResult& r) {
    out << "Layouts considered: " << story::format_int(r.considered)
        << "; fit: " << story::format_int(r.feasible) << ".";
    for (const auto& [reason, n] : r.rejected)
        out << " " << story::format_int(n) << ": " << reason << ".";
    if (r.batch_splits_dropped > 0)
        out << " Skipped " << story::format_int(r.batch_splits_dropped)
            << " splits (tp x pp x cp x micro-batch size) over which the global batch does not "
               "divide.";
    out << "\n\n";
}

void write_markdown(std::ostream& out, const engine::Config& base, int global_batch,
                    const engine::PlanResult& r) {
    out << "# Plan: " << base.model.name << " on " << story::format_int(base.layout.gpus) << " x "
        << base.cluster.gpu.name << "\n\n"
        << story::format_int(base.training.seq_len) << "-token sequences, a global batch of "
        << story::format_int(global_batch) << " sequences, "
        << engine::to_string(base.training.precision) << ", "
        << engine::to_string(base.training.optimizer) << ", "
        << (base.training.mfu > 0
                ? "step time at mfu " + story::format_sig3(base.training.mfu) + " with overlap " +
                      std::string(engine::to_string(base.training.overlap))
                : std::string("step time predicted from each layout (") + kPredictedStepSource +
                      ")")
        << ".\n\n";
    write_rejected(out, r);
    out << "| # | layout | ZeRO | recompute | schedule | micro-batches | peak per GPU | comm "
           "NVLink / "
           "network | bubble | step | MFU |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
    int rank = 0;
    for (const engine::PlanEntry& e : r.best) {
        const engine::Training& t = e.config.training;
        out << "| " << ++rank << " | " << plan_layout_name(e.config) << " | "
            << plan_zero_name(e.config.layout) << " | " << engine::to_string(t.recompute) << " | "
            << schedule_name(t) << " | " << t.micro_batches << " x " << t.micro_batch << " | "
            << story::format_bytes(e.report.per_gpu.expected.total.value) << " | "
            << per_link(e.config) << " | " << story::format_percent(e.report.bubble_fraction)
            << " | " << story::format_time(e.report.step.seconds) << " | "
            << story::format_percent(e.report.step.mfu) << " |\n";
    }
    out << "\n" << why(r) << "\n";
}

int run(const Flags& f) {
    std::vector<std::string> errors;
    if (f.format != "md" && f.format != "json")
        errors.push_back("--format: expected md or json, got '" + f.format + "'");
    const PlanRequest request = plan_request(f.config.given_values(), f.top);
    for (const engine::Problem& p : request.problems) errors.push_back(story::problem_line(p));
    for (const std::string& e : errors) std::cerr << "shardreel: error: " << e << "\n";
    if (!errors.empty()) return 2;
    const engine::PlanResult r = engine::plan(request.base, request.options);
    if (r.best.empty()) {
        std::cerr << "shardreel: error: " << engine::english(plan_shortfall(request.base, r))
                  << "\n";
        return 2;
    }
    if (f.format == "json") {
        std::cout << plan_json(r).dump(2) << "\n";
    } else {
        write_markdown(std::cout, request.base, request.options.global_batch, r);
    }
    return 0;
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
    auto f = std::make_shared<Flags>();
    CLI::App* cmd = app.add_subcommand(
        "plan", "Rank the layouts of a model on a cluster by estimated step time (md or json)");
    register_config_flags(cmd, f->config, plan_chosen());
    cmd->add_option("--top", f->top, "how many layouts to print (5)");
    cmd->add_option("--format", f->format, "md (default) | json");
    cmd->callback([f, &exit_code] { exit_code = run(*f); });
}

}  // namespace render
