// Catch2 2 or 3, whichever tests/CMakeLists.txt found (it defines CUNP_CATCH2_MAJOR): the one
// place that knows the difference. Debian 12 and Ubuntu 22.04 package Catch2 2, Debian 13 and
// Ubuntu 24.04 Catch2 3. Tests may use either version's spelling of what they use: Approx and
// Catch::Approx, the string matchers Contains (Catch::, Catch::Matchers::) and ContainsSubstring,
// StartsWith; the test, template-test and session macros and classes are the same in both.
#pragma once

#ifndef CUNP_CATCH2_MAJOR
#if __has_include(<catch2/catch_test_macros.hpp>)
#define CUNP_CATCH2_MAJOR 3
#else
#define CUNP_CATCH2_MAJOR 2
#endif
#endif

#if CUNP_CATCH2_MAJOR >= 3
// Not catch_all.hpp: its matchers/catch_matchers_contains.hpp declares the range matcher
// Catch::Matchers::Contains(T&&), which would win over the string overload below for a literal.
#include <catch2/catch_approx.hpp>
#include <catch2/catch_session.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <string>

namespace Catch {
namespace Matchers {
// Catch2 3 renamed Catch2 2's substring matcher.
inline StringContainsMatcher Contains(const std::string& s,
                                      CaseSensitive cs = CaseSensitive::Yes) {
  return ContainsSubstring(s, cs);
}
}  // namespace Matchers
// Catch2 2 also put its matchers into namespace Catch.
using Matchers::Contains;
using Matchers::StartsWith;
}  // namespace Catch

using Catch::Approx;  // Catch2 2 declares Approx in the global namespace too
#else
#include <catch2/catch.hpp>
#include <string>

namespace Catch::Matchers {
// Catch2 3's name for the substring matcher.
inline StdString::ContainsMatcher ContainsSubstring(
    const std::string& s, CaseSensitive::Choice cs = CaseSensitive::Yes) {
  return Contains(s, cs);
}
}  // namespace Catch::Matchers

namespace Catch {
using Detail::Approx;  // Catch2 3's Catch::Approx
}  // namespace Catch
#endif
