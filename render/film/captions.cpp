// WebVTT and SRT writers, and the caption files beside a video.
#include "render/film/captions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "render/sys/files.hpp"
#include "story/format.hpp"
#include "story/languages.hpp"

namespace render {

namespace {

std::string span(const story::FilmTime& time, const story::CueTime& c, char decimal_sep) {
    return story::format_timecode(time.seconds(c.start), decimal_sep) + " --> " +
           story::format_timecode(time.seconds(c.end), decimal_sep);
}

std::string sibling(const std::string& path, const char* ext) {
    std::filesystem::path p(path);
    if (p.filename().string().find('%') != std::string::npos) p = p.parent_path();
    return p.replace_extension(ext).string();
}

// `other`'s line of the film's beat `cue` is on; empty when it has none.
std::string line_of(const story::Storyboard& film, const story::Storyboard& other,
                    const story::CueTime& cue) {
    const story::ChapterSpec& spec = film.chapters[cue.chapter];
    const auto chapter = std::ranges::find(other.chapters, spec.id, &story::ChapterSpec::id);
    if (chapter == other.chapters.end()) return "";
    const auto beat =
        std::ranges::find(chapter->beats, spec.beats[cue.beat].number, &story::Beat::number);
    return beat == chapter->beats.end() ? "" : beat->say;
}

SubtitleTrack track(const story::Storyboard& film, const story::Storyboard& lines,
                    const story::FilmTime& time) {
    SubtitleTrack out{story::iso639_2(lines.video.lang), {}};
    for (const story::CueTime& c : time.cues()) {
        const std::string text = &film == &lines ? c.text : line_of(film, lines, c);
        if (!text.empty()) out.cues.push_back({time.seconds(c.start), time.seconds(c.end), text});
    }
    return out;
}

}  // namespace

std::vector<SubtitleTrack> caption_tracks(const FilmJob& film, const story::FilmTime& time) {
    std::vector<SubtitleTrack> tracks{track(film.board, film.board, time)};
    for (const story::Storyboard& other : film.caption_languages)
        tracks.push_back(track(film.board, other, time));
    return tracks;
}

std::string to_webvtt(const story::FilmTime& time) {
    std::string out = "WEBVTT\n";
    for (const story::CueTime& c : time.cues())
        out += "\n" + span(time, c, '.') + "\n" + c.text + "\n";
    return out;
}

std::string to_srt(const story::FilmTime& time) {
    std::string out;
    for (std::size_t i = 0; i < time.cues().size(); ++i)
        out += (i ? "\n" : "") + std::to_string(i + 1) + "\n" + span(time, time.cues()[i], ',') +
               "\n" + time.cues()[i].text + "\n";
    return out;
}

CaptionFiles::CaptionFiles(const std::string& output, const story::FilmTime& time)
    : vtt_(sibling(output, ".vtt")), srt_(sibling(output, ".srt")) {
    write_temp(vtt_, to_webvtt(time));
    write_temp(srt_, to_srt(time));
}

void CaptionFiles::commit() {
    vtt_.commit();
    srt_.commit();
}

}  // namespace render
