// Session 34 probe (issue 20): where the 0.5-0.9 us that cunp::matmul spends on the GPU beyond
// the raw cuBLAS call come from (bench_linalg, float16/bfloat16 1024: 0.93 of raw). Each row is
// the GPU time per call of 100 back-to-back calls queued behind a 3 ms hold kernel (launch
// hidden), median of 9 such loops:
//   raw          cublasGemmEx into one kept output (bench_linalg's raw row)
//   raw_pool     the same, its output taken from cunp's pool (cunp::empty) each call, freed after
//   raw_async    the same, its output from cudaMallocAsync / cudaFreeAsync on the stream
//   cunp         cunp::matmul(a, b) (bench_linalg's cunp row)
//   cunp_out     cunp::matmul(a, b, out) into one kept output
// Build: nvcc -std=c++20 --expt-relaxed-constexpr --extended-lambda -arch=sm_90 -O3 \
//   -I<tree>/include matmul_gap.cu -lcublas -lcusolver -lcufft -lcusparse -lcurand
#include <cunp/cunp.hpp>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <vector>

__global__ void hold(unsigned long long ns) {
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (;;) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 >= ns) break;
  }
}

template <class F> double per_call_us(cudaStream_t st, F f) {
  constexpr int calls = 100;
  for (int i = 0; i < 5; ++i) f();
  cudaDeviceSynchronize();
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> t;
  for (int r = 0; r < 9; ++r) {
    hold<<<1, 1, 0, st>>>(3'000'000);
    cudaEventRecord(a, st);
    for (int i = 0; i < calls; ++i) f();
    cudaEventRecord(b, st);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1e3 / calls);
  }
  std::sort(t.begin(), t.end());
  return t[4];
}

template <class T> void rows(const char* name, cudaDataType_t type, int n) {
  cudaStream_t st = cunp::detail::cuda::current_stream(0);
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetStream(h, st);
  const auto a = cunp::astype<T>(cunp::random::default_rng(1).random<float>({n, n}, cunp::cuda(0)));
  const auto b = cunp::astype<T>(cunp::random::default_rng(2).random<float>({n, n}, cunp::cuda(0)));
  auto x = cunp::eval(a), y = cunp::eval(b);
  auto c = cunp::empty<T>({n, n}, cunp::cuda(0));
  const float one = 1, zero = 0;
  const double s = 1, sz = 0;
  const bool f64 = std::is_same_v<T, double>;
  const cublasComputeType_t comp = f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  const void* al = f64 ? static_cast<const void*>(&s) : &one;
  const void* be = f64 ? static_cast<const void*>(&sz) : &zero;
  auto gemm = [&](void* out) {
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, al, y.data(), type, n, x.data(), type, n, be,
                 out, type, n, comp, CUBLAS_GEMM_DEFAULT);
  };
  const std::size_t bytes = std::size_t(n) * n * sizeof(T);
  std::printf("%s %d raw %.3f us\n", name, n, per_call_us(st, [&] { gemm(c.data()); }));
  std::printf("%s %d raw_pool %.3f us\n", name, n, per_call_us(st, [&] {
    auto o = cunp::empty<T>({n, n}, cunp::cuda(0));
    gemm(o.data());
  }));
  std::printf("%s %d raw_async %.3f us\n", name, n, per_call_us(st, [&] {
    void* p;
    cudaMallocAsync(&p, bytes, st);
    gemm(p);
    cudaFreeAsync(p, st);
  }));
  std::printf("%s %d cunp %.3f us\n", name, n, per_call_us(st, [&] { auto o = cunp::matmul(x, y); }));
  std::printf("%s %d cunp_out %.3f us\n", name, n, per_call_us(st, [&] { cunp::matmul(x, y, c); }));
  std::printf("%s %d raw %.3f us (again)\n", name, n, per_call_us(st, [&] { gemm(c.data()); }));
  cublasDestroy(h);
}

int main() {
  rows<cunp::float16>("float16", CUDA_R_16F, 1024);
  rows<cunp::bfloat16>("bfloat16", CUDA_R_16BF, 1024);
  rows<float>("float32", CUDA_R_32F, 1024);
  rows<double>("float64", CUDA_R_64F, 1024);
  rows<cunp::float16>("float16", CUDA_R_16F, 256);
}
