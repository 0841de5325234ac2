// Skipping a test that cannot run on this machine, loudly: the run exits kSkipExitCode (when
// nothing failed), which ctest's SKIP_RETURN_CODE reports as "Skipped" instead of "Passed".
#pragma once
#include <string>

namespace test_support {

inline constexpr int kSkipExitCode = 77;

// Prints "SKIPPED: reason" and makes the run exit kSkipExitCode; the caller returns at once.
void skip(const std::string& reason);
bool skipped();

}  // namespace test_support
