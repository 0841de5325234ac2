// The narration script for a recording session: every spoken line of a timed storyboard with its
// chapter, where it falls on the film's clock, and the take file a recorded narration expects.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "story/storyboard/storyboard.hpp"
#include "story/time/film_time.hpp"

namespace story {

struct ScriptLine {
    std::size_t chapter = 0;  // index into the storyboard's chapters
    int number = 0;           // the beat's place as written (Beat::number)
    double film_seconds = 0, chapter_seconds = 0;
    double speech_seconds = 0;  // as spoken or estimated; 0 when not known
    std::string text, take;
};

// `<chapter>-<n>.wav`, or the beat's own `take:`.
std::string take_name(const ChapterSpec& chapter, const Beat& beat);

std::vector<ScriptLine> script_lines(const Storyboard& timed, const FilmTime& time);
std::string script_markdown(const Storyboard& timed, const std::vector<ScriptLine>& lines);
std::string script_csv(const Storyboard& timed,
                       const std::vector<ScriptLine>& lines);  // RFC 4180, one header row

}  // namespace story
