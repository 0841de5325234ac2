// The shared pipeline timeline; see pipeline_timeline.hpp.
#include "story/vocab/pipeline_timeline.hpp"

#include <algorithm>

#include "story/draw/arrange.hpp"
#include "story/draw/legend.hpp"
#include "story/scene/layout.hpp"
#include "story/text/format.hpp"

namespace story {

namespace {

constexpr double kRowGap = 10, kRowNameGap = 20, kSlotPad = 3, kMaxSidePad = 1.5;
constexpr double kAxisDrop = 16, kAxisHead = 12, kAxisLabelGap = 8;
constexpr double kPlayheadOver = 14, kPlayheadUnder = 6;

constexpr std::pair<engine::Schedule, const char*> kScheduleTitles[] = {
    {engine::Schedule::gpipe, "GPipe"},
    {engine::Schedule::one_f_one_b, "1F1B"},
    {engine::Schedule::interleaved, N_("interleaved 1F1B")},
    {engine::Schedule::zb_h1, "ZB-H1"},
    {engine::Schedule::zb_h2, "ZB-H2"},
    {engine::Schedule::dualpipe, "DualPipe"}};

Part part_of(engine::Pass p) {
    return p == engine::Pass::forward           ? Part::forward
           : p == engine::Pass::backward_weight ? Part::weight
                                                : Part::input;
}

// A slot's side padding: narrow slots keep most of their width.
double side_pad(const Box& b) { return std::min(kMaxSidePad, b.w / 6); }

// 0 until u reaches half, then up to 1: what appears once a change is halfway done.
double second_half(double u) { return std::clamp(2 * u - 1, 0.0, 1.0); }

}  // namespace

std::string schedule_title(const Locale& l, engine::Schedule s) {
    for (const auto& [kind, title] : kScheduleTitles)
        if (kind == s) return l.tr(title);
    return "1F1B";
}

bool split_backward(engine::Schedule s) {
    return s == engine::Schedule::zb_h1 || s == engine::Schedule::zb_h2 ||
           s == engine::Schedule::dualpipe;
}

engine::PipelineSchedule schedule_of(const engine::Config& c) {
    const int v = c.training.schedule == engine::Schedule::interleaved ? c.training.chunks : 1;
    return engine::pipeline_schedule(c.training.schedule, c.layout.pp, c.training.micro_batches, v);
}

// The zero-bubble formulas count idle within each GPU's own span, F = B = W = 1 unit.
std::string bubble_formula(const Locale& l, engine::Schedule kind, const std::string& p,
                           const std::string& m, const std::string& v) {
    const char* formula = N_("Bubble = (p − 1) / (m + p − 1) = ({p} − 1) / ({m} + {p} − 1)");
    switch (kind) {
        case engine::Schedule::interleaved:
            formula = N_("Bubble = (p − 1) / (v·m + p − 1) = ({p} − 1) / ({v}·{m} + {p} − 1)");
            break;
        case engine::Schedule::zb_h1:
            formula = N_("Bubble = (p − 1) / (3m + p − 1) = ({p} − 1) / (3·{m} + {p} − 1)");
            break;
        case engine::Schedule::zb_h2:
            formula =
                N_("Bubble = (p − 1)(F + B − 2W) / step, 0 once m ≥ 2p − 1 (p = {p}, m = {m})");
            break;
        case engine::Schedule::dualpipe:
            formula = N_("Bubble = (p/2 − 1) / (3m + p/2 − 1) = ({p}/2 − 1) / (3·{m} + {p}/2 − 1)");
            break;
        default:
            break;
    }
    return l.tr(formula, {{"p", p}, {"m", m}, {"v", v}});
}

double slot_label_alpha(const Timeline& timeline, double t) {
    constexpr double kAside = 0.3;  // s the numbers fade out before a slide, and back after
    double a = 1;
    for (int k = 1; k < static_cast<int>(timeline.states().size()); ++k)
        a = std::min(a, std::max(Fade::shown().out(timeline.state_start(k) - kAside, kAside).at(t),
                                 Fade::in(timeline.state_end(k), kAside).at(t)));
    return a;
}

LaidOutSchedule lay_out(engine::PipelineSchedule s, const Box& area) {
    LaidOutSchedule d{std::move(s), {}, {}, 0};
    d.bubble = d.schedule.bubble_share();
    for (int st = 0; st < d.schedule.stages; ++st)
        d.rows.push_back(column_cell(area, d.schedule.stages, st, kRowGap));
    const double unit = area.w / std::max(1, d.schedule.makespan());
    for (const auto& slot : d.schedule.slots) {
        const Box& row = d.rows[slot.stage];
        d.boxes.push_back({area.x + slot.start * unit, row.y, slot.duration * unit, row.h});
    }
    return d;
}

PipelineTimeline::PipelineTimeline(const Palette& p, const TextMetrics& m, const Locale& l,
                                   const Box& area)
    : palette_(p),
      metrics_(m),
      locale_(l),
      colors_(pass_colors(p)),
      area_(area),
      axis_y_(area.bottom() + kAxisDrop),
      time_label_(m, area.right(), axis_y_ + kAxisLabelGap, Align::right) {
    time_label_.line(l.tr("time"), Role::note, p.muted);
}

double PipelineTimeline::sweep_x(const TimelineFrame& f) const {
    return lerp(area_.x, area_.right(), f.sweep);
}

void PipelineTimeline::add_timeline(Scene& s, const TimelineFrame& f, const Stagger& rows_in,
                                    double t, double axis_alpha) const {
    add_rows(s, f, rows_in, t);
    add_axis(s, axis_alpha);
    add_slots(s, f);
    add_playhead(s, f);
}

void PipelineTimeline::add_header(Scene& s, double legend_x, double baseline, engine::Schedule kind,
                                  bool split, double alpha) const {
    add_pass_legend(s, legend_x, baseline, split, alpha);
    s.add(Text{area_.right(), baseline,
               locale_.tr("Schedule: {name}", {{"name", schedule_title(locale_, kind)}}),
               weighted(style_of(Role::label), Weight::semibold), palette_.text, Align::right},
          alpha);
}

Box PipelineTimeline::row_at(const TimelineFrame& f, int i) {
    const std::vector<Box>&from = f.from->rows, &to = f.to->rows;
    return lerp(from[std::min<std::size_t>(i, from.size() - 1)],
                to[std::min<std::size_t>(i, to.size() - 1)], f.u);
}

double PipelineTimeline::row_alpha(const TimelineFrame& f, const Stagger& rows_in, double t,
                                   int i) {
    double alpha = rows_in.at(t, i);
    if (i >= int(f.to->rows.size())) alpha *= 1 - f.u;
    if (i >= int(f.from->rows.size())) alpha *= f.u;
    return alpha;
}

void PipelineTimeline::add_rows(Scene& s, const TimelineFrame& f, const Stagger& rows_in,
                                double t) const {
    const TextStyle label = style_of(Role::label);
    for (int i = 0; i < int(std::max(f.from->rows.size(), f.to->rows.size())); ++i) {
        const Box r = row_at(f, i);
        const double alpha = row_alpha(f, rows_in, t, i);
        if (alpha <= 0) continue;
        const std::string name = locale_.tr("GPU {n}", {{"n", i}});
        s.add(Text{r.x - kRowNameGap, centred_baseline(metrics_, name, label, r.cy()), name, label,
                   palette_.muted, Align::right},
              alpha);
        s.add(outline(r, 4, palette_.grid, 1.5), alpha);
        const double swept = sweep_x(f) - r.x;
        if (swept <= 0) continue;
        Rect idle = filled(left_of(r, std::min(swept, r.w)), 4, palette_.panel);
        idle.hatch = palette_.idle;
        s.add(idle, alpha);
    }
}

// A state's slots as pieces. With `halves`, a whole backward is its input half and its weight
// half, the weight half paling towards W's shade and the seam between them opening as `split`
// goes to 1; without, it stays one piece (no seam shows while it slides).
std::map<PieceKey, PipelineTimeline::Piece> PipelineTimeline::pieces(const LaidOutSchedule& d,
                                                                     double split,
                                                                     bool halves) const {
    std::map<PieceKey, Piece> out;
    const bool interleaved = d.schedule.kind == engine::Schedule::interleaved;
    for (std::size_t i = 0; i < d.schedule.slots.size(); ++i) {
        const engine::PipelineSlot& slot = d.schedule.slots[i];
        const Box& box = d.boxes[i];
        const int chunk = interleaved ? slot.chunk : 0;
        const int label = slot.micro_batch + 1;
        const auto key = [&](Part p) { return PieceKey{slot.stage, slot.micro_batch, chunk, p}; };
        if (slot.pass == engine::Pass::backward && !halves) {
            out[key(Part::input)] = {box, colors_.backward, 1, 1, 1, label};
            continue;
        }
        if (slot.pass != engine::Pass::backward) {
            const Part part = part_of(slot.pass);
            const Color c = part == Part::forward  ? colors_.forward
                            : part == Part::weight ? colors_.weight_grad
                                                   : colors_.backward;
            out[key(part)] = {box, c, 1, 1, 1, label};
            continue;
        }
        const Box in{box.x, box.y, box.w / 2, box.h}, w{box.cx(), box.y, box.w / 2, box.h};
        const double shown = second_half(split);
        out[key(Part::input)] = {in, colors_.backward, 1, split, shown, label};
        out[key(Part::weight)] = {
            w, mix(colors_.backward, colors_.weight_grad, split), split, 1, shown, label};
    }
    return out;
}

void PipelineTimeline::add_slots(Scene& s, const TimelineFrame& f) const {
    const bool resting = f.from == f.to || f.u >= 1;
    if (resting && f.split <= 0) {
        // Whole backwards stay one slot until something splits them.
        const LaidOutSchedule& d = *f.to;
        for (std::size_t i = 0; i < d.schedule.slots.size(); ++i)
            add_whole(s, f, d.schedule.slots[i], d.boxes[i]);
        return;
    }
    // Whole backwards come apart only when they split or meet a B and a W on the other side.
    const bool halves =
        f.split > 0 || split_backward(f.from->schedule.kind) || split_backward(f.to->schedule.kind);
    const auto a = pieces(*f.from, f.split, halves), b = pieces(*f.to, f.split, halves);
    if (resting) {
        for (const auto& [key, piece] : b) add_piece(s, f, piece, 1);
        // The whole backward's number gives way to its halves' as they split.
        for (std::size_t i = 0; i < f.to->schedule.slots.size(); ++i)
            if (f.to->schedule.slots[i].pass == engine::Pass::backward)
                add_label(s, f, f.to->boxes[i], f.to->schedule.slots[i].micro_batch + 1,
                          colors_.backward, 1 - std::min(1.0, 2 * f.split));
        return;
    }
    for (const auto& [key, to] : b) {
        const auto it = a.find(key);
        if (it == a.end()) {
            add_piece(s, f, to, f.u);
            continue;
        }
        const Piece& from = it->second;
        add_piece(
            s, f,
            {lerp(from.box, to.box, f.u), mix(from.color, to.color, f.u),
             lerp(from.left_seam, to.left_seam, f.u), lerp(from.right_seam, to.right_seam, f.u),
             lerp(from.label_weight, to.label_weight, f.u), to.label},
            1);
    }
    for (const auto& [key, from] : a)
        if (!b.count(key)) add_piece(s, f, from, 1 - f.u);
}

void PipelineTimeline::add_piece(Scene& s, const TimelineFrame& f, const Piece& p,
                                 double alpha) const {
    const double pad = side_pad(p.box);
    add_bar(s, f, p.box, pad * p.left_seam, pad * p.right_seam, p.color, alpha);
    add_label(s, f, p.box, p.label, p.color, alpha * p.label_weight);
}

void PipelineTimeline::add_whole(Scene& s, const TimelineFrame& f, const engine::PipelineSlot& slot,
                                 const Box& box) const {
    const Color fill = slot.pass == engine::Pass::forward           ? colors_.forward
                       : slot.pass == engine::Pass::backward_weight ? colors_.weight_grad
                                                                    : colors_.backward;
    add_bar(s, f, box, side_pad(box), side_pad(box), fill, 1);
    add_label(s, f, box, slot.micro_batch + 1, fill, 1);
}

// A slot's bar reveals left to right as the playhead passes it.
void PipelineTimeline::add_bar(Scene& s, const TimelineFrame& f, const Box& box, double left_pad,
                               double right_pad, Color fill, double alpha) const {
    const double shown = std::clamp(sweep_x(f) - box.x, 0.0, box.w);
    if (shown <= 0 || alpha <= 0) return;
    const Box bar{box.x + left_pad, box.y + kSlotPad, shown - left_pad - right_pad,
                  box.h - 2 * kSlotPad};
    if (bar.w > 0) s.add(filled(bar, 3, fill), alpha);
}

// The micro-batch's number on its slot, once the slot is whole on screen and the number fits
// (at the smallest text size if need be).
void PipelineTimeline::add_label(Scene& s, const TimelineFrame& f, const Box& box, int label,
                                 Color fill, double alpha) const {
    alpha *= f.label_alpha;
    if (alpha <= 0 || sweep_x(f) - box.x < box.w - 1e-6) return;
    const std::string text = format_count(label, locale_);
    TextStyle style = sized(style_of(Role::figure), std::min(frame::kLabelSize, box.h * 0.4));
    // Two digits (16 micro-batches) narrow to the smallest size before they are left out.
    const double room = box.w - 2 * side_pad(box) - 6;
    style.size = fit_size(metrics_, text, style, room, frame::kMinTextSize);
    if (style.size < frame::kMinTextSize) return;
    if (metrics_.measure(text, style).advance > room) return;
    s.add(Text{box.cx(), centred_baseline(metrics_, text, style, box.cy()), text, style,
               readable_on(palette_, fill), Align::center},
          alpha);
}

void PipelineTimeline::add_axis(Scene& s, double alpha) const {
    s.add(Arrow{{area_.x, axis_y_}, {area_.right(), axis_y_}, palette_.muted, 2, kAxisHead}, alpha);
    time_label_.add_to(s, alpha);
}

void PipelineTimeline::add_playhead(Scene& s, const TimelineFrame& f) const {
    if (f.sweep <= 0 || f.sweep >= 1) return;
    const double x = sweep_x(f);
    s.add(Line{
        {x, area_.y - kPlayheadOver}, {x, area_.bottom() + kPlayheadUnder}, palette_.highlight, 3});
}

void PipelineTimeline::add_pass_legend(Scene& s, double x, double baseline, bool split,
                                       double alpha) const {
    if (split)
        add_legend(s, palette_, metrics_, x, baseline,
                   {{locale_.tr("Forward"), colors_.forward},
                    {locale_.tr("B: input gradient"), colors_.backward},
                    {locale_.tr("W: weight gradient"), colors_.weight_grad},
                    {locale_.tr("Idle"), palette_.idle, true}},
                   alpha);
    else
        add_legend(s, palette_, metrics_, x, baseline,
                   {{locale_.tr("Forward"), colors_.forward},
                    {locale_.tr("Backward (2× a forward)"), colors_.backward},
                    {locale_.tr("Idle: the bubble"), palette_.idle, true}},
                   alpha);
}

}  // namespace story
