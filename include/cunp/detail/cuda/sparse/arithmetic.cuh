// cunp/detail/cuda/sparse/arithmetic.cuh: the CUDA backend of the line merge (detail/sparse/
// merge.hpp): cuSPARSE has no generic sum of two sparse matrices, so one kernel counts each
// line's entries (a thread a line), CUB scans the counts into indptr, the size is read back (the
// one wait: the result's size depends on the data), and the same kernel writes each line.
#pragma once
#include <cstdint>
#include <cub/device/device_scan.cuh>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/detail/sparse/merge.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace cuda {

/// Line i of the merge of a and b (bp null: no b): with out_j null its entry count into
/// start[i + 1], else its entries from start[i] on.
template <class M, class I>
CUNP_KERNEL void merge_kernel(merge_op op, bool drop_zeros, std::int64_t majors, const I* ap,
                              const I* aj, const M* ax, const I* bp, const I* bj, const M* bx,
                              std::int64_t* start, I* out_j, M* out_x) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < majors;
       i += step) {
    const std::int64_t b0 = bp ? std::int64_t(bp[i]) : 0, b1 = bp ? std::int64_t(bp[i + 1]) : 0;
    if (out_j) {
      const std::int64_t at = start[i];
      merge_line<M, I>(op, drop_zeros, aj, ax, ap[i], ap[i + 1], bj, bx, b0, b1, out_j + at,
                       out_x + at);
    } else {
      start[i + 1] = merge_line<M, I>(op, drop_zeros, aj, ax, ap[i], ap[i + 1], bj, bx, b0, b1,
                                      static_cast<I*>(nullptr), static_cast<M*>(nullptr));
    }
  }
}

}  // namespace cuda

/// The merge of a and b line by line (see the cpu backend, detail/cpu/sparse/arithmetic.hpp).
/// With reuse_unchanged, a merge that keeps every entry of a (no b, op first: a was already
/// canonical and, with drop_zeros, had no zero) returns a's own arrays: for temporaries only.
template <class T, class I>
cs_arrays<T, I> sparse_merge(cuda_backend, index_t majors, const cs_arrays<T, I>& a,
                             const cs_arrays<T, I>& b, merge_op op, bool drop_zeros,
                             bool reuse_unchanged = false) {
  using M = math_t<T>;
  const cuda::on_device on(a.indptr.device());
  const bool has_b = b.indptr.size() > 0;
  ndarray<std::int64_t> start({majors + 1}, a.indptr.device());
  CUNP_CUDA_CHECK(cudaMemsetAsync(start.data(), 0, sizeof(std::int64_t), on.stream));
  const auto grid = cuda::grid_for(on.dev, majors);
  const auto launch = [&](I* oj, M* ox) {
    if (majors == 0) return;
    cuda::merge_kernel<M, I><<<grid, cuda::block_threads, 0, on.stream>>>(
        op, drop_zeros, majors, a.indptr.data(), a.indices.data(),
        reinterpret_cast<const M*>(a.data.data()), has_b ? b.indptr.data() : nullptr,
        has_b ? b.indices.data() : nullptr,
        has_b ? reinterpret_cast<const M*>(b.data.data()) : nullptr, start.data(), oj, ox);
    CUNP_CUDA_CHECK_LAUNCH("merge_kernel");
  };
  launch(nullptr, nullptr);
  if (majors > 0) {
    std::int64_t* counts = start.data() + 1;
    cuda::cub_call(on.dev, "cub::DeviceScan::InclusiveSum", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::InclusiveSum(temp, bytes, counts, counts, majors, on.stream);
    });
  }
  std::int64_t nnz = 0;
  cuda::read_back(on, &nnz, start.data() + majors, sizeof nnz, "sparse arithmetic");
  if (reuse_unchanged && !has_b && op == merge_op::first && nnz == a.data.size()) return a;
  check_index_fits<I>(nnz, "the result's number of stored entries,");
  cs_arrays<T, I> out;
  out.data = ndarray<T>({nnz}, a.indptr.device());
  out.indices = ndarray<I>({nnz}, a.indptr.device());
  if (nnz > 0) launch(out.indices.data(), reinterpret_cast<M*>(out.data.data()));
  if constexpr (std::is_same_v<I, std::int64_t>)
    out.indptr = start;
  else
    out.indptr = start.template astype<I, cuda_backend>();
  return out;
}

}  // namespace cunp::detail
