// A film's sound from its storyboard: the lines in the speech cache (speech_cache(), filled when
// the storyboard was loaded), its takes, cues and music. Shared by render and page.
#pragma once
#include <iosfwd>

#include "render/film/film_job.hpp"

namespace render {

// Sets film.sound (none when nothing sounds); false, with the diagnostics printed to err, when
// a sound file is bad.
bool add_sound(FilmJob& film, std::ostream& err);

}  // namespace render
