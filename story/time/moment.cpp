// Moments of a film; see moment.hpp.
#include "story/time/moment.hpp"

#include <algorithm>

#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/time.hpp"
#include "story/storyboard/units.hpp"

namespace story {

std::optional<std::string> resolve_at(const Storyboard& board, const FilmTime& time,
                                      const std::string& at, Moment& out) {
    const auto sep = at.rfind('@');
    if (sep == std::string::npos) return "--at expects ID@TIME (e.g. bytes@8s), got '" + at + "'";
    const std::string id = at.substr(0, sep), when = at.substr(sep + 1);
    std::vector<std::string> ids;
    for (const auto& c : board.chapters) ids.push_back(c.id);
    const auto found = std::find(ids.begin(), ids.end(), id);
    if (found == ids.end()) {
        const std::string near = closest_match(id, ids);
        return "no chapter '" + id + "' in " + board.file +
               (near.empty() ? "" : " (did you mean '" + near + "'?)");
    }
    const auto index = static_cast<std::size_t>(found - ids.begin());
    const int frames = time.chapter(index).frames, fps = time.fps();
    int frame = frames - 1;
    if (when != "end") {
        const auto seconds = parse_time(when, fps);
        if (!seconds)
            return "cannot parse time '" + when + "' (expected e.g. 3.5s, 500ms, 90f or end)";
        frame = frame_count(*seconds, fps);
        if (frame < 0 || frame >= frames)
            return "time '" + when + "' is outside chapter '" + id + "' (frames 0-" +
                   std::to_string(frames - 1) + " at " + std::to_string(fps) + " fps)";
    }
    out = {index, frame, time.seconds(frame)};
    return std::nullopt;
}

Moment moment_at(const FilmTime& time, double seconds) {
    const int film_frame = std::clamp(time.frame_at(seconds), 0, std::max(0, time.frames() - 1));
    const std::size_t chapter = time.chapter_at(film_frame).value_or(0);
    const int frame = film_frame - time.chapter(chapter).start;
    return {chapter, frame, time.seconds(frame)};
}

}  // namespace story
