// Storyboard and command-line limits, and the nesting scan that runs before the YAML parser.
#include "story/storyboard/limits.hpp"

#include <cstdio>
#include <vector>

#include "story/storyboard/problems.hpp"
#include "story/storyboard/time.hpp"

namespace story::limits {
namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

// One pass over the lines of YAML text. Block collections are tracked by indentation (a stack of
// open indents), flow collections by brackets; quoted and block scalars are skipped so that
// brackets inside captions do not count.
class NestingScanner {
  public:
    Nesting scan(std::string_view text) {
        int number = 0;
        while (!text.empty()) {
            const std::size_t end = text.find('\n');
            line(text.substr(0, end), ++number);
            text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        }
        return deepest_;
    }

  private:
    void line(std::string_view l, int number) {
        std::size_t indent = 0;
        while (indent < l.size() && l[indent] == ' ') ++indent;
        const bool empty = indent == l.size() || l[indent] == '#' || l[indent] == '\r';
        if (block_scalar_ >= 0) {
            if (empty || static_cast<int>(indent) > block_scalar_) return;  // scalar content
            block_scalar_ = -1;
        }
        if (empty && quote_ == 0) return;
        line_ = number;
        line_indent_ = static_cast<int>(indent);
        if (quote_ == 0 && flow_ == 0) open_block(indent);
        scan_chars(l, indent);
    }

    // A line at `indent` closes deeper blocks and opens its own; "- - x" opens one per dash.
    void open_block(std::size_t indent) {
        while (!blocks_.empty() && blocks_.back() >= static_cast<int>(indent)) blocks_.pop_back();
        blocks_.push_back(static_cast<int>(indent));
        note();
    }

    void scan_chars(std::string_view l, std::size_t from) {
        bool value_start = true;  // at a place where a scalar or collection may begin
        for (std::size_t i = from; i < l.size(); ++i) {
            const char c = l[i];
            if (quote_ != 0) {
                i = skip_quoted(l, i);
                continue;
            }
            if (blank(c)) continue;
            if (c == '#' && (i == 0 || blank(l[i - 1]))) return;
            const bool spaced = i + 1 == l.size() || blank(l[i + 1]);
            if (value_start && (c == '\'' || c == '"')) {
                quote_ = c;
            } else if (value_start && (c == '[' || c == '{')) {
                ++flow_;
                note();
            } else if (flow_ > 0 && (c == ']' || c == '}')) {
                --flow_;
            } else if (value_start && flow_ == 0 && (c == '|' || c == '>')) {
                block_scalar_ = line_indent_;
                return;
            } else if (value_start && (c == '&' || c == '!')) {
                while (i + 1 < l.size() && !blank(l[i + 1])) ++i;  // anchor or tag, then a value
                continue;
            } else if (c == '-' && spaced && value_start && flow_ == 0) {
                open_block(i + 2);  // a compact nested entry
                continue;
            }
            value_start = c == '[' || c == '{' || c == ',' || ((c == ':' || c == '?') && spaced);
        }
    }

    // Inside a quoted scalar at l[i]: returns the index of the last character consumed.
    std::size_t skip_quoted(std::string_view l, std::size_t i) {
        if (quote_ == '"' && l[i] == '\\') return i + 1;
        if (l[i] != quote_) return i;
        if (quote_ == '\'' && i + 1 < l.size() && l[i + 1] == '\'') return i + 1;  // '' escape
        quote_ = 0;
        return i;
    }

    void note() {
        const int depth = static_cast<int>(blocks_.size()) + flow_;
        if (depth > deepest_.depth) deepest_ = {depth, line_};
    }

    std::vector<int> blocks_;  // indentation of the open block collections
    int flow_ = 0;             // open brackets
    char quote_ = 0;           // the quote of a scalar still open, possibly across lines
    int block_scalar_ = -1;    // indentation that a block scalar's content lines exceed
    int line_ = 0, line_indent_ = 0;
    Nesting deepest_;
};

}  // namespace

std::optional<std::string> frame_size_error(FrameSize size, std::string_view text) {
    if (size.width < kMinSide || size.height < kMinSide || size.width > kMaxWidth ||
        size.height > kMaxHeight)
        return "video size must be between " + std::to_string(kMinSide) + "x" +
               std::to_string(kMinSide) + " and " + std::to_string(kMaxWidth) + "x" +
               std::to_string(kMaxHeight) + ", got " + std::string(text);
    if (size.width % 2 != 0 || size.height % 2 != 0)
        return "video size must have an even width and height (H.264 4:2:0), got " +
               std::string(text);
    return std::nullopt;
}

std::optional<std::string> frame_length_error(double seconds, int fps) {
    if (frame_count(seconds, fps) >= 1) return std::nullopt;
    char frame[32];
    std::snprintf(frame, sizeof frame, "%.3gs", 1.0 / fps);
    return "lasts " + format_seconds(seconds) + ", less than one frame at " + std::to_string(fps) +
           " fps (" + frame + ")";
}

std::optional<std::string> chapter_duration_error(double seconds, int fps) {
    if (seconds <= 0 || seconds > kMaxFilmSeconds)
        return "duration must be more than 0s and at most " + format_seconds(kMaxFilmSeconds) +
               ", got " + format_seconds(seconds);
    if (auto problem = frame_length_error(seconds, fps))
        return "the chapter " + *problem + "; make it longer or raise video.fps";
    return std::nullopt;
}

std::optional<std::string> film_length_error(double seconds) {
    if (seconds <= kMaxFilmSeconds) return std::nullopt;
    return "the chapters add up to " + format_seconds(seconds) + ", more than the " +
           format_seconds(kMaxFilmSeconds) + " a film may last";
}

std::optional<engine::Problem> range_problem(const Range& r, double value) {
    if (value >= r.lo && value <= r.hi) return std::nullopt;
    const auto shown = [&](const char* name, double v) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", v);
        return number_arg(name, text);
    };
    const Refusal kind = r.unit == "s"    ? Refusal::out_of_seconds
                         : r.unit == "dB" ? Refusal::out_of_decibels
                                          : Refusal::out_of_bounds;
    return refusal(kind, {name_arg("name", std::string(r.key)), shown("lo", r.lo),
                          shown("hi", r.hi), shown("value", value)});
}

std::optional<std::string> range_error(const Range& r, double value) {
    return engine::english(range_problem(r, value));
}

std::optional<TextError> storyboard_text_error(std::string_view text) {
    if (text.size() > kMaxStoryboardBytes)
        return TextError{{},
                         "the storyboard is " + std::to_string(text.size()) +
                             " bytes, more than the " + std::to_string(kMaxStoryboardBytes >> 20) +
                             " MiB (" + std::to_string(kMaxStoryboardBytes) + " bytes) allowed"};
    if (const Nesting n = yaml_nesting(text); n.depth > kMaxNesting)
        return TextError{{n.line, 1},
                         "YAML nesting deeper than " + std::to_string(kMaxNesting) + " levels"};
    return std::nullopt;
}

Nesting yaml_nesting(std::string_view text) { return NestingScanner().scan(text); }

}  // namespace story::limits
