// cunp/detail/random/buffered_half.hpp: NumPy's 32-bit draws from a 64-bit bit generator, which
// every one of NumPy's 64-bit generators (PCG64, Philox) makes the same way: the lower half of a
// fresh 64-bit draw, its upper half kept for the next 32-bit draw.
#pragma once
#include <cstdint>

#include "cunp/config.hpp"

namespace cunp::detail {

/// The kept upper half, under the names of NumPy's bit generator state (has_uint32, uinteger).
struct buffered_half {
  bool has_uint32 = false;
  std::uint32_t uinteger = 0;

  /// The next 32-bit draw, taking a 64-bit one from next64() when no half is kept.
  template <class Next64> CUNP_HD std::uint32_t next_half(Next64&& next64) {
    if (has_uint32) {
      has_uint32 = false;
      return uinteger;
    }
    const std::uint64_t v = next64();
    has_uint32 = true;
    uinteger = static_cast<std::uint32_t>(v >> 32);
    return static_cast<std::uint32_t>(v);
  }
  /// What NumPy's advance and jumped do to it: the kept half dropped.
  CUNP_HD void drop_half() {
    has_uint32 = false;
    uinteger = 0;
  }
};

}  // namespace cunp::detail
