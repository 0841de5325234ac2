// `activation_checkpointing`: what a GPU keeps for the backward pass. The card's stack
// (weights, gradients, optimizer, activations on top), one layer's activation bytes as the
// Korthikanti formula with its numbers, and a compute bar. `set: {recompute: ...}` collapses
// the activations (selective drops the attention scores, full keeps only 2sbh per layer) while
// the compute bar grows by the forward pass run again: +1/3 under full recompute.
#include <algorithm>
#include <cmath>

#include "engine/recompute.hpp"
#include "story/chapter_base.hpp"
#include "story/format.hpp"
#include "story/strategy_kit.hpp"
#include "story/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 20;
// Choreography, in seconds of the default duration.
constexpr double kCardAt = 0.4, kFillAt = 0.9, kLayerAt = 2.6, kTotalAt = 4.4, kComputeAt = 6.0;

constexpr double kCardX = 130, kCardY = 300, kCardW = 300, kCardH = 560;
constexpr double kLabelX = kCardX + kCardW + 30, kValueRight = 800;
constexpr double kRightX = 900, kRightW = frame::kRight - kRightX;

struct CkptState {
    engine::ActivationCoefficients coef;
    engine::ComputeUnits compute;
};

std::vector<CkptState> ckpt_states(const std::vector<engine::Config>& states) {
    std::vector<CkptState> out;
    for (const engine::Config& c : states)
        out.push_back({engine::activation_coefficients(c.model, c.training, c.layout.tp),
                       engine::recompute_compute_units(c.model, c.training)});
    return out;
}

// The per-layer formula in symbols, as Korthikanti et al. write it for this configuration.
std::string formula(const engine::Config& c) {
    const engine::Training& tr = c.training;
    const bool split = c.layout.tp > 1, sp = tr.sequence_parallel && split;
    if (tr.recompute == engine::Recompute::full) return sp ? "2·s·b·h / t" : "2·s·b·h";
    const std::string linear = sp ? "34/t" : split ? "10 + 24/t" : "34";
    const bool scores = tr.recompute == engine::Recompute::none && !tr.flash_attention;
    if (!scores) return linear == "34" ? "34·s·b·h" : "s·b·h·(" + linear + ")";
    return "s·b·h·(" + linear + " + 5as/" + (split ? "(h·t)" : "h") + ")";
}

std::string recompute_name(const engine::Config& c) {
    return std::string("Recompute: ") + std::string(engine::to_string(c.training.recompute));
}

class CheckpointChapter final : public ChapterBase {
  public:
    CheckpointChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          ckpt_(ckpt_states(timeline_.states())),
          colors_(pass_colors(palette_)) {}

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_card(s, t);
        add_layer(s, t);
        add_total(s, t);
        add_compute(s, t);
        add_frame(s, t);
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }
    const engine::Config& state(double t) const {
        return timeline_.states()[timeline_.morph_at(t).to];
    }

    double mine(double t, double (*f)(const CkptState&)) const {
        const Morph m = timeline_.morph_at(t);
        return lerp(f(ckpt_[m.from]), f(ckpt_[m.to]), m.u);
    }

    struct Segment {
        std::string name;
        double bytes;
        Color color;
    };

    std::vector<Segment> segments(double t) const {
        const auto fig = [&](engine::Bytes engine::PerGpu::*field) {
            return figure_at(t,
                             [field](const engine::Report& r) { return (r.per_gpu.*field).value; });
        };
        return {{"Weights", fig(&engine::PerGpu::weights), palette_.weights},
                {"Gradients", fig(&engine::PerGpu::gradients), palette_.gradients},
                {"Optimizer", fig(&engine::PerGpu::optimizer), palette_.optimizer},
                {"Activations", fig(&engine::PerGpu::activations), palette_.activations}};
    }

    void add_card(Scene& s, double t) const {
        const double alpha = progress(t, at(kCardAt), 0.5);
        if (alpha <= 0) return;
        const auto segs = segments(t);
        // Model states first, then the activations pour in on top.
        const double states_fill = progress(t, at(kFillAt), 0.8),
                     act_fill = progress(t, at(kFillAt) + 0.8, 1.0);
        CardSpec card{kCardX, kCardY, kCardW, kCardH, "GPU 0", state(t).cluster.gpu.memory.value,
                      {}};
        for (std::size_t i = 0; i < segs.size(); ++i)
            card.stack.push_back(
                {segs[i].bytes * (i + 1 < segs.size() ? states_fill : act_fill), segs[i].color});
        card.max_spill = 0.16;
        for (Item& item : gpu_card(palette_, metrics_, card)) s.add(std::move(item.shape), alpha);
        add_stack_labels(s, t, segs, card);
    }

    // Each label at its segment's middle, pushed apart so none collide, kept beside the card.
    void add_stack_labels(Scene& s, double t, const std::vector<Segment>& segs,
                          const CardSpec& card) const {
        const double bottom = card.y + card.h - 14, px = (kCardH - 72) / card.capacity;
        std::vector<double> ys;
        double y = bottom;
        for (const Segment& seg : segs) {
            ys.push_back(y - seg.bytes * px / 2);
            y -= seg.bytes * px;
        }
        ys[0] = std::min(ys[0], bottom - 10);
        for (std::size_t i = 1; i < ys.size(); ++i) ys[i] = std::min(ys[i], ys[i - 1] - 52);
        const double lift = std::max(0.0, card.y + 40 - ys.back());
        const TextStyle name{frame::kLabelSize, Weight::medium, false};
        const TextStyle value{frame::kLabelSize, Weight::semibold, true};
        for (std::size_t i = 0; i < segs.size(); ++i) {
            const double yy = ys[i] + lift + 9;
            const double alpha =
                progress(t, at(i + 1 < segs.size() ? kFillAt : kFillAt + 0.8) + 0.3, 0.5);
            s.add(Rect{kLabelX, yy - 19, 18, 18, 3, segs[i].color}, alpha);
            s.add(Text{kLabelX + 28, yy, segs[i].name, name, palette_.text}, alpha);
            s.add(Text{kValueRight, yy, format_bytes(segs[i].bytes), value, palette_.text,
                       Align::right},
                  alpha);
        }
    }

    // One layer: the formula, its numbers, and a bar that collapses under recompute.
    void add_layer(Scene& s, double t) const {
        const double alpha = progress(t, at(kLayerAt), 0.5);
        if (alpha <= 0) return;
        const TextStyle heading{frame::kBodySize, Weight::semibold, false};
        s.add(Text{kRightX, 320, "Activations kept per layer", heading, palette_.text}, alpha);
        const TextStyle tag{frame::kLabelSize, Weight::semibold, false};
        s.add(Text{frame::kRight, 320, recompute_name(state(t)), tag, palette_.highlight,
                   Align::right},
              alpha);
        const TextStyle body{frame::kBodySize, Weight::regular, false};
        s.add(Text{kRightX, 372, formula(state(t)) + " bytes", body, palette_.text}, alpha);

        const engine::Config& c = state(t);
        const double linear = mine(t, [](const CkptState& k) { return k.coef.linear; });
        const double scores = mine(t, [](const CkptState& k) { return k.coef.scores; });
        const double per_layer =
            figure_at(t, [](const engine::Report& r) { return r.activations.per_layer.value; });
        const std::string coef = scores > 0.005
                                     ? "(" + format_sig3(linear) + " + " + format_sig3(scores) + ")"
                                     : format_sig3(linear);
        TextStyle numbers{frame::kLabelSize, Weight::regular, true};
        const std::string line = format_int(c.training.seq_len) + " × " +
                                 format_int(c.training.micro_batch) + " × " +
                                 format_int(c.model.hidden) + " × " + coef + kThinSpace +
                                 "B = " + format_bytes(per_layer);
        numbers.size = fit_size(metrics_, line, numbers, kRightW);
        s.add(Text{kRightX, 414, line, numbers, palette_.muted}, alpha);
        add_layer_bar(s, linear, scores, alpha);
    }

    // Bar length is bytes per element, against the largest of the chapter's states.
    void add_layer_bar(Scene& s, double linear, double scores, double alpha) const {
        double most = 1e-9;
        for (const CkptState& k : ckpt_) most = std::max(most, k.coef.total());
        const double px = kRightW / most, y = 440, h = 44;
        s.add(Rect{kRightX, y, linear * px, h, 3, palette_.activations}, alpha);
        if (scores * px > 0.5)
            s.add(Rect{kRightX + linear * px, y, scores * px, h, 3,
                       with_alpha(palette_.activations, 0.4), palette_.activations, 1.5},
                  alpha);
        double x = add_legend(s, palette_, metrics_, kRightX, y + h + 40,
                              {{"kept for the backward pass", palette_.activations}}, alpha);
        if (scores * px > 0.5)
            add_legend(s, palette_, metrics_, x + 36, y + h + 40,
                       {{"attention scores", with_alpha(palette_.activations, 0.4)}},
                       std::min(alpha, scores * px / 40));
    }

    void add_total(Scene& s, double t) const {
        const double alpha = progress(t, at(kTotalAt), 0.5);
        if (alpha <= 0) return;
        const engine::Report& r = report_at(t);
        const double total =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.activations.value; });
        const std::string mb =
            r.activations.in_flight_micro_batches == 1 ? " micro-batch" : " micro-batches";
        const std::string line = "× " + format_int(r.activations.layers_per_gpu) + " layers × " +
                                 format_sig3(r.activations.in_flight_micro_batches) + mb +
                                 " in flight = " + format_bytes(total) + " on this GPU";
        TextStyle style{frame::kLabelSize + 4, Weight::semibold, true};
        style.size = fit_size(metrics_, line, style, kRightW);
        s.add(Text{kRightX, 586, line, style, palette_.activations}, alpha);
    }

    // Work per step in units of one forward pass: forward, backward, and the forward run again.
    void add_compute(Scene& s, double t) const {
        const double alpha = progress(t, at(kComputeAt), 0.5);
        if (alpha <= 0) return;
        const TextStyle heading{frame::kBodySize, Weight::semibold, false};
        s.add(Text{kRightX, 662, "Compute per step", heading, palette_.text}, alpha);
        const double fwd = mine(t, [](const CkptState& k) { return k.compute.forward; });
        const double bwd = mine(t, [](const CkptState& k) { return k.compute.backward; });
        const double re = mine(t, [](const CkptState& k) { return k.compute.recompute; });
        const double px = kRightW / 4.0, y = 686, h = 56;  // room for the full 4 units
        const struct {
            double units;
            Color fill;
            const char* name;
        } parts[] = {{fwd, colors_.forward, "forward"},
                     {bwd, colors_.backward, "backward"},
                     {re, palette_.highlight, "forward again"}};
        double x = kRightX;
        const TextStyle label{frame::kLabelSize, Weight::semibold, false};
        for (const auto& p : parts) {
            const double w = p.units * px;
            if (w < 0.5) continue;
            s.add(Rect{x + 1, y, w - 2, h, 3, p.fill}, alpha);
            if (metrics_.measure(p.name, label).advance + 16 < w)
                s.add(Text{x + w / 2, y + h / 2 + 9, p.name, label, readable_on(palette_, p.fill),
                           Align::center},
                      alpha);
            x += w;
        }
        const double ratio = mine(t, [](const CkptState& k) { return k.compute.ratio(); });
        const TextStyle body{frame::kLabelSize + 4, Weight::semibold, true};
        const std::string sum = format_sig3(fwd) + " + " + format_sig3(bwd) +
                                (re > 0.005 ? " + " + format_sig3(re) : "") + " = " +
                                format_sig3(fwd + bwd + re) + " forward passes of work";
        s.add(Text{kRightX, 790, sum, body, palette_.text}, alpha);
        const std::string extra =
            re > 0.005 ? "+" + format_percent(ratio - 1) + " compute to save the memory"
                       : "no extra compute";
        s.add(Text{kRightX, 834, extra, body, re > 0.005 ? palette_.highlight : palette_.muted},
              alpha);
    }

    const std::vector<CkptState> ckpt_;
    const PassColors colors_;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<CheckpointChapter>(spec, video, metrics);
}

const KindRegistrar registrar{
    {"activation_checkpointing",
     kDefaultDuration,
     {"recompute", "seq_len", "micro_batch", "flash_attention", "model", "sequence_parallel", "tp"},
     make}};

}  // namespace

}  // namespace story
