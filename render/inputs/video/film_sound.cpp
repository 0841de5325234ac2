// A film's sound; see film_sound.hpp.
#include "render/inputs/video/film_sound.hpp"

#include <ostream>

#include "render/inputs/storyboard_inputs.hpp"
#include "render/sound/film_audio.hpp"
#include "render/voice/speech.hpp"

namespace render {
namespace {

// The lines fill_speech left in the speech cache, each keyed by its speech key.
SpeechLookup spoken_lines(const story::Storyboard& board) {
    return [&board, cache = speech_cache()](std::size_t chapter,
                                            std::size_t beat) -> std::optional<SpokenLine> {
        const auto line = speech_line(board.chapters[chapter].beats[beat], cache);
        if (!line) return std::nullopt;
        return SpokenLine{line->path, line->key};
    };
}

}  // namespace

bool add_sound(FilmJob& film, std::ostream& err) {
    story::Diagnostics diags;
    film.sound = film_audio(film.board, film.video.fps, spoken_lines(film.board), diags);
    if (diags.empty()) return true;
    err << diags.format();
    return false;
}

}  // namespace render
