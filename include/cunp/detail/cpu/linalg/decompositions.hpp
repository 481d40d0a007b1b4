// cunp/detail/cpu/linalg/decompositions.hpp: the cpu backend of cholesky, qr, eigh, svd and eig
// (decompositions.hpp): each matrix of the batch in a row-major buffer through cunp's own kernels
// (cholesky.hpp, qr.hpp, eigh.hpp, svd.hpp, eig.hpp), OpenMP across the batch, or inside the
// kernel when there is one matrix. A failure throws NumPy's LinAlgError at once.
#pragma once
#include <algorithm>
#include <complex>
#include <vector>

#include "cunp/detail/cpu/linalg/cholesky.hpp"
#include "cunp/detail/cpu/linalg/eig.hpp"
#include "cunp/detail/cpu/linalg/eigh.hpp"
#include "cunp/detail/cpu/linalg/qr.hpp"
#include "cunp/detail/cpu/linalg/svd.hpp"
#include "cunp/device.hpp"
#include "cunp/errors.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// The number of (rows x cols) matrices of a.
template <class T> index_t matrix_count(const ndarray<T>& a, index_t rows, index_t cols) {
  return rows * cols == 0 ? 0 : a.size() / (rows * cols);
}

/// Runs f(z) for every matrix z of a batch, the matrices spread over the threads when there are
/// several; whether f may spread its own work (one matrix) is f's second argument. Returns
/// whether every f returned true.
template <class F> bool for_each_matrix(index_t count, F&& f) {
  bool ok = true;
#pragma omp parallel for schedule(dynamic) if (count > 1)
  for (index_t z = 0; z < count; ++z)
    if (!f(z, count == 1)) {
#pragma omp atomic write
      ok = false;
    }
  return ok;
}

/// The Cholesky factor of each matrix of the C-ordered (batch, n, n) a, in place (the other
/// triangle zeroed).
template <class T> void cholesky_run(host_backend, const ndarray<T>& a, bool upper) {
  require_cpu_for(a.device(), "cholesky");
  const index_t n = a.shape().back(), count = matrix_count(a, n, n);
  T* p = a.data();
  if (!for_each_matrix(count, [&](index_t z, bool parallel) {
        return cpu_linalg::cholesky(p + z * n * n, n, upper, parallel) == 0;
      }))
    throw linalg_error("Matrix is not positive definite");
}

/// geqrf of each m x n matrix of x (batch, m, n), as LAPACK leaves it column-major: h (batch,
/// n, m) C-ordered, NumPy's mode='raw' array, and tau (batch, min(m, n)).
template <class T>
void qr_factor_run(host_backend, const ndarray<T>& x, const ndarray<T>& h, const ndarray<T>& tau) {
  require_cpu_for(x.device(), "qr");
  const index_t m = x.shape()[x.ndim() - 2], n = x.shape().back(), k = std::min(m, n);
  const ndarray<T> a = x.copy();  // row-major, factorised in place
  T* pa = a.data();
  T* ph = h.data();
  T* pt = tau.data();
  for_each_matrix(matrix_count(a, m, n), [&](index_t z, bool parallel) {
    T* az = pa + z * m * n;
    cpu_linalg::householder_qr(az, m, n, pt + z * k, parallel);
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) ph[z * m * n + j * m + i] = az[i * n + j];
    return true;
  });
}

/// The first cols columns of each Q of qr_factor_run's (h, tau) into q (batch, m, cols)
/// C-ordered (orgqr).
template <class T>
void qr_q_run(host_backend, const ndarray<T>& h, const ndarray<T>& tau, const ndarray<T>& q) {
  require_cpu_for(h.device(), "qr");
  const index_t n = h.shape()[h.ndim() - 2], m = h.shape().back(), cols = q.shape().back();
  const index_t k = std::min(m, n);
  const T* ph = h.data();
  const T* pt = tau.data();
  T* pq = q.data();
  for_each_matrix(matrix_count(q, m, cols), [&](index_t z, bool parallel) {
    std::vector<T> a(static_cast<std::size_t>(m * n));  // the row-major factors
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) a[i * n + j] = ph[z * m * n + j * m + i];
    cpu_linalg::form_q(a.data(), m, n, pt + z * k, pq + z * m * cols, cols, parallel);
    return true;
  });
}

/// The eigenvalues w (batch, n) of each Hermitian matrix of the C-ordered (batch, n, n) a, of
/// which one triangle is read (upper: NumPy's UPLO='U'); with vectors, a becomes the
/// eigenvectors (as columns), else its content is unspecified.
template <class T, class R>
void eigh_run(host_backend, const ndarray<T>& a, const ndarray<R>& w, bool vectors, bool upper) {
  require_cpu_for(a.device(), "eigh");
  const index_t n = a.shape().back();
  T* p = a.data();
  R* pw = w.data();
  for_each_matrix(matrix_count(a, n, n), [&](index_t z, bool) {
    cpu_linalg::eigh(p + z * n * n, n, pw + z * n, vectors, upper);
    return true;
  });
}

/// The singular values s (batch, min(m, n)) of each matrix of the C-ordered (batch, m, n) a
/// (overwritten), and with compute_uv u and vh (C-ordered: (batch, m, m) and (batch, n, n) with
/// full_matrices, else (batch, m, k) and (batch, k, n)).
template <class T, class R>
void svd_run(host_backend, const ndarray<T>& a, const ndarray<R>& s, const ndarray<T>& u,
             const ndarray<T>& vh, bool full_matrices, bool compute_uv) {
  require_cpu_for(a.device(), "svd");
  const index_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const index_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  T* p = a.data();
  R* ps = s.data();
  T* pu = compute_uv ? u.data() : nullptr;
  T* pv = compute_uv ? vh.data() : nullptr;
  if (!for_each_matrix(matrix_count(a, m, n), [&](index_t z, bool) {
        return cpu_linalg::svd(
            p + z * m * n, m, n, ps + z * k, compute_uv ? pu + z * m * ucols : nullptr,
            compute_uv ? pv + z * vrows * n : nullptr, full_matrices, compute_uv);
      }))
    throw linalg_error("SVD did not converge");
}

/// The eigenvalues w (batch, n) of each general matrix of the C-ordered (batch, n, n) a
/// (overwritten) and with vectors their right eigenvectors v (batch, n, n), as columns.
template <class T, class C>
void eig_run(host_backend, const ndarray<T>& a, const ndarray<C>& w, const ndarray<C>& v,
             bool vectors) {
  require_cpu_for(a.device(), "eig");
  const index_t n = a.shape().back(), count = matrix_count(a, n, n);
  T* p = a.data();
  for (index_t i = 0; i < a.size(); ++i)  // NumPy's _assert_finite
    if (!cpu_linalg::spectral::finite(p[i]))
      throw linalg_error("Array must not contain infs or NaNs");
  C* pw = w.data();
  C* pv = vectors ? v.data() : nullptr;
  if (!for_each_matrix(count, [&](index_t z, bool) {
        return cpu_linalg::eig(p + z * n * n, n, pw + z * n, vectors ? pv + z * n * n : nullptr);
      }))
    throw linalg_error("Eigenvalues did not converge");
}

}  // namespace cunp::detail
