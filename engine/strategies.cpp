// Layouts for the side-by-side comparison of strategies on one cluster.
#include "engine/strategies.hpp"

#include <numeric>

#include "engine/memory.hpp"

namespace engine {
namespace {

// The largest divisor of n that is <= cap and satisfies ok(d).
template <class Ok>
int largest_divisor(int n, int cap, Ok ok) {
    for (int d = std::min(n, cap); d > 1; --d)
        if (n % d == 0 && ok(d)) return d;
    return 1;
}

// Interleaving needs layer and micro-batch counts the new pipeline may not divide; the
// comparison then falls back to 1F1B, which has the same memory and a bubble it states.
Config with_layout(const Config& base, Parallel p) {
    Config c = base;
    c.layout = p;
    if (!validate(c).empty()) {
        c.training.schedule = Schedule::one_f_one_b;
        c.training.chunks = 1;
    }
    return c;
}

// The 3D row's layout with tp x pp: the base's context-parallel degree where tp x cp still divides
// the GPUs, and its expert-parallel degree where it divides the data-parallel one (the experts it
// already divides), so a storyboard's cp and ep show up in the comparison as a 4D or 5D row.
Parallel split(const Config& base, int tp, int pp) {
    Parallel p{base.layout.gpus, tp, pp, 1};
    const Parallel& b = base.layout;
    if (b.cp > 1 && p.gpus % (tp * pp * b.cp) == 0) {
        p.cp = b.cp;
        p.cp_mode = b.cp_mode;
    }
    if (b.ep > 1 && p.dp() % b.ep == 0) p.ep = b.ep;
    // ZeRO-1 shards the optimizer over the replicas; with one there is nothing to shard, and the
    // row would name a stage that does nothing.
    if (p.replicas() == 1) p.zero = 0;
    return p;
}

Config three_d(const Config& base) {
    const int n = base.layout.gpus, t = node_tp_degree(base);
    const int rest = n / (t * split(base, t, 1).cp);
    Config last = with_layout(base, split(base, t, 1));
    // Narayanan et al. 2021: TP inside a node, the fewest pipeline stages that fit, DP outside.
    for (int p = rest >= 2 ? 2 : 1; p <= rest && p <= base.model.layers; ++p) {
        if (rest % p != 0) continue;
        last = with_layout(base, split(base, t, p));
        if (per_gpu_memory(last).fits) break;
    }
    return last;
}

}  // namespace

std::string_view to_string(Strategy s) {
    switch (s) {
        case Strategy::dp:
            return "DP";
        case Strategy::zero1:
            return "ZeRO-1";
        case Strategy::zero2:
            return "ZeRO-2";
        case Strategy::fsdp:
            return "FSDP (ZeRO-3)";
        case Strategy::tp:
            return "TP";
        case Strategy::pp:
            return "PP";
        case Strategy::three_d:
            return "3D";
    }
    return "";
}

int node_tp_degree(const Config& base) {
    const int heads = std::gcd(base.model.heads, base.model.kv_heads);
    return largest_divisor(std::gcd(base.layout.gpus, base.cluster.gpus_per_node),
                           base.cluster.gpus_per_node, [&](int d) { return heads % d == 0; });
}

std::vector<StrategyConfig> strategy_configs(const Config& base) {
    const int n = base.layout.gpus;
    const int pp = largest_divisor(n, base.model.layers, [](int) { return true; });
    return {
        {Strategy::dp, with_layout(base, {n, 1, 1, 0})},
        {Strategy::zero1, with_layout(base, {n, 1, 1, 1})},
        {Strategy::zero2, with_layout(base, {n, 1, 1, 2})},
        {Strategy::fsdp, with_layout(base, {n, 1, 1, 3})},
        {Strategy::tp, with_layout(base, {n, node_tp_degree(base), 1, 0})},
        {Strategy::pp, with_layout(base, {n, 1, pp, 0})},
        {Strategy::three_d, three_d(base)},
    };
}

}  // namespace engine
