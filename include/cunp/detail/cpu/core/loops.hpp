// cunp/detail/cpu/core/loops.hpp: the cpu backend's strided loops (the reference every kernel matches).
#pragma once
#include <algorithm>
#include <cstring>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cunp/detail/core/layout.hpp"

namespace cunp::detail::host {

/// Calls row(offsets, n, inner_strides) for each innermost row of a loop layout, offsets being
/// the element offsets of the row's first element in each operand.
template <std::size_t N, class Row> void for_each_row(const loop_layout<N>& l, Row&& row) {
  if (l.size == 0) return;
  const int nd = l.shape.ndim;
  std::array<std::int64_t, N> off{}, inner{};
  if (nd == 0) {
    row(off, std::int64_t{1}, inner);
    return;
  }
  for (std::size_t k = 0; k < N; ++k) inner[k] = l.strides[k][nd - 1];
  const std::int64_t n = l.shape.extent[nd - 1];
  std::array<std::int64_t, max_dims> idx{};
  while (true) {
    row(off, n, inner);
    int d = nd - 2;
    for (; d >= 0; --d) {
      for (std::size_t k = 0; k < N; ++k) off[k] += l.strides[k][d];
      if (++idx[d] < l.shape.extent[d]) break;
      for (std::size_t k = 0; k < N; ++k) off[k] -= l.strides[k][d] * l.shape.extent[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

/// for_each_row over the layout's elements split into equal ranges, one per OpenMP thread when
/// the loop is large enough to pay for them (rows are cut where a range ends).
template <std::size_t N, class Row> void for_each_row_parallel(const loop_layout<N>& l, Row&& row) {
#if defined(_OPENMP)
  const int threads = l.size >= (std::int64_t(1) << 16) ? omp_get_max_threads() : 1;
#else
  const int threads = 1;
#endif
  if (threads == 1 || l.shape.ndim == 0) return for_each_row(l, row);
  const int nd = l.shape.ndim;
  const std::int64_t n0 = l.shape.extent[nd - 1], chunk = (l.size + threads - 1) / threads;
  std::array<std::int64_t, N> inner{};
  for (std::size_t k = 0; k < N; ++k) inner[k] = l.strides[k][nd - 1];
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
  for (int t = 0; t < threads; ++t) {
    const std::int64_t hi = std::min(l.size, (t + 1) * chunk);
    for (std::int64_t i = t * chunk; i < hi;) {
      const std::int64_t len = std::min(n0 - i % n0, hi - i);
      std::array<std::int64_t, N> off{};
      add_offsets(i, l, off.data());
      row(off, len, inner);
      i += len;
    }
  }
}

/// dst[i] = f(src[i]) over a two-operand layout (dst first).
template <class To, class From, class F>
void map_strided(To* dst, const From* src, const loop_layout<2>& l, F f) {
  for_each_row_parallel(l, [&](const auto& off, std::int64_t n, const auto& st) {
    To* d = dst + off[0];
    const From* s = src + off[1];
    if (st[0] == 1 && st[1] == 1) {
      for (std::int64_t i = 0; i < n; ++i) d[i] = f(s[i]);
    } else {
      for (std::int64_t i = 0; i < n; ++i) d[i * st[0]] = f(s[i * st[1]]);
    }
  });
}

}  // namespace cunp::detail::host
