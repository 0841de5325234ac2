// Collecting and printing user errors, and the "did you mean" suggestion for misspelt names.
#include "story/storyboard/diagnostics.hpp"

#include <algorithm>
#include <tuple>

#include "story/storyboard/problems.hpp"

namespace story {

std::string Diagnostic::format() const {
    std::string out = file;
    // Appending piecewise: GCC 12 warns falsely (-Wrestrict) on ":" + std::to_string(n).
    for (int n : {pos.line, pos.line > 0 ? pos.col : 0}) {
        if (n <= 0) break;
        out += ':';
        out += std::to_string(n);
    }
    return out + (severity == Severity::warning ? ": warning: " : ": error: ") + message;
}

void Diagnostics::error(std::string file, SourcePos pos, std::string message) {
    list_.push_back(Diagnostic{std::move(file), pos, std::move(message)});
}

void Diagnostics::append(const Diagnostics& other) {
    list_.insert(list_.end(), other.list_.begin(), other.list_.end());
}

namespace {

std::string format_sorted(std::vector<Diagnostic> list) {
    // Stable: two errors at one position keep the order they were found in.
    std::stable_sort(list.begin(), list.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.file, a.pos.line, a.pos.col) < std::tie(b.file, b.pos.line, b.pos.col);
    });
    std::string out;
    for (const Diagnostic& d : list) out += d.format() + "\n";
    return out;
}

}  // namespace

std::string Diagnostics::format() const { return format_sorted(list_); }

std::string format_diagnostics(const Diagnostics& errors, const std::vector<Diagnostic>& warnings) {
    std::vector<Diagnostic> all = errors.list();
    all.insert(all.end(), warnings.begin(), warnings.end());
    return format_sorted(std::move(all));
}

namespace {

// Optimal string alignment distance: a swap of neighbours ("titel") counts as one edit.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
    // Up to a third of the word may differ: catches typos without suggesting unrelated names.
    std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
    std::string best;
    for (const std::string& c : candidates) {
        std::size_t d = edit_distance(word, c);
        if (d < best_distance) best_distance = d, best = c;
    }
    return best;
}

engine::Problem unknown_name_problem(const std::string& what, const std::string& value,
                                     const std::vector<std::string>& options) {
    std::vector<engine::ProblemArg> args{name_arg("what", what), name_arg("value", value)};
    if (std::string hint = closest_match(value, options); !hint.empty()) {
        args.push_back(name_arg("hint", std::move(hint)));
        return refusal(Refusal::unknown_hint, std::move(args));
    }
    if (options.size() < 2) {
        args.push_back(name_arg("options", or_list(options)));
        return refusal(Refusal::unknown_expected_one, std::move(args));
    }
    // "a, b or c": the list but its last ("a, b"), then the template's "or" and the last.
    args.push_back(name_arg("options", comma_list({options.begin(), options.end() - 1})));
    args.push_back(name_arg("last", options.back()));
    return refusal(Refusal::unknown_expected, std::move(args));
}

std::string unknown_name(const std::string& what, const std::string& value,
                         const std::vector<std::string>& options) {
    return engine::english(unknown_name_problem(what, value, options));
}

std::string comma_list(const std::vector<std::string>& options) {
    std::string out;
    for (std::size_t i = 0; i < options.size(); ++i) out += (i > 0 ? ", " : "") + options[i];
    return out;
}

std::string or_list(const std::vector<std::string>& options) {
    if (options.size() < 2) return comma_list(options);
    return comma_list({options.begin(), options.end() - 1}) + " or " + options.back();
}

}  // namespace story
