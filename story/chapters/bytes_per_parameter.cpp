// `bytes_per_parameter`: why a large model does not fit. The bytes one parameter costs build
// up (weights, gradients, optimizer state), the model's total pours into one card and spills
// over, then spreads across the cards needed just to hold it. `set:` morphs the model, the
// precision or the optimizer (its segment names it and holds the engine's bytes for it).
#include <algorithm>
#include <cmath>

#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/card_wall.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
// Choreography, in seconds of the default duration.
constexpr double kSegmentStart[3] = {0.8, 2.0, 3.2};
constexpr double kTotalAt = 4.4, kCardAt = 5.5, kFillAt = 6.1, kSpreadAt = 11.0;
// Not scaled: the heading's entrance, and offsets (s) from the times above.
constexpr double kHeadingAt = 0.3, kSegmentFor = 0.6, kLabelAfter = 0.2, kFillFor = 1.5;
constexpr double kSpreadFor = 1.0, kCardsAfterSpread = 0.8, kCardStep = 0.06, kCardFor = 0.4;
// Shares of the spread: the lone card's spill drains in the first half, the count fades in after.
constexpr double kDrainShare = 0.5;
// Shares of a `set:` that changes the card count, around its halfway (where the figures change,
// Morph::shown): a growing grid slides over the first kCardShare, then its new cards fade in by
// halfway; a shrinking one keeps its leaving cards until halfway, fades them over kCardShare,
// then slides. The cards named never outnumber the cards drawn.
constexpr double kCardShare = 0.25;

// Left column: bytes per parameter as a stacked bar, its labels beside it.
constexpr double kBarX = 150, kBarW = 150, kBarBottom = 860,
                 kPxPerByte = 24;  // 18 B (fp32 grads) still fits
constexpr double kLabelX = kBarX + kBarW + 28, kValueRight = 860;
constexpr double kMinLabelGap = 70;  // px between two segment labels' middles
// A segment label: its name over its detail, centred on the segment's middle, a swatch beside
// the name; the total's rule kRuleLift above its line, kTotalLift over the bar.
constexpr double kSwatch = 12, kSwatchGap = 22, kTotalLift = 24, kRuleLift = 46;
// The heading over the bar and, at its height on the right, the read-out: the headline, its
// note and the "N x 80 GB" line; then the cards: a grid standing on kGrid's bottom, at most
// kPerRow a row, each at most kMaxCard.
constexpr double kReadoutTop = 280, kRightX = 960, kRightW = frame::kRight - kRightX;
constexpr Box kGrid{kRightX, 450, kRightW, 410};
constexpr int kPerRow = 8;
constexpr double kCardGapX = 16, kCardGapY = 56, kNarrowCard = 150;
constexpr double kPerTileDrop = 36;  // the "each tile: N cards" line under a wall
constexpr Box kMaxCard{0, 0, 210, 400};
// Where the lone card stands before the state spreads over more cards.
constexpr Box kSingleCard{kRightX + (kRightW - 260) / 2, 540, 260, 320};
constexpr double kSingleSpill = 0.3;  // of its height: the overflow drawn above it

enum ReadoutLine { kHeadline, kNote, kNeeded };

const TextStyle kSegmentName = weighted(style_of(Role::label), Weight::semibold);
const TextStyle kNeededStyle = tabular(weighted(style_of(Role::body), Weight::semibold));

struct Segment {
    std::string name, detail;
    double bytes = 0;
    Color color;
};

std::string weight_dtype(engine::Precision p) {
    switch (p) {
        case engine::Precision::fp32:
            return "fp32";
        case engine::Precision::bf16_mixed:
            return "bf16";
        case engine::Precision::fp8_mixed:
            return "fp8";
    }
    return "";
}

// Up to two rows of named cards; more would be too small to read, and become a wall of tiles.
constexpr int kMostNamed = 2 * kPerRow;
// The card (or tile) drawn as a card from this height: the lone card on its way into a wall.
constexpr double kCardFromH = 120;
// What the grid draws for n cards: n named cards, or a wall's tiles.
int drawn(int n) { return n <= kMostNamed ? n : wall_of(n).tiles; }
int per_drawn(int n) { return n <= kMostNamed ? 1 : wall_of(n).per_tile; }

// The cards of a grid of n inside kGrid, at most kPerRow a row, the rows standing on its bottom;
// the tiles of a wall of n past kMostNamed (n as drawn(): a wall's tiles).
std::vector<Box> slots(int n) {
    std::vector<Box> out;
    out.reserve(std::max(n, 0));
    if (n > kMostNamed) {
        const WallGrid wall(kGrid, n);
        for (int i = 0; i < n; ++i) out.push_back(wall.tile(i));
        return out;
    }
    const int rows = (n + kPerRow - 1) / kPerRow, cols = (n + rows - 1) / std::max(rows, 1);
    const double h = std::min(kMaxCard.h, (kGrid.h - kCardGapY * (rows - 1)) / rows);
    const Box grid =
        align_in(kGrid, kGrid.w, rows * h + kCardGapY * (rows - 1), Align::left, VAlign::bottom);
    for (int i = 0; i < n; ++i)
        out.push_back(row_cell(column_cell(grid, rows, i / cols, kCardGapY), cols, i % cols,
                               kCardGapX, kMaxCard.w));
    return out;
}

// The slots of a morph's two ends, laid out once a frame.
struct Slots {
    std::vector<Box> from, to;
    int n_from() const { return int(from.size()); }
    int n_to() const { return int(to.size()); }
};

class BytesChapter final : public ChapterBase {
  public:
    BytesChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          heading_in_(Fade::in(kHeadingAt)),
          total_in_(Fade::in(at(kTotalAt))),
          card_in_(Fade::in(at(kCardAt))),
          fill_(Fade::in(at(kFillAt), kFillFor)),
          spread_(Fade::in(at(kSpreadAt), kSpreadFor)),
          // A wall's many tiles enter within the time a row of cards takes.
          more_cards_in_{Stagger{at(kSpreadAt) + kCardsAfterSpread, kCardStep, kCardFor}.within(
              kCardStep * kMostNamed, drawn(reports_.front().gpus_to_hold_model_states))},
          heading_(metrics_, frame::kLeft, kReadoutTop),
          readout_(metrics_, kRightX, kReadoutTop) {
        heading_.line(tr("Bytes per parameter"), Role::heading, palette_.text);
        readout_.line("headline", Role::value, palette_.text)
            .line("note", Role::note, palette_.muted)
            .line("needed", kNeededStyle, palette_.highlight);
        for (double start : kSegmentStart) {
            segments_in_.push_back(Fade::in(at(start), kSegmentFor));
            labels_in_.push_back(Fade::in(at(start) + kLabelAfter));
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_bytes_bar(s, t);
        add_model_heading(s, t);
        add_cards(s, t);
        add_frame(s, t);
        return s;
    }

    // The whole model's state (not a card's share): the figure the grid pours into cards.
    std::vector<Stat> stats_at(double t) const override {
        return {{tr("Model states"), format_bytes(grid_report(t).model_states.value, locale_)},
                {tr("Comm / step"), "—"},
                {tr("Bubble"), "—"}};
    }

  private:
    // What the optimizer's bytes hold, under its bar label.
    std::string optimizer_detail(engine::Optimizer o, bool mixed) const {
        const char* state = N_("Adam m, v");
        switch (o) {
            case engine::Optimizer::adam:
                break;
            case engine::Optimizer::adam_8bit:
                state = N_("8-bit Adam m, v");
                break;
            case engine::Optimizer::sgd_momentum:
                state = N_("SGD momentum");
                break;
            case engine::Optimizer::lion:
                state = N_("Lion momentum");
                break;
            case engine::Optimizer::adafactor:
                return mixed ? tr("fp32 master (Adafactor: factored v)")
                             : tr("Adafactor: factored v");
            case engine::Optimizer::muon:
                state = N_("Muon momentum");
                break;
        }
        return tr(mixed ? N_("fp32 master + {state}") : N_("{state} (fp32)"),
                  {{"state", tr(state)}});
    }

    std::vector<Segment> segments(double t) const {
        // The dtypes and optimizer named are the state showing: the old until halfway.
        const auto& cfg = timeline_.states()[shown_state(timeline_.morph_at(t))].training;
        const bool mixed = cfg.precision != engine::Precision::fp32;
        const std::string grads = mixed ? std::string(engine::to_string(cfg.grad_dtype)) : "fp32";
        return {
            {tr("Weights"), weight_dtype(cfg.precision),
             figure_at(t, [](const engine::Report& r) { return r.bytes_per_param.weights; }),
             palette_.weights},
            {tr("Gradients"), grads,
             figure_at(t, [](const engine::Report& r) { return r.bytes_per_param.gradients; }),
             palette_.gradients},
            {tr("Optimizer state"), optimizer_detail(cfg.optimizer, mixed),
             figure_at(t, [](const engine::Report& r) { return r.bytes_per_param.optimizer; }),
             palette_.optimizer},
        };
    }

    void add_bytes_bar(Scene& s, double t) const {
        heading_.add_to(s, heading_in_.at(t));
        const auto segs = segments(t);
        double y = kBarBottom, total = 0;
        std::vector<double> label_y;
        for (int i = 0; i < 3; ++i) {
            const double u = segments_in_[i].at(t);
            const double h = segs[i].bytes * kPxPerByte * u;
            s.add(filled({kBarX, y - h, kBarW, h}, 0, segs[i].color), u > 0 ? 1.0 : 0.0);
            label_y.push_back(y - h / 2);
            y -= h;
            total += segs[i].bytes * u;
        }
        spread_labels(label_y);
        for (int i = 0; i < 3; ++i) add_segment_label(s, segs[i], label_y[i], labels_in_[i].at(t));
        add_total_row(s, total, y, total_in_.at(t));
    }

    // The sum, written like a whiteboard addition above the stack: a rule, then "Total 16 B".
    void add_total_row(Scene& s, double total, double bar_top, double alpha) const {
        const double y = bar_top - kTotalLift;
        s.add(Line{{kLabelX, y - kRuleLift}, {kValueRight, y - kRuleLift}, palette_.muted, 2},
              alpha);
        const TextStyle label = weighted(style_of(Role::body), Weight::semibold);
        const TextStyle value = sized(style_of(Role::value), frame::kHeadingSize + 8);
        s.add(Text{kLabelX, y, tr("Total per parameter"), label, palette_.text}, alpha);
        s.add(Text{kValueRight, y, format_bytes_per_param(total, locale_), value, palette_.text,
                   Align::right},
              alpha);
    }

    // Labels sit at their segment's middle, pushed apart so two lines never collide.
    static void spread_labels(std::vector<double>& ys) {
        for (std::size_t i = 1; i < ys.size(); ++i)
            ys[i] = std::min(ys[i], ys[i - 1] - kMinLabelGap);
    }

    void add_segment_label(Scene& s, const Segment& seg, double y, double alpha) const {
        const TextStyle value = sized(style_of(Role::figure), frame::kLabelSize + 4);
        TextColumn label(metrics_, kLabelX + kSwatchGap, 0);
        label.line(seg.name, kSegmentName, palette_.text)
            .line(seg.detail, Role::small, palette_.muted)
            .centre_on(y);
        const double name_middle = middle_of(metrics_, label.lines().front());
        s.add(filled(box_around({kLabelX + kSwatch / 2, name_middle}, kSwatch, kSwatch), 3,
                     seg.color),
              alpha);
        label.add_to(s, alpha);
        s.add(Text{kValueRight, label.baseline(), format_bytes_per_param(seg.bytes, locale_), value,
                   palette_.text, Align::right},
              alpha);
    }

    // The model's total, with the line that states it (the `total` phase), before the card.
    void add_model_heading(Scene& s, double t) const {
        const double u = total_in_.at(t);
        const double params = grid_figure(t, [](const engine::Report& r) { return r.params; });
        const double bpp =
            grid_figure(t, [](const engine::Report& r) { return r.bytes_per_param.total(); });
        const double states =
            grid_figure(t, [](const engine::Report& r) { return r.model_states.value; });
        const std::string line = tr("{params} parameters × {bytes_per_parameter} = {bytes}",
                                    {{"params", format_params(params, locale_)},
                                     {"bytes_per_parameter", format_bytes_per_param(bpp, locale_)},
                                     {"bytes", format_bytes(states, locale_)}});
        const TextStyle style = style_of(Role::value);
        s.add(Text{kRightX, readout_.baseline(kHeadline), line,
                   sized(style, fit_size(metrics_, line, style, kRightW)), palette_.text},
              u);
        s.add(Text{kRightX, readout_.baseline(kNote), tr("model state before a single activation"),
                   style_of(Role::note), palette_.muted},
              u);
    }

    std::vector<MemorySegment> model_stack(double t, double fill) const {
        const double w = grid_figure(
            t, [](const engine::Report& r) { return r.params * r.bytes_per_param.weights; });
        const double g = grid_figure(
            t, [](const engine::Report& r) { return r.params * r.bytes_per_param.gradients; });
        const double o = grid_figure(
            t, [](const engine::Report& r) { return r.params * r.bytes_per_param.optimizer; });
        return {{w * fill, palette_.weights},
                {g * fill, palette_.gradients},
                {o * fill, palette_.optimizer}};
    }

    double capacity(double t) const { return timeline_.state_at(t).cluster.gpu.memory.value; }

    std::string gpu_name(double t) const {
        return gpu_display_name(timeline_.state_at(t).cluster.gpu);
    }

    // One card first, overflowing; then the overflow moves onto the further cards needed, and
    // each `set:` re-lays the grid: existing cards slide, new ones fade in where they belong.
    void add_cards(Scene& s, double t) const {
        const double appear = card_in_.at(t);
        if (appear <= 0) return;
        const double spread = spread_.at(t);
        const Morph m = timeline_.morph_at(t);
        // Cards or tiles, as drawn (slot): the engine's count at either end.
        const int n_from = drawn(reports_[m.from].gpus_to_hold_model_states);
        const int n_to = drawn(reports_[m.to].gpus_to_hold_model_states);
        const double cap = capacity(t);
        const auto stack = model_stack(t, fill_.at(t));
        double total = 0;
        for (const MemorySegment& seg : stack) total += seg.bytes;
        const int per = per_drawn(report_at(t).gpus_to_hold_model_states);
        const Slots grid{slots(n_from), slots(n_to)};
        for (int i = 0; i < std::max(n_from, n_to); ++i) {
            double alpha = grid_alpha(i, grid, m.u);
            Box box = grid_slot(i, grid, m.u);
            CardSpec card{0,
                          0,
                          0,
                          0,
                          tr("GPU {n}", {{"n", i}}),
                          cap * per,
                          pour(stack, i * cap * per, cap * per)};
            if (i == 0) {
                box = lerp(kSingleCard, box, spread);
                const double drained = within(spread, 0, kDrainShare);
                card.stack = pour(stack, 0, cap + (1 - drained) * std::max(0.0, total - cap));
                card.max_spill = kSingleSpill;
                // Into a wall, the lone card keeps its name until it is a tile (not "GPU 0").
                if (spread < kDrainShare || reports_[m.to].gpus_to_hold_model_states > kMostNamed)
                    card.name = tr("One {gpu}", {{"gpu", gpu_name(t)}});
                alpha *= appear;
            } else {
                alpha *= more_cards_in_.at(t, i);  // once card 0 has moved
            }
            if (alpha <= 0) continue;
            add_items(s, card_or_tile(card, box), alpha);
        }
        add_cards_needed(s, t, cap, within(spread, kDrainShare, 1 - kDrainShare));
        add_per_tile(s, t, per);
    }

    // A named card where the box is tall enough to read one, else a wall's tile.
    std::vector<Item> card_or_tile(CardSpec card, const Box& box) const {
        if (box.h < kCardFromH) {
            std::vector<Item> tile;
            add_tile(tile, palette_, box, card.capacity, card.stack);
            return tile;
        }
        card.x = box.x, card.y = box.y, card.w = box.w, card.h = box.h;
        card.label_size = box.w < kNarrowCard ? frame::kMinTextSize : frame::kLabelSize;
        return gpu_card(palette_, metrics_, locale_, card);
    }

    // Under a wall whose tiles stand for several cards, how many.
    void add_per_tile(Scene& s, double t, int per) const {
        if (per <= 1) return;
        const TextStyle note = style_of(Role::note);
        s.add(Text{kGrid.x, kGrid.y + kGrid.h + kPerTileDrop,
                   tr("each tile: {n} cards", {{"n", format_int(per, locale_)}}), note,
                   palette_.muted, Align::left},
              within(spread_.at(t), kDrainShare, 1 - kDrainShare));
    }

    // A growing grid first slides the cards it has, then fades the new ones in where they
    // belong; a shrinking one first fades the leaving cards out, then slides. Cards never cross.
    static double slide_u(int n_from, int n_to, double u) {
        return n_to >= n_from ? within(u, 0, kCardShare) : within(u, 0.5 + kCardShare, kCardShare);
    }

    // Progress of the new and leaving cards' fades through a `set:`: a growing grid's new cards
    // are all in by halfway, when the figures (the state, the poured stack, "N x 80 GB") change
    // to the new state's; a shrinking grid's leaving cards fade only after it.
    static double count_share(int n_from, int n_to, double u) {
        if (n_to > n_from) return within(u, kCardShare, 0.5 - kCardShare);
        if (n_to < n_from) return within(u, 0.5, kCardShare);
        return u;
    }
    // The state the grid's figures are of: the shown one (Morph::shown), as everywhere.
    const engine::Report& grid_report(double t) const { return report_at(t); }

    double grid_figure(double t, double (*f)(const engine::Report&)) const {
        return f(grid_report(t));
    }

    // A kept card whose row changes would cross its neighbours on the way: it fades out where
    // it was over the first half of the slide and in where it goes over the second.
    static bool changes_row(int i, const Slots& g) {
        return i < g.n_from() && i < g.n_to() && g.from[i].y != g.to[i].y;
    }
    static Box grid_slot(int i, const Slots& g, double u) {
        const double su = slide_u(g.n_from(), g.n_to(), u);
        if (changes_row(i, g)) return su < 0.5 ? g.from[i] : g.to[i];
        if (i < g.n_from() && i < g.n_to()) return lerp(g.from[i], g.to[i], su);
        return i < g.n_to() ? g.to[i] : g.from[i];
    }

    static double grid_alpha(int i, const Slots& g, double u) {
        const int n_from = g.n_from(), n_to = g.n_to();
        const double share = count_share(n_from, n_to, u);
        if (changes_row(i, g)) return std::abs(1 - 2 * slide_u(n_from, n_to, u));
        if (i >= n_to) return 1 - share;
        if (i >= n_from) return std::clamp(share * (n_to - n_from + 2) - (i - n_from), 0.0, 1.0);
        return 1;
    }

    void add_cards_needed(Scene& s, double t, double cap, double alpha) const {
        // The cards that hold the state as it is drawn now: the engine's count at either end.
        const long long held = grid_report(t).gpus_to_hold_model_states;
        const std::string line =
            tr("{n} × {capacity} {gpu} just to hold it", {{"n", format_int(held, locale_)},
                                                          {"capacity", format_bytes(cap, locale_)},
                                                          {"gpu", gpu_name(t)}});
        s.add(Text{kGrid.cx(), readout_.baseline(kNeeded), line, kNeededStyle, palette_.highlight,
                   Align::center},
              alpha);
    }

    // The part of the concatenated stack that falls in [start, start + cap).
    static std::vector<MemorySegment> pour(const std::vector<MemorySegment>& stack, double start,
                                           double cap) {
        std::vector<MemorySegment> out;
        double offset = 0;
        for (const MemorySegment& seg : stack) {
            const double lo = std::max(offset, start),
                         hi = std::min(offset + seg.bytes, start + cap);
            if (hi > lo) out.push_back({hi - lo, seg.color});
            offset += seg.bytes;
        }
        return out;
    }

    const Fade heading_in_, total_in_, card_in_, fill_, spread_;
    const Stagger more_cards_in_;
    std::vector<Fade> segments_in_, labels_in_;
    // The heading over the bar; the read-out's lines, laid out once (their texts change at t).
    TextColumn heading_, readout_;
};

const KindRegistrar registrar{{
    .name = "bytes_per_parameter",
    .default_duration = kDefaultDuration,
    .settable = {"model", "precision", "grad_dtype", "gpu", "optimizer"},
    .make = make_of<BytesChapter>,
    .shows = "weights, gradients and optimizer state building up to 16 B per parameter; the "
             "model's total pouring into one card and spilling over; the cards needed just "
             "to hold it (past 16, a wall of tiles each filled with its card's share, a tile "
             "standing for several cards past 400); the optimizer's segment names what it keeps "
             "(Adam's m and v, "
             "8-bit Adam's, a momentum, Adafactor's factored v) beside the fp32 master, and "
             "a `set:` of the optimizer morphs its bytes and the totals",
    .goldens = {{"chapter_bytes_grid", 19.0, "fourteen cards holding the model states"},
                {"chapter_bytes_single", 9.0, "one card overflowing"}},
    .phases = {{"weights", kSegmentStart[0], "the weights' bytes on the bar"},
               {"gradients", kSegmentStart[1], "the gradients' bytes"},
               {"optimizer", kSegmentStart[2], "the optimizer state's bytes"},
               {"total", kTotalAt, "the bytes per parameter summed, and the model's total"},
               {"card", kCardAt, "one card, which the total pours into and overflows"},
               {"spread", kSpreadAt, "the total spread over the cards it needs"}},
    .facts = {.rows = {rows::params, rows::bytes_per_param, rows::model_states, rows::gpus_to_hold},
              .formulas = {formulas::model_states}},
}};

}  // namespace

}  // namespace story
