// `ring_allreduce`: data parallelism. N cards around a ring, each with a full copy of the model
// and its own slice of the batch; the gradient buffer, cut into N chunks, travels the ring chunk
// by chunk (reduce-scatter, then all-gather) exactly as engine::ring_allreduce_schedule orders
// it, and the bytes each card sends, 2(N-1)/N x B, read out with their time on the link.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/comm.hpp"
#include "engine/interconnect.hpp"
#include "engine/layout3d.hpp"
#include "engine/memory.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cards.hpp"
#include "story/vocab/loaf.hpp"
#include "story/vocab/ring_track.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

namespace {

using namespace ring_track;

constexpr double kDefaultDuration = 24;
constexpr int kMaxRingGpus = 128;
// Choreography, in seconds of the default duration.
constexpr double kCardsAt = 0.3, kBatchAt = 2.0, kGradsAt = 3.6, kRingAt = 5.2;
constexpr double kStep = 0.6, kReadoutAt = 14.0;
// Eight cards' reduce-scatter takes 7 steps; a beat that shows the all-gather fits the
// reduce-scatter's steps into the line before it and the all-gather's into its own.
constexpr double kAllGatherAt = kRingAt + 7 * kStep;
constexpr double kCardStagger = 0.07;  // s between cards entering; the 16th and later together
constexpr int kLastStaggered = 15;
constexpr double kLinksAfterCards = 0.6;  // s, not scaled
// The batch, whole for kSplitAfter s, then cut into one slice per card (kSplitGap px apart over
// kSplitFor s); the slices fly to the cards kFlyAfter s after it appears, and fade kFadeAfter s
// after, with the batch's label (held as long as they are, or until the gradients come).
constexpr double kSplitAfter = 0.9, kSplitFor = 0.4, kSplitGap = 6;
constexpr double kFlyAfter = 1.5, kFlyFor = 0.9, kFadeAfter = 3.6, kFadeFor = 0.3;

// Links: NVLink thick, the network thin; arrow heads; how far a link keeps from the cards.
constexpr double kNvlinkWidth = 6, kNetworkWidth = 2, kHead = 14, kLinkMargin = 8;
// The batch, the legend (left of the ring's middle) and the read-out (right of it).
constexpr Box kBatch{kCx - 320, 540, 640, 56};
constexpr double kBatchLabelLift = 20;
constexpr double kLegendX = 440, kLegendY = 520, kLegendH = 36, kHeadingLift = 22, kNoteDrop = 78;
constexpr double kLegendW = 460, kWideLegendW = 540;  // up to 8 chunks, more
constexpr double kReadoutX = 1010, kReadoutTop = 475;
// Each node's cards on a band kNodeBand px wide along the ring, kNodeGap apart where the ring
// leaves a node; the links' legend centred under the middle's columns on kLinksBaseline.
constexpr double kNodeBand = 190, kNodeGap = 36, kBandAlpha = 0.45, kLinksBaseline = 648;
constexpr double kReadoutW = 560, kLinksW = 1160;  // the read-out's link line shrinks to fit

class RingChapter final : public ChapterBase {
  public:
    RingChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          cards_in_{at(kCardsAt), kCardStagger, kEntrance, kLastStaggered},
          links_in_(Fade::in(at(kCardsAt) + kLinksAfterCards)),
          batch_in_(Fade::in(at(kBatchAt)).out(at(kBatchAt) + kFadeAfter, kFadeFor)),
          batch_label_in_(
              Fade::in(at(kBatchAt))
                  .out(std::min(at(kBatchAt) + kFadeAfter, at(kGradsAt) - kFadeFor), kFadeFor)),
          grads_in_(Fade::in(at(kGradsAt))),
          readout_in_(Fade::in(at(kReadoutAt))) {
        for (std::size_t k = 0; k < timeline_.states().size(); ++k) {
            const engine::Config& c = timeline_.states()[k];
            buffer_.push_back(engine::params_per_gpu(c.model, c.layout) *
                              engine::bytes_per_param(c.training.precision, c.training.grad_dtype,
                                                      c.training.optimizer)
                                  .gradients);
            bandwidth_.push_back(engine::group_bandwidth(c, engine::Group::dp).value);
            gpus_.push_back(c.layout.gpus);
            dp_on_nvlink_.push_back(engine::layout_3d(c).dp_within_node());
            rings_.push_back(ring_layout(c.layout.gpus));
            runs_.push_back(make_run(static_cast<int>(k)));
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_nodes(s, t, m);
        add_links(s, t, m);
        add_cards(s, t, m);
        add_batch(s, t, m);
        add_run_tokens(s, t, m);
        add_legend(s, t, m);
        add_readout(s, t, m);
        add_link_names(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    // The first run starts on the choreography; later ones half a second after their morph,
    // each ending before the next state starts, its steps at most kStep long.
    Run make_run(int k) const {
        const engine::Config& c = timeline_.states()[k];
        Run run{engine::ring_allreduce_schedule(c.layout.gpus), {}, {}, 0, 0, false};
        run.counts = replay(run.ring);
        for (const engine::RankPlace& r : engine::layout_3d(c).ranks) run.node.push_back(r.node);
        const int steps = run.ring.steps();
        const bool last = k + 1 == static_cast<int>(timeline_.states().size());
        const double next = last ? spec_.duration : timeline_.state_start(k + 1);
        run.start = k == 0 ? at(kRingAt) : timeline_.state_end(k) + 0.5;
        const double end = k == 0 ? next - 0.3 : next - 0.8, room = end - run.start;
        if (steps == 0 || room <= 0) return run;
        run.step = std::min(span(kRingAt, kStep), room / steps);
        run.gather = run.start + run.step * run.half();
        run.gather_step = run.step;
        if (k == 0 && shows("all_gather")) {  // each half takes its line
            run.gather = at(kAllGatherAt);
            run.step = (run.gather - run.start) / run.half();
            const double readout = at(kReadoutAt);
            run.gather_step =
                ((readout > run.gather ? std::min(readout, end) : end) - run.gather) / run.half();
        }
        run.plays = std::min(run.step, run.gather_step) >= 0.12;
        return run;
    }

    // How far the cards have slid while N morphs. A growing ring slides first and then fades
    // the new cards in; a shrinking one fades the leavers out first, so none cross.
    double slide(const Morph& m) const {
        return gpus_[m.to] >= gpus_[m.from] ? within(m.u, 0, 0.5) : within(m.u, 0.5, 0.5);
    }

    // Card i's place along the ring and its box at a morph: between its places (and sizes) in
    // the two rings; a card only the new ring has stays where it will be.
    double card_s(const Morph& m, int i) const {
        if (i >= gpus_[m.from]) return rings_[m.to].s[i];
        return lerp(rings_[m.from].s[i], rings_[m.to].s[std::min(i, gpus_[m.to] - 1)], slide(m));
    }
    Box box(const Morph& m, int i) const {
        if (i >= gpus_[m.from]) return rings_[m.to].cards[i];
        const Box sized = lerp(rings_[m.from].cards[i],
                               rings_[m.to].cards[std::min(i, gpus_[m.to] - 1)], slide(m));
        return box_around(on_ring(card_s(m, i)), sized.w, sized.h);
    }

    // How visible card i is: staggered entrance, new ranks fading in one after another once the
    // ring has slid, dropped ranks fading out before it slides.
    double card_alpha(double t, const Morph& m, int i) const {
        const int from = gpus_[m.from], to = gpus_[m.to];
        double a = cards_in_.at(t, i);
        if (i >= from) a *= within(m.u, 0.5 + 0.3 * (i - from) / std::max(1, to - from), 0.2);
        if (i >= to) a *= leaving(m);
        return std::clamp(a, 0.0, 1.0);
    }

    void add_cards(Scene& s, double t, const Morph& m) const {
        const int n = std::max(gpus_[m.from], gpus_[m.to]);
        const Run& run = runs_[shown_state(m)];
        const Counts& counts = counts_at(run, t);
        const double strips = grads_in_.at(t) * swap_alpha(m);
        for (int i = 0; i < n; ++i) {
            const double alpha = card_alpha(t, m, i);
            if (alpha <= 0) continue;
            const Box b = box(m, i);
            CardSpec card{b.x,
                          b.y,
                          b.w,
                          b.h,
                          tr("GPU {n}", {{"n", i}}),
                          report_at(t).per_gpu.capacity.value,
                          memory_at(t)};
            card.label_size = card_label_size(b.w);
            card.capacity_label = false;
            card.max_spill = kMaxSpill;
            auto items = gpu_card(palette_, metrics_, locale_, card);
            // A row of identical cards labels its overflow once.
            add_items(s,
                      i == 0 ? std::move(items)
                             : without_spill_label(std::move(items), palette_.highlight),
                      alpha);
            if (i < run.ring.n) add_strip(s, b, counts[i], i, run, t, alpha * strips);
            if (loaf(m))  // the model copied whole onto every card
                add_loaf_inset(
                    s, palette_, loaf_beside(b), slices_[m.shown()], 1,
                    [](int, int) { return true; }, alpha * resizing(m));
        }
    }

    // Card i's gradient buffer: N cells, each filled by the share of the N contributions summed
    // into it; the chunk a rank finished reducing is outlined.
    void add_strip(Scene& s, const Box& card, const std::vector<int>& count, int rank,
                   const Run& run, double t, double alpha) const {
        if (alpha <= 0) return;
        const int n = static_cast<int>(count.size());
        const Box strip = inset(below(card, kStripGap, kStripH), kStripInset, 0);
        const double gap = strip.w / n >= 8 ? 2 : 1;
        const bool reduced = phase_of(run, t).step >= n - 1;  // reduce-scatter finished
        for (int c = 0; c < n; ++c) {
            const Box cell = row_cell(strip, n, c, gap);
            s.add(filled(cell, 2, palette_.panel, palette_.grid, 1), alpha);
            s.add(filled(bottom_of(cell, kStripH * count[c] / n), 1, palette_.gradients), alpha);
            if (reduced && c == (rank + 1) % n && n > 1)
                s.add(outline(inflate(cell, 1), 2, palette_.highlight, 2), alpha);
        }
    }

    // The link from card a to the next card b follows the ring's outline rather than cutting
    // the chord between them: with few cards a chord crosses the middle, where the legend and
    // read-out sit, while the outline keeps clear of them for any N.
    Span link_span(const Morph& m, int a, int b) const {
        const double sa = card_s(m, a);
        double sb = card_s(m, b);
        while (sb <= sa) sb += kPerimeter;  // clockwise from a, around the top centre if need be
        return {leave(with_strip(box(m, a), loaf(m)), sa, sb, kLinkMargin),
                leave(with_strip(box(m, b), loaf(m)), sb, sa, kLinkMargin)};
    }

    // A link drawn along its stretch of the outline, its head on the last few px.
    void add_link(Scene& s, const Span& span, Color color, double width, double alpha) const {
        if (span.to - span.from < kHead) return;  // cards touching: no room for a link
        s.add(Path{ring_points(span.from, span.to - kHead), false, std::nullopt, color, width},
              alpha);
        s.add(Arrow{on_ring(span.to - kHead), on_ring(span.to), color, width, kHead}, alpha);
    }

    void add_links(Scene& s, double t, const Morph& m) const {
        const Run& run = runs_[shown_state(m)];
        const int n = run.ring.n;
        if (n < 2) return;
        const double alpha = links_in_.at(t) * swap_alpha(m);
        const bool moving = phase_of(run, t).moving;
        for (int r = 0; r < n; ++r) {
            const int next = (r + 1) % n;
            const Span span = link_span(m, r, next);
            const double width = run.node[r] == run.node[next] ? kNvlinkWidth : kNetworkWidth;
            add_link(s, span, palette_.muted, width, alpha);
            if (moving) add_link(s, span, palette_.comm, width, alpha * 0.9);
        }
    }

    // Behind the cards, each node's as one band along the ring; the link between two bands is the
    // network.
    void add_nodes(Scene& s, double t, const Morph& m) const {
        const Run& run = runs_[shown_state(m)];
        const double alpha = cards_in_.at(t, 0) * swap_alpha(m);
        if (alpha <= 0) return;
        std::vector<double> places;
        for (int i = 0; i < run.ring.n; ++i) places.push_back(card_s(m, i));
        for (const Span& band : node_spans(places, run.node, kPerimeter / run.ring.n, kNodeGap))
            s.add(Path{ring_points(band.from, band.to), band.to - band.from >= kPerimeter,
                       std::nullopt, palette_.grid, kNodeBand},
                  alpha * kBandAlpha);
    }

    // Under the middle, once the read-out names the ring's link, both links named.
    void add_link_names(Scene& s, double t, const Morph& m) const {
        const engine::Config& c = timeline_.states()[m.shown()];
        const std::string links = tr(
            "Nodes of {k} GPUs: NVLink {nvlink} each way inside, {network} {bandwidth} between",
            {{"k", c.cluster.gpus_per_node},
             {"nvlink", format_bandwidth(engine::nvlink_per_direction(c.cluster).value, locale_)},
             {"network", network_name(c)},
             {"bandwidth", format_bandwidth(c.cluster.network.value, locale_)}});
        const TextStyle note = tabular(style_of(Role::note));
        s.add(
            Text{kCx, kLinksBaseline, links, sized(note, fit_size(metrics_, links, note, kLinksW)),
                 palette_.text, Align::center},
            readout_in_.at(t));
    }

    // "InfiniBand NDR" where the network is one InfiniBand port a GPU (engine::
    // infiniband_generation), else the generic name.
    std::string network_name(const engine::Config& c) const {
        const std::string_view generation = engine::infiniband_generation(c.cluster.network);
        return generation.empty() ? tr("Network") : "InfiniBand " + std::string(generation);
    }

    void add_run_tokens(Scene& s, double t, const Morph& m) const {
        if (m.u < 1) return;
        const Run& run = runs_[m.to];
        const RunPhase p = phase_of(run, t);
        if (!p.moving) return;
        const double size = run.ring.n <= 8 ? 30 : 20;
        for (const engine::ChunkTransfer& x : run.ring.transfers) {
            if (x.step != p.step) continue;
            add_token(s, palette_, metrics_, link_span(m, x.src, x.dst).at(p.move), size,
                      palette_.gradients, format_count(x.chunk, locale_), 1);
        }
    }

    // The global batch splitting into one slice per card: the slices fly from the batch to the
    // cards' middles, then fade.
    void add_batch(Scene& s, double t, const Morph& m) const {
        const double slices = batch_in_.at(t);
        if (slices <= 0) return;
        const double fly = progress(t, at(kBatchAt) + kFlyAfter, kFlyFor);
        const double split = progress(t, at(kBatchAt) + kSplitAfter, kSplitFor);
        // The engine's tokens per step (dp x micro_batch x micro_batches x seq_len) in sequences.
        const engine::Config& c = timeline_.states()[m.to];
        const long long global =
            std::llround(reports_[m.to].flops.tokens_per_step / c.training.seq_len);
        s.add(Text{kBatch.cx(), kBatch.y - kBatchLabelLift,
                   tr("Global batch: {global} sequences, {per} per card",
                      {{"global", global}, {"per", global / std::max(1, c.layout.dp())}}),
                   style_of(Role::label), palette_.text, Align::center},
              batch_label_in_.at(t));
        const int n = gpus_[m.to];
        for (int i = 0; i < n; ++i) {
            const Box from = row_cell(kBatch, n, i, 0), card = box(m, i);
            const Box to{card.cx() - from.w / 2, card.cy(), from.w, from.h};
            s.add(filled(inset(lerp(from, to, fly), split * kSplitGap / 2, 0), 4,
                         palette_.activations),
                  slices);
        }
    }

    // Left of the ring's middle: what the ring is doing, and the buffer cut into N chunks.
    void add_legend(Scene& s, double t, const Morph& m) const {
        const double alpha = grads_in_.at(t) * swap_alpha(m);
        if (alpha <= 0) return;
        const Run& run = runs_[shown_state(m)];
        const int n = run.ring.n;
        const Box legend{kLegendX, kLegendY, n <= 8 ? kLegendW : kWideLegendW, kLegendH};
        s.add(Text{legend.x, legend.y - kHeadingLift, phase_text(run, t),
                   weighted(style_of(Role::body), Weight::semibold), palette_.text},
              alpha);
        const TextStyle num = tabular(weighted(style_of(Role::small), Weight::semibold));
        const bool labelled =
            metrics_.measure(format_count(n - 1, locale_), num).advance + 6 <= legend.w / n;
        for (int c = 0; c < n; ++c) {
            const Box cell = row_cell(legend, n, c, 0);
            s.add(filled(inset(cell, 1, 0), 4, palette_.gradients), alpha);
            if (labelled)
                s.add(Text{cell.cx(), centred_baseline(metrics_, "0", num, cell.cy()),
                           format_count(c, locale_), num, palette_.background, Align::center},
                      alpha);
        }
        s.add(Text{legend.x, legend.y + kNoteDrop,
                   tr("Gradient buffer B = {bytes}, in {n} chunks",
                      {{"bytes", format_bytes(value_at(t, buffer_), locale_)}, {"n", n}}),
                   style_of(Role::note), palette_.muted},
              alpha);
    }

    std::string phase_text(const Run& run, double t) const {
        const int n = run.ring.n;
        if (n < 2) return tr("One card: nothing to average");
        const RunPhase p = phase_of(run, t);
        if (p.step < 0) return tr("Each card's own gradients");
        if (p.step >= run.ring.steps()) return tr("Every card holds the sum");
        const bool gather = p.step >= n - 1;
        const int k = gather ? p.step - (n - 1) : p.step;
        return tr(
            gather ? N_("All-gather · step {k} of {n}") : N_("Reduce-scatter · step {k} of {n}"),
            {{"k", k + 1}, {"n", n - 1}});
    }

    // Right of the ring's middle: the bytes each card sends and their time on the link.
    void add_readout(Scene& s, double t, const Morph& m) const {
        const int n = gpus_[m.shown()];
        const double sent =
            figure_at(t, [](const engine::Report& r) { return r.comm.dp_per_gpu.value; });
        const double secs =
            figure_at(t, [](const engine::Report& r) { return r.comm.dp_time.value; });
        const std::string link =
            tr(N_("{network} {bandwidth} each way: {time}"),
               {{"network", dp_on_nvlink_[m.shown()] ? std::string("NVLink")
                                                     : network_name(timeline_.states()[m.shown()])},
                {"bandwidth", format_bandwidth(value_at(t, bandwidth_), locale_)},
                {"time", format_time(secs, locale_)}});
        const TextStyle body = tabular(style_of(Role::body));
        TextColumn readout(metrics_, kReadoutX, kReadoutTop);
        readout
            .line(tr("Each card sends 2 × {fraction} × {bytes}",
                     {{"fraction", fraction_text(n - 1, n, locale_)},
                      {"bytes", format_bytes(value_at(t, buffer_), locale_)}}),
                  Role::note, palette_.muted)
            .line(tr("= {bytes} per step", {{"bytes", format_bytes(sent, locale_)}}), Role::value,
                  palette_.comm)
            .line(link, sized(body, fit_size(metrics_, link, body, kReadoutW)), palette_.text);
        readout.add_to(s, readout_in_.at(t) * resizing(m));
    }

    // While the ring resizes its cards slide under the readout and the loaves change sides: they
    // fade out and back in, changing to the new state's figures where gone (Morph::shown).
    double resizing(const Morph& m) const {
        return gpus_[m.from] == gpus_[m.to] ? 1 : 1 - within(m.u, 0, 0.1) + within(m.u, 0.9, 0.1);
    }
    // Whether each card has its loaf beside it: the more cards of the morph leave room for it.
    bool loaf(const Morph& m) const { return loaf_fits(std::max(gpus_[m.from], gpus_[m.to])); }

    const Stagger cards_in_;
    const Fade links_in_, batch_in_, batch_label_in_, grads_in_, readout_in_;
    std::vector<double> buffer_, bandwidth_;
    std::vector<int> gpus_;
    const std::vector<int> slices_ = loaf_slices(timeline_.states());  // each state's loaf
    std::vector<bool> dp_on_nvlink_;
    std::vector<RingLayout> rings_;
    std::vector<Run> runs_;
};

// The replayed schedule holds N x N chunk counts for each of 2(N-1) steps.
std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.layout.gpus <= kMaxRingGpus) return std::nullopt;
    return "ring_allreduce draws at most " + std::to_string(kMaxRingGpus) + " GPUs, got " +
           std::to_string(c.layout.gpus);
}

const KindRegistrar registrar{{
    .name = "ring_allreduce",
    .default_duration = kDefaultDuration,
    .settable = {"gpus", "model", "precision", "grad_dtype", "network", "nvlink", "gpu"},
    .make = make_of<RingChapter>,
    .cannot_draw = cannot_draw,
    .shows = "N cards on a ring, each with a full copy (the model's loaf whole beside it, where "
             "the ring leaves room); the global batch (the engine's "
             "sequences per step) cut into a slice per card; each node's cards on one band, "
             "NVLink inside and InfiniBand (or the network) between named with their "
             "bandwidths; the gradient buffer in N chunks, reduce-scatter then all-gather step "
             "by step from the engine's schedule; 2(N-1)/N x B per card and its time on the "
             "link the ring crosses; memory bars that do not move as N grows",
    .goldens = {{"chapter_ring_allreduce", 7.3,
                 "chunks halfway round the ring during reduce-scatter"}},
    .phases = {{"cards", kCardsAt, "the cards on the ring, each with a full copy (its loaf)"},
               {"batch", kBatchAt, "the batch split into a slice for each card"},
               {"gradients", kGradsAt, "each card's gradients, in N chunks"},
               {"reduce_scatter", kRingAt, "the chunks round the ring, each collecting a sum"},
               {"all_gather", kAllGatherAt, "the finished sums round the ring once more"},
               {"readout", kReadoutAt, "the bytes each card sends, and their time"}},
    .facts = {.rows = {with_label(rows::dp, N_("GPUs in the ring")), rows::dp_sent,
                       rows::comm_seconds},
              .formulas = {formulas::ring}},
}};

}  // namespace

}  // namespace story
