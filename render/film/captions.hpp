// Caption files beside the video: every cue of the film time map (a `say:` from its beat to the
// next beat or the chapter's end, snapped to frames) as WebVTT and SRT.
#pragma once
#include <string>

#include "story/film_time.hpp"

namespace render {

std::string to_webvtt(const story::FilmTime& time);
std::string to_srt(const story::FilmTime& time);

}  // namespace render
