// cunp/detail/expr/ufunc_ops_math.hpp: exponential, logarithmic, trigonometric and other floating
// point ufuncs (see ufunc_ops.hpp). Integers compute in the first float they cast to safely
// (int8 -> float16, int16 -> float32, int32 -> float64), as NumPy's loops.
#pragma once

namespace cunp::detail {

template <class R>
CUNP_HD cplx<R> c_exp2(cplx<R> z) {
  return c_exp(cplx<R>(z.re * ln2_v<R>, z.im * ln2_v<R>));
}
/// NumPy's: expm1(x) cos(y) - 2 sin(y/2)^2 + i e^x sin(y).
template <class R>
CUNP_HD cplx<R> c_expm1(cplx<R> z) {
  const R s = real_sin(z.im / 2);
  return {real_expm1(z.re) * real_cos(z.im) - 2 * s * s, real_exp(z.re) * real_sin(z.im)};
}
/// NumPy's: log|1 + z| + i arg(1 + z).
template <class R>
CUNP_HD cplx<R> c_log1p(cplx<R> z) {
  const R x = z.re + 1;
  return {real_log(real_hypot(x, z.im)), real_atan2(z.im, x)};
}
template <class R>
CUNP_HD cplx<R> c_log2(cplx<R> z) {
  const cplx<R> w = c_log(z);
  constexpr R k = R(1.442695040888963407359924681001892137);  // log2(e)
  return {w.re * k, w.im * k};
}
template <class R>
CUNP_HD cplx<R> c_log10(cplx<R> z) {
  const cplx<R> w = c_log(z);
  constexpr R k = R(0.434294481903251827651128918916605082);  // log10(e)
  return {w.re * k, w.im * k};
}

// Functions of real and complex dtypes.
#define CUNP_INEXACT_UFUNC(NAME, REAL, COMPLEX)   \
  struct NAME##_op : ufunc_loops<inexact_loops> { \
    static constexpr const char* name = #NAME;    \
    template <class M>                            \
    CUNP_HD M operator()(M a) const {             \
      if constexpr (is_complex_v<M>)              \
        return COMPLEX(a);                        \
      else                                        \
        return REAL(a);                           \
    }                                             \
  };
CUNP_INEXACT_UFUNC(sqrt, real_sqrt, c_sqrt)
CUNP_INEXACT_UFUNC(exp, real_exp, c_exp)
CUNP_INEXACT_UFUNC(exp2, real_exp2, c_exp2)
CUNP_INEXACT_UFUNC(expm1, real_expm1, c_expm1)
CUNP_INEXACT_UFUNC(log, real_log, c_log)
CUNP_INEXACT_UFUNC(log2, real_log2, c_log2)
CUNP_INEXACT_UFUNC(log10, real_log10, c_log10)
CUNP_INEXACT_UFUNC(log1p, real_log1p, c_log1p)
CUNP_INEXACT_UFUNC(sin, real_sin, c_sin)
CUNP_INEXACT_UFUNC(cos, real_cos, c_cos)
CUNP_INEXACT_UFUNC(tan, real_tan, c_tan)
CUNP_INEXACT_UFUNC(arcsin, real_asin, c_asin)
CUNP_INEXACT_UFUNC(arccos, real_acos, c_acos)
CUNP_INEXACT_UFUNC(arctan, real_atan, c_atan)
CUNP_INEXACT_UFUNC(sinh, real_sinh, c_sinh)
CUNP_INEXACT_UFUNC(cosh, real_cosh, c_cosh)
CUNP_INEXACT_UFUNC(tanh, real_tanh, c_tanh)
CUNP_INEXACT_UFUNC(arcsinh, real_asinh, c_asinh)
CUNP_INEXACT_UFUNC(arccosh, real_acosh, c_acosh)
CUNP_INEXACT_UFUNC(arctanh, real_atanh, c_atanh)
#undef CUNP_INEXACT_UFUNC

// Functions of real dtypes only.
template <class R>
CUNP_HD R deg2rad(R x) {
  return x * (pi_v<R> / R(180));
}
template <class R>
CUNP_HD R rad2deg(R x) {
  return x * (R(180) / pi_v<R>);
}
#define CUNP_REAL_UFUNC(NAME, FN)              \
  struct NAME##_op : ufunc_loops<real_loops> { \
    static constexpr const char* name = #NAME; \
    template <class M>                         \
    CUNP_HD M operator()(M a) const {          \
      return FN(a);                            \
    }                                          \
  };
CUNP_REAL_UFUNC(cbrt, real_cbrt)
CUNP_REAL_UFUNC(deg2rad, deg2rad)
CUNP_REAL_UFUNC(rad2deg, rad2deg)
#undef CUNP_REAL_UFUNC
#define CUNP_REAL_UFUNC2(NAME, FN)             \
  struct NAME##_op : ufunc_loops<real_loops> { \
    static constexpr const char* name = #NAME; \
    template <class M>                         \
    CUNP_HD M operator()(M a, M b) const {     \
      return FN(a, b);                         \
    }                                          \
  };
CUNP_REAL_UFUNC2(arctan2, real_atan2)
CUNP_REAL_UFUNC2(hypot, real_hypot)
CUNP_REAL_UFUNC2(copysign, real_copysign)
#undef CUNP_REAL_UFUNC2

}  // namespace cunp::detail
