// cunp/detail/random/philox.hpp: the Philox4x64-10 block function (Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011), the counter-based generator of NumPy's
// numpy.random.Philox: four 64-bit words from a 256-bit counter and a 128-bit key, by ten rounds
// of two 64 x 64 -> 128-bit products. Integer operations only, so the host and a GPU give the
// same words; a block is a function of its counter, so any block is one call away.
#pragma once
#include <cstdint>

#include "cunp/config.hpp"
#include "cunp/detail/random/pcg64.hpp"

namespace cunp::detail {

struct philox_block {
  std::uint64_t w[4];
};

/// Philox4x64-10 of counter `c` under key (k0, k1): the round's multipliers and the key's Weyl
/// increments are Random123's (and NumPy's) constants.
CUNP_HD inline philox_block philox4x64_10(philox_block c, std::uint64_t k0, std::uint64_t k1) {
  constexpr std::uint64_t m0 = 0xD2E7470EE14C6C93ull, m1 = 0xCA5A826395121157ull;
  constexpr std::uint64_t w0 = 0x9E3779B97F4A7C15ull, w1 = 0xBB67AE8584CAA73Bull;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) k0 += w0, k1 += w1;
    const u128 p0 = u128(m0) * c.w[0], p1 = u128(m1) * c.w[2];
    c = {{std::uint64_t(p1 >> 64) ^ c.w[1] ^ k0, std::uint64_t(p1),
          std::uint64_t(p0 >> 64) ^ c.w[3] ^ k1, std::uint64_t(p0)}};
  }
  return c;
}

}  // namespace cunp::detail
