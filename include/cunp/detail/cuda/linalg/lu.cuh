// cunp/detail/cuda/linalg/lu.cuh: the CUDA backend of det, slogdet, solve and inv. Each matrix
// is factorised in a C-ordered copy, which column-major cuSOLVER and cuBLAS read as its
// transpose (det(A^T) = det(A); A x = b is A^T's transposed solve, CUBLAS_OP_T): stacks of small
// matrices by cuBLAS's batched getrf/getrs (one call for the stack), larger ones by cuSOLVER's
// 64-bit cusolverDnXgetrf/Xgetrs, one call per matrix. A singular matrix (getrf's info > 0)
// reaches the host with no wait (solver_status.cuh).
#pragma once
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cunp/detail/cuda/core/cublas.cuh"
#include "cunp/detail/cuda/core/cusolver.cuh"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/linalg/matmul.cuh"
#include "cunp/detail/cuda/linalg/solver_status.cuh"
#include "cunp/detail/cuda/reduce/reduce.cuh"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// Matrices up to this order go through cuBLAS's batched LU when there are several: one launch
/// for the stack, where cuSOLVER's per-matrix calls would each launch several kernels.
inline constexpr index_t batched_lu_max = 64;

/// Whether a stack takes the batched route.
inline bool takes_batched_lu(index_t n, index_t count) { return n <= batched_lu_max && count > 1; }

/// cuBLAS's batched getrf, getrs and getri of T (cuBLAS's own complex types in their signatures).
template <class T> struct batched_lu;
#define CUNP_BATCHED_LU(T, B, P)                                                                 \
  template <> struct batched_lu<T> {                                                           \
    static cublasStatus_t getrf(cublasHandle_t h, int n, T* const a[], int lda, int* piv,      \
                                int* info, int count) {                                        \
      return cublas##P##getrfBatched(h, n, reinterpret_cast<B* const*>(a), lda, piv, info,     \
                                     count);                                                   \
    }                                                                                          \
    static cublasStatus_t getrs(cublasHandle_t h, cublasOperation_t op, int n, int k,          \
                                T* const a[], int lda, const int* piv, T* const b[], int ldb,  \
                                int* info, int count) {                                        \
      return cublas##P##getrsBatched(h, op, n, k, reinterpret_cast<const B* const*>(a), lda,   \
                                     piv, reinterpret_cast<B* const*>(b), ldb, info, count);   \
    }                                                                                          \
    static cublasStatus_t getri(cublasHandle_t h, int n, T* const a[], int lda, const int* piv, \
                                T* const c[], int ldc, int* info, int count) {                 \
      return cublas##P##getriBatched(h, n, reinterpret_cast<const B* const*>(a), lda, piv,      \
                                     reinterpret_cast<B* const*>(c), ldc, info, count);        \
    }                                                                                          \
  };
CUNP_BATCHED_LU(float, float, S)
CUNP_BATCHED_LU(double, double, D)
CUNP_BATCHED_LU(std::complex<float>, cuComplex, C)
CUNP_BATCHED_LU(std::complex<double>, cuDoubleComplex, Z)
#undef CUNP_BATCHED_LU

/// The factors of a C-ordered stack (count, n, n), in place, with their pivots and info (one
/// int per matrix). P is int for the batched route, int64 for cuSOLVER's.
struct lu_factors {
  bool batched = false;
  ndarray<int> piv32, info;
  ndarray<std::int64_t> piv64;
  ndarray<std::uintptr_t> pointers;  ///< the batched route's matrix pointers
};

template <class T> lu_factors lu_factor(const ndarray<T>& lu, index_t count, index_t n) {
  const int dev = lu.device().index();
  device_scope scope(dev);
  const cudaStream_t st = current_stream(dev);
  lu_factors f;
  f.info = ndarray<int>({count}, lu.device());
  f.batched = takes_batched_lu(n, count);
  if (f.batched) {
    f.piv32 = ndarray<int>({count, n}, lu.device());
    f.pointers = ndarray<std::uintptr_t>({count}, lu.device());
    auto** ptrs = reinterpret_cast<T**>(f.pointers.data());
    pointers_kernel<T><<<static_cast<unsigned>((count + 255) / 256), 256, 0, st>>>(
        ptrs, lu.data(), n * n, count);
    CUNP_CUDA_CHECK_LAUNCH("pointers_kernel");
    CUNP_CUBLAS_CHECK(batched_lu<T>::getrf(cublas_handle(dev), static_cast<int>(n), ptrs,
                                           static_cast<int>(n), f.piv32.data(), f.info.data(),
                                           static_cast<int>(count)));
    return f;
  }
  f.piv64 = ndarray<std::int64_t>({count, n}, lu.device());
  const cusolverDnHandle_t h = cusolver_handle(dev);
  const cudaDataType_t type = blas_types<T>::data;
  std::size_t device_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnXgetrf_bufferSize(h, cusolver_params(), n, n, type, lu.data(), n,
                                                  type, &device_bytes, &host_bytes));
  const workspace work(dev, device_bytes);
  std::vector<char> host(host_bytes);
  for (index_t z = 0; z < count; ++z)
    CUNP_CUSOLVER_CHECK(cusolverDnXgetrf(h, cusolver_params(), n, n, type, lu.data() + z * n * n,
                                         n, f.piv64.data() + z * n, type, work.data(),
                                         device_bytes, host.data(), host_bytes,
                                         f.info.data() + z));
  return f;
}

template <class R> __device__ R modulus(R x) { return real_fabs(x); }
template <class R> __device__ R modulus(cplx<R> z) { return c_abs(z); }

/// u's factor of the sign: u / |u|, negated where row j was swapped (pivots count from 1).
template <class M, class R, class P>
__device__ M sign_factor(M u, R m, P piv, index_t j) {
  const M f = u / M(m);
  return piv != j + 1 ? -f : f;
}

/// sign and log|det| of each factorised matrix, a thread a matrix: the batched route's stacks of
/// small matrices (NumPy's slogdet; an exact zero pivot gives sign 0 and -inf).
template <class T, class R, class P>
CUNP_KERNEL void slogdet_kernel(const T* lu, const P* piv, const int* info, index_t n,
                                index_t count, T* sign, R* logabs) {
  const index_t z = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (z >= count) return;
  using M = math_t<T>;  // T, or cplx for std::complex (the same layout)
  M* s_out = reinterpret_cast<M*>(sign);
  if (info[z] > 0) {
    s_out[z] = M(0);
    logabs[z] = -std::numeric_limits<R>::infinity();
    return;
  }
  M s(1);
  R l = 0;
  const M* a = reinterpret_cast<const M*>(lu) + z * n * n;
  for (index_t j = 0; j < n; ++j) {
    const M u = a[j * n + j];
    const R m = modulus(u);
    s = s * sign_factor(u, m, piv[z * n + j], j);
    l += real_log(m);
  }
  s_out[z] = s;
  logabs[z] = l;
}

/// The running sign and log|det| of a block's share of a diagonal, combined over the block.
template <class M, class R> struct slogdet_acc {
  M s;
  R l;
};
template <class M, class R> struct slogdet_reducer {
  using acc = slogdet_acc<M, R>;
  __device__ acc identity() const { return {M(1), R(0)}; }
  __device__ acc combine(const acc& a, const acc& b) const { return {a.s * b.s, a.l + b.l}; }
};
inline constexpr int slogdet_threads = 256;

/// The same, a block a matrix: cuSOLVER's route, whose matrices are large. One thread's walk
/// down a diagonal of n pivots, each a separate cache line, costs n memory latencies (2 ms at
/// n = 4096); the block's threads take every 256th pivot and combine their products.
template <class T, class R, class P>
CUNP_KERNEL void slogdet_block_kernel(const T* lu, const P* piv, const int* info, index_t n,
                                      T* sign, R* logabs) {
  using M = math_t<T>;
  using red = slogdet_reducer<M, R>;
  __shared__ typename red::acc partial[slogdet_threads / 32];
  const index_t z = blockIdx.x;
  M* s_out = reinterpret_cast<M*>(sign);
  if (info[z] > 0) {  // (the same for the whole block)
    if (threadIdx.x == 0) {
      s_out[z] = M(0);
      logabs[z] = -std::numeric_limits<R>::infinity();
    }
    return;
  }
  const M* a = reinterpret_cast<const M*>(lu) + z * n * n;
  typename red::acc v = red{}.identity();
#pragma unroll 4
  for (index_t j = threadIdx.x; j < n; j += slogdet_threads) {
    const M u = a[j * n + j];
    const R m = modulus(u);
    v.s = v.s * sign_factor(u, m, piv[z * n + j], j);
    v.l += real_log(m);
  }
  v = block_combine<slogdet_threads>(red{}, v, partial);
  if (threadIdx.x == 0) {
    s_out[z] = v.s;
    logabs[z] = v.l;
  }
}

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// sign[z] and logabs[z] (C-ordered, of the batch's shape) of each n x n matrix z of a.
template <class T, class R>
void slogdet_run(cuda_backend, const ndarray<T>& sign, const ndarray<R>& logabs,
                 const ndarray<T>& a) {
  const index_t n = a.shape().back(), count = sign.size();
  const ndarray<T> lu = a.copy();
  const auto f = cuda::lu_factor(lu, count, n);
  const int dev = a.device().index();
  cuda::device_scope scope(dev);
  const cudaStream_t st = cuda::current_stream(dev);
  if (f.batched) {
    const auto grid = static_cast<unsigned>((count + 127) / 128);
    cuda::slogdet_kernel<<<grid, 128, 0, st>>>(lu.data(), f.piv32.data(), f.info.data(), n, count,
                                               sign.data(), logabs.data());
    CUNP_CUDA_CHECK_LAUNCH("slogdet_kernel");
  } else {
    cuda::slogdet_block_kernel<<<static_cast<unsigned>(count), cuda::slogdet_threads, 0, st>>>(
        lu.data(), f.piv64.data(), f.info.data(), n, sign.data(), logabs.data());
    CUNP_CUDA_CHECK_LAUNCH("slogdet_block_kernel");
  }
}

/// x[z] = a[z]^-1 b[z] for a (batch, n, n) and b (batch, n, k) broadcast views, x (batch, n, k)
/// C-ordered. The right-hand sides are solved in a copy laid out column-major (b's transpose,
/// C-ordered); a matrix of a that several right-hand sides share is factorised once per side.
template <class T>
void solve_run(cuda_backend, const ndarray<T>& x, const ndarray<T>& a, const ndarray<T>& b) {
  const int nd = x.ndim();
  const index_t n = x.shape()[nd - 2], k = x.shape()[nd - 1], count = x.size() / (n * k);
  const ndarray<T> lu = a.copy();
  const ndarray<T> rhs = swapaxes(b, -1, -2).copy();  // (batch, k, n): b column-major
  const auto f = cuda::lu_factor(lu, count, n);
  const int dev = x.device().index();
  cuda::device_scope scope(dev);
  if (f.batched) {
    const ndarray<std::uintptr_t> rhs_pointers({count}, x.device());
    auto** bp = reinterpret_cast<T**>(rhs_pointers.data());
    cuda::pointers_kernel<T><<<static_cast<unsigned>((count + 255) / 256), 256, 0,
                               cuda::current_stream(dev)>>>(bp, rhs.data(), n * k, count);
    CUNP_CUDA_CHECK_LAUNCH("pointers_kernel");
    int status = 0;  // getrsBatched's argument check, on the host
    CUNP_CUBLAS_CHECK(cuda::batched_lu<T>::getrs(
        cuda::cublas_handle(dev), CUBLAS_OP_T, static_cast<int>(n), static_cast<int>(k),
        reinterpret_cast<T**>(f.pointers.data()), static_cast<int>(n), f.piv32.data(), bp,
        static_cast<int>(n), &status, static_cast<int>(count)));
  } else {
    const cusolverDnHandle_t h = cuda::cusolver_handle(dev);
    const cudaDataType_t type = cuda::blas_types<T>::data;
    const ndarray<int> status({count}, x.device());  // getrs's argument check (getrf's info kept)
    for (index_t z = 0; z < count; ++z)
      CUNP_CUSOLVER_CHECK(cusolverDnXgetrs(h, cuda::cusolver_params(), CUBLAS_OP_T, n, k, type,
                                           lu.data() + z * n * n, n, f.piv64.data() + z * n, type,
                                           rhs.data() + z * n * k, n, status.data() + z));
  }
  copyto<cuda_backend>(x, swapaxes(rhs, -1, -2));
  cuda::report_linalg_failure(f.info, count, index_op::singular_matrix);
}

/// x[z] = a[z]^-1 for a (batch, n, n) view, x C-ordered. A stack of small matrices takes cuBLAS's
/// getriBatched after the batched LU (CuPy's route): written column-major, the inverse of the
/// A^T that the factorised C-ordered copy is reads as A^-1 in C order, so neither the identity
/// nor the result is copied, as the solve against the identity that other stacks take does.
template <class T> void inv_run(cuda_backend be, const ndarray<T>& x, const ndarray<T>& a) {
  const index_t n = x.shape().back(), count = x.size() / (n * n);
  if (!cuda::takes_batched_lu(n, count))
    return inv_run<cuda_backend, T>(be, x, a);  // linalg.hpp's: the solve against the identity
  const ndarray<T> lu = a.copy();
  const auto f = cuda::lu_factor(lu, count, n);
  const int dev = x.device().index();
  cuda::device_scope scope(dev);
  const ndarray<std::uintptr_t> out_pointers({count}, x.device());
  auto** xp = reinterpret_cast<T**>(out_pointers.data());
  cuda::pointers_kernel<T><<<static_cast<unsigned>((count + 255) / 256), 256, 0,
                             cuda::current_stream(dev)>>>(xp, x.data(), n * n, count);
  CUNP_CUDA_CHECK_LAUNCH("pointers_kernel");
  const ndarray<int> status({count}, x.device());  // getri's (getrf's info kept)
  CUNP_CUBLAS_CHECK(cuda::batched_lu<T>::getri(
      cuda::cublas_handle(dev), static_cast<int>(n), reinterpret_cast<T**>(f.pointers.data()),
      static_cast<int>(n), f.piv32.data(), xp, static_cast<int>(n), status.data(),
      static_cast<int>(count)));
  cuda::report_linalg_failure(f.info, count, index_op::singular_matrix);
}

}  // namespace cunp::detail
