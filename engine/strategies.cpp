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

Config three_d(const Config& base) {
    const int n = base.layout.gpus, t = node_tp_degree(base), rest = n / t;
    Config last = with_layout(base, {n, t, 1, 1});
    // Narayanan et al. 2021: TP inside a node, the fewest pipeline stages that fit, DP outside.
    for (int p = rest >= 2 ? 2 : 1; p <= rest && p <= base.model.layers; ++p) {
        if (rest % p != 0) continue;
        last = with_layout(base, {n, t, p, 1});
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
