// cunp/detail/cuda/linalg/decompositions.cuh: the CUDA backend of cholesky, qr, eigh, svd and eig
// through cuSOLVER's 64-bit API (Xpotrf, Xgeqrf, Xsyevd, Xgesvd, Xgeev; orgqr/ungqr, which has no
// 64-bit form), one call per matrix of the batch; stacks of small matrices take cuSOLVER's batched
// routines instead (batched_decompositions.cuh). cuSOLVER is column-major: a C-ordered matrix is
// its transpose there, which each routine below either uses as it is (the transpose of a Hermitian
// matrix is its conjugate; the SVD of A^T holds A's factors swapped) or undoes with one copy.
// A failure (info > 0) surfaces with no wait (solver_status.cuh).
#pragma once
#include <cusolverDn.h>

#include <climits>
#include <complex>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/linalg/decompositions.hpp"
#include "cunp/detail/cuda/core/cusolver.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/linalg/batched_decompositions.cuh"
#include "cunp/detail/cuda/linalg/matmul.cuh"
#include "cunp/detail/cuda/linalg/solver_status.cuh"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::detail::cuda {

/// orgqr/ungqr of T (the legacy 32-bit API: cuSOLVER has no 64-bit form).
template <class T> struct orgqr;
#define CUNP_ORGQR(T, B, NAME)                                                                    \
  template <> struct orgqr<T> {                                                                   \
    static cusolverStatus_t size(cusolverDnHandle_t h, int m, int n, int k, const T* a, int lda,  \
                                 const T* tau, int* lwork) {                                      \
      return cusolverDn##NAME##_bufferSize(h, m, n, k, reinterpret_cast<const B*>(a), lda,        \
                                           reinterpret_cast<const B*>(tau), lwork);               \
    }                                                                                             \
    static cusolverStatus_t run(cusolverDnHandle_t h, int m, int n, int k, T* a, int lda,         \
                                const T* tau, T* work, int lwork, int* info) {                    \
      return cusolverDn##NAME(h, m, n, k, reinterpret_cast<B*>(a), lda,                           \
                              reinterpret_cast<const B*>(tau), reinterpret_cast<B*>(work), lwork, \
                              info);                                                              \
    }                                                                                             \
  };
CUNP_ORGQR(float, float, Sorgqr)
CUNP_ORGQR(double, double, Dorgqr)
CUNP_ORGQR(std::complex<float>, cuComplex, Cungqr)
CUNP_ORGQR(std::complex<double>, cuDoubleComplex, Zungqr)
#undef CUNP_ORGQR

/// One device buffer and one host buffer of the sizes a cuSOLVER _bufferSize call reported.
struct solver_work {
  solver_work(int dev, std::size_t device_bytes, std::size_t host_bytes)
      : device(dev, device_bytes), device_bytes(device_bytes), host(host_bytes) {}
  workspace device;
  std::size_t device_bytes;
  std::vector<char> host;
};

inline int int_extent(index_t v, const char* what) {
  if (v > INT_MAX)
    throw value_error(std::string(what) + ": a matrix side of " + std::to_string(v) +
                      " exceeds cuSOLVER's 32-bit orgqr");
  return static_cast<int>(v);
}

/// v (count, n, n) C-ordered, column j the eigenvector of w[j], from geev's real column-major VR:
/// a complex pair's vectors are VR's columns j and j + 1 as real and imaginary parts (LAPACK's
/// packing, the positive imaginary part first).
template <class R>
CUNP_KERNEL void unpack_real_vectors_kernel(const R* vr, const cplx<R>* w, cplx<R>* v, index_t n,
                                            index_t total) {
  const index_t e = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= total) return;
  const index_t z = e / (n * n), i = e / n % n, j = e % n;
  const R* col = vr + z * n * n;
  const R im = w[z * n + j].im;
  if (im > 0)
    v[e] = cplx<R>(col[j * n + i], col[(j + 1) * n + i]);
  else if (im < 0)
    v[e] = cplx<R>(col[(j - 1) * n + i], -col[j * n + i]);
  else
    v[e] = cplx<R>(col[j * n + i], R(0));
}

/// One column-major rows x cols matrix (rows >= cols) at a time through Xgesvdp: the polar
/// decomposition, then Xsyevd of its Hermitian factor, 4-5x faster than Xgesvd (QR iterations)
/// at 1024-4096 (RESULTS.md). Where a singular value is near zero Xgesvdp perturbs the matrix, so
/// that its U stays unitary, and returns the perturbation's size to the host (each call waits
/// for the device): its values are then shifted by it, and run() returns false, with the matrix
/// restored, for Xgesvd to take it. It writes V where Xgesvd writes VT = V^H: run() turns it into
/// VT's layout. U (econ: rows x cols) and VT are column-major, as Xgesvd's.
template <class T, class R> class svd_polar {
 public:
  svd_polar(index_t rows, index_t cols, bool vectors, cunp::device dev)
      : rows_(rows), cols_(cols), dev_(dev.index()),
        job_(vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR),
        saved_({rows * cols}, dev), v_({cols, cols}, dev) {
    // Without vectors U and V still get buffers of their sizes: cuSOLVER's documentation does
    // not say that Xgesvdp leaves them alone then (its polar factor is U's size).
    if (!vectors) u_ = ndarray<T>({rows * cols}, dev);
    std::size_t dbytes = 0, hbytes = 0;
    CUNP_CUSOLVER_CHECK(cusolverDnXgesvdp_bufferSize(
        cusolver_handle(dev_), cusolver_params(), job_, 1, rows, cols, type, saved_.data(), rows,
        rtype, saved_.data(), type, saved_.data(), rows, type, v_.data(), cols, type, &dbytes,
        &hbytes));
    work_.emplace(dev_, dbytes, hbytes);
  }

  /// The singular values s, and with vectors U into u and VT into vt (a C-ordered (cols, cols)
  /// view), of the matrix at a (overwritten); false, a restored, where Xgesvdp perturbed it.
  bool run(T* a, R* s, T* u, const ndarray<T>& vt, int* info) {
    const cudaStream_t st = current_stream(dev_);
    const std::size_t bytes = sizeof(T) * static_cast<std::size_t>(rows_ * cols_);
    CUNP_CUDA_CHECK(cudaMemcpyAsync(saved_.data(), a, bytes, cudaMemcpyDeviceToDevice, st));
    const bool vectors = job_ == CUSOLVER_EIG_MODE_VECTOR;
    double perturbation = 0;
    CUNP_CUSOLVER_CHECK(cusolverDnXgesvdp(
        cusolver_handle(dev_), cusolver_params(), job_, 1, rows_, cols_, type, a, rows_, rtype, s,
        type, vectors ? u : u_.data(), rows_, type, v_.data(), cols_, type, work_->device.data(),
        work_->device_bytes, work_->host.data(), work_->host.size(), info, &perturbation));
    if (!(perturbation == 0)) {  // NaN too: Xgesvd's result, as before this route
      CUNP_CUDA_CHECK(cudaMemcpyAsync(a, saved_.data(), bytes, cudaMemcpyDeviceToDevice, st));
      return false;
    }
    if (vectors) {  // VT column-major, read C-ordered, is conj(V); V read so is V^T
      if constexpr (is_complex_v<T>)
        copyto<cuda_backend>(vt, conj(swapaxes(v_, 0, 1)));
      else
        copyto<cuda_backend>(vt, swapaxes(v_, 0, 1));
    }
    return true;
  }

 private:
  static constexpr cudaDataType_t type = blas_types<T>::data, rtype = blas_types<R>::data;
  index_t rows_, cols_;
  int dev_;
  cusolverEigMode_t job_;
  ndarray<T> saved_, v_, u_;
  std::optional<solver_work> work_;
};

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// The Cholesky factor of each matrix of the C-ordered (batch, n, n) a, in place. cuSOLVER reads
/// a C-ordered matrix as its transpose: its lower factor of that view, conj(A) = L' L'^H, is
/// NumPy's upper factor U = L'^T in C order, with no copy. NumPy's lower factor L goes through a
/// transposed copy (column-major A) factorised with the lower fill too, and back: Xpotrf with
/// the upper fill, which needs no copy, ran 2.2-2.6x slower than the lower one at 1024 and 4096
/// (RESULTS.md). The other triangle is zeroed after. A stack of small matrices takes
/// potrfBatched (batched_decompositions.cuh) on a's view, with the upper fill for L.
template <class T> void cholesky_run(cuda_backend, const ndarray<T>& a, bool upper) {
  const index_t n = a.shape().back(), count = matrix_count(a, n, n);
  const int dev = a.device().index();
  cuda::device_scope scope(dev);
  const ndarray<int> info({count}, a.device());
  if (cuda::batched_cholesky(n, count)) {
    const cublasFillMode_t fill = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    cuda::cholesky_batched_run(a, n, count, fill, info);
  } else {
    // f: the matrices cuSOLVER factorises, column-major A^T (a itself) for U, A for L.
    const ndarray<T> f = upper ? a : swapaxes(a, -1, -2).copy();
    const cusolverDnHandle_t h = cuda::cusolver_handle(dev);
    const cudaDataType_t type = cuda::blas_types<T>::data;
    constexpr cublasFillMode_t fill = CUBLAS_FILL_MODE_LOWER;
    std::size_t dbytes = 0, hbytes = 0;
    CUNP_CUSOLVER_CHECK(cusolverDnXpotrf_bufferSize(h, cuda::cusolver_params(), fill, n, type,
                                                    f.data(), n, type, &dbytes, &hbytes));
    cuda::solver_work w(dev, dbytes, hbytes);
    for (index_t z = 0; z < count; ++z)
      CUNP_CUSOLVER_CHECK(cusolverDnXpotrf(h, cuda::cusolver_params(), fill, n, type,
                                           f.data() + z * n * n, n, type, w.device.data(), dbytes,
                                           w.host.data(), hbytes, info.data() + z));
    if (!upper) copyto<cuda_backend>(a, swapaxes(f, -1, -2));
  }
  tri_zero(a, 0, !upper);  // the triangle cuSOLVER did not write (or used as scratch)
  cuda::report_linalg_failure(info, count, index_op::not_positive_definite);
}

/// geqrf of each m x n matrix of x (batch, m, n): h (batch, n, m) C-ordered is the column-major
/// matrix cuSOLVER factorises in place, NumPy's mode='raw' array; tau (batch, min(m, n)).
template <class T>
void qr_factor_run(cuda_backend, const ndarray<T>& x, const ndarray<T>& h, const ndarray<T>& tau) {
  const index_t m = x.shape()[x.ndim() - 2], n = x.shape().back(), k = std::min(m, n);
  const index_t count = matrix_count(h, n, m);
  copyto<cuda_backend>(h, swapaxes(x, -1, -2));
  const int dev = x.device().index();
  cuda::device_scope scope(dev);
  const cusolverDnHandle_t hd = cuda::cusolver_handle(dev);
  const cudaDataType_t type = cuda::blas_types<T>::data;
  std::size_t dbytes = 0, hbytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnXgeqrf_bufferSize(hd, cuda::cusolver_params(), m, n, type, h.data(),
                                                  m, type, tau.data(), type, &dbytes, &hbytes));
  cuda::solver_work w(dev, dbytes, hbytes);
  const ndarray<int> info({count}, x.device());  // geqrf fails only on bad arguments
  for (index_t z = 0; z < count; ++z)
    CUNP_CUSOLVER_CHECK(cusolverDnXgeqrf(
        hd, cuda::cusolver_params(), m, n, type, h.data() + z * m * n, m, type, tau.data() + z * k,
        type, w.device.data(), dbytes, w.host.data(), hbytes, info.data() + z));
}

/// The first cols columns of each Q of qr_factor_run's (h, tau) into q (batch, m, cols)
/// C-ordered: orgqr in a column-major m x cols buffer whose first min(m, n) columns start as
/// the reflectors, then one transposing copy.
template <class T>
void qr_q_run(cuda_backend, const ndarray<T>& h, const ndarray<T>& tau, const ndarray<T>& q) {
  const index_t n = h.shape()[h.ndim() - 2], m = h.shape().back(), cols = q.shape().back();
  const index_t k = std::min(m, n), count = matrix_count(q, m, cols);
  shape_t bs = q.shape();
  std::swap(bs[bs.size() - 1], bs[bs.size() - 2]);
  ndarray<T> buf = zeros<T>(bs, q.device());  // (batch, cols, m): column-major m x cols
  copyto<cuda_backend>(view(buf, ellipsis, slice(0, k), all), view(h, ellipsis, slice(0, k), all));
  const int dev = q.device().index();
  cuda::device_scope scope(dev);
  const cusolverDnHandle_t hd = cuda::cusolver_handle(dev);
  const int mi = cuda::int_extent(m, "qr"), ci = cuda::int_extent(cols, "qr");
  const int ki = static_cast<int>(k);
  int lwork = 0;
  CUNP_CUSOLVER_CHECK(cuda::orgqr<T>::size(hd, mi, ci, ki, buf.data(), mi, tau.data(), &lwork));
  const ndarray<T> work({std::max(lwork, 1)}, q.device());
  const ndarray<int> info({count}, q.device());
  for (index_t z = 0; z < count; ++z)
    CUNP_CUSOLVER_CHECK(cuda::orgqr<T>::run(hd, mi, ci, ki, buf.data() + z * m * cols, mi,
                                            tau.data() + z * k, work.data(), lwork,
                                            info.data() + z));
  copyto<cuda_backend>(q, swapaxes(buf, -1, -2));
}

/// The eigenvalues w (batch, n) of each Hermitian matrix of the C-ordered (batch, n, n) a, one
/// triangle read (upper: UPLO='U', the column-major view's lower one); with vectors, a becomes
/// the eigenvectors as columns. Xsyevd sees conj(A), whose vectors are the conjugates: they come
/// out as rows, so one conjugating transpose makes them A's columns. A stack of matrices up to
/// 32 x 32 takes syevjBatched (batched_decompositions.cuh), which leaves them alike.
template <class T, class R>
void eigh_run(cuda_backend, const ndarray<T>& a, const ndarray<R>& w, bool vectors, bool upper) {
  const index_t n = a.shape().back(), count = matrix_count(a, n, n);
  const int dev = a.device().index();
  {
    cuda::device_scope scope(dev);
    const cusolverDnHandle_t h = cuda::cusolver_handle(dev);
    const cudaDataType_t type = cuda::blas_types<T>::data, rtype = cuda::blas_types<R>::data;
    const cusolverEigMode_t job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const cublasFillMode_t fill = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const ndarray<int> info({count}, a.device());
    if (cuda::batched_jacobi(n, n, count)) {
      cuda::eigh_batched_run(a, w, n, count, job, fill, info);
    } else {
      std::size_t dbytes = 0, hbytes = 0;
      CUNP_CUSOLVER_CHECK(cusolverDnXsyevd_bufferSize(h, cuda::cusolver_params(), job, fill, n,
                                                      type, a.data(), n, rtype, w.data(), type,
                                                      &dbytes, &hbytes));
      cuda::solver_work work(dev, dbytes, hbytes);
      for (index_t z = 0; z < count; ++z)
        CUNP_CUSOLVER_CHECK(cusolverDnXsyevd(h, cuda::cusolver_params(), job, fill, n, type,
                                             a.data() + z * n * n, n, rtype, w.data() + z * n, type,
                                             work.device.data(), dbytes, work.host.data(), hbytes,
                                             info.data() + z));
    }
    cuda::report_linalg_failure(info, count, index_op::eig_not_converged);
  }
  if (!vectors) return;
  const ndarray<T> rows = a.copy();
  if constexpr (is_complex_v<T>)
    copyto<cuda_backend>(a, conj(swapaxes(rows, -1, -2)));
  else
    copyto<cuda_backend>(a, swapaxes(rows, -1, -2));
}

/// The singular values s (batch, k = min(m, n)) of each matrix of the C-ordered (batch, m, n) a
/// (overwritten), and with compute_uv u, vh (C-ordered; (batch, m, m), (batch, n, n) with
/// full_matrices, else (batch, m, k), (batch, k, n)). Xgesvd wants at least as many rows as
/// columns. A wide matrix's C-ordered buffer is that already (A^T, n x m): of A^T = conj(V) S U^T
/// its left factor conj(V) read in C order is Vh and its VT = U^T is U, so cuSOLVER writes
/// straight into vh and u. A tall one is factorised as A, in a transposed copy, and its factors
/// transposed back. A stack of matrices up to 32 x 32 takes gesvdjBatched
/// (batched_decompositions.cuh). Larger float64 and complex128 ones take Xgesvdp (svd_polar),
/// which has no full U of a tall matrix, and Xgesvd where Xgesvdp declines one; float32 and
/// complex64 take Xgesvd: Xgesvdp in single precision perturbed random matrices of order 1024 and
/// more by about 0.7 n, its values then off by 19 times the largest (RESULTS.md), so every one
/// would be factorised twice.
template <class T, class R>
void svd_run(cuda_backend, const ndarray<T>& a, const ndarray<R>& s, const ndarray<T>& u,
             const ndarray<T>& vh, bool full_matrices, bool compute_uv) {
  const index_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const index_t count = matrix_count(a, m, n);
  if (cuda::batched_jacobi(m, n, count)) return cuda::svd_batched_run(a, s, u, vh, compute_uv);
  const bool wide = m < n;
  const index_t rows = wide ? n : m, cols = wide ? m : n;  // the column-major problem
  const ndarray<T> b = wide ? a : swapaxes(a, -1, -2).copy();
  // the problem's U (rows x ucols) and VT (cols x cols), column-major
  const index_t ucols = full_matrices ? rows : cols;
  ndarray<T> ub, vb;
  if (compute_uv) {
    if (wide) {
      ub = vh;
      vb = u;
    } else {
      shape_t us = u.shape(), vs = vh.shape();
      std::swap(us[us.size() - 1], us[us.size() - 2]);
      ub = ndarray<T>(us, a.device());
      vb = ndarray<T>(vs, a.device());
    }
  }
  const signed char job = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  const int dev = a.device().index();
  {
    cuda::device_scope scope(dev);
    const cusolverDnHandle_t h = cuda::cusolver_handle(dev);
    const cudaDataType_t type = cuda::blas_types<T>::data, rtype = cuda::blas_types<R>::data;
    T* up = compute_uv ? ub.data() : nullptr;
    T* vp = compute_uv ? vb.data() : nullptr;
    const index_t ldu = rows, ldv = cols;
    const ndarray<int> info({count}, a.device());
    std::optional<cuda::solver_work> work;  // Xgesvd's, made at its first matrix
    std::size_t dbytes = 0, hbytes = 0;
    const auto gesvd = [&](index_t z) {
      if (!work) {
        CUNP_CUSOLVER_CHECK(cusolverDnXgesvd_bufferSize(
            h, cuda::cusolver_params(), job, job, rows, cols, type, b.data(), rows, rtype,
            s.data(), type, up, ldu, type, vp, ldv, type, &dbytes, &hbytes));
        work.emplace(dev, dbytes, hbytes);
      }
      CUNP_CUSOLVER_CHECK(cusolverDnXgesvd(
          h, cuda::cusolver_params(), job, job, rows, cols, type, b.data() + z * m * n, rows, rtype,
          s.data() + z * k, type, compute_uv ? up + z * rows * ucols : nullptr, ldu, type,
          compute_uv ? vp + z * cols * cols : nullptr, ldv, type, work->device.data(), dbytes,
          work->host.data(), hbytes, info.data() + z));
    };
    if (std::is_same_v<R, double> && synchronize_allowed() && ucols == cols) {
      cuda::svd_polar<T, R> polar(rows, cols, compute_uv, a.device());
      const ndarray<T> vts = compute_uv ? vb.reshape({count, cols, cols}) : ndarray<T>();
      for (index_t z = 0; z < count; ++z)
        if (!polar.run(b.data() + z * m * n, s.data() + z * k,
                       compute_uv ? up + z * rows * ucols : nullptr,
                       compute_uv ? cunp::view(vts, z) : ndarray<T>(), info.data() + z))
          gesvd(z);
    } else {
      for (index_t z = 0; z < count; ++z) gesvd(z);
    }
    cuda::report_linalg_failure(info, count, index_op::svd_not_converged);
  }
  if (!compute_uv || wide) return;
  copyto<cuda_backend>(u, swapaxes(ub, -1, -2));
  copyto<cuda_backend>(vh, swapaxes(vb, -1, -2));
}

/// The eigenvalues w (batch, n) of each general matrix of the C-ordered (batch, n, n) a and with
/// vectors the right eigenvectors v (batch, n, n) as columns: Xgeev on a column-major copy (the
/// C-ordered buffer is A^T, whose right vectors are A's left ones), its column-major vectors
/// transposed back (and a real matrix's unpacked from LAPACK's real pairs).
template <class T, class C>
void eig_run(cuda_backend, const ndarray<T>& a, const ndarray<C>& w, const ndarray<C>& v,
             bool vectors) {
  using R = typename complex_parts<T>::type;
  const index_t n = a.shape().back(), count = matrix_count(a, n, n);
  const ndarray<T> b = swapaxes(a, -1, -2).copy();
  ndarray<T> vr;
  if (vectors) vr = ndarray<T>(a.shape(), a.device());  // column-major VR per matrix
  const int dev = a.device().index();
  {
    cuda::device_scope scope(dev);
    const cusolverDnHandle_t h = cuda::cusolver_handle(dev);
    const cudaDataType_t type = cuda::blas_types<T>::data, ctype = cuda::blas_types<C>::data;
    const cusolverEigMode_t job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    T* vp = vectors ? vr.data() : nullptr;
    std::size_t dbytes = 0, hbytes = 0;
    CUNP_CUSOLVER_CHECK(cusolverDnXgeev_bufferSize(
        h, cuda::cusolver_params(), CUSOLVER_EIG_MODE_NOVECTOR, job, n, type, b.data(), n, ctype,
        w.data(), type, nullptr, n, type, vp, n, type, &dbytes, &hbytes));
    cuda::solver_work work(dev, dbytes, hbytes);
    const ndarray<int> info({count}, a.device());
    for (index_t z = 0; z < count; ++z)
      CUNP_CUSOLVER_CHECK(
          cusolverDnXgeev(h, cuda::cusolver_params(), CUSOLVER_EIG_MODE_NOVECTOR, job, n, type,
                          b.data() + z * n * n, n, ctype, w.data() + z * n, type, nullptr, n, type,
                          vectors ? vp + z * n * n : nullptr, n, type, work.device.data(), dbytes,
                          work.host.data(), hbytes, info.data() + z));
    cuda::report_linalg_failure(info, count, index_op::eig_not_converged);
    if (vectors && !is_complex_v<T>) {
      const index_t total = v.size();
      cuda::unpack_real_vectors_kernel<R>
          <<<static_cast<unsigned>((total + 255) / 256), 256, 0, cuda::current_stream(dev)>>>(
              reinterpret_cast<const R*>(vr.data()), reinterpret_cast<const cplx<R>*>(w.data()),
              reinterpret_cast<cplx<R>*>(v.data()), n, total);
      CUNP_CUDA_CHECK_LAUNCH("unpack_real_vectors_kernel");
    }
  }
  if constexpr (is_complex_v<T>)
    if (vectors) copyto<cuda_backend>(v, swapaxes(vr, -1, -2));
}

}  // namespace cunp::detail
