// cunp/detail/cpu/random/fill.hpp: the cpu backend of the random fills, NumPy's loops as they
// are (one draw after another), the reference the CUDA backend (detail/cuda/random/fill.cuh)
// matches bit for bit.
#pragma once
#include <cstdint>

#include "cunp/detail/random/draws.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// Fills the C-contiguous `out` from the draws of generator `s` (PCG64's or Philox's engine) by
/// `rule`, and leaves `s` as NumPy's generator is after the same call.
template <class T, class Engine, class Rule>
void random_fill(host_backend, const ndarray<T>& out, Engine& s, const Rule& rule) {
  require_cpu_for(out.device(), "a random fill");
  constexpr int width = Rule::width;
  using D = draw_t<width>;
  std::uint32_t buf = 0;  // NumPy's per-call buffer of narrow draws
  int left = 0;
  const auto draw = [&]() -> D {
    if constexpr (width == 64) {
      return s.next_uint64();
    } else if constexpr (width == 32) {
      return s.next_uint32();
    } else {
      if (left == 0) {
        buf = s.next_uint32();
        left = pieces_per_u32(width) - 1;
      } else {
        buf >>= width;
        --left;
      }
      return static_cast<D>(buf & ((std::uint32_t(1) << width) - 1));
    }
  };
  T* o = out.data();
  for (std::int64_t i = 0, n = out.size(); i < n; ++i) {
    D x = draw();
    if constexpr (Rule::rejects)
      while (!rule.accept(x)) x = draw();
    o[i] = rule.value(x);
  }
}

/// Fills `out` two elements at a time by a pair rule (the normal's), each pair from Rule::draws
/// 64-bit draws (the buffered half untouched); an odd last element drops its partner.
template <class T, class Engine, class Rule>
void random_pairs(host_backend, const ndarray<T>& out, Engine& s, const Rule& rule) {
  require_cpu_for(out.device(), "a random fill");
  T* o = out.data();
  for (std::int64_t i = 0, n = out.size(); i < n; i += 2) {
    const std::uint64_t x1 = s.next_uint64();
    const std::uint64_t x2 = Rule::draws == 2 ? s.next_uint64() : x1;
    T z[2];
    rule.values(x1, x2, z);
    o[i] = z[0];
    if (i + 1 < n) o[i + 1] = z[1];
  }
}

}  // namespace cunp::detail
