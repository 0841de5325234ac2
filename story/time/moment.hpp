// A moment of a film: which chapter, which of its frames. Named as `still --at` and the studio's
// frame URLs name it (ID@TIME), or as seconds into the film.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "story/storyboard/storyboard.hpp"
#include "story/time/film_time.hpp"

namespace story {

struct Moment {
    std::size_t chapter = 0;
    int frame = 0;  // of the chapter
    double t = 0;   // seconds from the chapter's start: frame / fps
};

// "ID@TIME" with TIME as 3.5s, 500ms, 90f or end (the chapter's last frame), rounded to the
// nearest frame, which must be in the chapter. An error message for anything else (an unknown
// id names the closest one).
std::optional<std::string> resolve_at(const Storyboard& board, const FilmTime& time,
                                      const std::string& at, Moment& out);

// The frame on screen `seconds` into the film (seconds >= 0, clamped to the last frame).
Moment moment_at(const FilmTime& time, double seconds);

}  // namespace story
