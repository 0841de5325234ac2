// Output read line by line, so a test names the whole line it expects rather than a fragment
// that could sit anywhere (the story tests' text and, through tests/render/cli.hpp, the CLI's).
#pragma once
#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace story_test {

// text's lines without their '\n' (a last unterminated line counts).
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// Whether one of text's lines is exactly `line`.
inline bool has_line(const std::string& text, const std::string& line) {
    return std::ranges::count(lines_of(text), line) > 0;
}

// The line after the first that is exactly `line` (a cue's text after its timing), or a note.
inline std::string line_after(const std::string& text, const std::string& line) {
    const std::vector<std::string> lines = lines_of(text);
    const auto at = std::ranges::find(lines, line);
    if (at == lines.end()) return "(no line \"" + line + "\")";
    return at + 1 == lines.end() ? "(nothing after \"" + line + "\")" : *(at + 1);
}

// text's lines that `pattern` matches whole.
inline std::vector<std::string> lines_matching(const std::string& text,
                                               const std::string& pattern) {
    const std::regex re(pattern);
    std::vector<std::string> out;
    for (const std::string& line : lines_of(text))
        if (std::regex_match(line, re)) out.push_back(line);
    return out;
}

}  // namespace story_test
