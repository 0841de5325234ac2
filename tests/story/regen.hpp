// Files written from the code they describe (docs tables, the fuzz dictionary): a test compares
// the committed file with what the code gives, and SHARDREEL_REGEN_DOCS=1 rewrites it instead:
// `SHARDREEL_REGEN_DOCS=1 build/test_story '[docs]'` and `... build/test_render '[docs]'`.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/catch.hpp"
#include "tests/story/expectations.hpp"

namespace regen {

using story_test::slurp;  // the committed file read whole

inline bool regenerating() { return std::getenv("SHARDREEL_REGEN_DOCS") != nullptr; }

// text with the block that starts at `head` (up to the first line not starting with '|', or
// with `end` when given: up to and including the first line that is `end`) replaced by block.
inline std::string with_block(const std::string& text, const std::string& head,
                              const std::string& block, const std::string& end = "") {
    const auto start = text.find(head);
    REQUIRE(start != std::string::npos);
    auto stop = start;
    if (end.empty()) {
        while (stop < text.size() && text[stop] == '|') stop = text.find('\n', stop) + 1;
    } else {
        stop = text.find("\n" + end + "\n", start);
        REQUIRE(stop != std::string::npos);
        stop += end.size() + 2;
    }
    return text.substr(0, start) + block + text.substr(stop);
}

// Writes expected to path when regenerating; otherwise checks that path holds it.
inline void check_or_write(const std::filesystem::path& path, const std::string& expected,
                           const std::string& tag) {
    if (regenerating()) {
        std::ofstream(path, std::ios::binary) << expected;
        return;
    }
    INFO(path.string() << " differs from what the code gives; rewrite it with "
                          "SHARDREEL_REGEN_DOCS=1 build/test_"
                       << tag << " '[docs]'");
    CHECK(slurp(path) == expected);
}

}  // namespace regen
