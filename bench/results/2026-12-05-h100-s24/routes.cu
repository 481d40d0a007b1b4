// Ad-hoc: which cuSOLVER route for cunp's decompositions (raw calls, no cunp), CUDA events, median.
// Build: nvcc -O2 -std=c++17 -arch=sm_90 routes.cu -lcusolver -lcublas -o routes
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(x) do { auto s_ = (x); if (static_cast<int>(s_) != 0) { std::printf("FAIL %s = %d (line %d)\n", #x, static_cast<int>(s_), __LINE__); std::exit(1); } } while (0)

static cusolverDnHandle_t sh;
static cublasHandle_t bh;
static cusolverDnParams_t prm;

double median_ms(const std::function<void()>& f, int reps) {
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  f(); CK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T> __global__ void fill_random(T* a, long long n, unsigned long long seed) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; z ^= z >> 31;
  a[i] = T(double(z >> 11) * 0x1.0p-53 * 2 - 1);
}
// a (count, n, n) := a a^T / n + I for each matrix (symmetric positive definite), via gemm outside.
template <class T> __global__ void add_identity(T* a, int n, long long count) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= count * n) return;
  long long z = i / n, d = i % n;
  a[z * n * n + d * n + d] += T(1);
}
template <class T> T* dalloc(long long n) { T* p; CK(cudaMalloc(&p, n * sizeof(T))); return p; }
template <class T> T* random_matrix(long long total, unsigned long long seed) {
  T* p = dalloc<T>(total);
  fill_random<T><<<(total + 255) / 256, 256>>>(p, total, seed);
  return p;
}
// SPD batch: b = r r^T / n + I
template <class T> T* spd(int n, int count, unsigned long long seed) {
  T* r = random_matrix<T>((long long)n * n * count, seed);
  T* b = dalloc<T>((long long)n * n * count);
  const T alpha = T(1) / n, beta = 0;
  if constexpr (sizeof(T) == 8)
    CK(cublasDgemmStridedBatched(bh, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, r, n, (long long)n * n, r, n, (long long)n * n, &beta, b, n, (long long)n * n, count));
  else
    CK(cublasSgemmStridedBatched(bh, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, r, n, (long long)n * n, r, n, (long long)n * n, &beta, b, n, (long long)n * n, count));
  add_identity<T><<<((long long)count * n + 255) / 256, 256>>>(b, n, count);
  cudaFree(r);
  return b;
}

template <class T> constexpr cudaDataType_t dtype() { return sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F; }

template <class T> void potrf_fill(int n) {
  T* a0 = spd<T>(n, 1, 1);
  T* a = dalloc<T>((long long)n * n);
  int* info = dalloc<int>(1);
  for (auto fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
    size_t db = 0, hb = 0;
    CK(cusolverDnXpotrf_bufferSize(sh, prm, fill, n, dtype<T>(), a, n, dtype<T>(), &db, &hb));
    void* dw = dalloc<char>(db + 1);
    std::vector<char> hw(hb + 1);
    double ms = median_ms([&] {
      cudaMemcpyAsync(a, a0, sizeof(T) * n * n, cudaMemcpyDeviceToDevice);
      CK(cusolverDnXpotrf(sh, prm, fill, n, dtype<T>(), a, n, dtype<T>(), dw, db, hw.data(), hb, info));
    }, 7);
    double copy = median_ms([&] { cudaMemcpyAsync(a, a0, sizeof(T) * n * n, cudaMemcpyDeviceToDevice); }, 7);
    std::printf("potrf %s n=%d fill=%s: %.3f ms (copy %.3f subtracted)\n", sizeof(T) == 8 ? "f64" : "f32", n, fill == CUBLAS_FILL_MODE_LOWER ? "LOWER" : "UPPER", ms - copy, copy);
    cudaFree(dw);
  }
  cudaFree(a0); cudaFree(a); cudaFree(info);
}

// ||U^T U - I||_max for U (rows x cols, column-major)
template <class T> double orth_err(const T* u, int rows, int cols, int ld) {
  T* g = dalloc<T>((long long)cols * cols);
  const T one = 1, zero = 0;
  if constexpr (sizeof(T) == 8) CK(cublasDgemm(bh, CUBLAS_OP_T, CUBLAS_OP_N, cols, cols, rows, &one, u, ld, u, ld, &zero, g, cols));
  else CK(cublasSgemm(bh, CUBLAS_OP_T, CUBLAS_OP_N, cols, cols, rows, &one, u, ld, u, ld, &zero, g, cols));
  std::vector<T> h((size_t)cols * cols);
  CK(cudaMemcpy(h.data(), g, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  double e = 0;
  for (int i = 0; i < cols; ++i) for (int j = 0; j < cols; ++j) e = std::max(e, std::abs(double(h[(size_t)i * cols + j]) - (i == j)));
  cudaFree(g);
  return e;
}
template <class T> std::vector<T> host(const T* d, size_t n) { std::vector<T> h(n); CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost)); return h; }
template <class T> double rel_diff(const std::vector<T>& a, const std::vector<T>& b) {
  double e = 0, m = 0;
  for (size_t i = 0; i < a.size(); ++i) { e = std::max(e, std::abs(double(a[i]) - double(b[i]))); m = std::max(m, std::abs(double(b[i]))); }
  return e / m;
}

template <class T> void svd_routes(int n, bool with_gesvd) {
  const char* tn = sizeof(T) == 8 ? "f64" : "f32";
  const long long nn = (long long)n * n;
  T* a0 = random_matrix<T>(nn, 7);
  T* a = dalloc<T>(nn);
  T* s = dalloc<T>(n);
  T* u = dalloc<T>(nn);
  T* v = dalloc<T>(nn);
  int* info = dalloc<int>(1);
  std::vector<T> s_ref;
  auto restore = [&] { cudaMemcpyAsync(a, a0, sizeof(T) * nn, cudaMemcpyDeviceToDevice); };
  const double copy = median_ms(restore, 5);
  if (with_gesvd) {
    size_t db = 0, hb = 0;
    CK(cusolverDnXgesvd_bufferSize(sh, prm, 'S', 'S', n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), &db, &hb));
    void* dw = dalloc<char>(db + 1); std::vector<char> hw(hb + 1);
    double ms = median_ms([&] { restore(); CK(cusolverDnXgesvd(sh, prm, 'S', 'S', n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), dw, db, hw.data(), hb, info)); }, 3) - copy;
    s_ref = host(s, n);
    std::printf("svd %s n=%d Xgesvd  : %9.2f ms  orth(U) %.1e\n", tn, n, ms, orth_err(u, n, n, n));
    cudaFree(dw);
  }
  {  // gesvdj, econ
    gesvdjInfo_t p; CK(cusolverDnCreateGesvdjInfo(&p));
    int lwork = 0;
    if constexpr (sizeof(T) == 8) CK(cusolverDnDgesvdj_bufferSize(sh, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, a, n, s, u, n, v, n, &lwork, p));
    else CK(cusolverDnSgesvdj_bufferSize(sh, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, a, n, s, u, n, v, n, &lwork, p));
    T* w = dalloc<T>(lwork + 1);
    double ms = median_ms([&] { restore();
      if constexpr (sizeof(T) == 8) CK(cusolverDnDgesvdj(sh, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, a, n, s, u, n, v, n, w, lwork, info, p));
      else CK(cusolverDnSgesvdj(sh, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, a, n, s, u, n, v, n, w, lwork, info, p)); }, 3) - copy;
    double resid = 0; int sweeps = 0;
    cusolverDnXgesvdjGetResidual(sh, p, &resid); cusolverDnXgesvdjGetSweeps(sh, p, &sweeps);
    int hinfo = host(info, 1)[0];
    std::printf("svd %s n=%d gesvdj  : %9.2f ms  orth(U) %.1e orth(V) %.1e  S vs gesvd %.1e  sweeps %d resid %.1e info %d\n", tn, n, ms, orth_err(u, n, n, n), orth_err(v, n, n, n), s_ref.empty() ? -1.0 : rel_diff(host(s, n), s_ref), sweeps, resid, hinfo);
    cudaFree(w); cusolverDnDestroyGesvdjInfo(p);
  }
  {  // Xgesvdp, econ
    size_t db = 0, hb = 0; double err = 0;
    CK(cusolverDnXgesvdp_bufferSize(sh, prm, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), &db, &hb));
    void* dw = dalloc<char>(db + 1); std::vector<char> hw(hb + 1);
    double ms = median_ms([&] { restore(); CK(cusolverDnXgesvdp(sh, prm, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), dw, db, hw.data(), hb, info, &err)); }, 3) - copy;
    int hinfo = host(info, 1)[0];
    std::printf("svd %s n=%d Xgesvdp : %9.2f ms  orth(U) %.1e orth(V) %.1e  S vs gesvd %.1e  err_sigma %.1e info %d\n", tn, n, ms, orth_err(u, n, n, n), orth_err(v, n, n, n), s_ref.empty() ? -1.0 : rel_diff(host(s, n), s_ref), err, hinfo);
    cudaFree(dw);
  }
  {  // values only: gesvd 'N' vs gesvdp NOVECTOR
    size_t db = 0, hb = 0; double err = 0;
    CK(cusolverDnXgesvdp_bufferSize(sh, prm, CUSOLVER_EIG_MODE_NOVECTOR, 1, n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), &db, &hb));
    void* dw = dalloc<char>(db + 1); std::vector<char> hw(hb + 1);
    double ms = median_ms([&] { restore(); CK(cusolverDnXgesvdp(sh, prm, CUSOLVER_EIG_MODE_NOVECTOR, 1, n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), dw, db, hw.data(), hb, info, &err)); }, 3) - copy;
    std::printf("svdvals %s n=%d Xgesvdp: %9.2f ms  S vs gesvd %.1e\n", tn, n, ms, s_ref.empty() ? -1.0 : rel_diff(host(s, n), s_ref));
    cudaFree(dw);
    if (with_gesvd) {
      size_t db2 = 0, hb2 = 0;
      CK(cusolverDnXgesvd_bufferSize(sh, prm, 'N', 'N', n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), &db2, &hb2));
      void* dw2 = dalloc<char>(db2 + 1); std::vector<char> hw2(hb2 + 1);
      double ms2 = median_ms([&] { restore(); CK(cusolverDnXgesvd(sh, prm, 'N', 'N', n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), nullptr, n, dtype<T>(), nullptr, n, dtype<T>(), dw2, db2, hw2.data(), hb2, info)); }, 3) - copy;
      std::printf("svdvals %s n=%d Xgesvd : %9.2f ms\n", tn, n, ms2);
      cudaFree(dw2);
    }
  }
  cudaFree(a0); cudaFree(a); cudaFree(s); cudaFree(u); cudaFree(v); cudaFree(info);
}

template <class T> void eigh_routes(int n) {
  const char* tn = sizeof(T) == 8 ? "f64" : "f32";
  const long long nn = (long long)n * n;
  T* a0 = spd<T>(n, 1, 3);
  T* a = dalloc<T>(nn); T* w = dalloc<T>(n); int* info = dalloc<int>(1);
  auto restore = [&] { cudaMemcpyAsync(a, a0, sizeof(T) * nn, cudaMemcpyDeviceToDevice); };
  const double copy = median_ms(restore, 5);
  std::vector<T> w_ref;
  for (auto fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
    size_t db = 0, hb = 0;
    CK(cusolverDnXsyevd_bufferSize(sh, prm, CUSOLVER_EIG_MODE_VECTOR, fill, n, dtype<T>(), a, n, dtype<T>(), w, dtype<T>(), &db, &hb));
    void* dw = dalloc<char>(db + 1); std::vector<char> hw(hb + 1);
    double ms = median_ms([&] { restore(); CK(cusolverDnXsyevd(sh, prm, CUSOLVER_EIG_MODE_VECTOR, fill, n, dtype<T>(), a, n, dtype<T>(), w, dtype<T>(), dw, db, hw.data(), hb, info)); }, 3) - copy;
    w_ref = host(w, n);
    std::printf("eigh %s n=%d Xsyevd %s: %9.2f ms  orth %.1e\n", tn, n, fill == CUBLAS_FILL_MODE_LOWER ? "L" : "U", ms, orth_err(a, n, n, n));
    cudaFree(dw);
  }
  {
    syevjInfo_t p; CK(cusolverDnCreateSyevjInfo(&p));
    int lwork = 0;
    if constexpr (sizeof(T) == 8) CK(cusolverDnDsyevj_bufferSize(sh, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, &lwork, p));
    else CK(cusolverDnSsyevj_bufferSize(sh, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, &lwork, p));
    T* wk = dalloc<T>(lwork + 1);
    double ms = median_ms([&] { restore();
      if constexpr (sizeof(T) == 8) CK(cusolverDnDsyevj(sh, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, wk, lwork, info, p));
      else CK(cusolverDnSsyevj(sh, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, wk, lwork, info, p)); }, 3) - copy;
    std::printf("eigh %s n=%d syevj   : %9.2f ms  orth %.1e  w vs syevd %.1e\n", tn, n, ms, orth_err(a, n, n, n), rel_diff(host(w, n), w_ref));
    cudaFree(wk); cusolverDnDestroySyevjInfo(p);
  }
  cudaFree(a0); cudaFree(a); cudaFree(w); cudaFree(info);
}

__global__ void pointers(float** p, float* base, long long stride, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) p[i] = base + i * stride;
}

// float32 stacks: host loop of 64-bit calls against the batched routine
void batched(int n, int count) {
  const long long nn = (long long)n * n, total = nn * count;
  float* a0 = spd<float>(n, count, 5);
  float* a = dalloc<float>(total);
  float* w = dalloc<float>((long long)n * count);
  int* info = dalloc<int>(count);
  float** ptr = dalloc<float*>(count);
  pointers<<<(count + 255) / 256, 256>>>(ptr, a, nn, count);
  auto restore = [&] { cudaMemcpyAsync(a, a0, sizeof(float) * total, cudaMemcpyDeviceToDevice); };
  const double copy = median_ms(restore, 5);
  {
    size_t db = 0, hb = 0;
    CK(cusolverDnXpotrf_bufferSize(sh, prm, CUBLAS_FILL_MODE_UPPER, n, CUDA_R_32F, a, n, CUDA_R_32F, &db, &hb));
    void* dw = dalloc<char>(db + 1); std::vector<char> hw(hb + 1);
    double loop = median_ms([&] { restore(); for (int z = 0; z < count; ++z) CK(cusolverDnXpotrf(sh, prm, CUBLAS_FILL_MODE_UPPER, n, CUDA_R_32F, a + z * nn, n, CUDA_R_32F, dw, db, hw.data(), hb, info + z)); }, 3) - copy;
    double bat = median_ms([&] { restore(); CK(cusolverDnSpotrfBatched(sh, CUBLAS_FILL_MODE_UPPER, n, ptr, n, info, count)); }, 5) - copy;
    std::printf("potrf f32 %d x %d^2: loop %9.3f ms  potrfBatched %9.3f ms\n", count, n, loop, bat);
    cudaFree(dw);
  }
  if (n <= 32) {
    size_t db = 0, hb = 0;
    CK(cusolverDnXsyevd_bufferSize(sh, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_32F, a, n, CUDA_R_32F, w, CUDA_R_32F, &db, &hb));
    void* dw = dalloc<char>(db + 1); std::vector<char> hw(hb + 1);
    double loop = median_ms([&] { restore(); for (int z = 0; z < count; ++z) CK(cusolverDnXsyevd(sh, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_32F, a + z * nn, n, CUDA_R_32F, w + z * n, CUDA_R_32F, dw, db, hw.data(), hb, info + z)); }, 3) - copy;
    syevjInfo_t p; CK(cusolverDnCreateSyevjInfo(&p));
    int lwork = 0;
    CK(cusolverDnSsyevjBatched_bufferSize(sh, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, &lwork, p, count));
    float* wk = dalloc<float>(lwork + 1);
    double bat = median_ms([&] { restore(); CK(cusolverDnSsyevjBatched(sh, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, wk, lwork, info, p, count)); }, 5) - copy;
    std::printf("eigh  f32 %d x %d^2: loop %9.3f ms  syevjBatched %9.3f ms\n", count, n, loop, bat);
    cudaFree(dw); cudaFree(wk); cusolverDnDestroySyevjInfo(p);
    float* s = dalloc<float>((long long)n * count);
    float* u = dalloc<float>(total); float* v = dalloc<float>(total);
    CK(cusolverDnXgesvd_bufferSize(sh, prm, 'S', 'S', n, n, CUDA_R_32F, a, n, CUDA_R_32F, s, CUDA_R_32F, u, n, CUDA_R_32F, v, n, CUDA_R_32F, &db, &hb));
    dw = dalloc<char>(db + 1); hw.assign(hb + 1, 0);
    double sloop = median_ms([&] { restore(); for (int z = 0; z < count; ++z) CK(cusolverDnXgesvd(sh, prm, 'S', 'S', n, n, CUDA_R_32F, a + z * nn, n, CUDA_R_32F, s + z * n, CUDA_R_32F, u + z * nn, n, CUDA_R_32F, v + z * nn, n, CUDA_R_32F, dw, db, hw.data(), hb, info + z)); }, 3) - copy;
    gesvdjInfo_t q; CK(cusolverDnCreateGesvdjInfo(&q));
    CK(cusolverDnSgesvdjBatched_bufferSize(sh, CUSOLVER_EIG_MODE_VECTOR, n, n, a, n, s, u, n, v, n, &lwork, q, count));
    wk = dalloc<float>(lwork + 1);
    double sbat = median_ms([&] { restore(); CK(cusolverDnSgesvdjBatched(sh, CUSOLVER_EIG_MODE_VECTOR, n, n, a, n, s, u, n, v, n, wk, lwork, info, q, count)); }, 5) - copy;
    std::printf("svd   f32 %d x %d^2: loop %9.3f ms  gesvdjBatched %9.3f ms\n", count, n, sloop, sbat);
    cudaFree(dw); cudaFree(wk); cudaFree(s); cudaFree(u); cudaFree(v); cusolverDnDestroyGesvdjInfo(q);
  }
  cudaFree(a0); cudaFree(a); cudaFree(w); cudaFree(info); cudaFree(ptr);
}

int main() {
  CK(cusolverDnCreate(&sh)); CK(cublasCreate(&bh)); CK(cusolverDnCreateParams(&prm));
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  int drv = 0, rt = 0, sv = 0; cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt); cusolverGetVersion(&sv);
  std::printf("%s, driver %d, runtime %d, cusolver %d\n", p.name, drv, rt, sv);
  for (int n : {1024, 4096}) { potrf_fill<double>(n); potrf_fill<float>(n); }
  eigh_routes<double>(1024); eigh_routes<double>(2048); eigh_routes<float>(1024);
  svd_routes<double>(1024, true); svd_routes<float>(1024, true);
  svd_routes<double>(2048, true);
  svd_routes<double>(4096, false);
  batched(32, 4096); batched(8, 4096); batched(2, 4096);
  batched(64, 1024); batched(128, 256); batched(256, 64);
  return 0;
}
