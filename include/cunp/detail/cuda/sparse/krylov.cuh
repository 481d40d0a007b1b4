// cunp/detail/cuda/sparse/krylov.cuh: the CUDA backend of the iterative solvers' primitives
// (detail/cpu/sparse/krylov.hpp is the reference): a grid-stride kernel per element-wise step,
// a one-thread kernel per scalar step (both run the shared functors of krylov_steps.hpp), a dot
// product in two kernels (block partial sums, then one block adds them in a fixed order into
// the scalar: the same bits on every run), the control words read back (the solve's one kind of
// wait), and cuSPARSE's SpMV with descriptors and buffer made once per solve (the vectors'
// addresses are swapped in by cusparseDnVecSetValues). Every kernel reads its gate first.
#pragma once
#include <cusparse.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

#include "cunp/detail/core/math.hpp"
#include "cunp/detail/cuda/core/cusparse.cuh"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/sparse/descriptors.cuh"
#include "cunp/detail/cuda/sparse/products.cuh"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/detail/sparse/krylov_steps.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace cuda {

template <class F> CUNP_KERNEL void krylov_map_kernel(std::int64_t n, F f) {
  if (*f.gate) return;
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) f(i);
}

template <class F> CUNP_KERNEL void krylov_scalar_kernel(F f) {
  if (!*f.gate) f();
}

/// buf[0] = the sum of the block's buf[threadIdx.x] (block_threads of them, a power of two).
template <class M> __device__ void krylov_block_sum(M* buf) {
  for (int w = block_threads / 2; w > 0; w /= 2) {
    __syncthreads();
    if (threadIdx.x < w) buf[threadIdx.x] = buf[threadIdx.x] + buf[threadIdx.x + w];
  }
}

/// partials[block] = this block's share of sum conj(x_i) y_i.
template <class M>
CUNP_KERNEL void krylov_dot_kernel(std::int64_t n, const std::int64_t* gate, const M* x, const M* y,
                                   M* partials) {
  if (*gate) return;
  __shared__ alignas(16) unsigned char raw[block_threads * sizeof(M)];
  M* buf = reinterpret_cast<M*>(raw);
  M acc(0);
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    acc = acc + krylov::k_conj(x[i]) * y[i];
  buf[threadIdx.x] = acc;
  krylov_block_sum(buf);
  if (threadIdx.x == 0) partials[blockIdx.x] = buf[0];
}

/// *out = the sum of partials[0, count), in one block.
template <class M>
CUNP_KERNEL void krylov_dot_finish_kernel(const std::int64_t* gate, const M* partials, int count,
                                          M* out) {
  if (*gate) return;
  __shared__ alignas(16) unsigned char raw[block_threads * sizeof(M)];
  M* buf = reinterpret_cast<M*>(raw);
  M acc(0);
  for (int k = threadIdx.x; k < count; k += blockDim.x) acc = acc + partials[k];
  buf[threadIdx.x] = acc;
  krylov_block_sum(buf);
  if (threadIdx.x == 0) *out = buf[0];
}

}  // namespace cuda

template <class F> void krylov_map(cuda_backend, cunp::device d, index_t n, const F& f) {
  if (n == 0) return;
  const cuda::on_device on(d);
  cuda::krylov_map_kernel<F>
      <<<cuda::grid_for(on.dev, n), cuda::block_threads, 0, on.stream>>>(n, f);
  cuda::check(cudaGetLastError(), "krylov_map_kernel");
}

template <class F> void krylov_scalar(cuda_backend, cunp::device d, const F& f) {
  const cuda::on_device on(d);
  cuda::krylov_scalar_kernel<F><<<1, 1, 0, on.stream>>>(f);
  cuda::check(cudaGetLastError(), "krylov_scalar_kernel");
}

template <class M>
void krylov_dot(cuda_backend, cunp::device d, index_t n, const std::int64_t* gate, const M* x,
                const M* y, M* out, M* partials) {
  const cuda::on_device on(d);
  // At most as many blocks as partials (detail/sparse/krylov.hpp's krylov_partials).
  const int blocks = static_cast<int>(std::min<std::int64_t>(cuda::grid_for(on.dev, n), 1024));
  cuda::krylov_dot_kernel<M>
      <<<blocks, cuda::block_threads, 0, on.stream>>>(n, gate, x, y, partials);
  cuda::check(cudaGetLastError(), "krylov_dot_kernel");
  cuda::krylov_dot_finish_kernel<M>
      <<<1, cuda::block_threads, 0, on.stream>>>(gate, partials, blocks, out);
  cuda::check(cudaGetLastError(), "krylov_dot_finish_kernel");
}

/// The control words, once the work queued before is done (a wait: allow_synchronize(false)
/// refuses it).
inline std::array<std::int64_t, krylov::ctl_words> krylov_read(cuda_backend,
                                                               const ndarray<std::int64_t>& c) {
  std::array<std::int64_t, krylov::ctl_words> out{};
  const cuda::on_device on(c.device());
  cuda::read_back(on, out.data(), c.data(), sizeof(out), "an iterative solve's convergence check");
  return out;
}

/// The solve's y = A x on cuSPARSE's SpMV: A's descriptor, two vector descriptors and the
/// buffer made once; run() points the vectors at its arrays. SpMV does not read the gate: a
/// product queued past the solve's end runs, into a vector nothing reads after.
template <class T, class I> class krylov_spmv_cuda {
 public:
  krylov_spmv_cuda(index_t n, cs_arrays<T, I> a, const ndarray<T>& x, const ndarray<T>& y)
      : n_(n),
        a_(std::move(a)),
        dev_(y.device().index()),
        x_(y),
        y_(y),
        alg_(cuda::spmv_algorithm(false)) {
    if (a_.data.size() == 0) return;  // no descriptor: cuSPARSE takes no empty matrix
    descr_.emplace(n, n, a_);
    work_.emplace(dev_, buffer_bytes(x, y));
  }
  void run(const std::int64_t*, const ndarray<T>& x, const ndarray<T>& y) const {
    if (!descr_) {  // no terms
      y.fill(T(0));
      return;
    }
    const cuda::on_device on(y.device());
    CUNP_CUSPARSE_CHECK(cusparseDnVecSetValues(x_, const_cast<T*>(x.data())));
    CUNP_CUSPARSE_CHECK(cusparseDnVecSetValues(y_, y.data()));
    const T alpha(1), beta(0);
    CUNP_CUSPARSE_CHECK(cusparseSpMV(cuda::cusparse_handle(on.dev),
                                     CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, *descr_, x_, &beta,
                                     y_, cuda::sparse_data_type<T>(), alg_, work_->data()));
  }

 private:
  std::size_t buffer_bytes(const ndarray<T>& x, const ndarray<T>& y) {
    const cuda::on_device on(y.device());
    CUNP_CUSPARSE_CHECK(cusparseDnVecSetValues(x_, const_cast<T*>(x.data())));
    const T alpha(1), beta(0);
    const cusparseHandle_t h = cuda::cusparse_handle(on.dev);
    constexpr cudaDataType_t type = cuda::sparse_data_type<T>();
    constexpr cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    std::size_t bytes = 0;
    cusparseStatus_t s =
        cusparseSpMV_bufferSize(h, op, &alpha, *descr_, x_, &beta, y_, type, alg_, &bytes);
    if (s == CUSPARSE_STATUS_NOT_SUPPORTED) {
      alg_ = CUSPARSE_SPMV_ALG_DEFAULT;
      s = cusparseSpMV_bufferSize(h, op, &alpha, *descr_, x_, &beta, y_, type, alg_, &bytes);
    }
    cuda::check_cusparse(s, "cusparseSpMV_bufferSize");
    return bytes;
  }

  index_t n_;
  cs_arrays<T, I> a_;
  int dev_;
  cuda::dn_vec_descr<false> x_, y_;
  cusparseSpMVAlg_t alg_;
  std::optional<cuda::const_csr_descr> descr_;
  std::optional<cuda::workspace> work_;
};

template <class T, class I>
krylov_spmv_cuda<T, I> make_krylov_spmv(cuda_backend, index_t n, const cs_arrays<T, I>& a,
                                        const ndarray<T>& x, const ndarray<T>& y) {
  return krylov_spmv_cuda<T, I>(n, a, x, y);
}

}  // namespace cunp::detail
