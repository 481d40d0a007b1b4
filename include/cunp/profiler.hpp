// cunp/profiler.hpp: cunp::profiler::benchmark, which mirrors cupyx.profiler.benchmark.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cunp/stream.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::profiler {

/// benchmark()'s settings, as cupyx.profiler.benchmark's keyword arguments.
struct benchmark_options {
  int n_warmup = 10;                                              ///< untimed calls first
  int n_repeat = 100;                                             ///< timed calls
  double max_duration = std::numeric_limits<double>::infinity();  ///< seconds; stops early
  std::string name;                                               ///< shown first in the report
  /// The GPU whose events time each call; unset: the default device when it is a GPU. None (or
  /// the cpu): CPU times only.
  std::optional<cunp::device> gpu;
};

/// cupyx.profiler's _PerfCaseResult: the CPU wall time and the GPU event time of every repeat, in
/// seconds (gpu_times is empty when no GPU was timed).
struct benchmark_result {
  std::string name;
  std::vector<double> cpu_times;
  std::vector<double> gpu_times;
  std::optional<cunp::device> gpu;

  /// CuPy's report: `name                :    CPU:    12.345 us   +/-  0.400 (min:    11.900 /
  /// max:    13.100) us     GPU-0:    20.100 us ...` (mean, standard deviation, min, max).
  [[nodiscard]] std::string to_string() const {
    std::string s = name;
    if (s.size() < 20) s.append(20 - s.size(), ' ');
    s += ":" + item("CPU", cpu_times);
    if (gpu && !gpu_times.empty())
      s += " " + item("GPU-" + std::to_string(gpu->index()), gpu_times);
    return s;
  }
  friend std::ostream& operator<<(std::ostream& os, const benchmark_result& r) {
    return os << r.to_string();
  }

 private:
  static std::string item(const std::string& label, const std::vector<double>& t) {
    const auto n = static_cast<double>(t.size());
    double mean = 0, var = 0;
    for (const double v : t) mean += v * 1e6;
    mean /= n;
    for (const double v : t) var += (v * 1e6 - mean) * (v * 1e6 - mean);
    char buf[160];
    std::snprintf(buf, sizeof buf, "    %s: %9.3f us", label.c_str(), mean);
    std::string s = buf;
    if (t.size() > 1) {
      const auto [lo, hi] = std::minmax_element(t.begin(), t.end());
      std::snprintf(buf, sizeof buf, "   +/- %6.3f (min: %9.3f / max: %9.3f) us",
                    std::sqrt(var / n), *lo * 1e6, *hi * 1e6);
      s += buf;
    }
    return s;
  }
};

/// cupyx.profiler.benchmark: calls fn() n_warmup times, then n_repeat times (or until the timed
/// calls took max_duration seconds) recording the host wall time of each call and, on a GPU, the
/// time between events recorded on the current stream before and after it. A lazy expression
/// returned by fn is evaluated inside the timed call, or nothing would run.
template <class Backend = detail::compiled_backend, class F>
[[nodiscard]] benchmark_result benchmark(F&& fn, const benchmark_options& options = {}) {
  if (options.n_repeat <= 0)
    throw value_error("profiler::benchmark: n_repeat must be positive, got " +
                      std::to_string(options.n_repeat));
  if (options.n_warmup < 0)
    throw value_error("profiler::benchmark: n_warmup must be zero or more, got " +
                      std::to_string(options.n_warmup));
  if (std::isnan(options.max_duration))
    throw value_error("profiler::benchmark: max_duration should be given in seconds, got NaN");
  std::optional<device> gpu = options.gpu;
  if (!gpu && default_device().is_cuda()) gpu = default_device();
  if (gpu && gpu->is_cpu()) gpu.reset();
  if (gpu) detail::check_device(*gpu);

  const auto call = [&] {
    if constexpr (requires { typename std::remove_cvref_t<decltype(fn())>::loop_type; })
      (void)eval<Backend>(fn());
    else
      (void)fn();
  };
  std::optional<event> start, stop;
  if (gpu) {
    start.emplace(*gpu);
    stop.emplace(*gpu);
  }
  for (int i = 0; i < options.n_warmup; ++i) call();
  if (gpu) {  // the warm-up's device work must not land in the first timed call
    start->record();
    start->synchronize();
  }
  benchmark_result out{options.name, {}, {}, gpu};
  using clock = std::chrono::steady_clock;
  double duration = 0;
  for (int i = 0; i < options.n_repeat; ++i) {
    if (gpu) start->record();
    const auto t1 = clock::now();
    call();
    const auto t2 = clock::now();
    out.cpu_times.push_back(std::chrono::duration<double>(t2 - t1).count());
    if (gpu) {
      stop->record();
      stop->synchronize();
      out.gpu_times.push_back(event::elapsed_ms(*start, *stop) * 1e-3);
    }
    duration += std::chrono::duration<double>(clock::now() - t1).count();
    if (duration > options.max_duration) break;
  }
  return out;
}

}  // namespace cunp::profiler
