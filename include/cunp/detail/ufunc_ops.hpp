// cunp/detail/ufunc_ops.hpp: the functors behind NumPy's ufuncs, shared by every backend.
//
// A functor names its ufunc, says which loop types it accepts, may change the loop type
// (divide computes integers in float64) or the output type (comparisons give bool), and maps
// values of the loop's math type (float for float16/bfloat16, cplx for complex).
#pragma once
#include <cmath>

#include "cunp/detail/math.hpp"

namespace cunp::detail {

struct same_loop {
  template <class C> using loop = C;
  template <class L> using out = L;
};
struct bool_out {
  template <class C> using loop = C;
  template <class L> using out = bool;
};
template <class C> using float_loop_t = std::conditional_t<is_integer_v<C> || std::is_same_v<C, bool>, double, C>;

// Single-precision C math on float, double-precision on double: both exist on host and device.
#define CUNP_REAL_FN(name, fn)                                             \
  CUNP_HD inline float name(float x) { return ::fn##f(x); }               \
  CUNP_HD inline double name(double x) { return ::fn(x); }
CUNP_REAL_FN(real_sqrt, sqrt)
CUNP_REAL_FN(real_exp, exp)
CUNP_REAL_FN(real_log, log)
CUNP_REAL_FN(real_sin, sin)
CUNP_REAL_FN(real_cos, cos)
CUNP_REAL_FN(real_tanh, tanh)
CUNP_REAL_FN(real_fabs, fabs)
#undef CUNP_REAL_FN

struct add_op : same_loop {
  static constexpr const char* name = "add";
  template <class L> static constexpr bool accepts = true;
  template <class M> CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>) return a || b;
    else return static_cast<M>(a + b);
  }
};
struct subtract_op : same_loop {
  static constexpr const char* name = "subtract";
  template <class L> static constexpr bool accepts = !std::is_same_v<L, bool>;
  template <class M> CUNP_HD M operator()(M a, M b) const { return static_cast<M>(a - b); }
};
struct multiply_op : same_loop {
  static constexpr const char* name = "multiply";
  template <class L> static constexpr bool accepts = true;
  template <class M> CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_same_v<M, bool>) return a && b;
    else return static_cast<M>(a * b);
  }
};
struct divide_op {
  static constexpr const char* name = "divide";
  template <class C> using loop = float_loop_t<C>;
  template <class L> using out = L;
  template <class L> static constexpr bool accepts = true;
  template <class M> CUNP_HD M operator()(M a, M b) const { return a / b; }
};
struct negative_op : same_loop {
  static constexpr const char* name = "negative";
  template <class L> static constexpr bool accepts = !std::is_same_v<L, bool>;
  template <class M> CUNP_HD M operator()(M a) const { return static_cast<M>(-a); }
};

#define CUNP_COMPARISON(NAME, OP)                                                    \
  struct NAME##_op : bool_out {                                                      \
    static constexpr const char* name = #NAME;                                       \
    template <class L> static constexpr bool accepts = true;                         \
    template <class M> CUNP_HD bool operator()(M a, M b) const { return a OP b; }    \
  };
CUNP_COMPARISON(equal, ==)
CUNP_COMPARISON(not_equal, !=)
CUNP_COMPARISON(less, <)
CUNP_COMPARISON(less_equal, <=)
CUNP_COMPARISON(greater, >)
CUNP_COMPARISON(greater_equal, >=)
#undef CUNP_COMPARISON

// Real transcendental functions: integers compute in float64 (NumPy's loop for sqrt(int) is 'd').
#define CUNP_REAL_UFUNC(NAME, FN)                                                          \
  struct NAME##_op {                                                                       \
    static constexpr const char* name = #NAME;                                             \
    template <class C> using loop = float_loop_t<C>;                                       \
    template <class L> using out = L;                                                      \
    template <class L> static constexpr bool accepts = !is_complex_v<L>;                   \
    template <class M> CUNP_HD M operator()(M a) const { return FN(a); }                   \
  };
CUNP_REAL_UFUNC(sqrt, real_sqrt)
CUNP_REAL_UFUNC(exp, real_exp)
CUNP_REAL_UFUNC(log, real_log)
CUNP_REAL_UFUNC(sin, real_sin)
CUNP_REAL_UFUNC(cos, real_cos)
CUNP_REAL_UFUNC(tanh, real_tanh)
#undef CUNP_REAL_UFUNC

/// maximum/minimum propagate NaN (NumPy); fmax/fmin ignore it.
struct maximum_op : same_loop {
  static constexpr const char* name = "maximum";
  template <class L> static constexpr bool accepts = !is_complex_v<L>;
  template <class M> CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_floating_point_v<M>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a >= b ? a : b;
  }
};
struct minimum_op : same_loop {
  static constexpr const char* name = "minimum";
  template <class L> static constexpr bool accepts = !is_complex_v<L>;
  template <class M> CUNP_HD M operator()(M a, M b) const {
    if constexpr (std::is_floating_point_v<M>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a <= b ? a : b;
  }
};

/// where(condition, x, y): the condition is read as bool and takes no part in promotion.
struct where_op : same_loop {
  static constexpr const char* name = "where";
  static constexpr int passthrough = 1;
  template <class L> static constexpr bool accepts = true;
  template <class M> CUNP_HD M operator()(bool c, M x, M y) const { return c ? x : y; }
};

/// astype inside an expression: converts to T (fuses with the rest of the expression).
template <class T> struct cast_op {
  static constexpr const char* name = "astype";
  template <class C> using loop = C;
  template <class L> using out = T;
  template <class L> static constexpr bool accepts = true;
  template <class M> CUNP_HD T operator()(M a) const { return convert<T>(a); }
};

}  // namespace cunp::detail
