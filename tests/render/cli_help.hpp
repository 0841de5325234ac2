// What the built binary's --help says: its commands, and each command's options by name.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace render_test {

// The commands `shardreel --help` lists, in its order.
std::vector<std::string> help_commands();

// The options `shardreel COMMAND --help` lists: each name (-q and --quiet alike) with its help.
std::map<std::string, std::string> help_options(const std::string& command);

}  // namespace render_test
