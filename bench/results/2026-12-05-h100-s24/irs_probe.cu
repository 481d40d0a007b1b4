// What cusolverDnIRSXgesv reports for a singular float64 matrix, per lowest precision.
#include <cusolverDn.h>
#include <cstdio>
#include <vector>
int main() {
  cusolverDnHandle_t h; cusolverDnCreate(&h);
  const cusolverPrecType_t lows[] = {CUSOLVER_R_32F, CUSOLVER_R_TF32, CUSOLVER_R_16BF, CUSOLVER_R_16F, CUSOLVER_R_64F, CUSOLVER_R_32F};
  const char* names[] = {"32F", "TF32", "16BF", "16F", "64F", "32F again"};
  for (int n : {3, 2, 40}) {
    std::vector<double> ha(n * n, 1.0), hb(n, 1.0);
    if (n == 40) for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) ha[i + j * n] = (i % 2) * 1.0 + j;  // rank 2
    double *a, *b, *x; int* info; void* w;
    cudaMalloc(&a, 8 * n * n); cudaMalloc(&b, 8 * n); cudaMalloc(&x, 8 * n); cudaMalloc(&info, 4);
    for (int k = 0; k < 6; ++k) {
      cusolverDnIRSParams_t p; cusolverDnIRSParamsCreate(&p);
      cusolverDnIRSParamsSetSolverPrecisions(p, CUSOLVER_R_64F, lows[k]);
      cusolverDnIRSParamsSetRefinementSolver(p, CUSOLVER_IRS_REFINE_CLASSICAL);
      cusolverDnIRSParamsSetMaxIters(p, 50);
      cusolverDnIRSParamsEnableFallback(p);
      cusolverDnIRSInfos_t inf; cusolverDnIRSInfosCreate(&inf);
      size_t bytes = 0; cusolverDnIRSXgesv_bufferSize(h, p, n, 1, &bytes); cudaMalloc(&w, bytes);
      cudaMemcpy(a, ha.data(), 8 * n * n, cudaMemcpyHostToDevice); cudaMemcpy(b, hb.data(), 8 * n, cudaMemcpyHostToDevice);
      cudaMemset(info, 0xff, 4);
      int it = 0;
      cusolverStatus_t s = cusolverDnIRSXgesv(h, p, inf, n, 1, a, n, b, n, x, n, w, bytes, &it, info);
      int hi = 0; cudaMemcpy(&hi, info, 4, cudaMemcpyDeviceToHost);
      std::vector<double> hx(n); cudaMemcpy(hx.data(), x, 8 * n, cudaMemcpyDeviceToHost);
      int outer = 0; cusolverDnIRSInfosGetOuterNiters(inf, &outer);
      std::printf("n=%d low=%-9s status=%d niters=%d outer=%d info=%d x0=%g a00=%g\n", n, names[k], (int)s, it, outer, hi, hx[0], 0.0);
      cudaFree(w); cusolverDnIRSInfosDestroy(inf); cusolverDnIRSParamsDestroy(p);
    }
  }
  return 0;
}
