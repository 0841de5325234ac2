// Reading the binary's --help; see cli_help.hpp.
#include "tests/render/cli_help.hpp"

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace render_test {

namespace {

// The lines of `shardreel ARGS --help` under the heading `section` ("Options:"), up to the blank
// line that ends it.
std::vector<std::string> section_lines(const std::string& args, const std::string& section) {
    const CliRun run = run_cli(args + " --help");
    REQUIRE(run.exit_code == 0);
    std::vector<std::string> out;
    bool inside = false;
    for (const std::string& line : lines_of(run.out)) {
        if (line == section) {
            inside = true;
        } else if (inside) {
            if (line.empty()) break;
            out.push_back(line);
        }
    }
    return out;
}

// "  -q,--quiet                  No progress": the first word, and the text after the gap that
// follows the word and its value's type (empty when CLI11 put the help on the next line, as it
// does when the names and "Excludes: ..." fill the column).
std::pair<std::string, std::string> name_and_help(const std::string& line) {
    const std::size_t start = line.find_first_not_of(' ');
    const std::size_t end = line.find(' ', start);
    const std::size_t gap = line.find("  ", end);
    const std::size_t help = gap == std::string::npos ? gap : line.find_first_not_of(' ', gap);
    return {line.substr(start, end - start), help == std::string::npos ? "" : line.substr(help)};
}

}  // namespace

std::vector<std::string> help_commands() {
    std::vector<std::string> out;
    for (const std::string& line : section_lines("", "Subcommands:"))
        out.push_back(name_and_help(line).first);
    return out;
}

std::map<std::string, std::string> help_options(const std::string& command) {
    std::map<std::string, std::string> out;
    std::vector<std::string> names;  // of the option being read
    for (const std::string& line : section_lines(command, "Options:")) {
        if (!line.starts_with("  -")) {  // a help CLI11 put on a line of its own
            for (const std::string& name : names)
                out[name] += line.substr(line.find_first_not_of(' '));
            continue;
        }
        const auto [words, help] = name_and_help(line);
        names.clear();
        std::size_t start = 0;
        while (start <= words.size()) {
            const std::size_t comma = std::min(words.find(',', start), words.size());
            names.push_back(words.substr(start, comma - start));
            out[names.back()] = help;
            start = comma + 1;
        }
    }
    return out;
}

}  // namespace render_test
