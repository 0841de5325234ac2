// The planner: enumerates layouts, keeps those that fit, ranks them by step time; see plan.hpp.
#include "engine/plan.hpp"

#include <algorithm>
#include <numeric>

namespace engine {
namespace {

constexpr int kMicroBatchSizes[] = {1, 2, 4, 8};
constexpr Recompute kRecomputes[] = {Recompute::none, Recompute::selective, Recompute::full};
constexpr int kMaxChunks = 8;      // virtual stages per GPU tried with the interleaved schedule
constexpr int kMaxGpuGrowth = 64;  // how far the shortfall search multiplies the GPUs

const char* const kMemoryReason = "does not fit in the GPU's memory";

std::vector<int> divisors_up_to(int n, int most) {
    std::vector<int> out;
    for (int d = 1; d <= std::min(n, most); ++d)
        if (n % d == 0) out.push_back(d);
    return out;
}

// The schedules worth trying for one pipeline depth: none matters without a pipeline; 1F1B, the
// zero-bubble ones and DualPipe, and every interleaving the layers and micro-batches allow
// (Narayanan et al. 2021, section 2.2). Those whose constraints the layout misses are dropped by
// validate, uncounted.
std::vector<std::pair<Schedule, int>> schedules(const Config& c) {
    const int pp = c.layout.pp;
    if (pp == 1) return {{Schedule::one_f_one_b, 1}};
    std::vector<std::pair<Schedule, int>> out = {{Schedule::one_f_one_b, 1},
                                                 {Schedule::zb_h1, 1},
                                                 {Schedule::zb_h2, 1},
                                                 {Schedule::dualpipe, 1}};
    if (c.training.micro_batches % pp != 0) return out;
    for (int v = 2; v <= kMaxChunks; ++v)
        if (c.model.layers % (pp * v) == 0) out.push_back({Schedule::interleaved, v});
    return out;
}

// How far a layout is from fitting: the larger of its expected peak and its host memory over what
// each holds (at most 1 when it fits).
double overcommit(const PerGpu& g) {
    return std::max(g.expected.total.value / g.capacity.value,
                    g.host.value / g.host_capacity.value);
}

// Faster first; at the same step time the one holding less on the GPU, then on the host, then
// the first found: a total order, so every build ranks ties alike whatever its standard
// library's partial_sort does with equal elements (the calculator's WebAssembly, libc++, and
// the command line's libstdc++ once ranked two offloading twins apart).
bool faster(const PlanEntry& a, const PlanEntry& b) {
    const Report &x = a.report, &y = b.report;
    if (x.step.seconds != y.step.seconds) return x.step.seconds < y.step.seconds;
    if (x.per_gpu.expected.total != y.per_gpu.expected.total)
        return x.per_gpu.expected.total < y.per_gpu.expected.total;
    if (x.per_gpu.host != y.per_gpu.host) return x.per_gpu.host < y.per_gpu.host;
    return a.order < b.order;
}

// Context parallelism splits a sequence: tried at powers of two while each rank keeps at least
// kMinCpTokens of it (Llama 3 turned it on for long contexts only, Dubey et al. 2024, 3.3.2).
constexpr int kMaxCp = 16, kMinCpTokens = 4096;

// At most `cap` of a stream, spread evenly over it: every stride-th item, the stride doubling
// (and every other item kept dropped) when the list overflows. Deterministic. An item is made
// only when kept, so a search without a sample copies nothing.
class Spread {
  public:
    explicit Spread(int cap) : cap_(cap) {}
    template <class Make>
    void offer(Make make) {
        if (cap_ <= 0 || seen_++ % stride_ != 0) return;
        kept_.push_back(make());
        if (static_cast<int>(kept_.size()) <= cap_) return;
        std::vector<PlanSample> half;
        for (std::size_t i = 0; i < kept_.size(); i += 2) half.push_back(kept_[i]);
        kept_.swap(half);
        stride_ *= 2;
    }
    const std::vector<PlanSample>& kept() const { return kept_; }

  private:
    int cap_;
    long long seen_ = 0, stride_ = 1;
    std::vector<PlanSample> kept_;
};

class Search {
  public:
    Search(const Config& base, const PlanOptions& o, PlanResult& r)
        : no_divide(o.sample), no_fit(o.sample), base_(base), o_(o), r_(r) {}

    void run() {
        const Cluster& cl = base_.cluster;
        const int heads = std::gcd(base_.model.heads, base_.model.kv_heads);
        const int gpus = base_.layout.gpus;
        for (int tp : divisors_up_to(std::gcd(gpus, cl.gpus_per_node), cl.gpus_per_node)) {
            if (heads % tp != 0) continue;
            for (int pp : divisors_up_to(gpus / tp, base_.model.layers)) {
                for (int cp = 1; cp <= kMaxCp && (gpus / (tp * pp)) % cp == 0; cp *= 2) {
                    if (cp > 1 && base_.training.seq_len / cp < kMinCpTokens) break;
                    by_batch(tp, pp, cp);
                }
            }
        }
    }

    std::vector<PlanEntry> fits;
    Spread no_divide, no_fit;

  private:
    void by_batch(int tp, int pp, int cp) {
        Config c = base_;
        c.layout.tp = tp;
        c.layout.pp = pp;
        c.layout.cp = cp;
        c.training.sequence_parallel = tp > 1;
        for (int size : kMicroBatchSizes) {
            c.training.micro_batch = size;
            if (set_global_batch(c, o_.global_batch)) {
                no_divide.offer([&] {
                    return PlanSample{PlanFate::no_divide, {c, {}, r_.considered}};
                });
                ++r_.batch_splits_dropped;
                continue;
            }
            by_memory(c);
        }
    }

    // ZeRO stage x recompute x schedule x expert parallelism x hybrid sharding.
    void by_memory(Config c) {
        const int zeros = c.layout.replicas() > 1 ? 3 : 0;
        for (int zero = 0; zero <= zeros; ++zero) {
            c.layout.zero = zero;
            for (Recompute rc : kRecomputes) {
                c.training.recompute = rc;
                for (auto [kind, chunks] : schedules(c)) {
                    c.training.schedule = kind;
                    c.training.chunks = chunks;
                    for (int ep : expert_degrees(c)) {
                        c.layout.ep = ep;
                        for (int shard : shard_groups(c)) {
                            c.layout.shard_group = shard;
                            consider(c);
                        }
                    }
                }
            }
        }
    }

    // Megatron-Core MoE: ep divides the data-parallel degree and the experts.
    static std::vector<int> expert_degrees(const Config& c) {
        if (c.model.experts == 0) return {1};
        const int most = std::gcd(c.layout.dp(), c.model.experts);
        return divisors_up_to(most, most);
    }

    // ZeRO-3 over all the replicas, or (Zhao et al. 2023, FSDP's HYBRID_SHARD) inside the
    // replicas one node holds, where the gathers stay on NVLink.
    static std::vector<int> shard_groups(const Config& c) {
        const Parallel& p = c.layout;
        const int per_node = c.cluster.gpus_per_node / std::max(p.tp * p.cp, 1);
        if (p.zero != 3 || per_node <= 1 || per_node >= p.replicas() ||
            p.replicas() % per_node != 0)
            return {0};
        return {0, per_node};
    }

    // Offloading only adds PCIe time in the cost model: tried where the GPU alone cannot hold
    // the layout, the optimizer first (ZeRO-Offload), then the parameters too (ZeRO-Infinity).
    void consider(Config c) {
        for (Offload o : {Offload::none, Offload::optimizer, Offload::optimizer_params}) {
            c.layout.offload = o;
            if (!validate(c).empty()) continue;  // not a layout (DualPipe's odd pp, say)
            ++r_.considered;
            PlanEntry e{c, analyze(c), r_.considered - 1};
            if (!r_.leanest ||
                overcommit(e.report.per_gpu) < overcommit(r_.leanest->report.per_gpu))
                r_.leanest = e;
            if (e.report.per_gpu.fits) {
                fits.push_back(std::move(e));
                return;
            }
            no_fit.offer([&] { return PlanSample{PlanFate::no_fit, e}; });
            ++r_.rejected[kMemoryReason];
        }
    }

    const Config& base_;
    const PlanOptions& o_;
    PlanResult& r_;
};

// The fates' samples in search order: the slower ones spread over the feasible layouts past the
// ranked few (s.fits[best.size()..], put back in search order), the ranked all of best.
std::vector<PlanSample> sample_of(const Search& s, const PlanResult& r, int cap) {
    std::vector<PlanSample> out = s.no_divide.kept();
    out.insert(out.end(), s.no_fit.kept().begin(), s.no_fit.kept().end());
    std::vector<PlanEntry> slower(s.fits.begin() + long(r.best.size()), s.fits.end());
    std::sort(slower.begin(), slower.end(),
              [](const PlanEntry& a, const PlanEntry& b) { return a.order < b.order; });
    Spread spread(cap);
    for (const PlanEntry& e : slower) spread.offer([&] { return PlanSample{PlanFate::slower, e}; });
    out.insert(out.end(), spread.kept().begin(), spread.kept().end());
    for (const PlanEntry& e : r.best) out.push_back({PlanFate::ranked, e});
    std::stable_sort(out.begin(), out.end(), [](const PlanSample& a, const PlanSample& b) {
        return a.entry.order < b.entry.order;
    });
    return out;
}

PlanResult search(const Config& base, const PlanOptions& o) {
    PlanResult r;
    Search s(base, o, r);
    s.run();
    r.feasible = (long long)s.fits.size();
    const auto top = std::min<std::size_t>(std::max(o.top, 0), s.fits.size());
    std::partial_sort(s.fits.begin(), s.fits.begin() + long(top), s.fits.end(), faster);
    r.best.assign(s.fits.begin(), s.fits.begin() + long(top));
    if (o.sample > 0) r.sample = sample_of(s, r, o.sample);
    return r;
}

}  // namespace

PlanResult plan(const Config& base, const PlanOptions& options) {
    PlanResult r = search(base, options);
    if (r.feasible > 0) return r;
    for (int k = 2; k <= kMaxGpuGrowth && r.gpus_that_fit == 0; k *= 2) {
        Config more = base;
        more.layout.gpus = base.layout.gpus * k;
        if (search(more, {0, options.global_batch, 0}).feasible > 0)
            r.gpus_that_fit = more.layout.gpus;
    }
    return r;
}

}  // namespace engine
