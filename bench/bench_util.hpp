// bench/bench_util.hpp: the one place where cunp's benchmarks and the CPU-vs-GPU report decide
// how to time, how to count bytes and what to compare against (shared/PERFORMANCE.md's method).
//
// Three layers, each usable alone:
// - always (g++ or nvcc): statistics, host timing, GPU event timing through cunp::event, random
//   inputs, pinned host arrays, the GPU-vs-CPU error;
// - CUNP_HAS_CUDA (an nvcc-compiled TU): device facts, the device-copy and pinned-transfer
//   ceilings measured in the same run, and an L2 flush for cold-cache variants;
// - CUNP_BENCH_GBENCH (set by bench/CMakeLists.txt on the Google Benchmark executables, which
//   link cuBLAS): the cuBLAS gemm ceilings, manual time from CUDA events, decimal GB/s or TFLOP/s
//   and fraction-of-ceiling counters, and a main().
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/cunp.hpp"

#if defined(CUNP_BENCH_GBENCH)
#include <benchmark/benchmark.h>
#if CUNP_HAS_CUDA
#include <cublas_v2.h>
#endif
#endif

namespace cunp_bench {

using cunp::index_t;
using cunp::ndarray;
using cunp::shape_t;

// ---------------------------------------------------------------------------------------------
// Statistics and timing (any TU)

/// Median and spread of repeated measurements, in milliseconds.
struct stats {
  double median = 0, min = 0, max = 0;
  int repeats = 0;
};

inline stats summarize(std::vector<double> ms) {
  stats s;
  s.repeats = static_cast<int>(ms.size());
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t h = ms.size() / 2;
  s.median = ms.size() % 2 ? ms[h] : 0.5 * (ms[h - 1] + ms[h]);
  s.min = ms.front();
  s.max = ms.back();
  return s;
}

/// Untimed warm-up calls (first-touch allocations, pool growth, module loading), then repeats
/// until both min_repeats and min_seconds are reached, never more than max_repeats.
struct policy {
  int warmup;
  int min_repeats;
  int max_repeats;
  double min_seconds;
};
inline constexpr policy cpu_policy{1, 5, 200, 0.2};
inline constexpr policy gpu_policy{3, 20, 2000, 0.1};

inline double now_ms() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

inline bool keep_going(const std::vector<double>& ms, double total_ms, const policy& p) {
  const int n = static_cast<int>(ms.size());
  return n < p.max_repeats && (n < p.min_repeats || total_ms < p.min_seconds * 1e3);
}

/// Host wall time of fn() per call (the cpu backend, or what a launch-bound caller pays).
template <class F> stats time_host(F&& fn, const policy& p = cpu_policy) {
  for (int i = 0; i < p.warmup; ++i) fn();
  std::vector<double> ms;
  double total = 0;
  while (keep_going(ms, total, p)) {
    const double t0 = now_ms();
    fn();
    const double t = now_ms() - t0;
    ms.push_back(t);
    total += t;
  }
  return summarize(std::move(ms));
}

/// GPU time of fn() from two CUDA events recorded on the current stream around it (`device`);
/// the end-to-end host time from before the call until the GPU has finished it (`wall`: launch
/// overhead and host-side work included, what the caller waits for); and the host time of the
/// call itself (`host`: what a launch-bound caller pays per call).
struct gpu_stats {
  stats device;
  stats wall;
  stats host;
};

/// Queues work on the current stream of `dev` that keeps it busy for `us` microseconds (needs an
/// nvcc-compiled TU; a no-op elsewhere, where there is no GPU to time).
inline void hold_stream(int dev, double us);

/// Microseconds of stream hold that hide a call whose host part takes `host_us`.
inline double hold_for(double host_us) { return std::min(2000.0, 1.5 * host_us + 10); }

/// Times fn() on `dev`. With hide_launch, a hold kernel queued before the start event keeps the
/// GPU busy while fn() is enqueued, so the events time the device work alone, not the launch
/// latency (as nvbench does); use it only for calls that just enqueue device work: a call that
/// waits for the stream (a transfer) would overlap its host work with the hold and look faster.
/// The end-to-end times are then taken in a second loop without the hold.
template <class F>
gpu_stats time_gpu(cunp::device dev, F&& fn, const policy& p = gpu_policy,
                   bool hide_launch = false) {
  std::vector<double> warm;
  for (int i = 0; i < p.warmup; ++i) {
    const double t0 = now_ms();
    fn();
    warm.push_back(now_ms() - t0);
    cunp::synchronize(dev);
  }
  double hold_us = hide_launch ? hold_for(summarize(warm).median * 1e3) : 0;
  cunp::event start(dev), stop(dev);
  std::vector<double> device_ms, wall_ms, host_ms;
  double total = 0;
  while (keep_going(device_ms, total, p)) {
    if (hold_us > 0) hold_stream(dev.index(), hold_us);
    const double t0 = now_ms();
    start.record();
    fn();
    const double t1 = now_ms();
    stop.record();
    stop.synchronize();
    const double wall = now_ms() - t0;
    device_ms.push_back(cunp::event::elapsed_ms(start, stop));
    host_ms.push_back(t1 - t0);
    if (hold_us > 0 && (t1 - t0) * 1e3 > 0.8 * hold_us) hold_us = hold_for((t1 - t0) * 1e3);
    if (hold_us == 0) wall_ms.push_back(wall);
    total += wall;
  }
  if (hide_launch) {
    total = 0;
    while (keep_going(wall_ms, total, p)) {
      const double t0 = now_ms();
      fn();
      stop.record();
      stop.synchronize();
      wall_ms.push_back(now_ms() - t0);
      total += wall_ms.back();
    }
  }
  return {summarize(std::move(device_ms)), summarize(std::move(wall_ms)),
          summarize(std::move(host_ms))};
}

/// Decimal gigabytes per second (1 GB/s = 1e9 bytes/s) of `bytes` moved in `ms` milliseconds.
inline double gbps(double bytes, double ms) { return ms > 0 ? bytes / 1e9 / (ms * 1e-3) : 0; }

/// Decimal teraflops per second (1 TFLOP/s = 1e12 floating-point operations/s) of `flops` done
/// in `ms` milliseconds.
inline double tflops(double flops, double ms) { return ms > 0 ? flops / 1e12 / (ms * 1e-3) : 0; }

// ---------------------------------------------------------------------------------------------
// Inputs and checks (any TU)

/// splitmix64: a deterministic stream of 64-bit words, the same on every run and machine
/// (bench/cupy/cupy_report.py remakes it in NumPy for CuPy's inputs).
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t operator()() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

/// Deterministic pseudo-random values in [-1, 1) (splitmix64): not zeros, which run faster and
/// hide unwritten outputs, and the same on every run and backend.
template <class T> std::vector<T> random_values(std::size_t n, std::uint64_t seed = 42) {
  std::vector<T> v(n);
  splitmix64 g{seed};
  for (auto& x : v) x = static_cast<T>(static_cast<double>(g() >> 11) * 0x1.0p-52 - 1.0);
  return v;
}

/// A C-ordered array of random_values on `dev` (made on the host, then copied).
template <class T>
ndarray<T> random_array(const shape_t& shape, cunp::device dev, std::uint64_t seed = 42) {
  const auto n = static_cast<std::size_t>(cunp::shape_size(shape));
  return cunp::asarray(random_values<T>(n, seed), shape, cunp::cpu).to(dev);
}

/// An uninitialised C-ordered host array in page-locked memory (fast, DMA-able transfers);
/// plain host memory in a program without CUDA.
template <class T> ndarray<T> pinned_empty(const shape_t& shape) {
  const auto bytes = static_cast<std::size_t>(cunp::shape_size(shape)) * sizeof(T);
  return ndarray<T>(cunp::detail::allocate_pinned(bytes), 0, shape, cunp::c_strides(shape));
}

/// Fills and frees a block of `n` elements of T on `dev`, so that the next allocation of that
/// size from the stream-ordered pool (the output of the op under test) starts as NaN/garbage
/// rather than as the correct answer left there by an earlier run.
template <class T> void poison_pool(cunp::device dev, index_t n) {
  if (dev.is_cpu()) return;
  const auto poison = std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN()
                                                             : T(0x5A);
  (void)cunp::full<T>({n}, poison, dev);
}

/// max |got - want| / |want| over the elements (where want == 0, any difference counts as
/// infinite); infinite for a shape mismatch or a NaN in one array only.
template <class T> double max_rel_error(const ndarray<T>& got, const ndarray<T>& want) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (got.shape() != want.shape()) return inf;
  const auto g = got.to_vector(), w = want.to_vector();
  double worst = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double a = static_cast<double>(g[i]), b = static_cast<double>(w[i]);
    if (std::isnan(a) || std::isnan(b)) {
      if (!(std::isnan(a) && std::isnan(b))) return inf;
      continue;
    }
    if (a == b) continue;
    worst = std::max(worst, b == 0 ? inf : std::abs(a - b) / std::abs(b));
  }
  return worst;
}

/// Tolerance on max_rel_error for results that should agree between backends (the tests' own).
template <class T> constexpr double agree_rtol() { return sizeof(T) >= 8 ? 1e-13 : 1e-6; }

// ---------------------------------------------------------------------------------------------
// Device facts, ceilings and the L2 flush (nvcc-compiled TUs)
#if CUNP_HAS_CUDA

inline void check(cudaError_t status, const char* what) {
  cunp::detail::cuda::check(status, what);
}

/// What RESULTS.md records about the GPU, read from the driver.
struct device_facts {
  std::string name;
  int cc_major = 0, cc_minor = 0, sms = 0, driver = 0, runtime = 0;
  std::size_t l2_bytes = 0, memory_bytes = 0;
};

inline device_facts facts(int dev = 0) {
  device_facts f;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  f.name = prop.name;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sms = prop.multiProcessorCount;
  f.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  f.memory_bytes = prop.totalGlobalMem;
  check(cudaDriverGetVersion(&f.driver), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&f.runtime), "cudaRuntimeGetVersion");
  return f;
}

namespace kernels {
template <int = 0> CUNP_KERNEL void hold(unsigned long long ns) {
  unsigned long long t0 = 0, t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(500);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}
}  // namespace kernels

inline void hold_stream(int dev, double us) {
  cunp::detail::cuda::device_scope scope(dev);
  kernels::hold<<<1, 1, 0, cunp::detail::cuda::current_stream(dev)>>>(
      static_cast<unsigned long long>(us * 1e3));
  check(cudaGetLastError(), "launch of hold");
}

/// "13.0" from CUDA's 13000.
inline std::string cuda_version_str(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

/// A ceiling measured in this process: what one repeat counts (bytes moved for the bandwidth
/// ceilings, floating-point operations for the gemm ones) and the timings.
struct ceiling {
  double bytes = 0;
  double flops = 0;
  stats ms;
  [[nodiscard]] double gbps() const { return cunp_bench::gbps(bytes, ms.median); }
  [[nodiscard]] double tflops() const { return cunp_bench::tflops(flops, ms.median); }
};

/// Device memory outside cunp's pool, so that ceilings and flushes leave the pool's statistics
/// and cache as the op under test found them.
class raw_device_buffer {
 public:
  raw_device_buffer(int dev, std::size_t bytes) : dev_(dev), bytes_(bytes) {
    cunp::detail::cuda::device_scope scope(dev);
    check(cudaMalloc(&ptr_, bytes), "cudaMalloc");
  }
  raw_device_buffer(const raw_device_buffer&) = delete;
  raw_device_buffer& operator=(const raw_device_buffer&) = delete;
  ~raw_device_buffer() {
    cunp::detail::cuda::device_scope scope(dev_);
    cudaFree(ptr_);
  }
  [[nodiscard]] void* get() const { return ptr_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  int dev_;
  std::size_t bytes_;
  void* ptr_ = nullptr;
};

/// The "copy" ceiling of PERFORMANCE.md: a 1 GiB device-to-device cudaMemcpyAsync on the current
/// stream, read + written bytes counted (2 GiB per repeat). Measured once per process.
inline const ceiling& copy_ceiling(int dev = 0) {
  static const ceiling c = [dev] {
    const std::size_t bytes = std::size_t(1) << 30;
    raw_device_buffer src(dev, bytes), dst(dev, bytes);
    const cudaStream_t st = cunp::detail::cuda::current_stream(dev);
    check(cudaMemsetAsync(src.get(), 0x3f, bytes, st), "cudaMemsetAsync");
    ceiling out;
    out.bytes = 2.0 * static_cast<double>(bytes);
    out.ms = time_gpu(cunp::cuda(dev), [&] {
               check(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, st),
                     "cudaMemcpyAsync");
             }).device;
    return out;
  }();
  return c;
}

/// Pinned host <-> device ceilings: 256 MiB cudaMemcpyAsync from/to page-locked memory.
inline const ceiling& transfer_ceiling(int dev, bool to_device) {
  auto measure = [dev](bool h2d) {
    const std::size_t bytes = std::size_t(256) << 20;
    raw_device_buffer d(dev, bytes);
    const auto host = pinned_empty<std::uint8_t>({static_cast<index_t>(bytes)});
    std::fill(host.data(), host.data() + bytes, std::uint8_t(0x3f));
    const cudaStream_t st = cunp::detail::cuda::current_stream(dev);
    ceiling out;
    out.bytes = static_cast<double>(bytes);
    out.ms = time_gpu(cunp::cuda(dev), [&] {
               if (h2d)
                 check(cudaMemcpyAsync(d.get(), host.data(), bytes, cudaMemcpyHostToDevice, st),
                       "cudaMemcpyAsync");
               else
                 check(cudaMemcpyAsync(host.data(), d.get(), bytes, cudaMemcpyDeviceToHost, st),
                       "cudaMemcpyAsync");
             }).device;
    return out;
  };
  static const ceiling h2d = measure(true);
  static const ceiling d2h = measure(false);
  return to_device ? h2d : d2h;
}

/// Evicts the L2 cache before a cold-cache repeat: writes a buffer of four times the L2 size
/// (at least 256 MiB) on the current stream, outside the timed region.
class l2_flush {
 public:
  explicit l2_flush(int dev = 0)
      : dev_(dev), buf_(dev, std::max(4 * facts(dev).l2_bytes, std::size_t(256) << 20)) {}
  void operator()() {
    value_ = (value_ + 1) & 0xff;
    const cudaStream_t st = cunp::detail::cuda::current_stream(dev_);
    check(cudaMemsetAsync(buf_.get(), value_, buf_.bytes(), st), "cudaMemsetAsync");
  }
  [[nodiscard]] std::size_t bytes() const { return buf_.bytes(); }

 private:
  int dev_;
  raw_device_buffer buf_;
  int value_ = 0;
};

#else
inline void hold_stream(int, double) {}
#endif  // CUNP_HAS_CUDA

// ---------------------------------------------------------------------------------------------
// Google Benchmark: the cuBLAS gemm ceilings, CUDA-event manual time and rate counters
// (benchmark executables)
#if defined(CUNP_BENCH_GBENCH) && CUNP_HAS_CUDA

inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw cunp::cuda_error(static_cast<int>(status), what,
                           std::string(cublasGetStatusName(status)) + ": " +
                               cublasGetStatusString(status));
}

/// The process's cuBLAS handle (made on first use for `dev`, then kept until exit), bound to the
/// current stream of `dev`. Default math mode: float32 gemm runs in FP32, not on TF32 tensor
/// cores, the arithmetic that NumPy's float32 matmul promises.
inline cublasHandle_t cublas_handle(int dev = 0) {
  static const cublasHandle_t handle = [dev] {
    cunp::detail::cuda::device_scope scope(dev);
    cublasHandle_t h = nullptr;
    check(cublasCreate(&h), "cublasCreate");
    check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    return h;
  }();
  // Rebound only when the stream changed: cublasSetStream also resets the handle's workspace.
  const cudaStream_t st = cunp::detail::cuda::current_stream(dev);
  cudaStream_t bound = nullptr;
  check(cublasGetStream(handle, &bound), "cublasGetStream");
  if (bound != st) check(cublasSetStream(handle, st), "cublasSetStream");
  return handle;
}

/// c = a @ b for C-ordered n x n matrices of float or double on `dev`, enqueued on its current
/// stream. cuBLAS is column-major, so it computes c^T = b^T a^T: the same bytes.
template <class T> void gemm(int dev, int n, const T* a, const T* b, T* c) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  const T one = 1, zero = 0;
  const cublasHandle_t h = cublas_handle(dev);
  if constexpr (std::is_same_v<T, float>)
    check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n),
          "cublasSgemm");
  else
    check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n),
          "cublasDgemm");
}

/// Three C-ordered n x n matrices of T outside cunp's pool (as the other ceilings' buffers): a
/// and b of random_values (gemm on zeros runs cooler and faster), c for their product.
/// operator() enqueues c = a @ b; flops() = 2 n^3 (n^3 multiply-adds).
template <class T> class gemm_operands {
 public:
  gemm_operands(int dev, int n)
      : dev_(dev), n_(n), a_(dev, bytes(n)), b_(dev, bytes(n)), c_(dev, bytes(n)) {
    upload(a_, 1);
    upload(b_, 2);
  }
  void operator()() const {
    gemm<T>(dev_, n_, static_cast<const T*>(a_.get()), static_cast<const T*>(b_.get()),
            static_cast<T*>(c_.get()));
  }
  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] double flops() const { return 2.0 * n_ * n_ * n_; }

 private:
  static std::size_t bytes(int n) { return std::size_t(n) * std::size_t(n) * sizeof(T); }
  void upload(const raw_device_buffer& buf, std::uint64_t seed) const {
    const auto v = random_values<T>(std::size_t(n_) * std::size_t(n_), seed);
    const cudaStream_t st = cunp::detail::cuda::current_stream(dev_);
    check(cudaMemcpyAsync(buf.get(), v.data(), buf.bytes(), cudaMemcpyHostToDevice, st),
          "cudaMemcpyAsync");
    check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
  }
  int dev_, n_;
  raw_device_buffer a_, b_, c_;
};

/// Matrix side of the gemm ceilings.
inline constexpr int gemm_ceiling_n = 8192;

/// The "matmul rate" ceiling of PERFORMANCE.md for T = float or double: cuBLAS gemm
/// (cublasSgemm / cublasDgemm, default math) of two random 8192 x 8192 matrices on the current
/// stream, 2 n^3 flops counted per repeat, timed as copy_ceiling. Measured once per process per T.
template <class T> const ceiling& gemm_ceiling(int dev = 0) {
  static const ceiling c = [dev] {
    const gemm_operands<T> g(dev, gemm_ceiling_n);
    ceiling out;
    out.flops = g.flops();
    out.ms = time_gpu(cunp::cuda(dev), [&] { g(); }).device;
    return out;
  }();
  return c;
}

/// Seconds of manual time Google Benchmark aims for per run: env CUNP_BENCH_MIN_TIME (default
/// 0.05; a per-benchmark MinTime overrides the --benchmark_min_time flag, so this is the knob).
inline double min_time() {
  const char* env = std::getenv("CUNP_BENCH_MIN_TIME");
  return env && *env ? std::atof(env) : 0.05;
}

/// Configures a GPU benchmark: time from CUDA events (manual time), in microseconds.
inline benchmark::internal::Benchmark* gpu_timed(benchmark::internal::Benchmark* b) {
  return b->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(min_time());
}
/// Keeps a result alive and used, so that the call producing it is not optimised away.
template <class T> void consume(const ndarray<T>& a) {
  T* p = a.data();
  benchmark::DoNotOptimize(p);
}

/// Configures a host-latency benchmark (host_per_call): host time per call, in microseconds.
inline benchmark::internal::Benchmark* host_timed(benchmark::internal::Benchmark* b) {
  return b->UseManualTime()->Unit(benchmark::kMicrosecond)->MinTime(min_time());
}
/// What a launch-bound call costs the host: batches of 64 calls timed on the host, with `dev`
/// drained between batches so the launch queue never fills (a full queue makes each call wait
/// for the GPU, whose time would then be measured instead of the host's).
template <class F> void host_per_call(benchmark::State& s, cunp::device dev, F&& fn) {
  constexpr int batch = 64;
  for (int i = 0; i < batch; ++i) fn();
  cunp::synchronize(dev);
  for (auto _ : s) {
    const double t0 = now_ms();
    for (int i = 0; i < batch; ++i) fn();
    const double t1 = now_ms();
    cunp::synchronize(dev);
    s.SetIterationTime((t1 - t0) / 1e3 / batch);
  }
}

/// Byte sizes lo, lo * factor, ... up to hi (inclusive).
inline std::vector<std::int64_t> sizes(std::int64_t lo, std::int64_t hi, std::int64_t factor) {
  std::vector<std::int64_t> out;
  for (std::int64_t b = lo; b <= hi; b *= factor) out.push_back(b);
  return out;
}

/// The measured ceiling a row's fraction refers to: a bandwidth (the row counts bytes) or a gemm
/// rate of one dtype (the row counts flops).
enum class against : std::uint8_t {
  nothing,
  copy_ceiling,
  h2d_ceiling,
  d2h_ceiling,
  gemm_ceiling_f32,
  gemm_ceiling_f64
};

inline bool counts_flops(against c) {
  return c == against::gemm_ceiling_f32 || c == against::gemm_ceiling_f64;
}

/// A row sets bytes (GB/s, against a bandwidth ceiling) or flops (TFLOP/s, against a gemm
/// ceiling). flops comes last so that the rows written as {bytes, ceiling, hide_launch, flush}
/// stay valid; FLOP rows use designated initializers.
struct loop_options {
  double bytes = 0;                     ///< fewest bytes the op must move per iteration
  against ceiling = against::nothing;   ///< which measured ceiling the fraction refers to
  bool hide_launch = false;             ///< hold the stream while body() is enqueued (time_gpu)
  l2_flush* flush = nullptr;            ///< cold-cache variant: flush before every iteration
  int warmup = 3;                       ///< untimed calls before the timed loop
  double flops = 0;                     ///< floating-point operations per iteration
};

/// The measured ceiling an op is compared with: GB/s for the bandwidth ceilings, TFLOP/s for the
/// gemm ones (0 for against::nothing).
inline double ceiling_rate(against c) {
  switch (c) {
    case against::copy_ceiling: return copy_ceiling().gbps();
    case against::h2d_ceiling: return transfer_ceiling(0, true).gbps();
    case against::d2h_ceiling: return transfer_ceiling(0, false).gbps();
    case against::gemm_ceiling_f32: return gemm_ceiling<float>().tflops();
    case against::gemm_ceiling_f64: return gemm_ceiling<double>().tflops();
    case against::nothing: break;
  }
  return 0;
}

/// The counter that holds the fraction of ceiling `c`.
inline const char* frac_counter(against c) {
  switch (c) {
    case against::copy_ceiling: return "frac_copy";
    case against::h2d_ceiling: return "frac_h2d_pinned";
    case against::d2h_ceiling: return "frac_d2h_pinned";
    case against::gemm_ceiling_f32:
    case against::gemm_ceiling_f64: return "frac_gemm";
    case against::nothing: break;
  }
  return "frac";
}

/// Times body() with CUDA events on the current stream of cuda(0), one event pair per
/// iteration, and reports it as the iteration's manual time (with hide_launch, a hold kernel
/// queued first keeps the launch latency out of it, as in time_gpu). Counters, all from the
/// median iteration (Google Benchmark's Time column is the mean): median_us, min_us, max_us,
/// host_us (host time of the body() call), then bytes (per iteration) and GB/s (decimal), or
/// flops (per iteration) and TFLOP/s (decimal), and frac_<ceiling> (that rate over the ceiling
/// measured in this process: frac_copy, frac_h2d_pinned, frac_d2h_pinned, frac_gemm).
template <class F> void gpu_loop(benchmark::State& state, const loop_options& o, F&& body) {
  const cunp::device dev = cunp::cuda(0);
  const double ceil = ceiling_rate(o.ceiling);  // measured before, never inside, the timed loop
  std::vector<double> host;
  for (int i = 0; i < o.warmup; ++i) {
    const double t0 = now_ms();
    body();
    host.push_back(now_ms() - t0);
    cunp::synchronize(dev);
  }
  double hold_us = o.hide_launch ? hold_for(summarize(host).median * 1e3) : 0;
  host.clear();
  cunp::event start(dev), stop(dev);
  std::vector<double> ms;
  for (auto _ : state) {
    if (o.flush) (*o.flush)();
    if (hold_us > 0) hold_stream(0, hold_us);
    const double t0 = now_ms();
    start.record();
    body();
    const double t1 = now_ms();
    stop.record();
    stop.synchronize();
    const double t = cunp::event::elapsed_ms(start, stop);
    state.SetIterationTime(t * 1e-3);
    ms.push_back(t);
    host.push_back(t1 - t0);
    if (hold_us > 0 && (t1 - t0) * 1e3 > 0.8 * hold_us) hold_us = hold_for((t1 - t0) * 1e3);
  }
  const stats s = summarize(std::move(ms));
  state.counters["median_us"] = s.median * 1e3;
  state.counters["min_us"] = s.min * 1e3;
  state.counters["max_us"] = s.max * 1e3;
  state.counters["host_us"] = summarize(std::move(host)).median * 1e3;
  if (o.bytes > 0) {
    state.counters["bytes"] = o.bytes;
    state.counters["GB/s"] = gbps(o.bytes, s.median);
  }
  if (o.flops > 0) {
    state.counters["flops"] = o.flops;
    state.counters["TFLOP/s"] = tflops(o.flops, s.median);
  }
  // The rate in the ceiling's own unit: a fraction of mismatched units is never reported.
  const double rate =
      counts_flops(o.ceiling) ? tflops(o.flops, s.median) : gbps(o.bytes, s.median);
  if (ceil > 0 && rate > 0) state.counters[frac_counter(o.ceiling)] = rate / ceil;
}

/// main() of a benchmark executable: records the GPU, driver, CUDA and the ceilings (copy, pinned
/// transfers, gemm float32 / float64) in the JSON context, then runs the benchmarks. Without a GPU
/// it prints why and exits 77 (skipped), except for --benchmark_list_tests.
inline int run_main(int argc, char** argv) {
  bool list_only = false;
  for (int i = 1; i < argc; ++i)
    list_only = list_only || std::string(argv[i]).rfind("--benchmark_list_tests", 0) == 0;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (!list_only) {
    if (!cunp::cuda_available()) {
      std::fprintf(stderr, "No CUDA GPU found: these benchmarks time GPU work; nothing to measure "
                           "(exit 77). bench/report runs on a CPU-only machine.\n");
      return 77;
    }
    const device_facts f = facts(0);
    const ceiling& c = copy_ceiling(0);
    const ceiling& g32 = gemm_ceiling<float>(0);
    const ceiling& g64 = gemm_ceiling<double>(0);
    char buf[64];
    auto num = [&buf](double v) {
      std::snprintf(buf, sizeof buf, "%.4g", v);
      return std::string(buf);
    };
    auto spread = [&num](const stats& ms) {
      return num(ms.median) + " median, " + num(ms.min) + "-" + num(ms.max) + " over " +
             std::to_string(ms.repeats);
    };
    benchmark::AddCustomContext("gpu", f.name);
    benchmark::AddCustomContext("compute_capability", std::to_string(f.cc_major) + "." +
                                                          std::to_string(f.cc_minor));
    benchmark::AddCustomContext("sms", std::to_string(f.sms));
    benchmark::AddCustomContext("l2_bytes", std::to_string(f.l2_bytes));
    benchmark::AddCustomContext("cuda_driver", cuda_version_str(f.driver));
    benchmark::AddCustomContext("cuda_runtime", cuda_version_str(f.runtime));
    benchmark::AddCustomContext("cunp_version", std::to_string(CUNP_VERSION_MAJOR) + "." +
                                                    std::to_string(CUNP_VERSION_MINOR) + "." +
                                                    std::to_string(CUNP_VERSION_PATCH));
    benchmark::AddCustomContext("copy_ceiling_GBps", num(c.gbps()));
    benchmark::AddCustomContext("copy_ceiling_ms", spread(c.ms));
    benchmark::AddCustomContext("h2d_pinned_ceiling_GBps", num(transfer_ceiling(0, true).gbps()));
    benchmark::AddCustomContext("d2h_pinned_ceiling_GBps", num(transfer_ceiling(0, false).gbps()));
    benchmark::AddCustomContext("gemm_f32_ceiling_TFLOPs", num(g32.tflops()));
    benchmark::AddCustomContext("gemm_f32_ceiling_ms", spread(g32.ms));
    benchmark::AddCustomContext("gemm_f64_ceiling_TFLOPs", num(g64.tflops()));
    benchmark::AddCustomContext("gemm_f64_ceiling_ms", spread(g64.ms));
    const std::string side = std::to_string(gemm_ceiling_n);
    benchmark::AddCustomContext("gemm_ceiling", "cublasSgemm / cublasDgemm of two random " +
                                                    side + "x" + side + " matrices, default "
                                                    "math (float32 in FP32, no TF32); 2 n^3 "
                                                    "flops, decimal TFLOP/s");
    benchmark::AddCustomContext("timing", "CUDA events on the current stream around each "
                                          "iteration after 3 untimed calls (device-only ops: "
                                          "launch hidden behind a hold kernel); counters from "
                                          "the median iteration; min_time " + num(min_time()) +
                                          " s");
    std::fprintf(stderr,
                 "%s: copy ceiling %.0f GB/s (1 GiB D2D, read + write); gemm ceiling %.1f "
                 "TFLOP/s float32, %.1f TFLOP/s float64 (cuBLAS, %d^3)\n",
                 f.name.c_str(), c.gbps(), g32.tflops(), g64.tflops(), gemm_ceiling_n);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

#endif  // CUNP_BENCH_GBENCH && CUNP_HAS_CUDA

}  // namespace cunp_bench
