// cunp/detail/cuda/sparse/row_products.cuh: CSR products by kernels of cunp's own, a group of
// lanes a row: y = A x (SpMV) for rows of up to csr_vector_row_terms terms on average, and
// C = A B for row-major B and C of at most narrow_product_columns columns (a block of vectors).
//
// cuSPARSE's SpMV (CSR_ALG2, deterministic) took 0.613 ms for bench_sparse's 4M x 4M matrix
// with 16 entries a row (ALG1 0.592, CuPy 0.599: 0.32 of the copy ceiling at the byte floor),
// and its row-major SpMM (CSR_ALG2) 6.1 ms for 8 columns of float32, where each entry's row of
// B is one 32-byte sector: 0.41 of CuPy's time where issue 23 asks 0.33. Both products read
// each row's entries in one pass: a group of lanes a row, for SpMV the lanes along the row's
// terms (their sums added by a butterfly: the same bits every run), for SpMM one lane a column
// (each entry's row of B one contiguous read, the entries added in storage order, as the cpu
// backend adds them). bench/RESULTS.md ("Sparse matrices") has the times.
#pragma once
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/sparse/entry_order.cuh"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// The most columns the SpMM kernel takes (one lane a column); wider products go to cuSPARSE.
inline constexpr index_t narrow_product_columns = 32;
/// The longest mean row the SpMV kernel takes (32 lanes, 8 terms each); longer rows, fewer of
/// them, go to cuSPARSE, which splits a row between blocks.
inline constexpr index_t csr_vector_row_terms = 256;

/// a ^ (each part of a complex value) exchanged with the lane `mask` away (all 32 lanes call it).
template <class M> __device__ __forceinline__ M shfl_xor_value(const M& a, int mask) {
  if constexpr (is_complex_v<M>)
    return M(__shfl_xor_sync(0xffffffffu, a.re, mask), __shfl_xor_sync(0xffffffffu, a.im, mask));
  else
    return __shfl_xor_sync(0xffffffffu, a, mask);
}

/// y[i] = the sum of row i's terms values[k] x[indices[k]]: a group of L lanes a row (32 / L rows
/// a warp), lane l adding terms l, l + L, ... in order, then the group's sums added by a
/// butterfly (a fixed order: the same bits every run).
template <int L, class M, class I>
CUNP_KERNEL void csr_vector_kernel(const I* indptr, const I* indices, const M* values, index_t rows,
                                   const M* x, M* y) {
  constexpr int per_warp = warp_lanes / L;
  const int lane = static_cast<int>(threadIdx.x % warp_lanes);
  const int sub = lane % L;
  const index_t warp = thread_id() / warp_lanes, warps = thread_count() / warp_lanes;
  for (index_t base = warp * per_warp; base < rows; base += warps * per_warp) {
    const index_t i = base + lane / L;  // the loop is the warp's: every lane reaches the shuffles
    M acc(0);
    if (i < rows) {
      const index_t end = indptr[i + 1];
      for (index_t k = indptr[i] + sub; k < end; k += L)
        acc = acc + values[k] * x[static_cast<index_t>(indices[k])];
    }
    for (int d = L / 2; d > 0; d /= 2) acc = acc + shfl_xor_value(acc, d);
    if (i < rows && sub == 0) y[i] = acc;
  }
}

/// c[i, l] = the sum over row i's entries k, in storage order, of values[k] b[indices[k], l]: a
/// group of G lanes a row (G the power of two at least n, 32 / G rows a warp), lane l column l.
template <int G, class M, class I>
CUNP_KERNEL void narrow_product_kernel(const I* indptr, const I* indices, const M* values,
                                       index_t rows, index_t n, const M* b, index_t ldb, M* c,
                                       index_t ldc) {
  const int lane = static_cast<int>(threadIdx.x % G);
  const index_t groups = thread_count() / G;
  for (index_t i = thread_id() / G; i < rows; i += groups) {
    if (lane >= n) continue;
    M acc(0);
    const index_t end = indptr[i + 1];
#pragma unroll 4
    for (index_t k = indptr[i]; k < end; ++k)
      acc = acc + values[k] * b[static_cast<index_t>(indices[k]) * ldb + lane];
    c[i * ldc + lane] = acc;
  }
}

/// c (rows x n, row-major, ld ldc) = A b for CSR arrays a (rows x k) and b (k x n, row-major, ld
/// ldb), 1 <= n <= narrow_product_columns, on the current stream of c's device.
template <class T, class I>
void narrow_product(index_t rows, const cs_arrays<T, I>& a, const T* b, index_t ldb, index_t n,
                    T* c, index_t ldc, int dev) {
  using M = math_t<T>;
  const auto go = [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    launch_over(dev, current_stream(dev), rows * G, &narrow_product_kernel<G, M, I>,
                "narrow_product_kernel", a.indptr.data(), a.indices.data(),
                reinterpret_cast<const M*>(a.data.data()), rows, n, reinterpret_cast<const M*>(b),
                ldb, reinterpret_cast<M*>(c), ldc);
  };
  if (n <= 1)
    go(std::integral_constant<int, 1>{});
  else if (n <= 2)
    go(std::integral_constant<int, 2>{});
  else if (n <= 4)
    go(std::integral_constant<int, 4>{});
  else if (n <= 8)
    go(std::integral_constant<int, 8>{});
  else if (n <= 16)
    go(std::integral_constant<int, 16>{});
  else
    go(std::integral_constant<int, 32>{});
}

/// y (rows) = A x for CSR arrays a (rows x k) and x (k), both contiguous, on the current stream
/// of device dev: the group takes the power of two of lanes at least A's mean row length (at
/// most 32).
template <class T, class I>
void csr_vector_product(index_t rows, const cs_arrays<T, I>& a, const T* x, T* y, int dev) {
  using M = math_t<T>;
  const index_t mean = (a.data.size() + rows - 1) / rows;
  const auto go = [&](auto lanes) {
    constexpr int L = decltype(lanes)::value;
    launch_over(dev, current_stream(dev), rows * L, &csr_vector_kernel<L, M, I>,
                "csr_vector_kernel", a.indptr.data(), a.indices.data(),
                reinterpret_cast<const M*>(a.data.data()), rows, reinterpret_cast<const M*>(x),
                reinterpret_cast<M*>(y));
  };
  if (mean <= 1)
    go(std::integral_constant<int, 1>{});
  else if (mean <= 2)
    go(std::integral_constant<int, 2>{});
  else if (mean <= 4)
    go(std::integral_constant<int, 4>{});
  else if (mean <= 8)
    go(std::integral_constant<int, 8>{});
  else if (mean <= 16)
    go(std::integral_constant<int, 16>{});
  else
    go(std::integral_constant<int, 32>{});
}

}  // namespace cunp::detail::cuda
