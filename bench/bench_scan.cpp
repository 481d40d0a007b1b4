// bench/bench_scan.cpp: cumsum on the GPU against raw cub::DeviceScan::InclusiveSum and the copy
// ceiling measured in the same run (issue 5: scans at >= 0.85 of copy bandwidth).
//
// Names are <op>/<impl>/<dtype>/<elements>, impl cunp or cub: cumsum (flattened), cumsum_axis1
// and cumsum_axis0 (of a square matrix, its shape in the label). bytes = the fewest bytes the op
// must move: each input element read once, each output element written once. cunp's iterations
// materialise a fresh output from the pool (what `auto c = cunp::cumsum(a);` costs); the raw CUB
// rows call InclusiveSum into an output and temporary storage allocated once, outside the timing,
// over the same number of elements (CUB has no axis scan: the axis rows set cunp's along-axis
// kernels beside CUB's one-row scan of as many elements). Launches are hidden behind a hold
// kernel; host_us is what the call costs the host. Before timing, each result is checked: the
// flattened scan against CUB's, the axis scans against the cpu backend on a slice.
// CuPy's numbers for the same names come from bench/cupy/cupy_scan.py.
#include <cub/device/device_scan.cuh>

#include <map>
#include <string>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;
const cunp::device gpu0 = cunp::cuda(0);

// Random inputs in [-1, 1) per shape, kept for the whole run.
template <class T> const ndarray<T>& input(const shape_t& shape) {
  static auto* cache = new std::map<shape_t, ndarray<T>>();
  auto it = cache->find(shape);
  if (it == cache->end()) it = cache->emplace(shape, random_array<T>(shape, gpu0, 2000)).first;
  return it->second;
}

template <class T> double bytes_of(index_t n) { return 2.0 * double(n) * sizeof(T); }

/// Whether got matches want within 64 units of rounding of the largest |want| (scans that add
/// in different orders; CUB's own look-back order varies from run to run). Prints the worst.
template <class T> bool agrees(State& s, const ndarray<T>& got, const ndarray<T>& want) {
  const auto g = got.to_vector(), w = want.to_vector();
  double worst = g.size() == w.size() ? 0 : std::numeric_limits<double>::infinity(), largest = 0;
  for (std::size_t i = 0; i < g.size() && i < w.size(); ++i) {
    const double d = std::abs(double(g[i]) - double(w[i]));
    worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(worst, d);
    largest = std::max(largest, std::abs(double(w[i])));
  }
  const double tol = 64 * std::numeric_limits<T>::epsilon() * largest;
  if (worst <= tol) return true;
  s.SkipWithError(("result differs from the reference by " + std::to_string(worst) +
                   " (tolerance " + std::to_string(tol) + "); nothing timed").c_str());
  return false;
}

/// CUB's InclusiveSum of `in` into `out` with temporary storage `temp` (sized on first call).
template <class T> struct raw_cub_sum {
  const ndarray<T>& in;
  ndarray<T> out;
  ndarray<std::uint8_t> temp;
  std::size_t temp_bytes = 0;
  explicit raw_cub_sum(const ndarray<T>& a) : in(a), out(a.shape(), gpu0) {
    const int n = static_cast<int>(a.size());
    check(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, in.data(), out.data(), n,
                                        cunp::detail::cuda::current_stream(0)),
          "cub::DeviceScan::InclusiveSum");
    temp = ndarray<std::uint8_t>({static_cast<index_t>(temp_bytes)}, gpu0);
  }
  void operator()() {
    check(cub::DeviceScan::InclusiveSum(temp.data(), temp_bytes, in.data(), out.data(),
                                        static_cast<int>(in.size()),
                                        cunp::detail::cuda::current_stream(0)),
          "cub::DeviceScan::InclusiveSum");
  }
};

template <class T> void cumsum_cunp(State& s) {
  const index_t n = s.range(0);
  const auto& a = input<T>({n});
  raw_cub_sum<T> ref(a);
  ref();
  poison_pool<T>(gpu0, n);
  if (!agrees(s, cunp::cumsum(a), ref.out)) return;
  gpu_loop(s, {bytes_of<T>(n), against::copy_ceiling, true}, [&] { consume(cunp::cumsum(a)); });
}

template <class T> void cumsum_cub(State& s) {
  const index_t n = s.range(0);
  raw_cub_sum<T> ref(input<T>({n}));
  gpu_loop(s, {bytes_of<T>(n), against::copy_ceiling, true}, [&] { ref(); });
}

/// cumsum along `axis` of an m x m matrix (m * m = range(0)), checked on a slice against the
/// cpu backend: 64 rows (axis 1) or 64 full columns (axis 0).
template <class T, int axis> void cumsum_axis_cunp(State& s) {
  const index_t n = s.range(0);
  index_t m = 1;
  while (m * m < n) m *= 2;
  s.SetLabel(std::to_string(m) + "x" + std::to_string(m));
  const auto& a = input<T>({m, m});
  poison_pool<T>(gpu0, n);
  const auto got = cunp::cumsum(a, axis);
  const auto part = [&](const ndarray<T>& x) {
    return axis == 1 ? cunp::view(x, cunp::slice(0, 64))
                     : cunp::view(x, cunp::all, cunp::slice(0, 64));
  };
  if (!agrees(s, part(got).to(cunp::cpu), cunp::cumsum(part(a).to(cunp::cpu), axis))) return;
  gpu_loop(s, {bytes_of<T>(m * m), against::copy_ceiling, true},
           [&] { consume(cunp::cumsum(a, axis)); });
}

template <class T> void register_flat(const std::string& dt, std::int64_t n) {
  gpu_timed(benchmark::RegisterBenchmark(("cumsum/cunp/" + dt).c_str(), cumsum_cunp<T>))->Arg(n);
  gpu_timed(benchmark::RegisterBenchmark(("cumsum/cub/" + dt).c_str(), cumsum_cub<T>))->Arg(n);
}

}  // namespace

int main(int argc, char** argv) {
  register_flat<float>("float32", std::int64_t(1) << 28);
  register_flat<double>("float64", std::int64_t(1) << 24);
  const std::int64_t square = std::int64_t(16384) * 16384;
  gpu_timed(benchmark::RegisterBenchmark("cumsum_axis1/cunp/float32", cumsum_axis_cunp<float, 1>))
      ->Arg(square);
  gpu_timed(benchmark::RegisterBenchmark("cumsum_axis0/cunp/float32", cumsum_axis_cunp<float, 0>))
      ->Arg(square);
  return cunp_bench::run_main(argc, argv);
}
