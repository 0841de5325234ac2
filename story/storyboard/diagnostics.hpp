// Compiler-style user errors: collected, then printed all at once as file:line:col: error: msg.
#pragma once
#include <string>
#include <vector>

#include "engine/problem.hpp"

namespace story {

struct SourcePos {
    int line = 0, col = 0;  // 1-based; 0 when unknown
    bool operator==(const SourcePos&) const = default;
};

enum class Severity { error, warning };

struct Diagnostic {
    std::string file;
    SourcePos pos;
    std::string message;  // without the "error: " prefix
    Severity severity = Severity::error;
    std::string format() const;  // "file:line:col: error: message" (or "warning:")
    bool operator==(const Diagnostic&) const = default;
};

class Diagnostics {
  public:
    void error(std::string file, SourcePos pos, std::string message);
    bool empty() const { return list_.empty(); }
    const std::vector<Diagnostic>& list() const { return list_; }
    void append(const Diagnostics& other);
    std::string format() const;  // one line per diagnostic, sorted by file, line, col

  private:
    std::vector<Diagnostic> list_;
};

// Errors and warnings together, one line each, sorted by file, line, col (as a compiler prints).
std::string format_diagnostics(const Diagnostics& errors, const std::vector<Diagnostic>& warnings);

// "did you mean 'x'?" helper: closest candidate within a small edit distance, or "".
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// "unknown gpu 'h100' (did you mean 'h200'?)", or when nothing is close,
// "unknown recompute 'some' (expected none, selective or full)".
std::string unknown_name(const std::string& what, const std::string& value,
                         const std::vector<std::string>& options);
// The same as a template and its arguments (story/storyboard/problems.hpp).
engine::Problem unknown_name_problem(const std::string& what, const std::string& value,
                                     const std::vector<std::string>& options);
// "a, b or c"
std::string or_list(const std::vector<std::string>& options);
// "a, b, c"
std::string comma_list(const std::vector<std::string>& options);

}  // namespace story
