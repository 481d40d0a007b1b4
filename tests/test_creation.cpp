// Creation: empty/zeros/ones/full, *_like, arange, linspace, eye, identity, asarray, array,
// diag, tri, tril, triu, meshgrid; checked against NumPy and across backends.
#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

namespace {
template <class T> void check_golden(const std::string& name, const ndarray<T>& got) {
  INFO("golden case " << name);
  require_close(got.to(cpu), golden<T>("creation_" + name));
}
}  // namespace

TEMPLATE_TEST_CASE("zeros, ones, full and the *_like family", "[creation]", bool, std::int8_t,
                   std::uint16_t, std::int32_t, std::uint64_t, cunp::float16, cunp::bfloat16,
                   float, double, cunp::complex64, cunp::complex128) {
  on_every_backend([](cunp::device dev) {
    const TestType seven = cunp::detail::convert<TestType>(7);
    require_values<TestType>(cunp::zeros<TestType>({2, 2}, dev), std::vector<TestType>(4, TestType(0)), {2, 2});
    require_values<TestType>(cunp::ones<TestType>({3}, dev), std::vector<TestType>(3, TestType(1)), {3});
    require_values<TestType>(cunp::full<TestType>({2, 1, 2}, seven, dev), std::vector<TestType>(4, seven), {2, 1, 2});
    const auto base = cunp::full<TestType>({4, 2}, seven, dev);
    REQUIRE(cunp::empty_like(base).shape() == shape_t{4, 2});
    REQUIRE(cunp::empty_like(base).device() == dev);
    require_equal(cunp::zeros_like(base).to(cpu), cunp::zeros<TestType>({4, 2}, cpu));
    require_equal(cunp::ones_like(base).to(cpu), cunp::ones<TestType>({4, 2}, cpu));
    require_equal(cunp::full_like(base, seven).to(cpu), base.to(cpu));
    require_equal(cunp::zeros_like<double>(base).to(cpu), cunp::zeros<double>({4, 2}, cpu));
    REQUIRE(cunp::zeros<TestType>({0, 5}, dev).size() == 0);
    REQUIRE(cunp::full<TestType>({}, seven, dev).item() == seven);
  });
}

TEST_CASE("full writes special values", "[creation]") {
  on_every_backend([](cunp::device dev) {
    const auto n = cunp::full<float>({3}, NAN, dev).to_vector();
    REQUIRE(std::isnan(n[2]));
    REQUIRE(cunp::full<double>({2}, -INFINITY, dev).to_vector()[1] == -INFINITY);
    REQUIRE(std::signbit(cunp::full<float>({5}, -0.0f, dev).to_vector()[4]));
    REQUIRE(cunp::full<std::int64_t>({2}, INT64_MIN, dev).to_vector()[1] == INT64_MIN);
  });
}

TEMPLATE_TEST_CASE("arange matches NumPy", "[creation][arange]", std::int8_t, std::int16_t,
                   std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,
                   std::uint64_t, cunp::float16, float, double) {
  struct c { const char* name; double a, b, s; bool fractional; };
  const c cases[] = {{"0_10_1", 0, 10, 1, false},      {"2_17_3", 2, 17, 3, false},
                     {"10_0_m2", 10, 0, -2, false},    {"0_1_0p1", 0, 1, 0.1, true},
                     {"m1_1_0p25", -1, 1, 0.25, true}, {"5_5_1", 5, 5, 1, false},
                     {"0_100_7", 0, 100, 7, false},    {"0p5_3_0p5", 0.5, 3, 0.5, true},
                     {"1_m1_m0p3", 1, -1, -0.3, true}};
  const std::string tname(cunp::dtype_name_v<TestType>);
  on_every_backend([&](cunp::device dev) {
    for (const c& k : cases) {
      const bool is_float = cunp::is_floating_v<TestType>;
      if (!is_float && (k.fractional || (std::is_unsigned_v<TestType> && std::min(k.a, k.b) < 0))) continue;
      check_golden("arange_" + std::string(k.name) + "_" + tname, cunp::arange<TestType>(k.a, k.b, k.s, dev));
    }
    check_golden("arange_0_10_1_" + tname, cunp::arange<TestType>(10, dev));
  });
}

TEMPLATE_TEST_CASE("linspace matches NumPy", "[creation][linspace]", cunp::float16, float, double,
                   std::int32_t, std::int64_t) {
  struct c { const char* name; double a, b; index_t n; bool endpoint; };
  const c cases[] = {{"0_1_5_t", 0, 1, 5, true},      {"0_1_5_f", 0, 1, 5, false},
                     {"m3_7_11_t", -3, 7, 11, true},  {"1_1_4_t", 1, 1, 4, true},
                     {"0_1_1_t", 0, 1, 1, true},      {"0_1_0_t", 0, 1, 0, true},
                     {"2_m2_7_f", 2, -2, 7, false},   {"0_10_50_t", 0, 10, 50, true},
                     {"1e10_1e10p1_3_t", 1e10, 1e10 + 1, 3, true}};
  const std::string tname(cunp::dtype_name_v<TestType>);
  on_every_backend([&](cunp::device dev) {
    for (const c& k : cases) {
      if (k.a == 1e10 && (tname == "float16" || tname == "int32")) continue;
      check_golden("linspace_" + std::string(k.name) + "_" + tname,
                   cunp::linspace<TestType>(k.a, k.b, k.n, k.endpoint, dev));
    }
  });
}

TEST_CASE("eye, identity and tri match NumPy", "[creation]") {
  const index_t cases[][3] = {{3, 3, 0}, {3, 4, 1}, {4, 3, -1}, {2, 5, 7}, {5, 2, -9}, {0, 0, 0}, {1, 1, 0}, {3, 5, -2}};
  on_every_backend([&](cunp::device dev) {
    for (const auto& k : cases) {
      const std::string suffix = std::to_string(k[0]) + "_" + std::to_string(k[1]) + "_" + std::to_string(k[2]);
      check_golden("eye_" + suffix, cunp::eye<float>(k[0], k[1], k[2], dev));
      check_golden("tri_" + suffix, cunp::tri<std::int32_t>(k[0], k[1], k[2], dev));
    }
    require_equal(cunp::identity<cunp::complex64>(3, dev).to(cpu), cunp::eye<cunp::complex64>(3, 3, 0, cpu));
    REQUIRE(cunp::eye<double>(4, std::nullopt, 0, dev).shape() == shape_t{4, 4});
  });
}

TEST_CASE("tril and triu match NumPy, also on views", "[creation]") {
  const auto src = golden<double>("creation_tril_src");
  on_every_backend([&](cunp::device dev) {
    const auto a = src.to(dev);
    for (index_t k : {-2, -1, 0, 1, 3}) {
      check_golden("tril_" + std::to_string(k), cunp::tril(a, k));
      check_golden("triu_" + std::to_string(k), cunp::triu(a, k));
    }
    check_golden("tril_1d", cunp::tril(cunp::arange<std::int64_t>(1, 5, 1, dev)));
    // A transposed (non-contiguous) input: tril of a.T equals tril of its copy.
    const auto t = a.reshape({6, 4}).T();
    require_equal(cunp::tril(t, 1).to(cpu), cunp::tril(t.copy(), 1).to(cpu));
    REQUIRE_THROWS_AS(cunp::tril(cunp::full<double>({}, 1.0, dev)), cunp::value_error);
  });
}

TEST_CASE("diag builds and extracts diagonals like NumPy", "[creation]") {
  on_every_backend([](cunp::device dev) {
    const auto v = cunp::asarray<double>({1.5, -2.0, 3.25}, {}, dev);
    for (index_t k : {-2, 0, 1}) check_golden("diag_1d_" + std::to_string(k), cunp::diag(v, k));
    const auto m = cunp::arange<std::int32_t>(0, 12, 1, dev).reshape({3, 4});
    for (index_t k : {-3, -1, 0, 2, 4}) check_golden("diag_2d_" + std::to_string(k), cunp::diag(m, k));
    // Extracting from a reversed view follows the view's element order.
    const auto rev = cunp::ndarray<double>(v.storage(), 2, {3}, {-1});
    require_values<double>(cunp::diag(cunp::diag(rev)), {3.25, -2.0, 1.5}, {3});
    REQUIRE_THROWS_WITH(cunp::diag(cunp::zeros<int>({2, 2, 2}, dev)), "Input must be 1- or 2-d.");
  });
}

TEST_CASE("meshgrid matches NumPy for xy and ij indexing", "[creation]") {
  on_every_backend([](cunp::device dev) {
    const auto x = cunp::arange<float>(0, 3, 1, dev), y = cunp::arange<float>(10, 14, 1, dev);
    const auto z = cunp::asarray<float>({-1, 1}, {}, dev);
    for (const std::string ind : {"xy", "ij"}) {
      const auto g3 = cunp::meshgrid<float>({x, y, z}, ind);
      for (int i = 0; i < 3; ++i) check_golden("meshgrid3_" + ind + "_" + std::to_string(i), g3[i]);
      const auto g2 = cunp::meshgrid<float>({x, y}, ind);
      for (int i = 0; i < 2; ++i) check_golden("meshgrid2_" + ind + "_" + std::to_string(i), g2[i]);
    }
    const auto g = cunp::meshgrid(x, y);  // variadic form, default "xy"
    REQUIRE(g[0].shape() == shape_t{4, 3});
    REQUIRE_THROWS_AS(cunp::meshgrid<float>({x}, "yx"), cunp::value_error);
  });
}

TEST_CASE("asarray and array from host data", "[creation]") {
  on_every_backend([](cunp::device dev) {
    require_values<int>(cunp::array<int>({{1, 2, 3}, {4, 5, 6}}, dev), {1, 2, 3, 4, 5, 6}, {2, 3});
    require_values<float>(cunp::array<float>({{{1, 2}}, {{3, 4}}}, dev), {1, 2, 3, 4}, {2, 1, 2});
    require_values<bool>(cunp::array<bool>({true, false}, dev), {true, false}, {2});
    require_values<double>(cunp::array<double>(2.5, dev), {2.5}, {});
    require_values<std::int64_t>(cunp::asarray<std::int64_t>({1, 2, 3, 4, 5, 6}, {3, 2}, dev),
                                 {1, 2, 3, 4, 5, 6}, {3, 2});
    const auto a = cunp::asarray({1.f, 2.f, 3.f}, dev);
    REQUIRE(a.shape() == shape_t{3});
    REQUIRE(cunp::asarray(a, cpu).device() == cpu);
    REQUIRE(cunp::array<int>(cunp::detail::nested_t<int, 2>{}, dev).shape() == shape_t{0, 0});
    REQUIRE_THROWS_WITH(cunp::array<int>({{1, 2}, {3}}, dev),
                        Catch::Contains("inhomogeneous shape after 1 dimensions"));
    REQUIRE_THROWS_AS(cunp::asarray<int>({1, 2, 3}, {2, 2}, dev), cunp::shape_error);
  });
}

TEST_CASE("creation rejects bad sizes and steps", "[creation][errors]") {
  REQUIRE_THROWS_WITH(cunp::zeros<float>({2, -1}, cpu), "negative dimensions are not allowed: shape (2, -1)");
  REQUIRE_THROWS_AS(cunp::eye<float>(-1, -1, 0, cpu), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::arange<float>(0, 10, 0, cpu), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::arange<float>(0, INFINITY, 1, cpu), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::arange<double>(0, 1e300, 1e-300, cpu), cunp::value_error);
  REQUIRE_THROWS_WITH(cunp::linspace<float>(0, 1, -1, true, cpu), "Number of samples, -1, must be non-negative.");
}

// NumPy's check of every array it makes: itemsize times the product of the extents must fit an
// int64. Each call throws before it allocates (also under AddressSanitizer) and before a kernel.
TEST_CASE("creation rejects sizes that overflow, before allocating", "[creation][errors]") {
  const std::string too_big =
      "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";
  constexpr index_t p31 = index_t(1) << 31, p32 = index_t(1) << 32, p61 = index_t(1) << 61,
                    p62 = index_t(1) << 62;
  on_every_backend([&](cunp::device dev) {
    REQUIRE_THROWS_WITH(cunp::zeros<float>({p62}, dev), too_big);  // 2^64 bytes wrapped to 0
    REQUIRE_THROWS_AS(cunp::zeros<float>({p62}, dev), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::empty<float>({p32, p32}, dev), too_big);  // 2^64 elements
    REQUIRE_THROWS_WITH(cunp::ones<double>({p61}, dev), too_big);
    REQUIRE_THROWS_WITH(cunp::full<double>({p61}, 3.0, dev), too_big);
    REQUIRE_THROWS_WITH(cunp::empty<std::int16_t>({INT64_MAX}, dev), too_big);
    // Zero extents are skipped, as NumPy skips them: the other extents must still fit.
    REQUIRE_THROWS_WITH(cunp::empty<std::int8_t>({0, p62, p62}, dev), too_big);
    REQUIRE_THROWS_WITH(cunp::empty<float>({0, p61}, dev), too_big);
    REQUIRE(cunp::empty<std::int8_t>({0, p61}, dev).size() == 0);
    REQUIRE_THROWS_WITH(cunp::arange<double>(0, std::ldexp(1.0, 61), 1, dev), too_big);
    REQUIRE_THROWS_WITH(cunp::arange<float>(std::ldexp(1.0, 61), dev), too_big);
    REQUIRE_THROWS_WITH(cunp::linspace<double>(0, 1, p61, true, dev), too_big);
    REQUIRE_THROWS_WITH(cunp::eye<double>(p31, p31, 0, dev), too_big);
    REQUIRE_THROWS_WITH(cunp::eye<float>(3, p62, 0, dev), too_big);
    REQUIRE_THROWS_WITH(cunp::tri<double>(p31, p31, 0, dev), too_big);
    const auto v = cunp::ones<double>({1}, dev);
    REQUIRE_THROWS_WITH(cunp::diag(v, p32), too_big);
    REQUIRE_THROWS_WITH(cunp::diag(v, INT64_MAX), "Maximum allowed dimension exceeded");
    REQUIRE_THROWS_WITH(cunp::diag(v, INT64_MIN), "Maximum allowed dimension exceeded");
    // asarray(values, shape) is np.array(values).reshape(shape).
    REQUIRE_THROWS_WITH(cunp::asarray(std::vector<int>{1, 2, 3, 4}, {p62 + 1, 4}, dev),
                        "cannot reshape array of size 4 into shape (4611686018427387905, 4)");
    REQUIRE_THROWS_WITH(cunp::asarray(std::vector<int>{}, {0, p62, p62}, dev), too_big);
    // One-element broadcast views fit; the grid they span does not.
    const auto x = cunp::broadcast_to(v, {p31});
    REQUIRE_THROWS_WITH(cunp::meshgrid(x, x), too_big);
  });
}

TEST_CASE("eye and tri: M = N only when M is omitted, none or cunp 0.1's -1", "[creation][errors]") {
  on_every_backend([](cunp::device dev) {
    require_equal(cunp::eye<float>(3, std::nullopt, 0, dev).to(cpu), cunp::eye<float>(3, 3, 0, cpu));
    require_equal(cunp::eye<float>(3, cunp::none, 1, dev).to(cpu), cunp::eye<float>(3, 3, 1, cpu));
    require_equal(cunp::tri<int>(3, std::nullopt, 0, dev).to(cpu), cunp::tri<int>(3, 3, 0, cpu));
    require_equal(cunp::tri<int>(3, cunp::none, -1, dev).to(cpu), cunp::tri<int>(3, 3, -1, cpu));
    REQUIRE(cunp::eye<double>(4, 5).shape() == shape_t{4, 5});
    REQUIRE_THROWS_WITH(cunp::eye<float>(3, -2, 0, dev),
                        "negative dimensions are not allowed: shape (3, -2)");
    require_equal(cunp::eye<float>(3, -1, 0, dev).to(cpu), cunp::eye<float>(3, 3, 0, cpu));
    require_equal(cunp::tri<int>(3, -1, 0, dev).to(cpu), cunp::tri<int>(3, 3, 0, cpu));
    REQUIRE_THROWS_WITH(cunp::tri<float>(3, -2, 0, dev),
                        "negative dimensions are not allowed: shape (3, -2)");
    REQUIRE_THROWS_WITH(cunp::eye<float>(-1, cunp::none, 0, dev),
                        "negative dimensions are not allowed: shape (-1, -1)");
  });
}

TEST_CASE("full_like keeps a's dtype and casts the value as NumPy does", "[creation]") {
  on_every_backend([](cunp::device dev) {
    const auto f = cunp::full_like(cunp::zeros<float>({3}, dev), 3);
    static_assert(std::is_same_v<decltype(f), const ndarray<float>>);
    require_values<float>(f, {3, 3, 3}, {3});
    REQUIRE(f.device() == dev);
    require_values<bool>(cunp::full_like(cunp::zeros<bool>({2}, dev), 4), {true, true}, {2});
    require_values<bool>(cunp::full_like(cunp::zeros<bool>({2}, dev), 0.0), {false, false}, {2});
    require_values<std::int16_t>(cunp::full_like(cunp::zeros<std::int16_t>({2}, dev), 1e-300),
                                 {0, 0}, {2});
    require_values<std::int16_t>(cunp::full_like(cunp::zeros<std::int16_t>({2}, dev), -2.7),
                                 {-2, -2}, {2});
    require_values<std::int16_t>(
        cunp::full_like(cunp::zeros<std::int16_t>({2}, dev), cunp::complex128(1, 2)), {1, 1}, {2});
    require_values<cunp::float16>(cunp::full_like(cunp::zeros<cunp::float16>({1}, dev), 0.5),
                                  {cunp::float16(0.5f)}, {1});
    require_values<std::uint64_t>(cunp::full_like(cunp::zeros<std::uint64_t>({1}, dev), UINT64_MAX),
                                  {UINT64_MAX}, {1});
    // A C++ integer is a Python int: out of the dtype's range it is NumPy's OverflowError.
    REQUIRE_THROWS_WITH(cunp::full_like(cunp::zeros<std::int8_t>({2}, dev), 300),
                        "Python integer 300 out of bounds for int8");
    REQUIRE_THROWS_WITH(cunp::full_like(cunp::zeros<std::uint8_t>({2}, dev), -1),
                        "Python integer -1 out of bounds for uint8");
    // full_like<U>(a, v) still asks for another dtype.
    require_values<double>(cunp::full_like<double>(cunp::zeros<int>({2}, dev), 2.5), {2.5, 2.5}, {2});
    REQUIRE_THROWS_WITH(cunp::full_like<std::uint8_t>(cunp::zeros<float>({1}, dev), 256),
                        "Python integer 256 out of bounds for uint8");
  });
}

TEST_CASE("arange with integer bounds is exact past 2^53", "[creation][arange]") {
  constexpr std::int64_t p62 = std::int64_t(1) << 62;
  on_every_backend([&](cunp::device dev) {
    check_golden("arange_big_int64", cunp::arange<std::int64_t>(p62, p62 + 10, 3, dev));
    check_golden("arange_big_uint64",
                 cunp::arange<std::uint64_t>(UINT64_MAX - 4, UINT64_MAX, 2, dev));
    check_golden("arange_span_int64", cunp::arange<std::int64_t>(INT64_MIN, INT64_MAX, p62, dev));
    check_golden("arange_down_uint64", cunp::arange<std::uint64_t>(UINT64_MAX, 0, -p62, dev));
    check_golden("arange_big_float64", cunp::arange<double>(p62, p62 + 10, 3, dev));
    check_golden("arange_wrap_int8", cunp::arange<std::int8_t>(0, 300, 100, dev));
    check_golden("arange_bool_1_3", cunp::arange<bool>(1, 3, 1, dev));
    check_golden("arange_0_10_1_int64", cunp::arange<std::int64_t>(10, dev));
    REQUIRE(cunp::arange<std::uint8_t>(300, 300, 1, dev).size() == 0);  // nothing to cast

    REQUIRE_THROWS_WITH(cunp::arange<std::uint8_t>(-3, 3, 1, dev),
                        "Python integer -3 out of bounds for uint8");
    REQUIRE_THROWS_WITH(cunp::arange<std::uint8_t>(300, 303, 1, dev),
                        "Python integer 300 out of bounds for uint8");
    REQUIRE_THROWS_AS(cunp::arange<std::int8_t>(127, 130, 1, dev), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::arange<std::uint64_t>(0, UINT64_MAX, 1, dev),
                        "Maximum allowed size exceeded");
    REQUIRE_THROWS_WITH(cunp::arange<bool>(0, 3, 1, dev),
                        "arange() is only supported for booleans when the result has at most "
                        "length 2.");
    REQUIRE_THROWS_AS(cunp::arange<bool>(0.0, 3.0, 1.0, dev), cunp::dtype_error);
    REQUIRE_THROWS_AS(cunp::arange<std::int64_t>(0, 10, 0, dev), cunp::value_error);
  });
}

TEST_CASE("arange with complex bounds follows NumPy's length rule", "[creation][arange]") {
  using c = std::complex<double>;
  on_every_backend([](cunp::device dev) {
    check_golden("arange_c_1", cunp::arange<cunp::complex128>(c(1, 1), c(4, 9), c(0.5, 1), dev));
    check_golden("arange_c_2", cunp::arange<cunp::complex128>(0, c(5, 10), 1, dev));
    check_golden("arange_c_3",
                 cunp::arange<cunp::complex128>(c(0.5, -1), c(3, 20), c(0.25, 0.5), dev));
    check_golden("arange_c_4",
                 cunp::arange<cunp::complex64>(c(0.5, -1), c(3, 20), c(0.25, 0.5), dev));
    check_golden("arange_c_real", cunp::arange<cunp::complex64>(0.0, 5.0, 1.5, dev));
    check_golden("arange_c_down",
                 cunp::arange<cunp::complex128>(c(3, 3), c(-2, -3), c(-0.75, -1), dev));
    REQUIRE(cunp::arange<cunp::complex128>(0, c(5, 0), 1, dev).size() == 0);  // im's ceil: 0
    REQUIRE_THROWS_WITH(cunp::arange<cunp::complex128>(0, c(5, 1), c(0, 0), dev),
                        "complex division by zero");
    REQUIRE_THROWS_WITH(cunp::arange<cunp::complex128>(0, c(1e30, 1e30), 1e-30, dev),
                        "Maximum allowed size exceeded");
  });
}

TEST_CASE("linspace: complex bounds, retstep, array bounds and axis", "[creation][linspace]") {
  using c = std::complex<double>;
  const auto lo = golden<float>("creation_linspace_arr_lo");
  const auto hi = golden<double>("creation_linspace_arr_hi");
  const auto h16 = golden<cunp::float16>("creation_linspace_arr_f16_lo");
  const auto ilo = golden<std::int64_t>("creation_linspace_arr_ilo");
  on_every_backend([&](cunp::device dev) {
    check_golden("linspace_c_1", cunp::linspace<cunp::complex128>(c(0, 1), c(2, -1), 5, true, dev));
    check_golden("linspace_c_2",
                 cunp::linspace<cunp::complex64>(c(-1, 2), c(3, 0.5), 7, false, dev));
    const auto cs = cunp::linspace_step<cunp::complex128>(c(0, 1), c(2, -1), 5, true, dev);
    check_golden("linspace_c_1", cs.samples);
    REQUIRE(cs.step == golden<cunp::complex128>("creation_linspace_step_c_step").item());
    struct k { const char* name; double a, b; index_t n; bool endpoint; };
    for (const k& s : {k{"0_1_5_t", 0, 1, 5, true}, k{"2_m2_7_f", 2, -2, 7, false},
                       k{"0_1_1_t", 0, 1, 1, true}}) {
      const auto [y, step] = cunp::linspace_step<double>(s.a, s.b, s.n, s.endpoint, dev);
      check_golden(std::string("linspace_step_") + s.name, y);
      const double want = golden<double>(std::string("creation_linspace_step_") + s.name +
                                         "_step").item();
      REQUIRE((step == want || (std::isnan(step) && std::isnan(want))));
    }
    const auto l = lo.to(dev);
    const auto h = hi.to(dev);
    for (const index_t axis : {0, 1, 2, -1})
      check_golden(std::string("linspace_arr_a") + (axis < 0 ? "m1" : std::to_string(axis)),
                   cunp::linspace<double>(l, h, 4, true, axis));
    check_golden("linspace_arr_int32", cunp::linspace<std::int32_t>(l, h, 5, false));
    check_golden("linspace_arr_f16",
                 cunp::linspace<cunp::float16>(h16.to(dev), cunp::full<cunp::float16>(
                                                                {}, cunp::float16(7.0f), dev),
                                               6));
    const auto [yi, stepi] = cunp::linspace_step<double>(
        ilo.to(dev), cunp::full<double>({}, 7.5, dev), 4, true, 1);
    check_golden("linspace_arr_i", yi);
    check_golden("linspace_arr_i_step", stepi);
    // Expressions are bounds too, and the result is on their device.
    require_equal(cunp::linspace<double>(l * 1.0f, h + 0.0, 4).to(cpu),
                  golden<double>("creation_linspace_arr_a0"));
    REQUIRE(cunp::linspace<double>(l, h, 4).device() == dev);

    REQUIRE_THROWS_WITH(cunp::linspace<double>(l, h, 4, true, 3),
                        "destination: axis 3 is out of bounds for array of dimension 3");
    REQUIRE_THROWS_WITH(cunp::linspace<double>(l, cunp::zeros<double>({3}, dev), 4),
                        "operands could not be broadcast together with shapes (3,) (2,)");
    REQUIRE_THROWS_WITH(cunp::linspace<double>(l, h, -2),
                        "Number of samples, -2, must be non-negative.");
  });
}

TEST_CASE("geomspace and logspace match NumPy", "[creation][linspace]") {
  using c = std::complex<double>;
  on_every_backend([](cunp::device dev) {
    struct k { const char* name; double a, b; index_t n; bool endpoint; };
    for (const k& g : {k{"1_1000_4", 1, 1000, 4, true}, k{"m1_m1000_4", -1, -1000, 4, true},
                       k{"2_3_7_f", 2, 3, 7, false}, k{"8_0p5_5", 8, 0.5, 5, true},
                       k{"m2_m1e5_9_f", -2, -1e5, 9, false}, k{"1_1_3", 1, 1, 3, true},
                       k{"1_m10_3", 1, -10, 3, true}})
      check_golden(std::string("geomspace_") + g.name,
                   cunp::geomspace<double>(g.a, g.b, g.n, g.endpoint, dev));
    check_golden("geomspace_1_1000_4_f32", cunp::geomspace<float>(1, 1000, 4, true, dev));
    // Complex powers round differently from NumPy's npy_cpow in the last bits: parts that are
    // rounding noise (1e-16 beside 2.5) are compared with an absolute tolerance.
    const auto near = [](const std::string& name, const ndarray<cunp::complex128>& got) {
      INFO("golden case " << name);
      require_close(got.to(cpu), golden<cunp::complex128>("creation_" + name), 1e-13, 1e-14);
    };
    near("geomspace_c_i_1000i_4",
         cunp::geomspace<cunp::complex128>(c(0, 1), c(0, 1000), 4, true, dev));
    near("geomspace_c_m1_1_5", cunp::geomspace<cunp::complex128>(-1, 1, 5, true, dev));
    near("geomspace_c_1p1i_m8_6_f", cunp::geomspace<cunp::complex128>(c(1, 1), -8, 6, false, dev));
    REQUIRE(cunp::geomspace<double>(1, 2, 0, true, dev).size() == 0);
    REQUIRE_THROWS_WITH(cunp::geomspace<double>(0, 2, 3, true, dev),
                        "Geometric sequence cannot include zero");
    REQUIRE_THROWS_AS(cunp::geomspace<cunp::complex128>(1, 0, 3, true, dev), cunp::value_error);

    check_golden("logspace_0_3_4", cunp::logspace<double>(0, 3, 4, true, 10.0, dev));
    check_golden("logspace_0_3_4_b2", cunp::logspace<double>(0, 3, 4, true, 2.0, dev));
    check_golden("logspace_m1_2_6_f", cunp::logspace<double>(-1, 2, 6, false, 10.0, dev));
    check_golden("logspace_1_0_5_be", cunp::logspace<double>(1, 0, 5, true, M_E, dev));
    check_golden("logspace_0_3_4_f_i32", cunp::logspace<std::int32_t>(0, 3, 4, false, 10, dev));
    near("logspace_c", cunp::logspace<cunp::complex128>(0, c(1, 1), 4, true, 10, dev));
  });
}

TEST_CASE("geomspace and logspace with array bounds and axis match NumPy", "[creation][linspace]") {
  using c = std::complex<double>;
  const auto lo = golden<float>("creation_linspace_arr_lo");
  const auto hi = golden<double>("creation_linspace_arr_hi");
  const auto glo = golden<double>("creation_geomspace_arr_lo");
  const auto ghi = golden<double>("creation_geomspace_arr_hi");
  on_every_backend([&](cunp::device dev) {
    const auto l = lo.to(dev);
    const auto h = hi.to(dev), gl = glo.to(dev), gh = ghi.to(dev);
    for (const index_t axis : {0, 1, -1})
      check_golden(std::string("logspace_arr_a") + (axis < 0 ? "m1" : std::to_string(axis)),
                   cunp::logspace<double>(l, h, 4, true, 2.0, axis));
    const auto two = cunp::full<float>({}, 2.f, dev);
    static_assert(std::is_same_v<decltype(cunp::logspace<float>(l, two, 3)), ndarray<float>>);
    check_golden("logspace_arr_f32", cunp::logspace<float>(l, two, 3));
    for (const index_t axis : {0, 2, -1})
      check_golden(std::string("geomspace_arr_a") + (axis < 0 ? "m1" : std::to_string(axis)),
                   cunp::geomspace<double>(gl, gh, 5, true, axis));
    const auto il = cunp::asarray<std::int64_t>({1, 2}, {2}, dev);
    const auto ih = cunp::asarray<std::int64_t>({1000, 7}, {2}, dev);
    check_golden("geomspace_arr_i32", cunp::geomspace<std::int32_t>(il, ih, 4));
    const auto cl = cunp::asarray<c>({c(0, 1), c(-1, 0)}, {2}, dev);
    const auto ch = cunp::asarray<c>({c(0, 1000), c(1, 1)}, {2}, dev);
    INFO("golden case geomspace_arr_c");
    require_close(cunp::geomspace<cunp::complex128>(cl, ch, 4).to(cpu),
                  golden<cunp::complex128>("creation_geomspace_arr_c"), 1e-13, 1e-14);
    REQUIRE_THROWS_WITH(cunp::geomspace<double>(gl, gh * 0.0, 3),
                        "Geometric sequence cannot include zero");
    REQUIRE_THROWS_WITH(cunp::geomspace<double>(gl, gh, 3, true, 3),
                        "destination: axis 3 is out of bounds for array of dimension 3");
    REQUIRE_THROWS_WITH(cunp::logspace<double>(l, cunp::zeros<double>({3}, dev), 4),
                        "operands could not be broadcast together with shapes (3,) (2,)");
  });
}

TEST_CASE("full casts the value as NumPy does", "[creation]") {
  on_every_backend([](cunp::device dev) {
    check_golden("full_2p7_int32", cunp::full<std::int32_t>({3}, 2.7, dev));
    check_golden("full_m2p7_int16", cunp::full<std::int16_t>({2}, -2.7, dev));
    check_golden("full_300_uint16", cunp::full<std::uint16_t>({2}, 300, dev));
    check_golden("full_c_float64", cunp::full<double>({2}, cunp::complex128(1, 2), dev));
    check_golden("full_0p1_float16", cunp::full<cunp::float16>({2}, 0.1, dev));
    static_assert(std::is_same_v<decltype(cunp::full({2}, 1.5f, dev)), ndarray<float>>);
    REQUIRE_THROWS_WITH(cunp::full<std::uint8_t>({3}, 300, dev),
                        "Python integer 300 out of bounds for uint8");
    REQUIRE_THROWS_WITH(cunp::full<std::uint8_t>({3}, -1, dev),
                        "Python integer -1 out of bounds for uint8");
    REQUIRE_THROWS_AS(cunp::full<std::int8_t>({3}, 128, dev), cunp::value_error);
  });
}

TEST_CASE("clip with both bounds none returns the values", "[creation][clip]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::asarray<std::uint8_t>({3, 0, 255}, dev);
    const ndarray<std::uint8_t> c = cunp::clip(a, cunp::none, cunp::none);
    REQUIRE(c.device() == dev);
    REQUIRE(c.storage() != a.storage());  // a new array, as NumPy's
    require_values<std::uint8_t>(c, {3, 0, 255}, {3});
    const auto z = cunp::asarray<cunp::complex64>({{1, -2}, {NAN, 0}}, dev);
    require_equal(ndarray<cunp::complex64>(cunp::clip(-z, cunp::none, cunp::none)).to(cpu),
                  ndarray<cunp::complex64>(-z).to(cpu));
    const auto out = cunp::zeros<std::uint8_t>({3}, dev);
    cunp::clip(a, cunp::none, cunp::none, out);
    require_values<std::uint8_t>(out, {3, 0, 255}, {3});
  });
}
