// `shardreel still`: one frame of one chapter as PNG, SVG or PDF, for articles.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "render/cli/commands.hpp"
#include "render/cli/storyboard_inputs.hpp"
#include "render/sinks/still.hpp"
#include "render/sys/error.hpp"
#include "story/diagnostics.hpp"
#include "story/film_time.hpp"
#include "story/time.hpp"
#include "story/units.hpp"

namespace render {

namespace {

struct StillArgs {
    std::string storyboard, at, output;
    VideoOverrides video;
};

// "ID@TIME" with TIME as 3.5s, 500ms, 90f or end (the chapter's last frame). Frame numbers are
// exact: the still is the very frame the video shows.
std::optional<std::string> resolve_at(const story::Storyboard& board, const std::string& at,
                                      int fps, const story::ChapterSpec*& chapter, double& t) {
    const auto sep = at.rfind('@');
    if (sep == std::string::npos) return "--at expects ID@TIME (e.g. bytes@8s), got '" + at + "'";
    const std::string id = at.substr(0, sep), when = at.substr(sep + 1);
    std::vector<std::string> ids;
    for (const auto& c : board.chapters) ids.push_back(c.id);
    const auto found = std::find(ids.begin(), ids.end(), id);
    if (found == ids.end()) {
        const std::string near = story::closest_match(id, ids);
        return "no chapter '" + id + "' in " + board.file +
               (near.empty() ? "" : " (did you mean '" + near + "'?)");
    }
    const auto index = static_cast<std::size_t>(found - ids.begin());
    chapter = &board.chapters[index];
    const int frames = story::FilmTime(board.chapters, fps).chapter(index).frames;
    if (when == "end") {
        t = story::time_of_frame(frames - 1, fps);
        return std::nullopt;
    }
    const auto seconds = story::parse_time(when, fps);
    if (!seconds) return "cannot parse time '" + when + "' (expected e.g. 3.5s, 500ms, 90f or end)";
    const int frame = static_cast<int>(std::lround(*seconds * fps));
    if (frame < 0 || frame >= frames)
        return "time '" + when + "' is outside chapter '" + id + "' (frames 0-" +
               std::to_string(frames - 1) + " at " + std::to_string(fps) + " fps)";
    t = story::time_of_frame(frame, fps);
    return std::nullopt;
}

std::string default_output(const std::string& storyboard, const std::string& at) {
    std::string name = at;
    for (char& c : name)
        if (c == '@' || c == '.') c = '-';
    return "out/" + std::filesystem::path(storyboard).stem().string() + "-" + name + ".png";
}

int run_still(const StillArgs& args) {
    auto board = load_storyboard(args.storyboard, std::cerr);
    if (!board) return 2;
    story::Video video;
    if (auto err = resolve_video(board->video, args.video, video)) {
        std::cerr << "shardreel: error: " << *err << "\n";
        return 2;
    }
    const story::ChapterSpec* chapter = nullptr;
    double t = 0;
    if (auto err = resolve_at(*board, args.at, video.fps, chapter, t)) {
        std::cerr << "shardreel: error: " << *err << "\n";
        return 2;
    }
    const std::string output =
        args.output.empty() ? default_output(board->file, args.at) : args.output;
    const std::string ext = std::filesystem::path(output).extension().string();
    if (ext != ".png" && ext != ".svg" && ext != ".pdf") {
        std::cerr << "shardreel: error: still output must end in .png, .svg or .pdf, got '"
                  << output << "'\n";
        return 2;
    }
    render_still(*chapter, video, t, output, Fonts(default_font_dir()));
    return 0;
}

}  // namespace

void add_still_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<StillArgs>();
    CLI::App* cmd = app.add_subcommand("still", "Render one frame of a chapter to PNG, SVG or PDF");
    cmd->add_option("storyboard", args->storyboard, "Storyboard YAML file")->required();
    cmd->add_option("--at", args->at, "ID@TIME: chapter id and time (3.5s, 500ms, 90f, end)")
        ->required();
    cmd->add_option("-o,--output", args->output,
                    "Output .png, .svg or .pdf (default out/<stem>-<id>-<time>.png)");
    cmd->add_option("--size", args->video.size, "Frame size WxH (default: the storyboard's)");
    cmd->callback(
        [args, &exit_code] { exit_code = run_guarded([&] { return run_still(*args); }); });
}

}  // namespace render
