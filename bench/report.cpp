// bench/report.cpp: the CPU-vs-GPU report, the README's first command (scripts/report.sh).
//
// For each operation cunp has, at sizes 2^10 ... 2^26 elements: the cpu backend's time, the
// GPU's time (CUDA events) and end-to-end time, the speed-up, the largest relative difference
// between the GPU and the cpu result, the fraction of the bandwidth ceiling measured in this run,
// and a verdict. Built by g++, or run without a GPU, it times the cpu backend alone.
// All timing rules live in bench_util.hpp.
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using cunp::device;

const device gpu0 = cunp::cuda(0);
constexpr const char* no_gpu_line = "No CUDA GPU found: CPU timings only.";

struct options {
  std::string json = "report.json";
  int min_log2 = 10;
  int max_log2 = -1;  // default: 26 with a GPU, 22 without
  int step_log2 = 2;
  std::vector<std::string> ops;  // empty: all
};

enum class ceiling_kind : std::uint8_t { copy, h2d, d2h };

struct row {
  std::string op, dtype, shape;
  shape_t dims;
  int log2n = 0;
  index_t n = 0;
  double bytes = 0;
  ceiling_kind ceiling = ceiling_kind::copy;
  bool transfer = false;
  std::optional<stats> cpu;
  std::optional<gpu_stats> gpu;
  double max_rel_err = NAN, speedup = NAN, cpu_gbps = NAN, gpu_gbps = NAN, frac = NAN;
  bool agree = false;
  std::string verdict;
};

struct run_context {
  bool has_gpu = false;
  std::string gpu_name, compute_capability, driver, runtime;
  int sms = 0;
  std::size_t l2_bytes = 0;
  double copy_gbps = 0, h2d_gbps = 0, d2h_gbps = 0;
  stats copy_ms;
};

std::string shape_of(const shape_t& s) { return cunp::shape_str(s); }

/// The cpu backend's policy for a call whose checked (first) run took more than slow_cpu_ms
/// (sorts from about 2^24 elements): 3 timed runs, the checked run serving as warm-up, so that a
/// row of the CPU column takes seconds, not minutes.
constexpr double slow_cpu_ms = 500;
constexpr policy slow_cpu_policy{0, 3, 3, 0};

/// (rows, cols) holding 2^k elements, as square as powers of two allow.
std::pair<index_t, index_t> matrix_of(int k) {
  return {index_t(1) << ((k + 1) / 2), index_t(1) << (k / 2)};
}

class runner {
 public:
  runner(const run_context& ctx, int total) : ctx_(ctx), total_(total) {}

  /// One operation at one size: `make(dev)` builds the inputs on dev and returns the call.
  /// rtol: the agreement asked of GPU and cpu results (0: agree_rtol of the result type).
  template <class Make>
  void compute(const char* op, const char* dtype, int k, const shape_t& shape, double bytes,
               Make make, double rtol = 0) {
    row r = begin(op, dtype, k, shape, bytes);
    auto cpu_call = make(cunp::cpu);
    using result = typename decltype(cpu_call())::value_type;
    const double t0 = now_ms();
    const auto want = cpu_call();
    const double first_ms = now_ms() - t0;
    r.cpu = time_host(cpu_call, first_ms > slow_cpu_ms ? slow_cpu_policy : cpu_policy);
    r.cpu_gbps = gbps(bytes, r.cpu->median);
    if (ctx_.has_gpu) {
      auto gpu_call = make(gpu0);
      poison_pool<result>(gpu0, want.size());
      r.max_rel_err = max_rel_error(gpu_call(), want);
      r.agree = r.max_rel_err <= (rtol > 0 ? rtol : agree_rtol<result>());
      r.gpu = time_gpu(gpu0, gpu_call, gpu_policy, true);
      r.speedup = r.cpu->median / r.gpu->wall.median;
      r.verdict = r.agree && r.speedup > 1 ? "keep GPU" : "keep CPU";
    }
    end(std::move(r));
  }

  /// Host <-> device copy of 2^k float32 from pageable memory (ndarray::to), checked by value.
  void transfer(bool to_device, int k) {
    const index_t n = index_t(1) << k;
    row r = begin(to_device ? "h2d" : "d2h", "float32", k, {n}, 4.0 * double(n));
    r.transfer = true;
    r.ceiling = to_device ? ceiling_kind::h2d : ceiling_kind::d2h;
    const auto host = random_array<float>({n}, cunp::cpu);
    const auto dev = host.to(gpu0);
    if (to_device) {
      r.max_rel_err = max_rel_error(host.to(gpu0).to(cunp::cpu), host);
      r.gpu = time_gpu(gpu0, [&] { return host.to(gpu0); });
    } else {
      r.max_rel_err = max_rel_error(dev.to(cunp::cpu), host);
      r.gpu = time_gpu(gpu0, [&] { return dev.to(cunp::cpu); });
    }
    r.agree = r.max_rel_err == 0;
    r.verdict = r.agree ? "n/a" : "WRONG";
    end(std::move(r));
  }

  [[nodiscard]] const std::vector<row>& rows() const { return rows_; }

 private:
  row begin(const char* op, const char* dtype, int k, const shape_t& shape, double bytes) {
    row r;
    r.op = op;
    r.dtype = dtype;
    r.log2n = k;
    r.n = cunp::shape_size(shape);
    r.shape = shape_of(shape);
    r.dims = shape;
    r.bytes = bytes;
    std::fprintf(stderr, "[%3d/%d] %-15s %-17s 2^%-2d %-14s", ++done_, total_, op, dtype, k,
                 r.shape.c_str());
    std::fflush(stderr);
    return r;
  }

  void end(row r) {
    if (r.gpu) {
      const double ceil = r.ceiling == ceiling_kind::copy  ? ctx_.copy_gbps
                          : r.ceiling == ceiling_kind::h2d ? ctx_.h2d_gbps
                                                           : ctx_.d2h_gbps;
      r.gpu_gbps = gbps(r.bytes, r.gpu->device.median);
      r.frac = ceil > 0 ? r.gpu_gbps / ceil : NAN;
    }
    if (r.cpu) std::fprintf(stderr, " cpu %10.4f ms", r.cpu->median);
    if (r.gpu)
      std::fprintf(stderr, "  gpu %10.4f ms (end to end %.4f ms)", r.gpu->device.median,
                   r.gpu->wall.median);
    std::fputc('\n', stderr);
    rows_.push_back(std::move(r));
  }

  const run_context& ctx_;
  int total_;
  int done_ = 0;
  std::vector<row> rows_;
};

// ---- the operations ---------------------------------------------------------------------------

struct op_spec {
  const char* name;
  const char* dtype;
  const char* numpy;  // what it mirrors, for the legend
  std::function<void(runner&, int)> run;
};

// dtype_name_v views a string literal, so its data() is null-terminated.
template <class T> const char* dtype_name() { return cunp::dtype_name_v<T>.data(); }

template <class T> op_spec zeros_op() {
  return {"zeros", dtype_name<T>(), "np.zeros(n, dtype)", [](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute("zeros", dtype_name<T>(), k, {n}, double(n) * sizeof(T), [n](device d) {
              return [n, d] { return cunp::zeros<T>({n}, d); };
            });
          }};
}
template <class T> op_spec arange_op() {
  return {"arange", dtype_name<T>(), "np.arange(0, n, 1, dtype)", [](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute("arange", dtype_name<T>(), k, {n}, double(n) * sizeof(T), [n](device d) {
              return [n, d] { return cunp::arange<T>(0.0, double(n), 1.0, d); };
            });
          }};
}
template <class T> op_spec linspace_op() {
  return {"linspace", dtype_name<T>(), "np.linspace(0, 1, n, dtype=dtype)", [](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute("linspace", dtype_name<T>(), k, {n}, double(n) * sizeof(T), [n](device d) {
              return [n, d] { return cunp::linspace<T>(0.0, 1.0, n, true, d); };
            });
          }};
}
op_spec eye_op() {
  return {"eye", "float32", "np.eye(rows, cols, dtype=float32)", [](runner& r, int k) {
            const auto [rows, cols] = matrix_of(k);
            r.compute("eye", "float32", k, {rows, cols}, double(rows * cols) * 4,
                      [rows, cols](device d) {
                        return [rows, cols, d] { return cunp::eye<float>(rows, cols, 0, d); };
                      });
          }};
}
op_spec copy_op() {
  return {"copy", "float32", "a.copy()", [](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute("copy", "float32", k, {n}, 8.0 * double(n), [n](device d) {
              const auto a = random_array<float>({n}, d);
              return [a] { return a.copy(); };
            });
          }};
}
op_spec copy_reversed_op() {
  return {"copy_reversed", "float32", "a[::-1].copy()", [](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute("copy_reversed", "float32", k, {n}, 8.0 * double(n), [n](device d) {
              const auto a = random_array<float>({n}, d);
              const ndarray<float> rev(a.storage(), a.offset() + n - 1, {n}, {-1});
              return [rev] { return rev.copy(); };
            });
          }};
}
op_spec transpose_copy_op() {
  return {"transpose_copy", "float32", "a.T.copy() of a C-ordered (rows, cols)",
          [](runner& r, int k) {
            const auto [rows, cols] = matrix_of(k);
            r.compute("transpose_copy", "float32", k, {rows, cols}, 8.0 * double(rows * cols),
                      [rows, cols](device d) {
                        const auto a = random_array<float>({rows, cols}, d);
                        return [a] { return a.T().copy(); };
                      });
          }};
}
op_spec astype_op() {
  return {"astype", "float32->float64", "a.astype(np.float64)", [](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute("astype", "float32->float64", k, {n}, 12.0 * double(n), [n](device d) {
              const auto a = random_array<float>({n}, d);
              return [a] { return a.astype<double>(); };
            });
          }};
}
/// How an op's inputs are drawn and how closely the backends must agree on its result.
enum class agreement : std::uint8_t {
  exact,      // inputs in [-1, 1); the type's agree_rtol
  positive,   // inputs in [0, 1), so that a sum of terms cannot cancel; the type's agree_rtol
  reduction,  // inputs in [0, 1): float32 sums of up to 2^26 terms added in different orders
              // (pairwise on the cpu, by blocks and warps on the GPU) agree to about 1e-5
};

/// An op on `inputs` random float32 arrays of 2^k elements (2-D ones `matrix` shaped), moving
/// `bytes_per_element` bytes per input element.
template <class F>
op_spec float32_op(const char* name, const char* numpy, int inputs, bool matrix,
                   double bytes_per_element, agreement c, F f) {
  return {name, "float32", numpy, [=](runner& r, int k) {
            const auto [rows, cols] = matrix_of(k);
            const shape_t shape = matrix ? shape_t{rows, cols} : shape_t{rows * cols};
            r.compute(
                name, "float32", k, shape, bytes_per_element * double(rows * cols),
                [=](device d) {
                  std::vector<ndarray<float>> in;
                  for (int i = 0; i < inputs; ++i) {
                    auto a = random_array<float>(shape, d, 42 + std::uint64_t(i));
                    in.push_back(c == agreement::exact ? a : ndarray<float>(cunp::abs(a)));
                  }
                  return [=] { return f(in); };
                },
                c == agreement::reduction ? 1e-5 : 0);
          }};
}
using inputs = std::vector<ndarray<float>>;

std::vector<op_spec> compute_ops() {
  return {
      float32_op("add", "a + b", 2, false, 12, agreement::exact,
                 [](const inputs& x) { return ndarray<float>(x[0] + x[1]); }),
      // Positive terms: a * b + sin(c) of signed inputs cancels near 0, where the last bits of
      // sin (CUDA's sinf against the C library's) make any relative difference.
      float32_op("fused", "a * b + np.sin(c) (one kernel), a, b, c in [0, 1)", 3, false, 16,
                 agreement::positive,
                 [](const inputs& x) { return ndarray<float>(x[0] * x[1] + cunp::sin(x[2])); }),
      float32_op("sum", "a.sum()", 1, false, 4, agreement::reduction,
                 [](const inputs& x) { return cunp::sum(x[0]); }),
      float32_op("sum_product", "(a * b).sum() (one pass)", 2, false, 8, agreement::reduction,
                 [](const inputs& x) { return cunp::sum(x[0] * x[1]); }),
      float32_op("argmax", "a.argmax()", 1, false, 4, agreement::exact,
                 [](const inputs& x) { return cunp::argmax(x[0]); }),
      float32_op("sum_axis0", "a.sum(axis=0) of (rows, cols)", 1, true, 4, agreement::reduction,
                 [](const inputs& x) { return cunp::sum(x[0], 0); }),
      float32_op("sum_axis1", "a.sum(axis=1) of (rows, cols)", 1, true, 4, agreement::reduction,
                 [](const inputs& x) { return cunp::sum(x[0], 1); }),
      float32_op("var_axis1", "a.var(axis=1) of (rows, cols)", 1, true, 4, agreement::reduction,
                 [](const inputs& x) { return cunp::var(x[0], 1); }),
  };
}

/// 2^k random int64 over the full range (splitmix64, as bench_sort's inputs): random_array's
/// values in [-1, 1) would all convert to 0, and narrow keys would let a radix sort skip passes.
ndarray<std::int64_t> random_int64(index_t n, device d) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  splitmix64 g{42};
  for (auto& x : v) x = static_cast<std::int64_t>(g());
  return cunp::asarray(v, {n}, cunp::cpu).to(d);
}

/// A sort's input: float32 in [-1, 1) (with ties from about 2^23 elements on), int64 over the
/// full range.
template <class T> ndarray<T> sort_input(index_t n, device d) {
  if constexpr (std::is_integral_v<T>) return random_int64(n, d);
  else return random_array<T>({n}, d);
}

/// A 1-d op on one sort_input of 2^k elements, moving bytes_per_element bytes per element.
/// Both backends sort stably, so the results (values or indices) must be identical.
template <class T, class F>
op_spec sort_family_op(const char* name, const char* numpy, double bytes_per_element, F f) {
  return {name, dtype_name<T>(), numpy, [=](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute(name, dtype_name<T>(), k, {n}, bytes_per_element * double(n),
                      [=](device d) {
                        const auto a = sort_input<T>(n, d);
                        return [=] { return f(a); };
                      });
          }};
}
template <class T> op_spec sort_op() {
  return sort_family_op<T>("sort", "np.sort(a), stable", 2.0 * sizeof(T),
                           [](const ndarray<T>& a) { return cunp::sort(a); });
}
template <class T> op_spec argsort_op() {
  return sort_family_op<T>("argsort", "np.argsort(a, kind='stable') (int64 indices)",
                           sizeof(T) + 8.0, [](const ndarray<T>& a) { return cunp::argsort(a); });
}

/// cumsum of 2^k random multiples of 1/64 in [-1, 1]. Every partial sum, in whatever order the
/// additions run, is then exact in float32 (a random walk stays far below 2^18 = 2^24 / 64), so
/// the GPU's blocked scan must give the cpu's sequential (NumPy's) results bit for bit. General
/// values cannot be checked at 2^26: from [0, 1) a sequential float32 sum stops growing at 2^24,
/// and from [-1, 1) it crosses zero, where relative differences are unbounded.
template <class T> op_spec cumsum_op() {
  return {"cumsum", dtype_name<T>(), "np.cumsum(a) of multiples of 1/64 in [-1, 1]",
          [](runner& r, int k) {
            const index_t n = index_t(1) << k;
            r.compute("cumsum", dtype_name<T>(), k, {n}, 2.0 * sizeof(T) * double(n),
                      [n](device d) {
                        auto v = random_values<T>(static_cast<std::size_t>(n));
                        for (auto& x : v) x = std::round(x * T(64)) / T(64);
                        const auto a = cunp::asarray(v, {n}, cunp::cpu).to(d);
                        return [a] { return cunp::cumsum(a); };
                      });
          }};
}

op_spec transfer_op(bool to_device) {
  return {to_device ? "h2d" : "d2h", "float32",
          to_device ? "cp.asarray(a): ndarray::to(cuda(0)) from pageable memory"
                    : "a.get(): ndarray::to(cpu) into a new pageable array",
          [to_device](runner& r, int k) { r.transfer(to_device, k); }};
}

std::vector<op_spec> all_ops(bool has_gpu) {
  std::vector<op_spec> ops{zeros_op<float>(),   zeros_op<double>(),    arange_op<float>(),
                           arange_op<double>(), linspace_op<float>(),  linspace_op<double>(),
                           eye_op(),            copy_op(),             copy_reversed_op(),
                           transpose_copy_op(), astype_op()};
  for (auto& op : compute_ops()) ops.push_back(std::move(op));
  for (auto& op : {sort_op<float>(), sort_op<std::int64_t>(), argsort_op<float>(),
                   cumsum_op<float>(), cumsum_op<double>()})
    ops.push_back(op);
  if (has_gpu) {
    ops.push_back(transfer_op(true));
    ops.push_back(transfer_op(false));
  }
  return ops;
}

// ---- context, table and JSON ------------------------------------------------------------------

run_context probe() {
  run_context c;
  c.has_gpu = CUNP_HAS_CUDA && cunp::cuda_available();
#if CUNP_HAS_CUDA
  if (c.has_gpu) {
    const device_facts f = facts(0);
    c.gpu_name = f.name;
    c.compute_capability = std::to_string(f.cc_major) + "." + std::to_string(f.cc_minor);
    c.driver = cuda_version_str(f.driver);
    c.runtime = cuda_version_str(f.runtime);
    c.sms = f.sms;
    c.l2_bytes = f.l2_bytes;
    std::fprintf(stderr, "%s: measuring the ceilings (1 GiB device copy, 256 MiB pinned "
                         "transfers)\n", f.name.c_str());
    c.copy_ms = copy_ceiling(0).ms;
    c.copy_gbps = copy_ceiling(0).gbps();
    c.h2d_gbps = transfer_ceiling(0, true).gbps();
    c.d2h_gbps = transfer_ceiling(0, false).gbps();
  }
#endif
  return c;
}

std::string fmt_time(double ms) {
  char b[32];
  if (!(ms == ms)) return "-";
  if (ms < 1) std::snprintf(b, sizeof b, "%.2f us", ms * 1e3);
  else if (ms < 1e3) std::snprintf(b, sizeof b, "%.3f ms", ms);
  else std::snprintf(b, sizeof b, "%.3f s", ms * 1e-3);
  return b;
}
std::string fmt(const char* f, double v) {
  if (!(v == v)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
std::string fmt_err(double e) {
  if (!(e == e)) return "-";
  if (e == 0) return "0";
  return fmt("%.1e", e);
}

void print_table(std::ostream& os, const run_context& ctx, const std::vector<row>& rows) {
  char line[256];
  if (ctx.has_gpu) {
    std::snprintf(line, sizeof line, "%-15s %-17s %-5s %-14s %11s %11s %11s %9s %9s %9s %7s  %s",
                  "op", "dtype", "n", "shape", "CPU", "GPU", "GPU e2e", "speed-up", "rel err",
                  "GB/s", "of ceil", "verdict");
  } else {
    std::snprintf(line, sizeof line, "%-15s %-17s %-5s %-14s %11s %9s", "op", "dtype", "n",
                  "shape", "CPU", "GB/s");
  }
  os << line << '\n' << std::string(std::strlen(line), '-') << '\n';
  std::string last;
  for (const row& r : rows) {
    if (!last.empty() && last != r.op + r.dtype) os << '\n';
    last = r.op + r.dtype;
    const std::string n = "2^" + std::to_string(r.log2n);
    const std::string cpu = r.cpu ? fmt_time(r.cpu->median) : "-";
    if (ctx.has_gpu) {
      std::snprintf(line, sizeof line, "%-15s %-17s %-5s %-14s %11s %11s %11s %9s %9s %9s %7s  %s",
                    r.op.c_str(), r.dtype.c_str(), n.c_str(), r.shape.c_str(), cpu.c_str(),
                    fmt_time(r.gpu->device.median).c_str(), fmt_time(r.gpu->wall.median).c_str(),
                    r.transfer ? "-" : fmt("%.2fx", r.speedup).c_str(),
                    fmt_err(r.max_rel_err).c_str(), fmt("%.1f", r.gpu_gbps).c_str(),
                    fmt("%.2f", r.frac).c_str(), r.verdict.c_str());
    } else {
      std::snprintf(line, sizeof line, "%-15s %-17s %-5s %-14s %11s %9s", r.op.c_str(),
                    r.dtype.c_str(), n.c_str(), r.shape.c_str(), cpu.c_str(),
                    fmt("%.2f", r.cpu_gbps).c_str());
    }
    os << line << '\n';
  }
}

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}
std::string json_num(double v) {
  if (!std::isfinite(v)) return "null";
  char b[40];
  std::snprintf(b, sizeof b, "%.7g", v);
  return b;
}
std::string json_stats(const std::optional<stats>& s) {
  if (!s) return "null";
  return "{\"median\": " + json_num(s->median) + ", \"min\": " + json_num(s->min) +
         ", \"max\": " + json_num(s->max) + ", \"repeats\": " + std::to_string(s->repeats) + "}";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}
std::string host_name() {
  char b[256] = {};
  return gethostname(b, sizeof b - 1) == 0 ? b : "unknown";
}

#ifdef NDEBUG
constexpr bool optimised = true;
#else
constexpr bool optimised = false;
#endif

void write_json(const std::string& path, const run_context& ctx, const std::vector<row>& rows,
                const std::vector<op_spec>& ops) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  auto pol = [](const policy& p) {
    return "{\"warmup\": " + std::to_string(p.warmup) + ", \"min_repeats\": " +
           std::to_string(p.min_repeats) + ", \"max_repeats\": " + std::to_string(p.max_repeats) +
           ", \"min_seconds\": " + json_num(p.min_seconds) + "}";
  };
  f << "{\n  \"schema\": \"cunp-report-1\",\n  \"context\": {\n";
  f << "    \"date\": " << json_str(utc_now()) << ",\n";
  f << "    \"host\": " << json_str(host_name()) << ",\n";
  f << "    \"cpu_threads\": " << std::thread::hardware_concurrency() << ",\n";
  f << "    \"cunp_version\": \"" << CUNP_VERSION_MAJOR << '.' << CUNP_VERSION_MINOR << '.'
    << CUNP_VERSION_PATCH << "\",\n";
  f << "    \"optimised_build\": " << (optimised ? "true" : "false") << ",\n";
  f << "    \"host_compiler\": " << json_str(__VERSION__) << ",\n";
#if CUNP_HAS_CUDA
  f << "    \"nvcc\": \"" << __CUDACC_VER_MAJOR__ << '.' << __CUDACC_VER_MINOR__ << "\",\n";
#else
  f << "    \"nvcc\": null,\n";
#endif
  f << "    \"has_gpu\": " << (ctx.has_gpu ? "true" : "false") << ",\n";
  if (ctx.has_gpu) {
    f << "    \"gpu\": " << json_str(ctx.gpu_name) << ",\n";
    f << "    \"compute_capability\": " << json_str(ctx.compute_capability) << ",\n";
    f << "    \"sms\": " << ctx.sms << ",\n    \"l2_bytes\": " << ctx.l2_bytes << ",\n";
    f << "    \"cuda_driver\": " << json_str(ctx.driver) << ",\n";
    f << "    \"cuda_runtime\": " << json_str(ctx.runtime) << ",\n";
    f << "    \"copy_ceiling_GBps\": " << json_num(ctx.copy_gbps) << ",\n";
    f << "    \"copy_ceiling_ms\": " << json_stats(ctx.copy_ms) << ",\n";
    f << "    \"h2d_pinned_ceiling_GBps\": " << json_num(ctx.h2d_gbps) << ",\n";
    f << "    \"d2h_pinned_ceiling_GBps\": " << json_num(ctx.d2h_gbps) << ",\n";
  }
  f << "    \"cpu_policy\": " << pol(cpu_policy) << ",\n";
  f << "    \"cpu_policy_slow_calls\": " << pol(slow_cpu_policy)
    << ",\n    \"cpu_slow_call_ms\": " << json_num(slow_cpu_ms) << ",\n";
  f << "    \"gpu_policy\": " << pol(gpu_policy) << ",\n";
  f << "    \"ops\": {";
  for (std::size_t i = 0; i < ops.size(); ++i)
    f << (i ? ", " : "") << json_str(std::string(ops[i].name) + " " + ops[i].dtype) << ": "
      << json_str(ops[i].numpy);
  f << "}\n  },\n  \"results\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    std::string dims;
    for (const index_t e : r.dims) dims += (dims.empty() ? "" : ", ") + std::to_string(e);
    f << "    {\"op\": " << json_str(r.op) << ", \"dtype\": " << json_str(r.dtype)
      << ", \"n\": " << r.n << ", \"log2_n\": " << r.log2n << ", \"shape\": " << json_str(r.shape)
      << ", \"dims\": [" << dims << "]"
      << ", \"bytes\": " << std::llround(r.bytes)
      << ", \"transfer\": " << (r.transfer ? "true" : "false")
      << ",\n     \"cpu_ms\": " << json_stats(r.cpu)
      << ",\n     \"gpu_ms\": " << json_stats(r.gpu ? std::optional(r.gpu->device) : std::nullopt)
      << ",\n     \"gpu_end_to_end_ms\": "
      << json_stats(r.gpu ? std::optional(r.gpu->wall) : std::nullopt)
      << ",\n     \"gpu_host_call_ms\": "
      << json_stats(r.gpu ? std::optional(r.gpu->host) : std::nullopt)
      << ",\n     \"speedup\": " << json_num(r.speedup) << ", \"max_rel_err\": "
      << (r.gpu ? json_num(r.max_rel_err) : "null")
      << ", \"agree\": " << (r.gpu ? (r.agree ? "true" : "false") : "null")
      << ", \"cpu_GBps\": " << json_num(r.cpu_gbps) << ", \"gpu_GBps\": " << json_num(r.gpu_gbps)
      << ", \"fraction_of_ceiling\": " << json_num(r.frac) << ", \"ceiling\": \""
      << (r.ceiling == ceiling_kind::copy ? "copy" : r.ceiling == ceiling_kind::h2d ? "h2d_pinned"
                                                                                    : "d2h_pinned")
      << "\", \"verdict\": " << (r.verdict.empty() ? "null" : json_str(r.verdict)) << "}"
      << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  f << "  ]\n}\n";
}

/// The operations' names, each once, in the report's order (h2d and d2h included).
std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const auto& op : all_ops(true))
    if (std::find(names.begin(), names.end(), op.name) == names.end()) names.push_back(op.name);
  return names;
}

void usage() {
  std::string names, line = "   ";
  for (const auto& name : op_names()) {
    if (line.size() + name.size() > 95) {
      names += line + "\n";
      line = "   ";
    }
    line += " " + name;
  }
  names += line;
  std::printf(
      "usage: report [--json PATH] [--min-log2 K] [--max-log2 K] [--step-log2 S] [--ops a,b,...]\n"
      "  Times cunp's operations on the cpu and, when a CUDA GPU is present, on the GPU, at\n"
      "  2^K elements for K = min, min + S, ... max (defaults 10, 2, and 26 with a GPU or 22\n"
      "  without), prints a table and writes JSON (default report.json). A CPU call that takes\n"
      "  over %.1f s is timed %d times (others at least %d times and %.1f s).\n"
      "  --ops keeps only the named operations, of:\n%s\n",
      slow_cpu_ms * 1e-3, slow_cpu_policy.min_repeats, cpu_policy.min_repeats,
      cpu_policy.min_seconds, names.c_str());
}

int parse(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      usage();
      return 0;
    }
    if (a == "--json") o.json = value();
    else if (a == "--min-log2") o.min_log2 = std::stoi(value());
    else if (a == "--max-log2") o.max_log2 = std::stoi(value());
    else if (a == "--step-log2") o.step_log2 = std::stoi(value());
    else if (a == "--ops") {
      const auto names = op_names();
      std::stringstream ss(value());
      for (std::string op; std::getline(ss, op, ',');) {
        if (std::find(names.begin(), names.end(), op) == names.end())
          throw std::invalid_argument("unknown operation " + op + " (try --help)");
        o.ops.push_back(op);
      }
    } else throw std::invalid_argument("unknown argument " + a + " (try --help)");
  }
  if (o.min_log2 < 0 || o.step_log2 < 1 || o.max_log2 > 32)
    throw std::invalid_argument("need 0 <= --min-log2, 1 <= --step-log2, --max-log2 <= 32");
  return -1;
}

int run(int argc, char** argv) {
  options o;
  if (const int rc = parse(argc, argv, o); rc >= 0) return rc;
  const run_context ctx = probe();
  if (o.max_log2 < 0) o.max_log2 = ctx.has_gpu ? 26 : 22;

  std::vector<op_spec> ops;
  for (auto& op : all_ops(ctx.has_gpu))
    if (o.ops.empty() || std::find(o.ops.begin(), o.ops.end(), op.name) != o.ops.end())
      ops.push_back(std::move(op));
  std::vector<int> ks;
  for (int k = o.min_log2; k <= o.max_log2; k += o.step_log2) ks.push_back(k);

  if (!ctx.has_gpu) {
    std::cout << no_gpu_line << '\n'
              << (CUNP_HAS_CUDA ? "(this build has the CUDA backend, but the CUDA driver reports "
                                  "no usable device)"
                                : "(this build has no CUDA backend: configure with nvcc, "
                                  "-DCUNP_ENABLE_CUDA=ON)")
              << "\n\n";
  } else {
    std::cout << ctx.gpu_name << " (compute capability " << ctx.compute_capability << ", "
              << ctx.sms << " SMs, CUDA driver " << ctx.driver
              << ", runtime " << ctx.runtime << "): copy ceiling " << fmt("%.0f", ctx.copy_gbps)
              << " GB/s (1 GiB device-to-device, read + write), pinned h2d "
              << fmt("%.1f", ctx.h2d_gbps) << " GB/s, d2h " << fmt("%.1f", ctx.d2h_gbps)
              << " GB/s\n\n";
  }
  if (!optimised)
    std::cout << "warning: this report was built without optimisation (a Debug build); its "
                 "timings do not mean much\n\n";
  std::cout.flush();

  runner r(ctx, static_cast<int>(ops.size() * ks.size()));
  for (const auto& op : ops)
    for (int k : ks) op.run(r, k);

  std::cout << '\n';
  print_table(std::cout, ctx, r.rows());
  std::cout << "\nn: elements; times: medians. CPU: host clock. GPU: CUDA events (for ops that "
               "only enqueue GPU work, a\nhold kernel keeps the launch latency out: device time "
               "alone). GPU e2e: host clock from the call until\nthe GPU is done (what the "
               "caller waits for)\n";
  if (ctx.has_gpu)
    std::cout << "speed-up = CPU / GPU e2e; rel err = max |GPU - CPU| / |CPU|; GB/s = fewest "
                 "bytes moved / GPU time;\nof ceil = GB/s over the copy ceiling (transfers: over "
                 "the pinned-transfer ceiling);\n\"keep GPU\" only when the results agree and the "
                 "GPU is faster end to end.\n";
  std::cout << "ops:";
  for (const auto& op : ops) std::cout << "\n  " << op.name << " " << op.dtype << ": " << op.numpy;
  std::cout << "\n";
  write_json(o.json, ctx, r.rows(), ops);
  std::cout << "wrote " << o.json << '\n';
  if (!ctx.has_gpu) std::cout << no_gpu_line << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "report: %s\n", e.what());
    return 1;
  }
}
