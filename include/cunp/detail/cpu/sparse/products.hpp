// cunp/detail/cpu/sparse/products.hpp: the cpu backend of the sparse products (the reference;
// detail/cuda/sparse/products.cuh is cuSPARSE's): a compressed matrix times a dense matrix or
// vector, possibly transposed, and times another compressed matrix. They add each result's terms
// in scipy's order (csr_matvecs, csc_matvecs, csr_matmat): a line's entries in storage order, so
// that float64 results equal scipy's bit for bit.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cunp/detail/core/math.hpp"
#include "cunp/detail/cpu/sparse/convert.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace host_sparse {
/// OpenMP threads for `work` steps (1 without OpenMP or for small work).
inline int threads_for(index_t work) {
#if defined(_OPENMP)
  return worth_threads(work) ? omp_get_max_threads() : 1;
#else
  (void)work;
  return 1;
#endif
}
}  // namespace host_sparse

/// c = op(A) b for A the compressed arrays of a rows x cols matrix (CSR; a CSC matrix passes the
/// arrays of its transpose) and op the transpose when `transpose`: b is op(A)'s cols x n and c
/// op(A)'s rows x n, both 2-d of any strides (c is overwritten, apart from the operands).
template <class T, class I>
void sparse_matmat(host_backend, index_t rows, index_t cols, const cs_arrays<T, I>& a,
                   bool transpose, const ndarray<T>& b, const ndarray<T>& c) {
  require_cpu_for(c.device(), "sparse products");
  using M = math_t<T>;
  const I* p = a.indptr.data();
  const I* ix = a.indices.data();
  const auto* x = reinterpret_cast<const M*>(a.data.data());
  const auto* bv = reinterpret_cast<const M*>(b.data());
  auto* cv = reinterpret_cast<M*>(c.data());
  const index_t n = c.shape()[1], bs0 = b.strides()[0], bs1 = b.strides()[1];
  const index_t cs0 = c.strides()[0], cs1 = c.strides()[1];
  const index_t work = a.data.size() * std::max<index_t>(n, 1);
  if (!transpose) {
    // c[i, :] is row i's entries times b's rows, added in storage order.
#pragma omp parallel if (host_sparse::worth_threads(work))
    {
      std::vector<M> acc(static_cast<std::size_t>(n));
#pragma omp for schedule(dynamic, 256)
      for (index_t i = 0; i < rows; ++i) {
        std::fill(acc.begin(), acc.end(), M(0));
        for (index_t jj = p[i]; jj < p[i + 1]; ++jj) {
          const M v = x[jj];
          const M* brow = bv + ix[jj] * bs0;
          for (index_t k = 0; k < n; ++k) acc[k] = acc[k] + v * brow[k * bs1];
        }
        for (index_t k = 0; k < n; ++k) cv[i * cs0 + k * cs1] = acc[k];
      }
    }
    return;
  }
  // op(A) = A^T: entry (i, j) of A adds A[i, j] b[i, :] to c[j, :], entries in storage order.
  // Threads split c's columns, so that no two write one element.
  for (index_t j = 0; j < cols; ++j)
    for (index_t k = 0; k < n; ++k) cv[j * cs0 + k * cs1] = M(0);
  const int threads = static_cast<int>(
      std::clamp<index_t>(host_sparse::threads_for(work), 1, std::max<index_t>(n, 1)));
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (int t = 0; t < threads; ++t) {
    const index_t k0 = n * t / threads, k1 = n * (t + 1) / threads;
    for (index_t i = 0; i < rows; ++i)
      for (index_t jj = p[i]; jj < p[i + 1]; ++jj) {
        const M v = x[jj];
        M* crow = cv + ix[jj] * cs0;
        const M* brow = bv + i * bs0;
        for (index_t k = k0; k < k1; ++k) crow[k * cs1] = crow[k * cs1] + v * brow[k * bs1];
      }
  }
}

/// y = op(A) x: sparse_matmat with x and y as one-column matrices.
template <class T, class I>
void sparse_matvec(host_backend be, index_t rows, index_t cols, const cs_arrays<T, I>& a,
                   bool transpose, const ndarray<T>& x, const ndarray<T>& y) {
  const auto column = [](const ndarray<T>& v) {
    return ndarray<T>(v.storage(), v.offset(), shape_t{v.shape()[0], 1},
                      strides_t{v.strides()[0], 1});
  };
  sparse_matmat(be, rows, cols, a, transpose, column(x), column(y));
}

/// The product of A (rows x inner) and B (inner x cols), both compressed arrays (CSR), as
/// canonical CSR arrays: Gustavson's row by row product with a dense accumulator, each row's
/// sums added in scipy's order (csr_matmat: A's entries in storage order, each times B's row in
/// storage order), its columns then sorted and its zero sums left out (as csr_matmat does).
template <class T, class I>
cs_arrays<T, I> sparse_matmat_sparse(host_backend, index_t rows, index_t cols,
                                     const cs_arrays<T, I>& a, const cs_arrays<T, I>& b) {
  require_cpu_for(a.indptr.device(), "sparse products");
  using M = math_t<T>;
  const I* ap = a.indptr.data();
  const I* aj = a.indices.data();
  const auto* ax = reinterpret_cast<const M*>(a.data.data());
  const I* bp = b.indptr.data();
  const I* bj = b.indices.data();
  const auto* bx = reinterpret_cast<const M*>(b.data.data());
  const int threads = static_cast<int>(std::clamp<index_t>(
      host_sparse::threads_for(a.data.size() * 16), 1, std::max<index_t>(rows, 1)));
  // Each thread takes a contiguous block of rows and keeps its rows' entries in order, so the
  // blocks' entries concatenate into the result.
  std::vector<std::vector<I>> block_j(static_cast<std::size_t>(threads));
  std::vector<std::vector<M>> block_x(static_cast<std::size_t>(threads));
  std::vector<std::int64_t> start(static_cast<std::size_t>(rows) + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (int t = 0; t < threads; ++t) {
    const index_t r0 = rows * t / threads, r1 = rows * (t + 1) / threads;
    std::vector<M> acc(static_cast<std::size_t>(cols));
    std::vector<index_t> seen(static_cast<std::size_t>(cols), -1);
    std::vector<I> touched;
    auto& oj = block_j[t];
    auto& ox = block_x[t];
    for (index_t i = r0; i < r1; ++i) {
      touched.clear();
      for (index_t jj = ap[i]; jj < ap[i + 1]; ++jj) {
        const M v = ax[jj];
        const I k = aj[jj];
        for (index_t kk = bp[k]; kk < bp[k + 1]; ++kk) {
          const I j = bj[kk];
          if (seen[j] != i) {
            seen[j] = i;
            acc[j] = M(0);
            touched.push_back(j);
          }
          acc[j] = acc[j] + v * bx[kk];
        }
      }
      std::sort(touched.begin(), touched.end());
      std::int64_t kept = 0;
      for (const I j : touched)
        if (!(acc[j] == M(0))) {
          oj.push_back(j);
          ox.push_back(acc[j]);
          ++kept;
        }
      start[i + 1] = kept;
    }
  }
  for (index_t i = 0; i < rows; ++i) start[i + 1] += start[i];
  const index_t nnz = start[rows];
  check_index_fits<I>(nnz, "the product's number of stored entries,");
  cs_arrays<T, I> out{ndarray<T>({nnz}, cpu), ndarray<I>({nnz}, cpu), ndarray<I>({rows + 1}, cpu)};
  for (index_t i = 0; i <= rows; ++i) out.indptr.data()[i] = static_cast<I>(start[i]);
  auto* oj = out.indices.data();
  auto* ox = reinterpret_cast<M*>(out.data.data());
  for (int t = 0; t < threads; ++t) {
    const index_t at = start[rows * t / threads];
    std::copy(block_j[t].begin(), block_j[t].end(), oj + at);
    std::copy(block_x[t].begin(), block_x[t].end(), ox + at);
  }
  return out;
}

}  // namespace cunp::detail
