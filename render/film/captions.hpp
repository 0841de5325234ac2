// Caption files beside the video: every `say:` is a cue from its beat to the next beat (or the
// chapter's end), with times snapped to frames so they agree with the burned-in captions.
#pragma once
#include <string>
#include <vector>

#include "story/storyboard.hpp"
#include "story/timeline.hpp"

namespace render {

// Cues of the chapters in order, in seconds from the film's start, exact to the frame.
std::vector<story::Cue> film_cues(const std::vector<story::ChapterSpec>& chapters, int fps);

std::string to_webvtt(const std::vector<story::Cue>& cues);
std::string to_srt(const std::vector<story::Cue>& cues);

}  // namespace render
