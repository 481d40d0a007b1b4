// cunp/detail/expr/ufunc_ops.hpp: the functors behind NumPy's ufuncs, shared by every backend.
//
// A functor names its ufunc, lists the loops NumPy has for it (the dtypes it computes in), may
// change the output type (comparisons give bool, absolute of complex gives the real type), and
// maps values of the loop's math type (float for float16/bfloat16, cplx for complex). A dtype
// with no loop is a compile-time error, as it is a TypeError in NumPy.
//
// The families live in ufunc_ops_arith.hpp (arithmetic, rounding, extrema), ufunc_ops_math.hpp
// (exponential, logarithmic, trigonometric), ufunc_ops_logic.hpp (comparisons, logical,
// bitwise, classification), ufunc_ops_complex.hpp (real, imag, conjugate, angle) and
// ufunc_ops_extra.hpp (NumPy 2's remaining ufuncs, the two-output ones, sinc, i0, nan_to_num).
#pragma once
#include <initializer_list>
#include <utility>
#include <type_traits>

#include "cunp/detail/core/math.hpp"
#include "cunp/promotion.hpp"

namespace cunp::detail {

/// The loops of a ufunc, in NumPy's order.
template <dtype... D>
struct loops {
  /// NumPy's type resolution: the first loop that every operand casts to safely ('safe'
  /// casting). None: `fallback`, which `has` then rejects.
  static constexpr dtype pick(std::initializer_list<dtype> operands, dtype fallback) {
    for (const dtype l : {D...}) {
      bool all = true;
      for (const dtype o : operands) all = all && safe_cast(o, l);
      if (all) return l;
    }
    return fallback;
  }
  static constexpr bool has(dtype d) { return ((d == D) || ...); }
};

#define CUNP_INT_DTYPES                                                                \
  dtype::int8, dtype::uint8, dtype::int16, dtype::uint16, dtype::int32, dtype::uint32, \
      dtype::int64, dtype::uint64
#define CUNP_REAL_DTYPES dtype::float16, dtype::bfloat16, dtype::float32, dtype::float64
#define CUNP_COMPLEX_DTYPES dtype::complex64, dtype::complex128
using all_loops = loops<dtype::bool_, CUNP_INT_DTYPES, CUNP_REAL_DTYPES, CUNP_COMPLEX_DTYPES>;
using number_loops = loops<CUNP_INT_DTYPES, CUNP_REAL_DTYPES, CUNP_COMPLEX_DTYPES>;
using int_real_loops = loops<CUNP_INT_DTYPES, CUNP_REAL_DTYPES>;
using bool_int_real_loops = loops<dtype::bool_, CUNP_INT_DTYPES, CUNP_REAL_DTYPES>;
using inexact_loops = loops<CUNP_REAL_DTYPES, CUNP_COMPLEX_DTYPES>;
using real_loops = loops<CUNP_REAL_DTYPES>;
using bool_int_loops = loops<dtype::bool_, CUNP_INT_DTYPES>;
using int_loops = loops<CUNP_INT_DTYPES>;
#undef CUNP_INT_DTYPES
#undef CUNP_REAL_DTYPES
#undef CUNP_COMPLEX_DTYPES

/// A ufunc computing in the first of Loops that its operands cast to (In: the operands' dtypes,
/// weak scalars counted as the common dtype C), with output Out<loop>.
template <class Loops, template <class> class Out = std::type_identity_t>
struct ufunc_loops {
  template <class C, class... In>
  using loop_for = type_of_t<Loops::pick({dtype_of_v<In>...}, dtype_of_v<C>)>;
  template <class C>
  using loop = loop_for<C, C>;
  template <class L>
  using out = Out<L>;
  template <class L>
  static constexpr bool accepts = Loops::has(dtype_of_v<L>);
};

/// NumPy refuses bool for some ufuncs that accept int8 (negative, subtract: "use logical_not"),
/// rather than computing bool in int8 as for square: bool stays bool and is rejected.
template <class Loops>
struct ufunc_loops_no_bool : ufunc_loops<Loops> {
  template <class C, class... In>
  using loop_for = std::conditional_t<std::is_same_v<C, bool>, bool,
                                      typename ufunc_loops<Loops>::template loop_for<C, In...>>;
  template <class C>
  using loop = loop_for<C, C>;
};

template <class>
using bool_t = bool;
template <class L>
using part_t = typename complex_parts<L>::type;

/// Integer arithmetic that wraps like NumPy's (two's complement), without C++'s undefined
/// signed overflow: computed in an unsigned type at least as wide as int.
template <class M>
using wide_unsigned_t = std::conditional_t<sizeof(M) <= 4, std::uint32_t, std::uint64_t>;
template <class M>
CUNP_HD constexpr M wrap(wide_unsigned_t<M> v) {
  return static_cast<M>(v);
}
template <class M>
CUNP_HD constexpr wide_unsigned_t<M> bits_of(M v) {
  return static_cast<wide_unsigned_t<M>>(v);
}

/// An op that computes in the operands' common type, whatever it is, with output Out<loop>.
template <template <class> class Out = std::type_identity_t>
struct common_loop {
  template <class C, class...>
  using loop_for = C;
  template <class L>
  using out = Out<L>;
  template <class>
  static constexpr bool accepts = true;
};

/// where(condition, x, y): the condition is read as bool and takes no part in promotion.
struct where_op : common_loop<> {
  static constexpr const char* name = "where";
  static constexpr int passthrough = 1;
  template <class M>
  CUNP_HD M operator()(bool c, M x, M y) const {
    return c ? x : y;
  }
};

/// astype inside an expression: converts to T (fuses with the rest of the expression).
template <class T>
struct cast_op {
  static constexpr const char* name = "astype";
  template <class C, class...>
  using loop_for = C;
  template <class L>
  using out = T;
  template <class L>
  static constexpr bool accepts = true;
  template <class M>
  CUNP_HD T operator()(M a) const {
    return convert<T>(a);
  }
};

/// cunp::elementwise(f, x...): the user's callable F on Arity operands, computed in their common
/// type's math type (float16/bfloat16 as float); the result type is what F returns.
template <class F, class Seq>
struct user_op_base;
template <class F, std::size_t... I>
struct user_op_base<F, std::index_sequence<I...>> {
  template <std::size_t, class M>
  using arg_t = M;
  template <class C, class...>
  using loop_for = C;
  template <class L>
  using out = std::remove_cvref_t<decltype(std::declval<const F&>()(arg_t<I, math_t<L>>{}...))>;
  template <class>
  static constexpr bool accepts = true;
};
template <class F, int Arity>
struct user_op : user_op_base<F, std::make_index_sequence<Arity>> {
  static constexpr const char* name = "elementwise";
  F f;
  template <class... M>
  CUNP_HD auto operator()(M... m) const {
    return f(m...);
  }
};

}  // namespace cunp::detail

#include "cunp/detail/expr/ufunc_ops_arith.hpp"
#include "cunp/detail/expr/ufunc_ops_complex.hpp"
#include "cunp/detail/expr/ufunc_ops_logic.hpp"
#include "cunp/detail/expr/ufunc_ops_math.hpp"
#include "cunp/detail/expr/ufunc_ops_extra.hpp"
