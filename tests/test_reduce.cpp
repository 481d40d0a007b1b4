// Reductions against NumPy: every function on every dtype, axis form and input layout (views,
// broadcast, empty, size-1, NaN/inf), integer wrap, float16 accumulation, expression inputs,
// average's weights, the error paths; then every GPU kernel path against the cpu backend.
#include <optional>
#include <set>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

/// The axis forms of cases_reduce.py's VARIANTS, in its order.
struct variant {
  std::string name;
  cunp::axis_arg axis;
  std::optional<index_t> single;  // argmax's form of the axis
  bool keepdims;
  bool arg;  // argmax takes this form (one axis or none)
};
const std::vector<variant>& variants() {
  static const std::vector<variant> v = {
      {"none", {}, {}, false, true},
      {"a0", 0, 0, false, true},
      {"a1", 1, 1, false, true},
      {"am1", -1, -1, false, true},
      {"a02", {0, 2}, {}, false, false},
      {"noax", std::vector<index_t>{}, {}, false, false},  // NumPy's axis=(): nothing reduced
      {"a1k", 1, 1, true, true},
      {"nonek", {}, {}, true, true},
  };
  return v;
}

// Rounding units allowed against NumPy. Floating inputs are multiples of 1/8, so sums and means
// round once in both. Products round at every step, in another order than NumPy's; float16
// variances are computed in float16 by NumPy (cunp: float32, rounded once); var is Welford here,
// two passes in NumPy.
constexpr double sum_ulps = 2, prod_ulps = 32, var_ulps = 32;

template <class T> void sweep(archive& g, const std::string& set, const ndarray<T>& x) {
  for (const auto& v : variants()) {
    const auto key = [&](const std::string& f) { return set + "__" + f + "__" + v.name; };
    const cunp::axis_arg& ax = v.axis;
    const bool kd = v.keepdims;
#define CUNP_CHECK(F, ULPS) g.check(key(#F), [&] { return cunp::F(x, ax, kd); }, ULPS)
    CUNP_CHECK(sum, sum_ulps);
    CUNP_CHECK(prod, prod_ulps);
    CUNP_CHECK(nansum, sum_ulps);
    CUNP_CHECK(nanprod, prod_ulps);
    CUNP_CHECK(mean, sum_ulps);
    CUNP_CHECK(nanmean, sum_ulps);
    CUNP_CHECK(max, 0);
    CUNP_CHECK(min, 0);
    CUNP_CHECK(amax, 0);
    CUNP_CHECK(amin, 0);
    CUNP_CHECK(nanmax, 0);
    CUNP_CHECK(nanmin, 0);
    CUNP_CHECK(any, 0);
    CUNP_CHECK(all, 0);  // cunp::all, the `:` index object, called
    CUNP_CHECK(count_nonzero, 0);
    if constexpr (!std::is_same_v<T, bool>) CUNP_CHECK(ptp, sum_ulps);
    CUNP_CHECK(average, sum_ulps);
#undef CUNP_CHECK
    if (v.arg) {
      g.check(key("argmax"), [&] { return cunp::argmax(x, v.single, kd); }, 0);
      g.check(key("argmin"), [&] { return cunp::argmin(x, v.single, kd); }, 0);
      g.check(key("nanargmax"), [&] { return cunp::nanargmax(x, v.single, kd); }, 0);
      g.check(key("nanargmin"), [&] { return cunp::nanargmin(x, v.single, kd); }, 0);
    }
    for (const auto& [suffix, ddof] : {std::pair<std::string, double>{"", 0}, {"_ddof1", 1},
                                       {"_ddof3", 3}}) {
      g.check(key("var" + suffix), [&] { return cunp::var(x, ax, ddof, kd); }, var_ulps);
      g.check(key("std" + suffix), [&] { return cunp::std(x, ax, ddof, kd); }, var_ulps);
      g.check(key("nanvar" + suffix), [&] { return cunp::nanvar(x, ax, ddof, kd); }, var_ulps);
      g.check(key("nanstd" + suffix), [&] { return cunp::nanstd(x, ax, ddof, kd); }, var_ulps);
    }
  }
}

}  // namespace

namespace {

/// Every reduction of T's golden sets on every backend: the stored input, its reversed,
/// transposed and broadcast views, size-1, empty and (inexact dtypes) NaN sets.
template <class T> void sweep_dtype() {
  on_every_backend([](cunp::device dev) {
    const std::string prefix = "reduce_" + std::string(cunp::dtype_name_v<T>) + "_";
    const auto check_set = [&](const std::string& set, const auto& make) {
      archive g(prefix + set);
      sweep(g, set, make(g));
      g.require_all_used();
    };
    const auto stored = [&](const std::string& set) {
      check_set(set, [&](archive& g) { return g.get<T>(set).to(dev); });
    };
    stored("x");
    const auto x = archive(prefix + "x").get<T>("x").to(dev);
    check_set("rev", [&](archive&) {
      return cunp::view(x, slice(none, none, -1), cunp::all, slice(none, none, -2));
    });
    check_set("tr", [&](archive&) { return cunp::transpose(x, {2, 0, 1}); });
    check_set("bc", [&](archive&) {
      return cunp::broadcast_to(cunp::view(x, cunp::all, slice(1, 2), cunp::all), {3, 4, 5});
    });
    stored("one");
    stored("empty");
    if constexpr (!std::is_integral_v<T>) stored("nan");  // NaN and infinities: inexact dtypes
  });
}

}  // namespace

// The sweep is this file's heaviest code (every reduction, for each dtype, on both backends), so
// its dtypes are spread over the parts (harness/parts.hpp); the GPU cases are part 4.
#if CUNP_IN_PART(0)
TEMPLATE_TEST_CASE("every reduction matches NumPy on every dtype, axis form and layout",
                   "[reduce][golden]", bool, std::int8_t, std::int32_t) {
  sweep_dtype<TestType>();
}
#endif
#if CUNP_IN_PART(1)
TEMPLATE_TEST_CASE("every reduction matches NumPy on every dtype, axis form and layout",
                   "[reduce][golden]", std::int64_t, std::uint8_t, std::uint64_t) {
  sweep_dtype<TestType>();
}
#endif
#if CUNP_IN_PART(2)
TEMPLATE_TEST_CASE("every reduction matches NumPy on every dtype, axis form and layout",
                   "[reduce][golden]", cunp::float16, cunp::bfloat16, float) {
  sweep_dtype<TestType>();
}
#endif
#if CUNP_IN_PART(3)
TEMPLATE_TEST_CASE("every reduction matches NumPy on every dtype, axis form and layout",
                   "[reduce][golden]", double, cunp::complex64, cunp::complex128) {
  sweep_dtype<TestType>();
}
#endif

#if CUNP_IN_PART(0)
TEST_CASE("result dtypes are NumPy's", "[reduce]") {
  using cunp::float16;
  const auto i8 = cunp::zeros<std::int8_t>({2}, cpu);
  const auto u8 = cunp::zeros<std::uint8_t>({2}, cpu);
  const auto b = cunp::zeros<bool>({2}, cpu);
  const auto h = cunp::zeros<float16>({2}, cpu);
  const auto c = cunp::zeros<cunp::complex64>({2}, cpu);
  static_assert(std::is_same_v<decltype(cunp::sum(i8))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cunp::sum(u8))::value_type, std::uint64_t>);
  static_assert(std::is_same_v<decltype(cunp::sum(b))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cunp::prod(u8))::value_type, std::uint64_t>);
  static_assert(std::is_same_v<decltype(cunp::sum(h))::value_type, float16>);
  static_assert(std::is_same_v<decltype(cunp::mean(i8))::value_type, double>);
  static_assert(std::is_same_v<decltype(cunp::mean(b))::value_type, double>);
  static_assert(std::is_same_v<decltype(cunp::mean(h))::value_type, float16>);
  static_assert(std::is_same_v<decltype(cunp::var(c))::value_type, float>);
  static_assert(std::is_same_v<decltype(cunp::std(u8))::value_type, double>);
  static_assert(std::is_same_v<decltype(cunp::max(i8))::value_type, std::int8_t>);
  static_assert(std::is_same_v<decltype(cunp::ptp(u8))::value_type, std::uint8_t>);
  static_assert(std::is_same_v<decltype(cunp::argmax(c))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cunp::count_nonzero(h))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cunp::any(c))::value_type, bool>);
  static_assert(std::is_same_v<decltype(cunp::all(c))::value_type, bool>);
  static_assert(std::is_same_v<decltype(cunp::average(i8))::value_type, double>);
  static_assert(std::is_same_v<decltype(cunp::average(i8, 0, u8))::value_type, double>);
  static_assert(std::is_same_v<decltype(cunp::average(h, 0, h))::value_type, float16>);
  static_assert(std::is_same_v<decltype(cunp::sum(i8 > 0))::value_type, std::int64_t>);
  REQUIRE(cunp::sum(i8).ndim() == 0);  // a full reduction is 0-d
}
#endif

#if CUNP_IN_PART(0)
TEST_CASE("float16 sums accumulate in float32, pairwise, as NumPy's", "[reduce][golden]") {
  archive g("reduce_special");
  on_every_backend([&](cunp::device dev) {
    const auto h = g.get<cunp::float16>("f16").to(dev);
    const double ulp = 0x1p-10;  // the float32 sums round to the same float16 or a neighbour
    require_near<cunp::float16>(cunp::sum(h), g.get<cunp::float16>("f16_sum"), ulp);
    require_near<cunp::float16>(cunp::mean(h), g.get<cunp::float16>("f16_mean"), ulp);
    // A float16 running sum of 0.1 stalls at 256, where 0.1 is below half a float16 ulp.
    const auto tenth = cunp::full<cunp::float16>({3000}, cunp::float16(0.1f), dev);
    require_near<cunp::float16>(cunp::sum(tenth), g.get<cunp::float16>("f16_tenth_sum"), 0);
    REQUIRE(float(cunp::sum(tenth).item()) > 299);
  });
}
#endif

#if CUNP_IN_PART(1)
TEST_CASE("pairwise float32 sums, means and variances agree with NumPy's", "[reduce][golden]") {
  archive g("reduce_special");
  on_every_backend([&](cunp::device dev) {
    const auto f = g.get<float>("f32").to(dev);  // 100003 values in [0, 1)
    // Both sum pairwise (NumPy with 8 accumulators per block): a few float32 ulps apart.
    require_near<float>(cunp::sum(f), g.get<float>("f32_sum"), 8 * 0x1p-24);
    require_near<float>(cunp::mean(f), g.get<float>("f32_mean"), 8 * 0x1p-24);
    require_near<float>(cunp::var(f), g.get<float>("f32_var"), 32 * 0x1p-24);
    require_near<float>(cunp::std(f), g.get<float>("f32_std"), 32 * 0x1p-24);
  });
}
#endif

#if CUNP_IN_PART(1)
TEST_CASE("integer sums and products wrap as NumPy's", "[reduce][golden]") {
  archive g("reduce_special");
  on_every_backend([&](cunp::device dev) {
    require_equal(cunp::sum(g.get<std::int64_t>("i64").to(dev)).to(cpu),
                  g.get<std::int64_t>("i64_sum"));
    require_equal(cunp::sum(g.get<std::uint64_t>("u64").to(dev)).to(cpu),
                  g.get<std::uint64_t>("u64_sum"));
    const auto i32 = g.get<std::int32_t>("i32").to(dev);
    require_equal(cunp::prod(i32).to(cpu), g.get<std::int64_t>("i32_prod"));
    require_equal(cunp::prod(i32, 1).to(cpu), g.get<std::int64_t>("i32_prod_a1"));
    const std::int64_t p32 = std::int64_t(1) << 32;
    const auto big = cunp::asarray<std::int64_t>({p32, p32 + 1, 3}, {3}, dev);
    require_equal(cunp::prod(big).to(cpu), g.get<std::int64_t>("i64_prod"));
    // bool sums count, in int64
    const auto b = cunp::asarray<bool>({true, false, true, true}, {2, 2}, dev);
    require_values<std::int64_t>(cunp::sum(b), {3}, {});
    require_values<std::int64_t>(cunp::sum(b, 0), {2, 1}, {2});
  });
}
#endif

#if CUNP_IN_PART(2)
TEST_CASE("reductions consume expressions without a temporary", "[reduce][golden]") {
  archive g("reduce_special");
  on_every_backend([&](cunp::device dev) {
    const auto a = g.get<float>("ea").to(dev), b = g.get<float>("eb").to(dev);
    // Products rounded to float32 as NumPy's a * b, summed in another order: within float32
    // rounding of the sum of their magnitudes.
    const double mag = cunp::sum(cunp::abs(a * b)).item();
    require_near<float>(cunp::sum(a * b), g.get<float>("e_sum_mul"), 0, 16 * 0x1p-24 * mag);
    require_equal(cunp::max(a - b, 1).to(cpu), g.get<float>("e_max_sub_a1"));
    const double mag_w = cunp::sum(cunp::abs(cunp::where(a > 0, a, b))).item() / 1200;
    require_near<float>(cunp::mean(cunp::where(a > 0, a, b)), g.get<float>("e_mean_where"), 0,
                        16 * 0x1p-24 * mag_w);
    require_equal(cunp::argmax(a * b, 0).to(cpu), g.get<std::int64_t>("e_argmax_mul_a0"));
    require_near<float>(cunp::var(a + b, 1), g.get<float>("e_var_add_a1"), 32 * 0x1p-24);
    require_equal(cunp::count_nonzero(a > b, 0).to(cpu), g.get<std::int64_t>("e_count_gt"));
    require_near<float>(cunp::var(a, 1, 0.5), g.get<float>("ddof_half_var_a1"), 32 * 0x1p-24);
    require_near<float>(cunp::std(a, {}, 0.5), g.get<float>("ddof_half_std"), 32 * 0x1p-24);
  });
}
#endif

#if CUNP_IN_PART(2)
TEST_CASE("average with weights matches NumPy 2", "[reduce][golden]") {
  archive g("reduce_special");
  on_every_backend([&](cunp::device dev) {
    const auto x = g.get<double>("ax").to(dev), w = g.get<double>("aw").to(dev);
    const auto w1 = g.get<double>("aw1").to(dev), w2 = g.get<double>("aw2").to(dev);
    const auto w02 = g.get<double>("aw02").to(dev);
    const double r = 4 * 0x1p-53;
    require_near<double>(cunp::average(x, {}, w), g.get<double>("avg_w"), r);
    require_near<double>(cunp::average(x, 1, w), g.get<double>("avg_w_a1"), r);
    require_near<double>(cunp::average(x, 1, w1), g.get<double>("avg_w1_a1"), r);
    require_near<double>(cunp::average(x, -1, w2), g.get<double>("avg_w2_am1"), r);
    require_near<double>(cunp::average(x, -1, w2, true), g.get<double>("avg_w2_am1_k"), r);
    require_near<double>(cunp::average(x, {0, 2}, w02), g.get<double>("avg_w02_a02"), r);
    require_near<double>(cunp::average(x, {2, 0}, cunp::transpose(w02)),
                         g.get<double>("avg_w20_a20"), r);
    const auto xi = g.get<std::int32_t>("axi").to(dev), wi = g.get<std::int32_t>("awi").to(dev);
    require_near<double>(cunp::average(xi, 1, wi), g.get<double>("avg_int_a1"), r);
    require_near<double>(cunp::average(x.astype<float>(), 1, w1), g.get<double>("avg_f32_f64w_a1"),
                         r);
    require_near<cunp::float16>(cunp::average(x.astype<cunp::float16>(), 1,
                                              w1.astype<cunp::float16>()),
                                g.get<cunp::float16>("avg_f16_a1"), 2 * 0x1p-10);
    const auto xc = cunp::eval(cunp::astype<cunp::complex64>(x) +
                               cunp::astype<cunp::complex64>(cunp::view(x, slice(none, none, -1))) *
                                   cunp::complex64(0, 1));
    require_near<cunp::complex64>(cunp::average(xc, 1, w1.astype<float>()),
                                  g.get<cunp::complex64>("avg_c64_a1"), 4 * 0x1p-24);
    // Errors, with NumPy's texts (its TypeError and ZeroDivisionError map to cunp's types).
    REQUIRE_THROWS_WITH(cunp::average(x, {}, w1),
                        "Axis must be specified when shapes of a and weights differ.");
    REQUIRE_THROWS_AS(cunp::average(x, {}, w1), cunp::shape_error);
    const std::string consistent =
        "Shape of weights must be consistent with shape of a along specified axis.";
    REQUIRE_THROWS_WITH(cunp::average(x, 0, w1), consistent);
    REQUIRE_THROWS_WITH(cunp::average(x, 1, w1.reshape({4, 1})), consistent);
    REQUIRE_THROWS_WITH(cunp::average(x, {0, 2}, cunp::transpose(w02)), consistent);
    REQUIRE_THROWS_WITH(cunp::average(x, 3, w),
                        "axis: axis 3 is out of bounds for array of dimension 3");
    REQUIRE_THROWS_WITH(cunp::average(x, {0, 0}, w02), "repeated axis in `axis` argument");
    REQUIRE_THROWS_WITH(cunp::average(x, 1, w1 * 0.0), "Weights sum to zero, can't be normalized");
    REQUIRE_THROWS_AS(cunp::average(x, 1, w1 * 0.0), cunp::value_error);
  });
}
#endif

#if CUNP_IN_PART(3)
TEST_CASE("NaN, infinities, ties and empty reductions follow NumPy", "[reduce]") {
  on_every_backend([](cunp::device dev) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const auto a = cunp::asarray<double>({1, nan, 3, nan, 2}, {5}, dev);
    REQUIRE(std::isnan(cunp::max(a).item()));
    REQUIRE(cunp::argmax(a).item() == 1);  // the first NaN
    REQUIRE(cunp::argmin(a).item() == 1);
    REQUIRE(cunp::nanmax(a).item() == 3);
    REQUIRE(cunp::nanargmin(a).item() == 0);
    const auto ties = cunp::asarray<int>({3, 1, 3, 3, 1}, {5}, dev);
    REQUIRE(cunp::argmax(ties).item() == 0);
    REQUIRE(cunp::argmin(ties).item() == 1);
    // NumPy subtracts the mean: any infinity makes the variance NaN.
    REQUIRE(std::isnan(cunp::var(cunp::asarray<double>({1, inf}, {2}, dev)).item()));
    REQUIRE(std::isnan(cunp::nanstd(cunp::asarray<double>({0, -3, inf, nan}, {4}, dev)).item()));
    // A NaN in an imaginary part makes a complex NaN.
    const auto c = cunp::asarray<cunp::complex128>({{1, 2}, {3, nan}, {5, 0}}, {3}, dev);
    REQUIRE(std::isnan(cunp::max(c).item().imag()));
    REQUIRE(cunp::argmax(c).item() == 1);
    REQUIRE(cunp::nanmax(c).item() == cunp::complex128(5, 0));
    REQUIRE(cunp::nanargmax(c).item() == 2);
    // All-NaN slices.
    const auto all_nan = cunp::full<float>({2, 3}, std::numeric_limits<float>::quiet_NaN(), dev);
    REQUIRE(std::isnan(cunp::nanmax(all_nan).item()));
    REQUIRE(std::isnan(cunp::nanmean(all_nan).item()));
    REQUIRE(cunp::nansum(all_nan).item() == 0);
    REQUIRE(cunp::nanprod(all_nan).item() == 1);
    REQUIRE_THROWS_WITH(cunp::nanargmax(all_nan, 1), "All-NaN slice encountered");
    REQUIRE_THROWS_AS(cunp::nanargmin(all_nan), cunp::value_error);
    // Empty: identities, NaN, or NumPy's errors.
    const auto e = cunp::zeros<float>({0}, dev);
    REQUIRE(cunp::sum(e).item() == 0);
    REQUIRE(cunp::prod(e).item() == 1);
    REQUIRE(std::isnan(cunp::mean(e).item()));
    REQUIRE(std::isnan(cunp::var(e).item()));
    REQUIRE(!cunp::any(e).item());
    REQUIRE(cunp::all(e).item());
    const std::string no_identity = "zero-size array to reduction operation ";
    REQUIRE_THROWS_WITH(cunp::max(e), no_identity + "maximum which has no identity");
    REQUIRE_THROWS_WITH(cunp::nanmin(e), no_identity + "fmin which has no identity");
    REQUIRE_THROWS_WITH(cunp::ptp(e), no_identity + "maximum which has no identity");
    REQUIRE_THROWS_WITH(cunp::argmax(e), "attempt to get argmax of an empty sequence");
    REQUIRE_THROWS_AS(cunp::argmin(e), cunp::value_error);
    // An empty axis with a non-empty output, and an empty output of an empty axis (NumPy raises).
    const auto e2 = cunp::zeros<double>({0, 3}, dev);
    require_values<double>(cunp::sum(e2, 0), {0, 0, 0}, {3});
    REQUIRE(cunp::max(e2, 1).shape() == shape_t{0});
    REQUIRE_THROWS_AS(cunp::max(e2, 0), cunp::value_error);
    REQUIRE_THROWS_AS(cunp::argmax(cunp::zeros<double>({0, 0}, dev), 0), cunp::value_error);
    // 0-d input: a reduction over no axes.
    const auto s = cunp::full<double>({}, 2.5, dev);
    REQUIRE(cunp::sum(s).item() == 2.5);
    REQUIRE(cunp::argmax(s).item() == 0);
    REQUIRE(cunp::var(s).item() == 0);
  });
}
#endif

#if CUNP_IN_PART(3)
TEST_CASE("axis, ddof and other argument errors", "[reduce]") {
  on_every_backend([](cunp::device dev) {
    const auto x = cunp::ones<float>({2, 3}, dev);
    REQUIRE_THROWS_WITH(cunp::sum(x, 3), "axis 3 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_AS(cunp::sum(x, -3), cunp::shape_error);  // NumPy's AxisError
    REQUIRE_THROWS_WITH(cunp::argmax(x, 2), "axis 2 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_WITH(cunp::var(x, {0, 5}), "axis 5 is out of bounds for array of dimension 2");
    REQUIRE_THROWS_WITH(cunp::sum(x, {0, -2}), "duplicate value in 'axis'");
    REQUIRE_THROWS_AS(cunp::max(x, {1, 1}), cunp::value_error);
    REQUIRE_THROWS_AS(cunp::var(x, {}, -1), cunp::value_error);  // NumPy accepts a negative ddof
    REQUIRE_THROWS_WITH(cunp::std(x, 0, -0.5), "ddof must be non-negative, got -0.500000");
    // cunp::all is both the `:` index and numpy.all.
    const auto b = cunp::asarray<bool>({true, false, true, true, true, true}, {2, 3}, dev);
    require_values<bool>(cunp::all(b, 0), {true, false, true}, {3});
    require_values<bool>(cunp::all(b, 1, true), {false, true}, {2, 1});
    require_values<bool>(cunp::all_of(b, {0, 1}), {false}, {});
    REQUIRE(!cunp::all(cunp::view(b, cunp::all, 1)).item());
  });
}
#endif

// ---------------------------------------------------------------------------------------------
// GPU paths against the cpu backend, at sizes that reach each of them: rows (a block per output,
// split over blockIdx.y when outputs are few), columns (a thread per output, the range split),
// short rows, several reduced dimensions, strided and expression inputs.

namespace {

/// Deterministic values in [lo, hi) (splitmix64), as T, on `dev`.
template <class T>
ndarray<T> uniform(const shape_t& shape, double lo, double hi, std::uint64_t seed,
                   cunp::device dev) {
  std::vector<double> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  std::uint64_t s = seed;
  for (auto& x : v) {
    const std::uint64_t z = splitmix64(s);
    x = lo + (hi - lo) * (static_cast<double>(z >> 11) * 0x1.0p-53);
    if constexpr (cunp::detail::is_integer_v<T>) x = std::floor(x);
  }
  return cunp::asarray(v, shape, cpu).template astype<T>().to(dev);
}

// float32 results on the GPU sum in another tree than the cpu's pairwise one: each is within
// (log2 n + a thread's sequential run) float32 roundings of the exact sum of these positive
// values; Welford's merges likewise for var.
constexpr double f32_sum_rtol = 4e-6, f32_var_rtol = 2e-5;

using backend = cunp::device;
template <class F> auto same(F&& make, double rtol = -1, double atol = 0) {
  return same_on_every_backend(std::forward<F>(make), rtol, atol);
}

}  // namespace

#if CUNP_IN_PART(4)
TEST_CASE("GPU full reductions of 2^20 elements agree with the cpu", "[reduce][gpu]") {
  const index_t n = (index_t(1) << 20) + 3;
  auto f = [n](cunp::device dev) { return uniform<float>({n}, 0, 1, 1, dev); };
  same([&](backend dev) { return cunp::sum(f(dev)); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::mean(f(dev)); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::var(f(dev)); }, f32_var_rtol);
  same([&](backend dev) { return cunp::std(f(dev), {}, 1); }, f32_var_rtol);
  same([&](backend dev) { return cunp::max(f(dev)); });
  same([&](backend dev) { return cunp::min(f(dev)); });
  same([&](backend dev) { return cunp::ptp(f(dev)); });
  same([&](backend dev) { return cunp::argmax(f(dev)); });
  same([&](backend dev) { return cunp::argmin(f(dev)); });
  same([&](backend dev) { return cunp::count_nonzero(f(dev) > 0.5f); });
  same([&](backend dev) { return cunp::any(f(dev) > 0.999999f); });
  same([&](backend dev) { return cunp::all(f(dev) > 1e-7f); });
  // NaNs: first by index for argmax, skipped by the nan- functions.
  auto with_nan = [&](cunp::device dev) {
    auto x = f(dev);
    const float q = std::numeric_limits<float>::quiet_NaN();
    cunp::copyto(cunp::view(x, slice(700001, 700002)), cunp::full<float>({1}, q, dev));
    cunp::copyto(cunp::view(x, slice(12345, 12346)), cunp::full<float>({1}, q, dev));
    return x;
  };
  REQUIRE(same([&](backend dev) { return cunp::argmax(with_nan(dev)); })
              .item() == 12345);
  same([&](backend dev) { return cunp::nansum(with_nan(dev)); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::nanargmax(with_nan(dev)); });
  same([&](backend dev) { return cunp::nanvar(with_nan(dev)); }, f32_var_rtol);
  // Ties across split chunks: the first index wins.
  REQUIRE(same([&](backend dev) {
            auto x = cunp::zeros<float>({n}, dev);
            cunp::copyto(cunp::view(x, slice(900000, 900001)), cunp::ones<float>({1}, dev));
            cunp::copyto(cunp::view(x, slice(400000, 400001)), cunp::ones<float>({1}, dev));
            return cunp::argmax(x);
          }).item() == 400000);
  REQUIRE(same([&](backend dev) {
            return cunp::argmin(cunp::zeros<std::int32_t>({n}, dev));
          }).item() == 0);
  // Ties and NaNs inside the GPU's batches (16 elements a thread): eight distinct values, every
  // vector width; NaNs leading a run of ties for the nan- functions.
  auto few = [&](cunp::device dev) { return uniform<std::int32_t>({n}, 0, 8, 13, dev); };
  same([&](backend dev) { return cunp::argmax(few(dev)); });
  same([&](backend dev) { return cunp::argmin(cunp::astype<float>(few(dev))); });
  same([&](backend dev) { return cunp::argmax(cunp::astype<double>(few(dev))); });
  same([&](backend dev) { return cunp::argmin(cunp::astype<cunp::float16>(few(dev))); });
  auto leading_nan = [&](cunp::device dev) {
    auto x = few(dev).astype<float>();
    cunp::copyto(cunp::view(x, slice(0, 100003)),
                 cunp::full<float>({100003}, std::numeric_limits<float>::quiet_NaN(), dev));
    return x;
  };
  REQUIRE(same([&](backend dev) { return cunp::argmax(leading_nan(dev)); }).item() == 0);
  REQUIRE(same([&](backend dev) { return cunp::nanargmax(leading_nan(dev)); }).item() >= 100003);
  same([&](backend dev) { return cunp::nanargmin(leading_nan(dev)); });
  // Other dtypes: exact integer sums, float64, float16 and bfloat16 through float32, complex.
  same([&](backend dev) {
    return cunp::sum(uniform<std::int64_t>({n}, -1e15, 1e15, 2, dev));
  });
  same([&](backend dev) { return cunp::sum(uniform<std::int8_t>({n}, -128, 128, 3, dev)); });
  same([&](backend dev) { return cunp::sum(uniform<double>({n}, 0, 1, 4, dev)); });
  same([&](backend dev) {  // ~5000: finite in float16
    return cunp::sum(uniform<cunp::float16>({n}, 0, 0.01, 5, dev));
  });
  same([&](backend dev) { return cunp::mean(uniform<cunp::bfloat16>({n}, 0, 1, 6, dev)); });
  same([&](backend dev) {
    const auto re = uniform<float>({n}, 0, 1, 7, dev), im = uniform<float>({n}, 0, 1, 8, dev);
    return cunp::sum(cunp::astype<cunp::complex64>(re) + cunp::astype<cunp::complex64>(im) *
                                                            cunp::complex64(0, 1));
  }, f32_sum_rtol);
  same([&](backend dev) { return cunp::sum(f(dev) > 0.25f); });
  // Expressions: one pass over both operands.
  same([&](backend dev) {
    return cunp::sum(f(dev) * uniform<float>({n}, 0, 1, 9, dev));
  }, f32_sum_rtol);
}
#endif

#if CUNP_IN_PART(4)
TEST_CASE("GPU axis reductions agree with the cpu on every kernel path", "[reduce][gpu]") {
  // Rows: sum over axis 1 of (300, 5000), one block per row.
  auto rows = [](cunp::device dev) { return uniform<float>({300, 5000}, 0, 1, 11, dev); };
  same([&](backend dev) { return cunp::sum(rows(dev), 1); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::mean(rows(dev), -1, true); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::var(rows(dev), 1); }, f32_var_rtol);
  same([&](backend dev) { return cunp::max(rows(dev), 1); });
  same([&](backend dev) { return cunp::argmax(rows(dev), 1); });
  // The same rows read through a transpose: a column walk over strided elements.
  same([&](backend dev) { return cunp::sum(rows(dev).T(), 0); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::argmin(rows(dev).T(), 0); });
  // Columns with the reduced range split: sum over axis 0 of (5000, 300).
  auto cols = [](cunp::device dev) { return uniform<float>({5000, 300}, 0, 1, 12, dev); };
  same([&](backend dev) { return cunp::sum(cols(dev), 0); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::var(cols(dev), 0, 1); }, f32_var_rtol);
  same([&](backend dev) { return cunp::min(cols(dev), 0); });
  same([&](backend dev) { return cunp::argmin(cols(dev), 0); });
  same([&](backend dev) { return cunp::nanmax(cols(dev), 0, true); });
  same([&](backend dev) {
    return cunp::sum(uniform<double>({5000, 300}, -1, 1, 13, dev), 0);
  }, 1e-13, 2e-11);  // signed values cancel: each tree is within ~30 eps * sum(|x|) = 8e-12
  // Reversed rows: a negative stride along the reduced axis.
  same([&](backend dev) {
    return cunp::sum(cunp::view(cols(dev), slice(none, none, -1), slice(none, none, -1)), 0);
  }, f32_sum_rtol);
  // Few outputs, long columns: axis 0 of (3, 100000); many outputs, short rows: axis 1 of
  // (100000, 3).
  auto wide = [](cunp::device dev) { return uniform<float>({3, 100000}, 0, 1, 14, dev); };
  auto tall = [](cunp::device dev) { return uniform<float>({100000, 3}, 0, 1, 15, dev); };
  same([&](backend dev) { return cunp::sum(wide(dev), 0); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::argmax(wide(dev), 0); });
  same([&](backend dev) { return cunp::sum(wide(dev), 1); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::argmax(wide(dev), 1); });
  same([&](backend dev) { return cunp::sum(tall(dev), 1); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::argmin(tall(dev), 1); });
  same([&](backend dev) { return cunp::var(tall(dev), 1); }, f32_var_rtol);
  same([&](backend dev) { return cunp::sum(tall(dev), 0); }, f32_sum_rtol);
  // Columns V at a time (16-byte loads of V neighbouring outputs): indices, Welford, float64
  // (V = 2), uint8 (V = 16), and a column count that is no multiple of V (the scalar kernel).
  same([&](backend dev) { return cunp::argmax(cols(dev), 0); });
  same([&](backend dev) { return cunp::var(cols(dev), 0); }, f32_var_rtol);
  same([&](backend dev) { return cunp::sum(uniform<double>({777, 130}, 0, 1, 23, dev), 0); });
  same([&](backend dev) {
    return cunp::sum(uniform<std::uint8_t>({3000, 64}, 0, 256, 24, dev), 0);
  });
  same([&](backend dev) { return cunp::max(uniform<float>({3001, 301}, 0, 1, 25, dev), 0); });
  // Several reduced dimensions that do not merge: axes {0, 2} of (64, 50, 70); axis 1 alone.
  auto cube = [](cunp::device dev) { return uniform<float>({64, 50, 70}, 0, 1, 16, dev); };
  same([&](backend dev) { return cunp::sum(cube(dev), {0, 2}); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::var(cube(dev), {0, 2}, 0, true); }, f32_var_rtol);
  same([&](backend dev) { return cunp::max(cube(dev), {2, 0}); });
  same([&](backend dev) { return cunp::sum(cube(dev), 1); }, f32_sum_rtol);
  same([&](backend dev) { return cunp::argmax(cube(dev), 1); });
  same([&](backend dev) { return cunp::count_nonzero(cube(dev) > 0.5f, {0, 1}); });
  // Broadcast input (stride 0) and an expression over two layouts.
  same([&](backend dev) {
    return cunp::sum(cunp::broadcast_to(uniform<float>({1, 5000}, 0, 1, 17, dev), {300, 5000}), 0);
  }, f32_sum_rtol);
  same([&](backend dev) {
    return cunp::max(rows(dev) - uniform<float>({300, 1}, 0, 1, 18, dev), 1);
  });
  same([&](backend dev) {
    return cunp::sum(rows(dev) * cols(dev).T(), 1);
  }, f32_sum_rtol);
  // Integers, exactly, on both layouts.
  same([&](backend dev) {
    return cunp::sum(uniform<std::int32_t>({5000, 300}, -1e9, 1e9, 19, dev), 0);
  });
  same([&](backend dev) {
    return cunp::prod(uniform<std::uint8_t>({300, 5000}, 1, 4, 20, dev) | 1, 1);  // odd: != 0
  });
  same([&](backend dev) {
    return cunp::average(rows(dev), 1, uniform<float>({5000}, 0, 1, 21, dev));
  }, f32_sum_rtol * 2);
}
#endif

#if defined(_OPENMP) && CUNP_IN_PART(4)
#include <omp.h>
TEST_CASE("cpu: a whole-array reduction split over any number of threads counts every element",
          "[reduce]") {
  // 2^20 + 3 elements over thread counts that do (4, 8) and do not (3, 7) divide it roughly:
  // each thread's chunk must round up, or the last elements go uncounted.
  const index_t n = (index_t(1) << 20) + 3;
  const auto x = uniform<std::int32_t>({n}, 0, 4, 22, cpu);
  std::int64_t sum = 0, nonzero = 0;
  for (const auto v : x.to_vector()) sum += v, nonzero += v != 0;
  const int saved = omp_get_max_threads();
  for (const int threads : {1, 2, 3, 4, 7, 8, 16}) {
    INFO(threads << " threads");
    omp_set_num_threads(threads);
    CHECK(cunp::sum(x).item() == sum);
    CHECK(cunp::count_nonzero(x).item() == nonzero);
  }
  omp_set_num_threads(saved);
}
#endif
