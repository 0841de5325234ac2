// The flags every command that writes media shares (-q, --json, --lang, --size, --quality,
// --cache), registered by one function so that each means the same on every command that takes
// it (render, page, still, sheet, jobs, studio; calculator its --lang) and is documented once
// (docs/commands/README.md, written from shared_flags() by tests/render/docs_test.cpp).
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "render/inputs/video_options.hpp"

namespace CLI {
class App;
}

namespace render {

// Where a command keeps the shared flags it takes; a null field is a flag it does not take.
struct MediaFlags {
    bool* quiet = nullptr;           // -q, --quiet
    bool* json = nullptr;            // --json
    std::string* lang = nullptr;     // --lang
    bool many_languages = false;     // --lang takes a list or `all`: one output each
    std::string* size = nullptr;     // --size
    std::string* quality = nullptr;  // --quality
    std::string* cache = nullptr;    // --cache
};

// One shared flag as CLI11 registers it, with its help; `many` is --lang's help on the commands
// that write one output per language (empty for the others).
struct SharedFlag {
    std::string names, value, help, many;
};

// Every shared flag, in the order add_media_flags registers them.
const std::vector<SharedFlag>& shared_flags();

// Registers on cmd each flag whose field in f is set, with shared_flags()' help.
void add_media_flags(CLI::App* cmd, const MediaFlags& f);

// The shared flags of a command that writes one output (still, sheet, page): all six, one
// language.
struct MediaArgs {
    std::string lang, cache;
    VideoOverrides video;  // --quality and --size (and a command's own --fps)
    bool json = false, quiet = false;
};
void add_media_flags(CLI::App* cmd, MediaArgs& a);

// What a command says once it has written its output: with --json the report (which names the
// file written as "output") as one line on stdout; otherwise `summary` ("shardreel: wrote ...")
// on stderr, unless --quiet.
void print_report(const nlohmann::json& report, const std::string& summary, bool json, bool quiet);

}  // namespace render
