// The shared flags of the media commands; see media_flags.hpp.
#include "render/cli/media_flags.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

namespace render {

const std::vector<SharedFlag>& shared_flags() {
    static const std::vector<SharedFlag> flags = {
        {"-q,--quiet", "", "No progress and no summary on stderr (errors and warnings still print)",
         ""},
        {"--json", "",
         "Print one JSON report on stdout: the file written (\"output\") and what it took", ""},
        {"--lang", "L",
         "The language of the output, one the storyboard lists (default: its own); a default "
         "output name gains .L after the storyboard's (out/NAME.L.mp4)",
         "The languages of the outputs, comma separated, or all the storyboard lists: one output "
         "each, its default name with .L after the storyboard's (default: its own language)"},
        {"--size", "WxH", "Frame size WxH, even, up to 7680x4320; overrides --quality", ""},
        {"--quality", "Q",
         "Preset: low 854x480@15, medium 1280x720@30, high 1920x1080@30, 4k 3840x2160@30 "
         "(default: the storyboard's video:)",
         ""},
        {"--cache", "DIR",
         "The cache of chapter segments and spoken lines (default: cache/ beside the output, "
         "out/cache)",
         ""},
    };
    return flags;
}

namespace {

void add(CLI::App* cmd, const SharedFlag& flag, bool* target) {
    if (target) cmd->add_flag(flag.names, *target, flag.help);
}

void add(CLI::App* cmd, const SharedFlag& flag, std::string* target, bool many = false) {
    if (target)
        cmd->add_option(flag.names, *target, many ? flag.many : flag.help)->type_name(flag.value);
}

}  // namespace

void add_media_flags(CLI::App* cmd, const MediaFlags& f) {
    const std::vector<SharedFlag>& flags = shared_flags();
    add(cmd, flags[0], f.quiet);
    add(cmd, flags[1], f.json);
    add(cmd, flags[2], f.lang, f.many_languages);
    add(cmd, flags[3], f.size);
    add(cmd, flags[4], f.quality);
    add(cmd, flags[5], f.cache);
}

void add_media_flags(CLI::App* cmd, MediaArgs& a) {
    add_media_flags(cmd, {.quiet = &a.quiet,
                          .json = &a.json,
                          .lang = &a.lang,
                          .size = &a.video.size,
                          .quality = &a.video.quality,
                          .cache = &a.cache});
}

void print_report(const nlohmann::json& report, const std::string& summary, bool json, bool quiet) {
    if (json)
        std::cout << report.dump() << "\n";
    else if (!quiet)
        std::cerr << summary << "\n";
}

}  // namespace render
