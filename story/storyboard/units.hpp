// Quantities written in storyboards ("80GB", "400Gb/s", "500ms", "7B"): parsed exactly, never
// guessed. Each parser returns std::nullopt for text it does not recognise, NaN, inf or negatives.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "engine/problem.hpp"

namespace story {

enum class Quantity { size, bandwidth, time, count, level };

std::optional<double> parse_size(std::string_view s);           // bytes: 80GB, 80GiB, 512MB, 1.5TB
std::optional<double> parse_bandwidth(std::string_view s);      // bytes/s: 900GB/s, 400Gb/s (bits)
std::optional<double> parse_time(std::string_view s, int fps);  // seconds: 1.5s, 500ms, 45f, 2
std::optional<double> parse_count(std::string_view s);          // 7B, 70e9, 1.5M, 8
std::optional<long long> parse_integer(std::string_view s);     // plain whole number: 4096
std::optional<double> parse_level(std::string_view s);          // decibels, signed: -20dB, -18

// A whole number in [lo, hi] for `key` stored in out, or the message saying why it is not one:
// "expected a number for 'fps', got 'thirty'", "'tp' must be between 1 and 65536, got 0".
std::optional<std::string> integer_in_range(std::string_view key, std::string_view text,
                                            long long lo, long long hi, long long& out);
// The same as a template and its arguments (story/storyboard/problems.hpp).
std::optional<engine::Problem> integer_problem(std::string_view key, std::string_view text,
                                               long long lo, long long hi, long long& out);

struct FrameSize {
    int width = 0, height = 0;
    bool operator==(const FrameSize&) const = default;
};
std::optional<FrameSize> parse_frame_size(std::string_view s);  // 1920x1080

// What parse_size, parse_bandwidth, parse_time, parse_count or parse_level accepts, as an
// ECMAScript regular expression (the JSON Schema's `pattern`), built from the same unit tables. The
// schema cannot see magnitudes: it also matches numbers too large for a double (1e400).
std::string quantity_pattern(Quantity q);

// "cannot parse '90GBs' as a bandwidth (expected e.g. 900GB/s or 400Gb/s)"
std::string unit_error(std::string_view text, Quantity q);
engine::Problem unit_problem(std::string_view text, Quantity q);

// Seconds as a storyboard would write them: 25 -> "25s", 1.5 -> "1.5s".
std::string format_seconds(double s);
// A time on a chapter's clock, to the millisecond: 3.14159 -> "3.142s".
std::string format_moment(double s);

}  // namespace story
