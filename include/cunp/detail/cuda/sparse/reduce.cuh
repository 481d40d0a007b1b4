// cunp/detail/cuda/sparse/reduce.cuh: the CUDA backend of a compressed matrix's diagonal and line
// sums (detail/cpu/sparse/reduce.hpp is the reference): a thread per output element adds its
// line's entries in storage order from zero, the cpu's and scipy's order, so both backends give
// the same sums.
#pragma once
#include "cunp/detail/core/math.hpp"
#include "cunp/detail/cpu/sparse/reduce.hpp"
#include "cunp/detail/cuda/sparse/entry_order.cuh"

namespace cunp::detail::cuda {

/// y[i] = the entries of element (r0 + i, c0 + i) added, from its line (row for CSR, column for
/// CSC).
template <class M, class I>
CUNP_KERNEL void diagonal_kernel(const I* indptr, const I* ix, const M* x, M* y, index_t n,
                                 bool by_rows, index_t r0, index_t c0) {
  for (index_t i = thread_id(); i < n; i += thread_count()) {
    const index_t line = by_rows ? r0 + i : c0 + i, want = by_rows ? c0 + i : r0 + i;
    M s = M(0);
    for (index_t j = indptr[line]; j < indptr[line + 1]; ++j)
      if (static_cast<index_t>(ix[j]) == want) s = s + x[j];
    y[i] = s;
  }
}

/// y[i] = line i's entries added.
template <class M, class I>
CUNP_KERNEL void line_sums_kernel(const I* indptr, const M* x, M* y, index_t majors) {
  for (index_t i = thread_id(); i < majors; i += thread_count()) {
    M s = M(0);
    for (index_t j = indptr[i]; j < indptr[i + 1]; ++j) s = s + x[j];
    y[i] = s;
  }
}

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// The GPU's diagonal k (the cpu's sparse_diagonal).
template <class T, class I>
void sparse_diagonal(cuda_backend, bool by_rows, index_t k, const ndarray<I>& indptr,
                     const ndarray<I>& indices, const ndarray<T>& data, const ndarray<T>& out) {
  const cuda::on_device on(out.device());
  using M = math_t<T>;
  cuda::launch_over(on.dev, on.stream, out.size(), &cuda::diagonal_kernel<M, I>, "diagonal_kernel",
                    indptr.data(), indices.data(), reinterpret_cast<const M*>(data.data()),
                    reinterpret_cast<M*>(out.data()), out.size(), by_rows, std::max<index_t>(-k, 0),
                    std::max<index_t>(k, 0));
}

/// The GPU's line sums (the cpu's sparse_line_sums).
template <class T, class I>
void sparse_line_sums(cuda_backend, const ndarray<I>& indptr, const ndarray<T>& data,
                      const ndarray<T>& out) {
  const cuda::on_device on(out.device());
  using M = math_t<T>;
  cuda::launch_over(on.dev, on.stream, out.size(), &cuda::line_sums_kernel<M, I>,
                    "line_sums_kernel", indptr.data(), reinterpret_cast<const M*>(data.data()),
                    reinterpret_cast<M*>(out.data()), out.size());
}

}  // namespace cunp::detail
