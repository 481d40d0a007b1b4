// Probe: cusolverDnXgetrf with CUSOLVER_ALG_0 / ALG_1 (public cusolverDnSetAdvOptions), float64/float32.
#include <cusolverDn.h>
#include <cublas_v2.h>
#include <curand.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { auto s_ = (x); if ((int)s_ != 0) { printf("error %d at %s:%d\n", (int)s_, __FILE__, __LINE__); return 1; } } while (0)
template <class T> int run(cusolverDnHandle_t h, cudaDataType_t ty, int n, int alg, const char* name) {
  cusolverDnParams_t p; CK(cusolverDnCreateParams(&p));
  if (cusolverDnSetAdvOptions(p, CUSOLVERDN_GETRF, (cusolverAlgMode_t)alg) != CUSOLVER_STATUS_SUCCESS) { printf("%s n=%d alg%d: not accepted\n", name, n, alg); return 0; }
  T *a, *w; int64_t* piv; int* info;
  size_t bytes = size_t(n) * n * sizeof(T);
  cudaMalloc(&a, bytes); cudaMalloc(&w, bytes); cudaMalloc(&piv, n * 8); cudaMalloc(&info, 4);
  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  if constexpr (sizeof(T) == 8) curandGenerateUniformDouble(g, (double*)w, size_t(n) * n); else curandGenerateUniform(g, (float*)w, size_t(n) * n);
  size_t db = 0, hb = 0;
  CK(cusolverDnXgetrf_bufferSize(h, p, n, n, ty, a, n, ty, &db, &hb));
  void* dw; cudaMalloc(&dw, db + 1); std::vector<char> hw(hb + 1);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ts;
  for (int it = 0; it < 9; ++it) {
    cudaMemcpy(a, w, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e0);
    CK(cusolverDnXgetrf(h, p, n, n, ty, a, n, piv, ty, dw, db, hw.data(), hb, info));
    cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); if (it >= 2) ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  int hinfo; cudaMemcpy(&hinfo, info, 4, cudaMemcpyDeviceToHost);
  double fl = 2.0 / 3.0 * double(n) * n * n;
  printf("%s getrf n=%d alg%d: median %.3f ms (%.2f TFLOP/s) info %d\n", name, n, alg, ts[ts.size() / 2], fl / ts[ts.size() / 2] * 1e-9, hinfo);
  cudaFree(a); cudaFree(w); cudaFree(piv); cudaFree(info); cudaFree(dw); curandDestroyGenerator(g); cusolverDnDestroyParams(p);
  return 0;
}
int main() {
  cusolverDnHandle_t h; cusolverDnCreate(&h);
  for (int n : {256, 512, 1024, 2048, 4096, 8192})
    for (int alg : {0, 1, 2}) { run<double>(h, CUDA_R_64F, n, alg, "f64"); }
  for (int n : {1024, 4096})
    for (int alg : {0, 1}) { run<float>(h, CUDA_R_32F, n, alg, "f32"); }
  // dgemm ceiling
  cublasHandle_t b; cublasCreate(&b);
  for (int n : {512, 1024, 2048, 4096}) {
    double *x; cudaMalloc(&x, size_t(n) * n * 8 * 3); double one = 1, zero = 0;
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1); std::vector<float> ts;
    for (int it = 0; it < 9; ++it) { cudaEventRecord(e0); cublasDgemm(b, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, x, n, x + size_t(n) * n, n, &zero, x + 2 * size_t(n) * n, n); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); if (it >= 2) ts.push_back(ms); }
    std::sort(ts.begin(), ts.end()); printf("dgemm n=%d: %.3f ms %.1f TFLOP/s\n", n, ts[3], 2.0 * n * n * double(n) / ts[3] * 1e-9); cudaFree(x);
  }
  return 0;
}
