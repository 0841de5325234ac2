// Assembly; see assemble.hpp.
#include "render/film/assemble.hpp"

#include "render/av/concat.hpp"
#include "render/film/captions.hpp"
#include "render/sys/files.hpp"
#include "story/film_time.hpp"

namespace render {

void assemble(const FilmJob& film, const std::vector<const Planned*>& chapters,
              const SegmentCache& cache) {
    const story::FilmTime time(film.board.chapters, film.video.fps);
    std::vector<std::string> inputs;
    ConcatExtras extras;
    for (std::size_t i = 0; i < chapters.size(); ++i) {
        const Planned& p = *chapters[i];
        inputs.push_back(cache.segment_path(p.key));
        const std::string& title = p.spec->title.empty() ? p.spec->id : p.spec->title;
        extras.chapters.push_back(
            {title, time.seconds(time.chapter(i).start), time.seconds(time.chapter(i).end())});
    }
    // burn and track embed the caption track (burn also draws them); off embeds none.
    if (film.video.captions != story::Captions::off)
        for (const story::CueTime& c : time.cues())
            extras.subtitles.push_back({time.seconds(c.start), time.seconds(c.end), c.text});
    ensure_parent_dir(film.output);
    CaptionFiles captions(film.output, time);
    TempFile video(film.output);
    concat_mp4(inputs, video, extras);
    video.commit();
    captions.commit();
}

}  // namespace render
