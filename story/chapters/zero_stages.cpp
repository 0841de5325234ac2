// `zero_stages`: ZeRO, stage by stage. The same data-parallel cards; each `set: {zero: k}` morph
// shards one more part of every card's stack (optimizer state, then gradients, then weights):
// the part falls to its 1/N slice while the rest fades out, and a table reads out the per-card
// model states of each stage and the reduction against plain data parallelism (ZeRO Table 1).
#include <algorithm>
#include <array>

#include "engine/memory.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cards.hpp"
#include "story/vocab/loaf.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
constexpr int kStages = 4;
// Choreography, in seconds of the default duration.
constexpr double kCardsAt = 0.3, kTableAt = 1.2, kKeyAt = 0.7;
// A slot whose rank changes while N morphs: the old card leaves over the first kSwapFor of the
// morph, the new one arrives over the last, so two names never share the slot at full strength.
constexpr double kSwapFor = 0.45, kSwapInAt = 1 - kSwapFor;
// A part that shrinks dims over the first half of its morph, then collapses over the second.
constexpr double kDimFor = 0.5, kGhostDim = 0.75;

// Cards on the left, the stage table on the right, their keys' line kKeyGap under the cards.
// Under each card, kLoafGap below it, the model's loaf as the card holds it (story/vocab/loaf.hpp):
// kLoafH tall, kLoafInset in from the card's sides.
constexpr int kMaxCards = 8;
constexpr double kCardsRight = 1180, kLoafGap = 14, kLoafH = 96, kLoafInset = 8;
constexpr Box kCards{frame::kLeft, 300, kCardsRight - frame::kLeft, 540};  // cards and loaves
constexpr double kCardGap = 16, kMaxCardW = 200, kMaxSpill = 0.12;
constexpr double kKeyGap = 35;
// The table: a header line from kHeaderTop, then kHeaderGap under it one framed row per stage
// (frames stay in the safe area): a row's name over its note centred in it, its figures on the
// name's line at the right.
constexpr double kTableLeft = 1250, kTableRight = frame::kRight - 20;
constexpr double kHeaderTop = 275, kHeaderGap = 18, kFramePad = 20, kRowH = 96, kRowGap = 12;
constexpr double kBytesColumn = 150, kRowRadius = 10, kRowStroke = 2;

const std::array<const char*, kStages> kStageName{N_("Plain DP"), "ZeRO-1", "ZeRO-2", "ZeRO-3"};
const std::array<const char*, kStages> kStageSharded{
    N_("nothing sharded"), N_("optimizer state sharded"), N_("+ gradients sharded"),
    N_("+ weights sharded")};

const TextStyle kStageStyle = weighted(style_of(Role::body), Weight::semibold);
const TextStyle kFigureStyle = tabular(kStageStyle);
const TextStyle kHeaderStyle = style_of(Role::label);

// Per-card model states (weights + gradients + optimizer) at ZeRO stage z, for one config.
double model_states(engine::Config c, int z) {
    c.layout.zero = z;
    const engine::PerGpu g = engine::per_gpu_memory(c);
    return (g.weights + g.gradients + g.optimizer).value;
}

class ZeroChapter final : public ChapterBase {
  public:
    ZeroChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          cards_in_{at(kCardsAt)},
          key_in_(Fade::in(at(kKeyAt))),
          table_in_(Fade::in(at(kTableAt))),
          header_(metrics_, kTableLeft, kHeaderTop),
          key_(metrics_, kCards.x, kCards.bottom() + kKeyGap) {
        header_.line(tr("Model states per card"), kHeaderStyle, palette_.muted);
        key_.line("key", Role::note, palette_.muted);
        for (const engine::Config& c : timeline_.states()) {
            for (int z = 0; z < kStages; ++z) states_[z].push_back(model_states(c, z));
            ranks_.push_back(shown_ranks(c.layout.gpus, kMaxCards));
        }
        const Box cards = top_of(kCards, kCards.h - kLoafGap - kLoafH);
        for (int n = 0; n <= kMaxCards; ++n) {
            rows_of_.emplace_back();
            for (int i = 0; i < n; ++i)
                rows_of_.back().push_back(row_cell(cards, n, i, kCardGap, kMaxCardW));
        }
        const Box rows{kTableLeft - kFramePad, header_.bottom() + kHeaderGap,
                       kTableRight - kTableLeft + 2 * kFramePad,
                       kStages * kRowH + (kStages - 1) * kRowGap};
        for (int z = 0; z < kStages; ++z) rows_.push_back(column_cell(rows, kStages, z, kRowGap));
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_cards(s, t, m);
        add_table(s, t, m);
        add_legend(s, palette_, metrics_, kCards.x, key_.baseline(), memory_legend(),
                   key_in_.at(t));
        s.add(Text{kTableLeft, key_.baseline(),
                   tr("Dashed line: {bytes} per card",
                      {{"bytes", format_bytes(report_at(t).per_gpu.capacity.value, locale_)}}),
                   style_of(Role::note), palette_.muted},
              key_in_.at(t));
        add_frame(s, t);
        return s;
    }

  private:
    int zero(int state) const { return timeline_.states()[state].layout.zero; }

    // A part of the stack during a morph: what stays (solid) and what leaves (a fading ghost that
    // first dims where it was, then collapses so the stack above settles).
    static void add_part(std::vector<MemorySegment>& stack, double from, double to, double u,
                         Color c) {
        if (to >= from) {
            stack.push_back({lerp(from, to, u), c});
            return;
        }
        stack.push_back({to, c});
        const double dim = within(u, 0, kDimFor), collapse = progress(u, kDimFor, 1 - kDimFor);
        stack.push_back({(from - to) * (1 - collapse), with_alpha(c, 1 - kGhostDim * dim)});
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

    // Slot i of a row changes rank when N morphs: the old one leaves, then the new one arrives.
    void add_cards(Scene& s, double t, const Morph& m) const {
        const std::vector<int>&from = ranks_[m.from], &to = ranks_[m.to];
        const auto stack = stack_at(m);
        const double capacity = report_at(t).per_gpu.capacity.value;
        const auto& row = rows_of_[std::max(from.size(), to.size())];
        for (std::size_t i = 0; i < row.size(); ++i) {
            const double enter = cards_in_.at(t, static_cast<int>(i));
            const bool in_from = i < from.size(), in_to = i < to.size();
            if (in_from && in_to && from[i] == to[i]) {
                add_slot(s, t, row[i], from[i], stack, capacity, enter);
                continue;
            }
            if (in_from)
                add_slot(s, t, row[i], from[i], stack, capacity,
                         enter * (1 - within(m.u, 0, kSwapFor)));
            if (in_to)
                add_slot(s, t, row[i], to[i], stack, capacity,
                         enter * within(m.u, kSwapInAt, kSwapFor));
        }
    }

    // One slot of the row: a card (the first one labels capacity and overflow), or the gap.
    void add_slot(Scene& s, double t, const Box& b, int rank,
                  const std::vector<MemorySegment>& stack, double capacity, double alpha) const {
        if (alpha <= 0) return;
        if (rank == kGapRank) {
            s.add(gap_mark(b, palette_.muted), alpha);
            return;
        }
        CardSpec card{b.x, b.y, b.w, b.h, tr("GPU {n}", {{"n", rank}}), capacity, stack};
        card.capacity_label = rank == 0;
        card.label_size = card_label_size(b.w);
        card.max_spill = kMaxSpill;
        const engine::PerGpu& shown = report_at(t).per_gpu;  // the ghosts collapse; figures snap
        card.over_label = shown.total.value - capacity;
        auto items = gpu_card(palette_, metrics_, locale_, card);
        add_items(s,
                  rank == 0 ? std::move(items)
                            : without_spill_label(std::move(items), palette_.highlight),
                  alpha);
        add_loaf_under(s, t, b, rank, alpha);
    }

    // Under the card the model's loaf: whole under plain DP, then every slice cut into one piece
    // per card, the card's own in the colours of what the stage shards (the shown state's).
    void add_loaf_under(Scene& s, double t, const Box& card, int rank, double alpha) const {
        const int k = timeline_.morph_at(t).shown();
        const engine::Parallel& l = timeline_.states()[k].layout;
        const int shards = std::max(1, l.zero_shards());
        const Box loaf{card.x + kLoafInset, card.bottom() + kLoafGap, card.w - 2 * kLoafInset,
                       kLoafH};
        add_loaf(s, palette_, loaf, zero_cut(slices_[k], shards, l.zero),
                 zero_paint(palette_, rank % shards, l.zero), alpha);
    }

    // Rows appear as their stage is reached; the current one is outlined.
    void add_table(Scene& s, double t, const Morph& m) const {
        const double in = table_in_.at(t);
        if (in <= 0) return;
        header_.add_to(s, in);
        s.add(Text{kTableRight, header_.baseline(), tr("vs plain DP"), kHeaderStyle, palette_.muted,
                   Align::right},
              in);
        const int reached_from = zero(m.from), reached_to = zero(m.to);
        for (int z = 0; z <= std::max(reached_from, reached_to); ++z) {
            double alpha = in;
            if (z > reached_from) alpha *= m.u;
            if (z > reached_to) alpha *= 1 - m.u;
            const double current = z == reached_to ? (z == reached_from ? 1.0 : m.u)
                                                   : (z == reached_from ? 1 - m.u : 0);
            add_row(s, z, m, alpha, current);
        }
    }

    void add_row(Scene& s, int z, const Morph& m, double alpha, double current) const {
        const Box& row = rows_[z];
        if (current > 0)
            s.add(filled(row, kRowRadius, palette_.panel, palette_.highlight, kRowStroke),
                  alpha * current);
        TextColumn text(metrics_, kTableLeft, 0);
        text.line(tr(kStageName[z]), kStageStyle, palette_.text)
            .line(tr(kStageSharded[z]), Role::note, palette_.muted)
            .centre_on(row.cy());
        text.add_to(s, alpha);
        const double y = text.baseline();
        const double states = morphed(m, states_[z]), dp = morphed(m, states_[0]);
        s.add(Text{kTableRight - kBytesColumn, y, format_bytes(states, locale_), kFigureStyle,
                   palette_.text, Align::right},
              alpha);
        s.add(Text{kTableRight, y, format_sig3(dp / states, locale_) + "×", kFigureStyle,
                   palette_.highlight, Align::right},
              alpha);
        if (z > 0)
            s.add(Text{kTableRight, text.baseline(1), limit_note(z, m), style_of(Role::note),
                       palette_.muted, Align::right},
                  alpha);
    }

    // What stage z saves as the cards grow (ZeRO's Figure 1): stage 1 at most the model states
    // over the weights and gradients (4x with Adam's 16 bytes), stage 2 over the weights alone
    // (8x); stage 3 saves as many times as there are cards, without a limit of its own.
    std::string limit_note(int z, const Morph& m) const {
        if (z == 3) return tr("limit: the card count");
        const engine::BytesPerParam b = reports_[m.shown()].bytes_per_param;
        const double kept = z == 1 ? b.weights + b.gradients : b.weights;
        return tr("limit {x}×", {{"x", format_sig3(b.total() / kept, locale_)}});
    }

    const Stagger cards_in_;
    const Fade key_in_, table_in_;
    std::array<std::vector<double>, kStages> states_;  // [stage][state]
    std::vector<std::vector<int>> ranks_;              // shown ranks of each state's row
    const std::vector<int> slices_ = loaf_slices(timeline_.states());  // each state's loaf
    std::vector<std::vector<Box>> rows_of_;  // a row of n card slots, by n
    std::vector<Box> rows_;                  // the table's stage rows
    TextColumn header_, key_;  // the table's header line; the keys' line under the cards
};

const KindRegistrar registrar{{
    .name = "zero_stages",
    .default_duration = kDefaultDuration,
    .settable = {"zero", "gpus", "model", "precision"},
    .make = make_of<ZeroChapter>,
    .shows = "optimizer state, then gradients, then weights sharded, each a morph; under each "
             "card the model's loaf, whole under plain DP, then each slice cut across the cards "
             "with the card's own piece in the colours of the sharded parts; model "
             "states per card and the reduction against plain DP (ZeRO Table 1's figures at "
             "64 cards), with the limit each stage approaches as the cards grow (4x, 8x)",
    .goldens = {{"chapter_zero_stages", 16.5, "ZeRO-3 reached, the table complete"}},
    .phases = {{"cards", kCardsAt, "the cards, each with its model states and its loaf"},
               {"table", kTableAt, "the table of stages, per card"}},
    .facts = {.rows = {rows::zero, rows::weights, rows::gradients, rows::optimizer, rows::memory,
                       rows::fits},
              .formulas = {formulas::memory}},
}};

}  // namespace

}  // namespace story
