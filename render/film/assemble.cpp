// Assembly; see assemble.hpp.
#include "render/film/assemble.hpp"

#include "render/container/concat.hpp"
#include "render/film/captions.hpp"
#include "render/sinks/sink.hpp"
#include "render/sound/sound_file.hpp"
#include "render/sys/files.hpp"
#include "story/storyboard/languages.hpp"
#include "story/time/film_time.hpp"

namespace render {

namespace {

std::vector<ConcatChapter> chapter_markers(const FilmJob& film, const story::FilmTime& time) {
    std::vector<ConcatChapter> markers;
    for (std::size_t i = 0; i < time.chapters().size(); ++i) {
        const story::ChapterSpec& spec = film.board.chapters[i];
        const std::string& title = spec.title.empty() ? spec.id : spec.title;
        markers.push_back(
            {title, time.seconds(time.chapter(i).start), time.seconds(time.chapter(i).end())});
    }
    return markers;
}

ConcatAudio sound_track(const FilmJob& film, const std::vector<const PlannedSound*>& sound,
                        const SegmentCache& cache) {
    ConcatAudio track;
    if (sound.empty()) return track;
    track.samples = film.sound->samples();
    track.language = story::iso639_2(film.board.video.lang);
    for (const PlannedSound* s : sound)
        track.segments.push_back({cache.segment_path(s->key), s->window.first, s->window.lead});
    return track;
}

}  // namespace

std::vector<std::string> assemble(const FilmJob& film, const std::vector<const Planned*>& chapters,
                                  const std::vector<const PlannedSound*>& sound,
                                  const SegmentCache& cache) {
    const story::FilmTime time(film.board.chapters, film.video.fps);
    std::vector<std::string> inputs;
    for (const Planned* p : chapters) inputs.push_back(cache.segment_path(p->key));
    ensure_parent_dir(film.output);
    CaptionFiles captions(film, time);
    ConcatExtras extras;
    extras.chapters = chapter_markers(film, time);
    // burn and track embed the caption tracks (burn also draws the film's); off embeds none.
    if (film.video.captions != story::Captions::off) extras.captions = captions.tracks();
    extras.audio = sound_track(film, sound, cache);
    TempFile video(film.output);
    concat_mp4(inputs, video, extras);
    video.commit();
    captions.commit();
    std::vector<std::string> files{film.output};
    for (std::string& path : captions.paths()) files.push_back(std::move(path));
    return files;
}

void assemble_sound(const FilmJob& film, const std::vector<const PlannedSound*>& sound,
                    const SegmentCache& cache, const CancelToken& cancel) {
    ensure_parent_dir(film.output);
    TempFile file(film.output);
    if (lowercase_extension(film.output) == ".wav") {
        write_wav(*film.sound, file, &cancel);
    } else {
        ConcatExtras extras;
        extras.chapters =
            chapter_markers(film, story::FilmTime(film.board.chapters, film.video.fps));
        extras.audio = sound_track(film, sound, cache);
        concat_mp4({}, file, extras);
    }
    file.commit();
}

}  // namespace render
