// cunp/detail/random/pcg64.hpp: NumPy's PCG64 (PCG XSL-RR 128/64) as plain arithmetic that host
// and device code share: the 128-bit LCG step, its output function, and the jump of any number
// of steps (an LCG's k steps are one affine map, s -> A_k s + C_k), which lets every GPU thread
// start at its own draw in O(log k).
#pragma once
#include <cstdint>

#include "cunp/config.hpp"
#include "cunp/detail/random/buffered_half.hpp"

namespace cunp::detail {

using u128 = unsigned __int128;

inline constexpr u128 pcg64_multiplier =
    (u128(0x2360ED051FC65DA4ull) << 64) | u128(0x4385DF649FCCF645ull);

/// s -> mult * s + plus: `steps` LCG steps at once (mult = A_k, plus = C_k).
struct lcg_jump {
  u128 mult = 1, plus = 0;
  CUNP_HD u128 operator()(u128 s) const { return mult * s + plus; }
};

/// The jump of `steps` steps of the LCG with increment `inc` (Brown's algorithm: square and
/// multiply on the affine maps).
CUNP_HD inline lcg_jump pcg64_jump(u128 inc, u128 steps) {
  lcg_jump acc, cur{pcg64_multiplier, inc};
  while (steps != 0) {
    if (steps & 1) acc = {acc.mult * cur.mult, acc.plus * cur.mult + cur.plus};
    cur = {cur.mult * cur.mult, (cur.mult + 1) * cur.plus};
    steps >>= 1;
  }
  return acc;
}

/// The 64-bit output of state s (XSL-RR: the halves xor-ed, rotated by the top 6 bits). NumPy's
/// next_uint64 steps first and outputs the new state.
CUNP_HD inline std::uint64_t pcg64_output(u128 s) {
  const auto hi = static_cast<std::uint64_t>(s >> 64), lo = static_cast<std::uint64_t>(s);
  const std::uint64_t x = hi ^ lo;
  const unsigned r = static_cast<unsigned>(hi >> 58);
#if defined(__CUDA_ARCH__)
  // Two 32-bit funnel shifts after swapping the halves for r >= 32 (nvcc's 64-bit rotate was
  // nine instructions).
  const auto a = static_cast<std::uint32_t>(x), b = static_cast<std::uint32_t>(x >> 32);
  const std::uint32_t low = r & 32 ? b : a, high = r & 32 ? a : b;
  return (std::uint64_t(__funnelshift_r(high, low, r)) << 32) | __funnelshift_r(low, high, r);
#else
  return (x >> r) | (x << ((64 - r) & 63));
#endif
}

/// The generator's whole state as NumPy keeps it: the LCG state and increment, and the upper
/// half of a 64-bit draw that a 32-bit draw left unused.
struct pcg64_state : buffered_half {
  u128 state = 0, inc = 1;

  CUNP_HD void step() { state = state * pcg64_multiplier + inc; }
  CUNP_HD std::uint64_t next_uint64() {
    step();
    return pcg64_output(state);
  }
  CUNP_HD std::uint32_t next_uint32() {
    return next_half([this] { return next_uint64(); });
  }
  /// `n` 64-bit draws passed over (the kept half untouched), and the last of them.
  CUNP_HD void discard(std::uint64_t n) { state = pcg64_jump(inc, n)(state); }
  [[nodiscard]] CUNP_HD std::uint64_t last() const { return pcg64_output(state); }
  /// NumPy's advance: `steps` LCG steps, and the buffered half dropped.
  CUNP_HD void advance(u128 steps) {
    state = pcg64_jump(inc, steps)(state);
    drop_half();
  }
};

/// A call's 64-bit draws addressed by their index from the call's start, as a GPU thread reaches
/// its own: a cursor is the LCG state of a draw (draw p is p + 1 steps on), and a stride of k
/// draws is one affine map, applied in one multiply-add.
struct pcg64_draws {
  u128 state, inc;
  using cursor = u128;
  using stride_type = lcg_jump;
  /// (p signed: with an unsigned p nvcc scheduled random float32's loop 3% slower.)
  [[nodiscard]] CUNP_HD cursor at(std::int64_t p) const {
    return pcg64_jump(inc, u128(p) + 1)(state);
  }
  [[nodiscard]] CUNP_HD std::uint64_t value(cursor c) const { return pcg64_output(c); }
  [[nodiscard]] CUNP_HD stride_type stride(std::uint64_t k) const { return pcg64_jump(inc, k); }
  [[nodiscard]] CUNP_HD static cursor next(cursor c, stride_type k) { return k(c); }
};
inline pcg64_draws draws_of(const pcg64_state& s) { return {s.state, s.inc}; }

/// NumPy's pcg_setseq_128_srandom_r: the state and increment from 128 bits of each.
inline pcg64_state pcg64_seeded(u128 initstate, u128 initseq) {
  pcg64_state s;
  s.inc = (initseq << 1) | 1;
  s.step();
  s.state += initstate;
  s.step();
  return s;
}

/// The steps of one PCG64.jumped(): NumPy's constant, 2^128 times the golden ratio's fraction.
inline constexpr u128 pcg64_jump_size =
    (u128(0x9E3779B97F4A7C15ull) << 64) | u128(0xF39CC0605CEDC835ull);

}  // namespace cunp::detail
