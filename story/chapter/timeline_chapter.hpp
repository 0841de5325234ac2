// The base of the chapters drawn around the pipeline timeline (pipeline_bubble, zero_bubble): the
// engine's schedule laid out for every parameter state, the playhead's sweep, and the header and
// timeline drawn the same way at t.
#pragma once
#include <string>
#include <vector>

#include "story/chapter/chapter_base.hpp"
#include "story/vocab/pipeline_timeline.hpp"

namespace story {

class TimelineChapter : public ChapterBase {
  protected:
    // When the rows and header enter and the playhead sweeps across the timeline, in seconds of
    // the kind's default duration.
    struct Motion {
        double rows_at = 0, sweep_at = 0, sweep_for = 0;
    };
    TimelineChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics,
                    const Box& area, Motion motion);

    // The timeline at t in morph m, whole backwards split by `split` (0..1).
    TimelineFrame frame_at(double t, const Morph& m, double split = 0) const;
    // The header (the pass legend from legend_x, B and W apart when split_legend; the schedule's
    // name) on `baseline`, then the rows, axis, slots and playhead.
    void add_timeline(Scene& s, double t, const TimelineFrame& f, double legend_x, double baseline,
                      bool split_legend) const;
    const engine::Config& state(const Morph& m) const { return timeline_.states()[m.shown()]; }
    const LaidOutSchedule& laid(int state) const { return laid_[state]; }
    // The bubble measured on the slots (the most idle GPU's share of its own span): the shown
    // state's (Morph::shown).
    double measured_bubble(const Morph& m) const;

    // Under the time axis, from the timeline's left: the schedule's bubble formula with the
    // state's numbers (counting through a morph) and the engine's figure, shrunk to fit `width`,
    // then `measured` as a muted note.
    TextColumn bubble_readout(double t, const Morph& m, double width,
                              const std::string& measured) const;

    const PipelineTimeline view_;
    const Stagger rows_in_;

  private:
    const Motion motion_;
    std::vector<LaidOutSchedule> laid_;
};

}  // namespace story
