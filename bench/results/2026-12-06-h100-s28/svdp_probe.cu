// Ad-hoc (twenty-eighth session): Xgesvdp's h_err_sigma. Build: nvcc -O2 -std=c++17 -arch=sm_90 svdp_probe.cu -lcusolver -lcublas
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


// Xgesvdp's perturbation (h_err_sigma) on random matrices in [-1, 1): how large it is, how far its
// singular values then are from Xgesvd's, whether U stays orthonormal, and its time.
template <class T> void probe(int n, unsigned long long seed) {
  const long long nn = (long long)n * n;
  T* a0 = random_matrix<T>(nn, seed);
  T *a = dalloc<T>(nn), *s = dalloc<T>(n), *u = dalloc<T>(nn), *v = dalloc<T>(nn);
  int* info = dalloc<int>(1);
  size_t db = 0, hb = 0;
  CK(cusolverDnXgesvd_bufferSize(sh, prm, 'N', 'N', n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), &db, &hb));
  void* dw = dalloc<char>(db + 1); std::vector<char> hw(hb + 1);
  CK(cudaMemcpy(a, a0, sizeof(T) * nn, cudaMemcpyDeviceToDevice));
  CK(cusolverDnXgesvd(sh, prm, 'N', 'N', n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), nullptr, n, dtype<T>(), nullptr, n, dtype<T>(), dw, db, hw.data(), hb, info));
  const auto ref = host(s, n);
  cudaFree(dw);
  CK(cusolverDnXgesvdp_bufferSize(sh, prm, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), &db, &hb));
  dw = dalloc<char>(db + 1); hw.assign(hb + 1, 0);
  double err = -1;
  const double ms = median_ms([&] {
    cudaMemcpyAsync(a, a0, sizeof(T) * nn, cudaMemcpyDeviceToDevice);
    CK(cusolverDnXgesvdp(sh, prm, CUSOLVER_EIG_MODE_VECTOR, 1, n, n, dtype<T>(), a, n, dtype<T>(), s, dtype<T>(), u, n, dtype<T>(), v, n, dtype<T>(), dw, db, hw.data(), hb, info, &err)); }, 3);
  const auto got = host(s, n);
  std::printf("%s n=%5d seed %llu: gesvdp %8.2f ms err_sigma %.3e  smax %.4e smin %.4e  |S-S_gesvd|/smax %.2e  smin rel err %.2e  orth(U) %.1e orth(V) %.1e info %d\n",
              sizeof(T) == 8 ? "f64" : "f32", n, seed, ms, err, double(ref[0]), double(ref[n - 1]), rel_diff(got, ref),
              std::abs(double(got[n - 1]) - double(ref[n - 1])) / double(ref[n - 1]), orth_err(u, n, n, n), orth_err(v, n, n, n), host(info, 1)[0]);
  cudaFree(dw); cudaFree(a0); cudaFree(a); cudaFree(s); cudaFree(u); cudaFree(v); cudaFree(info);
}

int main() {
  CK(cusolverDnCreate(&sh)); CK(cublasCreate(&bh)); CK(cusolverDnCreateParams(&prm));
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  std::printf("%s\n", p.name);
  for (int n : {64, 256, 1024}) for (unsigned long long seed : {1ull, 2ull, 3ull}) { probe<float>(n, seed); probe<double>(n, seed); }
  probe<float>(2048, 1); probe<double>(2048, 1); probe<float>(4096, 1);
  return 0;
}
