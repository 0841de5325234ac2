// WebVTT and SRT writers.
#include "render/film/captions.hpp"

#include <cmath>
#include <cstdio>

#include "story/time.hpp"

namespace render {

std::vector<story::Cue> film_cues(const std::vector<story::ChapterSpec>& chapters, int fps) {
    std::vector<story::Cue> out;
    int chapter_start = 0;  // frames
    for (const story::ChapterSpec& spec : chapters) {
        const int frames = story::frame_count(spec.duration, fps);
        const story::Timeline timeline(spec);
        for (const story::Cue& c : timeline.cues()) {
            const int a = chapter_start + std::min(frames, story::frame_count(c.start, fps));
            const int b = chapter_start + std::min(frames, story::frame_count(c.end, fps));
            if (b > a)
                out.push_back({story::time_of_frame(a, fps), story::time_of_frame(b, fps), c.text});
        }
        chapter_start += frames;
    }
    return out;
}

namespace {

std::string timestamp(double seconds, char decimal_sep) {
    const long long ms = std::llround(seconds * 1000);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld%c%03lld", ms / 3600000, ms / 60000 % 60,
                  ms / 1000 % 60, decimal_sep, ms % 1000);
    return buf;
}

}  // namespace

std::string to_webvtt(const std::vector<story::Cue>& cues) {
    std::string out = "WEBVTT\n";
    for (const story::Cue& c : cues)
        out +=
            "\n" + timestamp(c.start, '.') + " --> " + timestamp(c.end, '.') + "\n" + c.text + "\n";
    return out;
}

std::string to_srt(const std::vector<story::Cue>& cues) {
    std::string out;
    for (std::size_t i = 0; i < cues.size(); ++i)
        out += (i ? "\n" : "") + std::to_string(i + 1) + "\n" + timestamp(cues[i].start, ',') +
               " --> " + timestamp(cues[i].end, ',') + "\n" + cues[i].text + "\n";
    return out;
}

}  // namespace render
