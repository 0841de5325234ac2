// A loaded storyboard (schema version 1): plain structs, no YAML types.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "story/scene/theme.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/narration.hpp"

namespace story {

enum class Captions { burn, track, off };

struct Video {
    int width = 1920, height = 1080, fps = 30;
    ThemeName theme = ThemeName::dark;
    Captions captions = Captions::burn;
    Narration narration;  // the film's voice; a chapter may override it
    Music music;
    std::string lang = "en";  // BCP-47 tag of the film's language (issue 18)
    bool operator==(const Video&) const = default;
};

// One `set:` entry, e.g. {precision: fp8}: a flat parameter name and its scalar text.
// apply_setting() (settings.hpp) is the one place that parses and applies it.
struct Setting {
    std::string key, value;
    SourcePos pos;
    SourcePos value_pos;  // of the value, where its own errors are reported
    bool operator==(const Setting&) const = default;
};

// How a beat's start is given: `at: 3s`, `at: after` (the previous beat's speech end plus the
// gap) or `at: mark:NAME` (a bookmark in an earlier beat's speech).
enum class AtRule { fixed, after, mark };

struct Beat {
    double at = 0;    // seconds from the chapter start (resolved by story::timed for after/mark)
    double over = 0;  // seconds a `set:` morphs over (0: instant)
    std::string say;  // caption and narration text, bookmarks removed; may be empty
    std::vector<Setting> set;
    AtRule rule = AtRule::fixed;
    std::string mark;              // the bookmark an `at: mark:NAME` beat starts on
    std::optional<double> gap;     // `gap:` overriding the narration's, for `at: after`
    std::vector<Bookmark> marks;   // `[[name]]` bookmarks in `say:`
    std::string take, sound;       // `take: FILE` (recorded narration), `sound: FILE` (a cue)
    std::string show;              // `show: PHASE`: the kind's phase that begins with this beat
    std::optional<Speech> speech;  // as spoken (story::timed fills it when a voice speaks)
    int number = 0;  // 1-based place among the chapter's beats as written (names recorded takes)
    SourcePos pos, at_pos, take_pos, sound_pos;
    SourcePos say_pos, set_pos;  // of the `say:` value and the `set:` key
    SourcePos show_pos;          // of the `show:` value
    bool operator==(const Beat&) const = default;
};

// `explore: {PARAM: [values]}` on a chapter or a beat: the values an article page offers for one
// settable parameter (a slider for numbers, pills for keywords). Every value was checked by
// apply_setting; page variants are the chapter drawn with each combination
// (story/uses/explore.hpp).
struct ExploreParam {
    std::string key;
    std::vector<std::string> values;
    SourcePos pos;  // of the key
    bool operator==(const ExploreParam&) const = default;
};

struct ChapterSpec {
    std::string id, kind, title, subtitle;
    double duration = 0;         // seconds (kind default when not given; resolved when auto)
    bool auto_duration = false;  // `duration: auto`: ends at its last speech plus the tail
    bool stretch = false;        // `fit: stretch`: choreography stretched to the duration
    Narration narration;         // the film's, or the chapter's `narration:` override
    engine::Config config;       // defaults with this chapter's overrides applied
    // The film's defaults, which the settings a chapter changes are named against under its
    // title (story/vocab/settings_note.hpp); nullopt (a spec built by hand): nothing is named.
    std::optional<engine::Config> film;
    std::vector<Beat> beats;  // file order when parsed; sorted by `at` once timed
    // The article page: `figure:` (the moment its figure shows; none: the explored beat's end,
    // else the chapter's end) and `explore:`, given on the chapter (explore_beat 0) or on the
    // beat whose number is explore_beat.
    std::optional<double> figure;
    std::vector<ExploreParam> explore;
    int explore_beat = 0;
    SourcePos pos;
    bool operator==(const ChapterSpec&) const = default;
};

// `page:`: the article page's own text around the chapters (`shardreel page`).
struct QA {
    std::string question, answer;
    bool operator==(const QA&) const = default;
};
struct Term {
    std::string term, meaning;
    bool operator==(const Term&) const = default;
};
struct PageText {
    std::string lede;
    std::vector<QA> questions;
    std::vector<Term> glossary;
    bool operator==(const PageText&) const = default;
};

struct Storyboard {
    std::string file;  // path as given, for diagnostics and default output names
    int version = 1;
    std::string title;
    Video video;
    engine::Config defaults;  // `defaults:` applied over the built-in defaults
    std::vector<ChapterSpec> chapters;
    PageText page;
    // `languages:` (issue 18): every language its text is written in, the storyboard's own
    // (`video: lang`) first; video.lang is the one this load resolved every text field to.
    std::vector<std::string> languages{"en"};
    bool operator==(const Storyboard&) const = default;
};

}  // namespace story
