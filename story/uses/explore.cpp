// Page figures and explore: variants; see explore.hpp.
#include "story/uses/explore.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "story/storyboard/settings.hpp"
#include "story/storyboard/time.hpp"
#include "story/time/timeline.hpp"

namespace story {
namespace {

const Beat* exploring_beat(const ChapterSpec& spec) {
    if (spec.explore_beat == 0) return nullptr;
    auto it = std::ranges::find(spec.beats, spec.explore_beat, &Beat::number);
    return it == spec.beats.end() ? nullptr : &*it;
}

bool explored(const ChapterSpec& spec, const std::string& key) {
    return std::ranges::count(spec.explore, key, &ExploreParam::key) > 0;
}

// `spec` with the settings held: on its config (chapter) or its exploring beat, the beats' own
// settings of those keys dropped where the values hold.
ChapterSpec holding(const ChapterSpec& spec, const std::vector<Setting>& settings) {
    ChapterSpec out = spec;
    const Beat* beat = exploring_beat(spec);
    const double from = beat ? beat->at : -1;
    for (Beat& b : out.beats) {
        if (b.at < from || (beat && b.number != beat->number && b.at == from)) continue;
        std::erase_if(b.set, [&](const Setting& s) { return explored(spec, s.key); });
        if (beat && b.number == beat->number)
            b.set.insert(b.set.end(), settings.begin(), settings.end());
    }
    if (!beat)
        for (const Setting& s : settings)
            if (auto err = apply_setting(out.config, s.key, s.value))
                throw std::logic_error("unvalidated explore: value: " + *err);
    return out;
}

}  // namespace

int figure_frame(const ChapterSpec& spec, int frames, int fps) {
    double t = time_of_frame(frames - 1, fps);
    if (spec.figure)
        t = std::min(*spec.figure, t);
    else if (const Beat* beat = exploring_beat(spec))
        t = std::min(beat->at + beat->over, t);
    return std::clamp(frame_count(t, fps), 0, frames - 1);
}

engine::Config config_at(const ChapterSpec& spec, double t, int fps) {
    return Timeline(spec, fps).state_at(t);
}

std::string words_at(const ChapterSpec& spec, double t, int fps) {
    const std::vector<Cue> cues = chapter_cues(spec, fps);
    const Cue* cue = cue_begun(cues, frame_at(t, fps));
    return cue ? cue->text : spec.title;
}

std::vector<Variant> explore_variants(const ChapterSpec& spec) {
    std::vector<Variant> out;
    if (spec.explore.empty()) return out;
    std::vector<std::size_t> index(spec.explore.size(), 0);
    while (true) {
        Variant v{index, {}, {}};
        for (std::size_t p = 0; p < index.size(); ++p)
            v.settings.push_back({spec.explore[p].key, spec.explore[p].values[index[p]], {}, {}});
        v.spec = holding(spec, v.settings);
        out.push_back(std::move(v));
        std::size_t p = index.size();
        while (p > 0 && ++index[p - 1] == spec.explore[p - 1].values.size()) index[--p] = 0;
        if (p == 0) return out;
    }
}

std::vector<std::size_t> written_variant(const ChapterSpec& spec, double t, int fps) {
    const engine::Config shown = config_at(spec, t, fps);
    std::vector<std::size_t> index;
    for (const ExploreParam& p : spec.explore) {
        std::size_t found = 0;
        for (std::size_t i = 0; i < p.values.size(); ++i) {
            engine::Config c = shown;
            if (!apply_setting(c, p.key, p.values[i]) && c == shown) {
                found = i;
                break;
            }
        }
        index.push_back(found);
    }
    return index;
}

}  // namespace story
