// Golden archives: a test reads NumPy's results from one .npz per case set, checks each member
// (or the cunp error that stands for the exception NumPy raised) and requires that it checked
// every member, so the generator and the test cover the same table.
#pragma once
#include <complex>
#include <set>
#include <string>

#include "cunp_test.hpp"

namespace cunp_test {

/// The unit roundoff of R's real type (0 for integers and bool: exact comparison).
template <class R> constexpr double eps() {
  using P = typename cunp::detail::complex_parts<R>::type;
  if constexpr (std::is_same_v<P, cunp::float16>) return 0x1p-11;
  else if constexpr (std::is_same_v<P, cunp::bfloat16>) return 0x1p-8;
  else if constexpr (std::is_same_v<P, float>) return 0x1p-24;
  else if constexpr (std::is_same_v<P, double>) return 0x1p-53;
  else return 0;
}

inline bool is_nan_class(std::complex<double> v) { return std::isnan(v.real()) || std::isnan(v.imag()); }

/// Shape and elements within rtol (NaN matches NaN, inf the same inf). A complex NaN (a NaN in
/// either part, NumPy's isnan) matches any complex NaN: with several in a slice, max may return
/// another one than NumPy's first.
template <class T>
void require_near(const ndarray<T>& got, const ndarray<T>& want, double rtol, double atol = 0) {
  INFO("dtype " << cunp::dtype_name_v<T>);
  REQUIRE(cunp::shape_str(got.shape()) == cunp::shape_str(want.shape()));
  const auto g = got.to(cunp::cpu).to_vector(), w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto x = as_complex(g[i]), y = as_complex(w[i]);
    if (cunp::is_complex_v<T> && is_nan_class(y) && is_nan_class(x)) continue;
    if (!close(x.real(), y.real(), rtol, atol) || !close(x.imag(), y.imag(), rtol, atol))
      FAIL("element " << i << ": got " << x << ", NumPy " << y << " (rtol " << rtol << ")");
  }
}

/// Requires f() to throw the cunp error that stands for NumPy's "Type: message". Not a template:
/// every call site shares one copy of the catch clauses and their assertions (compile time).
inline void require_numpy_error(fn_ref<void()> f, const std::string& numpy) {
  const auto colon = numpy.find(": ");
  const std::string type = numpy.substr(0, colon), text = numpy.substr(colon + 2);
  const auto expect = [&](bool type_matches, const std::exception& e) {
    CHECK(type_matches);
    CHECK(std::string(e.what()) == text);
  };
  try {
    f();
  } catch (const cunp::shape_error& e) {  // cunp's error for axes and for shapes
    return expect(type == "AxisError" || type == "ValueError", e);
  } catch (const cunp::index_error& e) {  // before value_error, its base
    return expect(type == "IndexError", e);
  } catch (const cunp::value_error& e) {
    return expect(type == "ValueError" || type == "OverflowError", e);
  } catch (const cunp::dtype_error& e) {
    return expect(type == "TypeError", e);
  } catch (const cunp::linalg_error& e) {
    return expect(type == "LinAlgError", e);
  }
  FAIL("no exception; NumPy raised " << numpy);
}

/// One golden archive: its inputs, and checks that record which members they consumed.
class archive {
 public:
  explicit archive(const std::string& name)
      : z_(cunp::load_npz(golden_dir() / (name + ".npz"), cunp::cpu)),
        names_(z_.names().begin(), z_.names().end()) {}

  [[nodiscard]] bool contains(const std::string& name) const { return names_.count(name) == 1; }
  template <class T> ndarray<T> get(const std::string& name) {
    used_.insert(name);
    return z_.get<T>(name);
  }

  /// f()'s result against member `name` within `ulps` rounding units of the result's type; or
  /// NumPy's error when it raised. The member's dtype must be the result's (get throws
  /// dtype_error naming both otherwise).
  template <class F> void check(const std::string& name, F&& f, double ulps) {
    using Got = std::remove_cvref_t<decltype(f())>;
    check_result<Got>(name, f, ulps);
  }

  /// Every member was read: the generator and this test cover the same table.
  void require_all_used() const {
    for (const auto& n : z_.names()) {
      INFO("golden member " << n << " was not checked");
      CHECK(used_.count(n) == 1);
    }
  }

 private:
  // check's body, one copy per result type rather than one per call site (compile time).
  template <class Got>
  void check_result(const std::string& name, fn_ref<Got()> f, double ulps) {
    INFO(name);
    if (contains(name + "__error")) {
      const auto bytes = get<std::uint8_t>(name + "__error").to_vector();
      require_numpy_error([&] { (void)f(); }, std::string(bytes.begin(), bytes.end()));
      return;
    }
    const auto got = f();
    using R = typename Got::value_type;
    require_near<R>(got, get<R>(name), ulps * eps<R>());
  }

  cunp::npz_file z_;
  std::set<std::string> names_, used_;
};

}  // namespace cunp_test
