// cunp/dtype.hpp: the element types of ndarray<T> (NumPy's dtypes) and their traits.
#pragma once
#include <bit>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "cunp/config.hpp"
#include "cunp/errors.hpp"

namespace cunp {

namespace detail {
// float <-> binary16 with round-to-nearest-even, NaN kept quiet (as NumPy's npy_float_to_half).
CUNP_HD constexpr std::uint16_t float_to_half_bits(float value) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = u & 0x80000000u;
  u ^= sign;
  std::uint32_t out;
  if (u >= (127u + 16u) << 23) {  // |x| >= 65536: inf, or NaN
    out = u > (255u << 23) ? 0x7e00u : 0x7c00u;
  } else if (u < (113u << 23)) {  // result is subnormal or zero: let float addition round it
    const float magic = std::bit_cast<float>(((127u - 15u) + (23u - 10u) + 1u) << 23);
    out = std::bit_cast<std::uint32_t>(std::bit_cast<float>(u) + magic) -
          std::bit_cast<std::uint32_t>(magic);
  } else {
    const std::uint32_t odd = (u >> 13) & 1u;
    u += (std::uint32_t(15 - 127) << 23) + 0xfffu + odd;
    out = u >> 13;
  }
  return static_cast<std::uint16_t>(out | (sign >> 16));
}

CUNP_HD constexpr float half_bits_to_float(std::uint16_t h) {
  constexpr std::uint32_t shifted_exp = 0x7c00u << 13;
  std::uint32_t o = (std::uint32_t(h) & 0x7fffu) << 13;
  const std::uint32_t exp = shifted_exp & o;
  o += (127u - 15u) << 23;
  if (exp == shifted_exp) {
    o += (128u - 16u) << 23;  // inf or NaN
  } else if (exp == 0) {      // zero or subnormal: renormalise through float arithmetic
    o += 1u << 23;
    o = std::bit_cast<std::uint32_t>(std::bit_cast<float>(o) - std::bit_cast<float>(113u << 23));
  }
  return std::bit_cast<float>(o | ((std::uint32_t(h) & 0x8000u) << 16));
}

CUNP_HD constexpr std::uint16_t float_to_bfloat16_bits(float value) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
}  // namespace detail

/// IEEE binary16 (numpy.float16). Arithmetic is done in float32, as NumPy does.
struct float16 {
  std::uint16_t bits = 0;
  constexpr float16() = default;
  CUNP_HD constexpr float16(float v) : bits(detail::float_to_half_bits(v)) {}
  template <class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
  CUNP_HD constexpr float16(U v) : float16(static_cast<float>(v)) {}
  CUNP_HD static constexpr float16 from_bits(std::uint16_t b) {
    float16 h;
    h.bits = b;
    return h;
  }
  CUNP_HD constexpr operator float() const { return detail::half_bits_to_float(bits); }
};

/// bfloat16 (ml_dtypes.bfloat16): the top half of a float32. Arithmetic is done in float32.
struct bfloat16 {
  std::uint16_t bits = 0;
  constexpr bfloat16() = default;
  CUNP_HD constexpr bfloat16(float v) : bits(detail::float_to_bfloat16_bits(v)) {}
  template <class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
  CUNP_HD constexpr bfloat16(U v) : bfloat16(static_cast<float>(v)) {}
  CUNP_HD static constexpr bfloat16 from_bits(std::uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
  CUNP_HD constexpr operator float() const { return std::bit_cast<float>(std::uint32_t(bits) << 16); }
};

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

/// NumPy's dtypes, in the order of numpy's type numbers where that matters to nobody.
enum class dtype : std::uint8_t {
  bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
  float16, bfloat16, float32, float64, complex64, complex128
};

namespace detail {
template <class T> struct dtype_info { static constexpr bool supported = false; };
#define CUNP_DTYPE(T, ID, NAME, KIND)                         \
  template <> struct dtype_info<T> {                          \
    static constexpr bool supported = true;                   \
    static constexpr ::cunp::dtype id = ::cunp::dtype::ID;    \
    static constexpr std::string_view name = NAME;            \
    static constexpr char kind = KIND;                        \
  };
CUNP_DTYPE(bool, bool_, "bool", 'b')
CUNP_DTYPE(std::int8_t, int8, "int8", 'i')
CUNP_DTYPE(std::int16_t, int16, "int16", 'i')
CUNP_DTYPE(std::int32_t, int32, "int32", 'i')
CUNP_DTYPE(std::int64_t, int64, "int64", 'i')
CUNP_DTYPE(std::uint8_t, uint8, "uint8", 'u')
CUNP_DTYPE(std::uint16_t, uint16, "uint16", 'u')
CUNP_DTYPE(std::uint32_t, uint32, "uint32", 'u')
CUNP_DTYPE(std::uint64_t, uint64, "uint64", 'u')
CUNP_DTYPE(float16, float16, "float16", 'f')
CUNP_DTYPE(bfloat16, bfloat16, "bfloat16", 'f')
CUNP_DTYPE(float, float32, "float32", 'f')
CUNP_DTYPE(double, float64, "float64", 'f')
CUNP_DTYPE(std::complex<float>, complex64, "complex64", 'c')
CUNP_DTYPE(std::complex<double>, complex128, "complex128", 'c')
#undef CUNP_DTYPE
}  // namespace detail

/// True for the element types ndarray<T> accepts.
template <class T> inline constexpr bool is_dtype_v = detail::dtype_info<T>::supported;
template <class T> concept element_type = is_dtype_v<T>;

template <element_type T> inline constexpr dtype dtype_of_v = detail::dtype_info<T>::id;
/// NumPy's name of T's dtype ("float32").
template <element_type T> inline constexpr std::string_view dtype_name_v = detail::dtype_info<T>::name;

template <class T> inline constexpr bool is_complex_v = false;
template <class T> inline constexpr bool is_complex_v<std::complex<T>> = true;
template <class T>
inline constexpr bool is_floating_v =
    std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

/// Calls f(T{}) with the element type named by d (a run-time dtype to a compile-time T).
template <class F> decltype(auto) visit_dtype(dtype d, F&& f) {
  switch (d) {
    case dtype::bool_: return f(bool{});
    case dtype::int8: return f(std::int8_t{});
    case dtype::int16: return f(std::int16_t{});
    case dtype::int32: return f(std::int32_t{});
    case dtype::int64: return f(std::int64_t{});
    case dtype::uint8: return f(std::uint8_t{});
    case dtype::uint16: return f(std::uint16_t{});
    case dtype::uint32: return f(std::uint32_t{});
    case dtype::uint64: return f(std::uint64_t{});
    case dtype::float16: return f(float16{});
    case dtype::bfloat16: return f(bfloat16{});
    case dtype::float32: return f(float{});
    case dtype::float64: return f(double{});
    case dtype::complex64: return f(std::complex<float>{});
    case dtype::complex128: return f(std::complex<double>{});
  }
  throw dtype_error("unknown dtype");
}

/// NumPy's name of a run-time dtype.
inline std::string_view dtype_name(dtype d) {
  return visit_dtype(d, [](auto v) { return dtype_name_v<decltype(v)>; });
}
inline std::size_t itemsize(dtype d) {
  return visit_dtype(d, [](auto v) { return sizeof(v); });
}

namespace detail {
template <class T> struct complex_parts { using type = T; };
template <class T> struct complex_parts<std::complex<T>> { using type = T; };

/// NumPy's astype conversion of one element: complex to real keeps the real part (NumPy warns),
/// anything to bool tests != 0, float16/bfloat16 go through float.
template <class To, class From> CUNP_HD constexpr To convert(const From& v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_v<From>) {
    const auto* parts = reinterpret_cast<const typename complex_parts<From>::type*>(&v);
    if constexpr (is_complex_v<To>) {
      using R = typename complex_parts<To>::type;
      return To(static_cast<R>(parts[0]), static_cast<R>(parts[1]));
    } else if constexpr (std::is_same_v<To, bool>) {
      return parts[0] != 0 || parts[1] != 0;
    } else {
      return convert<To>(parts[0]);
    }
  } else if constexpr (is_complex_v<To>) {
    using R = typename complex_parts<To>::type;
    return To(convert<R>(v), R(0));
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_same_v<From, float16> || std::is_same_v<From, bfloat16>)
      return static_cast<float>(v) != 0.0f;
    else
      return v != From(0);
  } else if constexpr (std::is_same_v<From, float16> || std::is_same_v<From, bfloat16>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, float16> || std::is_same_v<To, bfloat16>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    // C leaves NaN and out-of-range casts undefined and NumPy's result depends on the CPU; cunp
    // saturates and maps NaN to 0 on both backends, as the GPU's conversion instructions do.
    if (!(v == v)) return To(0);
    if (v <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}
}  // namespace detail

}  // namespace cunp
