// profiler::benchmark (cupyx.profiler.benchmark) and compare(), the CPU-versus-GPU verdict.
#include <sstream>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

namespace {
/// True when this build runs GPU code (the nvcc build on a machine with a GPU).
bool has_gpu() { return backends().size() > 1; }

cunp::profiler::benchmark_options opts(int n_warmup, int n_repeat, std::string name = "") {
  cunp::profiler::benchmark_options o;
  o.n_warmup = n_warmup;
  o.n_repeat = n_repeat;
  o.name = std::move(name);
  return o;
}

std::string printed(const cunp::comparison& c) {
  std::ostringstream os;
  os << c;
  return os.str();
}

const auto sine = [](const auto& x) { return cunp::sin(x); };
// A dozen transcendental functions per element: the cpu's time outweighs moving the data.
const auto heavy = [](const auto& x) {
  const auto y = cunp::sin(cunp::exp(cunp::cos(x)));
  const auto z = cunp::log1p(cunp::abs(cunp::tan(y)));
  return cunp::eval(cunp::sinh(z) * cunp::arctan(z + y) + cunp::cbrt(y * z) - cunp::cosh(y) +
                    cunp::expm1(cunp::sin(z)) * cunp::tanh(cunp::cos(z)));
};
}  // namespace

TEST_CASE("benchmark calls fn n_warmup + n_repeat times and times each repeat", "[profiler]") {
  int calls = 0;
  auto o = opts(3, 5, "count");
  o.gpu = cpu;
  const auto r = cunp::profiler::benchmark([&] { ++calls; }, o);
  CHECK(calls == 8);
  CHECK(r.name == "count");
  REQUIRE(r.cpu_times.size() == 5);
  CHECK(r.gpu_times.empty());
  CHECK_FALSE(r.gpu.has_value());
  for (const double t : r.cpu_times) CHECK(t >= 0);

  // max_duration stops after the first repeat that passes it (CuPy's rule).
  calls = 0;
  o.max_duration = 0;
  CHECK(cunp::profiler::benchmark([&] { ++calls; }, o).cpu_times.size() == 1);
  CHECK(calls == 4);

  on_every_backend([](cunp::device dev) {
    const auto a = cunp::linspace<float>(0, 1, 1000, true, dev);
    auto b = opts(1, 4, "sin");
    b.gpu = dev;
    const auto t = cunp::profiler::benchmark([&] { return cunp::sin(a) * 2; }, b);  // evaluated
    CHECK(t.cpu_times.size() == 4);
    CHECK(t.gpu_times.size() == (dev.is_cuda() ? 4u : 0u));
    for (const double g : t.gpu_times) CHECK(g > 0);
  });
}

TEST_CASE("benchmark prints as cupyx.profiler's _PerfCaseResult", "[profiler]") {
  const cunp::profiler::benchmark_result r{"add", {1e-6, 2e-6, 3e-6}, {}, std::nullopt};
  CHECK(r.to_string() ==
        "add                 :    CPU:     2.000 us   +/-  0.816 (min:     1.000 / max:     3.000) "
        "us");
  const cunp::profiler::benchmark_result one{"f", {10e-6}, {20.5e-6}, cunp::cuda(0)};
  CHECK(one.to_string() == "f                   :    CPU:    10.000 us     GPU-0:    20.500 us");
  const cunp::profiler::benchmark_result longer{
      "a_name_longer_than_twenty", {1.5e-3, 2.5e-3}, {}, std::nullopt};
  std::ostringstream os;
  os << longer;
  CHECK(os.str() ==
        "a_name_longer_than_twenty:    CPU:  2000.000 us   +/- 500.000 (min:  1500.000 / "
        "max:  2500.000) us");
}

TEST_CASE("benchmark refuses bad settings", "[profiler]") {
  const auto f = [] {};
  REQUIRE_THROWS_WITH(cunp::profiler::benchmark(f, opts(10, 0)),
                      "profiler::benchmark: n_repeat must be positive, got 0");
  REQUIRE_THROWS_AS(cunp::profiler::benchmark(f, opts(10, -3)), cunp::value_error);
  REQUIRE_THROWS_WITH(cunp::profiler::benchmark(f, opts(-1, 5)),
                      "profiler::benchmark: n_warmup must be zero or more, got -1");
  auto o = opts(0, 1);
  o.max_duration = std::nan("");
  REQUIRE_THROWS_AS(cunp::profiler::benchmark(f, o), cunp::value_error);
  if (!cunp::cuda_available()) {
    o = opts(0, 1);
    o.gpu = cunp::cuda(0);
    REQUIRE_THROWS_AS(cunp::profiler::benchmark(f, o), cunp::device_error);
  }
}

TEST_CASE("compare: a tiny computation keeps the CPU; without a GPU only the CPU runs",
          "[compare]") {
  const auto x = cunp::linspace<float>(0.1, 3, 10, true, cpu);
  const cunp::comparison c = cunp::compare(sine, x);
  CHECK(c.dtype == cunp::dtype::float32);
  CHECK(c.shape == shape_t{10});
  CHECK(c.cpu_time > 0);
  CHECK(c.n_repeat_cpu == 10);
  if (!has_gpu()) {
    CHECK(c.verdict == "no GPU");
    CHECK_FALSE(c.gpu.has_value());
    CHECK_FALSE(c.gpu_time.has_value());
    CHECK_FALSE(c.speedup.has_value());
    CHECK_FALSE(c.agree.has_value());
    const std::string s = printed(c);
    CHECK(s.find("no GPU, only the cpu side ran") != std::string::npos);
    CHECK(s.find("verdict       no GPU") != std::string::npos);
    return;
  }
  INFO(printed(c));
  REQUIRE(c.agree.has_value());
  CHECK(*c.agree);
  CHECK(*c.max_rel_error < 1e-5);
  CHECK(c.rtol == 1e-5);
  CHECK(c.verdict == "keep CPU");
  CHECK(*c.speedup < 1);
  CHECK(printed(c).find("verdict       keep CPU") != std::string::npos);
}

TEST_CASE("compare: a large computation keeps the GPU", "[compare]") {
  // 2^22 elements of a dozen functions each: the cpu's work outweighs the transfers (sin alone
  // does not: on the H200 machine, 1.8 ms of cpu against 7.6 ms of pageable transfers).
  const cunp::index_t n = has_gpu() ? cunp::index_t(1) << 22 : cunp::index_t(1) << 12;
  const auto x = cunp::linspace<float>(-2, 2, n, true, cpu);
  cunp::compare_options o;
  o.n_warmup = 1;
  o.n_repeat = 3;
  o.name = "heavy";
  const auto c = cunp::compare(heavy, o, x);
  INFO(printed(c));
  CHECK(c.name == "heavy");
  CHECK(c.n_repeat_cpu == 3);
  if (!has_gpu()) {
    CHECK(c.verdict == "no GPU");
    return;
  }
  CHECK(*c.agree);
  CHECK(c.atol > 0);  // 1e-6 of the largest |result|
  CHECK(*c.speedup > 1);
  CHECK(c.verdict == "keep GPU");
  CHECK(*c.h2d_time > 0);
  CHECK(*c.d2h_time > 0);
  o.end_to_end = false;
  const auto k = cunp::compare(heavy, o, x);
  CHECK(*k.speedup == Approx(k.cpu_time / *k.gpu_time));
  CHECK(printed(k).find("no transfers") != std::string::npos);
}

TEST_CASE("compare takes several inputs of any dtype; integers must agree exactly", "[compare]") {
  const auto a = cunp::arange<std::int32_t>(0, 100, 1, cpu);
  const auto b = cunp::full<std::int32_t>({100}, 3, cpu);
  const auto c = cunp::compare([](const auto& x, const auto& y) { return x * y + 1; }, a, b);
  CHECK(c.dtype == cunp::dtype::int32);
  if (has_gpu()) {
    CHECK(*c.agree);
    CHECK(c.rtol == 0);
    CHECK(c.atol == 0);
    CHECK(*c.max_abs_error == 0);
  }
}

TEST_CASE("compare reports results that differ, in value or in shape", "[compare]") {
  // The agreement check on its own, with arrays on the cpu (as compare() sees the two results).
  cunp::comparison c;
  const cunp::compare_options defaults;
  const auto ref = cunp::asarray<float>({1.0f, 2.0f, 0.0f, NAN}, {4}, cpu);
  cunp::detail::check_agreement<cunp::detail::compiled_backend>(
      c, ref, cunp::eval(ref * (1 + 2e-6f)), defaults);
  CHECK(*c.agree);
  CHECK(c.rtol == 1e-5);
  CHECK(c.atol == Approx(2e-6));  // 1e-6 of the largest finite |value|
  CHECK(*c.max_rel_error == Approx(2e-6).epsilon(0.1));
  cunp::detail::check_agreement<cunp::detail::compiled_backend>(c, ref, cunp::eval(ref * 1.001f),
                                                                defaults);
  CHECK_FALSE(*c.agree);
  CHECK(*c.max_abs_error == Approx(0.002).epsilon(0.01));
  cunp::compare_options loose;
  loose.rtol = 1e-2;
  cunp::detail::check_agreement<cunp::detail::compiled_backend>(c, ref, cunp::eval(ref * 1.001f),
                                                                loose);
  CHECK(*c.agree);
  const auto i = cunp::asarray<std::int64_t>({1, 2}, {2}, cpu);
  cunp::detail::check_agreement<cunp::detail::compiled_backend>(c, i, cunp::eval(i + 1), defaults);
  CHECK_FALSE(*c.agree);
  REQUIRE_THROWS_WITH(cunp::detail::check_agreement<cunp::detail::compiled_backend>(
                          c, ref, ref.reshape({2, 2}), defaults),
                      "compare: the cpu result has shape (4,) and the GPU result has shape (2, 2)");

  if (!has_gpu()) return;
  const auto x = cunp::linspace<double>(0, 1, 100, true, cpu);
  const auto noisy = [](const auto& v) {
    return cunp::eval(v.device().is_cpu() ? v * 1.0 : v * 1.001);
  };
  CHECK(cunp::compare(noisy, x).verdict == "results differ");
  const auto reshaped = [](const auto& v) {
    return v.device().is_cpu() ? v.copy() : v.reshape({10, 10}).copy();
  };
  REQUIRE_THROWS_WITH(cunp::compare(reshaped, x),
                      "compare: the cpu result has shape (100,) and the cuda:0 result has shape "
                      "(10, 10)");
}

TEST_CASE("compare refuses bad settings and the cpu as its GPU", "[compare]") {
  const auto x = cunp::zeros<float>({4}, cpu);
  cunp::compare_options o;
  o.n_repeat = 0;
  REQUIRE_THROWS_WITH(cunp::compare(sine, o, x), "compare: n_repeat must be positive, got 0");
  o.n_repeat = 1;
  o.n_warmup = -2;
  REQUIRE_THROWS_WITH(cunp::compare(sine, o, x), "compare: n_warmup must be zero or more, got -2");
  o.n_warmup = 0;
  o.gpu = cpu;
  REQUIRE_THROWS_WITH(cunp::compare(sine, o, x),
                      "compare: options.gpu is the cpu; give a GPU, cuda(i), or leave it unset");
  if (!cunp::cuda_available()) {
    o.gpu = cunp::cuda(0);
    REQUIRE_THROWS_AS(cunp::compare(sine, o, x), cunp::device_error);
  }
}
