// cunp/detail/cuda/sparse/narrow_product.cuh: C = A B for a CSR A and row-major B and C of at
// most narrow_product_columns columns (a block of vectors), by a kernel of cunp's own.
//
// cuSPARSE's row-major SpMM (CSR_ALG2) took 6.1 ms for bench_sparse's 4M x 4M matrix with 16
// entries a row times 8 columns of float32, where each entry's row of B is one 32-byte sector:
// 0.41 of CuPy's time where issue 23 asks 0.33. Here a group of lanes takes a row, one lane a
// column, so each entry's row of B is one contiguous read, and the entries are added in storage
// order, as the cpu backend adds them: 2.2 ms (bench/RESULTS.md, "Sparse matrices"). The same
// scheme for SpMV (a group of lanes along a row's terms, a butterfly for their sums) ran 0.642
// ms against cuSPARSE's 0.611, so SpMV stays cuSPARSE's.
#pragma once
#include <type_traits>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/sparse/entry_order.cuh"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// The most columns the SpMM kernel takes (one lane a column); wider products go to cuSPARSE.
inline constexpr index_t narrow_product_columns = 32;

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

}  // namespace cunp::detail::cuda
