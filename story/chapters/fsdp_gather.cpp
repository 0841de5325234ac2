// `fsdp_gather`: the FSDP film from engine::fsdp_plan. The model is a loaf of layer slices and
// each card keeps only its shard of every slice; slice by slice the full weights are gathered
// (shards fly in from the other cards), used and freed, forward then backward, and the
// gradients are reduce-scattered. A live gauge per card follows the plan's resident bytes, and
// the traffic is read out against data parallel's (1.5x).
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>

#include "engine/fsdp.hpp"
#include "engine/report.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/chapter/fsdp_film.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cards.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
// Choreography, in seconds of the default duration.
constexpr double kLoafAt = 0.3, kShardAt = 2.4, kCardsAt = 2.8, kTrafficAt = 26.5;
constexpr double kModelAt = 0.7, kModelOutAt = 2.0;  // "Model states: …" before the shards
constexpr double kShardFor = 0.6, kModelOutFor = 0.4, kSliceStagger = 0.07;
// The film itself (the steps of each slice) is paced in story/chapter/fsdp_film.hpp.
constexpr int kMaxCards = 8;
constexpr int kMaxShards = 1024;

// The loaf on the left, in a column from kLoafLabelTop: its label, kLoafGap under it the loaf,
// kNotesGap under that its notes. Up to kFsdpMaxSlices slices, each cut into shards kShardGap px
// apart once sharded (their colour dimmed by kShardDim); the slice at work outlined kCurrentPad
// px out.
constexpr double kLoafX = 120, kLoafW = 400, kLoafLabelTop = 251, kLoafGap = 18, kNotesGap = 13;
constexpr double kSliceH = 46, kSliceGap = 14, kShardGap = 3, kShardDim = 0.45, kShardRadius = 4;
constexpr double kCurrentPad = 6, kCurrentRadius = 8, kCurrentStroke = 3;
// The cards on the right under the read-outs, each with its gauge's line kGaugeGap under it.
constexpr Box kCards{600, 450, frame::kRight - 600, 400};
constexpr double kCardGap = 18, kMaxCardW = 190, kGaugeGap = 11;
// Inside each card, the top of its stack magnified: from kZoomTop under the capacity line down to
// kZoomGap above the stack's peak, the slice at work's gathered weights (one cell per shard) under
// its unsharded gradients, their figure kZoomLabelGap above it. A card too full for kZoomMinH
// px draws none. Empty cells show at kSlotAlpha.
constexpr double kZoomTop = 46, kZoomGap = 22, kZoomLabelGap = 9, kZoomMinH = 40;
constexpr double kCellRadius = 3, kCellGap = 2, kSlotAlpha = 0.15;
constexpr double kComputePad = 3, kComputeRadius = 5, kComputeStroke = 2;
// Shards in flight hop kHop px (and kHopPerPx of the distance) over the cards.
constexpr double kToken = 22, kHop = 16, kHopPerPx = 0.03;
// The read-outs above the cards from kReadoutTop: a heading, kHeadingGap under it one or two
// lines of figures.
constexpr double kReadoutTop = 255, kHeadingGap = 8;
enum ReadoutLine { kHeadingLine, kFirstLine, kSecondLine };
enum LoafLine { kLoafLabel, kSliceNote, kShardNote };
const TextStyle kHeading =
    weighted(sized(style_of(Role::body), frame::kBodySize + 2), Weight::semibold);
const TextStyle kFigures = tabular(sized(style_of(Role::body), 28));

using Step = FsdpStep;

// The configuration the chapter draws: FSDP is ZeRO-3, whatever the storyboard's stage.
engine::Config sharded(const engine::Config& c) {
    engine::Config out = c;
    out.layout.zero = 3;
    return out;
}

class FsdpChapter final : public ChapterBase {
  public:
    FsdpChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          loaf_in_(Fade::in(at(kLoafAt))),
          shard_in_(Fade::in(at(kShardAt), kShardFor)),
          heading_in_(Fade::in(at(kShardAt))),
          traffic_in_(Fade::in(at(kTrafficAt), kShardFor)),
          zoom_in_(Fade::in(at(kFsdpFilmAt), kShardFor)),
          model_in_(Fade::in(at(kModelAt)).out(at(kModelOutAt), kModelOutFor)),
          slices_in_{at(kLoafAt), kSliceStagger},
          cards_in_{at(kCardsAt)},
          readout_(metrics_, kCards.x, kReadoutTop) {
        readout_.line("heading", kHeading, palette_.text)
            .gap(kHeadingGap)
            .line("first", kFigures, palette_.text)
            .line("second", kFigures, palette_.text);
        for (engine::Config c : timeline_.states()) {
            c = sharded(c);
            plans_.push_back(engine::fsdp_plan(c));
            zero3_.push_back(engine::per_gpu_memory(c));
            const engine::Report fsdp = engine::analyze(c);
            c.layout.zero = 0;
            const engine::Report dp = engine::analyze(c);
            fsdp_.push_back(fsdp);
            fsdp_bytes_.push_back(fsdp.comm.dp_per_gpu.value);
            dp_bytes_.push_back(dp.comm.dp_per_gpu.value);
            buffer_.push_back(dp.per_gpu.gradients.value);
            model_states_.push_back(fsdp.model_states.value);
            sharded_.push_back(plans_.back().sharded_states.value);
            peak_.push_back(plans_.back().peak_bytes.value);
        }
        // The film plays the first state's plan (a `set:` changes the numbers, not the film).
        film_.emplace(plans_.front(), choreography_);
        slices_ = film_->slices();
        per_slice_ = film_->per_slice();
        place();
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const FilmAt f = film_at(t);
        add_loaf(s, t, f);
        add_cards(s, t, f);
        add_tokens(s, f);
        add_heading(s, t, f);
        add_frame(s, t);
        return s;
    }

    // The engine's figures of the film's ZeRO-3 layout. A card's total holds its activations
    // besides the model states its gauge draws: the panel names them, so the two figures agree.
    std::vector<Stat> stats_at(double t) const override {
        const engine::Report& r = fsdp_[timeline_.morph_at(t).shown()];
        std::vector<Stat> stats = stat_panel(r);
        stats.front().detail = tr("with activations");
        return stats;
    }

  private:
    int shards() const { return plans_.front().shards; }

    // The loaf's label, slices and their shard cells, and its notes; the row of cards (the first
    // state's shards), their gauges' line and each card's magnified top of the stack.
    void place() {
        const int n = shards();
        TextColumn column(metrics_, kLoafX, kLoafLabelTop);
        column.wrapped(tr("{params} model · {n} layers",
                          {{"params", format_params(reports_.front().params, locale_)},
                           {"n", plans_.front().layers}}),
                       in_language(style_of(Role::label), lang_), palette_.text, kLoafW);
        const std::size_t label_end = column.lines().size();
        const Box loaf{kLoafX, column.bottom() + kLoafGap, kLoafW,
                       slices_ * (kSliceH + kSliceGap) - kSliceGap};
        for (int g = 0; g < slices_; ++g) {
            slice_.push_back(column_cell(loaf, slices_, g, kSliceGap));
            shard_cells_.emplace_back();
            for (int j = 0; j < n; ++j) shard_cells_.back().push_back(row_cell(slice_[g], n, j, 0));
        }
        const std::string per = per_slice_ == 1 ? tr("one slice = one layer")
                                                : tr("one slice = {n} layers", {{"n", per_slice_}});
        const TextStyle note = in_language(style_of(Role::note), lang_);
        column.gap(kLoafGap + loaf.h + kNotesGap).wrapped(per, note, palette_.muted, kLoafW);
        const std::size_t slice_end = column.lines().size();
        column.wrapped(tr("cut into {n} shards, one per card", {{"n", n}}), note, palette_.muted,
                       kLoafW);
        // Each part wraps to as many lines as its language needs.
        const auto& lines = column.lines();
        loaf_text_[kLoafLabel].assign(lines.begin(), lines.begin() + label_end);
        loaf_text_[kSliceNote].assign(lines.begin() + label_end, lines.begin() + slice_end);
        loaf_text_[kShardNote].assign(lines.begin() + slice_end, lines.end());
        gauge_baseline_ = TextColumn(metrics_, 0, kCards.bottom() + kGaugeGap)
                              .line("gauge", Role::figure, palette_.text)
                              .baseline();
        ranks_ = shown_ranks(n, kMaxCards);
        const int slots = static_cast<int>(ranks_.size());
        for (int i = 0; i < slots; ++i) {
            cards_.push_back(row_cell(kCards, slots, i, kCardGap, kMaxCardW));
            place_zoom(static_cast<std::size_t>(i));
        }
    }

    // Card i's magnified top of the stack, between its capacity line and the stack's peak: the
    // slice's gathered weights in the bottom row, its unsharded gradients above, each row's
    // height its bytes at the zoom's scale.
    void place_zoom(std::size_t i) {
        const engine::FsdpPlan& plan = plans_.front();
        const double cap = reports_.front().per_gpu.capacity.value;
        const double layer = plan.layer_full_bytes.value, grads = plan.layer_grad_bytes.value;
        const Box area = stack_area(metrics_, card_spec(i, cap));
        const double peak_y = area.bottom() - area.h * std::min(1.0, plan.peak_bytes.value / cap);
        Box zoom{area.x, area.y + kZoomTop, area.w, peak_y - kZoomGap - area.y - kZoomTop};
        if (zoom.h < kZoomMinH || layer + grads <= 0) zoom.h = 0;
        zoom_.push_back(zoom);
        zoom_factor_ = zoom.h > 0 ? (zoom.h / (layer + grads)) / (area.h / cap) : 0;
        const Box weights = bottom_of(zoom, zoom.h * layer / (layer + grads)),
                  gradients = top_of(zoom, zoom.h - weights.h);
        weight_cells_.emplace_back();
        grad_cells_.emplace_back();
        for (int j = 0; j < shards(); ++j) {
            weight_cells_.back().push_back(row_cell(weights, shards(), j, 0));
            grad_cells_.back().push_back(row_cell(gradients, shards(), j, 0));
        }
    }

    FilmAt film_at(double t) const { return film_->at(t); }

    // The loaf: slices cut into one shard per card; the slice at work is outlined.
    void add_loaf(Scene& s, double t, const FilmAt& f) const {
        const double in = loaf_in_.at(t), shard = shard_in_.at(t);
        for (const Text& line : loaf_text_[kLoafLabel]) s.add(line, in);
        const int n = shards();
        const double gap = n > 1 ? kShardGap * shard : 0;
        const Color fill = with_alpha(palette_.weights, 1 - kShardDim * shard);
        for (int g = 0; g < slices_; ++g) {
            for (const Box& cell : shard_cells_[g])
                s.add(filled(inset(cell, gap / 2, 0), kShardRadius, fill), slices_in_.at(t, g));
            if (f.phase && f.phase->slice == g)
                s.add(outline(inflate(slice_[g], kCurrentPad), kCurrentRadius,
                              f.phase->backward ? palette_.gradients : palette_.highlight,
                              kCurrentStroke));
        }
        for (const Text& line : loaf_text_[kSliceNote]) s.add(line, in);
        for (const Text& line : loaf_text_[kShardNote]) s.add(line, shard);
    }

    void add_cards(Scene& s, double t, const FilmAt& f) const {
        const engine::FsdpPlan& plan = plans_.front();
        const double cap = report_at(t).per_gpu.capacity.value;
        const double w = morph_part(t, [](const engine::PerGpu& g) { return g.weights.value; });
        const double g = morph_part(t, [](const engine::PerGpu& g) { return g.gradients.value; });
        const double o = morph_part(t, [](const engine::PerGpu& g) { return g.optimizer.value; });
        for (std::size_t i = 0; i < cards_.size(); ++i) {
            const double alpha = cards_in_.at(t, static_cast<int>(i));
            const Box& b = cards_[i];
            if (ranks_[i] == kGapRank) {
                s.add(gap_mark(b, palette_.muted), alpha);
                continue;
            }
            const Held held = fsdp_held(f, ranks_[i], shards());
            const double layer = held.weight_share() * plan.layer_full_bytes.value,
                         grads = held.grad_share() * plan.layer_grad_bytes.value;
            CardSpec card = card_spec(i, cap);
            card.stack = {{w, palette_.weights},
                          {g, palette_.gradients},
                          {o, palette_.optimizer},
                          {layer, palette_.weights},
                          {grads, palette_.gradients}};
            add_items(s, gpu_card(palette_, metrics_, locale_, card), alpha);
            const double now = plan.sharded_states.value + layer + grads;
            s.add(Text{b.cx(), gauge_baseline_, format_bytes(now, locale_), style_of(Role::figure),
                       palette_.text, Align::center},
                  alpha);
            add_zoom(s, i, f, held, layer + grads, alpha * zoom_in_.at(t));
        }
    }

    // Card i without its stack: its name, against the capacity of the state at hand.
    CardSpec card_spec(std::size_t i, double capacity) const {
        const Box& b = cards_[i];
        CardSpec card{b.x, b.y, b.w, b.h, tr("GPU {n}", {{"n", ranks_[i]}}), capacity, {}};
        card.capacity_label = false;
        card.label_size = card_label_size(b.w);
        return card;
    }

    // Model states of the sharded stack (ZeRO-3 figures of the engine), counting through morphs.
    double morph_part(double t, double (*part)(const engine::PerGpu&)) const {
        const engine::PerGpu& g = zero3_[timeline_.morph_at(t).shown()];
        return value_at(t, sharded_) * part(g) / (g.weights + g.gradients + g.optimizer).value;
    }

    // Inside card i, the top of its stack magnified: the slice's gathered weights, one cell per
    // shard, filling as the shards arrive and shrinking as they are freed, under its unsharded
    // gradients; their bytes over it.
    void add_zoom(Scene& s, std::size_t i, const FilmAt& f, const Held& held, double extra,
                  double alpha) const {
        if (zoom_[i].h <= 0 || alpha <= 0 || !f.phase) return;
        s.add(outline(inflate(zoom_[i], kCellGap), kCellRadius, palette_.grid, 1), alpha);
        const auto add_row = [&](const std::vector<Box>& cells, const std::vector<double>& part,
                                 Color fill) {
            for (std::size_t j = 0; j < cells.size(); ++j) {
                const Box cell = inset(cells[j], kCellGap / 2, 0);
                s.add(filled(cell, kCellRadius, fill), alpha * kSlotAlpha);
                if (part[j] > 0)
                    s.add(filled(bottom_of(cell, cell.h * part[j]), kCellRadius, fill), alpha);
            }
        };
        add_row(weight_cells_[i], held.weights, palette_.weights);
        if (f.phase->backward) add_row(grad_cells_[i], held.grads, palette_.gradients);
        s.add(Text{zoom_[i].cx(), zoom_[i].y - kZoomLabelGap, "+" + format_bytes(extra, locale_),
                   tabular(style_of(Role::small)), palette_.text, Align::center},
              alpha);
        if (f.phase->step == Step::compute)
            s.add(outline(inflate(zoom_[i], kComputePad), kComputeRadius, palette_.highlight,
                          kComputeStroke),
                  alpha);
    }

    // Shards in flight: all-gather brings every shard to every card; reduce-scatter sends each
    // card's piece of the gradient to the card that owns it.
    void add_tokens(Scene& s, const FilmAt& f) const {
        if (!f.phase || (f.phase->step != Step::gather && f.phase->step != Step::scatter)) return;
        const bool gather = f.phase->step == Step::gather;
        const auto& cells = gather ? weight_cells_ : grad_cells_;
        const int slots = static_cast<int>(ranks_.size());
        for (int a = 0; a < slots; ++a)
            for (int b = 0; b < slots; ++b) {
                if (a == b || ranks_[a] == kGapRank || ranks_[b] == kGapRank) continue;
                if (zoom_[a].h <= 0 || zoom_[b].h <= 0) continue;
                // Gather: rank a's own shard flies to b. Scatter: a's piece b flies to b.
                const int piece = gather ? ranks_[a] : ranks_[b];
                const double arrives = fsdp_arrival(ranks_[b], ranks_[a], shards());
                const double u = std::clamp(f.u / arrives, 0.0, 1.0);
                if (u >= 1) continue;
                const Point p0{cells[a][piece].cx(), cells[a][piece].cy()},
                    p1{cells[b][piece].cx(), cells[b][piece].cy()};
                Point p = lerp(p0, p1, u);
                p.y -= (kHop + kHopPerPx * std::abs(p1.x - p0.x)) * std::sin(u * std::numbers::pi);
                add_token(s, palette_, metrics_, p, kToken,
                          gather ? palette_.weights : palette_.gradients,
                          format_count(piece, locale_), 1);
            }
    }

    std::string phase_text(const FilmAt& f) const {
        if (f.done) return tr("One training step done: every card updates its own shard");
        if (!f.phase)
            return tr("Each card keeps {fraction} of every layer",
                      {{"fraction", fraction_text(1, shards(), locale_)}});
        // By step (Step's order) and pass; the gradients are reduce-scattered going backward only.
        static const char* const kSays[4][2] = {
            {N_("Forward · slice {k} of {n}: all-gather the full weights"),
             N_("Backward · slice {k} of {n}: all-gather the full weights")},
            {N_("Forward · slice {k} of {n}: compute"),
             N_("Backward · slice {k} of {n}: compute gradients")},
            {N_("Backward · slice {k} of {n}: reduce-scatter the gradients"),
             N_("Backward · slice {k} of {n}: reduce-scatter the gradients")},
            {N_("Forward · slice {k} of {n}: free the full copy"),
             N_("Backward · slice {k} of {n}: free the full copy")}};
        const FilmStep& p = *f.phase;
        return tr(kSays[static_cast<int>(p.step)][p.backward],
                  {{"k", p.slice + 1}, {"n", slices_}});
    }

    void add_heading(Scene& s, double t, const FilmAt& f) const {
        const double in = heading_in_.at(t);
        if (in <= 0) {
            add_whole_model(s, t);
            return;
        }
        const double heading = readout_.baseline(kHeadingLine),
                     first = readout_.baseline(kFirstLine), second = readout_.baseline(kSecondLine);
        s.add(Text{kCards.x, heading, phase_text(f), kHeading, palette_.text}, in);
        const double traffic = traffic_in_.at(t);
        const std::string gauge =
            tr("Peak model states per card: {peak} = {shards} of shards + one layer and its "
               "gradients",
               {{"peak", format_bytes(value_at(t, peak_), locale_)},
                {"shards", format_bytes(value_at(t, sharded_), locale_)}});
        s.add(Text{kCards.x, first, gauge, fit(gauge), palette_.muted}, in * (1 - traffic));
        add_zoom_note(s, second, (1 - traffic) * zoom_in_.at(t));
        if (traffic <= 0) return;
        const int n = shards();
        const std::string sent = tr("Per card per step: 3 × {fraction} × {buffer} = {bytes}",
                                    {{"fraction", fraction_text(n - 1, n, locale_)},
                                     {"buffer", format_bytes(value_at(t, buffer_), locale_)},
                                     {"bytes", format_bytes(value_at(t, fsdp_bytes_), locale_)}});
        const std::string vs = tr(
            "data parallel's all-reduce moves {bytes}: FSDP {ratio}× as much",
            {{"bytes", format_bytes(value_at(t, dp_bytes_), locale_)},
             {"ratio", format_sig3(value_at(t, fsdp_bytes_) / value_at(t, dp_bytes_), locale_)}});
        s.add(Text{kCards.x, first, sent, fit(sent), palette_.comm}, traffic);
        s.add(Text{kCards.x, second, vs, fit(vs), palette_.text}, traffic);
    }

    // What the cards' magnified tops draw, and how much they are magnified.
    void add_zoom_note(Scene& s, double baseline, double alpha) const {
        if (alpha <= 0 || zoom_factor_ <= 0) return;
        const engine::FsdpPlan& plan = plans_.front();
        const std::string note =
            tr("Inside each card, its top magnified {zoom}×: one layer's weights {layer} and "
               "gradients {grads}",
               {{"zoom", format_int(std::lround(zoom_factor_), locale_)},
                {"layer", format_bytes(plan.layer_full_bytes.value, locale_)},
                {"grads", format_bytes(plan.layer_grad_bytes.value, locale_)}});
        s.add(Text{kCards.x, baseline, note, fit(note), palette_.muted}, alpha);
    }

    // Before the shards: the whole model's state against one card.
    void add_whole_model(Scene& s, double t) const {
        const std::string line =
            tr("Model states: {bytes}, one card holds {capacity}",
               {{"bytes", format_bytes(value_at(t, model_states_), locale_)},
                {"capacity", format_bytes(report_at(t).per_gpu.capacity.value, locale_)}});
        s.add(
            Text{kCards.x, readout_.baseline(kHeadingLine), line, tabular(kHeading), palette_.text},
            model_in_.at(t));
    }

    // The figures' style, shrunk until the line fits above the cards.
    TextStyle fit(const std::string& text) const {
        return sized(kFigures, fit_size(metrics_, text, kFigures, kCards.w));
    }

    const Fade loaf_in_, shard_in_, heading_in_, traffic_in_, zoom_in_, model_in_;
    const Stagger slices_in_, cards_in_;
    std::vector<engine::FsdpPlan> plans_;
    std::vector<engine::PerGpu> zero3_;  // each state's ZeRO-3 split of the model states
    std::vector<engine::Report> fsdp_;   // each state's with ZeRO-3, as the film draws it
    std::vector<double> fsdp_bytes_, dp_bytes_, buffer_, model_states_, sharded_, peak_;
    std::optional<FsdpFilm> film_;
    int slices_ = 1, per_slice_ = 1;
    // Geometry, placed once: the loaf's slices and shard cells; the shown
    // ranks' cards and their magnified tops, with one cell per shard in each row.
    std::vector<Box> slice_, cards_, zoom_;
    std::vector<std::vector<Box>> shard_cells_, weight_cells_, grad_cells_;
    double zoom_factor_ = 0;  // the magnified top's px per byte over the stack's
    std::array<std::vector<Text>, 3> loaf_text_;  // its label and notes' lines, by LoafLine
    double gauge_baseline_ = 0;                   // of the figures under the cards
    TextColumn readout_;  // the read-out's lines (ReadoutLine), their texts drawn at t
    std::vector<int> ranks_;
};

// The loaf and each card's magnified top draw one cell per shard, i.e. per GPU.
std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.layout.gpus <= kMaxShards) return std::nullopt;
    return "fsdp_gather draws at most " + std::to_string(kMaxShards) + " GPUs, got " +
           std::to_string(c.layout.gpus);
}

const KindRegistrar registrar{{
    .name = "fsdp_gather",
    .default_duration = kDefaultDuration,
    .settable = {"gpus", "model", "precision", "network", "nvlink"},
    .make = make_of<FsdpChapter>,
    .cannot_draw = cannot_draw,
    .shows = "the model's layers gathered from shards, used and freed, forward then "
             "backward with the gradients reduce-scattered; inside each card its top of the stack "
             "magnified, the gathered layer's shards and its gradients arriving and leaving with "
             "their bytes; live memory gauge per card; traffic 1.5x data parallel",
    .goldens = {{"chapter_fsdp_gather", 5.7, "shards flying in for the first slice"}},
    .phases = {{"shards", kShardAt, "every layer cut into shards, one on each card"},
               {"forward", kFsdpFilmAt, "the forward pass: each slice gathered, used and freed"},
               {"backward", kFsdpBackwardAt,
                "the backward pass: gathered again, gradients scattered"},
               {"traffic", kTrafficAt, "the traffic: two gathers and a scatter"}},
    .facts = {.rows = {with_label(rows::dp, N_("Shards")), rows::memory, rows::dp_sent},
              .formulas = {formulas::ring, formulas::memory},
              .shown = sharded},
}};

}  // namespace

}  // namespace story
