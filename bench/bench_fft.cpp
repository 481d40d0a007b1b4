// bench/bench_fft.cpp: numpy.fft on the GPU (issue 21's rows) against the raw cuFFT call on the
// same shapes (a plan made once outside the timing, its own work area, a kept output buffer: the
// exec alone), in the same run; bench/cupy/cupy_fft.py times CuPy on the same rows.
//
// Names are <op>/<impl>/<dtype>/<elements> (an N-d shape in <op>), the keys bench/merge_results.py
// joins with cupy_fft.py's output. GB/s counts the bytes a transform must move at least (its input
// read once and its output written once) against the copy ceiling of the same run. host_us is the
// host time of a call that hits the plan cache; plan/cunp/... times a call that has to make its
// plan (the cache cleared before each). fused/... is fft(a * window) by each route
// (fused_window). fft_cpu rows time the cpu backend (host time per call; NumPy's in cupy_fft.py
// is the peer).
#include <cufft.h>

#include <complex>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cunp/fft.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

const cunp::device gpu0 = cunp::cuda(0);

template <class T>
ndarray<T> input(const shape_t& shape) {
  return random_array<T>(shape, gpu0);
}

/// The bytes a transform of `in` elements of I to `out` elements of O moves at least.
template <class I, class O>
double moved(index_t in, index_t out) {
  return double(in) * sizeof(I) + double(out) * sizeof(O);
}

// --- cunp

void fft_1d(State& s, int axis, const shape_t& shape) {
  const auto x = input<c64>(shape);
  gpu_loop(s, {moved<c64, c64>(x.size(), x.size()), against::copy_ceiling, true},
           [&] { consume(cunp::fft::fft(x, std::nullopt, axis)); });
}
void fft_c128(State& s) {
  const auto x = input<c128>({index_t(1) << 24});
  gpu_loop(s, {moved<c128, c128>(x.size(), x.size()), against::copy_ceiling, true},
           [&] { consume(cunp::fft::fft(x)); });
}
void rfft_f32(State& s) {
  const index_t n = index_t(1) << 24;
  const auto x = input<float>({n});
  gpu_loop(s, {moved<float, c64>(n, n / 2 + 1), against::copy_ceiling, true},
           [&] { consume(cunp::fft::rfft(x)); });
}
void fft2_c64(State& s) {
  const auto x = input<c64>({4096, 4096});
  gpu_loop(s, {moved<c64, c64>(x.size(), x.size()), against::copy_ceiling, true},
           [&] { consume(cunp::fft::fft2(x)); });
}
void rfft2_f32(State& s) {
  const auto x = input<float>({4096, 4096});
  gpu_loop(s, {moved<float, c64>(x.size(), 4096 * 2049), against::copy_ceiling, true},
           [&] { consume(cunp::fft::rfft2(x)); });
}
void fftn_c64(State& s) {
  const auto x = input<c64>({256, 256, 256});
  gpu_loop(s, {moved<c64, c64>(x.size(), x.size()), against::copy_ceiling, true},
           [&] { consume(cunp::fft::fftn(x)); });
}
/// fft(a * window) of n points: the library's route (cunp), the expression evaluated first and
/// then transformed (two_step), and the four-step split called directly (four_step: also at
/// lengths the library leaves to the two steps).
enum class fused_route { cunp, two_step, four_step };
void fused_window(State& s, index_t n, fused_route route) {
  const auto x = input<c64>({n});
  const auto window = input<float>({n});
  const auto run = [&] {
    switch (route) {
      case fused_route::cunp: return cunp::fft::fft(x * window);
      case fused_route::two_step: return cunp::fft::fft(ndarray<c64>(x * window));
      default: return *cunp::detail::cuda::four_step::run(x * window, 1.0);
    }
  };
  gpu_loop(s, {moved<c64, c64>(n, n) + double(n) * sizeof(float), against::copy_ceiling, true},
           [&] { consume(run()); });
}
/// A call that makes its plan: the plan cache emptied before each (untimed).
void plan_c64(State& s) {
  const auto x = input<c64>({index_t(1) << 24});
  std::vector<double> ms;
  for (auto _ : s) {
    s.PauseTiming();
    cunp::detail::cuda::clear_plan_cache(0);
    cunp::synchronize(gpu0);
    s.ResumeTiming();
    const double t0 = now_ms();
    consume(cunp::fft::fft(x));
    cunp::synchronize(gpu0);
    ms.push_back(now_ms() - t0);
  }
  s.counters["median_us"] = s.counters["host_us"] = summarize(std::move(ms)).median * 1e3;
}

// --- raw cuFFT: a plan made here, the exec alone

/// The plain call: cuFFT's basic layout (null embeds) for contiguous transforms, the advanced
/// one only for a strided batch (stride > 1: transforms down the columns).
struct raw_plan {
  cufftHandle h = 0;
  raw_plan(int rank, std::vector<long long> n, cufftType type, long long batch,
           long long stride = 1, long long dist = 0) {
    std::size_t work = 0;
    cufftCreate(&h);
    if (stride == 1) {
      cufftMakePlanMany64(h, rank, n.data(), nullptr, 1, 0, nullptr, 1, 0, type, batch, &work);
    } else {
      std::vector<long long> embed = n;
      cufftMakePlanMany64(h, rank, n.data(), embed.data(), stride, dist, embed.data(), stride,
                          dist, type, batch, &work);
    }
    cufftSetStream(h, cunp::detail::cuda::current_stream(0));
  }
  raw_plan(const raw_plan&) = delete;
  raw_plan& operator=(const raw_plan&) = delete;
  ~raw_plan() { cufftDestroy(h); }
};

template <class I, class O>
void raw(State& s, int rank, std::vector<long long> n, cufftType type, long long batch,
         index_t in_count, index_t out_count, long long stride = 1, long long dist = 0) {
  const auto x = input<I>({in_count});
  auto y = cunp::empty<O>({out_count}, gpu0);
  const raw_plan p(rank, n, type, batch, stride, dist);
  gpu_loop(s, {moved<I, O>(in_count, out_count), against::copy_ceiling, true}, [&] {
    if (type == CUFFT_C2C)
      cufftExecC2C(p.h, reinterpret_cast<cufftComplex*>(const_cast<I*>(x.data())),
                   reinterpret_cast<cufftComplex*>(y.data()), CUFFT_FORWARD);
    else if (type == CUFFT_Z2Z)
      cufftExecZ2Z(p.h, reinterpret_cast<cufftDoubleComplex*>(const_cast<I*>(x.data())),
                   reinterpret_cast<cufftDoubleComplex*>(y.data()), CUFFT_FORWARD);
    else
      cufftExecR2C(p.h, reinterpret_cast<cufftReal*>(const_cast<I*>(x.data())),
                   reinterpret_cast<cufftComplex*>(y.data()));
  });
}

/// The prime length with cuFFT's 32-bit plan call (cufftPlan1d): the API CuPy's 1-d plans use.
void raw_plan1d_prime(State& s) {
  const index_t n = 1000003;
  const auto x = input<c64>({n});
  auto y = cunp::empty<c64>({n}, gpu0);
  cufftHandle h = 0;
  cufftPlan1d(&h, int(n), CUFFT_C2C, 1);
  cufftSetStream(h, cunp::detail::cuda::current_stream(0));
  gpu_loop(s, {moved<c64, c64>(n, n), against::copy_ceiling, true}, [&] {
    cufftExecC2C(h, reinterpret_cast<cufftComplex*>(const_cast<c64*>(x.data())),
                 reinterpret_cast<cufftComplex*>(y.data()), CUFFT_FORWARD);
  });
  cufftDestroy(h);
}

/// The cpu backend, host time per call.
template <class F>
void cpu_row(State& s, F&& call) {
  std::vector<double> ms;
  for (auto _ : s) {
    const double t0 = now_ms();
    call();
    ms.push_back(now_ms() - t0);
  }
  s.counters["median_us"] = s.counters["host_us"] = summarize(std::move(ms)).median * 1e3;
}

void register_benchmarks() {
  using benchmark::RegisterBenchmark;
  auto gpu = [](const std::string& name, auto fn) {
    gpu_timed(RegisterBenchmark(name.c_str(), fn));
  };
  constexpr long long n24 = 1ll << 24, p = 1000003;
  gpu("fft/cunp/complex64/16777216", [](State& s) { fft_1d(s, -1, {n24}); });
  gpu("fft/raw/complex64/16777216",
      [](State& s) { raw<c64, c64>(s, 1, {n24}, CUFFT_C2C, 1, n24, n24); });
  gpu("fft/cunp/complex128/16777216", fft_c128);
  gpu("fft/raw/complex128/16777216",
      [](State& s) { raw<c128, c128>(s, 1, {n24}, CUFFT_Z2Z, 1, n24, n24); });
  gpu("rfft/cunp/float32/16777216", rfft_f32);
  gpu("rfft/raw/float32/16777216",
      [](State& s) { raw<float, c64>(s, 1, {n24}, CUFFT_R2C, 1, n24, n24 / 2 + 1); });
  gpu("fft2_4096x4096/cunp/complex64/16777216", fft2_c64);
  gpu("fft2_4096x4096/raw/complex64/16777216", [](State& s) {
    raw<c64, c64>(s, 2, {4096, 4096}, CUFFT_C2C, 1, n24, n24);
  });
  gpu("fft_axis-1_4096x4096/cunp/complex64/16777216", [](State& s) {
    fft_1d(s, -1, {4096, 4096});
  });
  gpu("fft_axis-1_4096x4096/raw/complex64/16777216",
      [](State& s) { raw<c64, c64>(s, 1, {4096}, CUFFT_C2C, 4096, n24, n24); });
  gpu("fft_axis0_4096x4096/cunp/complex64/16777216", [](State& s) { fft_1d(s, 0, {4096, 4096}); });
  gpu("fft_axis0_4096x4096/raw/complex64/16777216",
      [](State& s) { raw<c64, c64>(s, 1, {4096}, CUFFT_C2C, 4096, n24, n24, 4096, 1); });
  gpu("rfft2_4096x4096/cunp/float32/16777216", rfft2_f32);
  gpu("rfft2_4096x4096/raw/float32/16777216", [](State& s) {
    raw<float, c64>(s, 2, {4096, 4096}, CUFFT_R2C, 1, n24, 4096 * 2049);
  });
  gpu("fftn_256x256x256/cunp/complex64/16777216", fftn_c64);
  gpu("fftn_256x256x256/raw/complex64/16777216", [](State& s) {
    raw<c64, c64>(s, 3, {256, 256, 256}, CUFFT_C2C, 1, n24, n24);
  });
  gpu("fft/cunp/complex64/1000003", [](State& s) { fft_1d(s, -1, {p}); });
  gpu("fft/raw/complex64/1000003", [](State& s) { raw<c64, c64>(s, 1, {p}, CUFFT_C2C, 1, p, p); });
  gpu("fft/raw_plan1d/complex64/1000003", raw_plan1d_prime);
  for (const int log2n : {20, 22, 23, 24, 26}) {
    const index_t n = index_t(1) << log2n;
    const std::string tail = "/complex64/" + std::to_string(n);
    if (log2n != 24) gpu("fft/cunp" + tail, [n](State& s) { fft_1d(s, -1, {n}); });
    gpu("fused/cunp" + tail, [n](State& s) { fused_window(s, n, fused_route::cunp); });
    gpu("fused/two_step" + tail, [n](State& s) { fused_window(s, n, fused_route::two_step); });
    gpu("fused/four_step" + tail, [n](State& s) { fused_window(s, n, fused_route::four_step); });
  }
  RegisterBenchmark("plan/cunp/complex64/16777216", plan_c64)->Iterations(5)->UseRealTime();
  const auto host = cunp::asarray(random_values<c64>(std::size_t(n24)), {n24}, cunp::cpu);
  RegisterBenchmark("fft_cpu/cunp/complex64/16777216", [host](State& s) {
    cpu_row(s, [&] { consume(cunp::fft::fft(host)); });
  })->Iterations(3);
  RegisterBenchmark("fft2_cpu_4096x4096/cunp/complex64/16777216", [host](State& s) {
    const auto sq = host.reshape({4096, 4096});
    cpu_row(s, [&] { consume(cunp::fft::fft2(sq)); });
  })->Iterations(3);
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return cunp_bench::run_main(argc, argv);
}
