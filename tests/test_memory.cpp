// Memory pool, pinned staging, streams, events and synchronisation.
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "cunp/detail/core/lru_cache.hpp"
#include "cunp/detail/core/plan_key.hpp"
#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

TEST_CASE("the cpu has no pool, streams or events", "[memory][errors]") {
  const auto s = cunp::memory_stats(cpu);
  REQUIRE(s.used_bytes == 0);
  REQUIRE(s.cached_bytes == 0);
  cunp::empty_cache(cpu);
  cunp::synchronize(cpu);
  REQUIRE_THROWS_AS(cunp::set_memory_limit(cpu, 1 << 20), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::stream(cpu), cunp::device_error);
  REQUIRE_THROWS_AS(cunp::event(cpu), cunp::device_error);
}

TEST_CASE("the pool reuses freed memory and reports it", "[memory][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const std::size_t bytes = std::size_t(64) << 20;
    const auto before = cunp::memory_stats(dev);
    {
      const auto a = cunp::empty<float>({index_t(bytes / 4)}, dev);
      const auto during = cunp::memory_stats(dev);
      REQUIRE(during.used_bytes == before.used_bytes + bytes);
      REQUIRE(during.peak_bytes >= during.used_bytes);
    }
    cunp::synchronize(dev);
    const auto after = cunp::memory_stats(dev);
    REQUIRE(after.used_bytes == before.used_bytes);
    REQUIRE(after.cached_bytes >= bytes);  // kept by the pool for the next allocation
    cunp::empty_cache(dev);
    REQUIRE(cunp::memory_stats(dev).cached_bytes < bytes);
  });
}

// [oom]: compute-sanitizer reports the failed allocations this provokes; gpu-check.sh skips it there.
TEST_CASE("out of memory: a limit, and more than the GPU has", "[memory][gpu][errors][oom]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    cunp::set_memory_limit(dev, std::size_t(1) << 30);
    REQUIRE_THROWS_AS(cunp::empty<double>({index_t(1) << 28}, dev), cunp::out_of_memory);
    REQUIRE(cunp::empty<double>({index_t(1) << 20}, dev).size() == index_t(1) << 20);
    cunp::set_memory_limit(dev, 0);
    // 1 PiB: the pool frees its cache, retries once, then names the bytes asked for and free.
    try {
      (void)cunp::empty<std::uint8_t>({index_t(1) << 50}, dev);
      FAIL("a 1 PiB allocation succeeded");
    } catch (const cunp::out_of_memory& e) {
      REQUIRE(e.requested_bytes() == std::size_t(1) << 50);
      REQUIRE(e.free_bytes() > 0);
      REQUIRE_THAT(e.what(), Catch::Contains("out of memory allocating 1125899906842624 bytes"));
    }
    // The device is still usable afterwards.
    require_values<int>(cunp::full<int>({3}, 5, dev), {5, 5, 5}, {3});
  });
}

TEST_CASE("streams order work; events time it", "[memory][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    cunp::stream s(dev);
    cunp::event start(dev), stop(dev);
    const auto host = cunp::arange<float>(0, 1 << 22, 1, cpu);
    cunp::ndarray<float> d;
    {
      cunp::stream_guard g(s);
      start.record();
      d = host.to(dev);
      const auto twice = d.copy();
      stop.record();
      d = twice;
    }
    stop.synchronize();
    REQUIRE(cunp::event::elapsed_ms(start, stop) >= 0.0f);
    s.synchronize();
    REQUIRE(d.to_vector() == host.to_vector());
    cunp::synchronize(dev);
  });
}

TEST_CASE("allow_synchronize(false) turns hidden waits into errors", "[memory][gpu][errors]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::ones<float>({4}, dev);
    struct restore {
      ~restore() { cunp::allow_synchronize(true); }  // even when a check fails
    } restore_on_exit;
    cunp::allow_synchronize(false);
    if (dev.is_cuda()) {
      REQUIRE_THROWS_AS(a.to_vector(), cunp::device_error);
      REQUIRE_THROWS_AS(cunp::full<float>({1}, 1.f, dev).item(), cunp::device_error);
      REQUIRE_THROWS_AS(a.to(cpu), cunp::device_error);
      REQUIRE_THROWS_AS(cunp::synchronize(dev), cunp::device_error);
    } else {
      REQUIRE(a.to_vector().size() == 4);  // nothing to wait for on the cpu
    }
    cunp::allow_synchronize(true);
    REQUIRE(a.to_vector().size() == 4);
  });
}

// ---------------------------------------------------------------------------------------------
// The vendor libraries' plan cache (detail/core/lru_cache.hpp) and handles (detail/cuda/core/).

namespace {

using cunp::detail::core::plan_key;
using int_cache = cunp::detail::core::lru_cache<plan_key, int, plan_key::hash>;

plan_key key_of(int n) { return plan_key("test").add(n); }
/// make() for key n: the value n, `bytes` of work area, and a count of the entries made.
auto make_int(int n, std::size_t bytes, int* made = nullptr) {
  return [=] {
    if (made) ++*made;
    return cunp::detail::core::sized<int>{std::make_shared<int>(n), bytes};
  };
}

}  // namespace

TEST_CASE("plan keys tell apart every sequence of what decides a plan", "[memory][plan_cache]") {
  REQUIRE(plan_key("fft").add(1).add(2) == plan_key("fft").add(1).add(2));
  REQUIRE(!(plan_key("fft").add(1) == plan_key("spmv").add(1)));
  REQUIRE(!(plan_key("f").add_all(std::vector<int>{1, 2}).add_all(std::vector<int>{3}) ==
            plan_key("f").add_all(std::vector<int>{1}).add_all(std::vector<int>{2, 3})));
  REQUIRE(!(plan_key("f").add("ab").add("c") == plan_key("f").add("a").add("bc")));
  REQUIRE(!(plan_key("f").add(std::int64_t(-1)) == plan_key("f").add(std::uint32_t(0xffffffff))));
  const plan_key::hash h;
  REQUIRE(h(plan_key("fft").add_all(shape_t{4, 8})) == h(plan_key("fft").add_all(shape_t{4, 8})));
}

TEST_CASE("the plan cache counts hits and misses and evicts by count and by bytes",
          "[memory][plan_cache]") {
  int_cache c(2, 100);
  int made = 0;
  REQUIRE(*c.lookup_or_make(key_of(1), make_int(1, 10, &made)) == 1);
  REQUIRE(*c.lookup_or_make(key_of(1), make_int(-1, 10, &made)) == 1);  // cached: not made again
  REQUIRE(*c.lookup_or_make(key_of(2), make_int(2, 10, &made)) == 2);
  REQUIRE(made == 2);
  auto s = c.stats();
  REQUIRE((s.entries == 2 && s.bytes == 20 && s.hits == 1 && s.misses == 2 && s.evictions == 0));
  // By count: touching 2 leaves 1 the least recently used, so making 3 evicts 1.
  (void)c.lookup_or_make(key_of(2), make_int(2, 10));
  (void)c.lookup_or_make(key_of(3), make_int(3, 10));
  s = c.stats();
  REQUIRE((s.entries == 2 && s.evictions == 1));
  made = 0;
  (void)c.lookup_or_make(key_of(2), make_int(2, 10, &made));
  REQUIRE(made == 0);
  (void)c.lookup_or_make(key_of(1), make_int(1, 10, &made));
  REQUIRE(made == 1);  // evicted, so made again (and 3, the least recently used, went)
  REQUIRE(c.stats().evictions == 2);
  // By bytes: 60 + 40 fit in 100, a further 30 pushes the least recently used out.
  c.set_limits(8, 100);
  c.clear();
  (void)c.lookup_or_make(key_of(10), make_int(10, 60));
  (void)c.lookup_or_make(key_of(11), make_int(11, 40));
  REQUIRE(c.stats().bytes == 100);
  (void)c.lookup_or_make(key_of(12), make_int(12, 30));
  s = c.stats();
  REQUIRE((s.entries == 2 && s.bytes == 70 && s.evictions == 3));
  // An entry larger than the bound is returned, not cached; lowering the bounds evicts now.
  REQUIRE(*c.lookup_or_make(key_of(13), make_int(13, 101)) == 13);
  REQUIRE(c.stats().entries == 2);
  c.set_limits(1, 100);
  s = c.stats();
  REQUIRE((s.entries == 1 && s.bytes == 30 && s.evictions == 4 && s.max_entries == 1));
  // Caching off: max_entries 0.
  c.set_limits(0, 100);
  made = 0;
  (void)c.lookup_or_make(key_of(12), make_int(12, 1, &made));
  (void)c.lookup_or_make(key_of(12), make_int(12, 1, &made));
  REQUIRE((made == 2 && c.stats().entries == 0));
}

TEST_CASE("a plan evicted or cleared while in use lives until its user lets it go",
          "[memory][plan_cache]") {
  struct plan {
    bool* alive;
    explicit plan(bool* a) : alive(a) { *alive = true; }
    ~plan() { *alive = false; }
  };
  cunp::detail::core::lru_cache<plan_key, plan, plan_key::hash> c(1, 1000);
  bool first = false, second = false;
  const auto make = [](bool* flag) {
    return [flag] { return cunp::detail::core::sized<plan>{std::make_shared<plan>(flag), 1}; };
  };
  auto held = c.lookup_or_make(key_of(1), make(&first));
  (void)c.lookup_or_make(key_of(2), make(&second));  // evicts 1
  REQUIRE(c.stats().evictions == 1);
  REQUIRE(first);  // still held
  held.reset();
  REQUIRE(!first);
  held = c.lookup_or_make(key_of(2), make(&second));
  c.clear();
  REQUIRE((second && c.stats().entries == 0));
  held.reset();
  REQUIRE(!second);
}

TEST_CASE("the plan cache is safe to use from several threads at once", "[memory][plan_cache]") {
  int_cache c(8, 1 << 20);
  constexpr int threads = 4, calls = 20000, keys = 12;  // more keys than entries: evictions too
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::uint64_t seed = t;
      for (int i = 0; i < calls; ++i) {
        const int k = static_cast<int>(splitmix64(seed) % keys);
        if (*c.lookup_or_make(key_of(k), make_int(k, 64)) != k) ++wrong;
        if (i % 1000 == 999) (void)c.stats();
        if (t == 0 && i % 5000 == 4999) c.clear();
      }
    });
  for (auto& th : pool) th.join();
  REQUIRE(wrong == 0);
  const auto s = c.stats();
  REQUIRE(s.hits + s.misses == std::size_t(threads) * calls);
  REQUIRE(s.entries <= 8);
  REQUIRE(s.bytes == s.entries * 64);
  REQUIRE(s.evictions > 0);
}

TEST_CASE("the cpu has no plan cache", "[memory][plan_cache]") {
  const auto s = cunp::plan_cache_info(cpu);
  REQUIRE((s.entries == 0 && s.bytes == 0 && s.hits == 0 && s.misses == 0 && s.evictions == 0));
  cunp::empty_cache(cpu);
}

#if CUNP_HAS_CUDA
#include <cub/device/device_reduce.cuh>

#include "cunp/detail/cuda/core/cublas.cuh"
#include "cunp/detail/cuda/core/cublaslt.cuh"
#include "cunp/detail/cuda/core/cufft.cuh"
#include "cunp/detail/cuda/core/curand.cuh"
#include "cunp/detail/cuda/core/cusolver.cuh"
#include "cunp/detail/cuda/core/cusparse.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"

namespace {

namespace cu = cunp::detail::cuda;

cudaStream_t as_stream(const cunp::stream& s) { return static_cast<cudaStream_t>(s.handle()); }

/// Runs body(thread index, its two streams) on 2 host threads at once and rethrows the first
/// failure (Catch2's assertions are not thread-safe: the bodies throw instead).
template <class F> void on_two_threads(cunp::device dev, F body) {
  std::exception_ptr failed;
  std::mutex m;
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      try {
        cunp::stream a(dev), b(dev);
        body(t, a, b);
      } catch (...) {
        std::lock_guard lock(m);
        if (!failed) failed = std::current_exception();
      }
    });
  for (auto& th : threads) th.join();
  if (failed) std::rethrow_exception(failed);
}

void expect(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

/// Plans kept alive until static destruction, after main returns (the exit test below).
std::shared_ptr<cu::cufft_plan>& plan_kept_until_exit() {
  static std::shared_ptr<cu::cufft_plan> kept;
  return kept;
}

/// An array kept alive until static destruction, after the main thread's block cache is gone.
cunp::ndarray<float>& array_kept_until_exit() {
  static cunp::ndarray<float> kept;
  return kept;
}

/// A cached 1-D complex-to-complex cuFFT plan of n points.
std::shared_ptr<cu::cufft_plan> c2c_plan(int dev, int n) {
  return cu::cufft_plan::cached(dev, plan_key("test_c2c").add(n), "cufftMakePlan1d",
                                [n](cufftHandle h, std::size_t* work) {
                                  return cufftMakePlan1d(h, n, CUFFT_C2C, 1, work);
                                });
}

/// The forward FFT of n ones on the current stream: n at index 0, zeros elsewhere.
void check_fft_of_ones(cunp::device dev, int n) {
  const auto x = cunp::ones<std::complex<float>>({n}, dev);
  auto y = cunp::empty<std::complex<float>>({n}, dev);
  c2c_plan(dev.index(), n)->run("cufftExecC2C", [&](cufftHandle h) {
    return cufftExecC2C(h, reinterpret_cast<cufftComplex*>(x.data()),
                        reinterpret_cast<cufftComplex*>(y.data()), CUFFT_FORWARD);
  });
  const auto v = y.to_vector();
  for (int i = 0; i < n; ++i)
    expect(std::abs(v[i] - std::complex<float>(i == 0 ? float(n) : 0.f, 0.f)) < 1e-3f,
           "FFT of " + std::to_string(n) + " ones: element " + std::to_string(i));
}

}  // namespace

TEST_CASE("cuBLAS, cuSOLVER, cuSPARSE handles: 2 threads x 2 streams x many calls",
          "[memory][gpu][handles]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const int d = dev.index();
    on_two_threads(dev, [&](int t, cunp::stream& a, cunp::stream& b) {
      constexpr int n = 1000, calls = 200;
      cunp::stream* streams[2] = {&a, &b};
      const auto ones = cunp::ones<float>({n}, dev);
      cunp::ndarray<float> acc[2];
      for (int k = 0; k < 2; ++k) {
        cunp::stream_guard g(*streams[k]);
        acc[k] = cunp::full<float>({n}, float(t), dev);
      }
      cublasHandle_t first = nullptr;
      for (int i = 0; i < calls; ++i) {
        const int k = i % 2;
        cunp::stream_guard g(*streams[k]);
        const cublasHandle_t h = cu::cublas_handle(d);
        if (!first) first = h;
        expect(h == first, "one cuBLAS handle per thread and device");
        cudaStream_t bound = nullptr;
        CUNP_CUBLAS_CHECK(cublasGetStream(h, &bound));
        expect(bound == as_stream(*streams[k]), "the cuBLAS handle is bound to the current stream");
        const float one = 1;
        CUNP_CUBLAS_CHECK(cublasSaxpy(h, n, &one, ones.data(), 1, acc[k].data(), 1));
        cusolverDnHandle_t s = cu::cusolver_handle(d);
        CUNP_CUSOLVER_CHECK(cusolverDnGetStream(s, &bound));
        expect(bound == as_stream(*streams[k]), "the cuSOLVER handle is bound to the current stream");
        cusparseHandle_t sp = cu::cusparse_handle(d);
        CUNP_CUSPARSE_CHECK(cusparseGetStream(sp, &bound));
        expect(bound == as_stream(*streams[k]), "the cuSPARSE handle is bound to the current stream");
        expect(cu::cublaslt_handle(d) != nullptr, "a cuBLASLt handle");
      }
      for (int k = 0; k < 2; ++k) {
        cunp::stream_guard g(*streams[k]);
        // Each stream's accumulator took calls / 2 additions of one, in order on its stream.
        float dot = 0;
        CUNP_CUBLAS_CHECK(cublasSdot(cu::cublas_handle(d), n, acc[k].data(), 1, ones.data(), 1, &dot));
        expect(dot == float(n) * float(t + calls / 2), "cublasSdot of the accumulated vector");
        // LU of diag(2, 3, 4, 5) on this stream: pivots 2..5, info 0.
        auto m = cunp::zeros<float>({4, 4}, dev);
        for (int j = 0; j < 4; ++j) cunp::copyto(cunp::view(m, j, j), float(j + 2));
        const cusolverDnHandle_t s = cu::cusolver_handle(d);
        int lwork = 0;
        CUNP_CUSOLVER_CHECK(cusolverDnSgetrf_bufferSize(s, 4, 4, m.data(), 4, &lwork));
        const cu::workspace work(d, std::size_t(lwork) * sizeof(float));
        auto pivots = cunp::empty<int>({4}, dev);
        auto info = cunp::empty<int>({1}, dev);
        CUNP_CUSOLVER_CHECK(cusolverDnSgetrf(s, 4, 4, m.data(), 4, static_cast<float*>(work.data()),
                                             pivots.data(), info.data()));
        cu::check_cusolver_info(d, info.data(), 1, "cusolverDnSgetrf", "Singular matrix");
        const auto lu = m.to_vector();
        expect(lu[0] * lu[5] * lu[10] * lu[15] == 120.f, "the determinant from cusolverDnSgetrf");
      }
    });
  });
}

TEST_CASE("a handle used on stream A then on stream B computes on B", "[memory][gpu][handles]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const int d = dev.index();
    cunp::stream a(dev), b(dev);
    constexpr int n = 1 << 22;
    const auto ones = cunp::ones<float>({n}, dev);
    auto x = cunp::zeros<float>({n}, dev);
    const float one = 1;
    {
      cunp::stream_guard g(a);
      CUNP_CUBLAS_CHECK(cublasSaxpy(cu::cublas_handle(d), n, &one, ones.data(), 1, x.data(), 1));
    }
    a.synchronize();
    cunp::event done(dev);
    {
      cunp::stream_guard g(b);
      for (int i = 0; i < 8; ++i)
        CUNP_CUBLAS_CHECK(cublasSaxpy(cu::cublas_handle(d), n, &one, ones.data(), 1, x.data(), 1));
      done.record();
    }
    // Had the handle stayed on A, B's event would not wait for the additions.
    done.synchronize();
    cunp::ndarray<float> host = x.to(cpu);  // per-thread default stream: after b's work
    REQUIRE(cunp::view(host, 0).item() == 9.f);
    REQUIRE(cunp::view(host, n - 1).item() == 9.f);
  });
}

TEST_CASE("cuSOLVER's info: singular is linalg_error, an illegal parameter cuda_error, and the "
          "wait obeys allow_synchronize", "[memory][gpu][errors]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const int d = dev.index();
    const auto positive = cunp::full<int>({3}, 0, dev);
    cunp::copyto(cunp::view(positive, 1), 2);
    try {
      cu::check_cusolver_info(d, positive.data(), 3, "cusolverDnXgetrf", "Singular matrix");
      FAIL("no linalg_error");
    } catch (const cunp::linalg_error& e) {
      REQUIRE(std::string(e.what()) == "Singular matrix");
    }
    const auto negative = cunp::full<int>({1}, -4, dev);
    try {
      cu::check_cusolver_info(d, negative.data(), 1, "cusolverDnXgetrf", "Singular matrix");
      FAIL("no cuda_error");
    } catch (const cunp::cuda_error& e) {
      REQUIRE_THAT(e.what(), Catch::Contains("parameter 4 of cusolverDnXgetrf had an illegal value"));
      REQUIRE(e.call() == "cusolverDnXgetrf");
    }
    struct restore {
      ~restore() { cunp::allow_synchronize(true); }
    } restore_on_exit;
    cunp::allow_synchronize(false);
    REQUIRE_THROWS_AS(cu::check_cusolver_info(d, negative.data(), 1, "cusolverDnXgetrf", "x"),
                      cunp::device_error);
  });
}

TEST_CASE("library statuses become cuda_error naming the library, the call and the status",
          "[memory][gpu][errors]") {
  const auto message = [](auto&& throws) {
    try {
      throws();
    } catch (const cunp::cuda_error& e) {
      return std::string(e.what());
    }
    return std::string("nothing thrown");
  };
  REQUIRE_THAT(message([] { CUNP_CUBLAS_CHECK(CUBLAS_STATUS_INVALID_VALUE); }),
               Catch::Contains("CUBLAS_STATUS_INVALID_VALUE failed: cuBLAS CUBLAS_STATUS_INVALID_VALUE: "));
  REQUIRE_THAT(message([] { cu::check_cublaslt(CUBLAS_STATUS_NOT_SUPPORTED, "cublasLtMatmul"); }),
               Catch::StartsWith("cublasLtMatmul failed: cuBLASLt CUBLAS_STATUS_NOT_SUPPORTED: "));
  REQUIRE(message([] { cu::check_cusolver(CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnSgetrf"); }) ==
          "cusolverDnSgetrf failed: cuSOLVER CUSOLVER_STATUS_INVALID_VALUE: an invalid value was passed");
  REQUIRE(message([] { cu::check_cufft(CUFFT_INVALID_SIZE, "cufftMakePlan1d"); }) ==
          "cufftMakePlan1d failed: cuFFT CUFFT_INVALID_SIZE: the transform size is invalid");
  REQUIRE_THAT(message([] { cu::check_cusparse(CUSPARSE_STATUS_INVALID_VALUE, "cusparseSpMV"); }),
               Catch::StartsWith("cusparseSpMV failed: cuSPARSE CUSPARSE_STATUS_INVALID_VALUE: "));
  REQUIRE(message([] { cu::check_curand(CURAND_STATUS_OUT_OF_RANGE, "curandGenerate"); }) ==
          "curandGenerate failed: cuRAND CURAND_STATUS_OUT_OF_RANGE: an argument is out of range");
  REQUIRE_THAT(message([] { cu::check_cufft(cufftResult(0x7f), "cufftExecC2C"); }),
               Catch::Contains("CUFFT_UNKNOWN"));
  try {
    cu::check_cufft(CUFFT_EXEC_FAILED, "cufftExecC2C");
  } catch (const cunp::cuda_error& e) {
    REQUIRE(e.status() == CUFFT_EXEC_FAILED);
  }
}

TEST_CASE("cuFFT plans from the plan cache: several threads, counts, eviction, empty_cache",
          "[memory][gpu][plan_cache]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const int d = dev.index();
    const auto defaults = cunp::plan_cache_info(dev);
    REQUIRE(defaults.max_entries > 0);
    REQUIRE(defaults.max_bytes > 0);
    cunp::empty_cache(dev);
    REQUIRE(cunp::plan_cache_info(dev).entries == 0);
    const auto before = cunp::plan_cache_info(dev);
    constexpr int sizes[] = {64, 256, 1024}, rounds = 30;
    on_two_threads(dev, [&](int, cunp::stream& a, cunp::stream& b) {
      for (int i = 0; i < rounds; ++i) {
        cunp::stream_guard g(i % 2 ? b : a);
        for (const int n : sizes) check_fft_of_ones(dev, n);
      }
    });
    auto s = cunp::plan_cache_info(dev);
    const std::size_t lookups = 2 * rounds * std::size(sizes);
    REQUIRE(s.entries == std::size(sizes));
    REQUIRE(s.hits + s.misses - before.hits - before.misses == lookups);
    REQUIRE(s.misses - before.misses >= std::size(sizes));
    REQUIRE(s.misses - before.misses <= 2 * std::size(sizes));  // at most both threads made one
    // By count: two entries at most.
    cu::set_plan_cache_limits(d, 2, defaults.max_bytes);
    s = cunp::plan_cache_info(dev);
    REQUIRE((s.entries == 2 && s.evictions == before.evictions + 1));
    // By bytes: no room for any work area leaves only plans that need none.
    const auto held = c2c_plan(d, 1 << 20);
    REQUIRE(held->work_bytes() > 0);
    cu::set_plan_cache_limits(d, 64, held->work_bytes() - 1);
    s = cunp::plan_cache_info(dev);
    REQUIRE(s.bytes < held->work_bytes());
    {
      cunp::stream other(dev);
      cunp::stream_guard g(other);
      check_fft_of_ones(dev, 1 << 20);  // the held plan, evicted, still runs (on a new stream)
    }
    cu::set_plan_cache_limits(d, defaults.max_entries, defaults.max_bytes);
    (void)c2c_plan(d, 64);
    REQUIRE(cunp::plan_cache_info(dev).entries >= 1);
    cunp::empty_cache(dev);
    s = cunp::plan_cache_info(dev);
    REQUIRE((s.entries == 0 && s.bytes == 0));
    check_fft_of_ones(dev, 1 << 20);  // `held`, cleared from the cache, still runs
  });
}

TEST_CASE("cub_call sizes CUB's scratch and takes it from the pool", "[memory][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const auto x = cunp::arange<std::int64_t>(0, 100000, 1, dev);
    auto sum = cunp::empty<std::int64_t>({1}, dev);
    const cudaStream_t st = cu::current_stream(dev.index());
    cu::cub_call(dev.index(), "cub::DeviceReduce::Sum", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceReduce::Sum(temp, bytes, x.data(), sum.data(), x.size(), st);
    });
    REQUIRE(cunp::view(sum, 0).item() == std::int64_t(100000) * 99999 / 2);
  });
}

TEST_CASE("the thread's block cache: a freed block is reused, the oldest go back to the pool",
          "[memory][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    using cache = cu::block_cache;
    auto& mine = *cu::thread_block_cache();
    cunp::empty_cache(dev);
    REQUIRE(mine.cached_bytes() == 0);
    const auto floats = [](std::size_t bytes) { return index_t(bytes / sizeof(float)); };
    const void* small = cunp::empty<float>({floats(1 << 20)}, dev).data();  // freed at once
    REQUIRE(mine.cached_bytes() == std::size_t(1) << 20);
    REQUIRE(cunp::empty<float>({floats(1 << 20)}, dev).data() == small);  // the same block again
    REQUIRE(cunp::memory_stats(dev).cached_bytes >= mine.cached_bytes());

    // One more of the largest block than the cache holds, freed oldest first: the first freed
    // (and the small block before it) go back to the pool, the newest comes out first.
    const std::size_t n = cache::max_bytes / cache::max_block + 1;
    std::vector<cunp::ndarray<float>> big;
    std::vector<const void*> at;
    for (std::size_t i = 0; i < n; ++i) {
      big.push_back(cunp::empty<float>({floats(cache::max_block)}, dev));
      at.push_back(big.back().data());
    }
    for (auto& b : big) b = cunp::ndarray<float>();
    REQUIRE(mine.cached_bytes() == cache::max_bytes);
    REQUIRE(mine.take(dev.index(), cache::max_block) == at[n - 1]);
    REQUIRE(mine.take(dev.index(), cache::max_block) == at[n - 2]);
    REQUIRE(mine.take(dev.index(), std::size_t(1) << 20) == nullptr);  // evicted
    // (the two taken are the test's now: give them back as the pool's own free would)
    cu::free_on(dev.index(), const_cast<void*>(at[n - 1]), cudaStreamPerThread);
    cu::free_on(dev.index(), const_cast<void*>(at[n - 2]), cudaStreamPerThread);
    REQUIRE(mine.cached_bytes() == cache::max_bytes - 2 * cache::max_block);

    // A block over the largest kept goes straight back to the pool.
    const std::size_t before = mine.cached_bytes();
    (void)cunp::empty<float>({floats(cache::max_block) + 1}, dev);
    REQUIRE(mine.cached_bytes() == before);
    // On another stream nothing is kept.
    {
      cunp::stream s(dev);
      cunp::stream_guard g(s);
      (void)cunp::empty<float>({floats(1 << 20)}, dev);
    }
    REQUIRE(mine.cached_bytes() == before);
    cunp::empty_cache(dev);
    REQUIRE(mine.cached_bytes() == 0);
    cunp::synchronize(dev);
  });
}

// Thread-local objects die in the reverse order of their construction, so an array held by one
// made before the thread's block cache is freed after the cache is gone: it must go to the pool,
// not into the destroyed cache's freed storage (heap corruption at exit).
TEST_CASE("an array freed after its thread's block cache is gone goes back to the pool",
          "[memory][gpu]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    struct holder {
      cunp::ndarray<float> a;
    };
    const std::size_t cached = cu::pool_of(dev.index()).thread_cached.load();
    const std::size_t used = cunp::memory_stats(dev).used_bytes;
    std::thread([dev] {
      thread_local holder h;  // before the cache: destroyed after it
      h.a = cunp::full<float>({1 << 18}, 2.f, dev);
    }).join();
    REQUIRE(cu::pool_of(dev.index()).thread_cached.load() == cached);
    REQUIRE(cunp::memory_stats(dev).used_bytes == used);
    // The same for the main thread: this array is freed after main returns (the exit test).
    array_kept_until_exit() = cunp::full<float>({1 << 18}, 3.f, dev);
  });
}

TEST_CASE("per-device caches take the real device count", "[memory][gpu][errors]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    const int n = cunp::cuda_device_count();
    REQUIRE(cu::sm_count(dev.index()) > 0);
    REQUIRE_THROWS_AS(cu::sm_count(n), cunp::device_error);
    REQUIRE_THROWS_AS(cu::sm_count(-1), cunp::device_error);
    REQUIRE_THROWS_AS(cu::cublas_handle(n), cunp::device_error);
    REQUIRE_THROWS_AS(cunp::plan_cache_info(cunp::cuda(n)), cunp::device_error);
  });
}

// The process must then exit 0: ctest fails the run on a crash at exit. The main thread's
// handles die with its thread-local objects, the kept plan with the static objects.
TEST_CASE("handles and plans alive at program exit", "[memory][gpu][handles]") {
  on_every_backend([](cunp::device dev) {
    if (dev.is_cpu()) return;
    REQUIRE(cu::cublas_handle(dev.index()) != nullptr);
    REQUIRE(cu::cusolver_handle(dev.index()) != nullptr);
    REQUIRE(cu::cusparse_handle(dev.index()) != nullptr);
    REQUIRE(cu::cublaslt_handle(dev.index()) != nullptr);
    plan_kept_until_exit() = c2c_plan(dev.index(), 4096);
    // A thread that ends with live handles destroys them.
    std::thread([d = dev.index()] { (void)cu::cublas_handle(d), (void)cu::cusolver_handle(d); }).join();
  });
}
#endif
