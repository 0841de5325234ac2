// The "# expect: LINE:COL: MESSAGE" header that opens each broken storyboard under
// tests/storyboards/, read back as the diagnostics the loader must print for that file; and the
// storyboards' text read whole.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace story_test {

inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

// "# expect: 6:7: message" lines at the top of a file's text, formatted as the loader prints
// them for `file`: "file:6:7: error: message\n" ("# expect: 6:7: warning: message" for a
// warning). A lone "# expect: ok" means none.
inline std::string expected_diagnostics(const std::string& text, const std::string& file) {
    const std::string prefix = "# expect: ";
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line) && line.starts_with(prefix)) {
        const std::string rest = line.substr(prefix.size());
        if (rest == "ok") continue;
        const std::size_t message_at = rest.find(": ");
        const std::string message = rest.substr(message_at + 2);
        out += file + ":" + rest.substr(0, message_at) +
               (message.starts_with("warning: ") ? ": " : ": error: ") + message + "\n";
    }
    return out;
}

}  // namespace story_test
