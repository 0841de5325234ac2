// Shared chapter machinery.
#include "story/chapter/chapter_base.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "story/text/format.hpp"
#include "story/vocab/settings_note.hpp"

namespace story {

namespace {

std::vector<engine::Report> analyze_all(const Timeline& timeline) {
    std::vector<engine::Report> out;
    for (const engine::Config& c : timeline.states()) out.push_back(engine::analyze(c));
    return out;
}

std::vector<std::string> notes_all(const ChapterSpec& spec, const Timeline& timeline,
                                   const Locale& l) {
    std::vector<std::string> out;
    for (const engine::Config& c : timeline.states())
        out.push_back(spec.film ? settings_note(*spec.film, c, l) : "");
    return out;
}

constexpr double kFade = 0.3;  // caption fade in/out, seconds

}  // namespace

ChapterBase::ChapterBase(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
    : spec_(spec),
      locale_(video.lang),
      palette_(palette(video.theme)),
      metrics_(metrics),
      timeline_(spec, video.fps),
      choreography_(spec, find_kind(spec.kind)),
      burn_captions_(video.captions == Captions::burn),
      lang_(video.lang),
      reports_(analyze_all(timeline_)),
      settings_notes_(notes_all(spec, timeline_, locale_)) {}

bool ChapterBase::shows(std::string_view name) const {
    return std::ranges::any_of(spec_.beats, [&](const Beat& b) { return b.show == name; });
}

double ChapterBase::shown_until(std::string_view name) const {
    const auto& beats = spec_.beats;
    const auto it = std::ranges::find_if(beats, [&](const Beat& b) { return b.show == name; });
    if (it == beats.end()) return 0;
    return it + 1 == beats.end() ? spec_.duration : (it + 1)->at;
}

Scene ChapterBase::blank() const {
    Scene s;
    s.background = palette_.background;
    return s;
}

Chrome ChapterBase::chrome_at(double t, std::vector<Stat> stats) const {
    Chrome c;
    c.title = spec_.title;
    c.settings = settings_notes_[timeline_.morph_at(t).shown()];
    c.stats = std::move(stats);
    c.alpha = progress(t, 0, 0.5);
    c.lang = lang_;
    if (const Cue* cue = burn_captions_ ? timeline_.cue_at(t) : nullptr) {
        // Which line a frame shows is its cue's (the caption files' frames); the fade, like every
        // animation, runs on the line's own time.
        const double start = spec_.beats[cue->beat].at, end = caption_end(spec_, cue->beat);
        c.caption = cue->text;
        c.caption_alpha = std::min(progress(t, start, kFade), 1 - progress(t, end - kFade, kFade));
    }
    return c;
}

double ChapterBase::figure_at(double t,
                              const std::function<double(const engine::Report&)>& f) const {
    return f(report_at(t));
}

const engine::Report& ChapterBase::report_at(double t) const {
    return reports_[timeline_.morph_at(t).shown()];
}

std::vector<MemorySegment> ChapterBase::memory_at(double t) const {
    return {{figure_at(t, [](const engine::Report& r) { return r.per_gpu.weights.value; }),
             palette_.weights},
            {figure_at(t, [](const engine::Report& r) { return r.per_gpu.gradients.value; }),
             palette_.gradients},
            {figure_at(t, [](const engine::Report& r) { return r.per_gpu.optimizer.value; }),
             palette_.optimizer},
            {figure_at(t, [](const engine::Report& r) { return r.per_gpu.activations.value; }),
             palette_.activations}};
}

Stat ChapterBase::per_card(const engine::Report& r) const {
    Stat card{tr("Per card"), format_bytes(r.per_gpu.total.value, locale_)};
    const double over = r.per_gpu.total.value - r.per_gpu.capacity.value;
    if (over > 0) {
        card.detail = over_by(locale_, over);
        card.alert = true;
    }
    return card;
}

std::vector<Stat> ChapterBase::stat_panel(const engine::Report& r) const {
    return {per_card(r),
            {tr("Comm / step"), format_bytes(r.comm.sent_per_gpu().value, locale_),
             comm_detail(r.comm, locale_)},
            {tr("Bubble"), format_percent(r.bubble_fraction, locale_)}};
}

std::vector<LegendEntry> ChapterBase::memory_legend() const {
    return {{tr("Weights"), palette_.weights},
            {tr("Gradients"), palette_.gradients},
            {tr("Optimizer state"), palette_.optimizer},
            {tr("Activations"), palette_.activations}};
}

void ChapterBase::add_frame(Scene& s, double t) const {
    default_language(s.items, lang_);
    add_chrome(s, palette_, metrics_, chrome_at(t, stats_at(t)));
}

std::vector<Stat> ChapterBase::stats_at(double t) const { return stat_panel(report_at(t)); }

}  // namespace story
