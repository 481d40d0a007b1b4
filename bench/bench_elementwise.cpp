// bench/bench_elementwise.cpp: element-wise operations and fused expressions against the copy
// ceiling measured in the same run (issue: element-wise at memory bandwidth).
//
// Names are <op>/<impl>/<dtype>/<elements>; impl cunp (GPU). bytes = the fewest bytes the op must
// move: each input element read once, each output element written once. Each iteration
// materialises a fresh output from the pool (what `ndarray<T> c = a + b;` costs), with the
// launch hidden behind a hold kernel; host_us is what the call costs the host. CuPy's numbers
// for the same names come from bench/cupy/cupy_elementwise.py.
#include <map>
#include <string>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;
const cunp::device gpu0 = cunp::cuda(0);

// Random inputs per (dtype, size, slot), kept for the whole run (see bench_memory.cpp).
template <class T> const ndarray<T>& input(index_t n, int slot) {
  static auto* cache = new std::map<std::pair<index_t, int>, ndarray<T>>();
  auto it = cache->find({n, slot});
  if (it == cache->end())
    it = cache->emplace(std::make_pair(n, slot), random_array<T>({n}, gpu0, 1000 + slot))
             .first;
  return it->second;
}

template <class T, class F> void run(State& s, int inputs_read, int outputs, F make) {
  const index_t n = s.range(0);
  const double bytes = double(n) * sizeof(T) * (inputs_read + outputs);
  gpu_loop(s, {bytes, against::copy_ceiling, true}, [&] { consume(make(n)); });
}

template <class T> void add(State& s) {
  run<T>(s, 2, 1, [](index_t n) { return ndarray<T>(input<T>(n, 0) + input<T>(n, 1)); });
}
template <class T> void multiply(State& s) {
  run<T>(s, 2, 1, [](index_t n) { return ndarray<T>(input<T>(n, 0) * input<T>(n, 1)); });
}
template <class T> void sin(State& s) {
  run<T>(s, 1, 1, [](index_t n) { return ndarray<T>(cunp::sin(input<T>(n, 0))); });
}
template <class T> void fused(State& s) {  // a*b + sin(c): one kernel, 3 reads + 1 write
  run<T>(s, 3, 1, [](index_t n) {
    return ndarray<T>(input<T>(n, 0) * input<T>(n, 1) + cunp::sin(input<T>(n, 2)));
  });
}
template <class T> void where(State& s) {  // where(a > 0, a, b)
  run<T>(s, 2, 1, [](index_t n) {
    const auto& a = input<T>(n, 0);
    return ndarray<T>(cunp::where(a > 0, a, input<T>(n, 1)));
  });
}
template <class T> void outer(State& s) {  // a[:, None] + b[None, :], a and b of sqrt(n)
  const index_t n = s.range(0);
  index_t m = 1;
  while (m * m < n) m *= 2;
  const auto a = input<T>(m, 0).reshape({m, 1}), b = input<T>(n / m, 1).reshape({1, n / m});
  const double bytes = double(sizeof(T)) * (m + n / m + n);
  s.SetLabel(std::to_string(m) + "x" + std::to_string(n / m));
  gpu_loop(s, {bytes, against::copy_ceiling, true}, [&] { consume(ndarray<T>(a + b)); });
}
template <class T> void logaddexp(State& s) {
  run<T>(s, 2, 1, [](index_t n) { return ndarray<T>(cunp::logaddexp(input<T>(n, 0), input<T>(n, 1))); });
}
template <class T> void add_outer(State& s) {  // cunp::ufunc::add.outer(a, b): outer_add's shapes
  const index_t n = s.range(0);
  index_t m = 1;
  while (m * m < n) m *= 2;
  const auto& a = input<T>(m, 0);
  const auto& b = input<T>(n / m, 1);
  const double bytes = double(sizeof(T)) * (m + n / m + n);
  s.SetLabel(std::to_string(m) + "x" + std::to_string(n / m));
  gpu_loop(s, {bytes, against::copy_ceiling, true},
           [&] { consume(ndarray<T>(cunp::ufunc::add.outer(a, b))); });
}
template <class T> void strided(State& s) {  // a[::2] + b: a strided view of a 2n buffer
  const index_t n = s.range(0);
  const auto& base = input<T>(2 * n, 2);
  const ndarray<T> a(base.storage(), base.offset(), {n}, {2});
  const auto& b = input<T>(n, 1);
  gpu_loop(s, {3.0 * n * sizeof(T), against::copy_ceiling, true},
           [&] { consume(ndarray<T>(a + b)); });
}
void floor_divide_int32(State& s) {  // a // b: NumPy's floored integer division, signs mixed
  const index_t n = s.range(0);
  const auto a = cunp::eval(cunp::astype<std::int32_t>(input<double>(n, 0) * 2e9));
  const auto b0 = cunp::eval(cunp::astype<std::int32_t>(input<double>(n, 1) * 1000.0));
  const ndarray<std::int32_t> b = cunp::where(b0 == 0, 7, b0);  // no division by zero
  run<std::int32_t>(s, 2, 1, [&](index_t) { return ndarray<std::int32_t>(cunp::floor_divide(a, b)); });
}
template <class T> void write_raw(State& s) {  // cudaMemsetAsync: the write-only rate outer_add
  const index_t n = s.range(0);                 // (bound by its writes) can hope for
  gpu_loop(s, {double(n) * sizeof(T), against::copy_ceiling, true}, [&] {
    const ndarray<T> out({n}, gpu0);
    cudaMemsetAsync(out.data(), 0, n * sizeof(T), cunp::detail::cuda::current_stream(0));
    consume(out);
  });
}
__global__ void empty_kernel() {}
void launch_host(State& s) {  // the floor of any op's host time: one empty kernel launch
  host_per_call(s, gpu0, [] { empty_kernel<<<1, 32, 0, cudaStreamPerThread>>>(); });
}
template <class T> void add_small_host(State& s) {  // host time per call at n = 1000
  const auto& a = input<T>(s.range(0), 0);
  const auto& b = input<T>(s.range(0), 1);
  host_per_call(s, gpu0, [&] { consume(ndarray<T>(a + b)); });
}

template <class T> void register_dtype(const std::string& dt) {
  const std::vector<std::int64_t> sizes = {1 << 20, 1 << 24, 1 << 28};
  auto gpu = [&](const char* op, void (*fn)(State&)) {
    const std::string impl = std::string(op) == "write" ? "/raw/" : "/cunp/";
    const std::string name = std::string(op) + impl + dt;
    auto* b = gpu_timed(benchmark::RegisterBenchmark(name.c_str(), fn));
    for (auto n : sizes) b->Arg(n);
  };
  gpu("add", add<T>);
  gpu("multiply", multiply<T>);
  gpu("sin", sin<T>);
  gpu("fused_mul_add_sin", fused<T>);
  gpu("where", where<T>);
  gpu("outer_add", outer<T>);
  gpu("add_outer", add_outer<T>);
  gpu("logaddexp", logaddexp<T>);
  gpu("strided_add", strided<T>);
  gpu("write", write_raw<T>);
  const std::string host_name = "add_host/cunp/" + dt;
  host_timed(benchmark::RegisterBenchmark(host_name.c_str(), add_small_host<T>))->Arg(1000);
}

}  // namespace

int main(int argc, char** argv) {
  register_dtype<float>("float32");
  register_dtype<double>("float64");
  host_timed(benchmark::RegisterBenchmark("launch_host/raw", launch_host));
  auto* fd = gpu_timed(benchmark::RegisterBenchmark("floor_divide/cunp/int32", floor_divide_int32));
  for (const std::int64_t n : {1 << 20, 1 << 24, 1 << 28}) fd->Arg(n);
  return cunp_bench::run_main(argc, argv);
}
