// Probe: small matmul, cunp (tiled kernel below small_matmul_max, cuBLAS above) vs raw cublasGemmEx:
// host time per call (64-call batches, drained between) and GPU time of one call (events), f32 and f64.
#include <cunp/cunp.hpp>
#include <cunp/detail/cuda/linalg/matmul.cuh>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
using namespace cunp;
static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
template <class F> double host_us(F&& f) {
  std::vector<double> v;
  for (int r = 0; r < 30; ++r) { cudaDeviceSynchronize(); double t0 = now_us(); for (int i = 0; i < 64; ++i) f(); double t1 = now_us(); v.push_back((t1 - t0) / 64); }
  cudaDeviceSynchronize(); std::sort(v.begin(), v.end()); return v[v.size() / 2];
}
template <class F> double gpu_us(F&& f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); std::vector<float> v;
  for (int r = 0; r < 200; ++r) { cudaDeviceSynchronize(); cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); v.push_back(ms * 1e3f); }
  std::sort(v.begin(), v.end()); return v[v.size() / 2];
}
template <class F> double loop_us(F&& f) {  // throughput of 1000 back-to-back calls
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); cudaDeviceSynchronize(); cudaEventRecord(a);
  for (int i = 0; i < 1000; ++i) f();
  cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); return ms;  // ms per 1000 = us per call
}
template <class T> void run(const char* name, cublasHandle_t h, cudaDataType_t ty, cublasComputeType_t ct) {
  for (index_t n : {16, 32, 48, 64, 96, 128, 192, 256}) {
    auto dev = cunp::cuda(0);
    auto a = ones<T>({n, n}, dev), b = ones<T>({n, n}, dev), c = empty<T>({n, n}, dev);
    T one = 1, zero = 0; int m = int(n);
    auto raw = [&] { cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, b.data(), ty, m, a.data(), ty, m, &zero, c.data(), ty, m, ct, CUBLAS_GEMM_DEFAULT); };
    auto cun = [&] { auto r = matmul(a, b); (void)r; };
    auto tiled = [&] { detail::cuda::tiled_matmul(c, a, b); };
    cublasSetStream(h, detail::cuda::current_stream(0));
    for (int w = 0; w < 50; ++w) { raw(); cun(); tiled(); }
    printf("%s n=%3ld  host us: cunp %6.2f raw %6.2f tiled %6.2f | gpu us (one call): cunp %6.2f raw %6.2f tiled %6.2f | loop us/call: cunp %6.2f raw %6.2f tiled %6.2f\n",
           name, (long)n, host_us(cun), host_us(raw), host_us(tiled), gpu_us(cun), gpu_us(raw), gpu_us(tiled), loop_us(cun), loop_us(raw), loop_us(tiled));
  }
}
int main() {
  cublasHandle_t h; cublasCreate(&h);
  run<float>("f32", h, CUDA_R_32F, CUBLAS_COMPUTE_32F);
  run<double>("f64", h, CUDA_R_64F, CUBLAS_COMPUTE_64F);
  auto dev = cunp::cuda(0);
  auto x = ones<float>({1000}, dev);
  printf("empty-ish launch host: add f32 n=1000 %.2f us\n", host_us([&] { auto r = eval(x + x); (void)r; }));
  return 0;
}
