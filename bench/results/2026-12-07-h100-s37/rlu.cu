// Probe (s37): LU with partial pivoting as a recursion on cuBLAS trsm/gemm whose leaves are
// 32-column panels factorised by one thread-block cluster (a row a thread, in registers; one
// cluster barrier a column), against cusolverDnXgetrf in the same process. Checks that the
// pivots equal cuSOLVER's and the factors agree; times both (CUDA events, medians).
//   nvcc -O3 -std=c++20 -arch=sm_90 rlu.cu -lcublas -lcusolver -o rlu && ./rlu
#include <cooperative_groups.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;
using i64 = std::int64_t;

#define CK(x)                                                                         \
  do {                                                                                \
    auto e_ = (x);                                                                    \
    if (e_ != 0) {                                                                    \
      std::printf("error %d at %s:%d: %s\n", int(e_), __FILE__, __LINE__, #x);       \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int NB = 32;          // panel width
constexpr int max_warps = 16;   // threads a block <= 512

// The panel: m rows x ncols (<= NB) at A (column-major, lda), rows spread over the cluster's
// blocks, a row a thread. pos = the row's current position (LAPACK's swaps, applied to the
// positions only); the rows are written back to their final positions at the end.
template <class T, bool Single>
__global__ void __launch_bounds__(512) panel_kernel(i64 m, int ncols, T* A, i64 lda, i64* ipiv,
                                                    i64 ipiv_base, int* info, i64 info_base,
                                                    int* moves) {
  cg::cluster_group cl = cg::this_cluster();
  const int C = static_cast<int>(cl.num_blocks()), rank = static_cast<int>(cl.block_rank());
  const int W = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __shared__ T wval[2][max_warps];
  __shared__ int wpos[2][max_warps];
  __shared__ __align__(16) T wrow[2][max_warps][NB];
  __shared__ __align__(16) T prow[max_warps][NB];
  const i64 r = static_cast<i64>(rank) * blockDim.x + threadIdx.x;
  const bool valid = r < m;
  if (rank == 0 && threadIdx.x == 0) moves[0] = 0;
  T a[NB];
#pragma unroll
  for (int k = 0; k < NB; ++k) a[k] = (valid && k < ncols) ? A[r + k * lda] : T(0);
  int pos = valid ? static_cast<int>(r) : INT_MAX;
  bool used = !valid;
  int first_zero = 0;
  for (int j = 0; j < ncols; ++j) {
    const int par = j & 1;
    T aj = 0;
#pragma unroll
    for (int k = 0; k < NB; ++k)
      if (k == j) aj = a[k];
    T mag = used ? T(-1) : (isnan(aj) ? T(-0.5) : fabs(aj));
    int p = used ? INT_MAX : pos;
#pragma unroll
    for (int off = 16; off > 0; off /= 2) {
      const T om = __shfl_xor_sync(0xffffffffu, mag, off);
      const int op = __shfl_xor_sync(0xffffffffu, p, off);
      if (om > mag || (om == mag && op < p)) mag = om, p = op;
    }
    if (!used && pos == p) {  // this warp's candidate
#pragma unroll
      for (int k = 0; k < NB; ++k) wrow[par][warp][k] = a[k];
      wval[par][warp] = mag;
      wpos[par][warp] = p;
    } else if (p == INT_MAX && lane == 0) {
      wval[par][warp] = T(-1);
      wpos[par][warp] = INT_MAX;
    }
    if constexpr (Single)
      __syncthreads();
    else
      cl.sync();
    T bm = T(-2);
    int bp = INT_MAX, bs = 0;
    for (int idx = lane; idx < C * W; idx += 32) {
      const int b = idx / W, w = idx % W;
      const T v = Single ? wval[par][w] : *cl.map_shared_rank(&wval[par][w], b);
      const int q = Single ? wpos[par][w] : *cl.map_shared_rank(&wpos[par][w], b);
      if (v > bm || (v == bm && q < bp)) bm = v, bp = q, bs = idx;
    }
#pragma unroll
    for (int off = 16; off > 0; off /= 2) {
      const T om = __shfl_xor_sync(0xffffffffu, bm, off);
      const int op = __shfl_xor_sync(0xffffffffu, bp, off);
      const int os = __shfl_xor_sync(0xffffffffu, bs, off);
      if (om > bm || (om == bm && op < bp)) bm = om, bp = op, bs = os;
    }
    prow[warp][lane] = Single ? wrow[par][bs % W][lane]
                              : *cl.map_shared_rank(&wrow[par][bs % W][lane], bs / W);
    __syncwarp();
    const T pv = prow[warp][j];
    const bool winner = !used && pos == bp;
    if (!used && !winner) {
      if (pv != T(0)) {
        const T l = aj / pv;
#pragma unroll
        for (int k = 0; k < NB; ++k) {
          if (k == j) a[k] = l;
          if (k > j) a[k] -= l * prow[warp][k];
        }
      }
      if (pos == j) pos = bp;
    }
    if (winner) pos = j, used = true;
    if (pv == T(0) && first_zero == 0) first_zero = j + 1;
    if (rank == 0 && threadIdx.x == 0) ipiv[j] = ipiv_base + bp + 1;
  }
  if (valid) {
#pragma unroll
    for (int k = 0; k < NB; ++k)
      if (k < ncols) A[pos + k * lda] = a[k];
    if (pos != r) {
      const int s = atomicAdd(moves, 1);
      moves[1 + 2 * s] = pos;
      moves[2 + 2 * s] = static_cast<int>(r);
    }
  }
  if (first_zero != 0 && rank == 0 && threadIdx.x == 0 && *info == 0)
    *info = static_cast<int>(info_base + first_zero);
  (void)C;
}


// Version 2: the argmax by three warp reductions (__reduce_max_sync on the magnitude's high and
// low words, __reduce_min_sync on the position: exact, and the first position among equal
// magnitudes as LAPACK's idamax), the winner's row read where it was published (one block) or
// from its block's shared memory (a cluster), and the column scaled by the pivot's reciprocal
// as LAPACK's dgetf2 does.
struct key3 {
  unsigned hi, lo, ps;  // ps = position << 9 | slot (block * warps + warp)
};
__device__ inline key3 warp_argmax(key3 k) {
  const unsigned mh = __reduce_max_sync(0xffffffffu, k.hi);
  const unsigned ml = __reduce_max_sync(0xffffffffu, k.hi == mh ? k.lo : 0u);
  const unsigned mp = __reduce_min_sync(0xffffffffu, (k.hi == mh && k.lo == ml) ? k.ps : ~0u);
  return {mh, ml, mp};
}
__device__ inline bool key_less(key3 a, key3 b) {  // a ranks below b
  return a.hi != b.hi ? a.hi < b.hi : a.lo != b.lo ? a.lo < b.lo : a.ps > b.ps;
}
template <class T, bool Single>
__global__ void __launch_bounds__(512) panel2_kernel(i64 m, int ncols, T* A, i64 lda, i64* ipiv,
                                                     i64 ipiv_base, int* info, i64 info_base,
                                                     int* moves) {
  cg::cluster_group cl = cg::this_cluster();
  const int C = static_cast<int>(cl.num_blocks()), rank = static_cast<int>(cl.block_rank());
  const int W = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __shared__ key3 wkey[2][max_warps];
  __shared__ __align__(16) T wrow[2][max_warps][NB];
  __shared__ __align__(16) T prow[max_warps][NB];
  const i64 r = static_cast<i64>(rank) * blockDim.x + threadIdx.x;
  const bool valid = r < m;
  if (rank == 0 && threadIdx.x == 0) moves[0] = 0;
  T a[NB];
#pragma unroll
  for (int k = 0; k < NB; ++k) a[k] = (valid && k < ncols) ? A[r + k * lda] : T(0);
  int pos = valid ? static_cast<int>(r) : INT_MAX;
  bool used = !valid;
  int first_zero = 0;
  const unsigned slot = static_cast<unsigned>(rank * W + warp);
  for (int j = 0; j < ncols; ++j) {
    const int par = j & 1;
    T aj = 0;
#pragma unroll
    for (int k = 0; k < NB; ++k)
      if (k == j) aj = a[k];
    key3 mine{0u, 0u, ~0u};
    if (!used) {
      if (isnan(aj)) {
        mine = {0u, 1u, static_cast<unsigned>(pos) << 9 | slot};
      } else {
        const unsigned long long b = __double_as_longlong(fabs(double(aj)));
        mine = {static_cast<unsigned>(b >> 32) + 1u, static_cast<unsigned>(b),
                static_cast<unsigned>(pos) << 9 | slot};
      }
    }
    const key3 wk = warp_argmax(mine);
    if (!used && static_cast<unsigned>(pos) == (wk.ps >> 9)) {
#pragma unroll
      for (int k = 0; k < NB; ++k) wrow[par][warp][k] = a[k];
    }
    if (lane == 0) wkey[par][warp] = wk;
    if constexpr (Single)
      __syncthreads();
    else
      cl.sync();
    key3 best{0u, 0u, ~0u};
    for (int idx = lane; idx < C * W; idx += 32) {
      const int b = idx / W, w = idx % W;
      const key3 k = Single ? wkey[par][w] : *cl.map_shared_rank(&wkey[par][w], b);
      if (key_less(best, k)) best = k;
    }
    best = warp_argmax(best);
    const int bp = static_cast<int>(best.ps >> 9), bs = static_cast<int>(best.ps & 511u);
    const T* row;
    if constexpr (Single) {
      row = wrow[par][bs];
    } else {
      prow[warp][lane] = *cl.map_shared_rank(&wrow[par][bs % W][lane], bs / W);
      __syncwarp();
      row = prow[warp];
    }
    const T pv = row[j];
    const bool winner = !used && pos == bp;
    if (!used && !winner) {
      if (pv != T(0)) {
        const T l = fabs(pv) >= T(2.2250738585072014e-308) ? aj * (T(1) / pv) : aj / pv;
#pragma unroll
        for (int k = 0; k < NB; ++k) {
          if (k == j) a[k] = l;
          if (k > j) a[k] -= l * row[k];
        }
      }
      if (pos == j) pos = bp;
    }
    if (winner) pos = j, used = true;
    if (pv == T(0) && first_zero == 0) first_zero = j + 1;
    if (rank == 0 && threadIdx.x == 0) ipiv[j] = ipiv_base + bp + 1;
  }
  if (valid) {
#pragma unroll
    for (int k = 0; k < NB; ++k)
      if (k < ncols) A[pos + k * lda] = a[k];
    if (pos != r) {
      const int s = atomicAdd(moves, 1);
      moves[1 + 2 * s] = pos;
      moves[2 + 2 * s] = static_cast<int>(r);
    }
  }
  if (first_zero != 0 && rank == 0 && threadIdx.x == 0 && *info == 0)
    *info = static_cast<int>(info_base + first_zero);
}


// Version 3: version 2 with the column loop unrolled, so that the column j, the pivot row's
// columns past j and the update are known to the compiler (no selects over the row's registers:
// ncu had versions 1 and 2 issuing about 500 instructions a warp a column), and each candidate
// key one 16-byte load.
template <class T, bool Single>
__global__ void __launch_bounds__(512) panel3_kernel(i64 m, int ncols, T* A, i64 lda, i64* ipiv,
                                                     i64 ipiv_base, int* info, i64 info_base,
                                                     int* moves) {
  cg::cluster_group cl = cg::this_cluster();
  const int C = static_cast<int>(cl.num_blocks()), rank = static_cast<int>(cl.block_rank());
  const int W = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __shared__ uint4 wkey[2][max_warps];
  __shared__ __align__(16) T wrow[2][max_warps][NB];
  __shared__ __align__(16) T prow[max_warps][NB];
  const i64 r = static_cast<i64>(rank) * blockDim.x + threadIdx.x;
  const bool valid = r < m;
  if (rank == 0 && threadIdx.x == 0) moves[0] = 0;
  T a[NB];
#pragma unroll
  for (int k = 0; k < NB; ++k) a[k] = (valid && k < ncols) ? A[r + k * lda] : T(0);
  int pos = valid ? static_cast<int>(r) : INT_MAX;
  bool used = !valid;
  int first_zero = 0;
  const unsigned slot = static_cast<unsigned>(rank * W + warp);
#pragma unroll
  for (int j = 0; j < NB; ++j) {
    if (j >= ncols) break;
    const int par = j & 1;
    key3 mine{0u, 0u, ~0u};
    if (!used) {
      if (isnan(a[j])) {
        mine = {0u, 1u, static_cast<unsigned>(pos) << 9 | slot};
      } else {
        const unsigned long long b = __double_as_longlong(fabs(double(a[j])));
        mine = {static_cast<unsigned>(b >> 32) + 1u, static_cast<unsigned>(b),
                static_cast<unsigned>(pos) << 9 | slot};
      }
    }
    const key3 wk = warp_argmax(mine);
    if (!used && static_cast<unsigned>(pos) == (wk.ps >> 9)) {
#pragma unroll
      for (int k = j; k < NB; ++k) wrow[par][warp][k] = a[k];
    }
    if (lane == 0) wkey[par][warp] = make_uint4(wk.hi, wk.lo, wk.ps, 0u);
    if constexpr (Single)
      __syncthreads();
    else
      cl.sync();
    key3 best{0u, 0u, ~0u};
    for (int idx = lane; idx < C * W; idx += 32) {
      const int b = idx / W, w = idx % W;
      const uint4 u = Single ? wkey[par][w] : *cl.map_shared_rank(&wkey[par][w], b);
      const key3 k{u.x, u.y, u.z};
      if (key_less(best, k)) best = k;
    }
    best = warp_argmax(best);
    const int bp = static_cast<int>(best.ps >> 9), bs = static_cast<int>(best.ps & 511u);
    const T* row;
    if constexpr (Single) {
      row = wrow[par][bs];
    } else {
      if (lane >= j) prow[warp][lane] = *cl.map_shared_rank(&wrow[par][bs % W][lane], bs / W);
      __syncwarp();
      row = prow[warp];
    }
    const T pv = row[j];
    const bool winner = !used && pos == bp;
    if (!used && !winner) {
      if (pv != T(0)) {
        const T l = fabs(pv) >= T(2.2250738585072014e-308) ? a[j] * (T(1) / pv) : a[j] / pv;
        a[j] = l;
#pragma unroll
        for (int k = j + 1; k < NB; ++k) a[k] -= l * row[k];
      }
      if (pos == j) pos = bp;
    }
    if (winner) pos = j, used = true;
    if (pv == T(0) && first_zero == 0) first_zero = j + 1;
    if (rank == 0 && threadIdx.x == 0) ipiv[j] = ipiv_base + bp + 1;
  }
  if (valid) {
#pragma unroll
    for (int k = 0; k < NB; ++k)
      if (k < ncols) A[pos + k * lda] = a[k];
    if (pos != r) {
      const int s = atomicAdd(moves, 1);
      moves[1 + 2 * s] = pos;
      moves[2 + 2 * s] = static_cast<int>(r);
    }
  }
  if (first_zero != 0 && rank == 0 && threadIdx.x == 0 && *info == 0)
    *info = static_cast<int>(info_base + first_zero);
}

// The panel's row moves applied to the columns outside it: a warp a column, all loads before
// any store (the moves are a permutation of at most 2 NB rows).
template <class T>
__global__ void swap_kernel(T* A, i64 lda, i64 ncols, i64 skip0, i64 skip1, const int* moves) {
  const i64 c0 = (static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  const i64 c = c0 < skip0 ? c0 : c0 + (skip1 - skip0);
  if (c >= ncols) return;
  const int cnt = moves[0];
  T* col = A + c * lda;
  T v0 = 0, v1 = 0;
  int d0 = -1, d1 = -1;
  if (lane < cnt) v0 = col[moves[2 + 2 * lane]], d0 = moves[1 + 2 * lane];
  if (lane + 32 < cnt) v1 = col[moves[2 + 2 * (lane + 32)]], d1 = moves[1 + 2 * (lane + 32)];
  __syncwarp();
  if (d0 >= 0) col[d0] = v0;
  if (d1 >= 0) col[d1] = v1;
}

__global__ void barrier_kernel(int count) {
  cg::cluster_group cl = cg::this_cluster();
  for (int i = 0; i < count; ++i) cl.sync();
}

template <class T> struct blas;
template <> struct blas<double> {
  static cublasStatus_t trsm(cublasHandle_t h, int m, int n, const double* a, int lda, double* b,
                             int ldb) {
    const double one = 1;
    return cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                       CUBLAS_DIAG_UNIT, m, n, &one, a, lda, b, ldb);
  }
  static cublasStatus_t gemm(cublasHandle_t h, int m, int n, int k, const double* a, int lda,
                             const double* b, int ldb, double* c, int ldc) {
    const double one = 1, minus = -1;
    return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &minus, a, lda, b, ldb, &one, c, ldc);
  }
  static constexpr cudaDataType_t type = CUDA_R_64F;
};

template <class T> struct rlu {
  cublasHandle_t h;
  cudaStream_t st;
  T* A;
  i64 n;
  i64* ipiv;
  int* info;
  int* moves;
  int version = 1;

  void panel(i64 c0, i64 m, i64 nc) {
    panel_launch(c0, m, nc, A + c0 + c0 * n, n);
    const i64 other = n - nc;
    if (other > 0) {
      const i64 warps = other;
      swap_kernel<T><<<static_cast<unsigned>((warps * 32 + 255) / 256), 256, 0, st>>>(
          A + c0, n, n, c0, c0 + nc, moves);
      CK(cudaGetLastError());
    }
  }
  void panel_launch(i64 c0, i64 m, i64 nc, T* p, i64 ld) {
    int C = static_cast<int>(std::min<i64>(16, (m + 255) / 256));
    int threads = static_cast<int>(((m + C - 1) / C + 31) / 32 * 32);
    if (threads > 512) std::printf("panel too tall\n"), std::exit(1);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(C);
    cfg.blockDim = dim3(threads);
    cfg.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = C;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    auto* kern = version == 3   ? (C == 1 ? panel3_kernel<T, true> : panel3_kernel<T, false>)
                 : version == 2 ? (C == 1 ? panel2_kernel<T, true> : panel2_kernel<T, false>)
                                : (C == 1 ? panel_kernel<T, true> : panel_kernel<T, false>);
    CK(cudaLaunchKernelEx(&cfg, kern, m, static_cast<int>(nc), p, ld, ipiv + c0, c0,
                          info, c0, moves));
  }
  void panel_only(i64 m) {  // the panel of an m x 32 matrix (n = m: lda = m), no swaps after
    const i64 keep = n;
    n = 0;
    panel_launch(0, m, NB, A, m);
    n = keep;
  }
  void node(i64 c0, i64 m, i64 nc) {
    if (nc <= NB) return panel(c0, m, nc);
    i64 n1 = (nc / 2 + NB - 1) / NB * NB;
    if (n1 >= nc) n1 = nc - NB;
    const i64 n2 = nc - n1;
    node(c0, m, n1);
    T* a11 = A + c0 + c0 * n;
    CK(blas<T>::trsm(h, int(n1), int(n2), a11, int(n), a11 + n1 * n, int(n)));
    if (m > n1)
      CK(blas<T>::gemm(h, int(m - n1), int(n2), int(n1), a11 + n1, int(n), a11 + n1 * n, int(n),
                       a11 + n1 + n1 * n, int(n)));
    node(c0 + n1, m - n1, n2);
  }
  void run() {
    CK(cudaMemsetAsync(info, 0, sizeof(int), st));
    node(0, n, n);
  }
};

__global__ void fill_kernel(double* a, i64 count, unsigned seed, int zero_col, i64 n) {
  const i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  unsigned long long x = (static_cast<unsigned long long>(i) + 1) * 0x9E3779B97F4A7C15ull ^ seed;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  double v = (x >> 11) * (1.0 / 9007199254740992.0) * 2 - 1;
  if (zero_col >= 0 && i / n == zero_col) v = 0;
  a[i] = v;
}

static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 10;
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  cublasHandle_t h;
  CK(cublasCreate(&h));
  CK(cublasSetStream(h, st));
  cusolverDnHandle_t sh;
  CK(cusolverDnCreate(&sh));
  CK(cusolverDnSetStream(sh, st));
  cusolverDnParams_t params;
  CK(cusolverDnCreateParams(&params));
  CK(cudaFuncSetAttribute(panel_kernel<double, false>,
                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(panel2_kernel<double, false>,
                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(panel3_kernel<double, false>,
                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(barrier_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  int* info;
  int* moves;
  CK(cudaMalloc(&info, 2 * sizeof(int)));
  CK(cudaMalloc(&moves, (1 + 4 * NB) * sizeof(int)));


  {  // the panel alone, by height: its time a column; and a kernel of 32 cluster barriers alone
    double* a;
    i64* pv;
    const i64 mmax = 8192;
    CK(cudaMalloc(&a, mmax * NB * 8));
    CK(cudaMalloc(&pv, NB * 8));
    fill_kernel<<<unsigned((mmax * NB + 255) / 256), 256, 0, st>>>(a, mmax * NB, 7u, -1, mmax);
    for (int ver : {1, 3})
    for (i64 m : {64, 256, 512, 1024, 2048, 4096, 8192}) {
      rlu<double> f{h, st, a, m, pv, info + 1, moves};
      f.version = ver;
      std::vector<float> t;
      for (int i = 0; i < 22; ++i) {
        CK(cudaEventRecord(e0, st));
        f.panel_only(m);
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= 2) t.push_back(ms);
      }
      const double us = median(t) * 1e3;
      std::printf("panel v%d m=%lld x 32: %.2f us (%.3f us a column)\n", ver, (long long)m, us,
                  us / 32);
    }
    for (int C : {1, 2, 4, 8, 16}) {
      std::vector<float> t;
      for (int i = 0; i < 22; ++i) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(C);
        cfg.blockDim = dim3(256);
        cfg.stream = st;
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = C;
        at[0].val.clusterDim.y = 1;
        at[0].val.clusterDim.z = 1;
        cfg.attrs = at;
        cfg.numAttrs = 1;
        CK(cudaEventRecord(e0, st));
        CK(cudaLaunchKernelEx(&cfg, barrier_kernel, 1000));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= 2) t.push_back(ms);
      }
      std::printf("cluster of %d: 1000 barriers %.2f us (%.3f us each)\n", C, median(t) * 1e3,
                  median(t));
    }
    CK(cudaFree(a));
    CK(cudaFree(pv));
  }
  if (argc > 2) return 0;  // the panels and barriers alone (for ncu)

  struct shape {
    i64 n;
    int zero_col;
    bool time;
  };
  const shape shapes[] = {{1, -1, false},   {5, -1, false},    {31, -1, false},  {32, -1, false},
                          {33, -1, false},  {100, -1, false},  {257, -1, false}, {300, 7, false},
                          {1000, 500, false}, {1000, -1, false}, {512, -1, true}, {1024, -1, true},
                          {2048, -1, true}, {4096, -1, true},  {8192, -1, true}};
  for (const shape& s : shapes) {
    const i64 n = s.n, count = n * n;
    double *a0, *a1, *a2;
    i64 *p1, *p2;
    CK(cudaMalloc(&a0, count * 8));
    CK(cudaMalloc(&a1, count * 8));
    CK(cudaMalloc(&a2, count * 8));
    CK(cudaMalloc(&p1, n * 8));
    CK(cudaMalloc(&p2, n * 8));
    fill_kernel<<<unsigned((count + 255) / 256), 256, 0, st>>>(a0, count, 1234u + unsigned(n),
                                                               s.zero_col, n);
    size_t dbytes = 0, hbytes = 0;
    CK(cusolverDnXgetrf_bufferSize(sh, params, n, n, CUDA_R_64F, a1, n, CUDA_R_64F, &dbytes,
                                   &hbytes));
    void* dwork;
    CK(cudaMalloc(&dwork, dbytes + 8));
    std::vector<char> hwork(hbytes + 8);
    rlu<double> f{h, st, a2, n, p2, info + 1, moves};
    auto solver = [&] {
      CK(cusolverDnXgetrf(sh, params, n, n, CUDA_R_64F, a1, n, p1, CUDA_R_64F, dwork, dbytes,
                          hwork.data(), hbytes, info));
    };
    for (int ver : {1, 3}) {
    f.version = ver;
    // correctness
    CK(cudaMemcpyAsync(a1, a0, count * 8, cudaMemcpyDeviceToDevice, st));
    CK(cudaMemcpyAsync(a2, a0, count * 8, cudaMemcpyDeviceToDevice, st));
    solver();
    f.run();
    CK(cudaStreamSynchronize(st));
    std::vector<double> h1(count), h2(count);
    std::vector<i64> q1(n), q2(n);
    int inf[2];
    CK(cudaMemcpy(h1.data(), a1, count * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h2.data(), a2, count * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(q1.data(), p1, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(q2.data(), p2, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(inf, info, 8, cudaMemcpyDeviceToHost));
    i64 piv_diff = 0, first_diff = -1;
    for (i64 i = 0; i < n; ++i)
      if (q1[i] != q2[i]) {
        ++piv_diff;
        if (first_diff < 0) first_diff = i;
      }
    double md = 0, mx = 0;
    for (i64 i = 0; i < count; ++i) {
      md = std::max(md, std::fabs(h1[i] - h2[i]));
      mx = std::max(mx, std::fabs(h1[i]));
    }
    std::printf("v%d n=%lld zero_col=%d: pivots differing %lld (first %lld), max|diff| %.3g (max|LU| "
                "%.3g), info cusolver %d ours %d\n",
                ver, (long long)n, s.zero_col, (long long)piv_diff, (long long)first_diff, md, mx,
                inf[0], inf[1]);
    if (s.time) {
      auto time = [&](auto&& fn) {
        std::vector<float> t;
        for (int i = 0; i < reps + 2; ++i) {
          CK(cudaMemcpyAsync(a1, a0, count * 8, cudaMemcpyDeviceToDevice, st));
          CK(cudaMemcpyAsync(a2, a0, count * 8, cudaMemcpyDeviceToDevice, st));
          CK(cudaEventRecord(e0, st));
          fn();
          CK(cudaEventRecord(e1, st));
          CK(cudaEventSynchronize(e1));
          float ms;
          CK(cudaEventElapsedTime(&ms, e0, e1));
          if (i >= 2) t.push_back(ms);
        }
        return median(t);
      };
      const double ts = time(solver);
      const double tr = time([&] { f.run(); });
      // the same recursion captured once as a graph and replayed
      cudaGraph_t g;
      cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
      f.run();
      CK(cudaStreamEndCapture(st, &g));
      CK(cudaGraphInstantiate(&ge, g, 0));
      const double tg = time([&] { CK(cudaGraphLaunch(ge, st)); });
      const double flop = 2.0 / 3.0 * double(n) * n * n;
      std::printf("  time v%d n=%lld: cusolverDnXgetrf %.3f ms (%.2f TFLOP/s), rlu %.3f ms (%.2fx), "
                  "rlu graph %.3f ms (%.2fx)\n",
                  ver, (long long)n, ts, flop / ts * 1e-9, tr, ts / tr, tg, ts / tg);
      CK(cudaGraphExecDestroy(ge));
      CK(cudaGraphDestroy(g));
    }
    }
    CK(cudaFree(dwork));
    CK(cudaFree(a0));
    CK(cudaFree(a1));
    CK(cudaFree(a2));
    CK(cudaFree(p1));
    CK(cudaFree(p2));
  }
  std::printf("done\n");
  return 0;
}
