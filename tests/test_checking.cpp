// isclose, allclose, array_equal and numpy.testing's assert_allclose / assert_array_equal,
// against NumPy's results and report texts (golden/cases_checking.py).
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::float16;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

// The helpers below run once per case, several cases a test case, so they loop over the backends
// themselves: on_every_backend's sections would let Catch2 enter only the first call's.
namespace {
template <class T>
ndarray<T> g(const std::string& name) {
  return golden<T>("checking_" + name);
}

/// NumPy's AssertionError text for report case `name`.
[[maybe_unused]] std::string report_text(const std::string& name) {
  std::ifstream in(golden_dir() / ("checking_msg_" + name + ".txt"), std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// isclose with three settings, allclose and array_equal, as NumPy computed them for case c.
template <class X, class Y>
void check_case(const std::string& c) {
  INFO("case " << c << ": " << cunp::dtype_name_v<X> << " with " << cunp::dtype_name_v<Y>);
  const auto a = g<X>(c + "_a");
  const auto b = g<Y>(c + "_b");
  const auto reduced = g<bool>(c + "_reduced").to_vector();
  for (const cunp::device dev : backends()) {
    INFO("on " << dev.str());
    const auto x = a.to(dev);
    const auto y = b.to(dev);
    require_equal<bool>(cunp::eval(cunp::isclose(x, y)), g<bool>(c + "_default"));
    require_equal<bool>(cunp::eval(cunp::isclose(x, y, 1e-3, 1e-6)), g<bool>(c + "_loose"));
    require_equal<bool>(cunp::eval(cunp::isclose(x, y, 1e-5, 1e-8, true)), g<bool>(c + "_nan"));
    CHECK(cunp::allclose(x, y) == reduced[0]);
    CHECK(cunp::allclose(x, y, 1e-5, 1e-8, true) == reduced[1]);
    CHECK(cunp::array_equal(x, y) == reduced[2]);
    CHECK(cunp::array_equal(x, y, true) == reduced[3]);
  }
}

template <class X, class Y>
void check_reduced(const std::string& c) {
  INFO("case " << c);
  const auto reduced = g<bool>(c + "_reduced").to_vector();
  for (const cunp::device dev : backends()) {
    INFO("on " << dev.str());
    const auto x = g<X>(c + "_a").to(dev);
    const auto y = g<Y>(c + "_b").to(dev);
    CHECK(cunp::allclose(x, y) == reduced[0]);
    CHECK(cunp::allclose(x, y, 1e-5, 1e-8, true) == reduced[1]);
    CHECK(cunp::array_equal(x, y) == reduced[2]);
    CHECK(cunp::array_equal(x, y, true) == reduced[3]);
  }
}

/// Runs call(actual, desired) on report case `name`'s arrays and requires NumPy's exact text.
template <class X, class Y, class F>
void check_report(const std::string& name, F&& call) {
  INFO("report " << name);
  const std::string expected = report_text(name);
  const auto a = g<X>("msg_" + name + "_a");
  const auto b = g<Y>("msg_" + name + "_b");
  for (const cunp::device dev : backends()) {
    INFO("on " << dev.str());
    try {
      call(a.to(dev), b.to(dev));
    } catch (const cunp::assertion_error& e) {
      REQUIRE(std::string(e.what()) == expected);
      continue;
    }
    FAIL("no assertion_error");
  }
}
}  // namespace

// isclose over every dtype pair is this file's heaviest code, so it is spread over parts 0 and 1
// (harness/parts.hpp); the other cases are part 2.
#if CUNP_IN_PART(0)
TEST_CASE("isclose matches NumPy for every dtype family", "[checking]") {
  check_case<double, double>("f64");
  check_case<float, float>("f32");
  check_case<float16, float16>("f16");
  check_case<std::int64_t, std::int64_t>("i64");
  check_case<std::uint8_t, std::uint8_t>("u8");
  check_case<std::int8_t, std::int8_t>("i8");
  check_case<c64, c64>("c64");
  check_case<c128, c128>("c128");
  on_every_backend([](cunp::device dev) {
    const auto a = g<bool>("bool_a").to(dev), b = g<bool>("bool_b").to(dev);
    require_equal<bool>(cunp::eval(cunp::isclose(a, b)), g<bool>("bool_default"));
  });
}
#endif

#if CUNP_IN_PART(1)
TEST_CASE("isclose matches NumPy for mixed dtypes", "[checking]") {
  check_case<float, double>("f32_f64");
  check_case<double, float>("f64_f32");
  check_case<float16, float>("f16_f32");
  check_case<std::int32_t, float>("i32_f32");
  check_case<float, std::int32_t>("f32_i32");
  check_case<std::uint64_t, double>("u64_f64");
  check_case<c64, double>("c64_f64");
  check_case<float, c128>("f32_c128");
  check_case<float16, c64>("f16_c64");
}
#endif

#if CUNP_IN_PART(2)

TEST_CASE("allclose and array_equal: NaNs, equal_nan, complex NaNs", "[checking]") {
  check_reduced<double, double>("near");
  check_reduced<float, float>("samenan");
  check_reduced<c128, c128>("cnan");
}

TEST_CASE("isclose broadcasts, takes C++ scalars as Python scalars, views and expressions",
          "[checking]") {
  on_every_backend([](cunp::device dev) {
    const auto col = g<double>("col").to(dev), row = g<double>("row").to(dev);
    const ndarray<bool> outer = cunp::isclose(col, row);
    CHECK(outer.shape() == shape_t{3, 4});
    require_equal<bool>(outer, g<bool>("bcast"));
    require_equal<bool>(
        cunp::eval(cunp::isclose(g<float>("m23").to(dev), g<float>("v3").to(dev), 1e-1)),
        g<bool>("bcast_f32"));

    const auto f32 = g<float>("s_f32").to(dev);
    require_equal<bool>(cunp::eval(cunp::isclose(f32, 1.0)), g<bool>("s_f32_one"));
    require_equal<bool>(cunp::eval(cunp::isclose(1.0, f32)), g<bool>("s_one_f32"));
    const auto i32 = g<std::int32_t>("s_i32").to(dev);
    require_equal<bool>(cunp::eval(cunp::isclose(i32, 2.5, 1e-5, 0.5)), g<bool>("s_i32_half"));
    // 300 is no uint8, but isclose makes y a float first, as NumPy: no overflow error.
    const auto u8 = g<std::uint8_t>("s_u8").to(dev);
    require_equal<bool>(cunp::eval(cunp::isclose(u8, 300, 1e-5, 255)), g<bool>("s_u8_300"));
    require_equal<bool>(cunp::eval(cunp::isclose(300, u8, 1e-5, 255)), g<bool>("s_300_u8"));
    const auto f16 = g<float16>("s_f16").to(dev);
    require_equal<bool>(cunp::eval(cunp::isclose(f16, 3)), g<bool>("s_f16_3"));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    require_equal<bool>(cunp::eval(cunp::isclose(f16, nan, 1e-5, 1e-8, true)),
                        g<bool>("s_f16_3_nan"));
    require_equal<bool>(cunp::eval(cunp::isclose(g<c64>("s_c64").to(dev), c128(1, 1))),
                        g<bool>("s_c64_1p1j"));

    // Negative strides and fused operands give the same answers.
    const auto a = g<double>("f64_a").to(dev), b = g<double>("f64_b").to(dev);
    const auto rev = [](const auto& v) {
      return cunp::view(v, cunp::slice(cunp::none, cunp::none, -1));
    };
    require_equal<bool>(cunp::eval(cunp::isclose(rev(a), rev(b))),
                        rev(g<bool>("f64_default")).copy());
    require_equal<bool>(cunp::eval(cunp::isclose(a * 1.0, b + 0.0)), g<bool>("f64_default"));
    static_assert(std::is_same_v<decltype(cunp::eval(cunp::isclose(a, b)))::value_type, bool>);
  });
}

TEST_CASE("isclose, allclose and array_equal on empty arrays, size-1 dims and bfloat16",
          "[checking]") {
  on_every_backend([](cunp::device dev) {
    const auto e = g<double>("empty_f64").to(dev);
    CHECK(cunp::eval(cunp::isclose(e, e)).shape() == shape_t{0});
    const auto e2 = cunp::zeros<double>({2, 0}, dev);
    const ndarray<bool> r = cunp::isclose(e2, e);
    CHECK(r.shape() == g<bool>("empty_2x0").shape());
    CHECK(cunp::allclose(e, e));
    CHECK(cunp::array_equal(e, e));
    CHECK_FALSE(cunp::array_equal(e2, e));

    const auto one = cunp::full<double>({1, 1}, 2.0, dev);
    const auto v = cunp::asarray<double>({2.0, 2.00001, 2.1}, {3}, dev);
    require_values<bool>(cunp::eval(cunp::isclose(one, v)), {true, true, false}, {1, 3});
    CHECK_FALSE(cunp::array_equal(one, v));  // different shapes: false, not an error
    CHECK(cunp::array_equal(v, v * 1.0));

    const auto h = cunp::asarray<cunp::bfloat16>({1.0f, 2.0f, INFINITY, NAN}, {4}, dev);
    const auto k = cunp::asarray<cunp::bfloat16>({1.0f, 2.5f, INFINITY, NAN}, {4}, dev);
    require_values<bool>(cunp::eval(cunp::isclose(h, k)), {true, false, true, false}, {4});
    require_values<bool>(cunp::eval(cunp::isclose(h, k, 0.25, 0, true)), {true, true, true, true},
                         {4});
  });
}

TEST_CASE("isclose and allclose refuse operands that do not broadcast", "[checking]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::zeros<float>({3}, dev), b = cunp::zeros<float>({4}, dev);
    REQUIRE_THROWS_WITH(cunp::isclose(a, b),
                        "operands could not be broadcast together with shapes (3,) (4,)");
    REQUIRE_THROWS_AS(cunp::allclose(a, b), cunp::shape_error);
    CHECK_FALSE(cunp::array_equal(a, b));
    if (dev.is_cuda()) REQUIRE_THROWS_AS(cunp::isclose(a, a.to(cpu)), cunp::device_error);
  });
}

TEST_CASE("assert_allclose reports as numpy.testing", "[checking][testing]") {
  using cunp::testing::assert_allclose;
  const auto close = [](const auto& a, const auto& b) { assert_allclose(a, b); };
  check_report<double, double>("basic", close);
  check_report<double, double>(
      "many", [](const auto& a, const auto& b) { assert_allclose(a, b, 1e-7, 0, true, "hello"); });
  check_report<double, double>("long_msg", [](const auto& a, const auto& b) {
    std::string m;
    for (int i = 0; i < 2; ++i) m += "a message that is long enough to go on a line of its own ";
    assert_allclose(a, b, 1e-7, 0, true, m);
  });
  check_report<double, double>("shape", close);
  check_report<double, double>("nan_loc", close);
  check_report<double, double>("inf_loc", close);
  check_report<double, double>("inf_val", close);
  check_report<double, double>("big2d", close);
  check_report<float, float>(
      "f32", [](const auto& a, const auto& b) { assert_allclose(a, b, 1e-3, 1e-6); });
  check_report<float16, float16>("f16", close);
  check_report<c128, c128>("c128", close);
  check_report<c64, c64>("c64", close);
  check_report<std::int32_t, std::int32_t>("int", close);
  check_report<std::uint8_t, std::uint8_t>("u8", close);
  check_report<double, double>("zero_desired", close);
  check_report<double, double>("zero_d", close);
  check_report<double, double>("scalar_desired", close);
  check_report<double, double>("scalar_desired", [](const auto& a, const auto&) {
    assert_allclose(a, 2.0);  // a C++ scalar is a 0-d array, as np.asanyarray(2.0)
  });
  check_report<double, double>(
      "nan_unequal", [](const auto& a, const auto& b) { assert_allclose(a, b, 1e-7, 0, false); });
  check_report<float, std::int64_t>("mixed", close);
  check_report<double, double>("three_d", close);
  check_report<double, double>("tiny", close);
}

TEST_CASE("assert_array_equal reports as numpy.testing", "[checking][testing]") {
  const auto equal = [](const auto& a, const auto& b) { cunp::testing::assert_array_equal(a, b); };
  check_report<std::int32_t, std::int32_t>("eq_int", equal);
  check_report<bool, bool>("eq_bool", equal);
  check_report<std::int8_t, std::int8_t>("eq_i8_wrap", equal);
  check_report<std::uint8_t, std::uint8_t>("eq_u8", equal);
  check_report<float, float>("eq_f32_zero", equal);
  check_report<double, double>("eq_shape", equal);
  check_report<double, double>("eq_nan", equal);
}

TEST_CASE("the assertions pass on close arrays, NaNs in place and expressions",
          "[checking][testing]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::asarray<double>({1.0, NAN, INFINITY, -2.0}, {4}, dev);
    cunp::testing::assert_allclose(a, a * (1 + 1e-9));
    cunp::testing::assert_array_equal(a, a.copy());
    cunp::testing::assert_allclose(a, a.copy(), 0, 0);
    cunp::testing::assert_allclose(cunp::full<float>({2, 2}, 3.0f, dev), 3.0f);
    cunp::testing::assert_array_equal(cunp::zeros<std::int8_t>({0}, dev),
                                      cunp::zeros<std::int8_t>({0}, dev));
    REQUIRE_THROWS_AS(cunp::testing::assert_allclose(a, a * 2), cunp::assertion_error);
    REQUIRE_THROWS_AS(cunp::testing::assert_allclose(a, a, 1e-7, 0, false), cunp::assertion_error);
    REQUIRE_THROWS_AS(cunp::testing::assert_array_equal(a, a + 1), cunp::error);  // the base
  });
}
#endif  // CUNP_IN_PART(2)
