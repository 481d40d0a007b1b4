// cunp/detail/random/draws.hpp: what each element of a numpy.random.Generator result is made
// of, shared by the cpu and the CUDA backends, so that both give NumPy's numbers.
//
// A fill reads a stream of draws of `width` bits: 64 (next_uint64), 32 (next_uint32, which uses
// the buffered upper half first), or 16, 8, 1 (NumPy's per-call buffer: each 32-bit draw cut into
// 2, 4 or 32 pieces, lowest first, the rest discarded when the call ends). A rule turns one draw
// into one element; a rule that rejects (Lemire's bounded integers) skips the draws it refuses,
// and whether it refuses a draw depends on that draw alone, so the GPU can test every candidate
// in parallel and compact the accepted ones in order.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cunp/detail/core/math.hpp"
#include "cunp/detail/random/exact_math.hpp"
#include "cunp/detail/random/pcg64.hpp"
#include "cunp/dtype.hpp"

namespace cunp::detail {

template <int Width>
using draw_t = std::conditional_t<(Width > 32), std::uint64_t,
                                  std::conditional_t<(Width > 16), std::uint32_t,
                                                     std::conditional_t<(Width > 8), std::uint16_t,
                                                                        std::uint8_t>>>;

/// random() of float64: the top 53 bits of a 64-bit draw, scaled.
struct unit_double_rule {
  static constexpr int width = 64;
  static constexpr bool rejects = false;
  CUNP_HD bool accept(std::uint64_t) const { return true; }
  CUNP_HD double value(std::uint64_t x) const { return double(x >> 11) * 0x1p-53; }
};

/// uniform(low, high): low + (high - low) * random(), in float64 as NumPy computes it, then
/// rounded to T (NumPy's uniform has no float32 form: rng.uniform(...).astype(np.float32)).
template <class T> struct uniform_rule {
  static constexpr int width = 64;
  static constexpr bool rejects = false;
  double low, range;
  CUNP_HD bool accept(std::uint64_t) const { return true; }
  CUNP_HD T value(std::uint64_t x) const {  // unfused, as NumPy's C computes it
    return static_cast<T>(mul_add_unfused(range, unit_double_rule{}.value(x), low));
  }
};

/// random() of float32: the top 24 bits of a 32-bit draw; of float16 (which NumPy lacks) the top
/// 11, so that every value is exact in float16 and below 1.
template <class T> struct unit_float_rule {
  static constexpr int width = 32;
  static constexpr bool rejects = false;
  CUNP_HD bool accept(std::uint32_t) const { return true; }
  CUNP_HD T value(std::uint32_t x) const {
    if constexpr (std::is_same_v<T, float>) return float(x >> 8) * 0x1p-24f;
    else return T(float(x >> 21) * 0x1p-11f);
  }
};

/// integers over the whole range of the draw (NumPy skips Lemire there): off + x, wrapping.
template <class T, int Width> struct full_range_rule {
  static constexpr int width = Width;
  static constexpr bool rejects = false;
  std::uint64_t off;
  CUNP_HD bool accept(draw_t<Width>) const { return true; }
  CUNP_HD T value(draw_t<Width> x) const { return static_cast<T>(off + x); }
};

/// integers(dtype=bool) over {0, 1}: one bit a draw, lowest first.
struct bit_rule {
  static constexpr int width = 1;
  static constexpr bool rejects = false;
  CUNP_HD bool accept(std::uint8_t) const { return true; }
  CUNP_HD bool value(std::uint8_t x) const { return (x & 1) != 0; }
};

/// Lemire's bounded integers in [off, off + rng] from Width-bit draws: x * (rng + 1) scaled
/// down, refused when its low Width bits fall below (2^Width - rng - 1) mod (rng + 1) (NumPy's
/// buffered_bounded_lemire_uint*, bounded_lemire_uint64). 0 < rng < 2^Width - 1.
template <class T, int Width> struct lemire_rule {
  static constexpr int width = Width;
  static constexpr bool rejects = true;
  using D = draw_t<Width>;
  using M = std::conditional_t<(Width > 32), u128, std::uint64_t>;  // holds x * (rng + 1)
  std::uint64_t off;
  D rng_excl, threshold;
  CUNP_HD lemire_rule(std::uint64_t off_, D rng)
      : off(off_), rng_excl(D(rng + 1)), threshold(D(D(std::numeric_limits<D>::max() - rng) % D(rng + 1))) {}
  CUNP_HD M scaled(D x) const { return M(x) * M(rng_excl); }
  CUNP_HD bool accept(D x) const {
    return D(scaled(x) & M(std::numeric_limits<D>::max())) >= threshold;
  }
  CUNP_HD T value(D x) const { return static_cast<T>(off + std::uint64_t(scaled(x) >> Width)); }
};

/// A rule whose float32 form reads a table of transform_tables.hpp (log_exact's, normal_quantile's):
/// it holds its tables_type by pointer, the cpu's constant, or a GPU block's copy in shared
/// memory (cuda/random/fill.cuh).
template <class Rule>
concept takes_tables = requires { requires Rule::takes_tables; };

/// standard_exponential (times scale): -log(1 - u) of random()'s u, float64 from a 64-bit draw,
/// float32 from a 32-bit one, by log_exact in the result's precision (NumPy draws by ziggurat; cunp's
/// fixed one draw an element keeps the GPU's fill parallel and equal to the cpu's).
template <class T> struct exponential_rule {
  static constexpr int width = std::is_same_v<T, double> ? 64 : 32;
  static constexpr bool rejects = false;
  static constexpr bool takes_tables = width == 32;
  using tables_type = logf_table_t;
  double scale;
  const tables_type* tables = &logf_table;
  CUNP_HD bool accept(draw_t<width>) const { return true; }
  CUNP_HD T value(draw_t<width> x) const {
    if constexpr (width == 64) {
      return mul_rn(scale, -log_exact(1.0 - unit_double_rule{}.value(x)));
    } else {  // in float32 (1 - u exact), scaled in float64
      const float e = -log_exact(1.0f - float(x >> 8) * 0x1p-24f, tables->entry);
      return static_cast<T>(mul_rn(scale, double(e)));
    }
  }
};

/// normal(loc, scale): one pair of elements from two 64-bit draws (float64) or from the two
/// halves of one (float32), in the result's precision by exact_math.hpp (NumPy draws by
/// ziggurat, whose draws per element vary). float64 by Box-Muller: u1 in (0, 1], u2 in [0, 1)
/// of 53 bits each, r = sqrt(-2 log u1), the pair r cos(2 pi u2), r sin(2 pi u2). float32 by the
/// normal quantile of each half (normal_quantile), low half first: a table entry and three fma
/// an element, where Box-Muller's log, square root and sin/cos bound the GPU fill by its
/// instructions (bench/RESULTS.md, "float32 normals by the quantile").
template <class T> struct normal_pair_rule {
  static constexpr int draws = std::is_same_v<T, double> ? 2 : 1;  // 64-bit draws a pair takes
  static constexpr bool takes_tables = draws == 1;
  using tables_type = quantile_table_t;
  double loc, scale;
  bool standard = loc == 0 && scale == 1;  // no step through float64 for float32 (tested once)
  const tables_type* tables = &quantile_table;
  CUNP_HD void values(std::uint64_t x1, std::uint64_t x2, T* z) const {
    T z0, z1;  // float32 results compute in float32 (the loc and scale step in float64)
    if constexpr (draws == 2) {
      const T r = std::sqrt(mul_rn(-2.0, log_exact(1.0 - unit_double_rule{}.value(x1))));
      T sn, cs;
      sincospi_exact(mul_rn(2.0, unit_double_rule{}.value(x2)), &sn, &cs);
      z0 = mul_rn(r, cs), z1 = mul_rn(r, sn);
    } else {
      z0 = normal_quantile(std::uint32_t(x1), tables->entry);
      z1 = normal_quantile(std::uint32_t(x1 >> 32), tables->entry);
    }
    if (standard) {
      z[0] = z0, z[1] = z1;
    } else {
      z[0] = static_cast<T>(mul_add_unfused(scale, double(z0), loc));
      z[1] = static_cast<T>(mul_add_unfused(scale, double(z1), loc));
    }
  }
};

/// Pieces of a 32-bit draw that a draw of `width` bits takes (1 for 32 and 64).
CUNP_HD constexpr int pieces_per_u32(int width) { return width >= 32 ? 1 : 32 / width; }

/// The generator (PCG64's or Philox's engine) after a fill that read `draws` draws of `width`
/// bits: 64-bit draws leave the buffered half alone; narrower ones used the buffered half first,
/// then whole 64-bit draws, keeping the upper half of the last one when it used only the lower
/// (NumPy's uinteger holds that half even once used, and the test of the state compares it).
template <class Engine> void skip_draws(Engine& s, int width, std::uint64_t draws) {
  if (width == 64) {
    s.discard(draws);
    return;
  }
  const int per = pieces_per_u32(width);
  std::uint64_t u32s = (draws + std::uint64_t(per) - 1) / std::uint64_t(per);
  if (u32s == 0) return;
  if (s.has_uint32) {
    s.has_uint32 = false;
    --u32s;
  }
  if (u32s == 0) return;  // NumPy leaves uinteger as it was
  // uinteger: the upper half of the last 64-bit draw, kept (an odd count) or already used.
  s.discard((u32s + 1) / 2);
  s.has_uint32 = u32s % 2 == 1;
  s.uinteger = static_cast<std::uint32_t>(s.last() >> 32);
}

}  // namespace cunp::detail
