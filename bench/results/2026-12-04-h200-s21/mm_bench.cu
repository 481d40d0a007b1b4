// Ad-hoc: cunp::matmul against the raw cublasGemmEx on the same buffers (CUDA events, medians).
#include <cublas_v2.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "cunp/cunp.hpp"
template <class F> double median_ms(F&& f, int reps) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) { cudaEventRecord(a, cunp::detail::cuda::current_stream(0)); f(); cudaEventRecord(b, cunp::detail::cuda::current_stream(0)); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
template <class T> void row(const char* name, int n, int batch, cudaDataType_t dt, cublasComputeType_t ct, double flops_per) {
  const auto dev = cunp::cuda(0);
  cunp::shape_t s = batch > 1 ? cunp::shape_t{batch, n, n} : cunp::shape_t{n, n};
  auto a = cunp::ones<T>(s, dev), b = cunp::ones<T>(s, dev), c = cunp::zeros<T>(s, dev);
  const double flops = flops_per * double(n) * n * n * batch;
  const double cu = median_ms([&] { cunp::matmul(a, b, c); }, 20);
  cublasHandle_t h = cunp::detail::cuda::cublas_handle(0);
  using S = typename cunp::detail::cuda::blas_types<T>::scalar;
  S one(1), zero(0);
  const double raw = median_ms([&] { cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.data(), dt, n, (long long)n*n, a.data(), dt, n, (long long)n*n, &zero, c.data(), dt, n, (long long)n*n, batch, ct, CUBLAS_GEMM_DEFAULT); }, 20);
  std::printf("%-10s n=%5d batch=%4d  cunp %9.3f ms %7.1f TFLOP/s | raw %9.3f ms %7.1f TFLOP/s | ratio raw/cunp %.3f\n", name, n, batch, cu, flops/cu/1e9, raw, flops/raw/1e9, raw/cu);
}
int main() {
  using c64 = std::complex<float>;
  for (int n : {1024, 4096, 8192}) {
    row<cunp::float16>("float16", n, 1, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2);
    row<cunp::bfloat16>("bfloat16", n, 1, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2);
    row<float>("float32", n, 1, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2);
    row<double>("float64", n, 1, CUDA_R_64F, CUBLAS_COMPUTE_64F, 2);
    row<c64>("complex64", n, 1, CUDA_C_32F, CUBLAS_COMPUTE_32F, 8);
  }
  row<float>("float32", 256, 512, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2);
  row<cunp::float16>("float16", 256, 512, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2);
  row<double>("float64", 256, 512, CUDA_R_64F, CUBLAS_COMPUTE_64F, 2);
  { // host time of a 64 x 64 float32 matmul (allocation of the result included)
    auto a = cunp::ones<float>({64, 64}, cunp::cuda(0));
    for (int i = 0; i < 100; ++i) (void)cunp::matmul(a, a);
    cunp::synchronize();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) (void)cunp::matmul(a, a);
    auto t1 = std::chrono::steady_clock::now();
    cunp::synchronize();
    std::printf("host time per 64x64 float32 matmul: %.2f us\n", std::chrono::duration<double, std::micro>(t1 - t0).count() / 1000);
  }
  { cunp::matmul_precision_guard g(cunp::matmul_precision::tf32);
    row<float>("f32 tf32", 8192, 1, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 2); }
  { cunp::matmul_precision_guard g(cunp::matmul_precision::bf16x3);
    row<float>("f32 bf16x3", 8192, 1, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2); }
  for (int n : {1024, 4096}) {  // float64 solve / inv / det
    auto a = cunp::ndarray<double>(cunp::eye<double>(n, cunp::none, 0, cunp::cuda(0)) * double(n) + cunp::ones<double>({n, n}, cunp::cuda(0)));
    auto b = cunp::ones<double>({n, 1}, cunp::cuda(0));
    std::printf("float64 n=%d solve %.3f ms, inv %.3f ms, det %.3f ms\n", n,
      median_ms([&] { (void)cunp::linalg::solve(a, b); }, 5), median_ms([&] { (void)cunp::linalg::inv(a); }, 5), median_ms([&] { (void)cunp::linalg::det(a); }, 5));
  }
  { auto a = cunp::ndarray<float>(cunp::eye<float>(32, cunp::none, 0, cunp::cuda(0)) * 32.0f + cunp::ones<float>({4096, 32, 32}, cunp::cuda(0)));
    auto b = cunp::ones<float>({4096, 32, 1}, cunp::cuda(0));
    std::printf("float32 4096 x 32^2: solve %.3f ms, inv %.3f ms\n", median_ms([&] { (void)cunp::linalg::solve(a, b); }, 10), median_ms([&] { (void)cunp::linalg::inv(a); }, 10)); }
}
