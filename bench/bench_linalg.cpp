// bench/bench_linalg.cpp: numpy.matmul on the GPU (the rows) against the raw cuBLAS call
// on the same operands in the same run; bench/cupy/cupy_linalg.py times CuPy and PyTorch on the
// same rows.
//
// Names are <op>/<impl>/<dtype>/<n>, the keys bench/merge_results.py joins with cupy_linalg.py's
// output; impl is cunp (cunp::matmul of prepared device arrays, a fresh result from the pool each
// call, as bench_fft) or raw (cublasGemmEx; cublasGemmStridedBatchedEx for the batch) with the
// handle made and the output kept outside the timing, in the compute types cunp uses:
// CUBLAS_COMPUTE_32F for float16, bfloat16, float32 and complex64, CUBLAS_COMPUTE_64F for
// float64, default math mode (float32 in FP32, no TF32), CUBLAS_GEMM_DEFAULT.
//
// - matmul/<impl>/<dtype>/<n>: n x n @ n x n, n = 1024, 4096, 8192 (and the hot-cache,
//   launch-bound end: 64, 128 and 256 for float32, 64 and 128 for float64; cunp's products up to
//   128^3 take its tiled kernel, larger ones cuBLAS).
// - matmul_batch512/<impl>/<dtype>/256: 512 matrices of 256 x 256 @ 256 x 256 (one strided call).
// - matmul_tf32/<impl>/float32/8192: cunp under matmul_precision_guard(tf32) against raw
//   cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32.
// - matmul_bf16x3/<impl>/float32/8192: cunp under matmul_precision_guard(bf16x3) (the operands
//   split into bfloat16 hi + lo on the GPU, then three gemms) against the three raw bfloat16
//   gemms alone on parts split beforehand (hi·lo, lo·hi, then hi·hi, as cunp orders them): the
//   ratio is what the split costs. The speed to beat is matmul_tf32/raw.
// - matmul_host/<impl>/float32/<n>: host time per call of an n x n matmul, n = 64 and 128 (cunp's
//   tiled kernel) and 256 (cuBLAS): what a launch-bound caller pays; the target is <= 8 us at 64,
//   CuPy about 20 us.
// - matmul_cpu/cunp/float32/4096: the cpu backend, host time per call (NumPy's np.matmul in
//   cupy_linalg.py is its peer).
// - solve_refine_<mode>/cunp/float64/<n>: linalg::solve(a, b, {.refine = mode}) of an n x n
//   well-conditioned system (n = 1024, 4096) with one right-hand side, mode none (the plain
//   solve) beside fp32, tf32, bf16, fp16; GPU time per call, launch not hidden (a refined solve
//   waits); the result's backward error (berr) and the refinement's iterations as counters.
// - decomp_<op>/cunp/<dtype>/<n>: linalg::cholesky, qr (reduced), eigh, svd (reduced) and det of
//   one n x n float32 or float64 matrix (symmetric positive definite for cholesky and eigh), GPU
//   time per call with the launch not hidden (cuSOLVER's calls may wait for the device).
// - decomp_<op>_batch4096/cunp/float32/<n>: the same of a stack of 4096 n x n matrices (cholesky
//   at 32 and 64, eigh and svd at 32): cuSOLVER's batched routes (potrfBatched, syevjBatched,
//   gesvdjBatched); hot-cache at 32 (16 MiB).
// - solve_batch4096, inv_batch4096/cunp/float32/32: linalg::solve (one right-hand side each) and
//   inv of a stack of 4096 diagonally dominant 32 x 32 matrices (cuBLAS's batched LU), GPU time
//   per call, launch not hidden.
//
// Flops: 2 n^3 for real dtypes, 8 n^3 for complex (four real multiply-adds per complex one),
// times the batch; tf32 and bf16x3 rows count the float32 product's 2 n^3 (an effective rate, to
// set beside the FP32 rows). frac_gemm is the rate over the gemm ceiling of the same run:
// float32 and complex64 (which runs on the same FP32 pipes) against the float32 ceiling, float64
// against the float64 one; float16, bfloat16, tf32 and bf16x3 run on tensor cores, for which
// bench_util measures no ceiling, so their rows have TFLOP/s alone (the raw row is the
// reference). Inputs are random in [-1, 1) (complex: both parts), made once per dtype and shape
// and shared by the cunp and raw rows; at 1024 the operands fit the 60 MB L2 (hot cache).
// The tensor-core rows at 8192 (float16, bfloat16, tf32, bf16x3) are power-bound: their times
// move by up to about 10% with the GPU's temperature, from one process (or row order) to the next,
// so cunp is set beside the raw call of the same run, and --benchmark_repetitions=3 shows the
// spread. A full run takes about a minute on an H200 (the cpu row about 5 s of it).
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bench_util.hpp"
#include "cunp/decompositions.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;
using c64 = std::complex<float>;

const cunp::device gpu0 = cunp::cuda(0);

/// What a raw cuBLAS call of T takes (cuBLAS's data type, compute type and scalar type), spelled
/// out here rather than taken from cunp's backend, so that the raw row checks cunp's choice.
template <class T> struct blas;
template <> struct blas<cunp::float16> {
  static constexpr const char* name = "float16";
  static constexpr cudaDataType_t type = CUDA_R_16F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;  // accumulates in float32
  static constexpr against ceiling = against::nothing;                // tensor cores
  using scalar = float;
};
template <> struct blas<cunp::bfloat16> {
  static constexpr const char* name = "bfloat16";
  static constexpr cudaDataType_t type = CUDA_R_16BF;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  static constexpr against ceiling = against::nothing;
  using scalar = float;
};
template <> struct blas<float> {
  static constexpr const char* name = "float32";
  static constexpr cudaDataType_t type = CUDA_R_32F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  static constexpr against ceiling = against::gemm_ceiling_f32;
  using scalar = float;
};
template <> struct blas<double> {
  static constexpr const char* name = "float64";
  static constexpr cudaDataType_t type = CUDA_R_64F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_64F;
  static constexpr against ceiling = against::gemm_ceiling_f64;
  using scalar = double;
};
template <> struct blas<c64> {
  static constexpr const char* name = "complex64";
  static constexpr cudaDataType_t type = CUDA_C_32F;
  static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  static constexpr against ceiling = against::gemm_ceiling_f32;  // the same FP32 pipes
  using scalar = c64;
};

/// Flops of `batch` products of n x n matrices of T.
template <class T> double flops(index_t batch, index_t n) {
  const double per_fma = cunp::is_complex_v<T> ? 8 : 2;
  return per_fma * double(n) * double(n) * double(n) * double(batch);
}

/// "n x n @ n x n" or "batch x n x n @ n x n".
std::string label(index_t batch, index_t n) {
  const std::string side = std::to_string(n) + "x" + std::to_string(n);
  return (batch > 1 ? std::to_string(batch) + " x " : "") + side + " @ " + side;
}

/// Random values in [-1, 1) on `dev`, complex ones with both parts random (a zero imaginary part
/// would be a real product in disguise).
template <class T> ndarray<T> random_operand(const shape_t& shape, std::uint64_t seed,
                                             cunp::device dev = gpu0) {
  if constexpr (cunp::is_complex_v<T>) {
    using R = typename T::value_type;
    const auto n = static_cast<std::size_t>(cunp::shape_size(shape));
    const auto re = random_values<R>(n, seed), im = random_values<R>(n, seed + 100);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = T(re[i], im[i]);
    return cunp::asarray(v, shape, cunp::cpu).to(dev);
  } else {
    return random_array<T>(shape, dev, seed);
  }
}

shape_t shape_of(index_t batch, index_t n) {
  return batch > 1 ? shape_t{batch, n, n} : shape_t{n, n};
}

/// The two operands of a product, made on first use and kept for the run (about 3 GiB in all at
/// 8192), so that the cunp and raw rows of a shape multiply the same numbers and the host does
/// not remake 8192^2 random values for each row.
template <class T> struct operands {
  ndarray<T> a, b;
};
template <class T> const operands<T>& inputs(index_t batch, index_t n) {
  static auto* cache = new std::map<std::pair<index_t, index_t>, operands<T>>();
  const auto key = std::make_pair(batch, n);
  auto it = cache->find(key);
  if (it == cache->end()) {
    const shape_t s = shape_of(batch, n);
    it = cache->emplace(key, operands<T>{random_operand<T>(s, 1), random_operand<T>(s, 2)}).first;
  }
  return it->second;
}

/// c = a @ b for C-ordered n x n matrices (`batch` of them, one after another): cuBLAS is
/// column-major, so it computes c^T = b^T a^T, the same bytes. cublasGemmEx for one matrix (the
/// plain call a C++ user writes), cublasGemmStridedBatchedEx for a batch.
void gemm_ex(cublasHandle_t h, index_t batch, index_t n, const void* alpha, const void* a,
             const void* b, cudaDataType_t in, const void* beta, void* c, cudaDataType_t out,
             cublasComputeType_t compute) {
  const int m = static_cast<int>(n);
  if (batch == 1) {
    check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, alpha, b, in, m, a, in, m, beta, c,
                       out, m, compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  } else {
    const long long step = static_cast<long long>(n) * n;
    check(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, alpha, b, in, m, step,
                                     a, in, m, step, beta, c, out, m, step,
                                     static_cast<int>(batch), compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmStridedBatchedEx");
  }
}

/// The raw call for a product of T's, alpha = 1 and beta = 0 in the scalar type of `compute`.
template <class T>
void raw_gemm(cublasHandle_t h, index_t batch, index_t n, const T* a, const T* b, T* c,
              cublasComputeType_t compute = blas<T>::compute) {
  using S = typename blas<T>::scalar;
  const S one(1), zero(0);
  gemm_ex(h, batch, n, &one, a, b, blas<T>::type, &zero, c, blas<T>::type, compute);
}

// --- GPU time

template <class T> void matmul_cunp(State& s, index_t batch, index_t n) {
  const auto& x = inputs<T>(batch, n);
  s.SetLabel(label(batch, n));
  gpu_loop(s, {.ceiling = blas<T>::ceiling, .hide_launch = true, .flops = flops<T>(batch, n)},
           [&] { consume(cunp::matmul(x.a, x.b)); });
}

template <class T> void matmul_raw(State& s, index_t batch, index_t n) {
  const auto& x = inputs<T>(batch, n);
  const auto c = cunp::empty<T>(shape_of(batch, n), gpu0);
  const cublasHandle_t h = cunp_bench::cublas_handle(0);  // made and bound before the timing
  s.SetLabel(label(batch, n));
  gpu_loop(s, {.ceiling = blas<T>::ceiling, .hide_launch = true, .flops = flops<T>(batch, n)},
           [&] { raw_gemm<T>(h, batch, n, x.a.data(), x.b.data(), c.data()); });
}

/// float32 under a precision mode: matmul_precision_guard sets this thread's mode, the thread
/// that Google Benchmark runs the body on.
void matmul_cunp_precision(State& s, cunp::matmul_precision p, index_t n) {
  const auto& x = inputs<float>(1, n);
  const cunp::matmul_precision_guard guard(p);
  s.SetLabel(label(1, n));
  gpu_loop(s, {.hide_launch = true, .flops = flops<float>(1, n)},
           [&] { consume(cunp::matmul(x.a, x.b)); });
}

void matmul_raw_tf32(State& s, index_t n) {
  const auto& x = inputs<float>(1, n);
  const auto c = cunp::empty<float>({n, n}, gpu0);
  const cublasHandle_t h = cunp_bench::cublas_handle(0);
  s.SetLabel(label(1, n));
  gpu_loop(s, {.hide_launch = true, .flops = flops<float>(1, n)}, [&] {
    raw_gemm<float>(h, 1, n, x.a.data(), x.b.data(), c.data(), CUBLAS_COMPUTE_32F_FAST_TF32);
  });
}

/// x's bfloat16 parts hi = bf16(x), lo = bf16(x - hi) on the GPU, split on the host (the
/// subtraction is exact in float32, so these are the parts cunp's GPU split makes).
std::pair<ndarray<cunp::bfloat16>, ndarray<cunp::bfloat16>> bf16_parts(const ndarray<float>& x) {
  const ndarray<float> h = x.to(cunp::cpu);
  const auto n = static_cast<std::size_t>(h.size());
  std::vector<cunp::bfloat16> hi(n), lo(n);
  for (std::size_t i = 0; i < n; ++i) {
    hi[i] = cunp::bfloat16(h.data()[i]);
    lo[i] = cunp::bfloat16(h.data()[i] - float(hi[i]));
  }
  return {cunp::asarray(hi, x.shape(), cunp::cpu).to(gpu0),
          cunp::asarray(lo, x.shape(), cunp::cpu).to(gpu0)};
}

/// The three bfloat16 gemms of bf16x3 into one float32 result, the small cross terms first.
void matmul_raw_bf16x3(State& s, index_t n) {
  const auto& x = inputs<float>(1, n);
  const auto pa = bf16_parts(x.a), pb = bf16_parts(x.b);
  const auto &ah = pa.first, &al = pa.second, &bh = pb.first, &bl = pb.second;
  const auto c = cunp::empty<float>({n, n}, gpu0);
  const cublasHandle_t h = cunp_bench::cublas_handle(0);
  const float one = 1, zero = 0;
  s.SetLabel(label(1, n) + ", 3 bf16 gemms on parts split beforehand");
  gpu_loop(s, {.hide_launch = true, .flops = flops<float>(1, n)}, [&] {
    const auto gemm = [&](const ndarray<cunp::bfloat16>& a, const ndarray<cunp::bfloat16>& b,
                          const float& beta) {
      gemm_ex(h, 1, n, &one, a.data(), b.data(), CUDA_R_16BF, &beta, c.data(), CUDA_R_32F,
              CUBLAS_COMPUTE_32F);
    };
    gemm(ah, bl, zero);
    gemm(al, bh, one);
    gemm(ah, bh, one);
  });
}

// --- host time

void matmul_host_cunp(State& s) {
  const auto& x = inputs<float>(1, s.range(0));
  host_per_call(s, gpu0, [&] { consume(cunp::matmul(x.a, x.b)); });
}

void matmul_host_raw(State& s) {  // the floor: the cuBLAS call alone, its output kept
  const index_t n = s.range(0);
  const auto& x = inputs<float>(1, n);
  const auto c = cunp::empty<float>({n, n}, gpu0);
  const cublasHandle_t h = cunp_bench::cublas_handle(0);
  host_per_call(s, gpu0, [&] { raw_gemm<float>(h, 1, n, x.a.data(), x.b.data(), c.data()); });
}

/// The cpu backend, host time per call (as bench_fft's fft_cpu rows; the first iteration also
/// starts OpenMP's threads, the median leaves it out).
void matmul_cpu(State& s) {
  const index_t n = s.range(0);
  const auto a = random_operand<float>({n, n}, 1, cunp::cpu);
  const auto b = random_operand<float>({n, n}, 2, cunp::cpu);
  s.SetLabel(label(1, n));
  std::vector<double> ms;
  for (auto _ : s) {
    const double t0 = now_ms();
    consume(cunp::matmul(a, b));
    ms.push_back(now_ms() - t0);
  }
  s.counters["median_us"] = s.counters["host_us"] = summarize(std::move(ms)).median * 1e3;
  s.counters["flops"] = flops<float>(1, n);
  s.counters["TFLOP/s"] = tflops(flops<float>(1, n), s.counters["median_us"] / 1e3);
}

// --- registration

template <class T> void register_dtype(const std::vector<index_t>& sides) {
  using benchmark::RegisterBenchmark;
  const std::string dt = blas<T>::name;
  for (const char* impl : {"cunp", "raw"}) {
    const bool cunp_row = std::string(impl) == "cunp";
    for (const index_t n : sides) {
      const std::string name = "matmul/" + std::string(impl) + "/" + dt + "/" + std::to_string(n);
      gpu_timed(RegisterBenchmark(name.c_str(), [cunp_row, n](State& s) {
        cunp_row ? matmul_cunp<T>(s, 1, n) : matmul_raw<T>(s, 1, n);
      }));
    }
    const std::string name = "matmul_batch512/" + std::string(impl) + "/" + dt + "/256";
    gpu_timed(RegisterBenchmark(name.c_str(), [cunp_row](State& s) {
      cunp_row ? matmul_cunp<T>(s, 512, 256) : matmul_raw<T>(s, 512, 256);
    }));
  }
}

// --- numpy.linalg's decompositions (GPU time, launch not hidden: cuSOLVER's calls may wait)

/// `batch` symmetric positive definite n x n float64 or float32 matrices (one when batch is 1),
/// a a^T / n + I, made once.
template <class T> const ndarray<T>& spd_input(index_t batch, index_t n) {
  static auto* cache = new std::map<std::pair<index_t, index_t>, ndarray<T>>();
  const auto key = std::make_pair(batch, n);
  auto it = cache->find(key);
  if (it == cache->end()) {
    const auto& x = inputs<T>(batch, n);
    const auto spd = cunp::eval(cunp::matmul(x.a, cunp::swapaxes(x.a, -1, -2)) / T(n) +
                                cunp::eye<T>(n, cunp::none, 0, gpu0));
    it = cache->emplace(key, spd).first;
  }
  return it->second;
}

template <class T> void decomposition(State& s, const std::string& op, index_t batch, index_t n) {
  namespace L = cunp::linalg;
  const bool spd = op == "cholesky" || op == "eigh";
  const auto& a = spd ? spd_input<T>(batch, n) : inputs<T>(batch, n).a;
  s.SetLabel((batch > 1 ? std::to_string(batch) + " x " : "") + std::to_string(n) + "x" +
             std::to_string(n));
  gpu_loop(s, {}, [&] {
    if (op == "cholesky") consume(L::cholesky(a));
    else if (op == "qr") consume(L::qr(a).R);
    else if (op == "eigh") consume(L::eigh(a).eigenvectors);
    else if (op == "det") consume(L::det(a));
    else consume(L::svd(a, false).U);
  });
}

/// solve(a, b) with one right-hand side per matrix (b: batch x n x 1) or inv(a) of `batch` n x n
/// matrices a + n I (a random in [-1, 1)), GPU time per call with the launch not hidden.
template <class T> void linear_system(State& s, const std::string& op, index_t batch, index_t n) {
  namespace L = cunp::linalg;
  const auto a = cunp::eval(inputs<T>(batch, n).a + cunp::eye<T>(n, cunp::none, 0, gpu0) * T(n));
  const auto b = cunp::ones<T>({batch, n, 1}, gpu0);
  s.SetLabel(std::to_string(batch) + " x " + std::to_string(n) + "x" + std::to_string(n));
  gpu_loop(s, {}, [&] {
    if (op == "solve") consume(L::solve(a, b));
    else consume(L::inv(a));
  });
}

// --- linalg::solve's mixed-precision mode (GPU time, launch not hidden: a refined solve waits
// for its iteration count)

/// A well-conditioned n x n float64 system, made once: inputs<double>'s random a plus n I (the
/// classical refinement converges while cond(a) u_low is well below 1: float16's u is 2^-11) and
/// one random right-hand side.
const std::pair<ndarray<double>, ndarray<double>>& refine_system(index_t n) {
  static auto* cache = new std::map<index_t, std::pair<ndarray<double>, ndarray<double>>>();
  auto it = cache->find(n);
  if (it == cache->end()) {
    const ndarray<double> a = cunp::eval(inputs<double>(1, n).a +
                                         cunp::eye<double>(n, cunp::none, 0, gpu0) * double(n));
    it = cache->emplace(n, std::make_pair(a, random_operand<double>({n}, 3))).first;
  }
  return it->second;
}

/// ||b - a x||_inf / (||a||_inf ||x||_inf + ||b||_inf) for one right-hand side, on the host with
/// the residual in long double: float64's own rounding of it (about sqrt(n) u) would be as large
/// as what it measures.
double backward_error(const ndarray<double>& a, const ndarray<double>& b,
                      const ndarray<double>& x) {
  const auto av = a.to_vector(), bv = b.to_vector(), xv = x.to_vector();
  const std::size_t n = bv.size();
  long double anrm = 0, rn = 0, xn = 0, bn = 0;
  for (std::size_t i = 0; i < n; ++i) {
    long double row = 0, r = bv[i];
    for (std::size_t j = 0; j < n; ++j) {
      row += std::fabs(static_cast<long double>(av[i * n + j]));
      r -= static_cast<long double>(av[i * n + j]) * xv[j];
    }
    anrm = std::max(anrm, row);
    rn = std::max(rn, std::fabs(r));
    xn = std::max(xn, std::fabs(static_cast<long double>(xv[i])));
    bn = std::max(bn, std::fabs(static_cast<long double>(bv[i])));
  }
  return static_cast<double>(rn / (anrm * xn + bn));
}

/// solve(a, b, {.refine = mode}) of refine_system(n), GPU time per call. Counters, from one more
/// call after the timing: berr (backward_error of its result) and refine_iters (the refinement's
/// iterations; negative: it fell back to a float64 solve; 0 for refine::none). flops: the LU's
/// 2/3 n^3, an effective rate for the refined modes.
void solve_refined(State& s, cunp::refine mode, index_t n) {
  namespace L = cunp::linalg;
  const auto& [a, b] = refine_system(n);
  const double nd = static_cast<double>(n);
  s.SetLabel(std::to_string(n) + "x" + std::to_string(n) + ", one right-hand side");
  gpu_loop(s, {.flops = 2 * nd * nd * nd / 3},
           [&] { consume(L::solve(a, b, {.refine = mode})); });
  cunp::detail::last_refine().min_iterations = 0;
  const auto x = L::solve(a, b, {.refine = mode});
  s.counters["refine_iters"] = cunp::detail::last_refine().min_iterations;
  s.counters["berr"] = backward_error(a, b, x);
}

/// solve_refine_<mode>/cunp/float64/<n>, n = 1024 and 4096, mode none (the plain solve: the
/// time to beat, issue 20's target being 2x at 4096), fp32, tf32, bf16, fp16.
void register_solve_refine() {
  using cunp::refine;
  const std::pair<const char*, refine> modes[] = {{"none", refine::none},
                                                  {"fp32", refine::fp32},
                                                  {"tf32", refine::tf32},
                                                  {"bf16", refine::bf16},
                                                  {"fp16", refine::fp16}};
  for (const index_t n : {1024, 4096})
    for (const auto& [name, mode] : modes) {
      const std::string row = std::string("solve_refine_") + name + "/cunp/float64/" +
                              std::to_string(n);
      gpu_timed(benchmark::RegisterBenchmark(row.c_str(), [mode = mode, n](State& s) {
        solve_refined(s, mode, n);
      }));
    }
}

void register_benchmarks() {
  using benchmark::RegisterBenchmark;
  // decomp_<op>/cunp/<dtype>/<n>: cholesky and qr (reduced) at 1024 and 4096, eigh at 1024 and
  // 2048, svd (reduced) and det at 1024 and 4096; float32 and float64. cupy_linalg.py times
  // cupy.linalg's and torch.linalg's.
  for (const auto& [op, sides] :
       std::vector<std::pair<std::string, std::vector<index_t>>>{
           {"cholesky", {1024, 4096}}, {"qr", {1024, 4096}}, {"eigh", {1024, 2048}},
           {"svd", {1024, 4096}}, {"det", {1024, 4096}}})
    for (const index_t n : sides) {
      const std::string tail = "/" + std::to_string(n);
      gpu_timed(RegisterBenchmark(("decomp_" + op + "/cunp/float32" + tail).c_str(),
                                  [op, n](State& s) { decomposition<float>(s, op, 1, n); }));
      gpu_timed(RegisterBenchmark(("decomp_" + op + "/cunp/float64" + tail).c_str(),
                                  [op, n](State& s) { decomposition<double>(s, op, 1, n); }));
    }
  // decomp_<op>_batch4096/cunp/float32/<n>: stacks of small matrices (the batched routes).
  constexpr index_t stack = 4096;
  for (const auto& [op, n] : std::vector<std::pair<std::string, index_t>>{
           {"cholesky", 32}, {"cholesky", 64}, {"eigh", 32}, {"svd", 32}}) {
    const std::string name = "decomp_" + op + "_batch4096/cunp/float32/" + std::to_string(n);
    gpu_timed(RegisterBenchmark(name.c_str(),
                                [op, n](State& s) { decomposition<float>(s, op, stack, n); }));
  }
  // solve_batch4096 and inv_batch4096/cunp/float32/32: cuBLAS's batched getrf/getrs.
  for (const std::string op : {"solve", "inv"})
    gpu_timed(RegisterBenchmark((op + "_batch4096/cunp/float32/32").c_str(),
                                [op](State& s) { linear_system<float>(s, op, stack, 32); }));
  // At 8192 one call takes 1.4 ms (float16) to 80 ms (complex64), so Google Benchmark runs a few
  // iterations per repetition at the default min time (complex64: one), as bench_memory's gemm
  // rows.
  const std::vector<index_t> sides = {1024, 4096, 8192};
  register_dtype<cunp::float16>(sides);
  register_dtype<cunp::bfloat16>(sides);
  register_dtype<float>({64, 128, 256, 1024, 4096, 8192});
  register_dtype<double>({64, 128, 1024, 4096, 8192});
  register_dtype<c64>(sides);
  constexpr index_t big = 8192;
  gpu_timed(RegisterBenchmark("matmul_tf32/cunp/float32/8192", [](State& s) {
    matmul_cunp_precision(s, cunp::matmul_precision::tf32, big);
  }));
  gpu_timed(RegisterBenchmark("matmul_tf32/raw/float32/8192",
                              [](State& s) { matmul_raw_tf32(s, big); }));
  gpu_timed(RegisterBenchmark("matmul_bf16x3/cunp/float32/8192", [](State& s) {
    matmul_cunp_precision(s, cunp::matmul_precision::bf16x3, big);
  }));
  gpu_timed(RegisterBenchmark("matmul_bf16x3/raw/float32/8192",
                              [](State& s) { matmul_raw_bf16x3(s, big); }));
  for (auto* b : {RegisterBenchmark("matmul_host/cunp/float32", matmul_host_cunp),
                  RegisterBenchmark("matmul_host/raw/float32", matmul_host_raw)})
    host_timed(b)->Arg(64)->Arg(128)->Arg(256);
  // 137 GFLOP per call (1.5 s on the H200 host's 16 cores): a fixed three calls.
  RegisterBenchmark("matmul_cpu/cunp/float32", matmul_cpu)
      ->Arg(4096)
      ->Iterations(3)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  register_solve_refine();
  // The cuBLAS this binary loaded: CuPy and PyTorch may load another build (their JSON lists the
  // libcublas files), and a different cuBLAS picks different kernels for the same shape.
  int v[3] = {0, 0, 0};
  const libraryPropertyType parts[3] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
  for (int i = 0; i < 3; ++i) cublasGetProperty(parts[i], &v[i]);
  benchmark::AddCustomContext("cublas_version", std::to_string(v[0]) + "." +
                                                    std::to_string(v[1]) + "." +
                                                    std::to_string(v[2]));
  return cunp_bench::run_main(argc, argv);
}
