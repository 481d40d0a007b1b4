// cunp/detail/expr/ufunc_ops_logic.hpp: comparison, logical, bitwise and classification ufuncs (see
// ufunc_ops.hpp). Comparisons, logical ufuncs and classifications give bool.
#pragma once
#include <cstdint>
#include <type_traits>

namespace cunp::detail {

/// The loop type of comparisons between int64 and uint64, which NumPy 2 compares exactly (their
/// common dtype, float64, would call 2^63 - 1 and 2^63 equal): a sign and a magnitude.
struct exact_int {
  bool neg = false;
  std::uint64_t mag = 0;
  exact_int() = default;
  CUNP_HD constexpr exact_int(std::int64_t v)  // NOLINT: converted to like any loop type
      : neg(v < 0), mag(v < 0 ? std::uint64_t(0) - std::uint64_t(v) : std::uint64_t(v)) {}
  CUNP_HD constexpr exact_int(std::uint64_t v) : mag(v) {}  // NOLINT
  CUNP_HD friend constexpr bool operator==(exact_int a, exact_int b) {
    return a.mag == b.mag && (a.neg == b.neg || a.mag == 0);
  }
  CUNP_HD friend constexpr bool operator<(exact_int a, exact_int b) {
    if (a == b) return false;
    if (a.neg != b.neg) return a.neg;
    return a.neg ? a.mag > b.mag : a.mag < b.mag;
  }
  CUNP_HD friend constexpr bool operator!=(exact_int a, exact_int b) { return !(a == b); }
  CUNP_HD friend constexpr bool operator>(exact_int a, exact_int b) { return b < a; }
  CUNP_HD friend constexpr bool operator<=(exact_int a, exact_int b) { return !(b < a); }
  CUNP_HD friend constexpr bool operator>=(exact_int a, exact_int b) { return !(a < b); }
};
template <>
struct math_type<exact_int> {
  using type = exact_int;
};
template <class... In>
inline constexpr bool mixed_64_v =
    sizeof...(In) == 2 && (std::is_same_v<In, std::int64_t> || ...) &&
    (std::is_same_v<In, std::uint64_t> || ...);

/// Comparisons: NumPy's loops, and exact_int for int64 against uint64.
struct comparison_loops : ufunc_loops<all_loops, bool_t> {
  template <class C, class... In>
  using loop_for = std::conditional_t<mixed_64_v<In...>, exact_int,
                                      typename ufunc_loops<all_loops, bool_t>::template loop_for<C, In...>>;
  template <class L>
  static constexpr bool accepts_loop() {
    if constexpr (std::is_same_v<L, exact_int>)
      return true;
    else
      return all_loops::has(dtype_of_v<L>);
  }
  template <class L>
  static constexpr bool accepts = accepts_loop<L>();
};

// Complex numbers compare lexicographically (NumPy 2), a NaN part making < and > false.
#define CUNP_COMPARISON(NAME, OP, COMPLEX)     \
  struct NAME##_op : comparison_loops {        \
    static constexpr const char* name = #NAME; \
    template <class M>                         \
    CUNP_HD bool operator()(M a, M b) const {  \
      if constexpr (is_complex_v<M>)           \
        return COMPLEX;                        \
      else                                     \
        return a OP b;                         \
    }                                          \
  };
CUNP_COMPARISON(equal, ==, a == b)
CUNP_COMPARISON(not_equal, !=, a != b)
CUNP_COMPARISON(less, <, c_less(a, b))
CUNP_COMPARISON(less_equal, <=, c_less_equal(a, b))
CUNP_COMPARISON(greater, >, c_less(b, a))
CUNP_COMPARISON(greater_equal, >=, c_less_equal(b, a))
#undef CUNP_COMPARISON

/// The truth of a value: non-zero (NaN is true; complex: either part non-zero).
template <class M>
CUNP_HD constexpr bool truth(M a) {
  if constexpr (is_complex_v<M>)
    return a.re != 0 || a.im != 0;
  else
    return a != M(0);
}
/// The binary logical ufuncs' loop: NumPy has one per dtype and '??->?', which operands of
/// different dtypes resolve to (a Python scalar too: logical_and(float32, 1e-300) does not
/// underflow the scalar, logical_and(int8, 300) does not overflow it). Each operand converts to
/// bool in its own type; the typed loops give the same truths, so every operand goes to bool.
struct logical_loops {
  template <class C, class...>
  using loop_for = bool;
  template <class L>
  using out = bool;
  template <class>
  static constexpr bool accepts = true;
};
#define CUNP_LOGICAL(NAME, EXPR)                    \
  struct NAME##_op : logical_loops {                \
    static constexpr const char* name = #NAME;      \
    CUNP_HD bool operator()(bool a, bool b) const { \
      return EXPR;                                  \
    }                                               \
  };
CUNP_LOGICAL(logical_and, a && b)
CUNP_LOGICAL(logical_or, a || b)
CUNP_LOGICAL(logical_xor, a != b)
#undef CUNP_LOGICAL
struct logical_not_op : ufunc_loops<all_loops, bool_t> {
  static constexpr const char* name = "logical_not";
  template <class M>
  CUNP_HD bool operator()(M a) const {
    return !truth(a);
  }
};

// Bitwise operations: bool and integers (bool stays bool: logical).
#define CUNP_BITWISE(NAME, OP)                     \
  struct NAME##_op : ufunc_loops<bool_int_loops> { \
    static constexpr const char* name = #NAME;     \
    template <class M>                             \
    CUNP_HD M operator()(M a, M b) const {         \
      return static_cast<M>(a OP b);               \
    }                                              \
  };
CUNP_BITWISE(bitwise_and, &)
CUNP_BITWISE(bitwise_or, |)
CUNP_BITWISE(bitwise_xor, ^)
#undef CUNP_BITWISE
struct invert_op : ufunc_loops<bool_int_loops> {
  static constexpr const char* name = "invert";
  template <class M>
  CUNP_HD M operator()(M a) const {
    if constexpr (std::is_same_v<M, bool>)
      return !a;
    else
      return static_cast<M>(~a);
  }
};

/// Shifts by the bit width or more (or by a negative amount) give 0, or -1 for a right shift of
/// a negative value, as NumPy defines them (C leaves them undefined).
template <class M>
CUNP_HD constexpr bool shift_in_range(M b) {
  return static_cast<std::make_unsigned_t<M>>(b) < sizeof(M) * 8;
}
struct left_shift_op : ufunc_loops<int_loops> {
  static constexpr const char* name = "left_shift";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    return shift_in_range(b) ? wrap<M>(bits_of(a) << b) : M(0);
  }
};
struct right_shift_op : ufunc_loops<int_loops> {
  static constexpr const char* name = "right_shift";
  template <class M>
  CUNP_HD M operator()(M a, M b) const {
    if (shift_in_range(b)) return static_cast<M>(a >> b);  // arithmetic for signed (C++20)
    if constexpr (std::is_signed_v<M>)
      return a < 0 ? M(-1) : M(0);
    else
      return M(0);
  }
};

// Classification: integers and bool are finite and never NaN.
#define CUNP_CLASSIFY(NAME, REAL, COMPLEX, INTEGER)   \
  struct NAME##_op : ufunc_loops<all_loops, bool_t> { \
    static constexpr const char* name = #NAME;        \
    template <class M>                                \
    CUNP_HD bool operator()(M a) const {              \
      if constexpr (is_complex_v<M>)                  \
        return COMPLEX;                               \
      else if constexpr (std::is_floating_point_v<M>) \
        return REAL;                                  \
      else                                            \
        return INTEGER;                               \
    }                                                 \
  };
CUNP_CLASSIFY(isnan, is_nan(a), is_nan(a.re) || is_nan(a.im), false)
CUNP_CLASSIFY(isinf, is_inf(a), is_inf(a.re) || is_inf(a.im), false)
CUNP_CLASSIFY(isfinite, is_finite(a), is_finite(a.re) && is_finite(a.im), true)
#undef CUNP_CLASSIFY
/// The sign bit, also of -0.0 and -nan.
struct signbit_op : ufunc_loops<real_loops, bool_t> {
  static constexpr const char* name = "signbit";
  template <class M>
  CUNP_HD bool operator()(M a) const {
    return sign_bit(a);
  }
};

}  // namespace cunp::detail
