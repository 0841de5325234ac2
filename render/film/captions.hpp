// Caption files beside the video: every cue of the film time map (a `say:` from its beat to the
// next beat or the chapter's end, snapped to frames) as WebVTT and SRT, one pair per language.
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "render/container/concat.hpp"
#include "render/film/film_job.hpp"
#include "render/sys/temp_file.hpp"
#include "story/time/film_time.hpp"

namespace render {

std::string to_webvtt(const SubtitleTrack& track);
std::string to_srt(const SubtitleTrack& track);

// The film's .vtt and .srt beside `output` (out/film.mp4 -> out/film.vtt; for an image sequence
// out/frames/%05d.png, out/frames.vtt), and with film.caption_languages each other language's
// named by its tag (out/film.de.vtt, as players look for them), written to temporary files and
// renamed right after the video: a failure anywhere (a full disk) leaves whatever was there
// before untouched.
class CaptionFiles {
  public:
    CaptionFiles(const FilmJob& film, const story::FilmTime& time);
    // The caption tracks the files hold, for the MP4 to embed: the film's (ISO 639-2 of its
    // language), then one per storyboard in film.caption_languages: each of the film's cues
    // with that language's line of the same beat (the chapter by id, the beat by its number as
    // written), so every track follows the film's timing.
    const std::vector<SubtitleTrack>& tracks() const { return tracks_; }
    // The files' final paths, in the order they were written.
    std::vector<std::string> paths() const;
    void commit();

  private:
    void write(const std::string& stem, const SubtitleTrack& track);
    std::vector<SubtitleTrack> tracks_;
    std::deque<TempFile> files_;  // a deque: TempFile does not move
};

}  // namespace render
