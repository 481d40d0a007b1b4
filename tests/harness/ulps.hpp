// Comparisons with NumPy's results in units of the result type's epsilon (ulps): the tolerance
// of a number of units, and a non-fatal element-by-element comparison that reports a case's first
// mismatch by name (the ufunc tests' way to check thousands of golden cases).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cunp_test.hpp"

namespace cunp_test {

/// The relative tolerance of `ulps` units for results of type T (one unit for 16-bit floats),
/// and the absolute one that gives subnormal results the same number of units.
template <class T>
std::pair<double, double> tolerance_of(int ulps) {
  using P = typename cunp::detail::complex_parts<T>::type;
  if (ulps == 0) return {0, 0};
  if constexpr (std::is_same_v<P, cunp::float16>)
    return {0x1p-10, 0x1p-24};
  else if constexpr (std::is_same_v<P, cunp::bfloat16>)
    return {0x1p-7, 0x1p-133};
  else if constexpr (std::is_floating_point_v<P>)
    return {ulps * double(std::numeric_limits<P>::epsilon()),
            ulps * double(std::numeric_limits<P>::denorm_min())};
  else
    return {0, 0};
}

inline bool close_part(double got, double want, double tol, bool zero_sign) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || std::isnan(got) || std::isinf(got)) return got == want;
  if (want == 0 && got == 0 && zero_sign) return std::signbit(got) == std::signbit(want);
  return std::abs(got - want) <= tol;
}

/// Non-fatal comparison with NumPy's result, reporting a case's first mismatch by its name
/// (zero_sign: +0 and -0 differ; scale: a per-element factor on the tolerance).
template <class T>
void compare(const std::string& name, const ndarray<T>& actual, const ndarray<T>& expected,
             int ulps, bool zero_sign = true, const std::vector<double>* scale = nullptr) {
  if (cunp::shape_str(actual.shape()) != cunp::shape_str(expected.shape())) {
    FAIL_CHECK(name << ": shape " << cunp::shape_str(actual.shape()) << ", NumPy "
                    << cunp::shape_str(expected.shape()));
    return;
  }
  const auto got = actual.to_vector(), want = expected.to_vector();
  const auto [rtol, atol] = tolerance_of<T>(ulps);
  for (std::size_t i = 0; i < got.size(); ++i) {
    bool ok;
    if constexpr (std::is_integral_v<T>) {
      ok = got[i] == want[i];
    } else {
      const auto g = as_complex(got[i]), w = as_complex(want[i]);
      const double mag = std::isfinite(std::abs(w)) ? std::abs(w) : 0;
      const double k = scale ? (*scale)[i] : 1;
      const auto tol = [&](double part) { return k * (atol + rtol * std::max(std::abs(part), mag)); };
      ok = close_part(g.real(), w.real(), tol(w.real()), zero_sign) &&
           close_part(g.imag(), w.imag(), tol(w.imag()), zero_sign);
    }
    if (!ok) {
      FAIL_CHECK(name << " [" << cunp::dtype_name_v<T> << "] element " << i << ": got "
                      << as_complex(got[i]) << ", NumPy " << as_complex(want[i]));
      return;
    }
  }
}

}  // namespace cunp_test
