// `shardreel check FILE...`: validates storyboards, printing every error compiler style and a
// one-line summary per valid file. Writes nothing.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "render/cli/commands.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sys/files.hpp"
#include "render/sys/temp_dir.hpp"
#include "story/load/timed.hpp"

namespace render {
namespace {

std::string minutes_seconds(double seconds) {
    const long total = std::lround(seconds);
    char text[32];
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
    return text;
}

double total_duration(const story::Storyboard& sb) {
    double total = 0;
    for (const story::ChapterSpec& c : sb.chapters) total += c.duration;
    return total;
}

// The file's text, or std::nullopt with the reason. A directory opens as an empty stream, so it
// is refused here rather than reported as an empty storyboard.
std::optional<std::string> read_storyboard(const std::string& path, std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = std::strerror(EISDIR);
        return std::nullopt;
    }
    return read_file(path, error);
}

// The storyboard timed in `lang` (empty: its own language), reported on stdout as `name` (ok,
// and each chapter's speech time when a voice speaks) and stderr (errors and warnings).
std::optional<story::Storyboard> check_language(const story::ParsedStoryboard& parsed,
                                                const std::string& lang, const std::string& name) {
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    auto sb = timed_storyboard(parsed, errors, warnings, lang);
    if (sb) story::reading_pace(*sb, warnings);  // an editor's warning, check's alone
    std::cerr << story::format_diagnostics(errors, warnings);
    if (!sb) return std::nullopt;
    const std::size_t n = sb->chapters.size();
    std::cout << name << ": ok (" << n << (n == 1 ? " chapter, " : " chapters, ")
              << minutes_seconds(total_duration(*sb)) << ")\n";
    if (story::narrated(*sb))
        for (const story::ChapterSpec& c : sb->chapters)
            std::cout << "  " << story::speech_summary(c) << "\n";
    return sb;
}

// Whether the file is a valid storyboard in its own language and then in every other language it
// lists ("FILE (de): ok ..."), each timed by its own voice; the file is read and parsed once.
bool check_file(const std::string& path) {
    std::string read_error;
    const auto text = read_storyboard(path, read_error);
    if (!text) {
        std::cerr << story::Diagnostic{path, {}, "cannot read: " + read_error}.format() << "\n";
        return false;
    }
    const story::ParsedStoryboard parsed = story::parse_storyboard_text(*text, path);
    const auto sb = check_language(parsed, "", path);
    if (!sb) return false;
    bool valid = true;
    for (std::size_t i = 1; i < sb->languages.size(); ++i) {
        const std::string& lang = sb->languages[i];
        valid = check_language(parsed, lang, path + " (" + lang + ")") && valid;
    }
    return valid;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
    auto files = std::make_shared<std::vector<std::string>>();
    CLI::App* cmd = app.add_subcommand("check", "Validate storyboards; report every error");
    cmd->add_option("storyboards", *files, "Storyboard YAML files")->required();
    cmd->callback([files, &exit_code] {
        // check writes nothing: without a speech cache to reuse, narrated lines are spoken into a
        // temporary one, removed when the check ends.
        std::optional<TempDir> scratch;
        if (!std::filesystem::exists(speech_cache())) use_scratch_speech_cache(scratch);
        bool all_valid = true;
        for (const std::string& path : *files) all_valid = check_file(path) && all_valid;
        exit_code = all_valid ? 0 : 2;
    });
}

}  // namespace render
