// cunp/detail/cuda/linalg/matmul.cuh: the CUDA backend of matmul. Floating and complex products
// are one cuBLAS strided-batched call per group of matrices the batch strides can step through
// (every batch when the batch axes merge into one, as they do for C-ordered and simply broadcast
// operands); an operand's transposition is cuBLAS's operation flag and its row or column stride
// the leading dimension, so only a matrix with neither unit stride (or a negative batch stride)
// is copied first, once per distinct matrix, its broadcast axes left broadcast. Integer and bool
// products, which cuBLAS does not compute with NumPy's wrap-around, and small floating ones,
// where a launch of cunp's own costs the host less than cuBLAS's call, run on a tiled kernel here.
#pragma once
#include <cublas_v2.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "cunp/detail/cuda/core/cublas.cuh"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/linalg/gemm_problem.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::detail::cuda {

/// cuBLAS's data type, compute type and scalar type of a product of T.
template <class T> struct blas_types;
template <> struct blas_types<float16> {
  static constexpr cudaDataType_t data = CUDA_R_16F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = float;
};
template <> struct blas_types<bfloat16> {
  static constexpr cudaDataType_t data = CUDA_R_16BF;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = float;
};
template <> struct blas_types<float> {
  static constexpr cudaDataType_t data = CUDA_R_32F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = float;
};
template <> struct blas_types<double> {
  static constexpr cudaDataType_t data = CUDA_R_64F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_64F;
  using scalar = double;
};
template <> struct blas_types<std::complex<float>> {
  static constexpr cudaDataType_t data = CUDA_C_32F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  using scalar = std::complex<float>;
};
template <> struct blas_types<std::complex<double>> {
  static constexpr cudaDataType_t data = CUDA_C_64F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_64F;
  using scalar = std::complex<double>;
};

/// An operand X (rows x cols, element (i, j) at i * rs + j * cs) as cuBLAS needs it: op(M) = X^T
/// of a column-major M with leading dimension ld (a row-major X is M itself, op N; a
/// column-major X is M^T, op T); fits is false when neither describes X.
struct blas_layout {
  cublasOperation_t op = CUBLAS_OP_N;
  std::int64_t ld = 1;
  bool fits = false;
};
inline blas_layout blas_layout_of(index_t rows, index_t cols, index_t rs, index_t cs) {
  const index_t r1 = std::max<index_t>(rows, 1), c1 = std::max<index_t>(cols, 1);
  if (cs == 1 || cols == 1) {
    const index_t ld = rows == 1 ? c1 : rs;
    if (ld >= c1) return {CUBLAS_OP_N, ld, true};
  }
  if (rs == 1 || rows == 1) {
    const index_t ld = cols == 1 ? r1 : cs;
    if (ld >= r1) return {CUBLAS_OP_T, ld, true};
  }
  return {};
}

/// Whether cuBLAS can read x (batch..., rows, cols) where it lies.
template <class T> bool blas_readable(const ndarray<T>& x) {
  const int nd = x.ndim();
  for (int d = 0; d < nd - 2; ++d)
    if (x.strides()[d] < 0 && x.shape()[d] > 1) return false;
  return blas_layout_of(x.shape()[nd - 2], x.shape()[nd - 1], x.strides()[nd - 2],
                        x.strides()[nd - 1])
      .fits;
}

/// x's distinct elements as an array: its broadcast (stride-0) batch axes cut to extent 1.
template <class T> ndarray<T> unbroadcast(const ndarray<T>& x) {
  shape_t s = x.shape();
  for (int d = 0; d + 2 < x.ndim(); ++d)
    if (x.strides()[d] == 0) s[d] = 1;
  return ndarray<T>(x.storage(), x.offset(), s, x.strides());
}

/// x where cuBLAS can read it: x itself, or a C-ordered copy of its distinct matrices, broadcast
/// back to x's shape.
template <class T> ndarray<T> blas_operand(const ndarray<T>& x) {
  if (blas_readable(x)) return x;
  return broadcast_to(unbroadcast(x).copy(), x.shape());
}

/// f(a_offset, b_offset, c_offset, count, a_stride, b_stride, c_stride) for every index of the
/// batch axes but the last, the last (count, strides) left to one batched call.
template <class T, class U, class F> void for_each_batch_group(const gemm_problem<T, U>& p, F&& f) {
  const std::size_t nb = p.batch.size();
  if (nb == 0) return f(index_t{0}, index_t{0}, index_t{0}, index_t{1}, index_t{0}, index_t{0},
                        index_t{0});
  const index_t count = p.batch[nb - 1];
  index_t groups = 1;
  for (std::size_t d = 0; d + 1 < nb; ++d) groups *= p.batch[d];
  for (index_t g = 0; g < groups; ++g) {
    index_t oa = 0, ob = 0, oc = 0, rest = g;
    for (std::size_t d = nb - 1; d-- > 0;) {
      const index_t i = rest % p.batch[d];
      rest /= p.batch[d];
      oa += i * p.a.batch[d];
      ob += i * p.b.batch[d];
      oc += i * p.c.batch[d];
    }
    f(oa, ob, oc, count, p.a.batch[nb - 1], p.b.batch[nb - 1], p.c.batch[nb - 1]);
  }
}

/// c = alpha * a @ b + beta * c by cuBLAS, In the operands' type, Out the result's (C-ordered),
/// a and b readable where they lie (blas_operand).
template <class In, class Out>
void blas_matmul(const ndarray<Out>& c, const ndarray<In>& a, const ndarray<In>& b,
                 cublasComputeType_t compute, typename blas_types<Out>::scalar beta) {
  using S = typename blas_types<Out>::scalar;
  const auto p = make_gemm_problem(c, a, b, matmul_precision::highest);
  // C^T (n x m, column-major) = B^T A^T: B's layout first.
  const blas_layout lb = blas_layout_of(p.k, p.n, p.b.rs, p.b.cs);
  const blas_layout la = blas_layout_of(p.m, p.k, p.a.rs, p.a.cs);
  const std::int64_t ldc = p.m == 1 ? std::max<index_t>(p.n, 1) : p.c.rs;
  const int dev = c.device().index();
  device_scope scope(dev);
  cublasHandle_t h = cublas_handle(dev);
  const S alpha(1);
  const cudaDataType_t tin = blas_types<In>::data, tout = blas_types<Out>::data;
  for_each_batch_group(p, [&](index_t oa, index_t ob, index_t oc, index_t count, index_t sa,
                              index_t sb, index_t sc) {
    CUNP_CUBLAS_CHECK(cublasGemmStridedBatchedEx_64(
        h, lb.op, la.op, p.n, p.m, p.k, &alpha, p.b.data + ob, tin, lb.ld, sb, p.a.data + oa, tin,
        la.ld, sa, &beta, p.c.data + oc, tout, ldc, sc, count, compute, CUBLAS_GEMM_DEFAULT));
  });
}

/// bf16x3: x's bfloat16 parts hi = bf16(x), lo = bf16(x - hi), C-ordered over x's distinct
/// matrices and broadcast back.
inline std::pair<ndarray<bfloat16>, ndarray<bfloat16>> bf16_parts(const ndarray<float>& x) {
  const ndarray<float> u = unbroadcast(x);
  const ndarray<bfloat16> hi = eval<cuda_backend>(astype<bfloat16>(u));
  const ndarray<bfloat16> lo = eval<cuda_backend>(astype<bfloat16>(u - astype<float>(hi)));
  return {broadcast_to(hi, x.shape()), broadcast_to(lo, x.shape())};
}

/// The tiled kernel's tile: a block of tile x tile threads computes as many results, stepping
/// through k a tile at a time with both operands' tiles in shared memory.
inline constexpr int matmul_tile = 16, matmul_chains = 4;
static_assert(matmul_chains == 4, "tiled_matmul_kernel's last step adds four partial sums");

/// Floating products up to this many real multiply-adds (count * m * n * k, four a complex one),
/// over k up to small_matmul_max_k, take the tiled kernel: one launch of cunp's own costs the
/// host about half of cuBLAS's call, which at these sizes takes longer on the host than its
/// kernel on the GPU, so a run of such products goes faster (float32 up to 128^3 is faster on
/// the GPU too; float64 spends 0.5-1.7 us more there: RESULTS.md, "matmul's small products").
/// A longer k stays with cuBLAS, which splits it over blocks where the tiled kernel walks it in
/// one (a few results over a long k would take one block).
inline constexpr index_t small_matmul_max = index_t{1} << 21, small_matmul_max_k = 256;

/// What the tiled kernel sums in: T's unsigned type for integers (wrap-around without signed
/// overflow), bool as OR of ANDs, float for float16/bfloat16 and cplx for complex (as cuBLAS's
/// compute types), T otherwise.
template <class T> struct tiled_sum { using type = math_t<T>; };
template <class T>
  requires is_integer_v<T>
struct tiled_sum<T> { using type = std::make_unsigned_t<T>; };
template <> struct tiled_sum<bool> { using type = bool; };

/// T as device code stores it: cplx for std::complex (the same layout), T otherwise.
template <class T> struct tiled_storage { using type = T; };
template <class R> struct tiled_storage<std::complex<R>> { using type = cplx<R>; };

/// One group of tiled_matmul_kernel's products: each matrix's element strides and the steps
/// between the group's `count` matrices (the kernel's arguments, trivially copyable).
template <class T> struct tiled_matmul_args {
  const T *a, *b;
  T* c;
  index_t m, n, k, a_rs, a_cs, b_rs, b_cs, c_rs, c_cs, count, a_step, b_step, c_step;
};

template <class T> CUNP_KERNEL void tiled_matmul_kernel(tiled_matmul_args<T> p) {
  using M = typename tiled_sum<T>::type;
  __shared__ M ta[matmul_tile][matmul_tile], tb[matmul_tile][matmul_tile];
  const index_t j = static_cast<index_t>(blockIdx.x) * matmul_tile + threadIdx.x;
  // Grid-stride over row tiles and matrices (the grid's y and z extents stop at 65535); the
  // loops' bounds are the block's, so every thread reaches each __syncthreads.
  for (index_t z = blockIdx.z; z < p.count; z += gridDim.z)
  for (index_t i0 = index_t(blockIdx.y) * matmul_tile; i0 < p.m;
       i0 += index_t(gridDim.y) * matmul_tile) {
    const index_t i = i0 + threadIdx.y;
    const T* a = p.a + z * p.a_step;
    const T* b = p.b + z * p.b_step;
    // Four partial sums, each over every fourth term, so that four multiply-adds are in flight
    // at once rather than one chain of k (with a block or two an SM, the chain's latency was the
    // time of a small product; RESULTS.md).
    M acc[matmul_chains] = {};
    for (index_t l0 = 0; l0 < p.k; l0 += matmul_tile) {
      const index_t la = l0 + threadIdx.x, lb = l0 + threadIdx.y;
      ta[threadIdx.y][threadIdx.x] =
          i < p.m && la < p.k ? static_cast<M>(a[i * p.a_rs + la * p.a_cs]) : M{};
      tb[threadIdx.y][threadIdx.x] =
          lb < p.k && j < p.n ? static_cast<M>(b[lb * p.b_rs + j * p.b_cs]) : M{};
      __syncthreads();
#pragma unroll
      for (int l = 0; l < matmul_tile; ++l) {
        M& sum = acc[l % matmul_chains];
        if constexpr (std::is_same_v<T, bool>)
          sum = sum || (ta[threadIdx.y][l] && tb[l][threadIdx.x]);
        else
          sum = static_cast<M>(sum + static_cast<M>(ta[threadIdx.y][l] * tb[l][threadIdx.x]));
      }
      __syncthreads();
    }
    if (i < p.m && j < p.n) {
      M total;
      if constexpr (std::is_same_v<T, bool>)
        total = (acc[0] || acc[1]) || (acc[2] || acc[3]);
      else
        total = static_cast<M>(static_cast<M>(acc[0] + acc[1]) + static_cast<M>(acc[2] + acc[3]));
      p.c[z * p.c_step + i * p.c_rs + j * p.c_cs] = static_cast<T>(total);
    }
  }
}

/// c = a @ b on the tiled kernel, the operands read where they lie (any strides).
template <class T>
void tiled_matmul(const ndarray<T>& c, const ndarray<T>& a, const ndarray<T>& b) {
  using S = typename tiled_storage<T>::type;
  const auto p = make_gemm_problem(c, a, b, matmul_precision::highest);
  const int dev = c.device().index();
  device_scope scope(dev);
  const cudaStream_t st = current_stream(dev);
  for_each_batch_group(p, [&](index_t oa, index_t ob, index_t oc, index_t count, index_t sa,
                              index_t sb, index_t sc) {
    const tiled_matmul_args<S> args{reinterpret_cast<const S*>(p.a.data + oa),
                                    reinterpret_cast<const S*>(p.b.data + ob),
                                    reinterpret_cast<S*>(p.c.data + oc), p.m, p.n, p.k, p.a.rs,
                                    p.a.cs, p.b.rs, p.b.cs, p.c.rs, p.c.cs, count, sa, sb, sc};
    const dim3 block(matmul_tile, matmul_tile);
    const dim3 grid(static_cast<unsigned>((p.n + matmul_tile - 1) / matmul_tile),
                    static_cast<unsigned>(
                        std::min<index_t>((p.m + matmul_tile - 1) / matmul_tile, 65535)),
                    static_cast<unsigned>(std::min<index_t>(count, 65535)));
    tiled_matmul_kernel<S><<<grid, block, 0, st>>>(args);
    CUNP_CUDA_CHECK_LAUNCH("tiled_matmul_kernel");
  });
}

/// Whether c = a @ b takes the tiled kernel: integer and bool products always (cuBLAS has no
/// wrap-around), floating ones when small and computed at full precision (a small float32
/// product under tf32 or bf16x3 stays with cuBLAS, which rounds as the mode says).
template <class T>
bool takes_tiled_matmul(const ndarray<T>& c, index_t k, matmul_precision precision) {
  if constexpr (!is_floating_v<T> && !is_complex_v<T>) {
    return true;
  } else {
    if (std::is_same_v<T, float> && precision != matmul_precision::highest) return false;
    const index_t per_product = is_complex_v<T> ? 4 * k : k;  // real multiply-adds a result
    return k <= small_matmul_max_k && c.size() <= small_matmul_max / per_product;
  }
}

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// c = a @ b: a (batch, m, k) and b (batch, k, n) broadcast views, c (batch, m, n) C-ordered.
template <class T>
void matmul_run(cuda_backend, const ndarray<T>& c, const ndarray<T>& a, const ndarray<T>& b,
                matmul_precision precision) {
  if (cuda::takes_tiled_matmul(c, a.shape().back(), precision)) {
    cuda::tiled_matmul(c, a, b);
  } else if constexpr (is_floating_v<T> || is_complex_v<T>) {
    using S = typename cuda::blas_types<T>::scalar;
    const ndarray<T> x = cuda::blas_operand(a), y = cuda::blas_operand(b);
    if constexpr (std::is_same_v<T, float>) {
      if (precision == matmul_precision::tf32)
        return cuda::blas_matmul(c, x, y, CUBLAS_COMPUTE_32F_FAST_TF32, 0.0f);
      if (precision == matmul_precision::bf16x3) {
        // The two cross terms first, hi·hi last: the small terms add up before the large one.
        const auto [xh, xl] = cuda::bf16_parts(x);
        const auto [yh, yl] = cuda::bf16_parts(y);
        cuda::blas_matmul(c, xh, yl, CUBLAS_COMPUTE_32F, 0.0f);
        cuda::blas_matmul(c, xl, yh, CUBLAS_COMPUTE_32F, 1.0f);
        return cuda::blas_matmul(c, xh, yh, CUBLAS_COMPUTE_32F, 1.0f);
      }
    }
    cuda::blas_matmul(c, x, y, cuda::blas_types<T>::compute, S(0));
  }
}

}  // namespace cunp::detail
