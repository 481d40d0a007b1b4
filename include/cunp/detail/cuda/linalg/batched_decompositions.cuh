// cunp/detail/cuda/linalg/batched_decompositions.cuh: the routes of decompositions.cuh for
// stacks of small matrices, one cuSOLVER call for the whole stack where the loop routes make one
// per matrix (each of which launches several kernels that a 32 x 32 matrix leaves nearly idle):
// cholesky by potrfBatched, eigh by syevjBatched/heevjBatched and svd by gesvdjBatched (Jacobi's
// methods, which cuSOLVER batches up to order 32 only). They take the C-ordered buffers the loop
// routes take, read them through the same column-major views and leave the same results; a
// failure lands in an info per matrix, which solver_status.cuh turns into NumPy's error with no
// wait, as the loop routes' does.
#pragma once
#include <cusolverDn.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cunp/detail/cpu/linalg/decompositions.hpp"
#include "cunp/detail/cuda/core/cusolver.cuh"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/linalg/solver_status.cuh"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::detail::cuda {

/// Orders up to which a stack of two or more matrices is factorised by potrfBatched rather than
/// by the Xpotrf loop: potrfBatched was 35-370x faster than the loop at every stack measured
/// (4096 of 2^2 ... 32^2, 1024 of 64^2, 256 of 128^2, 64 of 256^2; RESULTS.md); larger orders
/// were not measured.
inline constexpr index_t batched_cholesky_max = 256;

/// syevjBatched's and gesvdjBatched's limit on each side of a matrix (cuSOLVER's).
inline constexpr index_t batched_jacobi_max = 32;

/// The most Jacobi sweeps a matrix gets. Each sweep squares the off-diagonal norm once it is
/// small, so a matrix of order 32 reaches the tolerance in about 10 (cuSOLVER's documentation
/// says 15 suffice); one still above it after 100 (cuSOLVER's default, said aloud here) reports
/// info > 0, NumPy's "did not converge".
inline constexpr int jacobi_max_sweeps = 100;

/// The most matrix elements one batched call covers: cuSOLVER counts the batch and its workspace
/// in int, which a stack of millions of matrices would overflow. 2^24 elements is at least 4096
/// matrices of the largest order taken, enough to fill the GPU.
inline constexpr index_t batched_call_elements = index_t(1) << 24;

/// Whether count matrices of order n take potrfBatched rather than one Xpotrf each.
inline bool batched_cholesky(index_t n, index_t count) {
  return count > 1 && n <= batched_cholesky_max;
}

/// Whether count m x n matrices take syevjBatched (m == n) or gesvdjBatched rather than one
/// Xsyevd or Xgesvd each.
inline bool batched_jacobi(index_t m, index_t n, index_t count) {
  return count > 1 && m <= batched_jacobi_max && n <= batched_jacobi_max;
}

/// The matrices of `elements` elements each that one batched call takes (batched_call_elements).
inline index_t batched_call_count(index_t count, index_t elements) {
  return std::min(count,
                  std::max<index_t>(1, batched_call_elements / std::max<index_t>(1, elements)));
}

/// cuSOLVER's batched small-matrix routines of T (cuSOLVER's own complex types in their
/// signatures; R is T's real type, that of eigenvalues and singular values).
template <class T> struct batched_solver;
#define CUNP_BATCHED_SOLVER(T, B, R, P, EV)                                                        \
  template <> struct batched_solver<T> {                                                           \
    static cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t fill, int n, T* a[],      \
                                  int lda, int* info, int count) {                                 \
      return cusolverDn##P##potrfBatched(h, fill, n, reinterpret_cast<B**>(a), lda, info, count);  \
    }                                                                                              \
    static cusolverStatus_t eigh_size(cusolverDnHandle_t h, cusolverEigMode_t job,                 \
                                      cublasFillMode_t fill, int n, const T* a, int lda,           \
                                      const R* w, int* lwork, syevjInfo_t p, int count) {          \
      return cusolverDn##P##EV##Batched_bufferSize(h, job, fill, n, reinterpret_cast<const B*>(a), \
                                                   lda, w, lwork, p, count);                       \
    }                                                                                              \
    static cusolverStatus_t eigh(cusolverDnHandle_t h, cusolverEigMode_t job,                      \
                                 cublasFillMode_t fill, int n, T* a, int lda, R* w, T* work,       \
                                 int lwork, int* info, syevjInfo_t p, int count) {                 \
      return cusolverDn##P##EV##Batched(h, job, fill, n, reinterpret_cast<B*>(a), lda, w,          \
                                        reinterpret_cast<B*>(work), lwork, info, p, count);        \
    }                                                                                              \
    static cusolverStatus_t svd_size(cusolverDnHandle_t h, cusolverEigMode_t job, int m, int n,    \
                                     const T* a, int lda, const R* s, const T* u, int ldu,         \
                                     const T* v, int ldv, int* lwork, gesvdjInfo_t p, int count) { \
      return cusolverDn##P##gesvdjBatched_bufferSize(                                              \
          h, job, m, n, reinterpret_cast<const B*>(a), lda, s, reinterpret_cast<const B*>(u), ldu, \
          reinterpret_cast<const B*>(v), ldv, lwork, p, count);                                    \
    }                                                                                              \
    static cusolverStatus_t svd(cusolverDnHandle_t h, cusolverEigMode_t job, int m, int n, T* a,   \
                                int lda, R* s, T* u, int ldu, T* v, int ldv, T* work, int lwork,   \
                                int* info, gesvdjInfo_t p, int count) {                            \
      return cusolverDn##P##gesvdjBatched(h, job, m, n, reinterpret_cast<B*>(a), lda, s,           \
                                          reinterpret_cast<B*>(u), ldu, reinterpret_cast<B*>(v),   \
                                          ldv, reinterpret_cast<B*>(work), lwork, info, p, count); \
    }                                                                                              \
  };
CUNP_BATCHED_SOLVER(float, float, float, S, syevj)
CUNP_BATCHED_SOLVER(double, double, double, D, syevj)
CUNP_BATCHED_SOLVER(std::complex<float>, cuComplex, float, C, heevj)
CUNP_BATCHED_SOLVER(std::complex<double>, cuDoubleComplex, double, Z, heevj)
#undef CUNP_BATCHED_SOLVER

/// The settings every Jacobi call of precision R takes: the tolerance R's machine epsilon (the
/// accuracy Xsyevd and Xgesvd reach; cuSOLVER's default, said aloud), jacobi_max_sweeps, and
/// sorted values (eigenvalues ascending and singular values descending, as NumPy's; cuSOLVER's
/// default too). Info is syevjInfo_t or gesvdjInfo_t; one per thread, as the handle, so that no
/// call shares one with another thread's.
template <class Info, class R> Info jacobi_settings() {
  struct holder {
    Info p = nullptr;
    holder() {
      if constexpr (std::is_same_v<Info, syevjInfo_t>) {
        CUNP_CUSOLVER_CHECK(cusolverDnCreateSyevjInfo(&p));
        try {
          CUNP_CUSOLVER_CHECK(
              cusolverDnXsyevjSetTolerance(p, double(std::numeric_limits<R>::epsilon())));
          CUNP_CUSOLVER_CHECK(cusolverDnXsyevjSetMaxSweeps(p, jacobi_max_sweeps));
          CUNP_CUSOLVER_CHECK(cusolverDnXsyevjSetSortEig(p, 1));
        } catch (...) {
          cusolverDnDestroySyevjInfo(p);
          throw;
        }
      } else {
        CUNP_CUSOLVER_CHECK(cusolverDnCreateGesvdjInfo(&p));
        try {
          CUNP_CUSOLVER_CHECK(
              cusolverDnXgesvdjSetTolerance(p, double(std::numeric_limits<R>::epsilon())));
          CUNP_CUSOLVER_CHECK(cusolverDnXgesvdjSetMaxSweeps(p, jacobi_max_sweeps));
          CUNP_CUSOLVER_CHECK(cusolverDnXgesvdjSetSortEig(p, 1));
        } catch (...) {
          cusolverDnDestroyGesvdjInfo(p);
          throw;
        }
      }
    }
    ~holder() {
      if constexpr (std::is_same_v<Info, syevjInfo_t>)
        cusolverDnDestroySyevjInfo(p);
      else
        cusolverDnDestroyGesvdjInfo(p);
    }
  };
  thread_local holder h;
  return h.p;
}

/// cholesky_run's route for a stack: potrfBatched over the count n x n matrices of the C-ordered
/// a in place, with cholesky_run's fill mode (its reasoning holds as it is: no copy). The
/// pointer array is made on the device from the base and the stride. The triangle not named is
/// cuSOLVER's scratch afterwards; cholesky_run zeroes it. Runs in the caller's device scope.
template <class T>
void cholesky_batched_run(const ndarray<T>& a, index_t n, index_t count, cublasFillMode_t fill,
                          const ndarray<int>& info) {
  const int dev = a.device().index();
  const ndarray<std::uintptr_t> pointers({count}, a.device());
  auto** ptrs = reinterpret_cast<T**>(pointers.data());
  pointers_kernel<T><<<static_cast<unsigned>((count + 255) / 256), 256, 0, current_stream(dev)>>>(
      ptrs, a.data(), n * n, count);
  CUNP_CUDA_CHECK_LAUNCH("pointers_kernel");
  const cusolverDnHandle_t h = cusolver_handle(dev);
  const index_t step = batched_call_count(count, n * n);
  for (index_t z = 0; z < count; z += step)
    CUNP_CUSOLVER_CHECK(batched_solver<T>::potrf(h, fill, static_cast<int>(n), ptrs + z,
                                                 static_cast<int>(n), info.data() + z,
                                                 static_cast<int>(std::min(step, count - z))));
}

/// Zeroes the imaginary part of the diagonal of each of the n x n matrices of a (R pairs): NumPy
/// ignores it (LAPACK's heevd takes it as zero), and heevjBatched's documentation does not say
/// that it does. A template only so that the TUs that never launch it do not compile it.
template <class R> CUNP_KERNEL void real_diagonal_kernel(R* a, index_t n, index_t total) {
  const index_t e = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < total) a[2 * (e * n + e % n) + 1] = R(0);  // e = z n + i: element (z, i, i)
}

/// eigh_run's route for a stack of matrices of order n <= 32: syevjBatched (heevjBatched) over
/// the C-ordered a in place, with eigh_run's fill mode and its column-major view (conj(A), whose
/// vectors come out as a's rows, as Xsyevd's do), w (count, n) ascending. A complex a's diagonal
/// is made real first. Runs in the caller's device scope.
template <class T, class R>
void eigh_batched_run(const ndarray<T>& a, const ndarray<R>& w, index_t n, index_t count,
                      cusolverEigMode_t job, cublasFillMode_t fill, const ndarray<int>& info) {
  const int dev = a.device().index();
  if constexpr (is_complex_v<T>) {
    const index_t total = count * n;
    real_diagonal_kernel<R>
        <<<static_cast<unsigned>((total + 255) / 256), 256, 0, current_stream(dev)>>>(
            reinterpret_cast<R*>(a.data()), n, total);
    CUNP_CUDA_CHECK_LAUNCH("real_diagonal_kernel");
  }
  const cusolverDnHandle_t h = cusolver_handle(dev);
  const syevjInfo_t settings = jacobi_settings<syevjInfo_t, R>();
  const int ni = static_cast<int>(n);
  const index_t step = batched_call_count(count, n * n);
  int lwork = 0;
  CUNP_CUSOLVER_CHECK(batched_solver<T>::eigh_size(h, job, fill, ni, a.data(), ni, w.data(), &lwork,
                                                   settings, static_cast<int>(step)));
  const ndarray<T> work({std::max(lwork, 1)}, a.device());
  for (index_t z = 0; z < count; z += step)
    CUNP_CUSOLVER_CHECK(batched_solver<T>::eigh(
        h, job, fill, ni, a.data() + z * n * n, ni, w.data() + z * n, work.data(), lwork,
        info.data() + z, settings, static_cast<int>(std::min(step, count - z))));
}

/// svd_run's route for a stack of matrices with m, n <= 32: gesvdjBatched factorises the
/// C-ordered buffer as it is, the column-major n x m matrix B = A^T, of any shape (Jacobi's
/// method needs no more rows than columns). Of B = U_b S V_b^H, A = conj(V_b) S U_b^T: U_b's
/// buffer read in C order is U_b^T, whose first rows are Vh's (so a full Vh is written in
/// place), and V_b's is V_b^T, whose conjugate transpose is U (its first columns when reduced).
/// cuSOLVER writes the whole U_b (n x n) and V_b (m x m), and wants both buffers under
/// compute_uv = false too (jobz NOVECTOR). S comes out descending. a is overwritten.
template <class T, class R>
void svd_batched_run(const ndarray<T>& a, const ndarray<R>& s, const ndarray<T>& u,
                     const ndarray<T>& vh, bool compute_uv) {
  const index_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const index_t count = matrix_count(a, m, n);
  const auto square = [&](index_t side) {  // a's batch shape, then side x side
    shape_t sh = a.shape();
    sh[sh.size() - 2] = sh[sh.size() - 1] = side;
    return sh;
  };
  const bool vh_in_place = compute_uv && vh.shape()[vh.ndim() - 2] == n;
  const ndarray<T> ub = vh_in_place ? vh : ndarray<T>(square(n), a.device());
  const ndarray<T> vb(square(m), a.device());
  const int dev = a.device().index();
  {
    device_scope scope(dev);
    const cusolverDnHandle_t h = cusolver_handle(dev);
    const gesvdjInfo_t settings = jacobi_settings<gesvdjInfo_t, R>();
    const cusolverEigMode_t job =
        compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const int rows = static_cast<int>(n), cols = static_cast<int>(m);
    const index_t step = batched_call_count(count, std::max(m, n) * std::max(m, n));
    int lwork = 0;
    CUNP_CUSOLVER_CHECK(batched_solver<T>::svd_size(h, job, rows, cols, a.data(), rows, s.data(),
                                                    ub.data(), rows, vb.data(), cols, &lwork,
                                                    settings, static_cast<int>(step)));
    const ndarray<T> work({std::max(lwork, 1)}, a.device());
    const ndarray<int> info({count}, a.device());
    for (index_t z = 0; z < count; z += step)
      CUNP_CUSOLVER_CHECK(batched_solver<T>::svd(
          h, job, rows, cols, a.data() + z * m * n, rows, s.data() + z * k, ub.data() + z * n * n,
          rows, vb.data() + z * m * m, cols, work.data(), lwork, info.data() + z, settings,
          static_cast<int>(std::min(step, count - z))));
    report_linalg_failure(info, count, index_op::svd_not_converged);
  }
  if (!compute_uv) return;
  if (!vh_in_place) copyto<cuda_backend>(vh, view(ub, ellipsis, slice(0, k), all));
  const auto v = view(swapaxes(vb, -1, -2), ellipsis, all, slice(0, u.shape().back()));
  if constexpr (is_complex_v<T>)
    copyto<cuda_backend>(u, conj(v));
  else
    copyto<cuda_backend>(u, v);
}

}  // namespace cunp::detail::cuda
