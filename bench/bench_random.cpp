// bench/bench_random.cpp: numpy.random.Generator's fills on the GPU (issue 22's rows) against the
// copy ceiling measured in the same run, counting the bytes written, and cuRAND's own generator
// (Philox4x32-10, its fastest, through the host API) as the raw call that fills the same buffer.
//
// Names are <op>/<impl>/<dtype>/<n>, the keys bench/merge_results.py joins with
// bench/cupy/cupy_random.py's output (CuPy and PyTorch). The generator's stream continues from
// call to call, as a user's does. integers over [0, 1000) reads back how many draws it used
// (its one wait) inside the timing. Rows "philox" take the draws of numpy.random.Philox
// instead of default_rng's PCG64. random_cpu times the cpu backend (host time per call).
// permutation's raw row is the plain way with the vendor calls: cuRAND's 64-bit keys and CUB's
// SortPairs of (key, position) with 8-byte keys (cunp sorts 4-byte ones, then settles ties).
#include <cub/device/device_radix_sort.cuh>
#include <curand.h>

#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;

const cunp::device gpu0 = cunp::cuda(0);

/// The generator on PCG64 (default_rng's, the rows "cunp") or on Philox (the rows "philox").
template <class BitGenerator = cunp::random::PCG64>
cunp::random::Generator<BitGenerator>& generator() {
  static auto* g = new cunp::random::Generator(BitGenerator(42));
  return *g;
}

template <class T, class BitGenerator = cunp::random::PCG64> void random_cunp(State& s) {
  const index_t n = s.range(0);
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, true},
           [&] { consume(generator<BitGenerator>().template random<T>({n}, gpu0)); });
}

/// curandGenerateUniform(Double) into a kept buffer: cuRAND's Philox, its own stream order.
template <class T> void random_raw(State& s) {
  const index_t n = s.range(0);
  auto out = cunp::empty<T>({n}, gpu0);
  static curandGenerator_t g = [] {
    curandGenerator_t x;
    curandCreateGenerator(&x, CURAND_RNG_PSEUDO_PHILOX4_32_10);
    curandSetPseudoRandomGeneratorSeed(x, 42);
    return x;
  }();
  curandSetStream(g, cunp::detail::cuda::current_stream(0));
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, true}, [&] {
    if constexpr (std::is_same_v<T, float>) curandGenerateUniform(g, out.data(), std::size_t(n));
    else curandGenerateUniformDouble(g, out.data(), std::size_t(n));
  });
}

template <class T, class BitGenerator = cunp::random::PCG64> void standard_normal_cunp(State& s) {
  const index_t n = s.range(0);
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, true},
           [&] { consume(generator<BitGenerator>().template standard_normal<T>({n}, gpu0)); });
}

/// curandGenerateNormal(Double): cuRAND's Philox with its Box-Muller.
template <class T> void standard_normal_raw(State& s) {
  const index_t n = s.range(0);
  auto out = cunp::empty<T>({n}, gpu0);
  static curandGenerator_t g = [] {
    curandGenerator_t x;
    curandCreateGenerator(&x, CURAND_RNG_PSEUDO_PHILOX4_32_10);
    curandSetPseudoRandomGeneratorSeed(x, 42);
    return x;
  }();
  curandSetStream(g, cunp::detail::cuda::current_stream(0));
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, true}, [&] {
    if constexpr (std::is_same_v<T, float>) curandGenerateNormal(g, out.data(), std::size_t(n), 0, 1);
    else curandGenerateNormalDouble(g, out.data(), std::size_t(n), 0, 1);
  });
}

template <class T> void exponential_cunp(State& s) {
  const index_t n = s.range(0);
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, true},
           [&] { consume(generator().standard_exponential<T>({n}, gpu0)); });
}

template <class BitGenerator = cunp::random::PCG64>
void integers_cunp(State& s) {  // integers(0, 1000, n), int64
  const index_t n = s.range(0);
  gpu_loop(s, {double(n) * sizeof(std::int64_t), against::copy_ceiling, true}, [&] {
    consume(generator<BitGenerator>().template integers<std::int64_t>(0, 1000, {n}, gpu0));
  });
}

void uniform_cunp(State& s) {  // uniform(-1, 1, n), float64
  const index_t n = s.range(0);
  gpu_loop(s, {double(n) * sizeof(double), against::copy_ceiling, true},
           [&] { consume(generator().uniform<double>(-1.0, 1.0, {n}, gpu0)); });
}

void permutation_cunp(State& s) {  // permutation(n), int64
  const index_t n = s.range(0);
  gpu_loop(s, {double(n) * sizeof(std::int64_t), against::copy_ceiling, true},
           [&] { consume(generator().permutation(n, gpu0)); });
}

/// The per-element draws (each element from its own Philox stream, a rejection loop a thread):
/// gamma(2.5) and beta(2, 3) float64, poisson int64 below and above lam 10 (multiplication,
/// PTRS), binomial int64 with p = 0.5 by inversion (n = 40) and by halvings (n = 1000: 5 betas).
template <class T, class F> void per_element_cunp(State& s, F f) {
  const index_t n = s.range(0);
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, true},
           [&] { consume(f(generator(), n)); });
}
void gamma_cunp(State& s) {
  per_element_cunp<double>(s, [](auto& g, index_t n) { return g.gamma(2.5, 1.0, {n}, gpu0); });
}
void beta_cunp(State& s) {
  per_element_cunp<double>(s, [](auto& g, index_t n) { return g.beta(2.0, 3.0, {n}, gpu0); });
}
template <int Lam> void poisson_cunp(State& s) {
  per_element_cunp<std::int64_t>(s, [](auto& g, index_t n) { return g.poisson(Lam, {n}, gpu0); });
}
template <int Trials> void binomial_cunp(State& s) {
  per_element_cunp<std::int64_t>(
      s, [](auto& g, index_t n) { return g.binomial(Trials, 0.5, {n}, gpu0); });
}

/// curandGenerate of 2n 32-bit words as n 64-bit keys, then cub::DeviceRadixSort::SortPairs of
/// the keys with the positions 0..n-1, into kept buffers.
void permutation_raw(State& s) {
  const index_t n = s.range(0);
  auto keys = cunp::empty<std::uint64_t>({n}, gpu0), sorted = cunp::empty<std::uint64_t>({n}, gpu0);
  auto pos = cunp::arange<std::int64_t>(n, gpu0), out = cunp::empty<std::int64_t>({n}, gpu0);
  static curandGenerator_t g = [] {
    curandGenerator_t x;
    curandCreateGenerator(&x, CURAND_RNG_PSEUDO_PHILOX4_32_10);
    curandSetPseudoRandomGeneratorSeed(x, 42);
    return x;
  }();
  const cudaStream_t st = cunp::detail::cuda::current_stream(0);
  curandSetStream(g, st);
  std::size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.data(), sorted.data(), pos.data(),
                                  out.data(), int(n), 0, 64, st);
  auto temp = cunp::empty<std::uint8_t>({index_t(bytes)}, gpu0);
  gpu_loop(s, {double(n) * sizeof(std::int64_t), against::copy_ceiling, true}, [&] {
    curandGenerate(g, reinterpret_cast<unsigned*>(keys.data()), 2 * std::size_t(n));
    cub::DeviceRadixSort::SortPairs(temp.data(), bytes, keys.data(), sorted.data(), pos.data(),
                                    out.data(), int(n), 0, 64, st);
  });
}

/// The cpu backend's random() of float64, host time per call (NumPy's, in cupy_random.py, is
/// the peer: the target is at most twice its time).
void random_cpu(State& s) {
  const index_t n = s.range(0);
  static cunp::random::Generator g = cunp::random::default_rng(42);  // (a Generator<PCG64>)
  std::vector<double> ms;
  for (auto _ : s) {
    const double t0 = now_ms();
    consume(g.random<double>({n}, cunp::cpu));
    ms.push_back(now_ms() - t0);
  }
  s.counters["median_us"] = s.counters["host_us"] = summarize(std::move(ms)).median * 1e3;
}

void register_benchmarks() {
  using benchmark::RegisterBenchmark;
  auto gpu = [](const std::string& name, auto fn, std::int64_t n) {
    gpu_timed(RegisterBenchmark(name.c_str(), fn))->Arg(n);
  };
  constexpr std::int64_t n = std::int64_t(1) << 28;
  gpu("random/cunp/float32", random_cunp<float>, n);
  gpu("random/raw/float32", random_raw<float>, n);
  gpu("random/cunp/float64", random_cunp<double>, n);
  gpu("random/raw/float64", random_raw<double>, n);
  gpu("uniform/cunp/float64", uniform_cunp, n);
  gpu("standard_normal/cunp/float32", standard_normal_cunp<float>, n);
  gpu("standard_normal/raw/float32", standard_normal_raw<float>, n);
  gpu("standard_normal/cunp/float64", standard_normal_cunp<double>, n);
  gpu("standard_normal/raw/float64", standard_normal_raw<double>, n);
  gpu("exponential/cunp/float32", exponential_cunp<float>, n);
  gpu("integers/cunp/int64", integers_cunp<>, n);
  // Philox as the bit generator: a block of ten rounds of 64-bit products a draw.
  using cunp::random::Philox;
  gpu("random/philox/float32", random_cunp<float, Philox>, n);
  gpu("random/philox/float64", random_cunp<double, Philox>, n);
  gpu("standard_normal/philox/float32", standard_normal_cunp<float, Philox>, n);
  gpu("integers/philox/int64", integers_cunp<Philox>, n);
  constexpr std::int64_t m = std::int64_t(1) << 26;  // the per-element draws
  gpu("gamma/cunp/float64", gamma_cunp, m);
  gpu("beta/cunp/float64", beta_cunp, m);
  gpu("poisson_3/cunp/int64", poisson_cunp<3>, m);
  gpu("poisson_100/cunp/int64", poisson_cunp<100>, m);
  gpu("binomial_40/cunp/int64", binomial_cunp<40>, m);
  gpu("binomial_1000/cunp/int64", binomial_cunp<1000>, m);
  gpu("permutation/cunp/int64", permutation_cunp, std::int64_t(1) << 24);
  gpu("permutation/raw/int64", permutation_raw, std::int64_t(1) << 24);
  RegisterBenchmark("random_cpu/cunp/float64", random_cpu)->Arg(std::int64_t(1) << 26)->Iterations(5);
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return cunp_bench::run_main(argc, argv);
}
