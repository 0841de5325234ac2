// Timing a storyboard by its speech; see timed.hpp.
#include "story/load/timed.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "story/load/beat_checks.hpp"
#include "story/storyboard/languages.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/units.hpp"
#include "story/text/lang.hpp"
#include "story/time/cue.hpp"

namespace story {
namespace {

constexpr double kShortestLine = 1;  // seconds a line takes to read at least
constexpr double kSlack = 1e-9;      // seconds below which two times are the same
// A caption's frame-rounded length may fall short of its reading time by this much unwarned.
constexpr double kReadingSlack = 0.005;

bool speaks(const Beat& b) { return !b.say.empty(); }

const Speech& speech_of(const Beat& b) {
    if (!b.speech) throw std::logic_error("story::timed: a line without its speech: " + b.say);
    return *b.speech;
}

double speech_end(const Beat& b) { return b.at + (speaks(b) ? speech_of(b).seconds : 0); }

// An amount of time as messages show it, to the hundredth (never rounded down to nothing).
std::string amount(double seconds) {
    return format_seconds(std::ceil(seconds * 100 - kSlack) / 100);
}

// The start of beat i from the beats before it (file order, already resolved). `after` waits for
// all of them, so a beat that animates on a word of the line before does not cut in.
double resolved_start(const ChapterSpec& spec, std::size_t i) {
    const Beat& b = spec.beats[i];
    if (b.rule == AtRule::after) {
        double start = 0;
        for (std::size_t j = 0; j < i; ++j) start = std::max(start, speech_end(spec.beats[j]));
        return start + b.gap.value_or(spec.narration.gap);
    }
    if (b.rule == AtRule::mark) {
        for (std::size_t j = 0; j < i; ++j) {
            const Beat& earlier = spec.beats[j];
            for (std::size_t k = 0; k < earlier.marks.size(); ++k)
                if (earlier.marks[k].name == b.mark)
                    return earlier.at + speech_of(earlier).marks.at(k);
        }
        throw std::logic_error("story::timed: unchecked bookmark '" + b.mark + "'");
    }
    return b.at;
}

// Whether `beat` starts on one of line's bookmarks (meant to come mid-line).
bool on_bookmark_of(const Beat& beat, const Beat& line) {
    return beat.rule == AtRule::mark &&
           std::ranges::count(line.marks, beat.mark, &Bookmark::name) > 0;
}

double last_speech_end(const ChapterSpec& spec) {
    double end = 0;
    for (const Beat& b : spec.beats)
        if (speaks(b)) end = std::max(end, speech_end(b));
    return end;
}

class Timer {
  public:
    Timer(const Storyboard& sb, Diagnostics& errors, std::vector<Diagnostic>& warnings)
        : sb_(sb), errors_(errors), warnings_(warnings) {}

    Storyboard run() {
        Storyboard out = sb_;
        for (ChapterSpec& spec : out.chapters) chapter(spec);
        film_length(out);
        return out;
    }

  private:
    void error(SourcePos pos, std::string message) {
        errors_.error(sb_.file, pos, std::move(message));
    }
    void warning(SourcePos pos, std::string message) {
        warnings_.push_back({sb_.file, pos, std::move(message), Severity::warning});
    }

    void chapter(ChapterSpec& spec) {
        for (std::size_t i = 0; i < spec.beats.size(); ++i)
            spec.beats[i].at = resolved_start(spec, i);
        if (spec.auto_duration) {
            spec.duration = last_speech_end(spec) + spec.narration.tail;
            if (auto problem = limits::chapter_duration_error(spec.duration, sb_.video.fps))
                error(spec.pos, "chapter '" + spec.id + "' (duration: auto): " + *problem);
        }
        std::ranges::stable_sort(spec.beats, {}, &Beat::at);
        check_beats(spec, sb_.file, "in chapter '" + spec.id + "'", errors_);
        if (spec.narration.engine != VoiceEngine::off) overruns(spec);
    }

    // Where a voice speaks, each line must end before the next line and, in a chapter of fixed
    // length, before its end; a beat that only animates may come mid-line (a warning, unless it
    // starts on one of the line's own bookmarks, as it is meant to).
    void overruns(const ChapterSpec& spec) {
        for (std::size_t i = 0; i < spec.beats.size(); ++i) {
            const Beat& b = spec.beats[i];
            if (!speaks(b) || b.at > spec.duration) continue;
            const double end = speech_end(b);
            if (!spec.auto_duration && end > spec.duration + kSlack)
                error(b.say_pos, "speech runs " + amount(end - spec.duration) +
                                     " past the end of chapter '" + spec.id +
                                     "' (the line ends at " + format_moment(end) +
                                     ", the chapter at " + format_moment(spec.duration) +
                                     "): give the chapter `duration: auto` or shorten the line");
            overrun_beats(spec, i, end);
        }
    }

    void overrun_beats(const ChapterSpec& spec, std::size_t i, double end) {
        const Beat& line = spec.beats[i];
        bool warned = false;
        for (std::size_t j = i + 1; j < spec.beats.size() && spec.beats[j].at < end - kSlack; ++j) {
            const Beat& next = spec.beats[j];
            const std::string by = amount(end - next.at), there = "at " + format_moment(next.at) +
                                                                  ", line " +
                                                                  std::to_string(next.pos.line);
            if (speaks(next)) {
                error(line.say_pos, "speech runs " + by + " into the next line (" + there +
                                        "), so the voices would overlap: start that beat "
                                        "`at: after` or shorten this line");
                return;
            }
            if (warned || on_bookmark_of(next, line)) continue;
            warning(line.say_pos, "speech runs " + by + " past the beat " + there +
                                      ", which changes the picture mid-line");
            warned = true;
        }
    }

    void film_length(const Storyboard& out) {
        double total = 0;
        for (const ChapterSpec& spec : out.chapters) {
            total += spec.duration;
            if (auto problem = limits::film_length_error(total)) {
                error(spec.pos, *problem + " (by the end of chapter '" + spec.id + "')");
                return;
            }
        }
    }

    const Storyboard& sb_;
    Diagnostics& errors_;
    std::vector<Diagnostic>& warnings_;
};

}  // namespace

void reading_pace(const Storyboard& sb, std::vector<Diagnostic>& warnings) {
    if (sb.video.captions == Captions::off) return;
    for (const ChapterSpec& spec : sb.chapters) {
        if (spec.narration.engine != VoiceEngine::off) continue;
        for (std::size_t i = 0; i < spec.beats.size(); ++i) {
            const Beat& b = spec.beats[i];
            if (!speaks(b) || b.at >= spec.duration) continue;
            const double shown = caption_end(spec, i) - b.at,
                         needs = caption_reading_seconds(b.say, sb.video.lang);
            if (shown + kReadingSlack >= needs) continue;
            warnings.push_back(
                {sb.file, b.say_pos,
                 "this caption shows for " + format_seconds(shown) + " but needs " + amount(needs) +
                     " to read at " + std::to_string(int(kCaptionWordsPerMinute)) +
                     " words a minute with no voice: give it " + amount(needs - shown) +
                     " more (move the next beat or lengthen the chapter), shorten it, or "
                     "narrate the chapter",
                 Severity::warning});
        }
    }
}

Speech reading_estimate(const Beat& beat, std::string_view lang) {
    const double length = static_cast<double>(code_points(beat.say));
    Speech s;
    s.seconds = std::max(kShortestLine, length / reading_rate(lang));
    for (const Bookmark& m : beat.marks) {
        const double before = static_cast<double>(
            code_points(std::string_view(beat.say).substr(0, std::min(m.offset, beat.say.size()))));
        s.marks.push_back(length > 0 ? s.seconds * before / length : 0);
    }
    return s;
}

void estimate_speech(Storyboard& sb, bool voiced_too) {
    for (ChapterSpec& spec : sb.chapters) {
        if (spec.narration.engine != VoiceEngine::off && !voiced_too) continue;
        for (Beat& b : spec.beats)
            if (speaks(b) && !b.speech) b.speech = reading_estimate(b, sb.video.lang);
    }
}

std::optional<Storyboard> timed(const Storyboard& sb, Diagnostics& errors,
                                std::vector<Diagnostic>& warnings) {
    Diagnostics found;
    Storyboard out = Timer(sb, found, warnings).run();
    errors.append(found);
    if (!found.empty()) return std::nullopt;
    return out;
}

std::optional<Storyboard> load_timed(const ParsedStoryboard& parsed, Diagnostics& errors,
                                     std::vector<Diagnostic>& warnings, const VoiceFill& voices,
                                     const std::string& lang) {
    auto sb = resolve_storyboard(parsed, errors, warnings, lang);
    if (!sb) return std::nullopt;
    estimate_speech(*sb, !voices);
    Diagnostics found;
    const std::size_t first_warning = warnings.size();
    if (voices) voices(*sb, found);
    std::optional<Storyboard> out;
    if (found.empty()) out = timed(*sb, found, warnings);
    if (sb->video.lang != sb->languages.front())
        tag_language(found, warnings, first_warning, sb->video.lang);
    errors.append(found);
    return out;
}

std::optional<Storyboard> load_timed(const std::string& text, const std::string& file,
                                     Diagnostics& errors, std::vector<Diagnostic>& warnings,
                                     const VoiceFill& voices, const std::string& lang) {
    return load_timed(parse_storyboard_text(text, file), errors, warnings, voices, lang);
}

bool narrated(const Storyboard& sb) {
    return std::ranges::any_of(
        sb.chapters, [](const ChapterSpec& c) { return c.narration.engine != VoiceEngine::off; });
}

std::string speech_summary(const ChapterSpec& spec) {
    char text[96];
    if (spec.narration.engine == VoiceEngine::off) {
        std::snprintf(text, sizeof text, "narration off, %.1f s", spec.duration);
    } else {
        double speech = 0;
        for (const Beat& b : spec.beats)
            if (speaks(b)) speech += speech_of(b).seconds;
        std::snprintf(text, sizeof text, "speech %.1f s of %.1f s", speech, spec.duration);
    }
    return "chapter '" + spec.id + "': " + text;
}

}  // namespace story
