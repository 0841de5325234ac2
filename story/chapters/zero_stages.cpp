// `zero_stages`: ZeRO, stage by stage. The same data-parallel cards; each `set: {zero: k}` morph
// shards one more part of every card's stack (optimizer state, then gradients, then weights):
// the part falls to its 1/N slice while the rest fades out, and a table reads out the per-card
// model states of each stage and the reduction against plain data parallelism (ZeRO Table 1).
#include <algorithm>
#include <array>
#include <cmath>

#include "engine/memory.hpp"
#include "story/chapter_base.hpp"
#include "story/format.hpp"
#include "story/shard_kit.hpp"
#include "story/strategy_kit.hpp"
#include "story/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
constexpr double kCardsAt = 0.3, kTableAt = 1.2;
constexpr int kMaxCards = 8;
// Cards on the left, the stage table on the right.
constexpr double kCardsLeft = frame::kLeft, kCardsRight = 1180, kCardsTop = 300, kCardH = 540;
constexpr double kTableLeft = 1250, kTableRight = frame::kRight - 20, kRowTop = 370,
                 kRowStep = 108;  // row frames stay in the safe area
constexpr double kMaxSpill = 0.12;

const std::array<const char*, 4> kStageName{"Plain DP", "ZeRO-1", "ZeRO-2", "ZeRO-3"};
const std::array<const char*, 4> kStageSharded{"nothing sharded", "optimizer state sharded",
                                               "+ gradients sharded", "+ weights sharded"};

// Per-card model states (weights + gradients + optimizer) at each ZeRO stage, for one config.
std::array<double, 4> states_by_stage(engine::Config c) {
    std::array<double, 4> out{};
    for (int z = 0; z < 4; ++z) {
        c.layout.zero = z;
        const engine::PerGpu g = engine::per_gpu_memory(c);
        out[z] = (g.weights + g.gradients + g.optimizer).value;
    }
    return out;
}

class ZeroChapter final : public ChapterBase {
  public:
    ZeroChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics) {
        for (const engine::Config& c : timeline_.states()) stages_.push_back(states_by_stage(c));
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_cards(s, t, m);
        add_table(s, t, m);
        add_legend(s, palette_, metrics_, kCardsLeft, 900,
                   {{"Weights", palette_.weights},
                    {"Gradients", palette_.gradients},
                    {"Optimizer state", palette_.optimizer},
                    {"Activations", palette_.activations}},
                   progress(t, at(kCardsAt) + 0.4, 0.5));
        const TextStyle note{frame::kLabelSize, Weight::regular, false};
        s.add(
            Text{kTableLeft, 900,
                 "Dashed line: " + format_bytes(report_at(t).per_gpu.capacity.value) + " per card",
                 note, palette_.muted},
            progress(t, at(kCardsAt) + 0.4, 0.5));
        add_frame(s, t);
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }
    int gpus(int state) const { return timeline_.states()[state].layout.gpus; }
    int zero(int state) const { return timeline_.states()[state].layout.zero; }

    // A part of the stack during a morph: what stays (solid) and what leaves (a fading ghost that
    // first dims where it was, then collapses so the stack above settles).
    void add_part(std::vector<MemorySegment>& stack, double from, double to, double u,
                  Color c) const {
        if (to >= from) {
            stack.push_back({lerp(from, to, u), c});
            return;
        }
        stack.push_back({to, c});
        const double dim = std::min(1.0, u / 0.5), collapse = progress(u, 0.5, 0.5);
        stack.push_back({(from - to) * (1 - collapse), with_alpha(c, 1 - 0.75 * dim)});
    }

    std::vector<MemorySegment> stack_at(const Morph& m) const {
        const engine::PerGpu& a = reports_[m.from].per_gpu;
        const engine::PerGpu& b = reports_[m.to].per_gpu;
        std::vector<MemorySegment> stack;
        add_part(stack, a.weights.value, b.weights.value, m.u, palette_.weights);
        add_part(stack, a.gradients.value, b.gradients.value, m.u, palette_.gradients);
        add_part(stack, a.optimizer.value, b.optimizer.value, m.u, palette_.optimizer);
        add_part(stack, a.activations.value, b.activations.value, m.u, palette_.activations);
        return stack;
    }

    void add_cards(Scene& s, double t, const Morph& m) const {
        const auto from = shown_ranks(gpus(m.from), kMaxCards),
                   to = shown_ranks(gpus(m.to), kMaxCards);
        const auto stack = stack_at(m);
        const double capacity = report_at(t).per_gpu.capacity.value;
        const int slots = static_cast<int>(std::max(from.size(), to.size()));
        for (int i = 0; i < slots; ++i) {
            const int a = i < static_cast<int>(from.size()) ? from[i] : -2;
            const int b = i < static_cast<int>(to.size()) ? to[i] : -2;
            const double enter = progress(t, at(kCardsAt) + 0.08 * i, 0.5);
            const Box box = row_box(slots, i, kCardsLeft, kCardsRight, kCardsTop, kCardH, 200, 16);
            if (a == b) {
                add_slot(s, box, a, stack, capacity, enter);
            } else {
                // Out, then in: two labels never share the slot at full strength.
                add_slot(s, box, a, stack, capacity,
                         enter * (1 - std::clamp(m.u / 0.45, 0.0, 1.0)));
                add_slot(s, box, b, stack, capacity,
                         enter * std::clamp((m.u - 0.55) / 0.45, 0.0, 1.0));
            }
        }
    }

    // One slot of the row: a card, or the gap standing for the ranks not drawn.
    void add_slot(Scene& s, const Box& b, int rank, const std::vector<MemorySegment>& stack,
                  double capacity, double alpha) const {
        if (alpha <= 0 || rank == -2) return;
        if (rank == -1) {
            const TextStyle dots{frame::kHeadingSize, Weight::semibold, false};
            s.add(Text{b.cx(), b.cy(), "…", dots, palette_.muted, Align::center}, alpha);
            return;
        }
        CardSpec card{b.x, b.y, b.w, b.h, "GPU " + std::to_string(rank), capacity, stack};
        card.capacity_label = rank == 0;
        card.label_size = b.w < 130 ? 22 : 26;
        card.max_spill = kMaxSpill;
        auto items = gpu_card(palette_, metrics_, card);
        add_all(s,
                rank == 0 ? std::move(items) : without_spill_label(std::move(items), palette_.comm),
                alpha);
    }

    // Rows appear as their stage is reached; the current one is outlined.
    void add_table(Scene& s, double t, const Morph& m) const {
        const double in = progress(t, at(kTableAt), 0.5);
        if (in <= 0) return;
        const TextStyle head{frame::kLabelSize, Weight::medium, false};
        s.add(Text{kTableLeft, kRowTop - 70, "Model states per card", head, palette_.muted}, in);
        s.add(Text{kTableRight, kRowTop - 70, "vs plain DP", head, palette_.muted, Align::right},
              in);
        const int reached_from = zero(m.from), reached_to = zero(m.to);
        for (int z = 0; z < 4; ++z) {
            double alpha = in;
            if (z > std::max(reached_from, reached_to)) continue;
            if (z > reached_from) alpha *= m.u;
            if (z > reached_to) alpha *= 1 - m.u;
            const double current = z == reached_to ? (z == reached_from ? 1.0 : m.u)
                                                   : (z == reached_from ? 1 - m.u : 0);
            add_row(s, z, m, alpha, current);
        }
    }

    void add_row(Scene& s, int z, const Morph& m, double alpha, double current) const {
        const double y = kRowTop + z * kRowStep;
        if (current > 0)
            s.add(Rect{kTableLeft - 20, y - 46, kTableRight - kTableLeft + 40, 96, 10,
                       palette_.panel, palette_.highlight, 2},
                  alpha * current);
        const double states = lerp(stages_[m.from][z], stages_[m.to][z], m.u);
        const double dp = lerp(stages_[m.from][0], stages_[m.to][0], m.u);
        const TextStyle name{frame::kBodySize, Weight::semibold, false};
        const TextStyle note{frame::kLabelSize, Weight::regular, false};
        const TextStyle value{frame::kBodySize, Weight::semibold, true};
        s.add(Text{kTableLeft, y, kStageName[z], name, palette_.text}, alpha);
        s.add(Text{kTableLeft, y + 34, kStageSharded[z], note, palette_.muted}, alpha);
        s.add(Text{kTableRight - 150, y, format_bytes(states), value, palette_.text, Align::right},
              alpha);
        s.add(Text{kTableRight, y, format_sig3(dp / states) + "×", value, palette_.highlight,
                   Align::right},
              alpha);
    }

    std::vector<std::array<double, 4>> stages_;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<ZeroChapter>(spec, video, metrics);
}

const KindRegistrar registrar{
    {"zero_stages", kDefaultDuration, {"zero", "gpus", "model", "precision"}, make}};

}  // namespace

}  // namespace story
