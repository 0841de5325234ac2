// Orchestration of films and stills; see director.hpp.
#include "render/director.hpp"

#include <chrono>
#include <filesystem>
#include <ostream>

#include "render/captions.hpp"
#include "render/files.hpp"
#include "render/interrupt.hpp"
#include "render/sink.hpp"
#include "story/chapter.hpp"
#include "story/load.hpp"
#include "story/time.hpp"
#include "story/units.hpp"

namespace render {

std::optional<story::Storyboard> load_storyboard(const std::string& path, std::ostream& err) {
    std::string error;
    const auto text = read_file(path, error);
    if (!text) {
        err << path << ": error: cannot read: " << error << "\n";
        return std::nullopt;
    }
    story::Diagnostics diags;
    auto board = story::parse_storyboard(*text, path, diags);
    if (!diags.empty()) err << diags.format();
    return board;
}

std::optional<std::string> resolve_video(const story::Video& authored, const VideoOverrides& o,
                                         story::Video& out) {
    out = authored;
    struct Preset {
        const char* name;
        int w, h, fps;
    };
    static constexpr Preset presets[] = {{"low", 854, 480, 15}, {"medium", 1280, 720, 30},
                                         {"high", 1920, 1080, 30}, {"4k", 3840, 2160, 30}};
    if (!o.quality.empty()) {
        const Preset* found = nullptr;
        for (const Preset& p : presets)
            if (o.quality == p.name) found = &p;
        if (!found) return "unknown quality '" + o.quality + "' (expected low, medium, high or 4k)";
        out.width = found->w, out.height = found->h, out.fps = found->fps;
    }
    if (!o.size.empty()) {
        const auto size = story::parse_frame_size(o.size);
        if (!size) return "cannot parse size '" + o.size + "' (expected WxH, e.g. 1280x720, up to 7680x4320)";
        out.width = size->width, out.height = size->height;
    }
    if (o.fps != 0) {
        if (o.fps < 1 || o.fps > 120) return "fps must be between 1 and 120, got " + std::to_string(o.fps);
        out.fps = o.fps;
    }
    if (out.width % 2 || out.height % 2)
        return "video size " + std::to_string(out.width) + "x" + std::to_string(out.height) +
               " must have even width and height for H.264 4:2:0";
    return std::nullopt;
}

namespace {

std::string sibling(const std::string& path, const char* ext) {
    return std::filesystem::path(path).replace_extension(ext).string();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

RenderReport render_film(const story::Storyboard& board, const story::Video& video,
                         const std::string& output, const Fonts& fonts,
                         const std::function<void(const Progress&)>& on_progress) {
    const auto start = std::chrono::steady_clock::now();
    ensure_parent_dir(output);
    Progress progress;
    for (const auto& c : board.chapters) progress.total += story::frame_count(c.duration, video.fps);

    auto sink = make_sink(output, fonts);
    sink->begin({output, video.width, video.height, video.fps});
    RenderReport report{output, 0, 0, {}};
    try {
        for (const story::ChapterSpec& spec : board.chapters) {
            const auto chapter_start = std::chrono::steady_clock::now();
            const auto chapter = story::make_chapter(spec, video, fonts);
            const int frames = story::frame_count(spec.duration, video.fps);
            progress.chapter = spec.id;
            for (int f = 0; f < frames; ++f) {
                if (interrupted()) throw Interrupted{};
                sink->write(chapter->scene_at(story::time_of_frame(f, video.fps)));
                ++progress.done;
                if (on_progress) on_progress(progress);
            }
            report.chapters.push_back({spec.id, false, frames, seconds_since(chapter_start)});
            report.frames_drawn += frames;
        }
        sink->finish();
    } catch (...) {
        sink->abort();
        throw;
    }
    const auto cues = film_cues(board.chapters, video.fps);
    try {
        write_file_atomic(sibling(output, ".vtt"), to_webvtt(cues));
        write_file_atomic(sibling(output, ".srt"), to_srt(cues));
    } catch (...) {
        std::filesystem::remove(output);  // the film without its captions is a partial output
        throw;
    }
    report.wall_seconds = seconds_since(start);
    return report;
}

void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts) {
    ensure_parent_dir(output);
    const auto scene = story::make_chapter(chapter, video, fonts)->scene_at(t);
    auto sink = make_sink(output, fonts);
    sink->begin({output, video.width, video.height, video.fps});
    try {
        sink->write(scene);
        sink->finish();
    } catch (...) {
        sink->abort();
        throw;
    }
}

}  // namespace render
