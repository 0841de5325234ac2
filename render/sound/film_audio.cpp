// The film's sound from its storyboard; see film_audio.hpp. Beats are placed on the film's frame
// clock (story::FilmTime), so a line starts on the very frame its beat does.
#include "render/sound/film_audio.hpp"

#include <cmath>
#include <cstdio>

#include "render/sound/decode/audio_decode.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "story/time/film_time.hpp"

namespace render {

namespace {

std::string minutes(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%d:%04.1f", static_cast<int>(seconds / 60),
                  std::fmod(seconds, 60.0));
    return text;
}

// A storyboard's sound file (`what` says which key): its path and digest, or an error at pos.
struct SoundFile {
    std::string path, digest;
};
std::optional<SoundFile> sound_file(const story::Storyboard& board, const std::string& file,
                                    const std::string& what, story::SourcePos pos,
                                    story::Diagnostics& diags) {
    SoundFile out{beside_file(board.file, file), ""};
    std::string error;
    const auto digest = file_digest(out.path, error);
    if (!digest) {
        diags.error(board.file, pos, "cannot read " + what + " '" + file + "': " + error);
        return std::nullopt;
    }
    out.digest = *digest;
    return out;
}

std::string not_audio(const std::string& what, const std::string& file, const SystemError& e) {
    return what + " '" + file + "' is not a sound libav can read (" + e.what() + ")";
}

// A cue with its exact length (decoded), to be placed by the caller.
std::optional<AudioClip> cue_clip(const story::Storyboard& board, const story::Beat& beat,
                                  story::Diagnostics& diags) {
    const auto file = sound_file(board, beat.sound, "sound", beat.sound_pos, diags);
    if (!file) return std::nullopt;
    try {
        return AudioClip{0, audio_frames(file->path), file->path, file->digest};
    } catch (const SystemError& e) {
        diags.error(board.file, beat.sound_pos, not_audio("sound", beat.sound, e));
        return std::nullopt;
    }
}

void add_music(const story::Storyboard& board, double film_seconds, FilmAudio& audio,
               story::Diagnostics& diags) {
    const story::Music& music = board.video.music;
    if (music.file.empty()) return;
    const auto file = sound_file(board, music.file, "music", music.pos, diags);
    if (!file) return;
    try {
        const AudioProbe probe = probe_audio(file->path);
        if (probe.seconds + 0.05 < film_seconds)
            diags.error(board.file, music.pos,
                        "music '" + music.file + "' lasts " + minutes(probe.seconds) +
                            ", less than the film's " + minutes(film_seconds) +
                            " (music is not looped: give a longer track, or end the film sooner)");
    } catch (const SystemError& e) {
        diags.error(board.file, music.pos, not_audio("music", music.file, e));
        return;
    }
    audio.music = {file->path, file->digest, music.level};
}

}  // namespace

std::optional<FilmAudio> film_audio(const story::Storyboard& board, int fps,
                                    const SpeechLookup& speech, story::Diagnostics& diags) {
    const story::FilmTime time(board.chapters, fps);
    FilmAudio audio;
    audio.fps = fps;
    audio.frames = time.frames();
    for (std::size_t c = 0; c < board.chapters.size(); ++c) {
        for (std::size_t b = 0; b < board.chapters[c].beats.size(); ++b) {
            const story::Beat& beat = board.chapters[c].beats[b];
            const std::int64_t start = film_sample(time.chapter(c).beats[b].film_frame, fps);
            if (const auto line = speech ? speech(c, b) : std::nullopt)
                audio.clips.push_back({start, audio_frames(line->path), line->path, line->digest});
            if (beat.sound.empty()) continue;
            if (auto cue = cue_clip(board, beat, diags)) {
                cue->start = start;
                audio.clips.push_back(std::move(*cue));
            }
        }
    }
    add_music(board, time.seconds(time.frames()), audio, diags);
    if (audio.clips.empty() && audio.music.path.empty()) return std::nullopt;
    return audio;
}

}  // namespace render
