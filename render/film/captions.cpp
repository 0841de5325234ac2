// WebVTT and SRT writers, and the caption files beside a video.
#include "render/film/captions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "render/sys/files.hpp"
#include "story/storyboard/languages.hpp"
#include "story/text/format.hpp"

namespace render {

namespace {

std::string span(const SubtitleCue& c, char decimal_sep) {
    return story::format_timecode(c.start_seconds, decimal_sep) + " --> " +
           story::format_timecode(c.end_seconds, decimal_sep);
}

// The output's path without its extension (an image sequence's: its folder).
std::string caption_stem(const std::string& output) {
    std::filesystem::path p(output);
    if (p.filename().string().find('%') != std::string::npos) p = p.parent_path();
    return p.replace_extension().string();
}

// `other`'s line of the film's beat `cue` is on; empty when it has none.
std::string line_of(const story::Storyboard& film, const story::Storyboard& other,
                    const story::Cue& cue) {
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
    for (const story::Cue& c : time.cues()) {
        const std::string text = &film == &lines ? c.text : line_of(film, lines, c);
        if (!text.empty()) out.cues.push_back({time.seconds(c.start), time.seconds(c.end), text});
    }
    return out;
}

}  // namespace

std::string to_webvtt(const SubtitleTrack& track) {
    std::string out = "WEBVTT\n";
    for (const SubtitleCue& c : track.cues) out += "\n" + span(c, '.') + "\n" + c.text + "\n";
    return out;
}

std::string to_srt(const SubtitleTrack& track) {
    std::string out;
    for (std::size_t i = 0; i < track.cues.size(); ++i)
        out += (i ? "\n" : "") + std::to_string(i + 1) + "\n" + span(track.cues[i], ',') + "\n" +
               track.cues[i].text + "\n";
    return out;
}

CaptionFiles::CaptionFiles(const FilmJob& film, const story::FilmTime& time)
    : tracks_{track(film.board, film.board, time)} {
    const std::string stem = caption_stem(film.output);
    write(stem, tracks_[0]);
    for (const story::Storyboard& other : film.caption_languages) {
        tracks_.push_back(track(film.board, other, time));
        write(stem + "." + other.video.lang, tracks_.back());
    }
}

void CaptionFiles::write(const std::string& stem, const SubtitleTrack& track) {
    write_temp(files_.emplace_back(stem + ".vtt"), to_webvtt(track));
    write_temp(files_.emplace_back(stem + ".srt"), to_srt(track));
}

std::vector<std::string> CaptionFiles::paths() const {
    std::vector<std::string> out;
    for (const TempFile& f : files_) out.push_back(f.final_path());
    return out;
}

void CaptionFiles::commit() {
    for (TempFile& f : files_) f.commit();
}

}  // namespace render
