// The pipeline timeline the pipeline_bubble and zero_bubble chapters share (STYLE.md "Timeline"):
// one row per stage, time to the right, the engine's slots drawn to scale and revealed by a
// playhead, idle ground hatched, and slots sliding from one schedule to the next on a `set:`
// (matched by stage, micro-batch and pass; a whole backward splits into its B and W halves).
#pragma once
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "engine/pipeline.hpp"
#include "story/draw/box.hpp"
#include "story/draw/color.hpp"
#include "story/draw/motion.hpp"
#include "story/draw/text.hpp"
#include "story/scene/theme.hpp"
#include "story/storyboard/storyboard.hpp"
#include "story/text/locale.hpp"
#include "story/time/timeline.hpp"

namespace story {

// The schedule's name as its paper writes it: "1F1B", "ZB-H1", "DualPipe" (a message: "interleaved
// 1F1B" is translated).
std::string schedule_title(const Locale& l, engine::Schedule s);
// Whether the schedule splits each backward into B (input gradient) and W (weight gradient).
bool split_backward(engine::Schedule s);
// The engine's schedule for a configuration (chunks only when interleaved).
engine::PipelineSchedule schedule_of(const engine::Config& c);
// The bubble's formula with the state's numbers put in (engine/pipeline.cpp cites each).
std::string bubble_formula(const Locale& l, engine::Schedule kind, const std::string& p,
                           const std::string& m, const std::string& v);
// Micro-batch numbers step aside for the whole of each `set:` slide, fading out just before it
// and back once the slots settle: sliding slots overlap and narrow, so a number would sit on its
// neighbour's.
double slot_label_alpha(const Timeline& timeline, double t);

// What a slot is, for matching across schedules: a whole backward is an input half and a weight
// half, so it can split into (or merge from) a B and a W.
enum class Part { forward, input, weight };
// Stage, micro-batch, chunk (interleaved only: DualPipe's chunk is a direction), part.
using PieceKey = std::tuple<int, int, int, Part>;

// One schedule laid out in the timeline's box: a row per stage, each slot's box at its start.
struct LaidOutSchedule {
    engine::PipelineSchedule schedule;
    std::vector<Box> rows;
    std::vector<Box> boxes;  // one per schedule.slots entry
    double bubble = 0;       // schedule.bubble_share()
};
LaidOutSchedule lay_out(engine::PipelineSchedule s, const Box& area);

// What the timeline shows at one instant.
struct TimelineFrame {
    const LaidOutSchedule* from = nullptr;
    const LaidOutSchedule* to = nullptr;
    double u = 1;            // the morph from `from` to `to`
    double sweep = 1;        // 0..1 of the width the playhead has revealed
    double split = 0;        // 0..1: whole backwards drawn as their B and W halves
    double label_alpha = 1;  // micro-batch numbers
    // The state whose texts the frame shows (Morph::shown): `from` until halfway, then `to`.
    const LaidOutSchedule* shown = nullptr;
};

class PipelineTimeline {
  public:
    PipelineTimeline(const Palette& p, const TextMetrics& m, const Locale& l, const Box& area);

    const Box& area() const { return area_; }
    double axis_y() const { return axis_y_; }
    // Below the time axis's label: where read-outs under the timeline may start.
    double below_axis() const { return time_label_.bottom(); }
    const PassColors& colors() const { return colors_; }

    // Row i's box at the frame's morph (stages come and go with pp).
    static Box row_at(const TimelineFrame& f, int i);
    // Row i's opacity: staggered in, fading out (or in) when pp drops (or grows) past it.
    static double row_alpha(const TimelineFrame& f, const Stagger& rows_in, double t, int i);
    // The rows (entering staggered), the time axis (at axis_alpha), the slots and the playhead.
    void add_timeline(Scene& s, const TimelineFrame& f, const Stagger& rows_in, double t,
                      double axis_alpha) const;
    // Above the rows: the pass legend from legend_x (B and W apart when split) and the
    // schedule's name right-aligned over the timeline's end, on one baseline.
    void add_header(Scene& s, double legend_x, double baseline, engine::Schedule kind, bool split,
                    double alpha) const;

  private:
    double sweep_x(const TimelineFrame& f) const;
    // Stage names, outlines and the hatched idle ground revealed so far.
    void add_rows(Scene& s, const TimelineFrame& f, const Stagger& rows_in, double t) const;
    // Every slot, sliding from its place in `from` to its place in `to`.
    void add_slots(Scene& s, const TimelineFrame& f) const;
    void add_axis(Scene& s, double alpha) const;
    void add_playhead(Scene& s, const TimelineFrame& f) const;
    void add_pass_legend(Scene& s, double x, double baseline, bool split, double alpha) const;

    // A slot, or half of a whole backward, as it morphs.
    struct Piece {
        Box box;
        Color color;
        // 0..1 of a slot's side padding on each side: a whole backward's halves meet at 0.
        double left_seam = 1, right_seam = 1;
        double label_weight = 1;  // the micro-batch number's opacity
        int label = 0;            // the micro-batch's number, from 1
    };
    std::map<PieceKey, Piece> pieces(const LaidOutSchedule& d, double split, bool halves) const;
    void add_piece(Scene& s, const TimelineFrame& f, const Piece& p, double alpha) const;
    void add_whole(Scene& s, const TimelineFrame& f, const engine::PipelineSlot& slot,
                   const Box& box) const;
    void add_bar(Scene& s, const TimelineFrame& f, const Box& box, double left_pad,
                 double right_pad, Color fill, double alpha) const;
    void add_label(Scene& s, const TimelineFrame& f, const Box& box, int label, Color fill,
                   double alpha) const;

    const Palette& palette_;
    const TextMetrics& metrics_;
    const Locale& locale_;
    const PassColors colors_;
    const Box area_;
    const double axis_y_;
    TextColumn time_label_;
};

}  // namespace story
