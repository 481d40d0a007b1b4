// cunp/detail/cuda/sparse/inspect.cuh: the CUDA backend's scans of a sparse matrix's index arrays
// (detail/cpu/sparse/inspect.hpp is the reference): kernels that fold what they find into one
// small record, which reaches the host with one wait (read_back).
#pragma once
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <limits>

#include "cunp/detail/cpu/sparse/inspect.hpp"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/sparse/entry_order.cuh"

namespace cunp::detail::cuda {

/// The record the scans fill (flags as ints: atomicOr's type).
template <class I> struct index_record {
  I lo[2], hi[2];  // the smallest and largest index of two arrays
  I first, last;   // indptr[0], indptr[majors]
  int decreasing, unsorted, duplicates;
};

/// atomicMin/atomicMax of the index types (CUDA names 64-bit ones long long).
template <class I> __device__ void atomic_min_index(I* p, I v) {
  if constexpr (sizeof(I) == 4)
    atomicMin(reinterpret_cast<int*>(p), static_cast<int>(v));
  else
    atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
}
template <class I> __device__ void atomic_max_index(I* p, I v) {
  if constexpr (sizeof(I) == 4)
    atomicMax(reinterpret_cast<int*>(p), static_cast<int>(v));
  else
    atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v));
}

template <class X> __device__ __forceinline__ X idx_min(X a, X b) { return b < a ? b : a; }
template <class X> __device__ __forceinline__ X idx_max(X a, X b) { return a < b ? b : a; }
/// v idx_clamp to [lo, hi].
__device__ __forceinline__ index_t idx_clamp(index_t v, index_t lo, index_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/// The record's start: empty ranges, no flags, and indptr's ends when there is an indptr.
template <class I>
CUNP_KERNEL void record_start_kernel(index_record<I>* r, const I* indptr, index_t majors) {
  for (int a = 0; a < 2; ++a) {
    r->lo[a] = std::numeric_limits<I>::max();
    r->hi[a] = std::numeric_limits<I>::min();
  }
  r->first = indptr ? indptr[0] : I(0);
  r->last = indptr ? indptr[majors] : I(0);
  r->decreasing = r->unsorted = r->duplicates = 0;
}

/// The range of x[0, n) into lo[a], hi[a] (n null: n = clamp(*n_from, 0, n_max), indptr[-1]
/// cut to the indices' size, as the cpu scan).
template <class I>
CUNP_KERNEL void index_range_kernel(const I* x, index_t n_max, const I* n_from, index_record<I>* r,
                                    int a) {
  using reduce = cub::BlockReduce<I, block_threads>;
  __shared__ typename reduce::TempStorage lo_temp, hi_temp;
  index_t n = n_max;
  if (n_from) n = idx_clamp(*n_from, 0, n_max);
  I lo = std::numeric_limits<I>::max(), hi = std::numeric_limits<I>::min();
  for (index_t k = thread_id(); k < n; k += thread_count()) {
    lo = idx_min(lo, x[k]);
    hi = idx_max(hi, x[k]);
  }
  lo = reduce(lo_temp).Reduce(lo, [](I u, I v) { return idx_min(u, v); });
  hi = reduce(hi_temp).Reduce(hi, [](I u, I v) { return idx_max(u, v); });
  if (threadIdx.x == 0) {
    atomic_min_index(&r->lo[a], lo);
    atomic_max_index(&r->hi[a], hi);
  }
}

/// Each line's order facts and indptr's order: a warp per line, its lanes along the line (line
/// ranges idx_clamp to the scanned entries, so a bad indptr reads nothing out of bounds).
template <class I>
CUNP_KERNEL void line_order_kernel(const I* indptr, const I* ix, index_t majors, index_t size,
                                   index_record<I>* r) {
  const int lane = threadIdx.x % warp_lanes;
  const index_t warps = thread_count() / warp_lanes;
  const index_t nnz = idx_clamp(indptr[majors], 0, size);
  for (index_t i = thread_id() / warp_lanes; i < majors; i += warps) {
    const index_t p0 = indptr[i], p1 = indptr[i + 1];
    const index_t b = idx_clamp(p0, 0, nnz), e = idx_clamp(p1, b, nnz);
    bool unsorted = false, duplicate = false;
    for (index_t j = b + 1 + lane; j < e; j += warp_lanes) {
      unsorted = unsorted || ix[j] < ix[j - 1];
      duplicate = duplicate || ix[j] == ix[j - 1];
    }
    unsorted = __any_sync(0xffffffffu, unsorted);
    duplicate = __any_sync(0xffffffffu, duplicate);
    if (lane == 0) {
      if (p1 < p0) atomicOr(&r->decreasing, 1);
      if (unsorted) atomicOr(&r->unsorted, 1);
      if (duplicate) atomicOr(&r->duplicates, 1);
    }
  }
}

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// The GPU's scan of a compressed matrix (the cpu's sparse_inspect): three kernels, one wait.
template <class I>
compressed_report<I> sparse_inspect(cuda_backend, const ndarray<I>& indptr,
                                    const ndarray<I>& indices) {
  const cuda::on_device on(indptr.device());
  const index_t majors = indptr.size() - 1;
  const cuda::workspace record(on.dev, sizeof(cuda::index_record<I>));
  auto* r = static_cast<cuda::index_record<I>*>(record.data());
  cuda::record_start_kernel<I><<<1, 1, 0, on.stream>>>(r, indptr.data(), majors);
  CUNP_CUDA_CHECK_LAUNCH("record_start_kernel");
  if (indices.size() > 0)
    cuda::launch_over(on.dev, on.stream, indices.size(), &cuda::index_range_kernel<I>,
                      "index_range_kernel", indices.data(), indices.size(), indptr.data() + majors,
                      r, 0);
  if (majors > 0)
    cuda::launch_over(on.dev, on.stream, majors * cuda::warp_lanes, &cuda::line_order_kernel<I>,
                      "line_order_kernel", indptr.data(), indices.data(), majors, indices.size(),
                      r);
  cuda::index_record<I> h{};
  cuda::read_back(on, &h, r, sizeof h, "a sparse matrix's check (it reads its indices)");
  compressed_report<I> out;
  out.first = h.first;
  out.last = h.last;
  out.decreasing = h.decreasing != 0;
  const bool any = h.lo[0] <= h.hi[0];
  out.min_index = any ? h.lo[0] : I(0);
  out.max_index = any ? h.hi[0] : I(0);
  out.unsorted = h.unsorted != 0;
  out.duplicates = h.duplicates != 0;
  return out;
}

/// The GPU's index ranges of a COO matrix: two reductions, one wait.
template <class I>
coo_report<I> coo_inspect(cuda_backend, const ndarray<I>& row, const ndarray<I>& col) {
  const cuda::on_device on(row.device());
  const cuda::workspace record(on.dev, sizeof(cuda::index_record<I>));
  auto* r = static_cast<cuda::index_record<I>*>(record.data());
  cuda::record_start_kernel<I><<<1, 1, 0, on.stream>>>(r, nullptr, 0);
  CUNP_CUDA_CHECK_LAUNCH("record_start_kernel");
  const ndarray<I>* arrays[2] = {&row, &col};
  for (int a = 0; a < 2; ++a)
    if (arrays[a]->size() > 0)
      cuda::launch_over(on.dev, on.stream, arrays[a]->size(), &cuda::index_range_kernel<I>,
                        "index_range_kernel", arrays[a]->data(), arrays[a]->size(),
                        static_cast<const I*>(nullptr), r, a);
  cuda::index_record<I> h{};
  cuda::read_back(on, &h, r, sizeof h, "a sparse matrix's check (it reads its indices)");
  coo_report<I> out;
  if (row.size() > 0) {
    out.row_min = h.lo[0];
    out.row_max = h.hi[0];
  }
  if (col.size() > 0) {
    out.col_min = h.lo[1];
    out.col_max = h.hi[1];
  }
  return out;
}

}  // namespace cunp::detail
