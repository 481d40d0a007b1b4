// bench/bench_reduce.cpp: reductions against the copy ceiling measured in the same run
// (PERFORMANCE.md's targets: full reductions >= 1.0 of copy, axis reductions >= 0.95, sum(a*b)
// in one pass >= 0.95; with where= >= 0.9 of the same reduction without it, the mask counted).
//
// Names are <op>/<impl>/<dtype>/<elements>; impl cunp (GPU), cunp_two_step for sum(a*b) written
// as eval(a*b) then sum. bytes = the fewest bytes the op must move: every input element read
// once, every output element written once (the two-step form is set against the same floor, so
// its fraction shows what the temporary costs). Each iteration makes a fresh result from the
// pool (what `auto s = cunp::sum(a);` costs), with the launch hidden behind a hold kernel;
// host_us is what the call costs the host. Before it is timed, each op's GPU result is checked
// against the cpu backend on the same input (the output's pool block poisoned first); an op that
// disagrees is reported as an error and not timed. CuPy's numbers for the same names come from
// bench/cupy/cupy_reduce.py.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;
const cunp::device gpu0 = cunp::cuda(0);

constexpr index_t flat_n = index_t(1) << 28;  // 1 GiB of float32
constexpr index_t side = 16384;               // 16384 x 16384 float32: 1 GiB

// Random inputs in [-1, 1) per (dtype, shape, slot), kept for the whole run (seed 1000 + slot,
// as bench_elementwise's input()).
template <class T>
const ndarray<T>& input(const shape_t& shape, int slot) {
  static auto* cache = new std::map<std::pair<shape_t, int>, ndarray<T>>();
  auto it = cache->find({shape, slot});
  if (it == cache->end())
    it = cache->emplace(std::make_pair(shape, slot), random_array<T>(shape, gpu0, 1000 + slot))
             .first;
  return it->second;
}

/// Every element of got within atol + rtol * |want| of want's (NaN only against NaN).
template <class T>
bool within(const ndarray<T>& got, const ndarray<T>& want, double rtol, double atol) {
  if (got.shape() != want.shape()) return false;
  const auto g = got.to_vector(), w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double a = static_cast<double>(g[i]), b = static_cast<double>(w[i]);
    if (std::isnan(a) || std::isnan(b)) {
      if (std::isnan(a) != std::isnan(b)) return false;
      continue;
    }
    if (std::abs(a - b) > atol + rtol * std::abs(b)) return false;
  }
  return true;
}

/// f's GPU result against the cpu backend's on the same inputs, once per op (`key`) per run.
template <class F, class... A>
bool verified(State& s, const std::string& key, double rtol, double atol, const F& f,
              const A&... in) {
  static auto* done = new std::set<std::string>();
  if (done->count(key)) return true;
  const auto want = f(in.to(cunp::cpu)...);
  using R = typename std::decay_t<decltype(want)>::value_type;
  poison_pool<R>(gpu0, std::max<index_t>(want.size(), 1));
  const auto got = f(in...).to(cunp::cpu);
  if (!within(got, want, rtol, atol)) {
    s.SkipWithError("the GPU result differs from the cpu backend's; not timed");
    return false;
  }
  done->insert(key);
  return true;
}

/// The check's absolute tolerance for sums of K values in [-1, 1): both trees' rounding errors
/// are random and grow like sqrt(K) ulps; 64 times that is far beyond them, yet below most
/// single elements, so that a dropped or doubled chunk fails. max and argmax are exact.
template <class T>
double sum_atol(index_t K) {
  return 64 * std::numeric_limits<T>::epsilon() * std::sqrt(double(K));
}

/// Times f(in...) after checking it against the cpu backend.
template <class F, class... A>
void run(State& s, const std::string& key, double bytes, double rtol, double atol, const F& f,
         const A&... in) {
  if (!verified(s, key, rtol, atol, f, in...)) return;
  gpu_loop(s, {bytes, against::copy_ceiling, true}, [&] { consume(f(in...)); });
}

// The ops, written once for the check and the timing.
const auto sum_all = [](const auto& a) { return cunp::sum(a); };
const auto max_all = [](const auto& a) { return cunp::max(a); };
const auto argmax_all = [](const auto& a) { return cunp::argmax(a); };
const auto sum_rows = [](const auto& m) { return cunp::sum(m, 1); };
const auto sum_cols = [](const auto& m) { return cunp::sum(m, 0); };
const auto var_rows = [](const auto& m) { return cunp::var(m, 1); };
const auto sum_of_product = [](const auto& a, const auto& b) { return cunp::sum(a * b); };
const auto sum_of_product_two_step = [](const auto& a, const auto& b) {
  const ndarray<float> p = cunp::eval(a * b);  // the temporary: 1 GiB written and read again
  return cunp::sum(p);
};

// where= (issue: >= 0.9 of the same reduction without it, the mask's bytes counted): a mask
// selecting about half the elements, made once per shape.
const ndarray<bool>& mask(const shape_t& shape) {
  static auto* cache = new std::map<shape_t, ndarray<bool>>();
  auto it = cache->find(shape);
  if (it == cache->end()) it = cache->emplace(shape, ndarray<bool>(input<float>(shape, 2) > 0)).first;
  return it->second;
}
const auto sum_where_all = [](const auto& a, const auto& m) {
  return cunp::sum(a, {}, {.where = m});
};
const auto sum_where_rows = [](const auto& a, const auto& m) {
  return cunp::sum(a, 1, {.where = m});
};
const auto max_where_all = [](const auto& a, const auto& m) {
  return cunp::max(a, {}, {.initial = -2.0, .where = m});
};

const std::string square = std::to_string(side) + "x" + std::to_string(side);
const double square_bytes = 4.0 * double(side * side + side);

template <class T>
void sum_full(State& s) {
  const index_t n = s.range(0);
  run(s, "sum/" + std::string(cunp::dtype_name_v<T>), double(n + 1) * sizeof(T), 1e-5,
      sum_atol<T>(n), sum_all, input<T>({n}, 0));
}
void max_full(State& s) {
  const index_t n = s.range(0);
  run(s, "max", 4.0 * double(n + 1), 0, 0, max_all, input<float>({n}, 0));
}
void argmax_full(State& s) {
  const index_t n = s.range(0);
  run(s, "argmax", 4.0 * double(n) + 8, 0, 0, argmax_all, input<float>({n}, 0));
}
void sum_axis0(State& s) {
  s.SetLabel(square);
  run(s, "sum_axis0", square_bytes, 1e-5, sum_atol<float>(side), sum_cols,
      input<float>({side, side}, 1));
}
void sum_axis1(State& s) {
  s.SetLabel(square);
  run(s, "sum_axis1", square_bytes, 1e-5, sum_atol<float>(side), sum_rows,
      input<float>({side, side}, 1));
}
void var_axis1(State& s) {
  s.SetLabel(square);
  run(s, "var_axis1", square_bytes, 1e-5, 1e-7, var_rows, input<float>({side, side}, 1));
}
void sum_mul(State& s) {  // one pass: a and b read once, no temporary
  const index_t n = s.range(0);
  run(s, "sum_mul", 4.0 * double(2 * n + 1), 1e-5, sum_atol<float>(n), sum_of_product,
      input<float>({n}, 0), input<float>({n}, 1));
}
void sum_where(State& s) {
  const index_t n = s.range(0);
  run(s, "sum_where", 5.0 * double(n) + 4, 1e-5, sum_atol<float>(n), sum_where_all,
      input<float>({n}, 0), mask({n}));
}
void max_where(State& s) {
  const index_t n = s.range(0);
  run(s, "max_where", 5.0 * double(n) + 4, 0, 0, max_where_all, input<float>({n}, 0), mask({n}));
}
void sum_axis1_where(State& s) {
  s.SetLabel(square);
  run(s, "sum_axis1_where", 5.0 * double(side * side) + 4.0 * side, 1e-5, sum_atol<float>(side),
      sum_where_rows, input<float>({side, side}, 1), mask({side, side}));
}
void sum_mul_two_step(State& s) {  // against the same floor: what the temporary costs
  const index_t n = s.range(0);
  run(s, "sum_mul_two_step", 4.0 * double(2 * n + 1), 1e-5, sum_atol<float>(n),
      sum_of_product_two_step, input<float>({n}, 0), input<float>({n}, 1));
}

void gpu(const std::string& name, void (*fn)(State&), index_t n) {
  gpu_timed(benchmark::RegisterBenchmark(name.c_str(), fn))->Arg(n);
}

}  // namespace

int main(int argc, char** argv) {
  gpu("sum/cunp/float32", sum_full<float>, flat_n);
  gpu("max/cunp/float32", max_full, flat_n);
  gpu("argmax/cunp/float32", argmax_full, flat_n);
  gpu("sum_axis0/cunp/float32", sum_axis0, side * side);
  gpu("sum_axis1/cunp/float32", sum_axis1, side * side);
  gpu("var_axis1/cunp/float32", var_axis1, side * side);
  gpu("sum_mul/cunp/float32", sum_mul, flat_n);
  gpu("sum_mul/cunp_two_step/float32", sum_mul_two_step, flat_n);
  gpu("sum/cunp/float64", sum_full<double>, flat_n / 2);
  gpu("sum_where/cunp/float32", sum_where, flat_n);
  gpu("max_where/cunp/float32", max_where, flat_n);
  gpu("sum_axis1_where/cunp/float32", sum_axis1_where, side * side);
  return cunp_bench::run_main(argc, argv);
}
