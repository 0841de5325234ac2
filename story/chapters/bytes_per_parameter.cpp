// `bytes_per_parameter`: why a large model does not fit. The bytes one parameter costs build
// up (weights, gradients, optimizer state), the model's total pours into one card and spills
// over, then spreads across the cards needed just to hold it. `set:` morphs model/precision.
#include <algorithm>
#include <cmath>

#include "story/chapter_base.hpp"
#include "story/format.hpp"
#include "story/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
// Choreography, in seconds of the default duration.
constexpr double kSegmentStart[3] = {0.8, 2.0, 3.2};
constexpr double kTotalAt = 4.4, kCardAt = 5.5, kFillAt = 6.1, kSpreadAt = 11.0;

// Left column: bytes per parameter as a stacked bar.
constexpr double kBarX = 150, kBarW = 150, kBarBottom = 860,
                 kPxPerByte = 24;  // 18 B (fp32 grads) still fits
constexpr double kLabelX = kBarX + kBarW + 28, kValueRight = 800;
// Right column: the cards.
constexpr double kRightX = 960, kRightW = frame::kRight - kRightX;
constexpr double kGridTop = 450, kGridBottom = 860;

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

struct CardSlot {
    double x = 0, y = 0, w = 0, h = 0;
};

// Grid of n cards inside the right column, at most 8 per row.
CardSlot slot(int n, int i) {
    const int rows = (n + 7) / 8, cols = (n + rows - 1) / rows;
    const double gap_x = 16, gap_y = 56;
    const double w = std::min(210.0, (kRightW - gap_x * (cols - 1)) / cols);
    const double h = std::min(400.0, (kGridBottom - kGridTop - gap_y * (rows - 1)) / rows);
    const double left = kRightX + (kRightW - (w * cols + gap_x * (cols - 1))) / 2;
    const int row = i / cols, col = i % cols;
    return {left + col * (w + gap_x), kGridBottom - (rows - row) * h - (rows - 1 - row) * gap_y, w,
            h};
}

CardSlot lerp_slot(const CardSlot& a, const CardSlot& b, double u) {
    return {lerp(a.x, b.x, u), lerp(a.y, b.y, u), lerp(a.w, b.w, u), lerp(a.h, b.h, u)};
}

// Where the lone card stands before the state spreads over more cards.
constexpr CardSlot kSingleCard{kRightX + kRightW / 2 - 130, 540, 260, 320};

class BytesChapter final : public ChapterBase {
  public:
    using ChapterBase::ChapterBase;

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_bytes_bar(s, t);
        add_model_heading(s, t);
        add_cards(s, t);
        const double states =
            grid_figure(t, [](const engine::Report& r) { return r.model_states.value; });
        add_chrome(
            s, palette_, metrics_,
            chrome_at(t,
                      {{"Per card", format_bytes(states)}, {"Comm / step", "—"}, {"Bubble", "—"}}));
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }

    std::vector<Segment> segments(double t) const {
        const auto& cfg = timeline_.states()[timeline_.morph_at(t).to].training;
        const bool mixed = cfg.precision != engine::Precision::fp32;
        const std::string grads = mixed ? std::string(engine::to_string(cfg.grad_dtype)) : "fp32";
        return {
            {"Weights", weight_dtype(cfg.precision),
             figure_at(t, [](const engine::Report& r) { return r.bytes_per_param.weights; }),
             palette_.weights},
            {"Gradients", grads,
             figure_at(t, [](const engine::Report& r) { return r.bytes_per_param.gradients; }),
             palette_.gradients},
            {"Optimizer state", mixed ? "fp32 master + Adam m, v" : "Adam m, v (fp32)",
             figure_at(t, [](const engine::Report& r) { return r.bytes_per_param.optimizer; }),
             palette_.optimizer},
        };
    }

    void add_bytes_bar(Scene& s, double t) const {
        const TextStyle heading{frame::kHeadingSize, Weight::semibold, false};
        s.add(Text{frame::kLeft, 320, "Bytes per parameter", heading, palette_.text},
              progress(t, 0.3, 0.5));
        const auto segs = segments(t);
        double y = kBarBottom, total = 0;
        std::vector<double> label_y;
        for (int i = 0; i < 3; ++i) {
            const double u = progress(t, at(kSegmentStart[i]), 0.6);
            const double h = segs[i].bytes * kPxPerByte * u;
            s.add(Rect{kBarX, y - h, kBarW, h, 0, segs[i].color}, u > 0 ? 1.0 : 0.0);
            label_y.push_back(y - h / 2);
            y -= h;
            total += segs[i].bytes * u;
        }
        spread_labels(label_y);
        for (int i = 0; i < 3; ++i)
            add_segment_label(s, segs[i], label_y[i], progress(t, at(kSegmentStart[i]) + 0.2, 0.5));
        add_total_row(s, total, y, progress(t, at(kTotalAt), 0.5));
    }

    // The sum, written like a whiteboard addition above the stack: a rule, then "Total 16 B".
    void add_total_row(Scene& s, double total, double bar_top, double alpha) const {
        const double y = bar_top - 24;
        s.add(Line{{kLabelX, y - 46}, {kValueRight, y - 46}, palette_.muted, 2}, alpha);
        const TextStyle label{frame::kBodySize, Weight::semibold, false};
        const TextStyle value{frame::kHeadingSize + 8, Weight::semibold, true};
        s.add(Text{kLabelX, y, "Total per parameter", label, palette_.text}, alpha);
        s.add(
            Text{kValueRight, y, format_bytes_per_param(total), value, palette_.text, Align::right},
            alpha);
    }

    // Labels sit at their segment's middle, pushed apart so two lines never collide.
    static void spread_labels(std::vector<double>& ys) {
        constexpr double kMinGap = 70;
        for (std::size_t i = 1; i < ys.size(); ++i) ys[i] = std::min(ys[i], ys[i - 1] - kMinGap);
    }

    void add_segment_label(Scene& s, const Segment& seg, double y, double alpha) const {
        const TextStyle name{frame::kLabelSize, Weight::semibold, false};
        const TextStyle detail{22, Weight::regular, false};
        const TextStyle value{frame::kLabelSize + 4, Weight::semibold, true};
        s.add(Rect{kLabelX, y - 22, 12, 12, 3, seg.color}, alpha);
        s.add(Text{kLabelX + 22, y - 8, seg.name, name, palette_.text}, alpha);
        s.add(Text{kLabelX + 22, y + 22, seg.detail, detail, palette_.muted}, alpha);
        s.add(Text{kValueRight, y - 8, format_bytes_per_param(seg.bytes), value, palette_.text,
                   Align::right},
              alpha);
    }

    void add_model_heading(Scene& s, double t) const {
        const double u = progress(t, at(kCardAt), 0.5);
        const double params = grid_figure(t, [](const engine::Report& r) { return r.params; });
        const double bpp =
            grid_figure(t, [](const engine::Report& r) { return r.bytes_per_param.total(); });
        const double states =
            grid_figure(t, [](const engine::Report& r) { return r.model_states.value; });
        const std::string line = format_params(params) + " parameters × " +
                                 format_bytes_per_param(bpp) + " = " + format_bytes(states);
        TextStyle style{frame::kHeadingSize, Weight::semibold, true};
        style.size = fit_size(metrics_, line, style, kRightW);
        s.add(Text{kRightX, 320, line, style, palette_.text}, u);
        TextStyle note{frame::kLabelSize, Weight::regular, false};
        s.add(Text{kRightX, 362, "model state before a single activation", note, palette_.muted},
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

    double capacity(double t) const {
        return timeline_.states()[timeline_.morph_at(t).to].cluster.gpu.memory.value;
    }

    std::string gpu_name(double t) const {
        return gpu_display_name(timeline_.states()[timeline_.morph_at(t).to].cluster.gpu);
    }

    // One card first, overflowing; then the overflow moves onto the further cards needed, and
    // each `set:` re-lays the grid: existing cards slide, new ones fade in where they belong.
    void add_cards(Scene& s, double t) const {
        const double appear = progress(t, at(kCardAt), 0.5);
        if (appear <= 0) return;
        const double spread = progress(t, at(kSpreadAt), 1.0);
        const Morph m = timeline_.morph_at(t);
        const int n_from = reports_[m.from].gpus_to_hold_model_states;
        const int n_to = reports_[m.to].gpus_to_hold_model_states;
        const double cap = capacity(t);
        const auto stack = model_stack(t, progress(t, at(kFillAt), 1.5));
        double total = 0;
        for (const MemorySegment& seg : stack) total += seg.bytes;
        for (int i = 0; i < std::max(n_from, n_to); ++i) {
            double alpha = grid_alpha(i, n_from, n_to, m.u);
            CardSlot box = grid_slot(i, n_from, n_to, m.u);
            CardSpec card{0, 0, 0, 0, "GPU " + std::to_string(i), cap, pour(stack, i * cap, cap)};
            if (i == 0) {
                box = lerp_slot(kSingleCard, box, spread);
                // The spill drains in the first half of the spread; the count fades in after.
                const double drained = std::clamp(spread / 0.5, 0.0, 1.0);
                card.stack = pour(stack, 0, cap + (1 - drained) * std::max(0.0, total - cap));
                card.max_spill = 0.3;
                if (spread < 0.5) card.name = "One " + gpu_name(t);
                alpha *= appear;
            } else {
                alpha *= progress(t, at(kSpreadAt) + 0.8 + 0.06 * i, 0.4);  // once card 0 has moved
            }
            if (alpha <= 0) continue;
            card.x = box.x, card.y = box.y, card.w = box.w, card.h = box.h;
            card.label_size = box.w < 150 ? 22 : 26;
            for (Item& item : gpu_card(palette_, metrics_, card))
                s.add(std::move(item.shape), alpha);
        }
        add_cards_needed(s, t, cap, std::clamp((spread - 0.5) / 0.5, 0.0, 1.0));
    }

    // A growing grid first slides the cards it has, then fades the new ones in where they
    // belong; a shrinking one first fades the leaving cards out, then slides. Cards never cross.
    static double slide_u(int n_from, int n_to, double u) {
        return n_to >= n_from ? std::clamp(u / 0.5, 0.0, 1.0)
                              : std::clamp((u - 0.4) / 0.6, 0.0, 1.0);
    }

    // Progress of the state's growth (or shrinking) through a `set:`: a growing grid first
    // slides, then the state counts up while the new cards fade in to hold it; a shrinking one
    // counts down while the leaving cards fade, then slides. The numbers, the poured stack and
    // the "N x 80 GB" line all follow it, so they never disagree with the cards on screen.
    double count_u(const Morph& m) const {
        const int n_from = reports_[m.from].gpus_to_hold_model_states;
        const int n_to = reports_[m.to].gpus_to_hold_model_states;
        if (n_to > n_from) return std::clamp((m.u - 0.4) / 0.6, 0.0, 1.0);
        if (n_to < n_from) return std::clamp(m.u / 0.4, 0.0, 1.0);
        return m.u;
    }

    double grid_figure(double t, double (*f)(const engine::Report&)) const {
        const Morph m = timeline_.morph_at(t);
        return lerp(f(reports_[m.from]), f(reports_[m.to]), count_u(m));
    }

    static CardSlot grid_slot(int i, int n_from, int n_to, double u) {
        if (i < n_from && i < n_to)
            return lerp_slot(slot(n_from, i), slot(n_to, i), slide_u(n_from, n_to, u));
        return i < n_to ? slot(n_to, i) : slot(n_from, i);
    }

    static double grid_alpha(int i, int n_from, int n_to, double u) {
        if (i >= n_to) return 1 - std::clamp(u / 0.4, 0.0, 1.0);
        if (i >= n_from) {
            const double fade = std::clamp((u - 0.4) / 0.6, 0.0, 1.0);
            return std::clamp(fade * (n_to - n_from + 2) - (i - n_from), 0.0, 1.0);
        }
        return 1;
    }

    void add_cards_needed(Scene& s, double t, double cap, double alpha) const {
        // The cards that hold the state as it is drawn now: the engine's count at either end.
        const Morph m = timeline_.morph_at(t);
        const double u = count_u(m);
        const double states =
            grid_figure(t, [](const engine::Report& r) { return r.model_states.value; });
        const long long held = u <= 0   ? reports_[m.from].gpus_to_hold_model_states
                               : u >= 1 ? reports_[m.to].gpus_to_hold_model_states
                                        : static_cast<long long>(std::ceil(states / cap - 1e-9));
        const TextStyle note{frame::kBodySize, Weight::semibold, true};
        const std::string line =
            format_int(held) + " × " + format_bytes(cap) + " " + gpu_name(t) + " just to hold it";
        s.add(Text{kRightX + kRightW / 2, 402, line, note, palette_.highlight, Align::center},
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
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<BytesChapter>(spec, video, metrics);
}

const KindRegistrar registrar{
    {"bytes_per_parameter", kDefaultDuration, {"model", "precision", "grad_dtype", "gpu"}, make}};

}  // namespace

}  // namespace story
