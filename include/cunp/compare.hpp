// cunp/compare.hpp: cunp::compare, the CPU-versus-GPU evidence for one computation in one call.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/checking.hpp"
#include "cunp/profiler.hpp"

namespace cunp {

/// compare()'s settings. Unset tolerances take the result dtype's defaults: exact for integers
/// and bool; rtol 1e-3 (float16), 1e-2 (bfloat16), 1e-5 (float32, complex64), 1e-12 (float64,
/// complex128), with atol that many times the largest finite |value| of the cpu result, so that
/// results that cancel to about zero are judged on the scale of the data.
struct compare_options {
  std::optional<double> rtol;
  std::optional<double> atol;
  bool equal_nan = true;      ///< NaNs at the same places agree
  int n_warmup = 2;           ///< untimed calls on each side
  int n_repeat = 10;          ///< timed calls on each side (median reported)
  double max_duration = 5.0;  ///< seconds of timed calls per side, at most
  /// Speed-up and verdict count the transfers (inputs to the GPU, result back). false: the data
  /// already lives on the GPU in the program, only the computation counts.
  bool end_to_end = true;
  /// The GPU; unset: the default device when it is a GPU, else cuda(0) when there is one.
  std::optional<device> gpu;
  std::string name;  ///< shown in the report
};

/// What compare() found. Times are medians in seconds; the GPU fields are empty when no GPU ran.
struct comparison {
  std::string name;
  cunp::dtype dtype = cunp::dtype::float32;
  shape_t shape;
  std::optional<device> gpu;
  double cpu_time = 0;             ///< host wall time of fn on the cpu
  std::optional<double> gpu_time;  ///< CUDA event time of fn on the GPU
  std::optional<double> h2d_time;  ///< copying the inputs to the GPU (host wall time, synced)
  std::optional<double> d2h_time;  ///< copying the result back
  std::optional<double> speedup;   ///< cpu_time / (gpu_time [+ h2d_time + d2h_time])
  bool end_to_end = true;
  double rtol = 0, atol = 0;
  std::optional<bool> agree;            ///< allclose(gpu result, cpu result, rtol, atol)
  std::optional<double> max_abs_error;  ///< max |gpu - cpu| (NaN if a NaN meets a number)
  std::optional<double> max_rel_error;  ///< max |gpu - cpu| / |cpu| over cpu != 0
  int n_repeat_cpu = 0, n_repeat_gpu = 0;
  /// "keep GPU" (results agree and the GPU is faster), "keep CPU", "results differ" or "no GPU".
  std::string verdict;
};

namespace detail {

inline std::string format_seconds(double s) {
  char buf[64];
  if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// compare()'s default tolerances for a result of type T: {rtol, atol per unit of the scale}.
template <class T>
constexpr std::pair<double, double> default_tolerance() {
  using R = typename complex_parts<T>::type;
  if constexpr (std::is_same_v<R, float16>)
    return {1e-3, 1e-3};
  else if constexpr (std::is_same_v<R, bfloat16>)
    return {1e-2, 1e-2};
  else if constexpr (std::is_same_v<R, float>)
    return {1e-5, 1e-6};
  else if constexpr (std::is_same_v<R, double>)
    return {1e-12, 1e-12};
  else
    return {0.0, 0.0};
}

/// Checks the GPU's result against the cpu's (both on the cpu): fills rtol, atol, agree and the
/// largest errors. Results of different shapes are a shape_error naming both.
template <class Backend, class T>
void check_agreement(comparison& c, const ndarray<T>& cpu_result, const ndarray<T>& gpu_result,
                     const compare_options& options) {
  if (cpu_result.shape() != gpu_result.shape())
    throw shape_error("compare: the cpu result has shape " + shape_str(cpu_result.shape()) +
                      " and the " + (c.gpu ? c.gpu->str() : std::string("GPU")) +
                      " result has shape " + shape_str(gpu_result.shape()));
  const std::vector<T> ref = cpu_result.to_vector(), got = gpu_result.to_vector();
  double scale = 0, max_abs = 0, max_rel = 0;
  for (const T& v : ref) {
    const double a = std::abs(convert<std::complex<double>>(v));
    if (std::isfinite(a)) scale = std::max(scale, a);
  }
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const auto r = convert<std::complex<double>>(ref[i]), g = convert<std::complex<double>>(got[i]);
    const bool r_nan = std::isnan(r.real()) || std::isnan(r.imag());
    const bool g_nan = std::isnan(g.real()) || std::isnan(g.imag());
    if (r == g || (options.equal_nan && r_nan && g_nan) || std::isnan(max_abs)) continue;
    const double err = std::abs(g - r);
    max_abs = std::isnan(err) ? err : std::max(max_abs, err);
    if (std::abs(r) != 0) max_rel = std::isnan(err) ? err : std::max(max_rel, err / std::abs(r));
  }
  const auto [rtol, atol_per_scale] = default_tolerance<T>();
  c.rtol = options.rtol.value_or(rtol);
  c.atol = options.atol.value_or(atol_per_scale * scale);
  c.agree = allclose<Backend>(gpu_result, cpu_result, c.rtol, c.atol, options.equal_nan);
  c.max_abs_error = max_abs;
  c.max_rel_error = max_rel;
}

/// The array fn returns, an expression evaluated.
template <class Backend, class R>
auto materialize(R&& r) {
  if constexpr (requires { typename std::remove_cvref_t<R>::loop_type; })
    return eval<Backend>(r);
  else
    return std::remove_cvref_t<R>(std::forward<R>(r));
}

inline std::optional<device> compare_gpu(const compare_options& options) {
  if (options.gpu) {
    if (options.gpu->is_cpu())
      throw device_error("compare: options.gpu is the cpu; give a GPU, cuda(i), or leave it unset");
    check_device(*options.gpu);
    return options.gpu;
  }
  if (default_device().is_cuda()) return default_device();
  if (cuda_available()) return cunp::cuda(0);  // under nvcc, `cuda` here names detail::cuda
  return std::nullopt;
}

}  // namespace detail

/// Runs fn on the cpu backend and on a GPU with the same inputs and says which to keep: it
/// checks the results agree (allclose under per-dtype tolerances), times both (host wall time on
/// the cpu, CUDA events on the GPU; warm-up, then the median of repeats) and the transfers
/// (inputs to the GPU, result back) separately, and gives the speed-up and a verdict. fn takes
/// ndarray<T>... and returns an array or an expression (evaluated). Without a GPU only the cpu
/// side runs and the verdict is "no GPU".
template <class Backend = detail::compiled_backend, class F, element_type... T>
[[nodiscard]] comparison compare(F&& fn, const compare_options& options,
                                 const ndarray<T>&... inputs) {
  if (options.n_repeat <= 0)
    throw value_error("compare: n_repeat must be positive, got " +
                      std::to_string(options.n_repeat));
  if (options.n_warmup < 0)
    throw value_error("compare: n_warmup must be zero or more, got " +
                      std::to_string(options.n_warmup));
  comparison c;
  c.name = options.name;
  c.end_to_end = options.end_to_end;
  c.gpu = detail::compare_gpu(options);
  const std::tuple<ndarray<T>...> host_inputs(inputs.to(cpu)...);
  const auto run = [&](const auto& args) {
    return detail::materialize<Backend>(std::apply(fn, args));
  };
  // Transfers take one warm-up: their first call only pays for the pool's first allocation.
  const auto settings = [&](int n_warmup, device timer) {
    profiler::benchmark_options o;
    o.n_warmup = n_warmup;
    o.n_repeat = options.n_repeat;
    o.max_duration = options.max_duration;
    o.name = options.name;
    o.gpu = timer;
    return o;
  };
  const auto timed = [&](const auto& args, device dev) {
    return profiler::benchmark<Backend>([&] { return run(args); }, settings(options.n_warmup, dev));
  };

  // The GPU first: a translation unit that cannot run fn's kernels fails before the cpu's run.
  std::optional<decltype(run(host_inputs))> gpu_result;
  if (c.gpu) {
    const device g = *c.gpu;
    const auto h2d = profiler::benchmark<Backend>(
        [&] {
          std::apply([&](const auto&... a) { (void)std::make_tuple(a.to(g)...); }, host_inputs);
          synchronize(g);
        },
        settings(1, cpu));
    c.h2d_time = detail::median(h2d.cpu_times);
    const auto device_inputs =
        std::apply([&](const auto&... a) { return std::make_tuple(a.to(g)...); }, host_inputs);
    gpu_result = run(device_inputs);
    const auto r = timed(device_inputs, g);
    c.gpu_time = detail::median(r.gpu_times);
    c.n_repeat_gpu = static_cast<int>(r.gpu_times.size());
    const auto d2h =
        profiler::benchmark<Backend>([&] { (void)gpu_result->to(cpu); }, settings(1, cpu));
    c.d2h_time = detail::median(d2h.cpu_times);
  }
  const auto cpu_result = run(host_inputs);
  using R = typename std::remove_cvref_t<decltype(cpu_result)>::value_type;
  c.dtype = dtype_of_v<R>;
  c.shape = cpu_result.shape();
  if (c.gpu) detail::check_agreement<Backend>(c, cpu_result, gpu_result->to(cpu), options);
  const auto r = timed(host_inputs, cpu);
  c.cpu_time = detail::median(r.cpu_times);
  c.n_repeat_cpu = static_cast<int>(r.cpu_times.size());
  if (!c.gpu) {
    c.verdict = "no GPU";
    return c;
  }
  const double gpu_total = *c.gpu_time + (options.end_to_end ? *c.h2d_time + *c.d2h_time : 0.0);
  c.speedup = c.cpu_time / gpu_total;
  c.verdict = !*c.agree ? "results differ" : *c.speedup > 1 ? "keep GPU" : "keep CPU";
  return c;
}

/// compare(fn, inputs...) with the default options.
template <class Backend = detail::compiled_backend, class F, element_type... T>
[[nodiscard]] comparison compare(F&& fn, const ndarray<T>&... inputs) {
  return compare<Backend>(std::forward<F>(fn), compare_options{}, inputs...);
}

/// The report: one line per measurement, then the errors and the verdict.
inline std::ostream& operator<<(std::ostream& os, const comparison& c) {
  const auto row = [&](const std::string& label, const std::string& value) {
    os << "  " << label << std::string(label.size() < 14 ? 14 - label.size() : 1, ' ') << value
       << '\n';
  };
  os << "compare" << (c.name.empty() ? "" : " " + c.name) << ": " << dtype_name(c.dtype) << ' '
     << shape_str(c.shape) << '\n';
  row("cpu", detail::format_seconds(c.cpu_time) + "  (median of " + std::to_string(c.n_repeat_cpu) +
                 ", host wall time)");
  if (!c.gpu) {
    row("gpu", "none: no GPU, only the cpu side ran");
    row("verdict", c.verdict);
    return os;
  }
  row("gpu", detail::format_seconds(*c.gpu_time) + "  (median of " +
                 std::to_string(c.n_repeat_gpu) + ", " + c.gpu->str() + " events)");
  row("h2d", detail::format_seconds(*c.h2d_time) + "  (inputs to " + c.gpu->str() + ")");
  row("d2h", detail::format_seconds(*c.d2h_time) + "  (result back)");
  char buf[128];
  std::snprintf(
      buf, sizeof buf, "%.3gx %s", *c.speedup,
      c.end_to_end ? "end to end (cpu / (gpu + h2d + d2h))" : "(cpu / gpu, no transfers)");
  row("speed-up", buf);
  std::snprintf(buf, sizeof buf, "%.3g", *c.max_abs_error);
  row("max abs error", buf);
  std::snprintf(buf, sizeof buf, "%.3g", *c.max_rel_error);
  row("max rel error", buf);
  std::snprintf(buf, sizeof buf, "rtol %.3g, atol %.3g: %s", c.rtol, c.atol,
                *c.agree ? "agree" : "DIFFER");
  row("allclose", buf);
  row("verdict", c.verdict);
  return os;
}

}  // namespace cunp
