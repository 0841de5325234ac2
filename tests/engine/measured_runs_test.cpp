// The expected peak against measured training runs: every row of nanotron's H100 scaling
// benchmark (tests/data/measured/, 1B and 8B) becomes its configuration, and the cost model's
// expected peak of the first stage (world rank 0, the rank the benchmark logs) meets the measured
// peak; whether it fits meets whether the run completed. The figures below are the ones the model
// reaches; bench/measured.sh prints them through `shardreel numbers`.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/memory.hpp"
#include "engine/presets.hpp"
#include "engine/report.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

namespace {

using Row = std::map<std::string, std::string>;

// bf16 mixed precision with fp32 gradient accumulation, Adam, ZeRO 0 or 1, TP with sequence
// parallelism, 1F1B over stages balanced by compute, FlashAttention, no recomputation; the
// gradients reduced during the last backward by DDP at ZeRO-0, after it at ZeRO-1 (nanotron
// builds no DDP there: trainer.py, make_ddp).
Config run_config(const Row& r) {
    const int dp = std::stoi(r.at("dp")), tp = std::stoi(r.at("tp")), pp = std::stoi(r.at("pp"));
    Config c = engine_test::config_for(engine_test::nanotron_model(r.at("model")), dp * tp * pp, tp,
                                       pp, std::stoi(r.at("zero")));
    c.training.grad_accum_dtype = GradAccumDtype::fp32;
    c.training.micro_batch = std::stoi(r.at("mbs"));
    c.training.micro_batches = std::stoi(r.at("grad_acc"));
    c.training.sequence_parallel = tp > 1;
    c.layout.pipeline_split = StageSplit::compute;
    c.training.grad_reduce =
        c.layout.zero == 1 ? GradReduce::after_backward : GradReduce::overlapped;
    return c;
}

constexpr double kGiB = 1024.0 * 1024 * 1024;  // nanotron's "GB": bytes / 1024**3

struct Figures {
    std::vector<double> errors;  // |predicted - measured| / measured, runs that completed
    int runs = 0, fits_right = 0;
    double median() const {
        std::vector<double> e = errors;
        std::sort(e.begin(), e.end());
        const std::size_t n = e.size();
        return n == 0 ? 0 : n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
    }
    double fits_accuracy() const { return runs ? double(fits_right) / runs : 0; }
};

// The figures over the rows of `model` ("" for all), from the expected peak or, for comparison,
// from the first-order figure on paper.
Figures figures(const std::string& model, bool expected) {
    Figures f;
    for (const Row& r : engine_test::read_csv("measured/nanotron-h100-1b-8b.csv")) {
        if (!model.empty() && r.at("model") != model) continue;
        const Config c = run_config(r);
        const bool ran = r.at("gpu_mem_gb") != "nan", valid = validate(c).empty();
        ++f.runs;
        if (!valid) {  // a layout the model refuses (more stages than layers) cannot run
            f.fits_right += !ran;
            continue;
        }
        const PerGpu g = per_gpu_memory(c);
        const Bytes peak = expected ? g.expected.first.terms.allocator() : g.total;
        const bool fits = expected ? g.fits : g.total <= g.capacity;
        f.fits_right += fits == ran;
        if (!ran) continue;
        const double measured = std::stod(r.at("gpu_mem_gb")) * kGiB;
        f.errors.push_back(std::abs(peak.value - measured) / measured);
    }
    return f;
}

}  // namespace

TEST_CASE("measured runs: every row of the benchmark builds a configuration") {
    const auto rows = engine_test::read_csv("measured/nanotron-h100-1b-8b.csv");
    REQUIRE(rows.size() == 1641);
    int refused = 0, other_batch = 0;
    for (const Row& r : rows) {
        const Config c = run_config(r);
        CHECK(c.cluster.nodes == std::stoi(r.at("nodes")));
        other_batch += long(c.layout.dp()) * c.training.micro_batch * c.training.micro_batches !=
                       std::stoi(r.at("gbs"));
        refused += !validate(c).empty();
    }
    // 20 rows' dp x mbs x grad_acc is not their gbs of 256 (16 to 4,096 sequences): the memory
    // follows the micro-batch and the micro-batches they ran, which the row gives.
    CHECK(other_batch == 20);
    // More stages than layers (1B on 32 to 128, 8B on 64 and 128): none of them ran. And the 1B
    // on 16 stages split by compute, whose last stage holds no block: 65 of those 66 failed.
    CHECK(refused == 124);
}

// Before the expected peak, the first-order figure on paper (model states and activations) was
// the only one: about half the measured peak, and fits wrong for about a quarter of the runs.
TEST_CASE("measured runs: on paper is the first-order figure, far below the measured peak") {
    const Figures one = figures("1B", false), eight = figures("8B", false),
                  all = figures("", false);
    CHECK(one.median() == Approx(0.5854).margin(5e-5));
    CHECK(eight.median() == Approx(0.4795).margin(5e-5));
    CHECK(all.median() == Approx(0.5334).margin(5e-5));
    CHECK(all.fits_accuracy() == Approx(0.8172).margin(5e-5));
}

// The targets (issue 32): median |error| under 10% over the runs that completed, and fits right
// for at least 95% of all runs. Reached: 7.19% (1B 9.70%, 8B 5.15%) and 93.2%. What is left of
// the error is mostly tensor parallelism across nodes (tp 16 and 32), where the runs hold 15-40%
// more than the model finds, and the allocator's scatter: the same layout measured on other node
// counts differs by up to 50%. Fits: nanotron's split by compute leaves the 1B's last stage of 16
// without a block, which validate() refuses (65 of those 66 runs failed; stages_test); of the
// runs still predicted to fit that failed, 42 are ZeRO-0 runs whose ZeRO-1 twin completed (the
// last test case), which memory does not explain.
TEST_CASE("measured runs: the expected peak against the measured peak and outcome") {
    const Figures one = figures("1B", true), eight = figures("8B", true), all = figures("", true);
    CHECK(one.errors.size() == 533);
    CHECK(eight.errors.size() == 493);
    CHECK(all.median() < 0.10);  // the target
    CHECK(one.median() == Approx(0.0970).margin(5e-5));
    CHECK(eight.median() == Approx(0.0515).margin(5e-5));
    CHECK(all.median() == Approx(0.0719).margin(5e-5));
    CHECK(one.fits_accuracy() == Approx(0.9244).margin(5e-5));
    CHECK(eight.fits_accuracy() == Approx(0.9400).margin(5e-5));
    CHECK(all.fits_accuracy() == Approx(0.9324).margin(5e-5));
    CHECK(all.fits_accuracy() > figures("", false).fits_accuracy() + 0.1);
}

namespace {

// Ranks of `x`, ties sharing their mean rank.
std::vector<double> ranks(const std::vector<double>& x) {
    std::vector<std::size_t> order(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    std::vector<double> r(x.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
        for (std::size_t k = i; k <= j; ++k) r[order[k]] = (i + j) / 2.0;
        i = j + 1;
    }
    return r;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double mean = (ra.size() - 1) / 2.0;
    double cov = 0, va = 0, vb = 0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
        cov += (ra[i] - mean) * (rb[i] - mean);
        va += (ra[i] - mean) * (ra[i] - mean);
        vb += (rb[i] - mean) * (rb[i] - mean);
    }
    return cov / std::sqrt(va * vb);
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Run {
    double predicted = 0, measured = 0;
    bool fits = false;
};

// The completed runs the model accepts, by (model, nodes): predicted and measured tokens/s/GPU.
std::map<std::string, std::vector<Run>> completed_by_group() {
    std::map<std::string, std::vector<Run>> groups;
    for (const Row& r : engine_test::read_csv("measured/nanotron-h100-1b-8b.csv")) {
        const Config c = run_config(r);
        if (r.at("tok_s_gpu") == "nan" || !validate(c).empty()) continue;
        const Report rep = analyze(c);
        groups[r.at("model") + " on " + r.at("nodes")].push_back(
            {rep.step.tokens_per_second_per_gpu, std::stod(r.at("tok_s_gpu")), rep.per_gpu.fits});
    }
    return groups;
}

}  // namespace

// The targets (issue 32): the Spearman rank correlation of predicted against measured tokens/s
// per GPU at least 0.8 within each (model, nodes) group, and the layout the model ranks first
// among a group's measured ones that it says fit (what plan would choose) reaching 90% of the
// group's best. Reached over the 14 groups: a median correlation of 0.81 (0.53 to 0.94; the 1B's
// groups 0.81-0.94, the 8B's 0.53-0.80) and a median first choice at 95% of the best (the worst
// 25%, the 8B on 64 nodes, where the runs of large data-parallel groups fall far below what the
// network's bandwidth predicts). With one constant MFU the same figures were 0.44 and 36%; with
// one network bandwidth for every group across nodes (50 GB/s), 0.75 and 96%.
TEST_CASE("measured runs: the predicted step ranks layouts as the measured throughput does") {
    std::vector<double> correlations, firsts;
    for (const auto& [group, runs] : completed_by_group()) {
        std::vector<double> predicted, measured;
        double best = 0;
        const Run* first = nullptr;
        for (const Run& r : runs) {
            predicted.push_back(r.predicted);
            measured.push_back(r.measured);
            best = std::max(best, r.measured);
            if (r.fits && (!first || r.predicted > first->predicted)) first = &r;
        }
        INFO(group);
        REQUIRE(first);
        correlations.push_back(spearman(predicted, measured));
        firsts.push_back(first->measured / best);
    }
    REQUIRE(correlations.size() == 14);
    CHECK(median_of(firsts) >= 0.9);  // the target
    CHECK(median_of(firsts) == Approx(0.954).margin(5e-4));
    CHECK(*std::min_element(firsts.begin(), firsts.end()) == Approx(0.253).margin(5e-4));
    CHECK(median_of(correlations) == Approx(0.807).margin(5e-4));
    CHECK(*std::min_element(correlations.begin(), correlations.end()) ==
          Approx(0.533).margin(5e-4));
}

namespace {

// Layouts the benchmark ran twice, with ZeRO 0 and with ZeRO 1: the same matmuls and less
// optimizer state; at ZeRO-0 DDP reduces the gradients during the last backward, at ZeRO-1 one
// all-reduce follows it and an all-gather of the weights follows the step.
struct Twins {
    Row zero0, zero1;
};
std::map<std::string, std::vector<Twins>> twins_by_group() {
    std::map<std::string, std::map<std::string, Twins>> layouts;
    for (const Row& r : engine_test::read_csv("measured/nanotron-h100-1b-8b.csv")) {
        const std::string group = r.at("model") + " on " + r.at("nodes");
        std::string layout;
        for (const char* k : {"mbs", "grad_acc", "dp", "pp", "tp"}) layout += r.at(k) + ":";
        Twins& t = layouts[group][layout];
        (r.at("zero") == "0" ? t.zero0 : t.zero1) = r;
    }
    std::map<std::string, std::vector<Twins>> out;
    for (const auto& [group, by_layout] : layouts)
        for (const auto& [layout, t] : by_layout)
            if (!t.zero0.empty() && !t.zero1.empty()) out[group].push_back(t);
    return out;
}

bool completed(const Row& r) { return r.at("tok_s_gpu") != "nan"; }

// The tokens one GPU runs in a step: the batch its micro-batches, accumulation and replicas make
// (2^20 for all but 20 of the benchmark's rows, whose gbs column says 256 sequences where dp x
// grad_acc x mbs makes 16 to 4,096).
double step_tokens_per_gpu(const Config& c) {
    const Training& t = c.training;
    return double(t.micro_batch) * t.micro_batches * c.layout.dp() * t.seq_len / c.layout.gpus;
}

// A completed run's measured step (its tokens over its tokens/s/GPU) less the predicted one, per
// micro-batch.
double excess_per_micro_batch(const Row& r, const Config& c) {
    const double tokens = step_tokens_per_gpu(c);
    return (tokens / std::stod(r.at("tok_s_gpu")) -
            tokens / analyze(c).step.tokens_per_second_per_gpu) /
           c.training.micro_batches;
}

}  // namespace

// What the predicted step leaves out, found per layer: with one sequence a micro-batch and tensor
// parallelism inside a node, a layer's time (the step over the 1F1B schedule's micro-batch
// slots, m + p - 1, over a stage's share of the layers) measures 4.6-5.6 ms without a pipeline
// and 5.4 ms for the one pipeline of tp 4 inside one node, but with the pipeline's stages on
// different nodes (up to 16 nodes) a median 11.6 ms at tp 2, 18.9 at tp 4 and 29.3 at tp 8, on
// both model sizes; the model's step, read the same way, gives 14.2, 13.6 and 12.6. Not modelled:
// no mechanism was found (docs/performance.md), and a term set to these medians would be a fit.
TEST_CASE("measured runs: a pipeline across nodes slows each layer with tp") {
    std::map<std::string, std::vector<double>> measured, predicted;  // ms a layer, by kind and tp
    for (const Row& r : engine_test::read_csv("measured/nanotron-h100-1b-8b.csv")) {
        const Config c = run_config(r);
        const int tp = c.layout.tp, pp = c.layout.pp, nodes = std::stoi(r.at("nodes"));
        if (!completed(r) || c.training.micro_batch != 1 || tp == 1 || tp > 8 || nodes > 16 ||
            !validate(c).empty())
            continue;
        // A layer's milliseconds for one micro-batch, over the tokens/s/GPU that take it.
        const double per_layer = step_tokens_per_gpu(c) / (c.training.micro_batches + pp - 1) /
                                 (double(c.model.layers) / pp) * 1e3;
        const std::string kind = pp == 1 ? "none " : nodes == 1 ? "one node " : "across ";
        const std::string k = kind + std::to_string(tp);
        measured[k].push_back(per_layer / std::stod(r.at("tok_s_gpu")));
        predicted[k].push_back(per_layer / analyze(c).step.tokens_per_second_per_gpu);
    }
    std::size_t across = 0;
    for (const char* tp : {"2", "4", "8"}) across += measured[std::string("across ") + tp].size();
    CHECK(across == 97);
    CHECK(median_of(measured["across 2"]) == Approx(11.6).margin(0.05));
    CHECK(median_of(measured["across 4"]) == Approx(18.9).margin(0.05));
    CHECK(median_of(measured["across 8"]) == Approx(29.3).margin(0.05));
    CHECK(median_of(predicted["across 2"]) == Approx(14.2).margin(0.05));
    CHECK(median_of(predicted["across 4"]) == Approx(13.6).margin(0.05));
    CHECK(median_of(predicted["across 8"]) == Approx(12.6).margin(0.05));
    for (const char* tp : {"2", "4", "8"}) {
        INFO(tp);
        CHECK(median_of(measured[std::string("none ") + tp]) > 4.5);
        CHECK(median_of(measured[std::string("none ") + tp]) < 5.7);
    }
    CHECK(median_of(measured["one node 4"]) == Approx(5.4).margin(0.05));
}

// What no model of the layout can reach: where the benchmark ran a layout with both ZeRO stages,
// the two runs rank the layouts of their group far apart in half the groups (the 8B on 4 nodes:
// 0.15), while the predicted step ranks them as the ZeRO-1 runs do better than the ZeRO-0 runs
// themselves. And runs fail that memory does not explain: ZeRO-0 runs with a pipeline died where
// their ZeRO-1 twin, which holds as much but for the optimizer's shards, completed, at expected
// peaks from 3.1 GB. These bound the Spearman and fits targets; bench/measured.sh prints the
// first table.
TEST_CASE("measured runs: the benchmark's ZeRO 0 and 1 twins bound what a model can reach") {
    std::vector<double> between, model;
    int unexplained = 0, with_pipeline = 0;  // ZeRO-0 failed, ZeRO-1 completed, both fit
    double smallest = 1e30;                  // the smallest expected peak among them
    for (const auto& [group, pairs] : twins_by_group()) {
        std::vector<double> a, b, p;
        for (const Twins& t : pairs) {
            if (!completed(t.zero1)) continue;
            if (!completed(t.zero0)) {
                const Config c = run_config(t.zero0);
                if (!validate(c).empty() || !per_gpu_memory(c).fits) continue;
                ++unexplained;
                with_pipeline += c.layout.pp > 1;
                smallest = std::min(smallest, per_gpu_memory(c).expected.total.value);
                continue;
            }
            a.push_back(std::stod(t.zero0.at("tok_s_gpu")));
            b.push_back(std::stod(t.zero1.at("tok_s_gpu")));
            p.push_back(analyze(run_config(t.zero1)).step.tokens_per_second_per_gpu);
        }
        if (a.size() < 5) continue;
        INFO(group);
        between.push_back(spearman(a, b));
        model.push_back(spearman(p, b));
    }
    REQUIRE(between.size() == 12);
    CHECK(median_of(between) == Approx(0.80).margin(5e-3));
    CHECK(*std::min_element(between.begin(), between.end()) == Approx(0.15).margin(5e-3));
    CHECK(median_of(model) == Approx(0.948).margin(5e-3));
    CHECK(unexplained == 42);
    CHECK(with_pipeline == 41);
    CHECK(smallest == Approx(3.10e9).margin(5e6));
}

// What the predicted step leaves out: runs with a pipeline stall. A run's measured step (2^20
// tokens over its GPUs at its tokens/s/GPU) less the predicted, per micro-batch, exceeds 0.4 s in
// 287 of the 729 completed runs with pp > 1, by a median 1.29 s whatever their shape, in 2 of 29
// on one node and 106 of 110 on 64; without a pipeline in 28 of 297 (docs/performance.md; not
// modelled: a fitted term would steer plan away from pipelines in every framework).
TEST_CASE("measured runs: pipelines stall about a second per micro-batch and more on more nodes") {
    std::map<bool, int> runs, stalled;
    std::map<std::string, int> by_nodes, stalled_by_nodes;
    std::vector<double> stalls;
    for (const Row& r : engine_test::read_csv("measured/nanotron-h100-1b-8b.csv")) {
        const Config c = run_config(r);
        if (!completed(r) || !validate(c).empty()) continue;
        const double excess = excess_per_micro_batch(r, c);
        const bool pipeline = c.layout.pp > 1, stall = excess > 0.4;
        ++runs[pipeline];
        stalled[pipeline] += stall;
        if (!pipeline) continue;
        ++by_nodes[r.at("nodes")];
        stalled_by_nodes[r.at("nodes")] += stall;
        if (stall) stalls.push_back(excess);
    }
    CHECK(runs[true] == 729);
    CHECK(stalled[true] == 287);
    CHECK(median_of(stalls) == Approx(1.288).margin(5e-3));
    CHECK(by_nodes["1"] == 29);
    CHECK(stalled_by_nodes["1"] == 2);
    CHECK(by_nodes["64"] == 110);
    CHECK(stalled_by_nodes["64"] == 106);
    CHECK(runs[false] == 297);
    CHECK(stalled[false] == 28);
}

// Pipelines whose gradients PyTorch's DDP reduces (nanotron builds DDP at ZeRO-0 with dp > 1 only,
// engine/peak.cpp) crash or stall where the others run: the 1B's on 2 to 8 nodes complete 3 of
// 41 (the other pipelines 154 of 263); the 8B's on 4 to 16 nodes complete 30 and 25 of them
// exceed the predicted step by over 0.4 s per micro-batch (the others 37 of 155).
TEST_CASE("measured runs: pipelines that DDP reduces crash or stall where the others run") {
    std::map<std::string, int> runs, done, stalled;
    for (const Row& r : engine_test::read_csv("measured/nanotron-h100-1b-8b.csv")) {
        const Config c = run_config(r);
        const int nodes = std::stoi(r.at("nodes"));
        if (c.layout.pp == 1) continue;
        const bool small =
            r.at("model") == "1B" ? nodes >= 2 && nodes <= 8 : nodes >= 4 && nodes <= 16;
        if (!small) continue;
        const std::string k =
            r.at("model") + (c.layout.dp() > 1 && c.layout.zero == 0 ? " DDP" : "");
        ++runs[k];
        if (!completed(r) || !validate(c).empty()) continue;
        ++done[k];
        stalled[k] += excess_per_micro_batch(r, c) > 0.4;
    }
    CHECK(runs["1B DDP"] == 41);
    CHECK(done["1B DDP"] == 3);
    CHECK(done["1B"] == 154);
    CHECK(done["8B DDP"] == 30);
    CHECK(stalled["8B DDP"] == 25);
    CHECK(done["8B"] == 155);
    CHECK(stalled["8B"] == 37);
}

// What fits / does not fit any memory model reaches: a crashed run predicted further below the
// GPU than the model under-predicts any completed run (27.8 GiB) did not run out of memory, and of
// a layout recorded both completed and crashed one record is wrong whatever the prediction. 63 of
// the 1,641 runs: at best 96.2% (the target is 95%; the model reaches 93.2%), the 1B's at best
// 93.4% (reached: 92.4%).
TEST_CASE("measured runs: no memory model gets every fit right") {
    const std::vector<Row> rows = engine_test::read_csv("measured/nanotron-h100-1b-8b.csv");
    double worst = 0, card = 0;
    std::map<std::string, int> records, completions;
    const auto key = [](const Row& r) {
        return r.at("model") + r.at("nodes") + ":" + r.at("mbs") + ":" + r.at("grad_acc") + ":" +
               r.at("dp") + ":" + r.at("pp") + ":" + r.at("tp") + ":" + r.at("zero");
    };
    for (const Row& r : rows) {
        ++records[key(r)];
        completions[key(r)] += completed(r);
        const Config c = run_config(r);
        if (!completed(r) || !validate(c).empty()) continue;
        const PerGpu g = per_gpu_memory(c);
        card = g.capacity.value / kGiB;
        worst = std::max(
            worst, std::stod(r.at("gpu_mem_gb")) - g.expected.first.terms.allocator().value / kGiB);
    }
    int far_below = 0, contradicted = 0;
    for (const Row& r : rows) {
        const Config c = run_config(r);
        if (completed(r) || !validate(c).empty()) continue;
        if (per_gpu_memory(c).expected.first.terms.allocator().value / kGiB < card - worst)
            ++far_below;
        else if (records[key(r)] > 1 && completions[key(r)] > 0)
            ++contradicted;
    }
    CHECK(worst == Approx(27.84).margin(5e-3));
    CHECK(far_below == 57);
    CHECK(contradicted == 6);
    const double best = double(rows.size() - far_below - contradicted) / rows.size();
    CHECK(best == Approx(0.9616).margin(5e-5));
    CHECK(figures("", true).fits_accuracy() < best);
}

// Where the expected peak runs low, tensor parallelism of 8 or more with micro-batches of 4
// sequences or more, the runs measured above 1.25 times it are the fast ones: their measured
// tokens/s/GPU is 0.83 to 1.52 times the predicted, the others' 0.24 to 0.92 times, 1.7 to 3.5
// times less, in layouts of the same kind. So the memory nanotron holds beyond the model there
// comes with the speed a run reached that day, not with its layout, and no term of the layout
// can predict it
// (docs/performance.md; bench/measured.sh prints the seventh table).
TEST_CASE("measured runs: the peak runs high where tensor-parallel runs ran fast") {
    std::map<std::string, std::vector<double>> speed;  // measured / predicted tokens/s, by class
    for (const Row& r : engine_test::read_csv("measured/nanotron-h100-1b-8b.csv")) {
        const Config c = run_config(r);
        if (!completed(r) || !validate(c).empty() || c.layout.tp < 8 || c.training.micro_batch < 4)
            continue;
        const Report rep = analyze(c);
        const double measured = std::stod(r.at("gpu_mem_gb")) * kGiB;
        const bool high = measured > 1.25 * rep.per_gpu.expected.first.terms.allocator().value;
        const std::string key =
            r.at("model") + (c.layout.tp == 8 ? " tp 8" : " tp 16+") + (high ? " high" : " within");
        speed[key].push_back(std::stod(r.at("tok_s_gpu")) / rep.step.tokens_per_second_per_gpu);
    }
    REQUIRE(speed.size() == 8);
    CHECK(speed["1B tp 16+ high"].size() == 41);
    CHECK(speed["8B tp 16+ high"].size() == 27);
    for (const char* kind : {"1B tp 8", "1B tp 16+", "8B tp 8", "8B tp 16+"}) {
        INFO(kind);
        const double high = median_of(speed[std::string(kind) + " high"]);
        const double within = median_of(speed[std::string(kind) + " within"]);
        CHECK(high > 1.6 * within);
        CHECK(within < 0.95);
    }
}

// How far the predicted speed is from the measured (bench/measured.sh's eighth table): of the
// completed runs, 382 of the 1B's 533 and 271 of the 8B's 493 are within a factor of two of the
// predicted tokens/s/GPU, by a median 33% and 26% (the larger over the smaller); the rest stalled
// or ran fast as the tables above show. Over all of them the 1B's median measured / predicted is
// 0.96 and the 8B's 0.63: the 8B's runs with a pipeline on 32 and 64 nodes nearly all stall.
TEST_CASE("measured runs: the predicted speed against the measured one") {
    std::map<std::string, std::vector<double>> ratio, near;
    for (const auto& [group, runs] : completed_by_group()) {
        const std::string model = group.substr(0, group.find(' '));
        for (const Run& r : runs) {
            const double x = r.measured / r.predicted;
            ratio[model].push_back(x);
            if (x > 0.5 && x < 2) near[model].push_back(x > 1 ? x - 1 : 1 / x - 1);
        }
    }
    CHECK(ratio["1B"].size() == 533);
    CHECK(ratio["8B"].size() == 493);
    CHECK(near["1B"].size() == 382);
    CHECK(near["8B"].size() == 271);
    CHECK(median_of(near["1B"]) == Approx(0.330).margin(5e-3));
    CHECK(median_of(near["8B"]) == Approx(0.256).margin(5e-3));
    CHECK(median_of(ratio["1B"]) == Approx(0.964).margin(5e-3));
    CHECK(median_of(ratio["8B"]) == Approx(0.631).margin(5e-3));
}
