// Parsing of storyboard quantities: a number, optional spaces, then a unit from a fixed table.
#include "story/storyboard/units.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "story/storyboard/problems.hpp"

namespace story {
namespace {

struct Unit {
    std::string_view name;
    double factor;
};

constexpr Unit kSizeUnits[] = {{"B", 1},
                               {"KB", 1e3},
                               {"MB", 1e6},
                               {"GB", 1e9},
                               {"TB", 1e12},
                               {"PB", 1e15},
                               {"KiB", 1024},
                               {"MiB", 1024.0 * 1024},
                               {"GiB", 1024.0 * 1024 * 1024},
                               {"TiB", 1024.0 * 1024 * 1024 * 1024}};
// Network links are sold in bits per second: 400Gb/s is 50GB/s.
constexpr Unit kBitUnits[] = {
    {"b", 1 / 8.0}, {"Kb", 1e3 / 8}, {"Mb", 1e6 / 8}, {"Gb", 1e9 / 8}, {"Tb", 1e12 / 8}};
constexpr Unit kCountUnits[] = {{"", 1}, {"K", 1e3}, {"M", 1e6}, {"B", 1e9}, {"T", 1e12}};
// The units parse_time reads (seconds, milliseconds, frames), for quantity_pattern.
constexpr std::string_view kTimeUnits[] = {"", "s", "ms", "f"};
constexpr std::string_view kLevelUnits[] = {"", "dB"};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// std::from_chars of a double: where it ends, or nullptr. Where the library lacks it (libc++ 14,
// which the page's calculator module is built with), strtod in the C locale under from_chars'
// rules: no leading '+' or space, no hexadecimal (a "0x" reads as its 0), nothing out of range.
const char* read_double(const char* first, const char* last, double& v) {
#if defined(__cpp_lib_to_chars)
    const auto [end, ec] = std::from_chars(first, last, v);
    return ec == std::errc() ? end : nullptr;
#else
    if (first == last || *first == '+' || std::isspace(static_cast<unsigned char>(*first)))
        return nullptr;
    std::string text(first, last);
    const std::size_t digits = text[0] == '-' ? 1 : 0;
    if (text.size() > digits + 1 && text[digits] == '0' &&
        (text[digits + 1] == 'x' || text[digits + 1] == 'X'))
        text.resize(digits + 1);
    char* end = nullptr;
    errno = 0;
    v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || errno == ERANGE) return nullptr;
    return first + (end - text.c_str());
#endif
}

// A finite, non-negative number followed by a (possibly empty) unit.
std::optional<std::pair<double, std::string_view>> split_number(std::string_view s) {
    s = trim(s);
    double v = 0;
    const char* end = read_double(s.data(), s.data() + s.size(), v);
    if (!end || !std::isfinite(v) || v < 0) return std::nullopt;
    return std::pair{v, trim(std::string_view(end, s.data() + s.size() - end))};
}

template <std::size_t N>
std::optional<double> factor_of(std::string_view unit, const Unit (&table)[N]) {
    for (const Unit& u : table)
        if (u.name == unit) return u.factor;
    return std::nullopt;
}

template <std::size_t N>
std::optional<double> parse_with(std::string_view s, const Unit (&table)[N]) {
    auto parts = split_number(s);
    if (!parts) return std::nullopt;
    auto factor = factor_of(parts->second, table);
    if (!factor) return std::nullopt;
    return parts->first * *factor;
}

template <std::size_t N>
void add_names(std::vector<std::string_view>& names, const Unit (&table)[N]) {
    for (const Unit& u : table) names.push_back(u.name);
}

// "(B|KB|MB)", or "(s|ms|f)?" when a bare number (the empty unit) is among them.
std::string alternatives(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::string_view name : names)
        if (!name.empty()) out.append(out.empty() ? "(" : "|").append(name);
    return out + (std::count(std::begin(names), std::end(names), "") > 0 ? ")?" : ")");
}

}  // namespace

std::optional<double> parse_size(std::string_view s) { return parse_with(s, kSizeUnits); }

std::optional<double> parse_bandwidth(std::string_view s) {
    auto parts = split_number(s);
    if (!parts || !parts->second.ends_with("/s")) return std::nullopt;
    std::string_view unit = parts->second.substr(0, parts->second.size() - 2);
    auto factor = factor_of(unit, kSizeUnits);
    if (!factor) factor = factor_of(unit, kBitUnits);
    if (!factor) return std::nullopt;
    return parts->first * *factor;
}

std::optional<double> parse_time(std::string_view s, int fps) {
    auto parts = split_number(s);
    if (!parts) return std::nullopt;
    auto [v, unit] = *parts;
    if (unit.empty() || unit == "s") return v;
    if (unit == "ms") return v / 1000;
    if (unit == "f" && fps > 0) return v / fps;
    return std::nullopt;
}

std::optional<double> parse_count(std::string_view s) { return parse_with(s, kCountUnits); }

std::optional<double> parse_level(std::string_view s) {
    s = trim(s);
    const bool negative = s.starts_with('-');
    if (negative && s.size() > 1 && (s[1] == ' ' || s[1] == '\t')) return std::nullopt;
    auto parts = split_number(s.substr(negative ? 1 : 0));
    if (!parts || std::count(std::begin(kLevelUnits), std::end(kLevelUnits), parts->second) == 0)
        return std::nullopt;
    return negative ? -parts->first : parts->first;
}

std::optional<long long> parse_integer(std::string_view s) {
    s = trim(s);
    long long v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<engine::Problem> integer_problem(std::string_view key, std::string_view text,
                                               long long lo, long long hi, long long& out) {
    const std::string typed(text);
    const auto refused = [&](Refusal r) {
        return refusal(r, {name_arg("name", std::string(key)), name_arg("value", typed)});
    };
    const auto out_of_range = [&](bool number) {
        return refusal(Refusal::out_of_bounds,
                       {name_arg("name", std::string(key)), number_arg("lo", std::to_string(lo)),
                        number_arg("hi", std::to_string(hi)),
                        number ? number_arg("value", typed) : name_arg("value", typed)});
    };
    auto v = parse_integer(text);
    if (v && *v >= lo && *v <= hi) {
        out = *v;
        return std::nullopt;
    }
    if (v) return out_of_range(true);
    auto number = split_number(text);
    if (!number || !number->second.empty()) return refused(Refusal::not_a_number);
    if (std::floor(number->first) != number->first) return refused(Refusal::not_whole);
    return out_of_range(false);  // whole, but too large for any integer type
}

std::optional<std::string> integer_in_range(std::string_view key, std::string_view text,
                                            long long lo, long long hi, long long& out) {
    return engine::english(integer_problem(key, text, lo, hi, out));
}

std::optional<FrameSize> parse_frame_size(std::string_view s) {
    s = trim(s);
    auto x = s.find('x');
    if (x == std::string_view::npos) return std::nullopt;
    auto w = parse_integer(s.substr(0, x)), h = parse_integer(s.substr(x + 1));
    if (!w || !h || *w <= 0 || *h <= 0 || *w > 1'000'000 || *h > 1'000'000) return std::nullopt;
    return FrameSize{static_cast<int>(*w), static_cast<int>(*h)};
}

std::string quantity_pattern(Quantity q) {
    std::vector<std::string_view> units;
    std::string suffix;
    switch (q) {
        case Quantity::size:
            add_names(units, kSizeUnits);
            break;
        case Quantity::bandwidth:
            add_names(units, kSizeUnits);
            add_names(units, kBitUnits);
            suffix = "/s";
            break;
        case Quantity::time:
            units.assign(std::begin(kTimeUnits), std::end(kTimeUnits));
            break;
        case Quantity::count:
            add_names(units, kCountUnits);
            break;
        case Quantity::level:
            units.assign(std::begin(kLevelUnits), std::end(kLevelUnits));
            break;
    }
    // A number as std::from_chars reads it, unsigned (negatives are refused but for levels),
    // then the unit.
    const std::string sign = q == Quantity::level ? "-?" : "";
    const std::string number = "([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?";
    return "^[ \\t]*" + sign + number + "[ \\t]*" + alternatives(units) + suffix + "[ \\t]*$";
}

engine::Problem unit_problem(std::string_view text, Quantity q) {
    constexpr Refusal kRefusals[] = {Refusal::unit_size, Refusal::unit_bandwidth,
                                     Refusal::unit_time, Refusal::unit_count, Refusal::unit_level};
    return refusal(kRefusals[int(q)], {name_arg("value", std::string(text))});
}

std::string unit_error(std::string_view text, Quantity q) {
    return engine::english(unit_problem(text, q));
}

std::string format_seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%gs", s);
    return buf;
}

std::string format_moment(double s) { return format_seconds(std::round(s * 1000) / 1000); }

}  // namespace story
