// cunp/detail/cpu/manipulation/repeat.hpp: the cpu backend of repeat with per-element counts (the
// CUDA one is detail/cuda/manipulation/repeat.cuh).
#pragma once
#include <algorithm>

#include "cunp/detail/core/layout.hpp"
#include "cunp/detail/cpu/core/loops.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// Writes slab i of `in` offsets[i + 1] - offsets[i] times, in order, into the C-ordered `out`.
/// The input is seen as (outer, mid, inner): mid indexes the slabs, and the output is
/// (outer, total, inner) with total = offsets[mid.size]. Each slab is gathered once, then
/// replicated by contiguous copies.
template <class T>
void repeat_slabs(host_backend, const ndarray<T>& out, const ndarray<T>& in,
                  const loop_layout<1>& outer, const loop_layout<1>& mid,
                  const loop_layout<1>& inner, const ndarray<index_t>& offsets, index_t total) {
  require_cpu_for(out.device(), "repeat with per-element counts");
  const index_t* off = offsets.data();
  const index_t q = inner.size;
  const T* src = in.data();
  T* dst = out.data();
  for (index_t p = 0; p < outer.size; ++p) {
    std::int64_t base = 0;
    add_offsets(p, outer, &base);
    for (index_t i = 0; i < mid.size; ++i) {
      const index_t count = off[i + 1] - off[i];
      if (count == 0) continue;
      std::int64_t at = base;
      add_offsets(i, mid, &at);
      T* first = dst + (p * total + off[i]) * q;
      T* w = first;
      host::for_each_row(inner, [&](const auto& o, std::int64_t n, const auto& st) {
        const T* s = src + at + o[0];
        for (std::int64_t k = 0; k < n; ++k) *w++ = s[k * st[0]];
      });
      for (index_t r = 1; r < count; ++r) std::copy_n(first, q, first + r * q);
    }
  }
}

}  // namespace cunp::detail
