// What fuzz_flags does with its bytes, shared with its regression test: one argument a line,
// the first naming the command (`numbers` or `plan`), parsed by CLI11 with the flags those
// commands register (render/cli/config_flags, over render/inputs/config_values, which the
// calculator module shares) and run as main() runs them, their output thrown away.
#pragma once
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "render/cli/commands.hpp"
#include "render/sys/error.hpp"

namespace fuzz {

// The arguments, one a line; an empty list when one could name a file outside the directory the
// target runs in (`numbers STORYBOARD` reads it), so it reads nothing it was not given.
inline std::vector<std::string> flag_arguments(const std::string& text) {
    std::vector<std::string> args;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with('/') || line.starts_with('~') || line.find("..") != line.npos)
            return {};
        args.push_back(line);
    }
    return args;
}

// The exit code main() would return for these arguments (the command first).
inline int run_flags(std::vector<std::string> args) {
    CLI::App app{"fuzz"};
    app.require_subcommand(1);
    int exit_code = 0;
    render::add_numbers_command(app, exit_code);
    render::add_plan_command(app, exit_code);
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    std::ostringstream out, err;
    std::streambuf* const was_out = std::cout.rdbuf(out.rdbuf());
    std::streambuf* const was_err = std::cerr.rdbuf(err.rdbuf());
    try {
        app.parse(args);
    } catch (const CLI::ParseError&) {
        exit_code = 2;
    } catch (const render::SystemError&) {
        exit_code = 1;
    }
    std::cout.rdbuf(was_out);
    std::cerr.rdbuf(was_err);
    return exit_code;
}

}  // namespace fuzz
