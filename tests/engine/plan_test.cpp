// The planner: what it keeps, how it ranks, that no hand-built layout beats its choice, and what
// it says when nothing fits.
#include "engine/plan.hpp"

#include <algorithm>
#include <map>

#include "engine/layout3d.hpp"
#include "tests/catch.hpp"
#include "tests/engine/engine_fixtures.hpp"

using engine::Config;
using engine::PlanEntry;
using engine::PlanResult;
using engine_test::config_for;

namespace {

long long total_rejected(const PlanResult& r) {
    long long n = 0;
    for (const auto& [reason, count] : r.rejected) n += count;
    return n;
}

Config llama405b_on(int gpus) {
    Config c = config_for(*engine::find_model("llama-3.1-405b"), gpus);
    c.training.seq_len = 8192;
    return c;
}

}  // namespace

TEST_CASE("plan: every layout it returns is valid, fits, splits the batch and is ranked") {
    const Config base = config_for(*engine::find_model("llama-2-70b"), 64);
    const PlanResult r = engine::plan(base, {10, 512});
    REQUIRE(r.best.size() == 10);
    CHECK(r.considered == r.feasible + total_rejected(r));
    CHECK(r.feasible >= 10);
    for (std::size_t i = 0; i < r.best.size(); ++i) {
        const PlanEntry& e = r.best[i];
        INFO(i);
        CHECK(engine::validate(e.config).empty());
        CHECK(e.report == engine::analyze(e.config));
        CHECK(e.report.per_gpu.fits);
        CHECK(e.config.layout.gpus == 64);
        const engine::Training& t = e.config.training;
        CHECK(1LL * e.config.layout.dp() * t.micro_batch * t.micro_batches == 512);
        if (i > 0) CHECK(r.best[i - 1].report.step.seconds <= e.report.step.seconds);
    }
}

TEST_CASE("plan: no hand-built layout that fits beats its first choice") {
    const Config base = config_for(*engine::find_model("llama-2-70b"), 64);
    const PlanResult r = engine::plan(base, {1, 512});
    REQUIRE(r.best.size() == 1);
    const double best = r.best.front().report.step.seconds;
    // A few layouts practitioners try for 70B on 64 GPUs, each with the same global batch.
    struct Try {
        int tp, pp, zero;
        engine::Recompute recompute;
    };
    for (const Try& t :
         {Try{8, 1, 1, engine::Recompute::selective}, Try{8, 2, 1, engine::Recompute::none},
          Try{4, 4, 1, engine::Recompute::full}, Try{1, 1, 3, engine::Recompute::full},
          Try{8, 8, 0, engine::Recompute::none}, Try{2, 8, 2, engine::Recompute::selective}}) {
        Config c = base;
        c.layout = {64, t.tp, t.pp, t.zero};
        c.training.recompute = t.recompute;
        c.training.sequence_parallel = t.tp > 1;
        REQUIRE_FALSE(engine::set_global_batch(c, 512));
        REQUIRE(engine::validate(c).empty());
        const engine::Report rep = engine::analyze(c);
        INFO("tp " << t.tp << " pp " << t.pp << " zero " << t.zero);
        if (rep.per_gpu.fits) CHECK(best <= rep.step.seconds);
    }
}

TEST_CASE(
    "plan: Llama 3 405B on 16,384 H100s keeps tensor parallelism in a node and pipelines "
    "across nodes") {
    // Dubey et al. 2024 (The Llama 3 Herd of Models), Table 4: 16,384 GPUs, 8,192-token
    // sequences, 2,048 sequences a step, TP 8 inside a node and PP 16 across nodes.
    const PlanResult r = engine::plan(llama405b_on(16384), {5, 2048});
    REQUIRE_FALSE(r.best.empty());
    const Config& w = r.best.front().config;
    CHECK(w.layout.tp == 8);
    CHECK(w.layout.pp > 1);
    const engine::Layout3D l = engine::layout_3d(w);
    CHECK(l.tp_within_node());
    CHECK_FALSE(l.pp_within_node());
}

TEST_CASE("plan: when nothing fits it names the nearest layout and how many GPUs would do") {
    // 405B's 6.5 TB of model states fit neither 16 x 80 GB nor, offloaded, 16 x 256 GB of host
    // memory (two DGX systems' 2 TB each).
    const PlanResult r = engine::plan(llama405b_on(16), {5, 2048});
    CHECK(r.best.empty());
    CHECK(r.feasible == 0);
    CHECK(r.rejected.at("does not fit in the GPU's memory") == r.considered);
    REQUIRE(r.leanest.has_value());
    const engine::PerGpu& g = r.leanest->report.per_gpu;
    CHECK((g.total.value > g.capacity.value || g.host.value > g.host_capacity.value));
    CHECK(r.leanest->config.training.recompute == engine::Recompute::full);
    CHECK(r.gpus_that_fit == 32);
    CHECK_FALSE(engine::plan(llama405b_on(32), {1, 2048}).best.empty());
}

TEST_CASE("plan offloads only where the GPUs alone cannot hold the layout") {
    // On 32 GPUs 405B fits only with ZeRO-Offload's host memory (6.5 TB / 32 = 203 GB of 256 GB).
    const PlanResult few = engine::plan(llama405b_on(32), {1, 2048});
    REQUIRE_FALSE(few.best.empty());
    CHECK(few.best.front().config.layout.offload != engine::Offload::none);
    // On 16,384 the GPUs hold it without offload: the winner keeps everything on the GPUs, and
    // an offloading layout among the five best is one whose twin without offload does not fit
    // (ZeRO-1 with the optimizer on the host, second by 0.3%, where ZeRO-1 alone needs more than
    // the card).
    const PlanResult many = engine::plan(llama405b_on(16384), {5, 2048});
    REQUIRE(many.best.size() == 5);
    CHECK(many.best.front().config.layout.offload == engine::Offload::none);
    int on_gpu = 0;
    for (const engine::PlanEntry& e : many.best) {
        engine::Config twin = e.config;
        twin.layout.offload = engine::Offload::none;
        if (e.config.layout.offload == engine::Offload::none)
            ++on_gpu;
        else
            CHECK_FALSE(engine::per_gpu_memory(twin).fits);
    }
    CHECK(on_gpu == 4);
}

// Llama 3 8B on 64 GPUs: ZeRO-2 and ZeRO-1, both with the optimizer on the host, take the same
// step and the same GPU memory; the one holding less on the host ranks first, in every build
// (the calculator's libc++ and the command line's libstdc++ once ordered the two apart).
TEST_CASE("plan: layouts tied on step time and GPU memory rank by the host's memory") {
    const PlanResult r = engine::plan(config_for(*engine::find_model("llama-3-8b"), 64), {5, 2048});
    REQUIRE(r.best.size() == 5);
    int ties = 0;
    for (std::size_t i = 1; i < r.best.size(); ++i) {
        const engine::Report &a = r.best[i - 1].report, &b = r.best[i].report;
        INFO(i);
        REQUIRE(a.step.seconds <= b.step.seconds);
        if (a.step.seconds < b.step.seconds) continue;
        REQUIRE(a.per_gpu.expected.total <= b.per_gpu.expected.total);
        if (a.per_gpu.expected.total < b.per_gpu.expected.total) continue;
        CHECK(a.per_gpu.host < b.per_gpu.host);
        ++ties;
    }
    CHECK(ties == 1);
    CHECK(r.best[1].config.layout.zero == 2);
    CHECK(r.best[2].config.layout.zero == 1);
}

TEST_CASE("set_global_batch splits the batch over dp and the micro-batch, or says what would") {
    Config c = engine_test::llama7b(16, 2, 2);  // dp 4
    c.training.micro_batch = 2;
    CHECK_FALSE(engine::set_global_batch(c, 64));
    CHECK(c.training.micro_batches == 8);
    const auto problem = engine::set_global_batch(c, 100);
    REQUIRE(problem);
    CHECK(*problem ==
          "a global batch of 100 sequences does not split into micro-batches of dp x "
          "micro_batch = 4 x 2 sequences (try 96)");
    CHECK(c.training.micro_batches == 8);
}

TEST_CASE("plan's sample: at most N of each fate, in search order, each fate true of its layout") {
    // 480 sequences: dp x micro-batch of 64 or more leaves it undivided.
    const Config base = config_for(*engine::find_model("llama-2-70b"), 64);
    const PlanResult r = engine::plan(base, {3, 480, 4});
    REQUIRE(r.best.size() == 3);
    std::map<engine::PlanFate, int> per_fate;
    long long last = -1;
    for (const engine::PlanSample& s : r.sample) {
        ++per_fate[s.fate];
        CHECK(s.entry.order >= last);
        last = s.entry.order;
        const engine::Parallel& p = s.entry.config.layout;
        switch (s.fate) {
            case engine::PlanFate::no_divide:
                CHECK(480 % (p.dp() * s.entry.config.training.micro_batch) != 0);
                break;
            case engine::PlanFate::no_fit:
                CHECK_FALSE(s.entry.report.per_gpu.fits);
                break;
            case engine::PlanFate::slower:
                CHECK(s.entry.report.per_gpu.fits);
                CHECK(s.entry.report.step.seconds >= r.best.back().report.step.seconds);
                break;
            case engine::PlanFate::ranked:
                CHECK(std::any_of(r.best.begin(), r.best.end(),
                                  [&](const PlanEntry& b) { return b.config == s.entry.config; }));
                break;
        }
    }
    for (auto fate :
         {engine::PlanFate::no_divide, engine::PlanFate::no_fit, engine::PlanFate::slower}) {
        CHECK(per_fate[fate] >= 1);
        CHECK(per_fate[fate] <= 4);
    }
    CHECK(per_fate[engine::PlanFate::ranked] == 3);
    // Deterministic, and a sample does not change what the planner finds.
    const PlanResult again = engine::plan(base, {3, 480, 4});
    REQUIRE(again.sample.size() == r.sample.size());
    for (std::size_t i = 0; i < r.sample.size(); ++i)
        CHECK(again.sample[i].entry.config == r.sample[i].entry.config);
    const PlanResult plain = engine::plan(base, {3, 480});
    CHECK(plain.sample.empty());
    CHECK(plain.considered == r.considered);
    CHECK(plain.best.front().config == r.best.front().config);
}
