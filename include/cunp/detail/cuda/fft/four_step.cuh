// cunp/detail/cuda/fft/four_step.cuh: fft(expression) of N = 4096 N2 complex64 points without
// the expression's own pass (issue 21: fft(a * window) within 1.1x fft(a)). Evaluating first and
// then transforming costs a full extra read and write (1.43x on an H100); instead the transform
// is split in four steps by decimation in frequency, x[n1][n2] with n = n2 + N2 n1:
//   pass A (this file): the 4096-point DFTs down the columns of x, each element evaluated from
//          the expression's operands as it is loaded (times the norm's factor), and the
//          twiddle W_N^(n2 k1) applied on the store: y[k1][n2];
//   pass B (cuFFT):    the N2-point DFTs along the rows of y, written at stride 4096:
//          X[k1 + 4096 k2].
// y is the buffer cuFFT reads, so the expression costs no temporary of its own. Pass A runs
// 8 columns over a cluster of 2 blocks (sm_90's distributed shared memory): each block loads half
// of the column, and after the first radix-16 step sends half of the frequencies to the other
// block; 64-byte row pieces keep the loads whole sectors. The twiddles come from a W_4096 table
// in shared memory, W_N^b (b < N2) from its Taylor terms. bench/RESULTS.md ("A four-step split")
// has the probe's forms and times.
#pragma once
#include <cooperative_groups.h>

#include <complex>
#include <cstdlib>
#include <optional>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/expr/elementwise.cuh"
#include "cunp/detail/cuda/fft/transform.cuh"

namespace cunp::detail::cuda::four_step {

constexpr int n1 = 4096, cols = 8, cluster = 2, threads = 1024;
constexpr int half = 16 / cluster;            // the first step's frequencies a block keeps
constexpr int col_items = 256 * half + 16;   // a column's share, with a pad every 256
constexpr int col_stride = col_items + 2;    // = 2 (mod 16): columns on other banks
constexpr std::size_t smem_bytes = (std::size_t(cols) * col_stride + n1) * sizeof(float2);

/// The lengths N this route takes: powers of two from 2^22 to 2^24, where it was measured
/// faster than evaluating first (bench_fft's fused rows on an H100: 0.90x the two steps' time at
/// 2^22, 0.78x at 2^24; 2^23, between them, not timed). At 2^26 it took 1.43x their time (not
/// analysed); 2^20 was not timed.
inline bool takes_length(index_t n) {
  return n >= (index_t(1) << 22) && n <= (index_t(1) << 24) && (n & (n - 1)) == 0;
}

__device__ inline float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
/// A forward 4-point DFT in place.
__device__ inline void dft4(float2& a, float2& b, float2& c, float2& d) {
  const float2 s0 = make_float2(a.x + c.x, a.y + c.y), s1 = make_float2(a.x - c.x, a.y - c.y);
  const float2 s2 = make_float2(b.x + d.x, b.y + d.y), s3 = make_float2(b.x - d.x, b.y - d.y);
  a = make_float2(s0.x + s2.x, s0.y + s2.y);
  c = make_float2(s0.x - s2.x, s0.y - s2.y);
  b = make_float2(s1.x + s3.y, s1.y - s3.x);  // s1 - i s3
  d = make_float2(s1.x - s3.y, s1.y + s3.x);  // s1 + i s3
}
/// W_16^k, k in [0, 16).
__device__ inline float2 w16(int k) {
  constexpr float c[16] = {1.f,         0.92387953f,  0.70710678f,  0.38268343f,
                           0.f,         -0.38268343f, -0.70710678f, -0.92387953f,
                           -1.f,        -0.92387953f, -0.70710678f, -0.38268343f,
                           0.f,         0.38268343f,  0.70710678f,  0.92387953f};
  return make_float2(c[k & 15], -c[(k + 12) & 15]);  // sin(2 pi k / 16) = cos(2 pi (k - 4) / 16)
}
/// A forward 16-point DFT in registers, as 4 x 4: v[k] becomes the k-th frequency.
__device__ inline void dft16(float2 (&v)[16]) {
#pragma unroll
  for (int a = 0; a < 4; ++a) dft4(v[a], v[a + 4], v[a + 8], v[a + 12]);
#pragma unroll
  for (int a = 1; a < 4; ++a)
#pragma unroll
    for (int c = 1; c < 4; ++c) v[a + 4 * c] = cmul(v[a + 4 * c], w16(a * c));
#pragma unroll
  for (int c = 0; c < 4; ++c) dft4(v[4 * c], v[4 * c + 1], v[4 * c + 2], v[4 * c + 3]);
  float2 o[16];
#pragma unroll
  for (int c = 0; c < 4; ++c)
#pragma unroll
    for (int d = 0; d < 4; ++d) o[c + 4 * d] = v[4 * c + d];
#pragma unroll
  for (int k = 0; k < 16; ++k) v[k] = o[k];
}

/// Element i of a bound 1-d expression as a complex64, times `scale` (32-bit offsets: run()
/// takes only operands whose reach allows them).
template <int N, class Tree> struct expression_load {
  Tree tree;
  slot_ptrs<N> ptrs;
  int step[N];  // each slot's stride
  float scale;
  __device__ float2 operator()(int i) const {
    int offs[N];
#pragma unroll
    for (int k = 0; k < N; ++k) offs[k] = i * step[k];
    const auto v = convert<std::complex<float>>(tree.eval(offset_indexer<N, int>{ptrs.p, offs}));
    return make_float2(v.real() * scale, v.imag() * scale);
  }
};

/// Pass A over the N2 = 2^log2_n2 columns: a cluster of 2 blocks a group of 8 columns. Thread
/// (r, c) of a block takes column c; the 4096-point DFT is three radix-16 steps (t = n1 mod 256
/// then the digits of n1 / 256 first), the first step's frequencies exchanged across the cluster,
/// the others through the block's own shared memory. Compiled for sm_90 and later only (the
/// host checks the binary before launching it).
template <class Load>
CUNP_KERNEL void __launch_bounds__(threads, 1)
    column_pass(Load load, float2* __restrict__ y, int log2_n2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  constexpr int T = 256 / cluster;
  extern __shared__ float2 smem[];
  float2* tw = smem + cols * col_stride;  // W_4096^k
  for (int i = threadIdx.x; i < n1; i += threads) {
    float s, c;
    sincospif(-float(i) / 2048.f, &s, &c);
    tw[i] = make_float2(c, s);
  }
  const auto p1 = [](int i) { return i + (i >> 8); };
  const auto p2 = [](int i) { return i + i / (16 * half); };
  cg::cluster_group grp = cg::this_cluster();
  const int rank = int(grp.block_rank());
  const int cc = threadIdx.x % cols, r = threadIdx.x / cols;
  const int n2 = int(blockIdx.x / cluster) * cols + cc;
  float2 v[16];
  grp.sync();  // every block of the cluster running, and the table written, before any exchange
  {
    const int t = rank * T + r;
#pragma unroll
    for (int j = 0; j < 16; ++j) v[j] = load(((t + 256 * j) << log2_n2) + n2);
    dft16(v);
#pragma unroll
    for (int a = 0; a < 16; ++a) {
      const float2 z = a == 0 ? v[a] : cmul(v[a], tw[t * a]);
      float2* dst = grp.map_shared_rank(smem, a / half) + cc * col_stride;
      dst[p1((a % half) * 256 + t)] = z;
    }
  }
  grp.sync();
  float2* col = smem + cc * col_stride;
  {
    const int s = r % 16, a = r / 16;  // a: this block's own, 0 .. half - 1
#pragma unroll
    for (int m = 0; m < 16; ++m) v[m] = col[p1(a * 256 + s + 16 * m)];
    dft16(v);
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 16; ++q)
      col[p2(s * 16 * half + q * half + a)] = q == 0 ? v[q] : cmul(v[q], tw[16 * s * q]);
  }
  __syncthreads();
  {
    const int a = r % half, q = r / half;
#pragma unroll
    for (int s = 0; s < 16; ++s) v[s] = col[p2(s * 16 * half + q * half + a)];
    dft16(v);
    const int mask = (1 << log2_n2) - 1;
    const float angle = -6.283185307179586f * ldexpf(1.f, -(12 + log2_n2));  // -2 pi / N
#pragma unroll
    for (int rr = 0; rr < 16; ++rr) {
      const int k1 = rank * half + a + 16 * q + 256 * rr;
      // W_N^m, m = n2 k1 = c N2 + b: W_4096^c times W_N^b, whose angle is under 2 pi / 4096,
      // by its Taylor terms (the first left out below 1e-16).
      const int m = n2 * k1;
      const float th = angle * float(m & mask), t2 = th * th;
      const float2 f = make_float2(1.f - t2 * (0.5f - t2 * (1.f / 24)),
                                   th * (1.f - t2 * (1.f / 6)));
      y[(k1 << log2_n2) + n2] = cmul(v[rr], cmul(tw[m >> log2_n2], f));
    }
  }
#else
  (void)load, (void)y, (void)log2_n2;
#endif
}

/// Pass A's kernel for expressions of type E.
template <class E>
inline constexpr auto kernel_for =
    &column_pass<expression_load<bound_expr<E>::N, typename bound_expr<E>::tree_type>>;

/// The four steps for the 1-d expression e of n = 4096 2^k points (3 <= k <= 15, any length
/// the kernel can count; fft() takes fewer), scaled by `scale`; nullopt on a device or binary
/// without clusters, or for an operand that reaches 2^31 elements or more (pass A counts
/// in 32 bits).
template <class E>
std::optional<ndarray<std::complex<float>>> run(const E& e, double scale) {
  using C = std::complex<float>;
  using Tree = typename bound_expr<E>::tree_type;
  constexpr int N = bound_expr<E>::N;
  constexpr auto kernel = kernel_for<E>;
  const index_t n = e.shape()[0];
  const int dev = e.device().index();
  device_scope scope(dev);
  // A binary with sm_90 code (one from older PTX holds the empty body) and the shared memory.
  if (!launches_clusters(dev) || !shared_memory_opt_in<kernel>(dev, smem_bytes, 90))
    return std::nullopt;
  const ndarray<C> y({n}, e.device());  // pass A's output, cuFFT's input
  const bound_expr<E> b(y, e);
  expression_load<N, Tree> load{b.tree, {}, {}, static_cast<float>(scale)};
  for (int k = 0; k < N; ++k) {
    const index_t step = b.layout.shape.ndim == 1 ? b.layout.strides[k][0] : 0;
    if ((n - 1) * std::abs(step) >= (index_t(1) << 31)) return std::nullopt;
    load.ptrs.p[k] = b.ctx.ptrs[k];
    load.step[k] = static_cast<int>(step);
  }
  int log2_n2 = 0;
  while ((index_t(n1) << log2_n2) < n) ++log2_n2;
  const index_t n2 = n / n1;

  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(n2 / cols * cluster));
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem_bytes;
  cfg.stream = current_stream(dev);
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster;
  attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  CUNP_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, load, reinterpret_cast<float2*>(y.data()),
                                     log2_n2));

  ndarray<C> out({n}, e.device());
  fft_layout L;
  L.n = L.inembed = L.onembed = {n2};
  L.istride = 1;
  L.idist = n2;
  L.ostride = n1;
  L.odist = 1;
  L.batch = n1;
  exec_fft<float>(dev, fft_kind::c2c, false, L, y.data(), out.data());
  return out;
}

/// The 1-d expression e's forward transform, scaled by `scale`, through the four steps; nullopt
/// where this route does not take it (its length, a GPU or binary without clusters, an operand
/// out of 32-bit reach).
template <class E>
std::optional<ndarray<std::complex<float>>> fft(const E& e, double scale) {
  if (!takes_length(e.shape()[0])) return std::nullopt;
  return run(e, scale);
}

}  // namespace cunp::detail::cuda::four_step

namespace cunp::detail {

/// The CUDA backend's fused route for fft of a 1-d complex64 expression (fft.hpp's
/// fft_of_expression): the four-step split where it takes the length.
template <class C, class E>
std::optional<ndarray<C>> fft_of_expression(cuda_backend, const E& e, double scale) {
  if constexpr (std::is_same_v<C, std::complex<float>>)
    return cuda::four_step::fft(e, scale);
  else
    return std::nullopt;
}

}  // namespace cunp::detail
