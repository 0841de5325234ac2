// Bounds on what a storyboard or the command line may ask for, so that hostile or mistaken input
// fails with a clear error instead of exhausting memory, time or the stack.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "story/diagnostics.hpp"
#include "story/units.hpp"

namespace story::limits {

inline constexpr int kMinSide = 16;
inline constexpr int kMaxWidth = 7680, kMaxHeight = 4320;  // 8K UHD
inline constexpr int kMaxFps = 120;
inline constexpr double kMaxFilmSeconds = 3600;  // a chapter, and the whole film
inline constexpr std::size_t kMaxStoryboardBytes = 1 << 20;
inline constexpr int kMaxNesting = 32;               // YAML collections inside collections
inline constexpr long long kMaxYamlNodes = 100'000;  // after expanding aliases

// "video size must be between 16x16 and 7680x4320, got 8000x4000", or the even-size rule.
std::optional<std::string> frame_size_error(FrameSize size, std::string_view text);

// "lasts 0.01s, less than one frame at 15 fps (0.0667s)": a chapter must hold at least one frame
// (durations round to the nearest frame).
std::optional<std::string> frame_length_error(double seconds, int fps);

struct TextError {
    SourcePos pos;
    std::string message;
};
// Checked before the text reaches the YAML parser, whose recursion is bounded only by its own far
// deeper guard (with an opaque "bad file"): the size in bytes and the nesting of collections.
std::optional<TextError> storyboard_text_error(std::string_view text);

struct Nesting {
    int depth = 0;
    int line = 0;  // 1-based line where the depth was first reached
};
// How deeply collections nest in YAML text, estimated from above from indentation, "- " entries
// and brackets, skipping comments, quoted scalars and block scalars.
Nesting yaml_nesting(std::string_view text);

}  // namespace story::limits
