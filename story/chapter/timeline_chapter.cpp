// The pipeline timeline chapters' shared base; see timeline_chapter.hpp.
#include "story/chapter/timeline_chapter.hpp"

#include "story/text/format.hpp"

namespace story {

TimelineChapter::TimelineChapter(const ChapterSpec& spec, const Video& video,
                                 const TextMetrics& metrics, const Box& area, Motion motion)
    : ChapterBase(spec, video, metrics),
      view_(palette_, metrics_, locale_, area),
      rows_in_{at(motion.rows_at)},
      motion_(motion) {
    for (const engine::Config& state : timeline_.states())
        laid_.push_back(lay_out(schedule_of(state), area));
}

TimelineFrame TimelineChapter::frame_at(double t, const Morph& m, double split) const {
    // The playhead moves at constant speed.
    const double sweep =
        progress(t, at(motion_.sweep_at), span(motion_.sweep_at, motion_.sweep_for), Ease::linear);
    return {.from = &laid_[m.from],
            .to = &laid_[m.to],
            .u = m.u,
            .sweep = sweep,
            .split = split,
            .label_alpha = slot_label_alpha(timeline_, t),
            .shown = &laid_[m.shown()]};
}

void TimelineChapter::add_timeline(Scene& s, double t, const TimelineFrame& f, double legend_x,
                                   double baseline, bool split_legend) const {
    const double alpha = Fade::in(at(motion_.rows_at)).at(t);
    view_.add_header(s, legend_x, baseline, f.shown->schedule.kind, split_legend, alpha);
    view_.add_timeline(s, f, rows_in_, t, alpha);
}

double TimelineChapter::measured_bubble(const Morph& m) const { return laid_[m.shown()].bubble; }

TextColumn TimelineChapter::bubble_readout(double t, const Morph& m, double width,
                                           const std::string& measured) const {
    constexpr double kReadoutGap = 10;  // px under the time axis's label
    const engine::Config& b = timeline_.states()[m.shown()];
    const auto n = [&](auto field) { return format_int(field(b), locale_); };
    const std::string p = n([](const engine::Config& c) { return c.layout.pp; });
    const std::string mb = n([](const engine::Config& c) { return c.training.micro_batches; });
    const std::string v = n([](const engine::Config& c) { return c.training.chunks; });
    const double bubble = figure_at(t, [](const engine::Report& r) { return r.bubble_fraction; });
    const std::string line = bubble_formula(locale_, b.training.schedule, p, mb, v) + " = " +
                             format_percent(bubble, locale_);
    TextStyle style = tabular(weighted(style_of(Role::body), Weight::semibold));
    style.size = fit_size(metrics_, line, style, width);
    TextColumn col(metrics_, view_.area().x, view_.below_axis() + kReadoutGap);
    col.line(line, style, palette_.text)
        .line(measured, tabular(style_of(Role::note)), palette_.muted);
    return col;
}

}  // namespace story
