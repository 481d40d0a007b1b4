// cunp/detail/cuda/random/permutation.cuh: the CUDA backend of Generator.permutation, the cpu's
// permutation (detail/cpu/random/permutation.hpp) in three kernels: the n draws split into upper
// and lower halves beside the positions 0..n-1 (one pass), one stable radix sort of (upper half,
// position) pairs with 4-byte keys (half the passes of 8-byte ones), and one pass that settles
// each run of equal upper halves (about n^2 / 2^33 pairs: 32768 in 2^24) by the lower halves and
// writes the int64 result; that gives the order of the whole draws.
#pragma once
#include <cstdint>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"  // on_device
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/random/fill.cuh"
#include "cunp/detail/cuda/sort/radix_sort.cuh"

namespace cunp::detail {

namespace cuda {

/// high[p], low[p]: the halves of draw p of a call that starts at `state`; pos[p] = p. Threads
/// start at their own draws and step by the grid's width (`stride`), as the fills do.
template <class V, class Draws>
CUNP_KERNEL void permutation_keys_kernel(std::uint32_t* high, std::uint32_t* low, V* pos,
                                         std::int64_t n, Draws draws,
                                         typename Draws::stride_type stride) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  if (t >= n) return;
  auto s = draws.at(t);
  for (std::int64_t p = t; p < n; p += step) {
    const std::uint64_t x = draws.value(s);
    high[p] = static_cast<std::uint32_t>(x >> 32);
    low[p] = static_cast<std::uint32_t>(x);
    pos[p] = static_cast<V>(p);
    s = Draws::next(s, stride);
  }
}

/// out[i] = pos[i], the positions sorted by upper halves `high`, with each run of equal upper
/// halves put in the order of the lower halves `low` (indexed by position) by its first thread
/// (insertion sort: stable, so equal draws keep their positions' order; runs are almost always
/// pairs).
template <class V>
CUNP_KERNEL void settle_ties_kernel(const std::uint32_t* high, const std::uint32_t* low, V* pos,
                                    std::int64_t* out, std::int64_t n) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += step) {
    const std::uint32_t k = high[i];
    if (i > 0 && high[i - 1] == k) continue;  // inside a run: its first thread writes it
    if (i + 1 == n || high[i + 1] != k) {
      out[i] = static_cast<std::int64_t>(pos[i]);
      continue;
    }
    std::int64_t end = i + 2;
    while (end < n && high[end] == k) ++end;
    for (std::int64_t j = i + 1; j < end; ++j) {
      const V v = pos[j];
      const std::uint32_t key = low[v];
      std::int64_t m = j;
      for (; m > i && low[pos[m - 1]] > key; --m) pos[m] = pos[m - 1];
      pos[m] = v;
    }
    for (std::int64_t j = i; j < end; ++j) out[j] = static_cast<std::int64_t>(pos[j]);
  }
}

/// The permutation with positions of type V (4 bytes while n fits), from the call's state.
template <class V, class Draws>
void permutation_by(const on_device& on, std::int64_t* out, std::int64_t n, const Draws& draws) {
  const auto up = [](std::size_t b) { return (b + 255) / 256 * 256; };
  const std::size_t half = up(sizeof(std::uint32_t) * std::size_t(n)),
                    place = up(sizeof(V) * std::size_t(n));
  const workspace tmp(on.dev, 3 * half + 2 * place);
  auto* base = static_cast<std::uint8_t*>(tmp.data());
  auto* high = reinterpret_cast<std::uint32_t*>(base);
  auto* low = reinterpret_cast<std::uint32_t*>(base + half);
  auto* sorted = reinterpret_cast<std::uint32_t*>(base + 2 * half);
  auto* pos_in = reinterpret_cast<V*>(base + 3 * half);
  auto* pos = reinterpret_cast<V*>(base + 3 * half + place);
  const unsigned keys_grid = fill_grid(on.dev, n);
  permutation_keys_kernel<<<keys_grid, block_threads, 0, on.stream>>>(
      high, low, pos_in, n, draws, draws.stride(std::uint64_t(keys_grid) * block_threads));
  CUNP_CUDA_CHECK_LAUNCH("permutation_keys_kernel");
  radix_sort(on.dev, on.stream, high, sorted, pos_in, pos, n, 32);
  settle_ties_kernel<<<grid_for(on.dev, n), block_threads, 0, on.stream>>>(sorted, low, pos, out,
                                                                           n);
  CUNP_CUDA_CHECK_LAUNCH("settle_ties_kernel");
}

}  // namespace cuda

template <class Engine>
void random_permutation(cuda_backend, const ndarray<std::int64_t>& out, Engine& s) {
  const cuda::on_device on(out.device());
  const std::int64_t n = out.size();
  if (n <= std::int64_t(0xFFFFFFFFu))
    cuda::permutation_by<std::uint32_t>(on, out.data(), n, draws_of(s));
  else
    cuda::permutation_by<std::uint64_t>(on, out.data(), n, draws_of(s));
  skip_draws(s, 64, std::uint64_t(n));
}

}  // namespace cunp::detail
