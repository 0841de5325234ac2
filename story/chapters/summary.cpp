// `summary`: every strategy side by side on the chapter's model and GPUs (engine::strategy_configs
// picks each one's layout): memory per card against the capacity line, comm per step in bytes
// and time, the pipeline bubble, and whether it fits. Rows enter staggered; a highlight walks
// down them; a `set:` morphs every bar and number between the engine's values.
#include <algorithm>
#include <array>

#include "engine/report.hpp"
#include "engine/strategies.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cluster_vocab.hpp"

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
// The highlight leaves at kVisitsEnd, or when the line after the one showing `combined` begins,
// whichever is later; it takes kSlideFor s to the next visit.
constexpr double kVisitsEnd = 15.0, kSlideFor = 0.6;

// Columns (x of left edges or right-aligned anchors). The header's line from kHeaderTop, its
// rule kRuleGap under it and the table's rows kRuleGap under that, each rising kRowRise px into
// place as it enters: a row's name over its detail, its numbers and gauge centred in the row.
constexpr double kNameX = frame::kLeft, kMemRight = 580, kGaugeX = 604, kGaugeW = 300;
constexpr double kBytesRight = 1240, kTimeRight = 1405, kBubbleRight = 1555, kFitsX = 1596;
constexpr double kHeaderTop = 261, kRuleGap = 6, kRowH = 84, kRowRise = 14, kGaugeH = 28;
constexpr double kSpill = 180;  // px: the largest overflow's spill past the capacity line
// The highlight frame: kFramePad px wider than the table on either side, kFrameInset px inside
// its rows at the top and bottom.
constexpr double kFramePad = 14, kFrameInset = 2, kFrameRadius = 12, kFrameFill = 0.06;

const TextStyle kRowName = sized(weighted(style_of(Role::body), Weight::semibold), 30);
const TextStyle kNumber = sized(style_of(Role::value), 30);
const TextStyle kHeader = style_of(Role::label);

using Row = std::array<engine::Report, kRows>;

// The 3D row's axes: three, or four or five when the chapter's cp and ep add some.
int axes_of(const engine::StrategyConfig& s) {
    const engine::Parallel& p = s.config.layout;
    return 3 + (p.cp > 1) + (p.ep > 1);
}

// A row's name: the engine's; a 4D or 5D row carries its ZeRO stage here, its detail line
// being full with the axes.
std::string row_name(const engine::StrategyConfig& s) {
    if (s.kind != engine::Strategy::three_d || axes_of(s) == 3)
        return std::string(engine::to_string(s.kind));
    const std::string name = std::to_string(axes_of(s)) + "D";
    const int zero = s.config.layout.zero;
    return zero > 0 ? name + ", ZeRO-" + std::to_string(zero) : name;
}

// "tp 8 × pp 2 × dp 4, ZeRO-1", "dp 64, + gradients sharded": the axes as settings name them,
// their degrees in the locale's digits.
std::string layout_text(const Locale& l, const engine::StrategyConfig& s) {
    const engine::Parallel& p = s.config.layout;
    const bool all = s.kind == engine::Strategy::three_d;
    std::string out;
    const auto factor = [&](const char* name, int v) {
        if (v == 1 && !all) return;
        out += (out.empty() ? "" : " × ") + std::string(name) + " " + format_count(v, l);
    };
    factor("tp", p.tp);
    if (p.cp > 1) factor("cp", p.cp);
    factor("pp", p.pp);
    factor("dp", p.dp());
    if (out.empty()) out = "dp " + format_count(1, l);
    // Experts spread over ep of the replicas: a split of dp, not another factor of the GPUs.
    if (p.ep > 1) out += ", ep " + format_count(p.ep, l);
    static const char* const kZero[] = {"{layout}", N_("{layout}, optimizer sharded"),
                                        N_("{layout}, + gradients sharded"),
                                        N_("{layout}, + weights sharded")};
    if (all && axes_of(s) > 3) return out;
    if (all && p.zero > 0) return out + ", ZeRO-" + std::to_string(p.zero);
    return l.tr(kZero[p.zero], {{"layout", out}});
}

class SummaryChapter final : public ChapterBase {
  public:
    SummaryChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          header_(metrics_, kNameX, kHeaderTop),
          header_in_(Fade::in(at(kHeaderAt))),
          rows_in_{at(kRowsAt), kStagger},
          focus_in_(
              Fade::in(at(kVisits[0].at)).out(std::max(at(kVisitsEnd), shown_until("combined")))) {
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
        header_.line("Strategy on", kHeader, palette_.muted);
        rule_y_ = header_.bottom() + kRuleGap;
        const Box table{frame::kLeft, rule_y_ + kRuleGap, frame::kRight - frame::kLeft,
                        kRows * kRowH};
        for (int i = 0; i < kRows; ++i) row_boxes_.push_back(column_cell(table, kRows, i, 0));
        for (const Visit& v : kVisits) {
            const Box rows = bounding({row_boxes_[v.first], row_boxes_[v.last]});
            visit_frames_.push_back(inset(rows, -kFramePad, kFrameInset));
            visit_slides_.push_back(Fade::in(at(v.at), kSlideFor));
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_header(s, t);
        add_focus(s, t);
        for (int i = 0; i < kRows; ++i) add_row(s, t, i);
        add_frame(s, t);
        return s;
    }

    // The figures of the last row, 3D parallelism.
    std::vector<Stat> stats_at(double t) const override {
        return stat_panel(rows_[timeline_.morph_at(t).shown()][kRows - 1]);
    }

  private:
    void add_header(Scene& s, double t) const {
        const double u = header_in_.at(t);
        const engine::Config& c = timeline_.state_at(t);
        const auto header = [&](double x, const std::string& text, Align align = Align::left) {
            s.add(Text{x, header_.baseline(), text, kHeader, palette_.muted, align}, u);
        };
        header(kNameX, tr("Strategy on {n} GPUs", {{"n", format_int(c.layout.gpus, locale_)}}));
        header(kMemRight, tr("Per card"), Align::right);
        header(kGaugeX + kGaugeW, format_bytes(c.cluster.gpu.memory.value, locale_), Align::center);
        header(kTimeRight, tr("Comm / step"), Align::right);
        header(kBubbleRight, tr("Bubble"), Align::right);
        header(kFitsX, tr("Fits?"));
        s.add(Line{{frame::kLeft, rule_y_}, {frame::kRight, rule_y_}, palette_.grid, 2}, u);
    }

    // A highlight frame walks down the table with the captions.
    void add_focus(Scene& s, double t) const {
        int k = -1;
        for (int i = 0; i < static_cast<int>(std::size(kVisits)); ++i)
            if (t >= at(kVisits[i].at)) k = i;
        if (k < 0) return;
        const double alpha = focus_in_.at(t);
        if (alpha <= 0) return;
        const Box box = k == 0
                            ? visit_frames_[0]
                            : lerp(visit_frames_[k - 1], visit_frames_[k], visit_slides_[k].at(t));
        s.add(filled(box, kFrameRadius, with_alpha(palette_.highlight, kFrameFill),
                     palette_.highlight, 3),
              alpha);
    }

    void add_row(Scene& s, double t, int i) const {
        const double u = rows_in_.at(t, i);
        if (u <= 0) return;
        const double middle = row_boxes_[i].cy() + kRowRise * (1 - u);
        // The shown state's layout and figures (Morph::shown), never one state's layout over the
        // other's figures.
        const int shown = timeline_.morph_at(t).shown();
        const engine::StrategyConfig& strategy = layouts_[shown][i];
        TextColumn(metrics_, kNameX, 0)
            .line(row_name(strategy), kRowName, palette_.text)
            .line(layout_text(locale_, strategy), Role::small, palette_.muted)
            .centre_on(middle)
            .add_to(s, u);
        const auto number = [&](double right, const std::string& text) {
            s.add(Text{right, centred_baseline(metrics_, text, kNumber, middle), text, kNumber,
                       palette_.text, Align::right},
                  u);
        };

        const engine::Report& r = rows_[shown][i];
        const engine::PerGpu& p = r.per_gpu;
        const double total = p.total.value, cap = p.capacity.value;
        number(kMemRight, format_bytes(total, locale_));
        const PerGpuBytes bytes{p.weights.value, p.gradients.value, p.optimizer.value,
                                p.activations.value};
        GaugeSpec gauge{box_around({kGaugeX + kGaugeW / 2, middle}, kGaugeW, kGaugeH), cap,
                        memory_stack(palette_, bytes), kSpill};
        gauge.spill_full = spill_full_;
        add_items(s, memory_gauge(palette_, locale_, gauge), u);

        number(kBytesRight, format_bytes(r.comm.sent_per_gpu().value, locale_));
        number(kTimeRight, format_time(r.comm.total().value, locale_));
        number(kBubbleRight, format_percent(r.bubble_fraction, locale_));
        // A neutral mark, and the engine's verdict: per_gpu.fits judges the expected peak, what a
        // run reserves (engine/peak.hpp), as `numbers` and `plan` do. Where the on-paper bar
        // already spills past the capacity line the mark says by how much, as the bar shows;
        // where only the expected peak does, it names that peak (the bar stays under the line).
        const bool fits = p.fits;
        const std::string mark =
            fits          ? tr("✓ fits")
            : total > cap ? tr("✗ {bytes} over", {{"bytes", format_bytes(total - cap, locale_)}})
                          : tr("✗ {bytes} at peak",
                               {{"bytes", format_bytes(p.expected.total.value, locale_)}});
        const TextStyle style = fits ? style_of(Role::figure) : tabular(style_of(Role::note));
        s.add(Text{kFitsX, centred_baseline(metrics_, mark, style, middle), mark, style,
                   fits ? palette_.text : palette_.muted},
              u);
    }

    std::vector<std::vector<engine::StrategyConfig>> layouts_;
    std::vector<Row> rows_;
    double spill_full_ = 0;
    TextColumn header_;  // the header's line; its rule, then the table's rows
    double rule_y_ = 0;
    std::vector<Box> row_boxes_, visit_frames_;
    std::vector<Fade> visit_slides_;
    const Fade header_in_;
    const Stagger rows_in_;
    const Fade focus_in_;
};

const KindRegistrar registrar{{
    .name = "summary",
    .default_duration = kDefaultDuration,
    .settable = {"model", "gpus", "gpu", "seq_len", "micro_batches"},
    .make = make_of<SummaryChapter>,
    .shows = "DP, ZeRO-1/2, FSDP, TP, PP and 3D side by side: memory per card against "
             "capacity (on paper), comm per step, bubble, and whether it fits as the engine "
             "judges it, by the expected peak (\"✗ 82.6 GB at peak\" where only the peak "
             "overflows); the 3D row keeps the chapter's "
             "`cp` and `ep` where they still divide its GPUs, and is then named 4D or 5D "
             "with `cp` and `ep` in its layout line; a highlight visits the rows with the "
             "phases below and, on the last, stays until the next line begins",
    .goldens = {{"chapter_summary", 19.9, "seven strategies for 70B on 32 GPUs"}},
    .phases = {{"dp", kVisits[0].at, "the highlight on plain data parallel"},
               {"sharded", kVisits[1].at, "on the sharded rows: ZeRO-1, ZeRO-2, ZeRO-3"},
               {"split", kVisits[2].at, "on tensor and pipeline parallel"},
               {"combined", kVisits[3].at, "on the row that combines them"}},
    .facts = {.rows = {rows::memory, rows::fits, rows::comm_seconds},
              .formulas = {formulas::memory}},
}};

}  // namespace

}  // namespace story
