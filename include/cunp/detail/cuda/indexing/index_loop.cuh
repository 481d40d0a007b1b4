// cunp/detail/cuda/indexing/index_loop.cuh: the loop that the gather and scatter kernels share:
// positions visited grid-stride, several a thread at once, their indices read and normalized,
// a bad one reported to the fault record and skipped.
#pragma once
#include <cstdint>

#include "cunp/detail/cuda/indexing/fault.cuh"
#include "cunp/detail/indexing/normalize.hpp"

namespace cunp::detail::cuda {

/// Positions a thread holds at once. A random gather waits on memory, not on instructions: with
/// four positions a thread, four index loads and then four element loads are in flight together.
inline constexpr int index_unroll = 4;

/// The positions of layout l that this thread visits, index_unroll at a time (for each u,
/// consecutive threads take consecutive positions, so that a warp's accesses stay together).
/// For each group: pos[u], the position; off[u], the offsets of every operand; k[u], the index
/// read through operand `which` and normalized by normalize(value, k); ok[u], whether position u
/// exists and its index is good. A bad index is reported to f (when f is given); then
/// body(pos, off, k, ok) runs.
template <std::size_t N, class I, class Normalize, class Body>
__device__ __forceinline__ void for_index_groups(const loop_layout<N>& l, std::size_t which,
                                                 const I* idx, Normalize normalize,
                                                 index_fault* f, unsigned long long call,
                                                 Body&& body) {
  const std::int64_t threads = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; first < l.size;
       first += threads * index_unroll) {
    std::int64_t pos[index_unroll], off[index_unroll][N] = {};
    I raw[index_unroll] = {};
#pragma unroll
    for (int u = 0; u < index_unroll; ++u) {
      pos[u] = first + u * threads;
      if (pos[u] < l.size) {
        add_offsets(pos[u], l, off[u]);
        raw[u] = idx[off[u][which]];
      }
    }
    std::int64_t k[index_unroll] = {};
    bool ok[index_unroll];
#pragma unroll
    for (int u = 0; u < index_unroll; ++u) {
      ok[u] = pos[u] < l.size && normalize(index_value(raw[u]), k[u]);
      if (f != nullptr && pos[u] < l.size && !ok[u]) report_bad_index(f, call, pos[u]);
    }
    body(pos, off, k, ok);
  }
}

/// normalize_index with take's modes, for for_index_groups.
struct take_normalize {
  std::int64_t n;
  index_mode mode;
  __device__ bool operator()(std::int64_t v, std::int64_t& k) const {
    return normalize_index(v, n, mode, k);
  }
};

}  // namespace cunp::detail::cuda
