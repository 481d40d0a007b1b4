// cunp/detail/expr/ufunc_ops_extra.hpp: NumPy 2's remaining ufuncs (logaddexp, heaviside,
// nextafter, spacing, ldexp, float_power, gcd, lcm, bitwise_count, isposinf, isneginf), the
// halves of its two-output ufuncs (divmod, modf, frexp) and the element-wise functions NumPy
// writes in Python (sinc, i0, nan_to_num). See ufunc_ops.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <type_traits>

namespace cunp::detail {

/// A 16-bit float handed to a functor as itself rather than as float: for results that depend
/// on its format (nextafter, spacing) and for NumPy's Python-level functions, whose every step
/// rounds to the array's dtype (sinc, i0). Any loop value converts to it.
template <class F>
struct stored {
  F v;
  template <class V>
  CUNP_HD stored(V x) : v(convert<F>(x)) {}  // NOLINT: converted to like any loop type
};
template <class F>
struct math_type<stored<F>> {
  using type = stored<F>;
};
template <class L>
using stored16_t = std::conditional_t<std::is_same_v<L, float16> || std::is_same_v<L, bfloat16>,
                                      stored<L>, L>;
template <class L>
struct unstored {
  using type = L;
};
template <class F>
struct unstored<stored<F>> {
  using type = F;
};
template <class L>
using unstored_t = typename unstored<L>::type;

/// The value of a functor's operand in its math type (float for stored<F>).
template <class M>
CUNP_HD auto value_of(M a) {
  if constexpr (std::is_same_v<M, unstored_t<M>>)
    return a;
  else
    return static_cast<float>(a.v);
}
/// x rounded to the storage type behind M, as each of NumPy's ufunc calls rounds.
template <class M, class R>
CUNP_HD R round_as(R x) {
  return convert<R>(convert<unstored_t<M>>(x));
}

/// Loops as ufunc_loops, with 16-bit floats reaching the functor as stored<F>.
template <class Loops, template <class> class Out = std::type_identity_t>
struct stored_loops {
  template <class C, class... In>
  using loop_for = stored16_t<typename ufunc_loops<Loops>::template loop_for<C, In...>>;
  template <class L>
  using out = Out<unstored_t<L>>;
  template <class L>
  static constexpr bool accepts = Loops::has(dtype_of_v<unstored_t<L>>);
};

/// The largest finite value of a float type, as numpy.finfo(T).max.
template <class T>
CUNP_HD constexpr T finite_max() {
  if constexpr (std::is_same_v<T, float16>)
    return float16::from_bits(0x7bffu);
  else if constexpr (std::is_same_v<T, bfloat16>)
    return bfloat16::from_bits(0x7f7fu);
  else
    return std::numeric_limits<T>::max();
}

// ---------------------------------------------------------------------------------------------
// Floating point ufuncs.

/// NumPy's npy_logaddexp: log(e^x + e^y) without overflow; equal arguments (two infinities of
/// one sign too, where x - y is NaN) give x + log 2, and a NaN propagates. NumPy's two branches
/// (x + log1p(exp(-d)) for d > 0, y + log1p(exp(d)) otherwise) as one, max(x, y) +
/// log1p(exp(-|d|)), which is the same value: on a GPU the branches diverge within a warp and
/// cost the transcendentals twice (float64 ran at 0.6 of CuPy's speed).
template <class R>
CUNP_HD R logaddexp(R x, R y) {
  if (x == y) return x + ln2_v<R>;
  const R d = x - y;
  if (is_nan(d)) return d;
  return (d > 0 ? x : y) + real_log1p(real_exp(d > 0 ? -d : d));
}
/// npy_logaddexp2: log2(2^x + 2^y), likewise.
template <class R>
CUNP_HD R logaddexp2(R x, R y) {
  constexpr R log2e = R(1.442695040888963407359924681001892137);
  if (x == y) return x + 1;
  const R d = x - y;
  if (is_nan(d)) return d;
  return (d > 0 ? x : y) + log2e * real_log1p(real_exp2(d > 0 ? -d : d));
}
struct logaddexp_op : ufunc_loops<real_loops> {
  static constexpr const char* name = "logaddexp";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    return logaddexp(a, b);
  }
};
struct logaddexp2_op : ufunc_loops<real_loops> {
  static constexpr const char* name = "logaddexp2";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    return logaddexp2(a, b);
  }
};

/// heaviside(x, h0): 0 below zero, h0 at zero, 1 above; NaN for NaN.
struct heaviside_op : ufunc_loops<real_loops> {
  static constexpr const char* name = "heaviside";
  template <class M>
  CUNP_HD M operator()(M x, M h0) const {
    if (is_nan(x)) return nan_v<M>;
    if (x == 0) return h0;
    return x < 0 ? M(0) : M(1);
  }
};

/// nextafter: C's for float and double, NumPy's bit steps for 16-bit floats.
struct nextafter_op : stored_loops<real_loops> {
  static constexpr const char* name = "nextafter";
  template <class M>
  CUNP_HD auto operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, unstored_t<M>>)
      return real_nextafter(a, b);
    else
      return nextafter16(a.v, b.v);
  }
};

/// spacing(x): the gap from x to its neighbour away from zero, with x's sign (-0.0 counts as
/// positive, as in NumPy); NaN for inf and NaN, inf for the largest value. float16 has NumPy's
/// own rule (half_spacing); bfloat16 follows float's.
struct spacing_op : stored_loops<real_loops> {
  static constexpr const char* name = "spacing";
  template <class M>
  CUNP_HD auto operator()(M a) const {
    if constexpr (std::is_same_v<M, stored<float16>>) {
      return half_spacing(a.v);
    } else {
      const auto x = value_of(a);
      using R = decltype(x);
      if (is_inf(x)) return nan_v<R>;
      const R toward = x < 0 ? -inf_v<R> : inf_v<R>;
      if constexpr (std::is_same_v<M, unstored_t<M>>)
        return real_nextafter(x, toward) - x;
      else  // adjacent bfloat16 values differ by a power of two: exact in float
        return static_cast<float>(nextafter16(a.v, unstored_t<M>(toward))) - x;
    }
  }
};

/// ldexp's loop value for float type F: an operand read as the mantissa (rounded to F, as NumPy
/// casts it to the loop's type) and as the exponent (clamped to int, as NumPy's loops for int64
/// exponents clamp: no float type has an exponent range near int's).
template <class F>
struct ldexp_value {
  using type = F;
  math_t<F> x;
  int n;
  template <class V>
  CUNP_HD ldexp_value(V v)  // NOLINT: converted to like any loop type
      : x(convert<math_t<F>>(convert<F>(v))), n(exponent(v)) {}

 private:
  template <class V>
  CUNP_HD static int exponent(V v) {
    if constexpr (std::is_integral_v<V>) {  // int64 at most (cunp::ldexp's constraint)
      const long long w = static_cast<long long>(v);
      return w < INT32_MIN ? INT32_MIN : w > INT32_MAX ? INT32_MAX : static_cast<int>(w);
    } else {
      return 0;  // a mantissa: ldexp's exponent is never a float
    }
  }
};
template <class F>
struct math_type<ldexp_value<F>> {
  using type = ldexp_value<F>;
};
template <class L>
struct ldexp_out {  // a loop that no ldexp_value is: rejected, its output unused
  using type = L;
  static constexpr bool loop = false;
};
template <class F>
struct ldexp_out<ldexp_value<F>> {
  using type = F;
  static constexpr bool loop = true;
};

/// ldexp(x1, x2) = x1 * 2**x2. NumPy's loops pair float16, float32 and float64 mantissas with
/// int32 and int64 exponents ('ei->e', 'fi->f', 'el->e', 'fl->f', 'di->d', 'dl->d'): the loop
/// is the first float that x1 casts to safely (bfloat16 after float16) and the exponent's type
/// changes nothing but the range, which ldexp_value clamps. The exponent's dtype is checked by
/// cunp::ldexp (an integer that casts safely to int64), where C++ scalars are still visible.
struct ldexp_op {
  static constexpr const char* name = "ldexp";
  using floats = loops<dtype::float16, dtype::bfloat16, dtype::float32, dtype::float64>;
  template <class M>  // complex128: none
  static constexpr dtype float_for = floats::pick({dtype_of_v<M>}, dtype::complex128);
  template <class C, class M, class...>
  using loop_for = std::conditional_t<float_for<M> != dtype::complex128,
                                      ldexp_value<type_of_t<float_for<M>>>, C>;
  template <class L>
  using out = typename ldexp_out<L>::type;
  template <class L>
  static constexpr bool accepts = ldexp_out<L>::loop;
  template <class L>
  CUNP_HD auto operator()(L a, L b) const {
    return real_ldexp(a.x, b.n);
  }
};

/// float_power: power computed in float64 or complex128 whatever the operands.
struct float_power_op : ufunc_loops<loops<dtype::float64, dtype::complex128>> {
  static constexpr const char* name = "float_power";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if constexpr (is_complex_v<M>)
      return c_pow(a, b);
    else
      return real_pow(a, b);
  }
};

// ---------------------------------------------------------------------------------------------
// Integer ufuncs.

/// |a| in the unsigned type the wrapping helpers use: |INT_MIN| is 2^(bits-1), as NumPy's
/// unsigned gcd sees it.
template <class M>
CUNP_HD wide_unsigned_t<M> magnitude(M a) {
  if constexpr (std::is_signed_v<M>)
    return a < 0 ? 0 - bits_of(a) : bits_of(a);
  else
    return bits_of(a);
}
template <class U>
CUNP_HD U gcd_unsigned(U a, U b) {
  while (a != 0) {
    const U c = a;
    a = b % a;
    b = c;
  }
  return b;
}
/// gcd and lcm of the magnitudes, wrapped back to M as NumPy's: gcd(INT_MIN, 0) and
/// gcd(INT_MIN, INT_MIN) are INT_MIN, lcm(INT_MIN, 3) wraps to INT_MIN. No bool loop.
struct gcd_op : ufunc_loops_no_bool<int_loops> {
  static constexpr const char* name = "gcd";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    return wrap<M>(gcd_unsigned(magnitude(a), magnitude(b)));
  }
};
struct lcm_op : ufunc_loops_no_bool<int_loops> {
  static constexpr const char* name = "lcm";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    const auto x = magnitude(a), y = magnitude(b), g = gcd_unsigned(x, y);
    return g == 0 ? M(0) : wrap<M>(x / g * y);
  }
};

template <class>
using uint8_out_t = std::uint8_t;
/// bitwise_count: the one bits of |x| (NumPy 2), as uint8.
struct bitwise_count_op : ufunc_loops<int_loops, uint8_out_t> {
  static constexpr const char* name = "bitwise_count";
  template <class M>
  CUNP_HD std::uint8_t operator()(M a) const {
    return static_cast<std::uint8_t>(popcount(static_cast<std::make_unsigned_t<M>>(magnitude(a))));
  }
};

// ---------------------------------------------------------------------------------------------
// Classification: NumPy 2 refuses complex numbers, whose infinities have no single sign.

#define CUNP_SIGNED_INF(NAME, INF)                            \
  struct NAME##_op : ufunc_loops<bool_int_real_loops, bool_t> { \
    static constexpr const char* name = #NAME;                \
    template <class M>                                        \
    CUNP_HD bool operator()(M a) const {                      \
      if constexpr (std::is_floating_point_v<M>)              \
        return a == INF;                                      \
      else                                                    \
        return false;                                         \
    }                                                         \
  };
CUNP_SIGNED_INF(isposinf, inf_v<M>)
CUNP_SIGNED_INF(isneginf, -inf_v<M>)
#undef CUNP_SIGNED_INF

// ---------------------------------------------------------------------------------------------
// The halves of the two-output ufuncs, named after them for out='s errors.

struct divmod_quotient_op : floor_divide_op {
  static constexpr const char* name = "divmod";
};
struct divmod_remainder_op : remainder_op {
  static constexpr const char* name = "divmod";
};
/// modf: the fractional part and the integral part, both with x's sign (C's modf: +-0 and +-inf
/// for infinities).
struct modf_fractional_op : ufunc_loops<real_loops> {
  static constexpr const char* name = "modf";
  template <class M>
  CUNP_HD M operator()(M a) const {
    M integral;
    return real_modf(a, &integral);
  }
};
struct modf_integral_op : ufunc_loops<real_loops> {
  static constexpr const char* name = "modf";
  template <class M>
  CUNP_HD M operator()(M a) const {
    M integral;
    real_modf(a, &integral);
    return integral;
  }
};
/// frexp: x = mantissa * 2**exponent with |mantissa| in [0.5, 1); zeros, infinities and NaN are
/// their own mantissa with exponent 0 (glibc's, which C leaves unspecified).
struct frexp_mantissa_op : ufunc_loops<real_loops> {
  static constexpr const char* name = "frexp";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if (a == 0 || !is_finite(a)) return a;
    int e;
    return real_frexp(a, &e);
  }
};
template <class>
using int32_out_t = std::int32_t;
struct frexp_exponent_op : ufunc_loops<real_loops, int32_out_t> {
  static constexpr const char* name = "frexp";
  template <class M>
  CUNP_HD std::int32_t operator()(M a) const {
    if (a == 0 || !is_finite(a)) return 0;
    int e;
    real_frexp(a, &e);
    return e;
  }
};

// ---------------------------------------------------------------------------------------------
// NumPy's element-wise functions written in Python: float dtypes keep their type, bool and
// integers compute in float64 (NumPy's arithmetic with a Python float), and each step rounds to
// the dtype as NumPy's separate ufunc calls do.

template <class C>
using python_float_t = stored16_t<
    std::conditional_t<is_integer_v<C> || std::is_same_v<C, bool>, double, C>>;

/// sinc(x) = sin(pi x) / (pi x) by NumPy's steps: y = pi * x (pi rounded to the dtype), y = 0
/// replaced by a tiny value (so sinc(0) = 1), then sin(y) / y. Complex too.
struct sinc_op {
  static constexpr const char* name = "sinc";
  template <class C, class...>
  using loop_for = python_float_t<C>;
  template <class L>
  using out = unstored_t<L>;
  template <class L>
  static constexpr bool accepts = inexact_loops::has(dtype_of_v<unstored_t<L>>);
  template <class M>
  CUNP_HD auto operator()(M a) const {
    if constexpr (is_complex_v<M>) {
      using R = decltype(a.re);
      const M y = M(pi_v<R>, 0) * a;  // NumPy's complex product with pi + 0j
      if (y.re == 0 && y.im == 0) return M(1, 0);  // as sin(1e-20) / 1e-20
      return c_sin(y) / y;
    } else {
      const auto x = value_of(a);
      using R = decltype(x);
      const R y = round_as<M>(round_as<M>(pi_v<R>) * x);
      if (y == 0) return R(1);  // sin(eps) / eps rounds to 1 in every float type
      return round_as<M>(real_sin(y)) / y;
    }
  }
};

/// NumPy's i0 (Cephes' Chebyshev series, on |x| <= 8 and beyond), step by step as NumPy's
/// Python code: every constant and every operation rounded to the dtype, products unfused.
struct i0_op {
  static constexpr const char* name = "i0";
  template <class C, class...>
  using loop_for = python_float_t<C>;
  template <class L>
  using out = unstored_t<L>;
  template <class L>
  static constexpr bool accepts = real_loops::has(dtype_of_v<unstored_t<L>>);

  template <class M>
  CUNP_HD auto operator()(M a) const {
    const auto v = value_of(a);
    using R = decltype(v);
    const R x = real_fabs(v);
    if (x <= 8) {
      const R t = round_as<M>(round_as<M>(x / 2) - 2);
      return round_as<M>(round_as<M>(real_exp(x)) * chbevl<M>(t, false));
    }
    const R t = round_as<M>(round_as<M>(R(32) / x) - 2);
    const R e = round_as<M>(round_as<M>(real_exp(x)) * chbevl<M>(t, true));
    return e / round_as<M>(real_sqrt(x));
  }

 private:
  /// NumPy's _chbevl over Cephes' coefficients for |x| <= 8 (_i0A) or beyond (_i0B).
  template <class M, class R>
  CUNP_HD static R chbevl(R x, bool beyond8) {
    constexpr double a[30] = {
        -4.4153416464793395e-18, 3.3307945188222384e-17,  -2.431279846547955e-16,
        1.715391285555133e-15,   -1.1685332877993451e-14, 7.676185498604936e-14,
        -4.856446783111929e-13,  2.95505266312964e-12,    -1.726826291441556e-11,
        9.675809035373237e-11,   -5.189795601635263e-10,  2.6598237246823866e-09,
        -1.300025009986248e-08,  6.046995022541919e-08,   -2.670793853940612e-07,
        1.1173875391201037e-06,  -4.4167383584587505e-06, 1.6448448070728896e-05,
        -5.754195010082104e-05,  0.00018850288509584165,  -0.0005763755745385824,
        0.0016394756169413357,   -0.004324309995050576,   0.010546460394594998,
        -0.02373741480589947,    0.04930528423967071,     -0.09490109704804764,
        0.17162090152220877,     -0.3046826723431984,     0.6767952744094761};
    constexpr double b[25] = {
        -7.233180487874754e-18,  -4.830504485944182e-18,  4.46562142029676e-17,
        3.461222867697461e-17,   -2.8276239805165836e-16, -3.425485619677219e-16,
        1.7725601330565263e-15,  3.8116806693526224e-15,  -9.554846698828307e-15,
        -4.150569347287222e-14,  1.54008621752141e-14,    3.8527783827421426e-13,
        7.180124451383666e-13,   -1.7941785315068062e-12, -1.3215811840447713e-11,
        -3.1499165279632416e-11, 1.1889147107846439e-11,  4.94060238822497e-10,
        3.3962320257083865e-09,  2.266668990498178e-08,   2.0489185894690638e-07,
        2.8913705208347567e-06,  6.889758346916825e-05,   0.0033691164782556943,
        0.8044904110141088};
    const double* c = beyond8 ? b : a;
    const int n = beyond8 ? 25 : 30;
    R b0 = round_as<M>(R(c[0])), b1 = 0, b2 = 0;
    for (int i = 1; i < n; ++i) {
      b2 = b1;
      b1 = b0;
      b0 = round_as<M>(round_as<M>(round_as<M>(mul_rn(x, b1)) - b2) + round_as<M>(R(c[i])));
    }
    return round_as<M>(R(0.5) * round_as<M>(b0 - b2));
  }
};

/// numpy.nan_to_num on dtype L: NaN, +inf and -inf of each real part replaced by the given
/// values rounded to the part's dtype (NumPy's copyto); bool and integers unchanged.
template <class L>
struct nan_to_num_op {
  static constexpr const char* name = "nan_to_num";
  template <class, class...>
  using loop_for = L;
  template <class>
  using out = L;
  template <class>
  static constexpr bool accepts = true;
  using P = part_t<L>;
  using R = math_t<P>;
  R nan, posinf, neginf;

  nan_to_num_op(double n, std::optional<double> pos, std::optional<double> neg)
      : nan(part(n)), posinf(part(pos.value_or(largest))), neginf(part(neg.value_or(-largest))) {}

  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (is_complex_v<M>)
      return {replace(a.re), replace(a.im)};
    else if constexpr (std::is_floating_point_v<M>)
      return replace(a);
    else
      return a;
  }

 private:
  static constexpr double largest = [] {
    if constexpr (is_floating_v<P>)
      return double(static_cast<R>(finite_max<P>()));
    else
      return 0.0;  // unused: nothing is replaced
  }();
  static R part(double v) {
    if constexpr (is_floating_v<P>)
      return convert<R>(convert<P>(v));
    else
      return R{};
  }
  CUNP_HD R replace(R x) const {
    if (is_nan(x)) return nan;
    if (x == inf_v<R>) return posinf;
    if (x == -inf_v<R>) return neginf;
    return x;
  }
};

}  // namespace cunp::detail
