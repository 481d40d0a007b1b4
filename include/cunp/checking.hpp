// cunp/checking.hpp: numpy.isclose, allclose and array_equal.
//
// isclose is a lazy element-wise expression like any ufunc: it fuses with its operands and runs as
// one kernel; allclose and array_equal reduce it on the operands' device and read back one bool.
#pragma once
#include <cmath>
#include <complex>
#include <type_traits>
#include <utility>

#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {

namespace detail {

/// numpy.isclose in loop type L (x and y promoted, y first made inexact):
/// (|x - y| <= atol + rtol * |y| and isfinite(y)) or x == y, or both NaN under equal_nan.
/// The roundings are NumPy's: x - y is rounded to L; the tolerance is computed in Tol, y's inexact
/// dtype, where rtol and atol are weak Python floats rounded to it. A C++ scalar y is a Python
/// float there: its tolerance and finiteness are computed once in double (weak_tol, weak_finite)
/// and the tolerance is rounded to L's real type for the comparison.
template <class L, class Tol, bool YComplex, bool WeakY>
struct isclose_op {
  static constexpr const char* name = "isclose";
  template <class, class...>
  using loop_for = L;
  template <class>
  using out = bool;
  template <class>
  static constexpr bool accepts = true;

  double rtol, atol;
  bool equal_nan;
  double weak_tol;
  bool weak_finite;

  template <class M>
  CUNP_HD bool operator()(M x, M y) const {
    using P = part_t<L>;  // the real storage type of the loop: float16 ... double
    using PM = math_t<P>;
    PM diff, tol;
    bool y_finite, both_nan;
    if constexpr (is_complex_v<M>) {
      diff = c_abs(x - y);
      y_finite = is_finite(y.re) && is_finite(y.im);
      both_nan = (is_nan(x.re) || is_nan(x.im)) && (is_nan(y.re) || is_nan(y.im));
    } else {
      diff = real_fabs(convert<PM>(convert<P>(x - y)));
      y_finite = is_finite(y);
      both_nan = is_nan(x) && is_nan(y);
    }
    if constexpr (WeakY) {
      tol = convert<PM>(convert<P>(weak_tol));
      y_finite = weak_finite;
    } else {
      using TM = math_t<Tol>;
      TM abs_y;
      if constexpr (YComplex)
        abs_y = real_hypot(static_cast<TM>(y.re), static_cast<TM>(y.im));
      else if constexpr (is_complex_v<M>)
        abs_y = real_fabs(static_cast<TM>(y.re));
      else
        abs_y = real_fabs(static_cast<TM>(y));
      const TM r = convert<TM>(convert<Tol>(rtol)), a = convert<TM>(convert<Tol>(atol));
      const TM scaled = convert<TM>(convert<Tol>(r * abs_y));
      tol = static_cast<PM>(convert<TM>(convert<Tol>(a + scaled)));
    }
    return (diff <= tol && y_finite) || x == y || (equal_nan && both_nan);
  }
};

/// isclose's operands: C++ scalars become double or complex<double>, as NumPy turns a Python int
/// y into a float and a Python int x meets y's inexact dtype (so no integer range check applies).
template <class X>
decltype(auto) isclose_operand(X&& x) {
  using S = std::remove_cvref_t<X>;
  if constexpr (is_complex_v<S>)
    return std::complex<double>(x);
  else if constexpr (is_weak_scalar_v<S>)
    return static_cast<double>(x);
  else
    return std::forward<X>(x);
}

template <class X>
constexpr dtype operand_dtype(dtype common) {
  return operand_traits<X>::weak_kind >= 0 ? common
                                           : dtype_of_v<typename operand_traits<X>::value_type>;
}

/// The real dtype of the parts of d (d itself when real).
constexpr dtype real_part_dtype(dtype d) {
  return d == dtype::complex64 ? dtype::float32 : d == dtype::complex128 ? dtype::float64 : d;
}

template <class XO, class YO>
struct isclose_types {
  static constexpr dtype common = common_dtype<XO, YO>();
  static constexpr dtype y_inexact = promote_weak(operand_dtype<YO>(common), 3);
  using loop = type_of_t<promote(operand_dtype<XO>(common), y_inexact)>;
  using tol = type_of_t<real_part_dtype(y_inexact)>;
  static constexpr bool y_complex = is_complex_v<type_of_t<y_inexact>>;
  static constexpr bool weak_y = operand_traits<YO>::weak_kind >= 0;
  using op = isclose_op<loop, tol, y_complex, weak_y>;
};
}  // namespace detail

/// numpy.isclose: element-wise |a - b| <= atol + rtol * |b| (b is the reference), a lazy bool
/// expression. Infinities are close only to themselves, NaN only to NaN under equal_nan; complex
/// values compare by the modulus of the difference. Mixed dtypes compute in NumPy's dtype.
template <operand A, operand B>
  requires(array_like<A> || array_like<B>)
[[nodiscard]] auto isclose(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8,
                           bool equal_nan = false) {
  auto x = detail::as_operand(detail::isclose_operand(std::forward<A>(a)));
  auto y = detail::as_operand(detail::isclose_operand(std::forward<B>(b)));
  using XO = decltype(x);
  using YO = decltype(y);
  using types = detail::isclose_types<XO, YO>;
  typename types::op op{rtol, atol, equal_nan, 0.0, true};
  if constexpr (types::weak_y) {
    op.weak_tol = atol + rtol * std::abs(y.value);
    op.weak_finite = std::isfinite(std::real(y.value)) && std::isfinite(std::imag(y.value));
  }
  return detail::expr<typename types::op, XO, YO>(op, std::move(x), std::move(y));
}

/// numpy.allclose: every element of isclose(a, b, ...) is true (one fused pass on the device).
template <class Backend = detail::compiled_backend, operand A, operand B>
  requires(array_like<A> || array_like<B>)
[[nodiscard]] bool allclose(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8,
                            bool equal_nan = false) {
  return all_of<Backend>(isclose(std::forward<A>(a), std::forward<B>(b), rtol, atol, equal_nan))
      .item();
}

/// numpy.array_equal: same shape and equal elements. Different shapes give false, not an error;
/// under equal_nan, NaNs at the same places count as equal.
template <class Backend = detail::compiled_backend, array_like A, array_like B>
[[nodiscard]] bool array_equal(const A& a, const B& b, bool equal_nan = false) {
  if (detail::operand_shape(a) != detail::operand_shape(b)) return false;
  using X = typename detail::operand_traits<A>::value_type;
  using Y = typename detail::operand_traits<B>::value_type;
  constexpr bool can_hold_nan =
      is_floating_v<X> || is_complex_v<X> || is_floating_v<Y> || is_complex_v<Y>;
  if constexpr (can_hold_nan) {
    if (equal_nan)
      return all_of<Backend>(logical_or(equal(a, b), logical_and(isnan(a), isnan(b)))).item();
  }
  return all_of<Backend>(equal(a, b)).item();
}

}  // namespace cunp
