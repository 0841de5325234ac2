// Contact sheets; see contact_sheet.hpp. Thumbnails are rasterised by the same painter as the
// film, so the sheet shows exactly the frames the video shows.
#include "render/sheet/contact_sheet.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

#include "render/draw/raster.hpp"
#include "render/markup/markup.hpp"
#include "render/sinks/png_writer.hpp"
#include "render/sinks/still_sinks.hpp"
#include "render/sys/cancel.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/temp_dir.hpp"
#include "render/sys/temp_file.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/time.hpp"
#include "story/storyboard/units.hpp"
#include "story/time/film_time.hpp"
#include "story/time/timeline.hpp"

namespace render {
namespace {

// Chapter frames to show: see pick_shots.
std::set<int> chapter_frames(const story::ChapterSpec& spec, const story::ChapterTime& time,
                             int fps, double every) {
    const int last = std::max(0, time.frames - 1);
    std::set<int> frames{last};
    if (every > 0) {
        for (int k = 0; k * every < spec.duration; ++k)
            frames.insert(std::clamp(story::frame_count(k * every, fps), 0, last));
        return frames;
    }
    const story::Timeline timeline(spec, fps);
    for (std::size_t i = 0; i < spec.beats.size(); ++i) frames.insert(timeline.rest_frame(i));
    return frames;
}

// Scenes of the storyboard's chapters, each chapter built once (the engine runs up front).
class Scenes {
  public:
    Scenes(const story::Storyboard& board, const story::Video& video, const Fonts& fonts,
           const CancelToken& cancel)
        : board_(board),
          video_(video),
          fonts_(fonts),
          cancel_(cancel),
          chapters_(board.chapters.size()) {}

    story::Scene at(const Shot& shot) {
        cancel_.check();
        auto& chapter = chapters_[shot.chapter];
        if (!chapter) chapter = story::make_chapter(board_.chapters[shot.chapter], video_, fonts_);
        return chapter->scene_at(story::time_of_frame(shot.frame, video_.fps));
    }

  private:
    const story::Storyboard& board_;
    const story::Video& video_;
    const Fonts& fonts_;
    const CancelToken& cancel_;
    std::vector<std::unique_ptr<story::Chapter>> chapters_;
};

std::string chapter_time(int frame, int fps) {
    return story::format_seconds(std::round(story::time_of_frame(frame, fps) * 100) / 100);
}

// The film's length as M:SS.
std::string film_length(const story::FilmTime& time) {
    const long total = std::lround(time.seconds(time.frames()));
    char text[32];
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
    return text;
}

// ---- PNG grid ----

struct CairoSurface {
    cairo_surface_t* s;
    ~CairoSurface() { cairo_surface_destroy(s); }
};
struct CairoContext {
    cairo_t* cr;
    ~CairoContext() { cairo_destroy(cr); }
};

constexpr story::Color sheet_background{0x14, 0x16, 0x1B, 255};
constexpr story::Color label_color{0xE6, 0xE8, 0xEC, 255};
constexpr story::Color muted_color{0x9A, 0xA0, 0xAA, 255};

void set_color(cairo_t* cr, const story::Color& c) {
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0);
}

void text_at(cairo_t* cr, const Fonts& fonts, const std::string& text, story::TextStyle style,
             const story::Color& color, double x, double y, bool right_aligned = false) {
    if (right_aligned) x -= fonts.measure(text, style).advance;
    set_color(cr, color);
    fonts.draw(cr, text, style, x, y);
}

void draw_thumbnail(cairo_t* cr, Frame& thumb, double x, double y) {
    CairoSurface image{cairo_image_surface_create_for_data(
        thumb.data.data(), CAIRO_FORMAT_ARGB32, thumb.width, thumb.height, thumb.stride)};
    cairo_set_source_surface(cr, image.s, x, y);
    cairo_paint(cr);
    cairo_surface_flush(cairo_get_target(cr));
}

void draw_label(cairo_t* cr, const Fonts& fonts, const std::string& left, const std::string& right,
                double x, double y, double width) {
    const story::TextStyle id_style{15, story::Weight::semibold, false};
    const story::TextStyle time_style{15, story::Weight::regular, true};
    text_at(cr, fonts, left, id_style, label_color, x, y);
    text_at(cr, fonts, right, time_style, muted_color, x + width, y, true);
}

// ---- HTML page ----

std::string still_name(const story::Storyboard& board, const Shot& shot) {
    char name[64];
    std::snprintf(name, sizeof name, "%02zu-", shot.chapter + 1);
    char frame[32];
    std::snprintf(frame, sizeof frame, "-%05d.png", shot.frame);
    return name + board.chapters[shot.chapter].id + frame;
}

constexpr const char* page_style =
    "body{font-family:Inter,system-ui,sans-serif;background:#14161b;color:#e6e8ec;margin:24px}"
    "h1{font-size:24px;margin:0 0 4px}p.meta,small{color:#9aa0aa}h2{font-size:18px;margin:28px 0 "
    "8px}"
    "code{color:#56b4e9}.grid{display:grid;grid-template-columns:repeat(auto-fill,480px);gap:16px}"
    "figure{margin:0}img{width:480px;height:auto;display:block;border-radius:4px}"
    "figcaption{font-size:14px;margin-top:6px}figcaption b{font-variant-numeric:tabular-nums}"
    "q{color:#c8ccd2}";

std::string figure_html(const story::Storyboard& board, const story::Video& video, const Shot& shot,
                        const std::string& src) {
    const std::string at = board.chapters[shot.chapter].id + "@" + std::to_string(shot.frame) + "f";
    std::string out = "<figure id=\"" + xml_escape(at) + "\"><a href=\"" + xml_escape(src) +
                      "\"><img src=\"" + xml_escape(src) + "\" loading=\"lazy\" alt=\"" +
                      xml_escape(shot.caption.empty() ? at : shot.caption) + "\"></a>";
    out += "<figcaption><b>" + film_timestamp(shot.film_frame, video.fps) + "</b> <code>" +
           xml_escape(board.chapters[shot.chapter].id) + "@" + chapter_time(shot.frame, video.fps) +
           "</code>";
    if (!shot.caption.empty()) out += "<br><q>" + xml_escape(shot.caption) + "</q>";
    return out + "</figcaption></figure>\n";
}

std::string page_html(const story::Storyboard& board, const story::Video& video,
                      const std::vector<Shot>& shots, const std::string& files_dir) {
    const story::FilmTime time(board.chapters, video.fps);
    const std::string title = board.title.empty() ? board.file : board.title;
    std::string out =
        "<!doctype html>\n<html lang=\"en\">\n<meta charset=\"utf-8\">\n<title>" +
        xml_escape(title) + " (contact sheet)</title>\n<style>" + page_style + "</style>\n<h1>" +
        xml_escape(title) + "</h1>\n<p class=\"meta\">" + xml_escape(board.file) + " &middot; " +
        std::to_string(board.chapters.size()) + " chapters &middot; " + film_length(time) +
        " &middot; " + std::to_string(video.width) + "x" + std::to_string(video.height) + " at " +
        std::to_string(video.fps) + " fps</p>\n";
    std::size_t open = board.chapters.size();
    for (const Shot& shot : shots) {
        if (shot.chapter != open) {
            if (open != board.chapters.size()) out += "</div></section>\n";
            open = shot.chapter;
            const story::ChapterSpec& c = board.chapters[open];
            out += "<section id=\"" + xml_escape(c.id) + "\"><h2><code>" + xml_escape(c.id) +
                   "</code> " + xml_escape(c.title) + " <small>" + xml_escape(c.kind) + ", " +
                   story::format_seconds(c.duration) + ", from " +
                   film_timestamp(time.chapter(open).start, video.fps) +
                   "</small></h2>\n<div class=\"grid\">\n";
        }
        out += figure_html(board, video, shot, files_dir + "/" + still_name(board, shot));
    }
    if (open != board.chapters.size()) out += "</div></section>\n";
    return out + "</html>\n";
}

}  // namespace

std::vector<Shot> pick_shots(const story::Storyboard& board, int fps, double every_seconds) {
    std::vector<Shot> shots;
    const story::FilmTime time(board.chapters, fps);
    for (std::size_t i = 0; i < board.chapters.size(); ++i) {
        const story::ChapterSpec& spec = board.chapters[i];
        for (int frame : chapter_frames(spec, time.chapter(i), fps, every_seconds)) {
            // The caption the still itself shows (the film's cue on its frame).
            const int film_frame = time.chapter(i).start + frame;
            const story::Cue* cue = time.cue_at(film_frame);
            shots.push_back({i, frame, film_frame, cue ? cue->text : ""});
        }
    }
    return shots;
}

std::string film_timestamp(int film_frame, int fps) {
    const long long tenths = std::llround(story::time_of_frame(film_frame, fps) * 10);
    char text[32];
    std::snprintf(text, sizeof text, "%lld:%02lld.%lld", tenths / 600, tenths / 10 % 60,
                  tenths % 10);
    return text;
}

int SheetLayout::height(std::size_t shots) const {
    const int rows = static_cast<int>((shots + columns - 1) / columns);
    return 2 * margin + header_height + rows * (thumb_height + label_height) +
           std::max(0, rows - 1) * gap;
}

void write_sheet_png(const story::Storyboard& board, const story::Video& video,
                     const std::vector<Shot>& shots, const std::string& output, const Fonts& fonts,
                     const CancelToken& cancel, const SheetLayout& layout) {
    CairoSurface sheet{cairo_image_surface_create(CAIRO_FORMAT_ARGB32, layout.width(),
                                                  layout.height(shots.size()))};
    CairoContext cr{cairo_create(sheet.s)};
    set_color(cr.cr, sheet_background);
    cairo_paint(cr.cr);
    const std::string title = board.title.empty() ? board.file : board.title;
    text_at(cr.cr, fonts, title, {30, story::Weight::semibold, false}, label_color, layout.margin,
            layout.margin + 32);
    text_at(cr.cr, fonts,
            board.file + "  \u00b7  " + std::to_string(board.chapters.size()) +
                " chapters  \u00b7  " + film_length(story::FilmTime(board.chapters, video.fps)),
            {17, story::Weight::regular, true}, muted_color, layout.margin, layout.margin + 60);

    Scenes scenes(board, video, fonts, cancel);
    Frame thumb{layout.thumb_width, layout.thumb_height, 0, {}};
    for (std::size_t i = 0; i < shots.size(); ++i) {
        const int column = static_cast<int>(i % layout.columns),
                  row = static_cast<int>(i / layout.columns);
        const double x = layout.margin + column * (layout.thumb_width + layout.gap);
        const double y = layout.margin + layout.header_height +
                         row * (layout.thumb_height + layout.label_height + layout.gap);
        rasterize(scenes.at(shots[i]), fonts, thumb);
        draw_thumbnail(cr.cr, thumb, x, y);
        const std::string id = board.chapters[shots[i].chapter].id;
        draw_label(cr.cr, fonts, id + " @ " + chapter_time(shots[i].frame, video.fps),
                   film_timestamp(shots[i].film_frame, video.fps), x, y + layout.thumb_height + 24,
                   layout.thumb_width);
    }
    if (const cairo_status_t status = cairo_status(cr.cr))
        throw SystemError("cannot draw " + output + ": " + cairo_status_to_string(status));
    write_png(sheet.s, output);
}

void write_sheet_html(const story::Storyboard& board, const story::Video& video,
                      const std::vector<Shot>& shots, const std::string& output, const Fonts& fonts,
                      const CancelToken& cancel) {
    const std::filesystem::path page(output);
    const std::string files_name = page.stem().string() + "_files";
    TempDir files((page.parent_path() / files_name).string());
    Scenes scenes(board, video, fonts, cancel);
    PngSink png(fonts);
    for (const Shot& shot : shots) {
        const std::string path = files.path() + "/" + still_name(board, shot);
        png.begin({path, video.width, video.height, video.fps});
        png.write(scenes.at(shot));
        png.finish();
    }
    // The page is written before either is renamed: a full disk leaves the old page and stills.
    TempFile html(output);
    write_temp(html, page_html(board, video, shots, files_name));
    files.commit();
    html.commit();
}

}  // namespace render
