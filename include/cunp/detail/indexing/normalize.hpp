// cunp/detail/indexing/normalize.hpp: NumPy's reading of one index, shared by every backend: the
// index dtypes, negative indices counted from the end, and take/put/choose's mode=.
#pragma once
#include <cstdint>
#include <type_traits>

#include "cunp/config.hpp"

namespace cunp {

/// numpy's mode= of take, put and choose: 'raise' (an index out of bounds is an error; negative
/// indices count from the end), 'wrap' (indices wrap round the extent) and 'clip' (indices are
/// clipped to [0, n - 1]: a negative index is 0, as NumPy's).
enum class index_mode : std::uint8_t { raise, wrap, clip };

namespace detail {

/// The dtypes of index arrays: the integers. bool is not one (NumPy's take reads it as 0 and 1,
/// as no other index function does: cunp refuses it everywhere rather than guess).
template <class I>
inline constexpr bool index_dtype_v = std::is_integral_v<I> && !std::is_same_v<I, bool>;

template <class I>
constexpr void check_index_dtype() {
  static_assert(index_dtype_v<I>,
                "index arrays must have an integer dtype; NumPy raises IndexError for arrays used "
                "as indices must be of integer (or boolean) type");
}

/// An index as int64: a uint64 beyond int64's range wraps, as NumPy's same_kind cast to intp.
template <class I>
CUNP_HD constexpr std::int64_t index_value(I v) {
  return static_cast<std::int64_t>(v);
}

/// k in [0, n) for index v under mode; false for an index out of bounds (mode raise only). wrap
/// and clip need n > 0, which the callers check first (NumPy: an error for an empty extent).
CUNP_HD inline bool normalize_index(std::int64_t v, std::int64_t n, index_mode mode,
                                    std::int64_t& k) {
  if (mode == index_mode::raise) {
    if (v < -n || v >= n) return false;
    k = v < 0 ? v + n : v;
  } else if (mode == index_mode::wrap) {
    const std::int64_t r = v % n;
    k = r < 0 ? r + n : r;
  } else {
    k = v < 0 ? 0 : v >= n ? n - 1 : v;
  }
  return true;
}

/// normalize_index for choose, whose mode raise refuses negative indices (NumPy's choose does
/// not count them from the end; its wrap and clip take them as take's do).
CUNP_HD inline bool normalize_choice(std::int64_t v, std::int64_t n, index_mode mode,
                                     std::int64_t& k) {
  if (mode == index_mode::raise && v < 0) return false;
  return normalize_index(v, n, mode, k);
}

}  // namespace detail
}  // namespace cunp
