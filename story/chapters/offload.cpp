// `offload`: ZeRO-Offload and ZeRO-Infinity on one GPU and its host. The GPU's memory stack and
// the host's share of host memory, joined by a PCIe link; `set: {offload: ...}` drains the parts
// offload moves (optimizer state and gradients, then the 16-bit weights) across the link into the
// host, and each step's traffic then runs along it: gradients down, parameters back up, with the
// PCIe time set against the compute it has to hide behind. Every figure is the engine's.
#include "engine/offload.hpp"

#include <algorithm>
#include <array>

#include "engine/memory.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cards.hpp"
#include "story/vocab/cluster_vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
// Choreography, in seconds of the default duration.
// The GPU's card, its status and the legend first, which a line about the GPU's own memory
// shows; the host's card on a phase of its own, then the link between them.
constexpr double kCardsAt = 0.3, kStatusAt = 0.45, kLegendAt = 0.6, kHostAt = 1.0, kLinkAt = 1.2;
constexpr double kStepAt = 3.0;

// The GPU card on the left, the host's on the right of it, the link between them; each card's
// holdings kHoldDrop under it, the legend under everything.
constexpr Box kGpuCard{frame::kLeft, 340, 250, 460};
constexpr Box kHostCard{860, 340, 250, 460};
constexpr double kMaxSpill = 0.12, kHoldDrop = 40, kLegendBaseline = 888;
// The link: two lanes kLaneInset px from the cards, gradients going down to the host on the upper
// one, parameters coming back on the lower; each lane's label column centred over or under it.
constexpr double kLaneInset = 16, kDownY = 548, kUpY = 622, kLaneWidth = 4, kArrowHead = 14;
constexpr double kDownLabelTop = 446, kUpLabelTop = 650, kLinkNameBaseline = 770;
constexpr double kIdleLane = 0.35;  // a lane's opacity while nothing runs on it
// Per-step traffic: chunks at constant speed, the lighter direction's spaced further apart (up
// to kMaxSparse times); a `set:` of offload sends the moving parts across as larger parcels
// along the middle of the link. Both fade over kEdge px at the ends.
constexpr double kChunk = 18, kParcel = 30, kSpeed = 150, kSpacing = 54, kMaxSparse = 4;
constexpr double kEdge = 24;
constexpr int kParcels = 6;
// The right column: what is offloaded, then one step's compute and PCIe time as bars.
constexpr double kColumnX = 1190, kStatusTop = 330, kStepTop = 470;
constexpr double kBarX = 1330, kBarW = 330, kBarH = 14, kRowGap = 62, kVerdictGap = 72;
constexpr double kWhyGap = 20;  // under the verdict: why the bytes are what they are

const TextStyle kFigure = style_of(Role::figure);
const TextStyle kStatusStyle = weighted(style_of(Role::body), Weight::semibold);

enum Part { kWeights, kGradients, kOptimizer };
constexpr std::array<Part, 3> kParts{kWeights, kGradients, kOptimizer};

double host_part(const engine::Report& r, Part p) {
    const engine::HostBytes& h = r.per_gpu.offloaded;
    return (p == kWeights ? h.weights : p == kGradients ? h.gradients : h.optimizer).value;
}

// Why each direction carries what it does (engine::offload_traffic's rule), for state c.
std::string traffic_rule(const Locale& l, const engine::Config& c) {
    switch (c.layout.offload) {
        case engine::Offload::none:
            return "";
        case engine::Offload::optimizer:
            return l.tr(
                "Gradients go down after each of the {n} micro-batches; the updated weights come "
                "up once a step.",
                {{"n", c.training.micro_batches}});
        case engine::Offload::optimizer_params:
            return l.tr(
                "Gradients go down after each of the {n} micro-batches; the weights come up for "
                "each one's forward and again for its backward.",
                {{"n", c.training.micro_batches}});
    }
    return "";
}

std::string offload_name(const Locale& l, engine::Offload o) {
    return o == engine::Offload::none
               ? l.tr("Offload: none, all on the GPU")
               : l.tr("Offload: {mode}", {{"mode", std::string(engine::to_string(o))}});
}

// Positions of the chunks of a flow along a lane of `length`, fading at either end.
struct Placed {
    double offset, alpha;
};
std::vector<Placed> flow(double travelled, double length, double spacing) {
    std::vector<Placed> out;
    for (double d : chunk_offsets(travelled, length, spacing))
        out.push_back({d, std::min({d / kEdge, (length - d) / kEdge, 1.0})});
    return out;
}

class OffloadChapter final : public ChapterBase {
  public:
    OffloadChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          gpu_in_(Fade::in(at(kCardsAt))),
          host_in_(Fade::in(at(kHostAt))),
          legend_in_(Fade::in(at(kLegendAt))),
          link_in_(Fade::in(at(kLinkAt))),
          status_in_(Fade::in(at(kStatusAt))),
          step_in_(Fade::in(at(kStepAt))),
          down_label_(metrics_, lane_a().x + lane_length() / 2, kDownLabelTop, Align::center),
          up_label_(metrics_, lane_a().x + lane_length() / 2, kUpLabelTop, Align::center),
          status_(metrics_, kColumnX, kStatusTop),
          step_(metrics_, kColumnX, kStepTop) {
        down_label_.line(tr("Gradients down to the host"), Role::note, palette_.muted)
            .line("bytes", kFigure, palette_.gradients);
        up_label_.line(tr("Parameters back up"), Role::note, palette_.muted)
            .line("bytes", kFigure, palette_.weights);
        status_.line("model", Role::note, palette_.muted)
            .line("offload", kStatusStyle, palette_.text);
        step_.line(tr("One step on each GPU"), Role::label, palette_.muted)
            .gap(kRowGap - frame::kLabelSize)
            .line(tr("Compute"), Role::label, palette_.text)
            .gap(kRowGap - frame::kLabelSize)
            .line("PCIe", Role::label, palette_.text)
            .gap(kVerdictGap - frame::kLabelSize)
            .line("verdict", Role::body, palette_.text);
        for (std::size_t k = 0; k < timeline_.states().size(); ++k) {
            const engine::Config& c = timeline_.states()[k];
            const engine::Report& r = reports_[k];
            offload_.push_back(c.layout.offload);
            pcie_.push_back(engine::pcie_each_way(c.cluster.gpu).value);
            exposed_.push_back(engine::exposed_offload_seconds(c, r.offload, r.step).value);
            time_scale_ = std::max({time_scale_, r.step.compute_seconds, r.offload.seconds.value});
            traffic_scale_.push_back(std::max(r.offload.down.value, r.offload.up.value));
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_link(s, t, m);
        add_cards(s, t);
        add_legend(s, palette_, metrics_, frame::kLeft, kLegendBaseline, memory_legend(),
                   legend_in_.at(t));
        add_status(s, t, m);
        add_step(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    static Point lane_a() { return {kGpuCard.right() + kLaneInset, 0}; }
    static double lane_length() { return kHostCard.x - kLaneInset - lane_a().x; }

    bool offload_changes(const Morph& m) const { return offload_[m.from] != offload_[m.to]; }

    // A text of the state showing: when the two states of a morph say different things, the old
    // one fades out over the first half and the new one in over the second.
    double swap_if(const Morph& m, const std::string& from, const std::string& to) const {
        return from == to ? 1.0 : swap_alpha(m);
    }

    std::vector<MemorySegment> host_stack(double t) const {
        std::vector<MemorySegment> out;
        const std::array<Color, 3> colour{palette_.weights, palette_.gradients, palette_.optimizer};
        for (Part p : kParts)
            out.push_back({figure_at(t, [p](const engine::Report& r) { return host_part(r, p); }),
                           colour[p]});
        return out;
    }

    void add_card(Scene& s, const Box& b, CardSpec card, const std::string& holds,
                  double alpha) const {
        card.x = b.x, card.y = b.y, card.w = b.w, card.h = b.h, card.max_spill = kMaxSpill;
        add_items(s, gpu_card(palette_, metrics_, locale_, card), alpha);
        s.add(Text{b.cx(), b.bottom() + kHoldDrop, holds, kFigure, palette_.text, Align::center},
              alpha);
    }

    void add_cards(Scene& s, double t) const {
        const engine::Report& r = report_at(t);
        const double on_gpu =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.total.value; });
        const double on_host =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.host.value; });
        add_card(s, kGpuCard,
                 {0, 0, 0, 0, tr("GPU {n}", {{"n", 0}}), r.per_gpu.capacity.value, memory_at(t)},
                 tr("{bytes} on the GPU", {{"bytes", format_bytes(on_gpu, locale_)}}),
                 gpu_in_.at(t));
        add_card(
            s, kHostCard, {0, 0, 0, 0, tr("Host"), r.per_gpu.host_capacity.value, host_stack(t)},
            tr("{bytes} on the host", {{"bytes", format_bytes(on_host, locale_)}}), host_in_.at(t));
    }

    // The two lanes with their labels and the link's speed, then what runs along them.
    void add_link(Scene& s, double t, const Morph& m) const {
        const double alpha = link_in_.at(t);
        if (alpha <= 0) return;
        const Point a = lane_a();
        const double b = a.x + lane_length();
        const double down =
            figure_at(t, [](const engine::Report& r) { return r.offload.down.value; });
        const double up = figure_at(t, [](const engine::Report& r) { return r.offload.up.value; });
        s.add(Arrow{{a.x, kDownY}, {b, kDownY}, palette_.comm, kLaneWidth, kArrowHead},
              alpha * (down > 0 ? 1 : kIdleLane));
        s.add(Arrow{{b, kUpY}, {a.x, kUpY}, palette_.comm, kLaneWidth, kArrowHead},
              alpha * (up > 0 ? 1 : kIdleLane));
        add_lane_label(s, down_label_,
                       tr("{bytes} a step", {{"bytes", format_bytes(down, locale_)}}), alpha);
        add_lane_label(s, up_label_, tr("{bytes} a step", {{"bytes", format_bytes(up, locale_)}}),
                       alpha);
        s.add(Text{a.x + lane_length() / 2, kLinkNameBaseline,
                   tr("PCIe: {bandwidth} each way",
                      {{"bandwidth", format_bandwidth(value_at(t, pcie_), locale_)}}),
                   style_of(Role::note), palette_.muted, Align::center},
              alpha);
        add_traffic(s, t, m, alpha);
        add_parcels(s, m);
    }

    static void add_lane_label(Scene& s, const TextColumn& column, const std::string& bytes,
                               double alpha) {
        s.add(column.lines()[0], alpha);
        Text figure = column.lines()[1];
        figure.text = bytes;
        s.add(figure, alpha);
    }

    // Each step's traffic once offload is on: gradients going down, parameters coming back.
    void add_traffic(Scene& s, double t, const Morph& m, double alpha) const {
        const int k = offload_changes(m) ? shown_state(m) : m.to;
        if (offload_[k] == engine::Offload::none) return;
        alpha *= offload_changes(m) ? swap_alpha(m) : 1.0;
        const engine::OffloadTraffic& o = reports_[k].offload;
        const double travelled = (t - at(kLinkAt)) * kSpeed, length = lane_length(),
                     x0 = lane_a().x;
        for (const Placed& c : flow(travelled, length, spacing(o.down.value, k)))
            add_token(s, palette_, metrics_, {x0 + c.offset, kDownY}, kChunk, palette_.gradients,
                      "", alpha * c.alpha);
        for (const Placed& c : flow(travelled, length, spacing(o.up.value, k)))
            add_token(s, palette_, metrics_, {x0 + length - c.offset, kUpY}, kChunk,
                      palette_.weights, "", alpha * c.alpha);
    }

    // The lighter direction's chunks further apart, as far as kMaxSparse times.
    double spacing(double bytes, int k) const {
        if (bytes <= 0) return 0;
        return kSpacing * std::min(kMaxSparse, traffic_scale_[k] / bytes);
    }

    // While offload changes, the parts that move cross as parcels in their colours: to the host
    // when its share of them grows, back to the GPU when it shrinks.
    void add_parcels(Scene& s, const Morph& m) const {
        if (!offload_changes(m) || m.u <= 0 || m.u >= 1) return;
        std::vector<Color> moving;
        bool to_host = true;
        const std::array<Color, 3> colour{palette_.weights, palette_.gradients, palette_.optimizer};
        for (Part p : kParts) {
            const double from = host_part(reports_[m.from], p), to = host_part(reports_[m.to], p);
            if (from == to) continue;
            moving.push_back(colour[p]);
            to_host = to > from;
        }
        if (moving.empty()) return;
        const double length = lane_length(), x0 = lane_a().x, y = (kDownY + kUpY) / 2;
        const double spacing = kParcel * 1.6, travelled = m.u * (length + (kParcels - 1) * spacing);
        for (int i = 0; i < kParcels; ++i) {
            const double d = travelled - i * spacing;
            if (d < 0 || d > length) continue;
            const double x = to_host ? x0 + d : x0 + length - d;
            const double fade = std::min({d / kEdge, (length - d) / kEdge, 1.0});
            add_token(s, palette_, metrics_, {x, y}, kParcel, moving[i % moving.size()], "", fade);
        }
    }

    void add_status(Scene& s, double t, const Morph& m) const {
        const double alpha = status_in_.at(t);
        const auto model_line = [&](int k) {
            const engine::Config& c = timeline_.states()[k];
            return tr("{params} parameters · ZeRO-{zero} over {n} {gpu}s",
                      {{"params", format_params(reports_[k].params, locale_)},
                       {"zero", std::to_string(c.layout.zero)},
                       {"n", c.layout.gpus},
                       {"gpu", gpu_display_name(c.cluster.gpu)}});
        };
        const int k = shown_state(m);
        const std::array<std::string, 2> lines{model_line(k), offload_name(locale_, offload_[k])};
        for (std::size_t i = 0; i < lines.size(); ++i) {
            Text line = status_.lines()[i];
            line.text = lines[i];
            const std::string from =
                i == 0 ? model_line(m.from) : offload_name(locale_, offload_[m.from]);
            const std::string to =
                i == 0 ? model_line(m.to) : offload_name(locale_, offload_[m.to]);
            s.add(line, alpha * swap_if(m, from, to));
        }
    }

    // One step's compute and PCIe time as bars to one scale, and whether the PCIe time hides.
    void add_step(Scene& s, double t, const Morph& m) const {
        const double alpha = step_in_.at(t);
        if (alpha <= 0) return;
        const auto& lines = step_.lines();
        s.add(lines[0], alpha);
        const double compute =
            figure_at(t, [](const engine::Report& r) { return r.step.compute_seconds; });
        const double pcie =
            figure_at(t, [](const engine::Report& r) { return r.offload.seconds.value; });
        add_time_row(s, lines[1], compute, palette_.muted, alpha);
        add_time_row(s, lines[2], pcie, palette_.comm, alpha);
        Text verdict = lines[3];
        const auto says = [&](int k) { return verdict_of(k, value_at(t, exposed_)); };
        const auto [text, colour] = says(shown_state(m));
        verdict.text = text;
        verdict.color = colour;
        s.add(verdict, alpha * swap_if(m, says(m.from).first, says(m.to).first));
        add_rule(s, m, alpha);
    }

    void add_rule(Scene& s, const Morph& m, double alpha) const {
        const auto rule = [&](int k) { return traffic_rule(locale_, timeline_.states()[k]); };
        TextColumn why(metrics_, kColumnX, step_.bottom() + kWhyGap);
        for (const std::string& line : wrap_text(metrics_, rule(shown_state(m)),
                                                 style_of(Role::note), frame::kRight - kColumnX))
            why.line(line, Role::note, palette_.muted);
        why.add_to(s, alpha * swap_if(m, rule(m.from), rule(m.to)));
    }

    // What state k's PCIe time does to the step, with `exposed` seconds not hidden.
    std::pair<std::string, Color> verdict_of(int k, double exposed) const {
        if (offload_[k] == engine::Offload::none)
            return {tr("Nothing crosses PCIe"), palette_.muted};
        if (exposed_[k] <= 0) return {tr("Hidden behind compute"), palette_.activations};
        return {tr("Adds {time} to each step", {{"time", format_time(exposed, locale_)}}),
                palette_.comm};
    }

    void add_time_row(Scene& s, const Text& name, double seconds, Color colour,
                      double alpha) const {
        s.add(name, alpha);
        const double y = middle_of(metrics_, name) - kBarH / 2;
        s.add(filled({kBarX, y, kBarW, kBarH}, kBarH / 2, palette_.panel), alpha);
        const double w = kBarW * seconds / time_scale_;
        if (w > 0.5) s.add(filled({kBarX, y, std::max(w, kBarH), kBarH}, kBarH / 2, colour), alpha);
        s.add(Text{frame::kRight, name.y, format_time(seconds, locale_), tabular(kFigure),
                   palette_.text, Align::right},
              alpha);
    }

    const Fade gpu_in_, host_in_, legend_in_, link_in_, status_in_, step_in_;
    // Laid out once; the texts that change are drawn at t on their baselines.
    TextColumn down_label_, up_label_, status_, step_;
    std::vector<engine::Offload> offload_;
    std::vector<double> pcie_, exposed_, traffic_scale_;
    double time_scale_ = 1e-9;  // the longest bar of every state: compute or PCIe, s
};

const FactRow kOnHost{"per_gpu.host_bytes", N_("On the host, per GPU"), Shown::bytes,
                      [](const engine::Report& r) { return r.per_gpu.host.value; }};
const FactRow kPcieBytes{"offload.pcie_bytes_per_step", N_("Over PCIe each step"), Shown::bytes,
                         [](const engine::Report& r) { return r.offload.bytes().value; }};
const FactRow kPcieSeconds{"offload.pcie_seconds", N_("PCIe time per step"), Shown::seconds,
                           [](const engine::Report& r) { return r.offload.seconds.value; }};

const KindRegistrar registrar{{
    .name = "offload",
    .default_duration = kDefaultDuration,
    .settable = {"offload", "zero", "model", "gpus", "gpu", "optimizer", "micro_batches",
                 "overlap"},
    .make = make_of<OffloadChapter>,
    .shows = "ZeRO-Offload and ZeRO-Infinity on one GPU: GPU 0's memory stack and its share "
             "of host memory joined by a PCIe link; a `set:` of offload sends the parts "
             "that move (optimizer state and gradients, then the 16-bit weights) across as "
             "parcels while both stacks count to their new bytes; each step's gradients "
             "(down) and parameters (up) on the link's two lanes with their bytes and its "
             "speed each way; the step's compute and PCIe time as bars, and whether the "
             "PCIe time hides (all of it is exposed unless `overlap: all`, then what "
             "compute does not cover)",
    .sample = "model: 7B\n"
              "parallel: {gpus: 16, tp: 2, pp: 2, zero: 3}\n"
              "training: {micro_batches: 8}\n"
              "cluster: {gpu: h100-sxm-80gb, gpus_per_node: 8, nodes: 2}\n",
    .goldens = {{"chapter_offload", 24.4,
                 "optimizer and parameters on the host, traffic on the PCIe link"}},
    .phases = {{"cards", kCardsAt, "GPU 0's card, its memory stack and what it holds"},
               {"host", kHostAt, "the host's card: GPU 0's share of host memory"},
               {"link", kLinkAt, "the PCIe link between them, and what travels on it"},
               {"step", kStepAt, "a step's compute and copies, to one scale"}},
    .facts = {.rows = {rows::memory, kOnHost, kPcieBytes, kPcieSeconds, rows::fits},
              .formulas = {formulas::memory}},
}};

}  // namespace

}  // namespace story
