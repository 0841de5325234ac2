// First keys and film keys; see film_key.hpp.
#include "render/film/film_key.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "render/code_digest.hpp"     // generated at build time
#include "render/drawing_digest.hpp"  // generated at build time
#include "render/film/chapter_fields.hpp"
#include "render/film/digest.hpp"
#include "render/sys/hash.hpp"
#include "render/voice/speech.hpp"
#include "story/locale.hpp"

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

std::string storyboard_path(const story::Storyboard& board, const std::string& file) {
    const fs::path path(file);
    return path.is_absolute() ? file : (fs::path(board.file).parent_path() / path).string();
}

namespace {

// Whether anything in the storyboard sounds: a line a voice speaks, a cue or the music; exactly
// then film_audio gives a film a sound.
bool sounds(const story::Storyboard& board) {
    if (!board.video.music.file.empty()) return true;
    for (const story::ChapterSpec& chapter : board.chapters)
        for (const story::Beat& beat : chapter.beats)
            if (!beat.sound.empty() || speech_line(beat, "")) return true;
    return false;
}

std::optional<std::string> digest_of(const story::Storyboard& board, const std::string& file) {
    std::string error;
    return file_digest(storyboard_path(board, file), error);
}

// The files the sound is mixed from besides the lines: each cue's digest in beat order, and the
// music's ("" without music); nullopt when one cannot be read.
std::optional<nlohmann::json> sound_files(const story::Storyboard& board) {
    nlohmann::json cues = nlohmann::json::array();
    for (const story::ChapterSpec& chapter : board.chapters) {
        for (const story::Beat& beat : chapter.beats) {
            if (beat.sound.empty()) continue;
            const auto digest = digest_of(board, beat.sound);
            if (!digest) return std::nullopt;
            cues.push_back(*digest);
        }
    }
    std::string music;
    if (!board.video.music.file.empty()) {
        const auto digest = digest_of(board, board.video.music.file);
        if (!digest) return std::nullopt;
        music = *digest;
    }
    return nlohmann::json{{"cues", cues}, {"music", music}};
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
    if (!muted && sounds(film.board)) {
        auto files = sound_files(film.board);
        if (!files) return std::nullopt;
        sound = std::move(*files);
    }
    const nlohmann::json inputs = {
        {"chapters", chapters},
        {"storyboards", storyboards_digest(film)},
        {"sound", sound},
        {"output", fs::absolute(film.output).lexically_normal().string()},
        {"drawing", SHARDREEL_DRAWING_DIGEST},
        {"code", code_digest},
    };
    std::string text = inputs.dump();
    return FilmKey{xxh3_hex(text), std::move(text), !sound.is_null()};
}

}  // namespace render
