// Catch2 for every test: version 2's single header (Debian 12) or version 3's headers (Debian 13),
// which CMake chooses by the version it finds (SHARDREEL_CATCH2_V3). Version 3 moved Approx and
// the string matchers into namespaces and renamed Contains; the names the tests use are given
// back here, so each test reads the same under both.
#pragma once

#if SHARDREEL_CATCH2_V3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/catch_tostring.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_exception.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <string>

using Catch::Approx;

namespace Catch {

inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive cs = CaseSensitive::Yes) {
    return Matchers::ContainsSubstring(text, cs);
}
using Matchers::StartsWith;

}  // namespace Catch
#else
#include <catch2/catch.hpp>
#endif
