// A loaded storyboard (schema version 1): plain structs, no YAML types.
#pragma once
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "story/diagnostics.hpp"
#include "story/theme.hpp"

namespace story {

enum class Captions { burn, track, off };

struct Video {
    int width = 1920, height = 1080, fps = 30;
    ThemeName theme = ThemeName::dark;
    Captions captions = Captions::burn;
    bool operator==(const Video&) const = default;
};

// One `set:` entry, e.g. {precision: fp8}: a flat parameter name and its scalar text.
// apply_setting() (settings.hpp) is the one place that parses and applies it.
struct Setting {
    std::string key, value;
    SourcePos pos;
    bool operator==(const Setting&) const = default;
};

struct Beat {
    double at = 0;    // seconds from the chapter start
    double over = 0;  // seconds a `set:` morphs over (0: instant)
    std::string say;  // caption, may be empty
    std::vector<Setting> set;
    SourcePos pos;
    bool operator==(const Beat&) const = default;
};

struct ChapterSpec {
    std::string id, kind, title, subtitle;
    double duration = 0;      // seconds (kind default when not given)
    engine::Config config;    // defaults with this chapter's overrides applied
    std::vector<Beat> beats;  // sorted by `at`
    SourcePos pos;
    bool operator==(const ChapterSpec&) const = default;
};

struct Storyboard {
    std::string file;  // path as given, for diagnostics and default output names
    int version = 1;
    std::string title;
    Video video;
    engine::Config defaults;  // `defaults:` applied over the built-in defaults
    std::vector<ChapterSpec> chapters;
    bool operator==(const Storyboard&) const = default;
};

}  // namespace story
