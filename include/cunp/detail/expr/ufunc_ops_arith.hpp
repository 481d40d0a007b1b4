// cunp/detail/expr/ufunc_ops_arith.hpp: arithmetic, rounding and extrema ufuncs (see ufunc_ops.hpp).
#pragma once
#include <limits>
#include <type_traits>

namespace cunp::detail {

struct add_op : ufunc_loops<all_loops> {
  static constexpr const char* name = "add";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>)
      return a || b;
    else if constexpr (is_integer_v<M>)
      return wrap<M>(bits_of(a) + bits_of(b));
    else
      return a + b;
  }
};
/// bool - bool does not compile: NumPy raises TypeError (use logical_xor).
struct subtract_op : ufunc_loops_no_bool<number_loops> {
  static constexpr const char* name = "subtract";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (is_integer_v<M>)
      return wrap<M>(bits_of(a) - bits_of(b));
    else
      return a - b;
  }
};
struct multiply_op : ufunc_loops<all_loops> {
  static constexpr const char* name = "multiply";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>)
      return a && b;
    else if constexpr (is_integer_v<M>)
      return wrap<M>(bits_of(a) * bits_of(b));
    else
      return a * b;
  }
};
/// True division: bool and integers compute in float64.
struct divide_op {
  static constexpr const char* name = "divide";
  template <class C, class...>
  using loop_for = std::conditional_t<is_integer_v<C> || std::is_same_v<C, bool>, double, C>;
  template <class L>
  using out = L;
  template <class L>
  static constexpr bool accepts = inexact_loops::has(dtype_of_v<L>);
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    return a / b;
  }
};

/// Python's divmod of floats as NumPy computes it: the floored quotient, snapped to an integer,
/// and the remainder with the divisor's sign. b == 0 is left to the callers.
template <class R>
struct float_divmod {
  R div, mod;
  CUNP_HD float_divmod(R a, R b) {
    mod = real_fmod(a, b);
    R q = (a - mod) / b;  // very nearly an integer
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) {
        mod += b;
        q -= 1;
      }
    } else {
      mod = real_copysign(R(0), b);
    }
    if (q != 0) {
      div = real_floor(q);
      if (q - div > R(0.5)) div += 1;
    } else {
      div = real_copysign(R(0), a / b);
    }
  }
};

/// Integer division and modulo by zero give 0 (NumPy warns); INT_MIN // -1 wraps to INT_MIN.
struct floor_divide_op : ufunc_loops<int_real_loops> {
  static constexpr const char* name = "floor_divide";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (is_integer_v<M>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<M>) {
        if (b == -1) return wrap<M>(0 - bits_of(a));
        const M q = static_cast<M>(a / b);
        return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<M>(q - 1) : q;
      } else {
        return static_cast<M>(a / b);
      }
    } else {
      if (b == 0) return a / b;
      return float_divmod<M>(a, b).div;
    }
  }
};
/// Python's modulo: the result has the divisor's sign.
struct remainder_op : ufunc_loops<int_real_loops> {
  static constexpr const char* name = "remainder";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (is_integer_v<M>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<M>) {
        if (b == -1) return 0;
        const M r = static_cast<M>(a % b);
        return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<M>(r + b) : r;
      } else {
        return static_cast<M>(a % b);
      }
    } else {
      if (b == 0) return real_fmod(a, b);
      return float_divmod<M>(a, b).mod;
    }
  }
};
/// C's remainder: the result has the dividend's sign.
struct fmod_op : ufunc_loops<int_real_loops> {
  static constexpr const char* name = "fmod";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (is_integer_v<M>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<M>)
        if (b == -1) return 0;
      return static_cast<M>(a % b);
    } else {
      return real_fmod(a, b);
    }
  }
};

/// Integer powers wrap. A negative exponent in an array is not an error here (a kernel cannot
/// throw): it gives the truncated 1 / a**-b (1 for a == 1, +-1 for a == -1, else 0); a negative
/// C++ scalar exponent throws on the host before anything runs, as NumPy does.
struct power_op : ufunc_loops<number_loops> {
  static constexpr const char* name = "power";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (is_integer_v<M>) {
      if constexpr (std::is_signed_v<M>)
        if (b < 0) return a == 1 ? M(1) : a == -1 ? ((b & 1) ? M(-1) : M(1)) : M(0);
      wide_unsigned_t<M> r = 1, p = bits_of(a), e = bits_of(b);
      for (; e != 0; e >>= 1) {
        if (e & 1u) r *= p;
        p *= p;
      }
      return wrap<M>(r);
    } else if constexpr (is_complex_v<M>) {
      return c_pow(a, b);
    } else {
      return real_pow(a, b);
    }
  }
};

/// -bool does not compile: NumPy raises TypeError (use logical_not).
struct negative_op : ufunc_loops_no_bool<number_loops> {
  static constexpr const char* name = "negative";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_integer_v<M>)
      return wrap<M>(0 - bits_of(a));
    else
      return -a;
  }
};
struct positive_op : ufunc_loops_no_bool<number_loops> {
  static constexpr const char* name = "positive";
  template <class M>
  CUNP_HD M operator()(M a) const {
    return a;
  }
};
/// |a|; complex gives the real type. abs(INT_MIN) wraps to INT_MIN, as in NumPy.
struct absolute_op : ufunc_loops<all_loops, part_t> {
  static constexpr const char* name = "absolute";
  template <class M>
  CUNP_HD auto operator()(M a) const {
    if constexpr (is_complex_v<M>)
      return c_abs(a);
    else if constexpr (std::is_floating_point_v<M>)
      return real_fabs(a);
    else if constexpr (is_integer_v<M> && std::is_signed_v<M>)
      return a < 0 ? wrap<M>(0 - bits_of(a)) : a;
    else
      return a;
  }
};
struct fabs_op : ufunc_loops<real_loops> {
  static constexpr const char* name = "fabs";
  template <class M>
  CUNP_HD M operator()(M a) const {
    return real_fabs(a);
  }
};
/// sign(nan) is nan; complex: z / |z| (NumPy 2), with infinite parts giving the unit direction.
struct sign_op : ufunc_loops_no_bool<number_loops> {
  static constexpr const char* name = "sign";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_complex_v<M>) {
      using R = decltype(a.re);
      const bool ir = is_inf(a.re), ii = is_inf(a.im);
      if (ir && ii) return {nan_v<R>, nan_v<R>};
      if (ir) return {real_copysign(R(1), a.re), 0};
      if (ii) return {0, real_copysign(R(1), a.im)};
      if (is_nan(a.re) || is_nan(a.im)) return {nan_v<R>, nan_v<R>};
      if (a.re == 0 && a.im == 0) return {0, 0};
      const R m = c_abs(a);
      return {a.re / m, a.im / m};
    } else if constexpr (std::is_floating_point_v<M>) {
      return a > 0 ? M(1) : a < 0 ? M(-1) : a == 0 ? M(0) : a;
    } else if constexpr (std::is_unsigned_v<M>) {
      return M(a != 0);
    } else {
      return static_cast<M>((a > 0) - (a < 0));
    }
  }
};
struct square_op : ufunc_loops<number_loops> {
  static constexpr const char* name = "square";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_integer_v<M>)
      return wrap<M>(bits_of(a) * bits_of(a));
    else
      return a * a;
  }
};
/// Integers: 1 / a truncated, and 0 for a == 0 (NumPy converts 1.0 / 0 to the integer type,
/// which C leaves undefined).
struct reciprocal_op : ufunc_loops<number_loops> {
  static constexpr const char* name = "reciprocal";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_integer_v<M>) {
      return a == 0 ? M(0) : static_cast<M>(1 / a);
    } else if constexpr (is_complex_v<M>) {  // NumPy's: one division fewer than 1 / z
      using R = decltype(a.re);
      if (real_fabs(a.im) <= real_fabs(a.re)) {
        const R r = a.im / a.re, d = a.re + a.im * r;
        return {1 / d, -r / d};
      }
      const R r = a.re / a.im, d = a.re * r + a.im;
      return {r / d, -1 / d};
    } else {
      return 1 / a;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Extrema. Complex numbers order lexicographically (real part first), as NumPy sorts them.

template <class R>
CUNP_HD constexpr bool has_nan(cplx<R> z) {
  return is_nan(z.re) || is_nan(z.im);
}
template <class R>
CUNP_HD constexpr bool c_less(cplx<R> a, cplx<R> b) {
  return (a.re < b.re && !is_nan(a.im) && !is_nan(b.im)) || (a.re == b.re && a.im < b.im);
}
template <class R>
CUNP_HD constexpr bool c_less_equal(cplx<R> a, cplx<R> b) {
  return (a.re < b.re && !is_nan(a.im) && !is_nan(b.im)) || (a.re == b.re && a.im <= b.im);
}

/// maximum/minimum propagate NaN; fmax/fmin ignore it unless both are NaN. Between equal values
/// (+0.0 and -0.0) they return the first operand.
struct maximum_op : ufunc_loops<all_loops> {
  static constexpr const char* name = "maximum";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>)
      return a || b;
    else if constexpr (is_complex_v<M>)
      return has_nan(a) || c_less_equal(b, a) ? a : b;
    else
      return a >= b || is_nan(a) ? a : b;
  }
};
struct minimum_op : ufunc_loops<all_loops> {
  static constexpr const char* name = "minimum";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>)
      return a && b;
    else if constexpr (is_complex_v<M>)
      return has_nan(a) || c_less_equal(a, b) ? a : b;
    else
      return a <= b || is_nan(a) ? a : b;
  }
};
struct fmax_op : ufunc_loops<all_loops> {
  static constexpr const char* name = "fmax";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>)
      return a || b;
    else if constexpr (is_complex_v<M>)
      return has_nan(b) || c_less_equal(b, a) ? a : b;
    else
      return a >= b || is_nan(b) ? a : b;
  }
};
struct fmin_op : ufunc_loops<all_loops> {
  static constexpr const char* name = "fmin";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>)
      return a && b;
    else if constexpr (is_complex_v<M>)
      return has_nan(b) || c_less_equal(a, b) ? a : b;
    else
      return a <= b || is_nan(b) ? a : b;
  }
};
/// clip(a, a_min, a_max) = minimum(maximum(a, a_min), a_max) with NaN in any operand giving NaN.
struct clip_op : ufunc_loops<all_loops> {
  static constexpr const char* name = "clip";
  template <class M>
  CUNP_HD M operator()(M a, M lo, M hi) const {
    if constexpr (std::is_same_v<M, bool>) {
      return (a || lo) && hi;
    } else if constexpr (is_complex_v<M>) {  // NumPy's clip orders without the NaN tests
      const M t = has_nan(a) || a.re > lo.re || (a.re == lo.re && a.im > lo.im) ? a : lo;
      return has_nan(t) || t.re < hi.re || (t.re == hi.re && t.im < hi.im) ? t : hi;
    } else {
      const M t = is_nan(a) || a > lo ? a : lo;
      return is_nan(t) || t < hi ? t : hi;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Rounding.

/// Round half to even; complex rounds both parts.
struct rint_op : ufunc_loops<inexact_loops> {
  static constexpr const char* name = "rint";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_complex_v<M>)
      return {real_rint(a.re), real_rint(a.im)};
    else
      return real_rint(a);
  }
};
#define CUNP_ROUNDING(NAME, FN)                         \
  struct NAME##_op : ufunc_loops<bool_int_real_loops> { \
    static constexpr const char* name = #NAME;          \
    template <class M>                                  \
    CUNP_HD M operator()(M a) const {                   \
      if constexpr (std::is_floating_point_v<M>)        \
        return FN(a);                                   \
      else                                              \
        return a;                                       \
    }                                                   \
  };
CUNP_ROUNDING(floor, real_floor)
CUNP_ROUNDING(ceil, real_ceil)
CUNP_ROUNDING(trunc, real_trunc)
#undef CUNP_ROUNDING

/// numpy.round(a, decimals) on loop type L (bool: float16, as rint; else the input's dtype) by
/// NumPy's algorithm: a * 10**decimals, rint, / 10**decimals (negative decimals: /, rint, *).
/// Every step rounds to L as NumPy's separate ufunc calls do; integers are unchanged for
/// decimals >= 0 and compute in float64 otherwise.
template <class L>
struct round_op {
  static constexpr const char* name = "round";
  template <class, class...>
  using loop_for = L;
  template <class>
  using out = L;
  template <class>
  static constexpr bool accepts = true;
  int decimals;
  double factor;  // 10**|decimals|, as NumPy computes it

  explicit round_op(int d = 0) : decimals(d), factor(1e9) {
    // |d| in unsigned arithmetic: -INT_MIN does not fit an int.
    const unsigned n = d < 0 ? 0u - static_cast<unsigned>(d) : static_cast<unsigned>(d);
    constexpr double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
    if (n < 9) factor = p10[n];
    // NumPy's loop multiplies up to 10**n one step at a time, 2**31 steps for INT_MAX (seconds);
    // its product is inf from 10**309 on and stays inf, so stopping there gives NumPy's factor
    // (and its NaN results) at once.
    for (unsigned k = 9; k < n && factor <= std::numeric_limits<double>::max(); ++k) factor *= 10.;
  }

  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_integer_v<L>) {
      if (decimals >= 0) return a;
      return convert<M>(real_rint(static_cast<double>(a) / factor) * factor);
    } else if constexpr (is_complex_v<M>) {
      return {part(a.re), part(a.im)};
    } else {
      return part(a);
    }
  }

 private:
  template <class R>
  CUNP_HD R part(R x) const {
    using P = part_t<L>;  // the storage type of a part: float16 rounds between steps
    if (decimals == 0) return real_rint(x);
    const R f = convert<R>(convert<P>(factor));
    const R y = convert<R>(convert<P>(decimals > 0 ? x * f : x / f));
    const R r = real_rint(y);
    return decimals > 0 ? r / f : r * f;
  }
};

}  // namespace cunp::detail
