// bench/bench_sort.cpp: sort, argsort, unique and searchsorted on the GPU against the raw CUB
// (or Thrust) call on the same data in the same run (issue 5: sort at least as fast as raw CUB
// radix sort), with the copy ceiling measured in the same run.
//
// Names are <op>/<impl>/<dtype>/<elements>, impl cunp, cub or thrust. cunp's iterations
// materialise a fresh output from the pool (what `auto s = cunp::sort(a);` costs); the raw rows
// call the library into an output and temporary storage allocated once, outside the timing (the
// raw call's best case; argsort's raw row also gets its 0..n-1 input values made beforehand) and
// count items in int, as CUB's examples do (32-bit offsets, which CUB tunes for more items a
// thread than 64-bit ones: the faster call).
// bytes = the fewest bytes the op must move: the input read once, the output written once
// (sort: 2n x itemsize; argsort: n x (itemsize + 8); unique: n x 8 read, the few unique values
// not counted; searchsorted: the values read and the int64 indices written; the sorted array's
// reads depend on the cache and are not counted). A radix sort makes several passes, so its
// fraction of the copy ceiling stays well below 1; the target is the raw call's time.
// Inputs: float32 uniform in [-1, 1); int64 over the full range; unique's int64 in [0, 1000)
// (many duplicates); searchsorted's 2^20 values in a sorted array of 2^26. Before timing, each
// cunp result is checked against the raw call's at 2^20 elements. unique waits for the device
// (its size depends on the data), so its launches are not hidden behind a hold kernel.
// CuPy's numbers for the same names come from bench/cupy/cupy_sort.py.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <map>
#include <string>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;
const cunp::device gpu0 = cunp::cuda(0);
constexpr index_t checked = index_t(1) << 20;  // sizes checked against the raw call

cudaStream_t stream() { return cunp::detail::cuda::current_stream(0); }

/// Inputs per (dtype, elements, kind), kept for the whole run. kind 0: random (float32 in
/// [-1, 1), int64 over the full range); kind 1: int64 in [0, 1000).
template <class T>
const ndarray<T>& input(index_t n, int kind) {
  static auto* cache = new std::map<std::pair<index_t, int>, ndarray<T>>();
  auto it = cache->find({n, kind});
  if (it == cache->end()) {
    ndarray<T> a;
    if constexpr (std::is_floating_point_v<T>) {
      a = random_array<T>({n}, gpu0, 3000 + kind);
    } else {
      std::vector<T> v(static_cast<std::size_t>(n));
      splitmix64 g{std::uint64_t(3000 + kind)};
      for (auto& x : v) {
        const std::uint64_t z = g();
        x = kind == 1 ? static_cast<T>(z % 1000) : static_cast<T>(z);
      }
      a = cunp::asarray(v, {n}, cunp::cpu).to(gpu0);
    }
    it = cache->emplace(std::make_pair(n, kind), a).first;
  }
  return it->second;
}

/// Whether got equals want element for element; otherwise marks the benchmark as failed.
template <class T>
bool same(State& s, const ndarray<T>& got, const ndarray<T>& want) {
  if (got.shape() == want.shape() && got.to_vector() == want.to_vector()) return true;
  s.SkipWithError("cunp's result differs from the raw library call's; nothing timed");
  return false;
}

/// cub::DeviceRadixSort::SortKeys of `in` into an output and temporary storage made once.
template <class T>
struct raw_sort {
  const ndarray<T>& in;
  ndarray<T> out;
  ndarray<std::uint8_t> temp;
  std::size_t bytes = 0;
  explicit raw_sort(const ndarray<T>& a) : in(a), out(a.shape(), gpu0) {
    check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in.data(), out.data(),
                                         static_cast<int>(in.size()), 0, int(8 * sizeof(T)),
                                         stream()),
          "cub::DeviceRadixSort::SortKeys");
    temp = ndarray<std::uint8_t>({static_cast<index_t>(bytes)}, gpu0);
  }
  void operator()() {
    check(cub::DeviceRadixSort::SortKeys(temp.data(), bytes, in.data(), out.data(),
                                         static_cast<int>(in.size()), 0, int(8 * sizeof(T)),
                                         stream()),
          "cub::DeviceRadixSort::SortKeys");
  }
};

/// cub::DeviceRadixSort::SortPairs of (in, 0..n-1): argsort with its index input made once.
template <class T>
struct raw_argsort {
  const ndarray<T>& in;
  ndarray<T> keys_out;
  ndarray<std::int64_t> iota, out;
  ndarray<std::uint8_t> temp;
  std::size_t bytes = 0;
  explicit raw_argsort(const ndarray<T>& a)
      : in(a),
        keys_out(a.shape(), gpu0),
        iota(cunp::arange<std::int64_t>(0, a.size(), 1, gpu0)),
        out(a.shape(), gpu0) {
    check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, in.data(), keys_out.data(), iota.data(),
                                          out.data(), static_cast<int>(in.size()), 0,
                                          int(8 * sizeof(T)), stream()),
          "cub::DeviceRadixSort::SortPairs");
    temp = ndarray<std::uint8_t>({static_cast<index_t>(bytes)}, gpu0);
  }
  void operator()() {
    check(cub::DeviceRadixSort::SortPairs(temp.data(), bytes, in.data(), keys_out.data(),
                                          iota.data(), out.data(), static_cast<int>(in.size()), 0,
                                          int(8 * sizeof(T)), stream()),
          "cub::DeviceRadixSort::SortPairs");
  }
};

/// unique with CUB: SortKeys, then DeviceSelect::Unique, then the count read back (a user needs
/// it to size the result, as cunp does).
template <class T>
struct raw_unique {
  raw_sort<T> sorter;
  ndarray<T> out;
  ndarray<std::int64_t> count;
  ndarray<std::uint8_t> temp;
  std::size_t bytes = 0;
  index_t found = 0;
  explicit raw_unique(const ndarray<T>& a) : sorter(a), out(a.shape(), gpu0), count({1}, gpu0) {
    check(cub::DeviceSelect::Unique(nullptr, bytes, sorter.out.data(), out.data(), count.data(),
                                    a.size(), stream()),
          "cub::DeviceSelect::Unique");
    temp = ndarray<std::uint8_t>({static_cast<index_t>(bytes)}, gpu0);
  }
  void operator()() {
    sorter();
    check(cub::DeviceSelect::Unique(temp.data(), bytes, sorter.out.data(), out.data(), count.data(),
                                    sorter.in.size(), stream()),
          "cub::DeviceSelect::Unique");
    found = count.item();
  }
};

template <class T>
void sort_cunp(State& s) {
  const index_t n = s.range(0);
  const auto& a = input<T>(n, 0);
  if (n <= checked) {
    raw_sort<T> ref(a);
    ref();
    poison_pool<T>(gpu0, n);
    if (!same(s, cunp::sort(a), ref.out)) return;
  }
  gpu_loop(s, {2.0 * n * sizeof(T), against::copy_ceiling, true}, [&] { consume(cunp::sort(a)); });
}
template <class T>
void sort_cub(State& s) {
  const index_t n = s.range(0);
  raw_sort<T> ref(input<T>(n, 0));
  gpu_loop(s, {2.0 * n * sizeof(T), against::copy_ceiling, true}, [&] { ref(); });
}

template <class T>
void argsort_cunp(State& s) {
  const index_t n = s.range(0);
  const auto& a = input<T>(n, 0);
  if (n <= checked) {
    raw_argsort<T> ref(a);
    ref();
    poison_pool<std::int64_t>(gpu0, n);
    if (!same(s, cunp::argsort(a), ref.out)) return;
  }
  gpu_loop(s, {double(n) * (sizeof(T) + 8), against::copy_ceiling, true},
           [&] { consume(cunp::argsort(a)); });
}
template <class T>
void argsort_cub(State& s) {
  const index_t n = s.range(0);
  raw_argsort<T> ref(input<T>(n, 0));
  gpu_loop(s, {double(n) * (sizeof(T) + 8), against::copy_ceiling, true}, [&] { ref(); });
}

/// Rows of `cols` elements sorted along the last axis (the segmented path), 2^26 elements.
template <class T, index_t cols>
void sort_rows_cunp(State& s) {
  const index_t n = s.range(0), rows = n / cols;
  s.SetLabel(std::to_string(rows) + "x" + std::to_string(cols));
  const auto a = input<T>(n, 0).reshape({rows, cols});
  const auto first = cunp::view(a, cunp::slice(0, 4));
  if (!same(s, cunp::sort(first).to(cunp::cpu), cunp::sort(first.to(cunp::cpu)))) return;
  gpu_loop(s, {2.0 * n * sizeof(T), against::copy_ceiling, true}, [&] { consume(cunp::sort(a)); });
}

template <class T>
void unique_cunp(State& s) {
  const index_t n = s.range(0);
  const auto& a = input<T>(n, 1);
  if (n <= checked) {
    raw_unique<T> ref(a);
    ref();
    const auto want = ndarray<T>(ref.out.storage(), 0, {ref.found}, {1}).copy();
    if (!same(s, cunp::unique(a), want)) return;
  }
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, false},
           [&] { consume(cunp::unique(a)); });
}
template <class T>
void unique_cub(State& s) {
  const index_t n = s.range(0);
  raw_unique<T> ref(input<T>(n, 1));
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, false}, [&] { ref(); });
}

/// 2^20 values searched in a sorted array of range(0) elements.
template <class T>
const ndarray<T>& haystack(index_t n) {
  static auto* cache = new std::map<index_t, ndarray<T>>();
  auto it = cache->find(n);
  if (it == cache->end()) it = cache->emplace(n, cunp::sort(input<T>(n, 0))).first;
  return it->second;
}
constexpr index_t needles = index_t(1) << 20;

template <class T>
void searchsorted_cunp(State& s) {
  const index_t n = s.range(0);
  const auto& hay = haystack<T>(n);
  const auto& v = input<T>(needles, 2);
  ndarray<std::int64_t> want({needles}, gpu0);
  thrust::lower_bound(thrust::cuda::par.on(stream()), hay.data(), hay.data() + n, v.data(),
                      v.data() + needles, want.data());
  poison_pool<std::int64_t>(gpu0, needles);
  if (!same(s, cunp::searchsorted(hay, v), want)) return;
  s.SetLabel(std::to_string(needles) + " in " + std::to_string(n));
  gpu_loop(s, {double(needles) * (sizeof(T) + 8), against::copy_ceiling, true},
           [&] { consume(cunp::searchsorted(hay, v)); });
}
template <class T>
void searchsorted_thrust(State& s) {
  const index_t n = s.range(0);
  const auto& hay = haystack<T>(n);
  const auto& v = input<T>(needles, 2);
  ndarray<std::int64_t> out({needles}, gpu0);
  s.SetLabel(std::to_string(needles) + " in " + std::to_string(n));
  gpu_loop(s, {double(needles) * (sizeof(T) + 8), against::copy_ceiling, true}, [&] {
    thrust::lower_bound(thrust::cuda::par_nosync.on(stream()), hay.data(), hay.data() + n, v.data(),
                        v.data() + needles, out.data());
  });
}

template <class T>
void register_sorts(const std::string& dt) {
  const std::vector<std::int64_t> sizes = {std::int64_t(1) << 20, std::int64_t(1) << 26};
  auto add = [&](const std::string& op, void (*fn)(State&)) {
    auto* b = gpu_timed(benchmark::RegisterBenchmark((op + "/" + dt).c_str(), fn));
    for (auto n : sizes) b->Arg(n);
  };
  add("sort/cunp", sort_cunp<T>);
  add("sort/cub", sort_cub<T>);
  add("argsort/cunp", argsort_cunp<T>);
  add("argsort/cub", argsort_cub<T>);
}

}  // namespace

int main(int argc, char** argv) {
  register_sorts<float>("float32");
  register_sorts<std::int64_t>("int64");
  const std::int64_t n = std::int64_t(1) << 26;
  gpu_timed(benchmark::RegisterBenchmark("sort_rows1024/cunp/float32", sort_rows_cunp<float, 1024>))
      ->Arg(n);
  gpu_timed(
      benchmark::RegisterBenchmark("sort_rows65536/cunp/float32", sort_rows_cunp<float, 65536>))
      ->Arg(n);
  for (auto size : {std::int64_t(1) << 20, n}) {
    gpu_timed(benchmark::RegisterBenchmark("unique/cunp/int64", unique_cunp<std::int64_t>))
        ->Arg(size);
    gpu_timed(benchmark::RegisterBenchmark("unique/cub/int64", unique_cub<std::int64_t>))
        ->Arg(size);
  }
  gpu_timed(benchmark::RegisterBenchmark("searchsorted/cunp/float32", searchsorted_cunp<float>))
      ->Arg(n);
  gpu_timed(benchmark::RegisterBenchmark("searchsorted/thrust/float32", searchsorted_thrust<float>))
      ->Arg(n);
  return cunp_bench::run_main(argc, argv);
}
