// cunp/testing.hpp: numpy.testing's assert_allclose and assert_array_equal.
//
// Both throw cunp::assertion_error with the report that NumPy 2 writes (mismatch count, the first
// mismatching indices, the largest absolute and relative differences among the violations, and
// the arrays as repr() prints them with 6 digits). The check runs as one pass on the arrays'
// device; only a failure brings them to the host to write the report.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/checking.hpp"
#include "cunp/print.hpp"

namespace cunp {

namespace detail {

/// printf's %.Ng, which is Python's format(x, '.Ng').
inline std::string format_g(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

/// Python's repr() of a float (keep_point: "3.0") or of a complex's part ("3"): the shortest
/// digits that read back, positional from 1e-4 up to 1e16, scientific elsewhere.
inline std::string python_float_repr(double v, bool keep_point) {
  const float_parts p = decompose(v);
  if (p.nan) return "nan";
  if (p.inf) return p.negative ? "-inf" : "inf";
  const double a = std::fabs(v);
  if (a == 0 || (a >= 1e-4 && a < 1e16)) {
    std::string s = format_positional(p, -1, -1, false, -1, -1);
    if (s.back() == '.') {
      if (keep_point)
        s += '0';
      else
        s.pop_back();
    }
    return s;
  }
  std::string s = format_scientific(p, -1, -1, true, false, -1, -1);
  const std::size_t e = s.find('e');
  if (e > 0 && s[e - 1] == '.') s.erase(e - 1, 1);
  return s;
}

/// How numpy.testing's mismatch lines show an element: f"{x}" of a NumPy scalar, which formats
/// the Python int, float or complex it converts to (float32 1e-5 shows as 9.999999747378752e-06).
template <class T>
std::string testing_value_str(const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "True" : "False";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else if constexpr (is_complex_v<T>) {
    const double re = v.real(), im = v.imag();
    const std::string i = python_float_repr(im, false);
    if (re == 0 && !sign_bit(re)) return i + "j";
    return "(" + python_float_repr(re, false) + (i[0] == '-' ? "" : "+") + i + "j)";
  } else {
    return python_float_repr(static_cast<double>(v), true);
  }
}

template <class T>
bool host_isnan(const T& v) {
  const auto c = convert<std::complex<double>>(v);
  return std::isnan(c.real()) || std::isnan(c.imag());
}
template <class T>
bool host_isinf(const T& v) {
  const auto c = convert<std::complex<double>>(v);
  return std::isinf(c.real()) || std::isinf(c.imag());
}

/// abs(v) in v's dtype: integers wrap as NumPy's (abs(int8(-128)) is -128), complex gives the
/// modulus in the real dtype, half types round through float.
template <class T>
auto abs_value(const T& v) {
  if constexpr (is_complex_v<T>) {
    return real_hypot(v.real(), v.imag());
  } else if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
    return v;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return v < 0 ? static_cast<T>(static_cast<U>(0) - static_cast<U>(v)) : v;
  } else {
    return T(std::fabs(static_cast<double>(v)));
  }
}

/// abs(x - y) in P, NumPy's way: integers wrap; for unsigned integers the smaller of the two
/// wrapped differences (numpy.testing takes min(abs(x - y), abs(y - x))).
template <class P>
auto abs_difference(const P& x, const P& y) {
  if constexpr (std::is_unsigned_v<P>) {
    return std::min(static_cast<P>(x - y), static_cast<P>(y - x));
  } else if constexpr (std::is_integral_v<P>) {
    using U = std::make_unsigned_t<P>;
    return abs_value(static_cast<P>(static_cast<U>(x) - static_cast<U>(y)));
  } else if constexpr (std::is_same_v<P, float16> || std::is_same_v<P, bfloat16>) {
    return abs_value(P(static_cast<float>(x) - static_cast<float>(y)));
  } else {
    return abs_value(P(x - y));
  }
}

/// np.max over values with NaN propagating.
template <class T>
void keep_max(std::optional<T>& m, const T& v) {
  if (!m) {
    m = v;
  } else if constexpr (std::is_integral_v<T>) {
    if (*m < v) m = v;
  } else if (!std::isnan(static_cast<double>(*m)) &&
             (std::isnan(static_cast<double>(v)) ||
              static_cast<double>(*m) < static_cast<double>(v))) {
    m = v;
  }
}

/// numpy.testing's build_err_msg: the header, the message, and both arrays' repr() with 6 digits,
/// each cut to its first three lines.
template <class X, class Y>
std::string build_err_msg(const ndarray<X>& x, const ndarray<Y>& y, const std::string& err_msg,
                          const std::string& header) {
  std::string msg = "\n" + header;
  if (!err_msg.empty()) {
    if (err_msg.find('\n') == std::string::npos && err_msg.size() + header.size() < 79)
      msg += " " + err_msg;
    else
      msg += "\n" + err_msg;
  }
  const auto add = [&](const char* name, std::string r) {
    if (std::count(r.begin(), r.end(), '\n') > 3) {
      std::size_t cut = 0;
      for (int line = 0; line < 3; ++line) cut = r.find('\n', cut) + 1;
      r = r.substr(0, cut - 1) + "...";
    }
    msg += std::string("\n ") + name + ": " + r;
  };
  add("ACTUAL", array_repr(x, 6));
  add("DESIRED", array_repr(y, 6));
  return msg;
}

/// numpy.testing's assert_array_compare on the host. compare() gives the element-wise verdicts
/// of ox and oy broadcast together (C order).
template <class X, class Y, class Compare>
void assert_array_compare(const ndarray<X>& ox, const ndarray<Y>& oy, Compare&& compare,
                          const std::string& err_msg, const std::string& header, bool equal_nan) {
  const auto fail = [&](const std::string& what, const auto& x, const auto& y) {
    throw assertion_error(build_err_msg(x, y, err_msg + what, header));
  };
  if (ox.ndim() != 0 && oy.ndim() != 0 && ox.shape() != oy.shape())
    fail("\n(shapes " + shape_str(ox.shape()) + ", " + shape_str(oy.shape()) + " mismatch)", ox,
         oy);
  const shape_t shape = broadcast_shapes(ox.shape(), oy.shape());
  const auto spread = [&](const auto& a) {
    using T = typename std::remove_cvref_t<decltype(a)>::value_type;
    return ndarray<T>(a.storage(), a.offset(), shape, broadcast_strides(a, shape)).to_vector();
  };
  const std::vector<X> xv = spread(ox);
  const std::vector<Y> yv = spread(oy);
  const std::size_t n = xv.size();

  // NaNs (under equal_nan) and infinities must sit at the same places; they are then left out.
  std::vector<bool> flagged(n, false);
  if (equal_nan) {
    for (std::size_t i = 0; i < n; ++i) {
      if (host_isnan(xv[i]) != host_isnan(yv[i])) fail("\nnan location mismatch:", ox, oy);
      flagged[i] = host_isnan(xv[i]);
    }
  }
  std::vector<X> inf_x;
  std::vector<Y> inf_y;
  bool inf_values_differ = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (flagged[i]) continue;
    const bool xi = host_isinf(xv[i]);
    if (xi != host_isinf(yv[i])) fail("\ninf location mismatch:", ox, oy);
    if (!xi) continue;
    flagged[i] = true;
    inf_x.push_back(xv[i]);
    inf_y.push_back(yv[i]);
    inf_values_differ = inf_values_differ || convert<std::complex<double>>(xv[i]) !=
                                                 convert<std::complex<double>>(yv[i]);
  }
  if (inf_values_differ) {
    // NumPy shows only the infinities, unless one operand is 0-d.
    if (ox.ndim() == 0 || oy.ndim() == 0) fail("\ninf values mismatch:", ox, oy);
    const index_t k = static_cast<index_t>(inf_x.size());
    fail("\ninf values mismatch:", asarray(inf_x, {k}, cpu), asarray(inf_y, {k}, cpu));
  }

  const std::vector<bool> ok = compare();
  std::vector<std::size_t> bad;
  for (std::size_t i = 0; i < n; ++i)
    if (!flagged[i] && !ok[i]) bad.push_back(i);
  if (bad.empty()) return;

  std::string report =
      "\nMismatched elements: " + std::to_string(bad.size()) + " / " + std::to_string(n) + " (" +
      format_g(100 * static_cast<double>(bad.size()) / static_cast<double>(n), 3) + "%)";
  if (!shape.empty()) {
    report += bad.size() == 1   ? "\nMismatch at index:"
              : bad.size() <= 5 ? "\nMismatch at indices:"
                                : "\nFirst 5 mismatches are at indices:";
    const strides_t st = c_strides(shape);
    for (std::size_t k = 0; k < std::min<std::size_t>(bad.size(), 5); ++k) {
      std::string idx = "[";
      for (std::size_t d = 0; d < shape.size(); ++d)
        idx += (d ? ", " : "") + std::to_string(static_cast<index_t>(bad[k]) / st[d] % shape[d]);
      report += "\n " + idx + "]: " + testing_value_str(xv[bad[k]]) + " (ACTUAL), " +
                testing_value_str(yv[bad[k]]) + " (DESIRED)";
    }
  }
  using P = result_type_t<X, Y>;
  if constexpr (!std::is_same_v<P, bool>) {  // NumPy cannot subtract booleans: no differences
    using E = decltype(abs_difference(P{}, P{}));
    using A = decltype(abs_value(Y{}));
    constexpr dtype q = promote(dtype_of_v<E>, dtype_of_v<A>);
    using D = std::conditional_t<describe(q).kind <= 2, double, type_of_t<q>>;  // true_divide
    std::optional<E> max_abs;
    std::optional<D> max_rel;
    for (const std::size_t i : bad) {
      const E err = abs_difference(convert<P>(xv[i]), convert<P>(yv[i]));
      keep_max(max_abs, err);
      if (convert<std::complex<double>>(yv[i]) == std::complex<double>(0)) continue;
      using DM = math_t<D>;
      keep_max(max_rel, convert<D>(convert<DM>(convert<D>(err)) /
                                   convert<DM>(convert<D>(abs_value(yv[i])))));
    }
    report += "\nMax absolute difference among violations: " +
              format_elements(std::vector<E>{*max_abs}, true)[0];
    report += "\nMax relative difference among violations: " +
              (max_rel ? format_elements(std::vector<D>{*max_rel}, true)[0] : std::string("inf"));
  }
  fail(report, ox, oy);
}

/// An array, an expression (evaluated) or a scalar (a 0-d array on `where`), as np.asanyarray.
template <class Backend, class A>
auto testing_array(const A& a, device where) {
  if constexpr (requires { typename A::loop_type; }) {
    return eval<Backend>(a);
  } else if constexpr (element_type<A>) {
    ndarray<A> out(shape_t{}, cpu);
    *out.data() = a;
    return out.to(where);
  } else {
    static_assert(
        requires { typename A::value_type; }, "expects an ndarray, an expression or a scalar");
    return a;
  }
}

/// Where a scalar operand of numpy.testing's assertions goes: the other operand's device.
template <class A, class D>
device testing_device(const A& actual, const D& desired) {
  if constexpr (!element_type<A>)
    return actual.device();
  else if constexpr (!element_type<D>)
    return desired.device();
  else
    return cpu;
}

/// numpy.testing's assertions first check on the operands' device, in one pass, whether they
/// pass (all of `ok`); only a failure copies both arrays to the host to write the report. A
/// translation unit without nvcc cannot run that pass on a GPU and goes to the host at once.
template <class Backend, class X, class Y, class Check>
bool passes_on_device(const ndarray<X>& x, const ndarray<Y>& y, Check&& ok) {
  if (!(x.device() == y.device())) return false;
  if (x.device().is_cuda() && !std::is_same_v<Backend, cuda_backend>) return false;
  if (x.ndim() != 0 && y.ndim() != 0 && x.shape() != y.shape()) return false;
  return all_of<Backend>(ok()).item();
}

}  // namespace detail

namespace testing {

/// numpy.testing.assert_allclose: throws assertion_error with NumPy's report unless every element
/// of `actual` is within atol + rtol * |desired| of `desired` (NaNs at the same places pass under
/// equal_nan; infinities must match). Shapes must be equal, or one of them ().
template <class Backend = detail::compiled_backend, class A, class D>
void assert_allclose(const A& actual, const D& desired, double rtol = 1e-7, double atol = 0,
                     bool equal_nan = true, const std::string& err_msg = "") {
  const device where = detail::testing_device(actual, desired);
  const auto x = detail::testing_array<Backend>(actual, where);
  const auto y = detail::testing_array<Backend>(desired, where);
  // isclose(x, y, ..., equal_nan) holds everywhere exactly when NumPy's checks of NaN and inf
  // positions and of the other values all pass.
  if (detail::passes_on_device<Backend>(x, y, [&] { return isclose(x, y, rtol, atol, equal_nan); }))
    return;
  const auto hx = x.to(cpu);
  const auto hy = y.to(cpu);
  const std::string header = "Not equal to tolerance rtol=" + detail::format_g(rtol, 6) +
                             ", atol=" + detail::format_g(atol, 6);
  detail::assert_array_compare(
      hx, hy, [&] { return eval<Backend>(isclose(hx, hy, rtol, atol, equal_nan)).to_vector(); },
      err_msg, header, equal_nan);
}

/// numpy.testing.assert_array_equal: throws assertion_error with NumPy's report unless the shapes
/// (one may be ()) and the elements are equal; NaNs at the same places count as equal.
template <class Backend = detail::compiled_backend, class A, class D>
void assert_array_equal(const A& actual, const D& desired, const std::string& err_msg = "") {
  const device where = detail::testing_device(actual, desired);
  const auto x = detail::testing_array<Backend>(actual, where);
  const auto y = detail::testing_array<Backend>(desired, where);
  if (detail::passes_on_device<Backend>(
          x, y, [&] { return logical_or(equal(x, y), logical_and(isnan(x), isnan(y))); }))
    return;
  const auto hx = x.to(cpu);
  const auto hy = y.to(cpu);
  detail::assert_array_compare(
      hx, hy, [&] { return eval<Backend>(equal(hx, hy)).to_vector(); }, err_msg,
      "Arrays are not equal", true);
}

}  // namespace testing
}  // namespace cunp
