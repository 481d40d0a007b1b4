// cunp/detail/cpu/linalg/lu.hpp: the cpu backend of det, slogdet, solve and inv: LU with partial
// pivoting (LAPACK's getrf: the largest magnitude in the column as pivot, elimination by rank-1
// updates of the trailing rows), on a row-major copy of each matrix, then the triangular solves.
// OpenMP across the matrices of a batch, or across the trailing rows of one large matrix.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "cunp/detail/linalg/gemm_problem.hpp"
#include "cunp/device.hpp"
#include "cunp/errors.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cpu_linalg {

template <class T> auto magnitude(const T& v) { return std::abs(v); }

/// P A = L U of the n x n row-major matrix at a, in place (L unit lower, below the diagonal; U
/// on and above it); piv[j] is the row swapped with row j at step j. Returns LAPACK's info: 0,
/// or j + 1 for the first exactly zero pivot U[j][j] (the factorisation goes on past it).
template <class T> index_t lu_factor(T* a, index_t n, index_t* piv, bool parallel) {
  index_t info = 0;
  for (index_t j = 0; j < n; ++j) {
    index_t p = j;
    auto best = magnitude(a[j * n + j]);
    for (index_t i = j + 1; i < n; ++i)
      if (magnitude(a[i * n + j]) > best) {
        best = magnitude(a[i * n + j]);
        p = i;
      }
    piv[j] = p;
    if (a[p * n + j] == T(0)) {  // a column of zeros below the diagonal: nothing to eliminate
      if (info == 0) info = j + 1;
      continue;
    }
    if (p != j)
      for (index_t k = 0; k < n; ++k) std::swap(a[j * n + k], a[p * n + k]);
    const T pivot = a[j * n + j];
    const T* row = a + j * n;
#pragma omp parallel for schedule(static) if (parallel && (n - j) * (n - j) >= (1 << 16))
    for (index_t i = j + 1; i < n; ++i) {
      T* r = a + i * n;
      const T l = r[j] / pivot;
      r[j] = l;
      for (index_t k = j + 1; k < n; ++k) r[k] -= l * row[k];
    }
  }
  return info;
}

/// sign and log|det| of a factorised matrix (NumPy's slogdet: sign 0 and log 0 = -inf for a
/// singular one; a complex sign is the unit-modulus product of the pivots' phases).
template <class T, class R>
void slogdet_of(const T* lu, const index_t* piv, index_t n, index_t info, T& sign, R& logabs) {
  if (info > 0) {
    sign = T(0);
    logabs = -std::numeric_limits<R>::infinity();
    return;
  }
  T s(1);
  R l = 0;
  for (index_t j = 0; j < n; ++j) {
    const T u = lu[j * n + j];
    const R m = std::abs(u);
    if (piv[j] != j) s = -s;
    s *= u / m;
    l += std::log(m);
  }
  sign = s;
  logabs = l;
}

/// x = A^-1 x for the k columns of the n x k row-major x, A given by its factors.
template <class T> void lu_solve(const T* lu, const index_t* piv, index_t n, T* x, index_t k) {
  for (index_t j = 0; j < n; ++j)
    if (piv[j] != j)
      for (index_t c = 0; c < k; ++c) std::swap(x[j * k + c], x[piv[j] * k + c]);
  for (index_t i = 1; i < n; ++i)
    for (index_t j = 0; j < i; ++j) {
      const T l = lu[i * n + j];
      for (index_t c = 0; c < k; ++c) x[i * k + c] -= l * x[j * k + c];
    }
  for (index_t i = n; i-- > 0;) {
    for (index_t j = i + 1; j < n; ++j) {
      const T u = lu[i * n + j];
      for (index_t c = 0; c < k; ++c) x[i * k + c] -= u * x[j * k + c];
    }
    const T d = lu[i * n + i];
    for (index_t c = 0; c < k; ++c) x[i * k + c] /= d;
  }
}

/// Matrix z of the strided n x m operand o into the row-major buffer dst.
template <class T>
void gather_matrix(const gemm_operand<const T>& o, const shape_t& batch, index_t z, index_t rows,
                   index_t cols, T* dst) {
  const T* src = o.data + batch_offset(batch, o.batch, z);
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) dst[i * cols + j] = src[i * o.rs + j * o.cs];
}

}  // namespace cunp::detail::cpu_linalg

namespace cunp::detail {

/// sign[z] and logabs[z] (C-ordered, of the batch's shape) of each n x n matrix z of a.
template <class T, class R>
void slogdet_run(host_backend, const ndarray<T>& sign, const ndarray<R>& logabs,
                 const ndarray<T>& a) {
  require_cpu_for(a.device(), "slogdet");
  const auto p = make_gemm_problem(a, a, a, matmul_precision::highest);  // a's batch layout
  const index_t n = p.m, count = p.batch_count();
  T* s = sign.data();
  R* l = logabs.data();
#pragma omp parallel if (count > 1)
  {
    std::vector<T> lu(static_cast<std::size_t>(n * n));
    std::vector<index_t> piv(static_cast<std::size_t>(n));
#pragma omp for schedule(dynamic)
    for (index_t z = 0; z < count; ++z) {
      cpu_linalg::gather_matrix(p.a, p.batch, z, n, n, lu.data());
      const index_t info = cpu_linalg::lu_factor(lu.data(), n, piv.data(), count == 1);
      cpu_linalg::slogdet_of(lu.data(), piv.data(), n, info, s[z], l[z]);
    }
  }
}

/// x[z] = a[z]^-1 b[z] for a (batch, n, n) and b (batch, n, k) broadcast views, x (batch, n, k)
/// C-ordered. A singular matrix throws NumPy's LinAlgError at once.
template <class T>
void solve_run(host_backend, const ndarray<T>& x, const ndarray<T>& a, const ndarray<T>& b) {
  require_cpu_for(a.device(), "solve");
  const auto p = make_gemm_problem(x, a, b, matmul_precision::highest);
  const index_t n = p.m, k = p.n, count = p.batch_count();
  bool singular = false;
#pragma omp parallel if (count > 1)
  {
    std::vector<T> lu(static_cast<std::size_t>(n * n));
    std::vector<index_t> piv(static_cast<std::size_t>(n));
#pragma omp for schedule(dynamic)
    for (index_t z = 0; z < count; ++z) {
      cpu_linalg::gather_matrix(p.a, p.batch, z, n, n, lu.data());
      if (cpu_linalg::lu_factor(lu.data(), n, piv.data(), count == 1) > 0) {
#pragma omp atomic write
        singular = true;
        continue;
      }
      T* xz = p.c.data + batch_offset(p.batch, p.c.batch, z);
      cpu_linalg::gather_matrix(p.b, p.batch, z, n, k, xz);
      cpu_linalg::lu_solve(lu.data(), piv.data(), n, xz, k);
    }
  }
  if (singular) throw linalg_error("Singular matrix");
}

}  // namespace cunp::detail
