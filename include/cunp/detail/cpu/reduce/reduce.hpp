// cunp/detail/cpu/reduce/reduce.hpp: the cpu backend of reductions: NumPy's pairwise order within
// each output, outputs over threads, one large output split into ordered chunks.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cunp/detail/reduce/reduction.hpp"

namespace cunp::detail {

/// Reducer r over elements [lo, hi) of the reduced layout, from the offsets `base`: pairwise
/// (NumPy's summation: blocks of 128 summed in order, halves combined), for its accuracy.
template <class R, class Tree, std::size_t N>
typename R::acc host_pairwise(const R& r, const Tree& tree, const void* const* ptrs,
                              const std::int64_t* base, const loop_layout<N>& red,
                              std::int64_t lo, std::int64_t hi) {
  if (hi - lo > 128) {
    const std::int64_t mid = lo + (hi - lo) / 16 * 8;
    return r.combine(host_pairwise(r, tree, ptrs, base, red, lo, mid),
                     host_pairwise(r, tree, ptrs, base, red, mid, hi));
  }
  std::int64_t offs[N];
  const offset_indexer<int(N)> ix{ptrs, offs};
  auto a = r.identity();
  for (std::int64_t i = lo; i < hi; ++i) {
    for (std::size_t k = 0; k < N; ++k) offs[k] = base[k];
    if (red.shape.ndim == 1)
      for (std::size_t k = 0; k < N; ++k) offs[k] += i * red.strides[k][0];
    else
      add_offsets(i, red, offs);
    a = r.combine(a, r.load(tree.eval(ix), i));
  }
  return a;
}

/// The cpu backend: outputs in parallel; a single output split into ordered chunks.
template <class R, class X>
void reduce_run(host_backend, const bound_reduction<X>& b, const R& r) {
  constexpr int N = bound_reduction<X>::N;
  using out_t = typename R::out;
  out_t* out = static_cast<out_t*>(const_cast<void*>(b.ctx.ptrs[0]));
  const std::int64_t M = b.kept.size, K = b.red.size;
  auto base_of = [&](std::int64_t m, std::int64_t* base) {
    for (int k = 0; k < N; ++k) base[k] = 0;
    add_offsets(m, b.kept, base);
  };
  int threads = 1;
#if defined(_OPENMP)
  if (M * K >= (std::int64_t(1) << 16)) threads = omp_get_max_threads();
#endif
  if (M == 1 && threads > 1) {
    std::int64_t base[N];
    base_of(0, base);
    const std::int64_t chunk = ((K + threads - 1) / threads + 127) / 128 * 128;  // covers K
    std::vector<typename R::acc> part(threads, r.identity());
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads)
#endif
    for (int t = 0; t < threads; ++t) {
      const std::int64_t lo = std::min(K, t * chunk), hi = std::min(K, lo + chunk);
      part[t] = host_pairwise(r, b.tree, b.ctx.ptrs, base, b.red, lo, hi);
    }
    auto a = part[0];
    for (int t = 1; t < threads; ++t) a = r.combine(a, part[t]);
    out[base[0]] = r.finish(a, K);
    return;
  }
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
  for (std::int64_t m = 0; m < M; ++m) {
    std::int64_t base[N];
    base_of(m, base);
    out[base[0]] = r.finish(host_pairwise(r, b.tree, b.ctx.ptrs, base, b.red, 0, K), K);
  }
}

}  // namespace cunp::detail
