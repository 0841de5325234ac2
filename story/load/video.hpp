// `video:`: the frame size, frame rate, theme, captions, the film's narration and its music.
#pragma once
#include "story/load/fields.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story::load {

// The film's video from video:'s entries (its `lang` is read with the languages).
Video read_video(Context& ctx, const Entries& fields);

}  // namespace story::load
