// cunp/promotion.hpp: NumPy 2 type promotion (np.result_type, NEP 50), decided at compile time.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "cunp/dtype.hpp"

namespace cunp {

namespace detail {
// A dtype as (kind, bits): kind 0 bool, 1 unsigned, 2 signed, 3 float, 4 bfloat16, 5 complex;
// bits of the value (of each part for complex).
struct kind_bits {
  int kind, bits;
};
constexpr kind_bits describe(dtype d) {
  switch (d) {
    case dtype::bool_: return {0, 8};
    case dtype::uint8: return {1, 8};
    case dtype::uint16: return {1, 16};
    case dtype::uint32: return {1, 32};
    case dtype::uint64: return {1, 64};
    case dtype::int8: return {2, 8};
    case dtype::int16: return {2, 16};
    case dtype::int32: return {2, 32};
    case dtype::int64: return {2, 64};
    case dtype::float16: return {3, 16};
    case dtype::bfloat16: return {4, 16};
    case dtype::float32: return {3, 32};
    case dtype::float64: return {3, 64};
    case dtype::complex64: return {5, 32};
    case dtype::complex128: return {5, 64};
  }
  return {0, 8};
}
constexpr dtype int_dtype(bool is_signed, int bits) {
  switch (bits) {
    case 8: return is_signed ? dtype::int8 : dtype::uint8;
    case 16: return is_signed ? dtype::int16 : dtype::uint16;
    case 32: return is_signed ? dtype::int32 : dtype::uint32;
    default: return is_signed ? dtype::int64 : dtype::uint64;
  }
}
constexpr dtype float_dtype(int bits) {
  return bits <= 16 ? dtype::float16 : bits == 32 ? dtype::float32 : dtype::float64;
}
// Bits of float that hold every value of an integer of `bits` exactly enough for NumPy:
// 8-bit ints go to float16, 16-bit to float32, wider to float64.
constexpr int float_bits_for_int(int bits) { return bits == 8 ? 16 : bits == 16 ? 32 : 64; }

/// np.result_type of two dtypes (bfloat16 follows ml_dtypes where it defines a result and
/// float16's rules where it does not; see docs/differences.md).
constexpr dtype promote(dtype a, dtype b) {
  const kind_bits x = describe(a), y = describe(b);
  if (a == b) return a;
  if (x.kind == 0) return b;
  if (y.kind == 0) return a;
  if (x.kind > y.kind) return promote(b, a);  // now x.kind <= y.kind
  if (y.kind == 5) {  // complex: parts promoted as floats
    const dtype part = promote(a == dtype::complex64 ? dtype::float32 : a == dtype::complex128 ? dtype::float64 : a,
                               y.bits == 32 ? dtype::float32 : dtype::float64);
    return describe(part).bits <= 32 ? dtype::complex64 : dtype::complex128;
  }
  if (y.kind == 4) {  // bfloat16 with an integer or a float
    if (x.kind == 3 || x.bits > 8)
      return x.kind == 3 ? (x.bits == 64 ? dtype::float64 : dtype::float32)
                         : float_dtype(float_bits_for_int(x.bits));
    return dtype::bfloat16;
  }
  if (y.kind == 3) {
    const int need = x.kind == 3 ? x.bits : float_bits_for_int(x.bits);
    return float_dtype(need > y.bits ? need : y.bits);
  }
  if (x.kind == y.kind) return int_dtype(x.kind == 2, x.bits > y.bits ? x.bits : y.bits);
  // unsigned x with signed y
  if (x.bits < y.bits) return b;
  return x.bits < 64 ? int_dtype(true, x.bits * 2) : dtype::float64;
}

/// NEP 50: a C++ scalar (like a Python scalar) is weak. Its kind alone matters: an int keeps the
/// array's dtype (bool arrays go to int64), a float keeps float arrays' dtype and lifts integers
/// to float64, a complex lifts to the complex of the array's precision.
constexpr dtype promote_weak(dtype a, int scalar_kind) {
  const kind_bits x = describe(a);
  switch (scalar_kind) {
    case 0: return a;                                         // bool
    case 2: return x.kind == 0 ? dtype::int64 : a;            // int
    case 3: return x.kind <= 2 ? dtype::float64 : a;          // float
    default:                                                   // complex
      if (x.kind == 5) return a;
      if (x.kind == 3 || x.kind == 4) return x.bits <= 32 ? dtype::complex64 : dtype::complex128;
      return dtype::complex128;
  }
}

/// numpy's repr of a dtype, as its casting errors show it: dtype('float64'), and
/// dtype(bfloat16) as ml_dtypes spells its type.
inline std::string dtype_repr(dtype d) {
  if (d == dtype::bfloat16) return "dtype(bfloat16)";
  return "dtype('" + std::string(dtype_name(d)) + "')";
}

/// numpy's ordering of dtype kinds for 'same_kind' casting: bool < unsigned < signed < float
/// < complex (bfloat16 is a float).
constexpr int kind_rank(dtype d) {
  const int k = describe(d).kind;
  return k == 4 ? 3 : k == 5 ? 4 : k;
}

constexpr int dtype_bytes(dtype d) {
  switch (d) {
    case dtype::bool_: case dtype::int8: case dtype::uint8: return 1;
    case dtype::int16: case dtype::uint16: case dtype::float16: case dtype::bfloat16: return 2;
    case dtype::int32: case dtype::uint32: case dtype::float32: return 4;
    case dtype::int64: case dtype::uint64: case dtype::float64: case dtype::complex64: return 8;
    case dtype::complex128: return 16;
  }
  return 0;
}

/// numpy.can_cast(from, to, 'safe'): every value of `from` is kept exactly, except that NumPy
/// calls 64-bit integers to float64 safe. bfloat16 follows ml_dtypes (from bool, int8, uint8;
/// to float32 and wider).
constexpr bool safe_cast(dtype from, dtype to) {
  if (from == to || from == dtype::bool_) return true;
  const int kf = kind_rank(from), kt = kind_rank(to);
  const int sf = dtype_bytes(from), st = dtype_bytes(to);
  switch (kt) {
    case 4:
      if (kf == 4) return st >= sf;
      return safe_cast(from, st == 8 ? dtype::float32 : dtype::float64);
    case 3:
      if (kf == 3) return st > sf;
      return (kf == 1 || kf == 2) && (st > sf || to == dtype::float64);
    case 2: return (kf == 2 && st >= sf) || (kf == 1 && st > sf);
    case 1: return kf == 1 && st >= sf;
    default: return false;
  }
}

template <dtype D> struct type_of;
template <> struct type_of<dtype::bool_> { using type = bool; };
template <> struct type_of<dtype::int8> { using type = std::int8_t; };
template <> struct type_of<dtype::int16> { using type = std::int16_t; };
template <> struct type_of<dtype::int32> { using type = std::int32_t; };
template <> struct type_of<dtype::int64> { using type = std::int64_t; };
template <> struct type_of<dtype::uint8> { using type = std::uint8_t; };
template <> struct type_of<dtype::uint16> { using type = std::uint16_t; };
template <> struct type_of<dtype::uint32> { using type = std::uint32_t; };
template <> struct type_of<dtype::uint64> { using type = std::uint64_t; };
template <> struct type_of<dtype::float16> { using type = float16; };
template <> struct type_of<dtype::bfloat16> { using type = bfloat16; };
template <> struct type_of<dtype::float32> { using type = float; };
template <> struct type_of<dtype::float64> { using type = double; };
template <> struct type_of<dtype::complex64> { using type = std::complex<float>; };
template <> struct type_of<dtype::complex128> { using type = std::complex<double>; };

/// The kind of a C++ scalar type for promote_weak (0 bool, 2 integer, 3 float, 5 complex).
template <class S>
inline constexpr int scalar_kind_v = std::is_same_v<S, bool> ? 0
                                     : std::is_integral_v<S> ? 2
                                     : is_complex_v<S>       ? 5
                                                             : 3;
}  // namespace detail

/// numpy's casting rules of copyto, astype and ufunc outputs.
enum class casting : std::uint8_t { no, equiv, safe, same_kind, unsafe };

/// numpy.can_cast(from_, to, casting) for dtypes.
[[nodiscard]] constexpr bool can_cast(dtype from, dtype to, casting rule = casting::safe) {
  switch (rule) {
    case casting::no:
    case casting::equiv: return from == to;
    case casting::safe: return detail::safe_cast(from, to);
    case casting::same_kind:
      return detail::safe_cast(from, to) || detail::kind_rank(from) <= detail::kind_rank(to);
    case casting::unsafe: return true;
  }
  return false;
}

/// NumPy's name of a casting rule ('same_kind').
[[nodiscard]] constexpr std::string_view casting_name(casting rule) {
  switch (rule) {
    case casting::no: return "no";
    case casting::equiv: return "equiv";
    case casting::safe: return "safe";
    case casting::same_kind: return "same_kind";
    case casting::unsafe: return "unsafe";
  }
  return "?";
}

/// The element type with run-time dtype D.
template <dtype D> using type_of_t = typename detail::type_of<D>::type;

/// np.result_type(A, B) for two element types (arrays or 0-d arrays: strong).
template <element_type A, element_type B>
using result_type_t = type_of_t<detail::promote(dtype_of_v<A>, dtype_of_v<B>)>;

/// The element type of (array of A) op (C++ scalar of type S): S is weak (NEP 50).
template <element_type A, class S>
using weak_result_type_t = type_of_t<detail::promote_weak(dtype_of_v<A>, detail::scalar_kind_v<S>)>;

namespace detail {
/// A weak integer scalar must fit the integer dtype it meets (NumPy: OverflowError).
template <class L, class S> void check_weak_fits(const S& value) {
  if constexpr (std::is_integral_v<S> && !std::is_same_v<S, bool> && std::is_integral_v<L> &&
                !std::is_same_v<L, bool>) {
    if (!std::in_range<L>(value))
      throw value_error("Python integer " + std::to_string(value) + " out of bounds for " +
                        std::string(dtype_name_v<L>));
  }
}
}  // namespace detail

/// True for C++ scalars that act as weak (Python-like) scalars in expressions.
template <class S>
inline constexpr bool is_weak_scalar_v = std::is_arithmetic_v<S> || is_complex_v<S>;

}  // namespace cunp
