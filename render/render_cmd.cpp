// `shardreel render`: storyboards to MP4 films with captions, progress on a TTY, JSON report.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "render/commands.hpp"
#include "render/director.hpp"
#include "render/error.hpp"
#include "render/interrupt.hpp"
#include "story/diagnostics.hpp"

namespace render {

namespace {

struct RenderArgs {
    std::vector<std::string> storyboards;
    std::string output, only;
    VideoOverrides video;
    bool json = false, quiet = false;
};

std::vector<std::string> split_ids(const std::string& csv) {
    std::vector<std::string> ids;
    std::size_t start = 0;
    while (start <= csv.size()) {
        const std::size_t comma = std::min(csv.find(',', start), csv.size());
        if (comma > start) ids.push_back(csv.substr(start, comma - start));
        start = comma + 1;
    }
    return ids;
}

// Keeps the chapters named by --only, in storyboard order; an unknown id is a usage error.
bool select_chapters(story::Storyboard& board, const std::string& only) {
    if (only.empty()) return true;
    std::vector<std::string> known;
    for (const auto& c : board.chapters) known.push_back(c.id);
    bool ok = true;
    for (const std::string& id : split_ids(only)) {
        if (std::find(known.begin(), known.end(), id) != known.end()) continue;
        const std::string near = story::closest_match(id, known);
        std::cerr << "shardreel: error: no chapter '" << id << "' in " << board.file
                  << (near.empty() ? "" : " (did you mean '" + near + "'?)") << "\n";
        ok = false;
    }
    const auto ids = split_ids(only);
    std::erase_if(board.chapters, [&](const story::ChapterSpec& c) {
        return std::find(ids.begin(), ids.end(), c.id) == ids.end();
    });
    return ok;
}

std::string default_output(const std::string& storyboard) {
    return "out/" + std::filesystem::path(storyboard).stem().string() + ".mp4";
}

void print_progress(const Progress& p, std::chrono::steady_clock::time_point start) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double fps = elapsed > 0 ? static_cast<double>(p.done) / elapsed : 0;
    const double eta = fps > 0 ? static_cast<double>(p.total - p.done) / fps : 0;
    const int width = 30, filled = static_cast<int>(width * p.done / std::max(1LL, p.total));
    std::fprintf(stderr, "\r\033[K%-22.22s [%s%s] %lld/%lld frames  %.1f fps  ETA %.0fs", p.chapter.c_str(),
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), p.done, p.total,
                 fps, eta);
    if (p.done == p.total) std::fputc('\n', stderr);
}

nlohmann::json to_json(const RenderReport& r) {
    nlohmann::json chapters = nlohmann::json::array();
    for (const auto& c : r.chapters)
        chapters.push_back({{"id", c.id}, {"cached", c.cached}, {"frames", c.frames}, {"seconds", c.seconds}});
    return {{"output", r.output}, {"frames_drawn", r.frames_drawn}, {"wall_seconds", r.wall_seconds},
            {"chapters", chapters}};
}

int run_render(RenderArgs& args) {
    if (args.storyboards.empty()) args.storyboards.push_back("storyboards/distributed-training.yaml");
    if (!args.output.empty() && args.storyboards.size() > 1) {
        std::cerr << "shardreel: error: -o names one output but " << args.storyboards.size()
                  << " storyboards were given (drop -o to write out/<name>.mp4 for each)\n";
        return 2;
    }
    // Validate everything before writing anything.
    std::vector<std::pair<story::Storyboard, story::Video>> jobs;
    bool ok = true;
    for (const std::string& path : args.storyboards) {
        auto board = load_storyboard(path, std::cerr);
        if (!board) { ok = false; continue; }
        ok = select_chapters(*board, args.only) && ok;
        story::Video video;
        if (auto err = resolve_video(board->video, args.video, video)) {
            std::cerr << "shardreel: error: " << *err << "\n";
            ok = false;
        }
        jobs.emplace_back(std::move(*board), video);
    }
    if (!ok) return 2;

    install_interrupt_handlers();
    const Fonts fonts(default_font_dir());
    const bool show_progress = !args.quiet && !args.json && isatty(STDERR_FILENO);
    nlohmann::json reports = nlohmann::json::array();
    for (auto& [board, video] : jobs) {
        const std::string output = args.output.empty() ? default_output(board.file) : args.output;
        const auto start = std::chrono::steady_clock::now();
        auto on_progress = [&](const Progress& p) { if (show_progress) print_progress(p, start); };
        const RenderReport report = render_film(board, video, output, fonts, on_progress);
        reports.push_back(to_json(report));
        if (!args.quiet && !args.json)
            std::cerr << "shardreel: wrote " << output << " (" << report.frames_drawn << " frames, "
                      << static_cast<int>(report.wall_seconds * 10) / 10.0 << " s)\n";
    }
    if (args.json) std::cout << (reports.size() == 1 ? reports[0] : reports).dump() << "\n";
    return 0;
}

}  // namespace

void add_render_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<RenderArgs>();
    CLI::App* cmd = app.add_subcommand("render", "Render storyboards to MP4 (default: storyboards/distributed-training.yaml)");
    cmd->add_option("storyboards", args->storyboards, "Storyboard YAML files");
    cmd->add_option("-o,--output", args->output, "Output file (default out/<storyboard-stem>.mp4)");
    cmd->add_option("--quality", args->video.quality, "low 854x480@15, medium 1280x720@30, high 1920x1080@30, 4k 3840x2160@30");
    cmd->add_option("--size", args->video.size, "Frame size WxH, overrides the preset");
    cmd->add_option("--fps", args->video.fps, "Frames per second, overrides the preset");
    cmd->add_option("--only", args->only, "Render only these chapter ids (comma separated)");
    cmd->add_flag("--json", args->json, "Print a JSON report on stdout");
    cmd->add_flag("-q,--quiet", args->quiet, "No progress output");
    cmd->callback([args, &exit_code] {
        try {
            exit_code = run_render(*args);
        } catch (const Interrupted&) {
            std::cerr << "\nshardreel: interrupted; partial outputs removed\n";
            exit_code = 130;
        } catch (const SystemError& e) {
            std::cerr << "shardreel: error: " << e.what() << "\n";
            exit_code = 1;
        }
    });
}

}  // namespace render
