// `summary`: every strategy side by side on the chapter's model and GPUs (engine::strategy_configs
// picks each one's layout): memory per card against the capacity line, comm per step in bytes
// and time, the pipeline bubble, and whether it fits. Rows enter staggered; a highlight walks
// down them; a `set:` morphs every bar and number between the engine's values.
#include <algorithm>
#include <array>

#include "engine/report.hpp"
#include "engine/strategies.hpp"
#include "story/chapter_base.hpp"
#include "story/cluster_vocab.hpp"
#include "story/format.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 20;
constexpr int kRows = 7;
// Choreography, in seconds of the default duration: header, rows, then the highlight visits
// plain DP, the ZeRO family, TP and PP, and 3D.
constexpr double kHeaderAt = 0.4, kRowsAt = 0.8, kStagger = 0.1;
struct Visit {
    double at;
    int first, last;  // rows in focus
};
constexpr Visit kVisits[] = {{2.5, 0, 0}, {5.0, 1, 3}, {8.5, 4, 5}, {12.0, 6, 6}};
constexpr double kVisitsEnd = 15.0;

// Columns (x of left edges or right-aligned anchors) and rows.
constexpr double kNameX = 96, kMemRight = 580, kGaugeX = 604, kGaugeW = 300, kSpill = 180;
constexpr double kBytesRight = 1240, kTimeRight = 1405, kBubbleRight = 1555, kFitsX = 1596;
constexpr double kHeaderY = 286, kRowTop = 304, kRowH = 84;

using Row = std::array<engine::Report, kRows>;

std::string layout_text(const engine::StrategyConfig& s) {
    const engine::Parallel& p = s.config.layout;
    const bool all = s.kind == engine::Strategy::three_d;
    std::string out;
    const auto factor = [&](const char* name, int v) {
        if (v == 1 && !all) return;
        out += (out.empty() ? "" : " × ") + std::string(name) + " " + std::to_string(v);
    };
    factor("tp", p.tp);
    factor("pp", p.pp);
    factor("dp", p.dp());
    if (out.empty()) out = "dp 1";
    static const char* kZero[] = {"", ", optimizer sharded", ", + gradients sharded",
                                  ", + weights sharded"};
    if (all && p.zero > 0) return out + ", ZeRO-" + std::to_string(p.zero);
    return out + kZero[p.zero];
}

class SummaryChapter final : public ChapterBase {
  public:
    SummaryChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics) {
        for (const engine::Config& c : timeline_.states()) {
            const auto configs = engine::strategy_configs(c);
            layouts_.push_back(configs);
            Row row;
            for (int i = 0; i < kRows; ++i) row[i] = engine::analyze(configs[i].config);
            rows_.push_back(row);
        }
        // The largest overflow of any row in any state, in capacities: the spills' log scale
        // ends there, so the row furthest over spills furthest and the order stays visible.
        for (const Row& row : rows_)
            for (const engine::Report& r : row)
                spill_full_ =
                    std::max(spill_full_, (r.per_gpu.total.value - r.per_gpu.capacity.value) /
                                              r.per_gpu.capacity.value);
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_header(s, t);
        add_focus(s, t);
        for (int i = 0; i < kRows; ++i) add_row(s, t, i);
        const auto d3 = [&](auto f) { return value(t, kRows - 1, f); };
        add_chrome(
            s, palette_, metrics_,
            chrome_at(
                t,
                stat_panel(d3([](const engine::Report& r) { return r.per_gpu.total.value; }),
                           d3([](const engine::Report& r) { return r.comm.sent_per_gpu().value; }),
                           d3([](const engine::Report& r) { return r.comm.total().value; }),
                           d3([](const engine::Report& r) { return r.bubble_fraction; }))));
        return s;
    }

  private:
    // Engine results drawn beyond the reports (see ChapterBase::describe_engine).
    void describe_engine(Fingerprint& f) const override {
        f.add("layouts", layouts_), f.add("rows", rows_);
    }
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }

    // A row's engine figure at t, counting between states while a `set:` morphs.
    template <class F>
    double value(double t, int row, F f) const {
        const Morph m = timeline_.morph_at(t);
        return lerp(f(rows_[m.from][row]), f(rows_[m.to][row]), m.u);
    }

    void add_header(Scene& s, double t) const {
        const double u = progress(t, at(kHeaderAt), 0.5);
        const TextStyle label{frame::kLabelSize, Weight::medium, false};
        const double cap = timeline_.states()[timeline_.morph_at(t).to].cluster.gpu.memory.value;
        s.add(
            Text{kNameX, kHeaderY,
                 "Strategy on " +
                     format_int(timeline_.states()[timeline_.morph_at(t).to].layout.gpus) + " GPUs",
                 label, palette_.muted},
            u);
        s.add(Text{kMemRight, kHeaderY, "Per card", label, palette_.muted, Align::right}, u);
        s.add(Text{kGaugeX + kGaugeW, kHeaderY, format_bytes(cap), label, palette_.muted,
                   Align::center},
              u);
        s.add(Text{kTimeRight, kHeaderY, "Comm / step", label, palette_.muted, Align::right}, u);
        s.add(Text{kBubbleRight, kHeaderY, "Bubble", label, palette_.muted, Align::right}, u);
        s.add(Text{kFitsX, kHeaderY, "Fits?", label, palette_.muted}, u);
        s.add(Line{{frame::kLeft, kHeaderY + 12}, {frame::kRight, kHeaderY + 12}, palette_.grid, 2},
              u);
    }

    // A highlight frame walks down the table with the captions.
    void add_focus(Scene& s, double t) const {
        int k = -1;
        for (int i = 0; i < static_cast<int>(std::size(kVisits)); ++i)
            if (t >= at(kVisits[i].at)) k = i;
        if (k < 0) return;
        const double alpha =
            std::min(progress(t, at(kVisits[0].at), 0.5), 1 - progress(t, at(kVisitsEnd), 0.5));
        if (alpha <= 0) return;
        const auto frame_of = [](const Visit& v) {
            return Area{frame::kLeft - 14, kRowTop + v.first * kRowH + 2,
                        frame::kRight - frame::kLeft + 28, (v.last - v.first + 1) * kRowH - 4};
        };
        const Area box = k == 0 ? frame_of(kVisits[0])
                                : lerp_area(frame_of(kVisits[k - 1]), frame_of(kVisits[k]),
                                            progress(t, at(kVisits[k].at), 0.6));
        s.add(Rect{box.x, box.y, box.w, box.h, 12, with_alpha(palette_.highlight, 0.06),
                   palette_.highlight, 3},
              alpha);
    }

    void add_row(Scene& s, double t, int i) const {
        const double u = progress(t, at(kRowsAt) + kStagger * i, 0.5);
        if (u <= 0) return;
        const double y = kRowTop + i * kRowH + 14 * (1 - u);
        const Morph m = timeline_.morph_at(t);
        const engine::StrategyConfig& strategy = layouts_[m.to][i];
        const TextStyle name{30, Weight::semibold, false}, detail{22, Weight::regular, false};
        const TextStyle number{30, Weight::semibold, true};
        s.add(Text{kNameX, y + 38, std::string(engine::to_string(strategy.kind)), name,
                   palette_.text},
              u);
        s.add(Text{kNameX, y + 68, layout_text(strategy), detail, palette_.muted}, u);

        const auto get = [&](auto f) { return value(t, i, f); };
        const double total = get([](const engine::Report& r) { return r.per_gpu.total.value; });
        const double cap = get([](const engine::Report& r) { return r.per_gpu.capacity.value; });
        s.add(Text{kMemRight, y + 50, format_bytes(total), number, palette_.text, Align::right}, u);
        const PerGpuBytes bytes{
            get([](const engine::Report& r) { return r.per_gpu.weights.value; }),
            get([](const engine::Report& r) { return r.per_gpu.gradients.value; }),
            get([](const engine::Report& r) { return r.per_gpu.optimizer.value; }),
            get([](const engine::Report& r) { return r.per_gpu.activations.value; })};
        GaugeSpec gauge{{kGaugeX, y + 26, kGaugeW, 28}, cap, memory_stack(palette_, bytes), kSpill};
        gauge.spill_full = spill_full_;
        add_items(s, memory_gauge(palette_, gauge), u);

        const double comm =
            get([](const engine::Report& r) { return r.comm.sent_per_gpu().value; });
        s.add(Text{kBytesRight, y + 50, format_bytes(comm), number, palette_.text, Align::right},
              u);
        s.add(Text{kTimeRight, y + 50,
                   format_time(get([](const engine::Report& r) { return r.comm.total().value; })),
                   number, palette_.text, Align::right},
              u);
        s.add(Text{kBubbleRight, y + 50,
                   format_percent(get([](const engine::Report& r) { return r.bubble_fraction; })),
                   number, palette_.text, Align::right},
              u);
        // A neutral mark: the overflow itself is already shown, spilling past the capacity line.
        // Judged on the counted value, so it flips when the bar crosses the line (at the ends of
        // a morph this is exactly the engine's per_gpu.fits: total <= capacity).
        const bool fits = total <= cap;
        const std::string mark = fits ? "✓ fits" : "✗ " + format_bytes(total - cap) + " over";
        s.add(Text{kFitsX,
                   y + 50,
                   mark,
                   {26, fits ? Weight::semibold : Weight::regular, true},
                   fits ? palette_.text : palette_.muted},
              u);
    }

    std::vector<std::vector<engine::StrategyConfig>> layouts_;
    std::vector<Row> rows_;
    double spill_full_ = 0;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<SummaryChapter>(spec, video, metrics);
}

const KindRegistrar registrar{
    {"summary", kDefaultDuration, {"model", "gpus", "gpu", "seq_len", "micro_batches"}, make}};

}  // namespace

}  // namespace story
