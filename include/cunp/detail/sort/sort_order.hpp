// cunp/detail/sort/sort_order.hpp: NumPy's sort order, on host and device: NaN after every number,
// -0.0 equal to 0.0, complex numbers by real part then imaginary part with NumPy's NaN classes;
// the comparisons every sort, search and unique uses, and the radix sorts' keys.
#pragma once
#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cunp/dtype.hpp"
#include "cunp/promotion.hpp"

namespace cunp::detail {


template <class T>
inline constexpr bool is_16bit_float_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

/// The real parts of a complex element (convert() reads complex numbers the same way).
template <class T>
CUNP_HD const typename complex_parts<T>::type* complex_parts_of(const T& v) {
  return reinterpret_cast<const typename complex_parts<T>::type*>(&v);
}

template <class T>
CUNP_HD constexpr bool order_isnan(const T& v) {
  if constexpr (is_complex_v<T>) {
    const auto* p = complex_parts_of(v);
    return p[0] != p[0] || p[1] != p[1];
  } else if constexpr (std::is_same_v<T, float16>) {
    return (v.bits & 0x7fffu) > 0x7c00u;
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return (v.bits & 0x7fffu) > 0x7f80u;
  } else if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

/// (xr + xi j) < (yr + yi j) in NumPy's order of complex numbers (npysort's CLT): by real part,
/// then imaginary part, in the NaN classes [R + Rj, R + nanj, nan + Rj, nan + nanj].
template <class R>
CUNP_HD constexpr bool complex_order_less(R xr, R xi, R yr, R yi) {
  const bool x_im = xi == xi, y_im = yi == yi;
  if (xr < yr) return x_im || !y_im;
  if (xr > yr) return !y_im && x_im;
  if (xr == yr || (xr != xr && yr != yr)) return xi < yi || (!y_im && x_im);
  return yr != yr;
}

/// a < b in NumPy's sort order (npysort's LT and CLT): NaN last, complex by parts.
template <class T>
CUNP_HD constexpr bool order_less(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) {
    const auto* x = complex_parts_of(a);
    const auto* y = complex_parts_of(b);
    return complex_order_less(x[0], x[1], y[0], y[1]);
  } else if constexpr (is_16bit_float_v<T>) {
    return order_less(static_cast<float>(a), static_cast<float>(b));
  } else if constexpr (std::is_floating_point_v<T>) {
    return a < b || (b != b && a == a);
  } else {
    return a < b;
  }
}

/// a == b as NumPy's `!=` sees it (NaN never equal), or with NaNs all equal (equal_nan).
template <class T>
CUNP_HD constexpr bool order_equal(const T& a, const T& b, bool equal_nan) {
  if (equal_nan && order_isnan(a) && order_isnan(b)) return true;
  if constexpr (is_complex_v<T>) {
    const auto* x = complex_parts_of(a);
    const auto* y = complex_parts_of(b);
    return x[0] == y[0] && x[1] == y[1];
  } else if constexpr (is_16bit_float_v<T>) {
    return static_cast<float>(a) == static_cast<float>(b);
  } else {
    return a == b;
  }
}

/// a < b for elements of two types: integers exactly (whatever their signs), anything else in
/// NumPy's common type of the two.
template <class A, class B>
CUNP_HD constexpr bool order_less_mixed(const A& a, const B& b) {
  if constexpr (std::is_same_v<A, B>) {
    return order_less(a, b);
  } else if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
    using SA = std::conditional_t<std::is_same_v<A, bool>, int, A>;
    using SB = std::conditional_t<std::is_same_v<B, bool>, int, B>;
    const SA x = a;
    const SB y = b;
    if constexpr (std::is_signed_v<SA> == std::is_signed_v<SB>)
      return x < y;
    else if constexpr (std::is_signed_v<SA>)
      return x < 0 || std::make_unsigned_t<SA>(x) < y;
    else
      return y >= 0 && x < std::make_unsigned_t<SB>(y);
  } else {
    using C = result_type_t<A, B>;
    return order_less(convert<C>(a), convert<C>(b));
  }
}

/// The unsigned integer whose order is NumPy's order of T (T not complex): the key of the radix
/// sorts. -0.0 and 0.0 share a key, and so do all NaNs (above +inf), so that a stable radix sort
/// by this key is NumPy's stable sort.
template <class T>
struct sort_key_of;
template <>
struct sort_key_of<bool> {
  using type = std::uint8_t;
};
template <class T>
requires std::is_integral_v<T>
struct sort_key_of<T> {
  using type = std::make_unsigned_t<T>;
};
template <>
struct sort_key_of<float16> {
  using type = std::uint16_t;
};
template <>
struct sort_key_of<bfloat16> {
  using type = std::uint16_t;
};
template <>
struct sort_key_of<float> {
  using type = std::uint32_t;
};
template <>
struct sort_key_of<double> {
  using type = std::uint64_t;
};
template <class T>
using sort_key_t = typename sort_key_of<T>::type;

/// The bits of +inf in floating T.
template <class T>
inline constexpr sort_key_t<T> inf_bits = [] {
  if constexpr (std::is_same_v<T, float16>)
    return sort_key_t<T>(0x7c00u);
  else if constexpr (std::is_same_v<T, bfloat16>)
    return sort_key_t<T>(0x7f80u);
  else
    return std::bit_cast<sort_key_t<T>>(std::numeric_limits<T>::infinity());
}();

template <class T>
CUNP_HD constexpr sort_key_t<T> sort_key(const T& v) {
  using K = sort_key_t<T>;
  constexpr K sign = K(K(1) << (8 * sizeof(K) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return K(v ? 1 : 0);
  } else if constexpr (std::is_integral_v<T>) {
    return std::is_signed_v<T> ? K(K(v) ^ sign) : K(v);
  } else {
    const K u = std::bit_cast<K>(v);
    const K mag = K(u & K(~sign));
    if (mag > inf_bits<T>) return K(~K(0));  // NaN
    if (mag == 0) return sign;                // -0.0 and 0.0
    return (u & sign) ? K(~u) : K(u | sign);
  }
}

}  // namespace cunp::detail
