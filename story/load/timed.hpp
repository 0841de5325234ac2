// Timing a storyboard by its speech: `at: after` and `at: mark:NAME` resolved, `duration: auto`
// chapters ended after their last line, beats sorted by time, and every check that needs the
// times (beats inside their chapter, the `set:` sequence, speech overrunning what follows).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "story/load/load.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story {

// How long a line takes to read: max(1 s, characters / 15), the subtitle reading-speed norm (the
// rate of `lang`'s captions: story::reading_rate); each bookmark in proportion to its offset. The
// speech of a line no voice speaks.
Speech reading_estimate(const Beat& beat, std::string_view lang = "en");

// An editor's warning, not a rule of loading: where no voice speaks and captions show, each
// caption the timed `sb` shows for less than caption_reading_seconds (its words at 180 a
// minute), at its `say:`. `check` prints them; load_timed does not add them, nor do the
// commands that render (a test's storyboard need not be watchable).
void reading_pace(const Storyboard& sb, std::vector<Diagnostic>& warnings);

// Gives every beat with a `say:` and no speech yet its reading estimate: in the chapters whose
// narration is off, or in all of them when `voiced_too` (no voice at hand).
void estimate_speech(Storyboard& sb, bool voiced_too = false);

// The storyboard timed: each after/mark beat's `at` resolved in file order (`after`: once every
// beat before it is over, a line at its speech's end, plus the gap), each auto chapter's
// duration (its last speech's end plus the tail), beats stably sorted by `at`, then the checks:
// beats inside their chapter at distinct times, the configuration each `set:` leads to, the
// film's length, and where a voice speaks, speech running past a fixed chapter's end or into the
// next line (errors) or past a next beat that only animates (warnings). Every beat with a `say:`
// must have its speech (std::logic_error otherwise). nullopt when it added errors.
std::optional<Storyboard> timed(const Storyboard& sb, Diagnostics& errors,
                                std::vector<Diagnostic>& warnings);

// Gives the beats a voice speaks their Speech (synthesised, recorded or cached); adds errors
// for what it cannot speak.
using VoiceFill = std::function<void(Storyboard&, Diagnostics&)>;

// What the commands read: the storyboard resolved in `lang` (empty: its own language;
// story/load/load.hpp), every line's speech (the reading estimate where narration is off; `voices`
// for the rest, or the estimate when none is given), then timed(). In another language than the
// storyboard's own, the diagnostics of its speech and timing say which ("in de: speech runs
// ..."). The parsed form serves every language of one text read once.
std::optional<Storyboard> load_timed(const ParsedStoryboard& parsed, Diagnostics& errors,
                                     std::vector<Diagnostic>& warnings,
                                     const VoiceFill& voices = {}, const std::string& lang = {});
std::optional<Storyboard> load_timed(const std::string& text, const std::string& file,
                                     Diagnostics& errors, std::vector<Diagnostic>& warnings,
                                     const VoiceFill& voices = {}, const std::string& lang = {});

// Whether any chapter has a voice (narration other than off).
bool narrated(const Storyboard& sb);

// "chapter 'bytes': speech 31.4 s of 34.0 s" (the beats' speech seconds, summed), or
// "chapter 'intro': narration off, 4.0 s", for a timed chapter.
std::string speech_summary(const ChapterSpec& spec);

}  // namespace story
