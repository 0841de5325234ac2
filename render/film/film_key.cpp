// First keys and film keys; see film_key.hpp.
#include "render/film/film_key.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "render/code_digest.hpp"       // generated at build time
#include "render/container_digest.hpp"  // generated at build time
#include "render/drawing_digest.hpp"    // generated at build time
#include "render/film/chapter_fields.hpp"
#include "render/film/digest.hpp"
#include "render/sound_digest.hpp"  // generated at build time
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "render/voice/speech.hpp"
#include "story/text/locale.hpp"

namespace render {
namespace fs = std::filesystem;

std::string built_code_digest() { return SHARDREEL_CODE_DIGEST; }

std::string catalogue_digest(const std::string& lang) {
    const story::Catalogue* c = story::Locale(lang).catalogue();
    return c ? std::string(c->digest()) : std::string();
}

// The scenes are not here, only what they are made from: whatever a spec, the storyboard's
// defaults, a line's timing, the theme, a font, a translation or the code changes, it changes
// one of these.
FirstKey first_key(const story::ChapterSpec& spec, const story::Video& video,
                   const EncoderSettings& encoder, const Fonts& fonts,
                   const std::string& code_digest) {
    BinaryDigest made_from;
    made_from.put(spec);
    made_from.put(video);
    made_from.put(encoder);
    const nlohmann::json inputs = {
        {"chapter", made_from.hex()},
        {"fonts", fonts.digest()},
        {"drawing", SHARDREEL_DRAWING_DIGEST},
        {"code", code_digest},
        {"catalogue", catalogue_digest(video.lang)},
    };
    std::string text = inputs.dump();
    return {xxh3_hex(text), std::move(text)};
}

namespace {

// What the film's sound plays, as add_sound makes it from the storyboard: each beat's line (its
// speech key) and cue (its file's XXH3-128) in beat order, then the music's; empty when nothing
// sounds, nullopt when a cue or the music cannot be read.
std::optional<std::vector<std::string>> sound_plays(const story::Storyboard& board) {
    std::vector<std::string> plays;
    const auto add_file = [&](const std::string& file) {
        std::string error;
        auto digest = file_digest(beside_file(board.file, file), error);
        if (digest) plays.push_back(std::move(*digest));
        return digest.has_value();
    };
    for (const story::ChapterSpec& chapter : board.chapters) {
        for (const story::Beat& beat : chapter.beats) {
            if (const auto line = speech_line(beat, "")) plays.push_back(line->key);
            if (!beat.sound.empty() && !add_file(beat.sound)) return std::nullopt;
        }
    }
    if (!board.video.music.file.empty() && !add_file(board.video.music.file)) return std::nullopt;
    return plays;
}

// Whether `sound` plays just these files (each clip's and the music's digest), in any order.
bool plays_just(const FilmAudio& sound, std::vector<std::string> plays) {
    std::vector<std::string> played;
    for (const AudioClip& clip : sound.clips) played.push_back(clip.digest);
    if (!sound.music.path.empty()) played.push_back(sound.music.digest);
    std::ranges::sort(played);
    std::ranges::sort(plays);
    return played == plays;
}

// The storyboard's own video and, for `--captions all`, the other languages' storyboards, whose
// lines caption the film.
std::string storyboards_digest(const FilmJob& film) {
    BinaryDigest digest;
    digest.put(film.board.video);
    digest.put(film.caption_languages.size());
    for (const story::Storyboard& other : film.caption_languages) {
        digest.put(other.video);
        digest.put(other.chapters);
    }
    return digest.hex();
}

}  // namespace

std::optional<FilmKey> film_key(const FilmJob& film, const Fonts& fonts,
                                const EncoderSettings& encoder, const std::string& code_digest,
                                bool muted) {
    nlohmann::json chapters = nlohmann::json::array();
    for (const story::ChapterSpec& spec : film.board.chapters)
        chapters.push_back(first_key(spec, film.video, encoder, fonts, code_digest).key);
    nlohmann::json sound;  // null: a silent film
    if (!muted) {
        const auto plays = sound_plays(film.board);
        if (!plays || (film.sound && !plays_just(*film.sound, *plays))) return std::nullopt;
        if (!plays->empty()) sound = *plays;
    }
    const nlohmann::json inputs = {
        {"chapters", chapters},
        {"storyboards", storyboards_digest(film)},
        {"sound", sound},
        {"output", fs::absolute(film.output).lexically_normal().string()},
        {"drawing", SHARDREEL_DRAWING_DIGEST},
        {"sound_code", SHARDREEL_SOUND_DIGEST},
        {"container", SHARDREEL_CONTAINER_DIGEST},
        {"code", code_digest},
    };
    std::string text = inputs.dump();
    return FilmKey{xxh3_hex(text), std::move(text), !sound.is_null()};
}

}  // namespace render
