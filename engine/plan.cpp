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

const char* const kBatchReason = "the global batch does not split into dp x micro-batch size";
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

bool faster(const PlanEntry& a, const PlanEntry& b) {
    if (a.report.step.seconds != b.report.step.seconds)
        return a.report.step.seconds < b.report.step.seconds;
    return a.report.per_gpu.total.value < b.report.per_gpu.total.value;
}

class Search {
  public:
    Search(const Config& base, const PlanOptions& o, PlanResult& r) : base_(base), o_(o), r_(r) {}

    void run() {
        const Cluster& cl = base_.cluster;
        const int heads = std::gcd(base_.model.heads, base_.model.kv_heads);
        const int gpus = base_.layout.gpus;
        for (int tp : divisors_up_to(std::gcd(gpus, cl.gpus_per_node), cl.gpus_per_node)) {
            if (heads % tp != 0) continue;
            for (int pp : divisors_up_to(gpus / tp, base_.model.layers)) by_batch(tp, pp);
        }
    }

    std::vector<PlanEntry> fits;

  private:
    void by_batch(int tp, int pp) {
        Config c = base_;
        c.layout.tp = tp;
        c.layout.pp = pp;
        c.training.sequence_parallel = tp > 1;
        const int dp = c.layout.dp();
        for (int size : kMicroBatchSizes) {
            c.training.micro_batch = size;
            const long long per_step = 1LL * dp * size;
            if (o_.global_batch % per_step != 0) {
                reject(kBatchReason, variants(c));
                continue;
            }
            c.training.micro_batches = int(o_.global_batch / per_step);
            by_memory(c);
        }
    }

    // The layouts sharing tp, pp and the batch split: ZeRO stage x recompute x schedule.
    long long variants(const Config& c) const {
        const long long zeros = c.layout.dp() > 1 ? 4 : 1;
        return zeros * std::size(kRecomputes) * (long long)schedules(c).size();
    }

    void by_memory(Config c) {
        const int zeros = c.layout.dp() > 1 ? 3 : 0;
        for (int zero = 0; zero <= zeros; ++zero) {
            c.layout.zero = zero;
            for (Recompute rc : kRecomputes) {
                c.training.recompute = rc;
                for (auto [kind, chunks] : schedules(c)) {
                    c.training.schedule = kind;
                    c.training.chunks = chunks;
                    consider(c);
                }
            }
        }
    }

    void consider(const Config& c) {
        if (!validate(c).empty()) return;  // not a layout (DualPipe's odd pp, say)
        ++r_.considered;
        PlanEntry e{c, analyze(c)};
        if (!r_.leanest || e.report.per_gpu.total.value < r_.leanest->report.per_gpu.total.value)
            r_.leanest = e;
        if (!e.report.per_gpu.fits) {
            reject(kMemoryReason, 1);
            return;
        }
        fits.push_back(std::move(e));
    }

    void reject(const std::string& reason, long long n) {
        r_.rejected[reason] += n;
        if (reason == kBatchReason) r_.considered += n;
    }

    const Config& base_;
    const PlanOptions& o_;
    PlanResult& r_;
};

PlanResult search(const Config& base, const PlanOptions& o) {
    PlanResult r;
    Search s(base, o, r);
    s.run();
    r.feasible = (long long)s.fits.size();
    const auto top = std::min<std::size_t>(std::max(o.top, 0), s.fits.size());
    std::partial_sort(s.fits.begin(), s.fits.begin() + long(top), s.fits.end(), faster);
    r.best.assign(s.fits.begin(), s.fits.begin() + long(top));
    return r;
}

}  // namespace

PlanResult plan(const Config& base, const PlanOptions& options) {
    PlanResult r = search(base, options);
    if (r.feasible > 0) return r;
    for (int k = 2; k <= kMaxGpuGrowth && r.gpus_that_fit == 0; k *= 2) {
        Config more = base;
        more.layout.gpus = base.layout.gpus * k;
        if (search(more, {0, options.global_batch}).feasible > 0)
            r.gpus_that_fit = more.layout.gpus;
    }
    return r;
}

}  // namespace engine
