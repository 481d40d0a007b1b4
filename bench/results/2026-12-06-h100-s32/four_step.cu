// Probe (issue 21, fft(a * window) <= 1.1 fft(a)): would a four-step split with the multiply in
// a first pass of cunp's own reach it? x of length N = N1 * N2 by decimation in frequency:
//   pass A (ours): y[k1][n2] = W_N^(n2 k1) * sum_n1 x[n2 + N2 n1] w[n2 + N2 n1] W_N1^(n1 k1)
//   pass B (cuFFT): X[k1 + N1 k2] = sum_n2 y[k1][n2] W_N2^(n2 k2): a batch of N1 rows of N2,
//                   read contiguous, written at stride N1 (ostride N1, odist 1).
// Times, CUDA events, median of 21 after 3 warm-ups: the single 2^24 plan, the batch with
// natural and with strided output, the multiply pass alone, and pass A for N1 = 16 (a 16-point
// DFT a thread) and for N1 = 4096 (pass_a4096: 4 columns a block; pass_a4096_cluster: 8
// columns over a cluster of 2 or 4 blocks; pass_a4096_cluster_smem: the same with its twiddle
// table in shared memory), checked against the single plan's result. Calls 2 to 4 ran its forms
// as they were then (ncu of call 4's in call 5); the thirty-fourth session ran this file
// (results/2026-12-07-h100-s34/c1_fft.txt).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 four_step.cu -lcufft -o four_step
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#define CK(x)                                                                    \
  do {                                                                           \
    auto e_ = (x);                                                               \
    if (e_ != 0) {                                                               \
      std::printf("%s:%d error %d\n", __FILE__, __LINE__, int(e_));              \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

static float time_us(const std::function<void()>& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < 21; ++i) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

__global__ void multiply(const float2* x, const float* w, float2* y, long n) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const float2 v = x[i];
    const float s = w[i];
    y[i] = make_float2(v.x * s, v.y * s);
  }
}

// Pass A for N1 = 16: a thread per n2, the 16-point DFT as radix 4 x 4 in registers.
__device__ inline float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ inline void dft4(float2& a, float2& b, float2& c, float2& d) {
  // forward: e^{-2 pi i jk / 4}
  const float2 s0 = make_float2(a.x + c.x, a.y + c.y), s1 = make_float2(a.x - c.x, a.y - c.y);
  const float2 s2 = make_float2(b.x + d.x, b.y + d.y), s3 = make_float2(b.x - d.x, b.y - d.y);
  a = make_float2(s0.x + s2.x, s0.y + s2.y);
  c = make_float2(s0.x - s2.x, s0.y - s2.y);
  b = make_float2(s1.x + s3.y, s1.y - s3.x);  // s1 - i s3
  d = make_float2(s1.x - s3.y, s1.y + s3.x);  // s1 + i s3
}
__global__ void pass_a16(const float2* __restrict__ x, const float* __restrict__ w,
                         float2* __restrict__ y, long n2) {
  const long N = 16 * n2;
  for (long j = blockIdx.x * long(blockDim.x) + threadIdx.x; j < n2; j += long(gridDim.x) * blockDim.x) {
    float2 v[16];
#pragma unroll
    for (int t = 0; t < 16; ++t) {
      const float2 u = x[j + n2 * t];
      const float s = w[j + n2 * t];
      v[t] = make_float2(u.x * s, u.y * s);
    }
    // n1 = a + 4 b, k1 = c + 4 d: first DFT over b (stride 4) for each a, twiddle W16^(a c),
    // then DFT over a.
#pragma unroll
    for (int a = 0; a < 4; ++a) dft4(v[a], v[a + 4], v[a + 8], v[a + 12]);  // v[a + 4c] = Z[a][c]
#pragma unroll
    for (int a = 1; a < 4; ++a)
#pragma unroll
      for (int c = 1; c < 4; ++c) {
        float sn, cs;
        sincospif(-2.0f * a * c / 16.0f, &sn, &cs);
        v[a + 4 * c] = cmul(v[a + 4 * c], make_float2(cs, sn));
      }
#pragma unroll
    for (int c = 0; c < 4; ++c) dft4(v[4 * c], v[4 * c + 1], v[4 * c + 2], v[4 * c + 3]);
    // v[4c + d] = Y[k1 = c + 4 d]; twiddle W_N^(j k1), store row k1.
#pragma unroll
    for (int c = 0; c < 4; ++c)
#pragma unroll
      for (int d = 0; d < 4; ++d) {
        const int k1 = c + 4 * d;
        float sn, cs;
        // angle -2 pi j k1 / N, reduced exactly: (j k1 mod N) / N
        const long r = (j * k1) % N;
        sincospif(-2.0 * double(r) / double(N), &sn, &cs);
        y[k1 * n2 + j] = cmul(v[4 * c + d], make_float2(cs, sn));
      }
  }
}

// Pass A for N1 = 4096 (N2 = 4096): a block takes COLS adjacent columns of the 4096 x 4096
// matrix x[n1][n2] (n = n2 + 4096 n1), COLS * 256 threads, 16 elements a thread, the column DFT
// of 4096 = 16 x 16 x 16 in three radix-16 steps with two exchanges through shared memory.
// Threads run the column index fastest, so a warp reads and writes 8 rows of 4 columns (whole
// 32-byte sectors when COLS = 4). Shared memory: a column's 4096 items with one pad after every
// 256 and 4 more per column, so half-warps of (column, consecutive index) are conflict-free.
__device__ inline float2 w16(int k) {  // W_16^k, k in [0, 16)
  const float c[16] = {1.f, 0.92387953f, 0.70710678f, 0.38268343f, 0.f, -0.38268343f, -0.70710678f,
                       -0.92387953f, -1.f, -0.92387953f, -0.70710678f, -0.38268343f, 0.f,
                       0.38268343f, 0.70710678f, 0.92387953f};
  return make_float2(c[k & 15], -c[(k + 12) & 15]);  // sin(2 pi k / 16) = cos(2 pi (k - 4) / 16)
}
__device__ inline void dft16(float2 (&v)[16]) {
  // n = a + 4 b, k = c + 4 d: DFTs over b, twiddles W16^(a c), DFTs over a, out[c + 4 d].
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
__device__ inline int phys(int i) { return i + (i >> 8); }
template <int COLS>
__global__ __launch_bounds__(COLS * 256, 1024 / (COLS * 256) > 0 ? 1024 / (COLS * 256) : 1)
void pass_a4096(const float2* __restrict__ x, const float* __restrict__ w, float2* __restrict__ y,
                const float2* __restrict__ coarse, const float2* __restrict__ fine, bool window) {
  extern __shared__ float2 S[];
  constexpr int stride = 4096 + 16 + 4;
  const int tid = threadIdx.x, cc = tid % COLS, r = tid / COLS;
  float2* col = S + cc * stride;
  const int n2 = blockIdx.x * COLS + cc;
  float2 v[16];
  // step 1: thread (cc, t), n1 = t + 256 j
  {
    const int t = r;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      const long i = long(t + 256 * j) * 4096 + n2;
      const float2 u = x[i];
      const float s = window ? w[i] : 1.f;
      v[j] = make_float2(u.x * s, u.y * s);
    }
    dft16(v);
#pragma unroll
    for (int a = 0; a < 16; ++a) col[phys(a * 256 + t)] = a == 0 ? v[a] : cmul(v[a], coarse[t * a]);
  }
  __syncthreads();
  // step 2: thread (cc, s, a): t = s + 16 m
  {
    const int s = r % 16, a = r / 16;
#pragma unroll
    for (int m = 0; m < 16; ++m) v[m] = col[phys(a * 256 + s + 16 * m)];
    dft16(v);
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 16; ++q)
      col[phys(s * 256 + q * 16 + a)] = q == 0 ? v[q] : cmul(v[q], coarse[16 * s * q]);
  }
  __syncthreads();
  // step 3: thread (cc, a, q): DFT over s, k1 = a + 16 q + 256 r
  {
    const int a = r % 16, q = r / 16;
#pragma unroll
    for (int s = 0; s < 16; ++s) v[s] = col[phys(s * 256 + q * 16 + a)];
    dft16(v);
#pragma unroll
    for (int rr = 0; rr < 16; ++rr) {
      const int k1 = a + 16 * q + 256 * rr;
      const int m = n2 * k1;  // < 2^24
      const float2 t = cmul(coarse[m >> 12], fine[m & 4095]);
      y[long(k1) * 4096 + n2] = cmul(v[rr], t);
    }
  }
}

// The same column pass with 8 columns (64-byte row pieces) over a cluster of CL blocks on CL
// SMs: block `rank` loads t in [rank T, rank T + T) (T = 256 / CL) of its 8 columns, and after
// the first radix-16 step sends frequency a to block a / A (A = 16 / CL) through distributed
// shared memory; each block then finishes the 256-point DFTs of its A values of a alone.
// CL = 2: 1024 threads and 129 KiB a block (one an SM); CL = 4: 512 threads and 65 KiB (two).
template <int CL> struct cluster_shape {
  static constexpr int A = 16 / CL, threads = 2048 / CL, per_col = 256 * A + 16;
  static constexpr int stride = per_col + ((2 - per_col % 16) + 16) % 16;  // = 2 (mod 16)
};
template <int CL>
__global__ void __cluster_dims__(CL, 1, 1) __launch_bounds__(2048 / CL, CL / 2)
pass_a4096_cluster(const float2* __restrict__ x, const float* __restrict__ w,
                   float2* __restrict__ y, const float2* __restrict__ coarse,
                   const float2* __restrict__ fine, bool window) {
  namespace cg = cooperative_groups;
  using C = cluster_shape<CL>;
  constexpr int A = C::A, T = 256 / CL;
  extern __shared__ float2 S[];
  const auto p1 = [](int i) { return i + (i >> 8); };
  const auto p2 = [](int i) { return i + i / (16 * A); };
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());
  const int tid = threadIdx.x, cc = tid % 8, r = tid / 8;
  const int n2 = (blockIdx.x / CL) * 8 + cc;
  float2 v[16];
  cluster.sync();  // every block running before any writes into another
  {
    const int t = rank * T + r;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      const long i = long(t + 256 * j) * 4096 + n2;
      const float2 u = x[i];
      const float s = window ? w[i] : 1.f;
      v[j] = make_float2(u.x * s, u.y * s);
    }
    dft16(v);
#pragma unroll
    for (int a = 0; a < 16; ++a) {
      const float2 z = a == 0 ? v[a] : cmul(v[a], coarse[t * a]);
      float2* dst = cluster.map_shared_rank(S, a / A) + cc * C::stride;
      dst[p1((a % A) * 256 + t)] = z;
    }
  }
  cluster.sync();
  float2* col = S + cc * C::stride;
  {
    const int s = r % 16, a = r / 16;  // a: local, 0 .. A - 1
#pragma unroll
    for (int m = 0; m < 16; ++m) v[m] = col[p1(a * 256 + s + 16 * m)];
    dft16(v);
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 16; ++q)
      col[p2(s * 16 * A + q * A + a)] = q == 0 ? v[q] : cmul(v[q], coarse[16 * s * q]);
  }
  __syncthreads();
  {
    const int a = r % A, q = r / A;
#pragma unroll
    for (int s = 0; s < 16; ++s) v[s] = col[p2(s * 16 * A + q * A + a)];
    dft16(v);
#pragma unroll
    for (int rr = 0; rr < 16; ++rr) {
      const int k1 = rank * A + a + 16 * q + 256 * rr;
      const int m = n2 * k1;
      const float2 tw = cmul(coarse[m >> 12], fine[m & 4095]);
      y[long(k1) * 4096 + n2] = cmul(v[rr], tw);
    }
  }
}

// As pass_a4096_cluster, with the W_4096 table in shared memory and W_N^b (b < 4096) by a
// polynomial: no twiddle read through L1.
template <int CL>
__global__ void __cluster_dims__(CL, 1, 1) __launch_bounds__(2048 / CL, CL / 2)
pass_a4096_cluster_smem(const float2* __restrict__ x, const float* __restrict__ w,
                   float2* __restrict__ y, const float2* __restrict__ coarse,
                   const float2* __restrict__ fine, bool window) {
  namespace cg = cooperative_groups;
  using C = cluster_shape<CL>;
  constexpr int A = C::A, T = 256 / CL;
  extern __shared__ float2 S[];
  float2* tw = S + 8 * C::stride;  // W_4096^k, copied from coarse
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) tw[i] = coarse[i];
  __syncthreads();
  const auto p1 = [](int i) { return i + (i >> 8); };
  const auto p2 = [](int i) { return i + i / (16 * A); };
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());
  const int tid = threadIdx.x, cc = tid % 8, r = tid / 8;
  const int n2 = (blockIdx.x / CL) * 8 + cc;
  float2 v[16];
  cluster.sync();  // every block running before any writes into another
  {
    const int t = rank * T + r;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      const long i = long(t + 256 * j) * 4096 + n2;
      const float2 u = x[i];
      const float s = window ? w[i] : 1.f;
      v[j] = make_float2(u.x * s, u.y * s);
    }
    dft16(v);
#pragma unroll
    for (int a = 0; a < 16; ++a) {
      const float2 z = a == 0 ? v[a] : cmul(v[a], tw[t * a]);
      float2* dst = cluster.map_shared_rank(S, a / A) + cc * C::stride;
      dst[p1((a % A) * 256 + t)] = z;
    }
  }
  cluster.sync();
  float2* col = S + cc * C::stride;
  {
    const int s = r % 16, a = r / 16;  // a: local, 0 .. A - 1
#pragma unroll
    for (int m = 0; m < 16; ++m) v[m] = col[p1(a * 256 + s + 16 * m)];
    dft16(v);
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 16; ++q)
      col[p2(s * 16 * A + q * A + a)] = q == 0 ? v[q] : cmul(v[q], tw[16 * s * q]);
  }
  __syncthreads();
  {
    const int a = r % A, q = r / A;
#pragma unroll
    for (int s = 0; s < 16; ++s) v[s] = col[p2(s * 16 * A + q * A + a)];
    dft16(v);
#pragma unroll
    for (int rr = 0; rr < 16; ++rr) {
      const int k1 = rank * A + a + 16 * q + 256 * rr;
      const int m = n2 * k1;
      // W_N^(m & 4095): an angle under 2 pi 2^-12, by its Taylor terms (error < 1e-12)
      const float th = -6.28318530718f / 16777216.f * float(m & 4095), t2 = th * th;
      const float2 f = make_float2(1.f - t2 * (0.5f - t2 * (1.f / 24)), th * (1.f - t2 * (1.f / 6)));
      y[long(k1) * 4096 + n2] = cmul(v[rr], cmul(tw[m >> 12], f));
    }
  }
}

int main() {
  const long N = 1L << 24;
  float2 *x, *y, *z, *ref;
  float* w;
  CK(cudaMalloc(&x, N * 8));
  CK(cudaMalloc(&y, N * 8));
  CK(cudaMalloc(&z, N * 8));
  CK(cudaMalloc(&ref, N * 8));
  CK(cudaMalloc(&w, N * 4));
  {
    std::vector<float2> hx(N);
    std::vector<float> hw(N);
    unsigned s = 1;
    for (long i = 0; i < N; ++i) {
      s = s * 1664525u + 1013904223u;
      hx[i].x = (s >> 8) * (1.0f / 16777216) - 0.5f;
      s = s * 1664525u + 1013904223u;
      hx[i].y = (s >> 8) * (1.0f / 16777216) - 0.5f;
      hw[i] = 0.5f - 0.5f * std::cos(2 * M_PI * i / N);
    }
    CK(cudaMemcpy(x, hx.data(), N * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(w, hw.data(), N * 4, cudaMemcpyHostToDevice));
  }
  // copy ceiling
  const float copy = time_us([&] { cudaMemcpyAsync(y, x, N * 8, cudaMemcpyDeviceToDevice); });
  std::printf("copy 128 MiB d2d: %.1f us (%.0f GB/s read+write)\n", copy, 2 * N * 8 / copy / 1e3);

  cufftHandle single;
  CK(cufftPlan1d(&single, int(N), CUFFT_C2C, 1));
  const float t0 = time_us([&] { cufftExecC2C(single, (cufftComplex*)x, (cufftComplex*)y, CUFFT_FORWARD); });
  const float tm = time_us([&] { multiply<<<132 * 16, 256>>>(x, w, z, N); });
  const float t1 = time_us([&] {
    multiply<<<132 * 16, 256>>>(x, w, z, N);
    cufftExecC2C(single, (cufftComplex*)z, (cufftComplex*)y, CUFFT_FORWARD);
  });
  std::printf("fft(a) 2^24: %.1f us; multiply pass %.1f us; two-step fft(a*w) %.1f us (%.2fx); "
              "1.1x = %.1f us\n", t0, tm, t1, t1 / t0, 1.1 * t0);
  // reference of fft(a*w)
  multiply<<<132 * 16, 256>>>(x, w, z, N);
  cufftExecC2C(single, (cufftComplex*)z, (cufftComplex*)ref, CUFFT_FORWARD);

  for (long n1 : {16L, 64L, 256L, 1024L, 4096L}) {
    const long n2 = N / n1;
    long long nn[1] = {n2};
    cufftHandle natural, strided;
    size_t ws;
    CK(cufftCreate(&natural));
    CK(cufftCreate(&strided));
    CK(cufftMakePlanMany64(natural, 1, nn, nullptr, 1, n2, nullptr, 1, n2, CUFFT_C2C, n1, &ws));
    long long inembed[1] = {n2}, onembed[1] = {n2};
    CK(cufftMakePlanMany64(strided, 1, nn, inembed, 1, n2, onembed, n1, 1, CUFFT_C2C, n1, &ws));
    const float tn = time_us([&] { cufftExecC2C(natural, (cufftComplex*)x, (cufftComplex*)y, CUFFT_FORWARD); });
    const float ts = time_us([&] { cufftExecC2C(strided, (cufftComplex*)x, (cufftComplex*)y, CUFFT_FORWARD); });
    std::printf("N1 %5ld x N2 %8ld: batch natural out %.1f us, strided out (ostride N1) %.1f us\n",
                n1, n2, tn, ts);
    if (n1 == 16) {
      const float ta = time_us([&] { pass_a16<<<132 * 8, 256>>>(x, w, z, n2); });
      const float tab = time_us([&] {
        pass_a16<<<132 * 8, 256>>>(x, w, z, n2);
        cufftExecC2C(strided, (cufftComplex*)z, (cufftComplex*)y, CUFFT_FORWARD);
      });
      std::vector<float2> a(N), b(N);
      CK(cudaMemcpy(a.data(), y, N * 8, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(b.data(), ref, N * 8, cudaMemcpyDeviceToHost));
      double e = 0, r = 0;
      for (long i = 0; i < N; ++i) {
        e += std::pow(double(a[i].x) - b[i].x, 2) + std::pow(double(a[i].y) - b[i].y, 2);
        r += std::pow(double(b[i].x), 2) + std::pow(double(b[i].y), 2);
      }
      std::printf("  pass A (16-point DFTs, window, twiddles) %.1f us; A + strided B %.1f us "
                  "(%.2fx fft(a)); relative RMS against the two-step result %.2e\n",
                  ta, tab, tab / t0, std::sqrt(e / r));
    }
    cufftDestroy(natural);
    cufftDestroy(strided);
  }
  {
    // twiddle tables: coarse[k] = W_4096^k, fine[b] = W_(2^24)^b
    std::vector<float2> hc(4096), hf(4096);
    for (int k = 0; k < 4096; ++k) {
      hc[k] = make_float2(float(std::cos(2 * M_PI * k / 4096)), float(-std::sin(2 * M_PI * k / 4096)));
      hf[k] = make_float2(float(std::cos(2 * M_PI * k / double(N))), float(-std::sin(2 * M_PI * k / double(N))));
    }
    float2 *coarse, *fine;
    CK(cudaMalloc(&coarse, 4096 * 8));
    CK(cudaMalloc(&fine, 4096 * 8));
    CK(cudaMemcpy(coarse, hc.data(), 4096 * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(fine, hf.data(), 4096 * 8, cudaMemcpyHostToDevice));
    long long nn[1] = {4096}, em[1] = {4096};
    cufftHandle b;
    size_t ws;
    CK(cufftCreate(&b));
    CK(cufftMakePlanMany64(b, 1, nn, em, 1, 4096, em, 4096, 1, CUFFT_C2C, 4096, &ws));
    const auto check = [&](const float2* want) {
      std::vector<float2> a(N), c(N);
      CK(cudaMemcpy(a.data(), y, N * 8, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(c.data(), want, N * 8, cudaMemcpyDeviceToHost));
      double e = 0, r = 0;
      for (long i = 0; i < N; ++i) {
        e += std::pow(double(a[i].x) - c[i].x, 2) + std::pow(double(a[i].y) - c[i].y, 2);
        r += std::pow(double(c[i].x), 2) + std::pow(double(c[i].y), 2);
      }
      return std::sqrt(e / r);
    };
    auto run = [&](auto kernel, int cols, const char* name) {
      // cols < 0: the cluster kernel over -cols blocks for 8 columns
      const int cl = cols < 0 ? -cols : 0;
      const int smem = cl == 2   ? 8 * cluster_shape<2>::stride * 8 + 4096 * 8
                       : cl == 4 ? 8 * cluster_shape<4>::stride * 8 + 4096 * 8
                                 : cols * (4096 + 16 + 4) * 8;
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      const int grid = cl ? 512 * cl : 4096 / cols, block = cl ? 2048 / cl : cols * 256;
      const float ta = time_us([&] { kernel<<<grid, block, smem>>>(x, w, z, coarse, fine, true); });
      const float tab = time_us([&] {
        kernel<<<grid, block, smem>>>(x, w, z, coarse, fine, true);
        cufftExecC2C(b, (cufftComplex*)z, (cufftComplex*)y, CUFFT_FORWARD);
      });
      CK(cudaGetLastError());
      const double err = check(ref);
      const float tp = time_us([&] {
        kernel<<<grid, block, smem>>>(x, w, z, coarse, fine, false);
        cufftExecC2C(b, (cufftComplex*)z, (cufftComplex*)y, CUFFT_FORWARD);
      });
      cufftExecC2C(single, (cufftComplex*)x, (cufftComplex*)ref, CUFFT_FORWARD);
      const double err2 = check(ref);
      std::printf("4096 x 4096, %s: pass A %.1f us (%.2f of the copy's rate for 320 MB); A + B "
                  "(fft(a*w)) %.1f us = %.2fx fft(a), rel RMS %.2e; without the window (fft(a)) "
                  "%.1f us = %.2fx, rel RMS %.2e\n",
                  name, ta, (320.0 / 256.0) * copy / ta, tab, tab / t0, err, tp, tp / t0, err2);
      // restore ref = fft(a*w)
      multiply<<<132 * 16, 256>>>(x, w, z, N);
      cufftExecC2C(single, (cufftComplex*)z, (cufftComplex*)ref, CUFFT_FORWARD);
    };
    run(pass_a4096_cluster_smem<4>, -4, "8 columns a cluster of 4 blocks, twiddles in shared memory");
    run(pass_a4096_cluster_smem<2>, -2, "8 columns a cluster of 2 blocks, twiddles in shared memory");
    run(pass_a4096_cluster<2>, -2, "8 columns a cluster of 2 blocks (1024 threads each)");
    run(pass_a4096_cluster<4>, -4, "8 columns a cluster of 4 blocks (512 threads each)");
    run(pass_a4096<4>, 4, "4 columns a block (1024 threads)");
  }
  return 0;
}
