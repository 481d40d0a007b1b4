// The test harness: run one test body on every backend present, compare GPU results with the cpu
// backend under per-dtype tolerances, and compare the cpu backend with NumPy's golden outputs.
#pragma once
#include <cmath>
#include <complex>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "catch.hpp"
#include "cunp/cunp.hpp"
#include "fn_ref.hpp"
#include "parts.hpp"

namespace cunp_test {

using cunp::index_t;
using cunp::ndarray;
using cunp::shape_t;

/// The next number of the splitmix64 sequence whose state is s: deterministic test data.
inline std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The backends of this build: cpu, plus cuda(0) when compiled by nvcc and a GPU is present.
inline std::vector<cunp::device> backends() {
  std::vector<cunp::device> out{cunp::cpu};
  if (CUNP_HAS_CUDA && cunp::cuda_available()) out.push_back(cunp::cuda(0));
  return out;
}

/// Comparison tolerances per element type: exact for integers and bool.
/// NumPy's name of T's dtype ("float32"), as golden data names its cases.
template <class T> std::string dname() { return std::string(cunp::dtype_name_v<T>); }

template <class T> struct tolerance { static constexpr double rtol = 0, atol = 0; };
template <> struct tolerance<cunp::float16> { static constexpr double rtol = 1e-3, atol = 0; };
template <> struct tolerance<cunp::bfloat16> { static constexpr double rtol = 1e-2, atol = 0; };
template <> struct tolerance<float> { static constexpr double rtol = 1e-6, atol = 0; };
template <> struct tolerance<double> { static constexpr double rtol = 1e-13, atol = 0; };
template <> struct tolerance<std::complex<float>> : tolerance<float> {};
template <> struct tolerance<std::complex<double>> : tolerance<double> {};

template <class T> std::complex<double> as_complex(const T& v) {
  return cunp::detail::convert<std::complex<double>>(v);
}

inline bool close(double a, double b, double rtol, double atol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= atol + rtol * std::abs(b);
}

/// Requires equal shapes and elements within atol + rtol * |expected| (NaN matches NaN, inf
/// matches the same inf). Reports the first mismatching element by flat index.
template <class T>
void require_close(const ndarray<T>& actual, const ndarray<T>& expected,
                   double rtol = tolerance<T>::rtol, double atol = tolerance<T>::atol) {
  INFO("dtype " << cunp::dtype_name_v<T>);
  REQUIRE(cunp::shape_str(actual.shape()) == cunp::shape_str(expected.shape()));
  const auto a = actual.to_vector(), e = expected.to_vector();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto x = as_complex(a[i]), y = as_complex(e[i]);
    if (!close(x.real(), y.real(), rtol, atol) || !close(x.imag(), y.imag(), rtol, atol)) {
      std::ostringstream msg;
      msg << "element " << i << ": got " << x << ", expected " << y << " (rtol " << rtol
          << ", atol " << atol << ")";
      FAIL(msg.str());
    }
  }
}
/// Exact equality of shape and elements (NaN matches NaN).
template <class T> void require_equal(const ndarray<T>& actual, const ndarray<T>& expected) {
  require_close(actual, expected, 0, 0);
}
/// Requires `actual` to hold `values` (C order) in `shape`.
template <class T>
void require_values(const ndarray<T>& actual, const std::vector<T>& values, const shape_t& shape) {
  require_equal(actual.to(cunp::cpu), cunp::asarray(values, shape, cunp::cpu));
}

/// Runs body(dev) once per backend, each in its own Catch2 section named after the device. Call
/// it once per test case: every call's sections have the same names and place, so Catch2 would
/// enter only the first call's (a helper that runs several times a test case loops over
/// backends() itself).
template <class F> void on_every_backend(F&& body) {
  for (const cunp::device dev : backends()) {
    DYNAMIC_SECTION("on " << dev.str()) { body(dev); }
  }
}

/// The element type of array type A (of `decltype(expression)`, cv and & removed).
template <class A> using value_of = typename std::remove_cvref_t<A>::value_type;

/// Runs make(dev) on every backend and requires every GPU result to be on its device and to
/// match the cpu backend's result under the dtype's tolerances (or rtol/atol when given: CUDA's
/// float transcendental functions are within 2 ulp, glibc's within 1). Returns the cpu result.
template <class T>
ndarray<T> same_on_every_backend_as(fn_ref<ndarray<T>(cunp::device)> make,
                                    double rtol, double atol) {
  const auto ref = make(cunp::cpu);
  REQUIRE(ref.device() == cunp::cpu);
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    INFO("backend " << dev.str() << " against cpu");
    const auto got = make(dev);
    REQUIRE(got.device() == dev);
    if (rtol < 0) require_close<T>(got.to(cunp::cpu), ref);
    else require_close<T>(got.to(cunp::cpu), ref, rtol, atol);
  }
  return ref;
}
// The body above is one copy per dtype, not one per call site (compile time).
template <class F> auto same_on_every_backend(F&& make, double rtol = -1, double atol = 0) {
  using T = value_of<decltype(make(cunp::cpu))>;
  return same_on_every_backend_as<T>([&](cunp::device dev) -> ndarray<T> { return make(dev); },
                                     rtol, atol);
}

/// Where the golden-data script wrote NumPy's outputs (ctest sets CUNP_GOLDEN_DIR).
inline std::filesystem::path golden_dir() {
  const char* d = std::getenv("CUNP_GOLDEN_DIR");
  REQUIRE(d != nullptr);
  return d;
}
/// NumPy's array `name` (golden/<name>.npy), on the cpu.
template <class T> ndarray<T> golden(const std::string& name) {
  return cunp::load<T>((golden_dir() / (name + ".npy")).string(), cunp::cpu);
}

}  // namespace cunp_test
