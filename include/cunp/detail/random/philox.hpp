// cunp/detail/random/philox.hpp: the Philox4x64-10 block function (Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011), the counter-based generator of NumPy's
// numpy.random.Philox: four 64-bit words from a 256-bit counter and a 128-bit key, by ten rounds
// of two 64 x 64 -> 128-bit products. Integer operations only, so the host and a GPU give the
// same words; a block is a function of its counter, so any block is one call away. Then NumPy's
// Philox as a bit generator (philox_state: its counter, key and buffered block) and a call's
// draws addressed by index (philox_draws), as the GPU fills read them. The per-element draws
// (per_element.hpp) use the block function alone, keyed by two draws of the generator.
#pragma once
#include <cstdint>

#include "cunp/config.hpp"
#include "cunp/detail/random/buffered_half.hpp"
#include "cunp/detail/random/pcg64.hpp"

namespace cunp::detail {

/// Four 64-bit words: a block of output, or the 256-bit counter (lowest word first, as NumPy's).
struct philox_block {
  std::uint64_t w[4];
};

/// The counter c + d, mod 2^256 (NumPy's philox_advance, and the step before each block).
CUNP_HD inline philox_block philox_add(philox_block c, philox_block d) {
  std::uint64_t carry = 0;
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t s = c.w[i] + d.w[i];
    const std::uint64_t out = s + carry;
    carry = std::uint64_t(s < c.w[i]) | std::uint64_t(out < s);
    c.w[i] = out;
  }
  return c;
}
CUNP_HD inline philox_block philox_add(philox_block c, std::uint64_t d) {
  return philox_add(c, philox_block{{d, 0, 0, 0}});
}

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

namespace cunp::detail {

/// numpy.random.Philox's state: the counter, the key, the last block and how much of it the
/// draws have taken (buffer_pos, 4 when none is left), and the kept 32-bit half. NumPy steps the
/// counter before each block, so the buffer, once filled, is the block of the counter.
struct philox_state : buffered_half {
  philox_block ctr{}, buffer{};
  std::uint64_t key[2] = {0, 0};
  int buffer_pos = 4;

  CUNP_HD std::uint64_t next_uint64() {
    if (buffer_pos < 4) return buffer.w[buffer_pos++];
    ctr = philox_add(ctr, 1);
    buffer = philox4x64_10(ctr, key[0], key[1]);
    buffer_pos = 1;
    return buffer.w[0];
  }
  CUNP_HD std::uint32_t next_uint32() {
    return next_half([this] { return next_uint64(); });
  }
  /// `n` 64-bit draws passed over (the kept half untouched): the buffer's rest, then whole
  /// blocks, the last one computed; last() is the last draw passed over.
  CUNP_HD void discard(std::uint64_t n) {
    const auto left = std::uint64_t(4 - buffer_pos);
    if (n <= left) {
      buffer_pos += int(n);
      return;
    }
    const std::uint64_t fresh = n - left;
    ctr = philox_add(ctr, (fresh + 3) / 4);
    buffer = philox4x64_10(ctr, key[0], key[1]);
    buffer_pos = int((fresh - 1) % 4) + 1;
  }
  [[nodiscard]] CUNP_HD std::uint64_t last() const { return buffer.w[buffer_pos - 1]; }
  /// NumPy's advance: the counter moved by `blocks`, the buffer and the kept half dropped.
  CUNP_HD void advance(philox_block blocks) {
    ctr = philox_add(ctr, blocks);
    buffer = {};
    buffer_pos = 4;
    drop_half();
  }
};

/// A call's 64-bit draws addressed by their index from the call's start, as a GPU thread reaches
/// its own: draw p is word v % 4 of the block of counter ctr + v / 4, v = p + buffer_pos, or of
/// the buffer while v < 4. A cursor is the index itself, so reaching a draw costs one block (the
/// other three words of that block go to other threads).
struct philox_draws {
  philox_block ctr, buffer;
  std::uint64_t k0, k1;
  int pos;
  using cursor = std::uint64_t;
  using stride_type = std::uint64_t;
  [[nodiscard]] CUNP_HD cursor at(std::int64_t p) const { return cursor(p); }
  [[nodiscard]] CUNP_HD std::uint64_t value(cursor p) const {
    const std::uint64_t v = p + std::uint64_t(pos);
    const philox_block b = v < 4 ? buffer : philox4x64_10(philox_add(ctr, v / 4), k0, k1);
    // The word selected, not indexed: an indexed block would go to local memory.
    const unsigned w = unsigned(v % 4);
    return w < 2 ? (w == 0 ? b.w[0] : b.w[1]) : (w == 2 ? b.w[2] : b.w[3]);
  }
  [[nodiscard]] CUNP_HD stride_type stride(std::uint64_t k) const { return k; }
  [[nodiscard]] CUNP_HD static cursor next(cursor c, stride_type k) { return c + k; }
};
inline philox_draws draws_of(const philox_state& s) {
  return {s.ctr, s.buffer, s.key[0], s.key[1], s.buffer_pos};
}

}  // namespace cunp::detail
