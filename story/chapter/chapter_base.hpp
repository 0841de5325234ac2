// What every chapter kind shares: its spec, palette, metrics, beat timeline, and the engine's
// report for each parameter state, computed once up front.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/report.hpp"
#include "story/chapter/chapter.hpp"
#include "story/chapter/choreography.hpp"
#include "story/draw/legend.hpp"
#include "story/draw/motion.hpp"
#include "story/scene/layout.hpp"
#include "story/text/locale.hpp"
#include "story/time/timeline.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

class ChapterBase : public Chapter {
  public:
    ChapterBase(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics);
    // stat_panel of the engine's report of the state on screen (report_at).
    std::vector<Stat> stats_at(double t) const override;

  protected:
    // A message in the film's language (locale_, from Video::lang): tr("Per card"),
    // tr("{n} layers", {{"n", 32}}); numbers go through story/text/format.hpp with locale_.
    std::string tr(std::string_view msgid) const { return locale_.tr(msgid); }
    std::string tr(std::string_view msgid, std::initializer_list<MessageArg> args) const {
        return locale_.tr(msgid, args);
    }
    // Seconds from the chapter start of a choreography time authored for the kind's default
    // duration, on the beats that show the kind's phases (story/chapter/choreography.hpp): chapters
    // write their timings once, for the default length.
    double at(double authored) const { return choreography_.at(authored); }
    // Seconds an authored stretch starting at `from` lasts here.
    double span(double from, double length) const { return choreography_.span(from, length); }
    // Whether a beat shows the kind's phase `name` (`show:`), its moment then the beat's start.
    bool shows(std::string_view name) const;
    // Until when the phase `name` stays the subject: the start of the beat after the one that
    // shows it (the chapter's end after the last beat); 0 where no beat shows it.
    double shown_until(std::string_view name) const;
    // A per-state value (one per timeline state, built in the constructor) at t: a number is the
    // shown state's (Morph::shown), a box slides from the previous state's while a `set:` morphs.
    template <class T>
    T value_at(double t, const std::vector<T>& per_state) const {
        return morphed(timeline_.morph_at(t), per_state);
    }
    // Background only, in the authoring space.
    Scene blank() const;
    // Title, caption of the beat showing at t, and the given stats.
    Chrome chrome_at(double t, std::vector<Stat> stats) const;
    // An engine figure at time t: the shown state's (Morph::shown: the previous state's until
    // halfway through a `set:` morph, the new one's from then), never a blend of the two.
    double figure_at(double t, const std::function<double(const engine::Report&)>& f) const;
    const engine::Report& report_at(double t) const;  // the shown state's
    // The most loaded card's memory at t, bottom to top as STYLE.md stacks it (weights,
    // gradients, optimizer, activations), the shown state's.
    std::vector<MemorySegment> memory_at(double t) const;
    // The key to a memory stack: weights, gradients, optimizer state and activations in their
    // colours.
    std::vector<LegendEntry> memory_legend() const;
    // "Per card" and the most loaded card's memory, with "over by X GB" under it (in the
    // highlight colour) where that passes the card's capacity: a chapter that draws no card
    // still says so.
    Stat per_card(const engine::Report& r) const;
    // The stat panel most chapters show, of one report: "Per card" (per_card), "Comm / step"
    // (the bytes each GPU sends; beneath, which traffic they are, largest first, and their time
    // on the links: "tp + dp · 122 ms"), "Bubble".
    std::vector<Stat> stat_panel(const engine::Report& r) const;
    // The shared frame (title, stat panel of stats_at, caption) over the scene at t.
    void add_frame(Scene& s, double t) const;

    const ChapterSpec spec_;
    const Locale locale_;
    const Palette& palette_;
    const TextMetrics& metrics_;
    const Timeline timeline_;
    const Choreography choreography_;
    const bool burn_captions_;  // video.captions == burn: captions are drawn into the frame
    const std::string lang_;    // video.lang: the title, captions and stat panel are in it
    const std::vector<engine::Report> reports_;
    // Per timeline state, what it changes from the film's defaults (settings_note), the shown
    // state's under the title.
    const std::vector<std::string> settings_notes_;
};

// KindInfo::make for a chapter class constructed from (spec, video, metrics), as ChapterBase is.
template <class T>
std::unique_ptr<Chapter> make_of(const ChapterSpec& spec, const Video& video,
                                 const TextMetrics& metrics) {
    return std::make_unique<T>(spec, video, metrics);
}

}  // namespace story
