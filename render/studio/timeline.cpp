// The studio's timeline; see timeline.hpp.
#include "render/studio/timeline.hpp"

#include <sstream>

namespace render {

nlohmann::ordered_json errors_json(const std::string& errors) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    std::istringstream lines(errors);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

namespace {

nlohmann::ordered_json chapter_json(const story::ChapterSpec& spec, const story::ChapterTime& at,
                                    const story::FilmTime& time) {
    nlohmann::ordered_json beats = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < spec.beats.size(); ++i)
        beats.push_back({{"frame", at.beats[i].film_frame},
                         {"at", time.seconds(at.beats[i].film_frame)},
                         {"say", spec.beats[i].say}});
    return {{"id", spec.id},
            {"title", spec.title.empty() ? spec.id : spec.title},
            {"kind", spec.kind},
            {"frame", at.start},
            {"frames", at.frames},
            {"start", time.seconds(at.start)},
            {"duration", time.seconds(at.frames)},
            {"beats", beats}};
}

}  // namespace

nlohmann::ordered_json timeline_json(const FilmState& state, int preview_width,
                                     int preview_height) {
    nlohmann::ordered_json out{
        {"version", state.version}, {"errors", errors_json(state.errors)}, {"film", nullptr}};
    if (!state.film) return out;
    const StudioFilm& f = *state.film;
    nlohmann::ordered_json chapters = nlohmann::ordered_json::array(),
                           captions = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < f.board.chapters.size(); ++i)
        chapters.push_back(chapter_json(f.board.chapters[i], f.time.chapter(i), f.time));
    for (const story::Cue& c : f.time.cues())
        captions.push_back({{"start", f.time.seconds(c.start)},
                            {"end", f.time.seconds(c.end)},
                            {"chapter", f.board.chapters[c.chapter].id},
                            {"beat", c.beat},
                            {"text", c.text}});
    out["film"] = {{"storyboard", f.board.file},
                   {"title", f.board.title},
                   {"fps", f.time.fps()},
                   {"frames", f.time.frames()},
                   {"duration", f.time.seconds(f.time.frames())},
                   {"width", f.video.width},
                   {"height", f.video.height},
                   {"preview", {{"width", preview_width}, {"height", preview_height}}},
                   {"chapters", chapters},
                   {"captions", captions}};
    return out;
}

}  // namespace render
