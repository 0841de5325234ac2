// The article page; see page.hpp.
#include "render/page/page.hpp"

#include <cmath>
#include <filesystem>

#include "render/inputs/config_values.hpp"
#include "render/page/figures.hpp"
#include "render/page/html.hpp"
#include "render/page/stills.hpp"
#include "render/sinks/still.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/time.hpp"
#include "story/time/film_time.hpp"
#include "story/time/timeline.hpp"
#include "story/uses/explore.hpp"

namespace render {
namespace {

namespace fs = std::filesystem;

std::string variant_alt(const std::string& alt, const std::vector<story::Setting>& settings,
                        const story::Locale& locale) {
    std::string out = alt + " (";
    for (std::size_t i = 0; i < settings.size(); ++i)
        out += (i ? ", " : "") + param_label(settings[i].key, locale) + " " + settings[i].value;
    return out + ")";
}

// A moment of a chapter as numbers and still name it, ID@FRAMEf, in frames of the storyboard's own
// fps (`authored`), which `numbers STORYBOARD --at` counts in: a page drawn at another rate
// (--quality low: 15 fps) names the same moment, not one twice as early.
std::string moment(const std::string& id, double t, int authored) {
    return id + "@" + std::to_string(std::llround(t * authored)) + "f";
}

// Each beat that sets its own configuration, at the frame where its picture rests (its set:
// applied in full, the next beat not begun), as the chapter is written. Links carry what the
// chapter draws (story::drawn_at: fsdp_gather's ZeRO-3, plan's winner), as numbers --at prints.
std::vector<BeatLink> beat_links(const story::ChapterSpec& spec, const story::Video& video,
                                 int authored) {
    const story::Timeline timeline(spec, video.fps);
    std::vector<BeatLink> out;
    for (std::size_t i = 0; i < spec.beats.size(); ++i) {
        if (spec.beats[i].set.empty()) continue;
        const double t = timeline.seconds(timeline.rest_frame(i));
        out.push_back({spec.beats[i].number, moment(spec.id, t, authored),
                       calculator_fragment(config_flags(story::drawn_at(spec, t, video.fps)))});
    }
    return out;
}

// The facts beside spec's figure at chapter time t; their `shown` is what the chapter draws then,
// which its calculator link carries.
Facts facts_at(const story::ChapterSpec& spec, double t, int fps, const story::Locale& locale) {
    return chapter_facts(spec.kind, story::config_at(spec, t, fps), locale,
                         story::figures_drawn(spec, t, fps), story::later_figures_drawn(spec, t));
}

// A chapter's section: its figure (and every explore: variant's), facts and transcript.
PageChapter chapter_page(const story::ChapterSpec& spec, const story::ChapterTime& time,
                         const story::Video& video, int authored, const story::Locale& locale,
                         FigureCache& cache, FigureSheet& sheet) {
    PageChapter c{spec.id, spec.title.empty() ? spec.id : spec.title,  spec.kind, {}, {},
                  {},      story::time_of_frame(time.start, video.fps)};
    const int frame = story::figure_frame(spec, time.frames, video.fps);
    const double t = story::time_of_frame(frame, video.fps);
    c.at = moment(spec.id, t, authored);
    c.alt = story::words_at(spec, t, video.fps);
    for (const story::Beat& b : spec.beats)
        if (!b.say.empty()) c.transcript.push_back(b.say);
    c.explore = spec.explore;
    c.beats = beat_links(spec, video, authored);
    if (spec.explore.empty()) {
        const FigureSvgs svgs = cache.figure(spec, video, t);
        c.svg = sheet.add(svgs.dark, svgs.light, "f-" + spec.id + "-");
        c.facts = facts_at(spec, t, video.fps, locale);
        c.calculator = calculator_fragment(config_flags(c.facts.shown));
        return c;
    }
    c.written = story::written_variant(spec, t, video.fps);
    for (story::Variant& v : story::explore_variants(spec)) {
        const FigureSvgs svgs = cache.figure(v.spec, video, t);
        std::string prefix = "f-" + spec.id;
        for (std::size_t i : v.index) prefix += "-" + std::to_string(i);
        Facts facts = facts_at(v.spec, t, video.fps, locale);
        std::string fragment = calculator_fragment(config_flags(facts.shown));
        PageVariant out{v.index,
                        v.settings,
                        sheet.add(svgs.dark, svgs.light, prefix + "-"),
                        variant_alt(c.alt, v.settings, locale),
                        std::move(facts),
                        std::move(fragment)};
        if (v.index == c.written) {
            c.svg = std::move(out.svg);
            c.facts = out.facts;
            c.calculator = out.calculator;
            out.svg.clear();
        }
        c.variants.push_back(std::move(out));
    }
    return c;
}

long long bytes_of(const std::vector<std::string>& paths) {
    long long total = 0;
    for (const std::string& p : paths) total += static_cast<long long>(fs::file_size(p));
    return total;
}

}  // namespace

PageReport write_page(const FilmJob& film, const Fonts& fonts, const BatchOptions& batch,
                      const CancelToken& cancel, const std::string& calculator) {
    PageReport report;
    const fs::path dir = fs::path(film.output).parent_path();
    report.film = render_films({film}, fonts, batch, cancel, {}).at(0);

    const story::FilmTime time(film.board.chapters, film.video.fps);
    FigureCache cache(batch.cache_dir + "/figures", fonts);
    FigureSheet sheet;
    PageModel page{
        film.board.title.empty() ? fs::path(film.board.file).stem().string() : film.board.title,
        film.board.page,
        {},
        {},
        {},
        "film.mp4",
        "poster.png",
        {},
        {},
        film.video.width,
        film.video.height,
        film.board.video.lang};
    page.calculator = calculator;
    page.calculator_start = calculator_fragment(config_flags(film.board.defaults));
    const story::Locale locale(film.video.lang);  // the page's words and figures
    for (std::size_t i = 0; i < film.board.chapters.size(); ++i) {
        cancel.check();
        page.chapters.push_back(chapter_page(film.board.chapters[i], time.chapter(i), film.video,
                                             film.board.video.fps, locale, cache, sheet));
    }
    const std::string captions = (dir / "film.vtt").string(),
                      chapters = (dir / "chapters.vtt").string();
    std::string error;
    const auto captions_vtt = read_file(captions, error);
    if (!captions_vtt) throw SystemError("cannot read back " + captions + ": " + error);
    page.captions_vtt = *captions_vtt;
    page.chapters_vtt = chapters_webvtt(page.chapters, time.seconds(time.frames()));
    page.glyphs = sheet.glyph_sheet();
    page.colours = sheet.colour_css();

    const story::ChapterSpec& first = film.board.chapters.front();
    write_still(story::make_chapter(first, film.video, fonts)
                    ->scene_at(time.seconds(
                        story::figure_frame(first, time.chapter(0).frames, film.video.fps))),
                film.video, (dir / page.poster).string(), fonts);
    write_file_atomic(chapters, page.chapters_vtt);
    report.page = (dir / "index.html").string();
    write_file_atomic(report.page, page_html(page));

    report.figures = cache.drawn() + cache.reused();
    report.figures_drawn = cache.drawn();
    std::vector<std::string> files{report.page, (dir / page.poster).string(), chapters, captions};
    if (!calculator.empty()) files.push_back((dir / calculator).string());
    report.page_bytes = bytes_of(files);
    return report;
}

}  // namespace render
