// Catch2's entry point (version 2 or 3, tests/catch.hpp) shared by every test executable, and
// test_support::skip: a run in which a test skipped and none failed exits 77, so ctest says
// Skipped rather than Passed.
#if SHARDREEL_CATCH2_V3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif
#include <iostream>

#include "tests/skip.hpp"

namespace test_support {

namespace {
bool g_skipped = false;
}

void skip(const std::string& reason) {
    std::cout << "SKIPPED: " << reason << std::endl;
    g_skipped = true;
}

bool skipped() { return g_skipped; }

}  // namespace test_support

int main(int argc, char** argv) {
    const int failed = Catch::Session().run(argc, argv);
    // Catch returns the failure count, which must never read as the skip code.
    if (failed != 0) return failed == test_support::kSkipExitCode ? 1 : failed;
    return test_support::skipped() ? test_support::kSkipExitCode : 0;
}
