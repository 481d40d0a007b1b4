// cunp/detail/cpu/sparse/reduce.hpp: the cpu backend of a compressed matrix's diagonal and line
// sums (detail/cuda/sparse/reduce.cuh is the CUDA one). Both add a line's entries in storage
// order from zero, as scipy's csr_diagonal and csr_matvec do, and so do the GPU's.
#pragma once
#include <algorithm>

#include "cunp/detail/cpu/sparse/convert.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// Diagonal k of a compressed matrix into out (diagonal_length entries): element (i, i + k)
/// for k >= 0, (i - k, i) below. by_rows: CSR (the line of element (r, c) is r), else CSC.
template <class T, class I>
void sparse_diagonal(host_backend, bool by_rows, index_t k, const ndarray<I>& indptr,
                     const ndarray<I>& indices, const ndarray<T>& data, const ndarray<T>& out) {
  require_cpu_for(out.device(), "a sparse matrix's diagonal");
  const I* p = indptr.data();
  const I* ix = indices.data();
  const T* x = data.data();
  T* y = out.data();
  const index_t r0 = std::max<index_t>(-k, 0), c0 = std::max<index_t>(k, 0);
#pragma omp parallel for schedule(static) if (host_sparse::worth_threads(out.size() * 8))
  for (index_t i = 0; i < out.size(); ++i) {
    const index_t line = by_rows ? r0 + i : c0 + i, want = by_rows ? c0 + i : r0 + i;
    T s = T(0);
    for (index_t j = p[line]; j < p[line + 1]; ++j)
      if (ix[j] == want) s += x[j];
    y[i] = s;
  }
}

/// The sum of each major line's entries into out (majors entries).
template <class T, class I>
void sparse_line_sums(host_backend, const ndarray<I>& indptr, const ndarray<T>& data,
                      const ndarray<T>& out) {
  require_cpu_for(out.device(), "a sparse matrix's sum");
  const I* p = indptr.data();
  const T* x = data.data();
  T* y = out.data();
#pragma omp parallel for schedule(dynamic, 256) if (host_sparse::worth_threads(data.size()))
  for (index_t i = 0; i < out.size(); ++i) {
    T s = T(0);
    for (index_t j = p[i]; j < p[i + 1]; ++j) s += x[j];
    y[i] = s;
  }
}

}  // namespace cunp::detail
