// Views (NumPy's basic indexing), copyto, can_cast and may_share_memory, checked against NumPy.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::ellipsis;
using cunp::newaxis;
using cunp::none;
using cunp::slice;
// Names that CUDA's headers also declare at global scope (math functions, min, max, any) work in
// file-scope using-declarations under nvcc too. `all` (CUDA's all(bool)) and `cuda` (CCCL's
// namespace) do not: see docs/differences.md and the test case below.
using cunp::abs, cunp::any, cunp::ceil, cunp::copysign, cunp::cos, cunp::exp, cunp::fabs,
    cunp::floor, cunp::fmax, cunp::fmin, cunp::fmod, cunp::hypot, cunp::isfinite, cunp::isinf,
    cunp::isnan, cunp::log, cunp::max, cunp::min, cunp::rint, cunp::round, cunp::signbit, cunp::sin,
    cunp::sqrt, cunp::sum, cunp::trunc;

namespace {

/// Requires that v holds NumPy's values for `name` and lies where NumPy's view lies in `base`:
/// the same element offset and strides (golden <name>_layout), sharing base's storage.
template <class T>
void require_golden_view(const ndarray<T>& v, const ndarray<T>& base, const std::string& name) {
  INFO("case " << name);
  REQUIRE(v.storage() == base.storage());
  require_equal(v.to(cpu), golden<T>(name));
  std::vector<std::int64_t> layout{v.offset() - base.offset()};
  layout.insert(layout.end(), v.strides().begin(), v.strides().end());
  REQUIRE(layout == golden<std::int64_t>(name + "_layout").to_vector());
}

struct view_case {
  std::string name;
  ndarray<double> base, view;
};

}  // namespace

TEST_CASE("view: NumPy's basic indexing picks the same elements and memory", "[views][golden]") {
  on_every_backend([](cunp::device dev) {
    const auto a0 = golden<double>("views_a0").to(dev);
    const auto a1 = golden<double>("views_a1").to(dev);
    const auto a2 = golden<double>("views_a2").to(dev);
    const auto a3 = golden<double>("views_a3").to(dev);
    using cunp::view;
    const std::vector<view_case> cases{
        // 1-d: steps, clamped and empty ranges, integers, newaxis, ellipsis
        {"s_2_7", a1, view(a1, slice(2, 7))},
        {"s_2_7_2", a1, view(a1, slice(2, 7, 2))},
        {"s_rev", a1, view(a1, slice(none, none, -1))},
        {"s_rev2", a1, view(a1, slice(none, none, -2))},
        {"s_8_2_m2", a1, view(a1, slice(8, 2, -2))},
        {"s_m3_", a1, view(a1, slice(-3, none))},
        {"s__m3", a1, view(a1, slice(none, -3))},
        {"s_m100_100", a1, view(a1, slice(-100, 100))},
        {"s_100_m100_m1", a1, view(a1, slice(100, -100, -1))},
        {"s_100__m3", a1, view(a1, slice(100, none, -3))},
        {"s_5_2", a1, view(a1, slice(5, 2))},
        {"s_2_5_m1", a1, view(a1, slice(2, 5, -1))},
        {"s_20_30", a1, view(a1, slice(20, 30))},
        {"s_m20_m30_m1", a1, view(a1, slice(-20, -30, -1))},
        {"s_3_4", a1, view(a1, slice(3, 4))},
        {"s_1__3", a1, view(a1, slice(1, none, 3))},
        {"s_m1_m11_m3", a1, view(a1, slice(-1, -11, -3))},
        {"s__7", a1, view(a1, slice(7))},
        {"s_step_100", a1, view(a1, slice(none, none, 100))},
        {"s_m_step_100", a1, view(a1, slice(none, none, -100))},
        {"i1_3", a1, view(a1, 3)},
        {"i1_m1", a1, view(a1, -1)},
        {"na_first", a1, view(a1, newaxis)},
        {"na_last", a1, view(a1, cunp::all, newaxis)},
        {"na_both", a1, view(a1, newaxis, slice(2, 5), newaxis)},
        {"ell1", a1, view(a1, ellipsis)},
        {"ell1_na", a1, view(a1, ellipsis, newaxis)},
        {"ell1_i", a1, view(a1, ellipsis, 4)},
        {"empty_tuple1", a1, view(a1)},
        // 2-d
        {"r1", a2, view(a2, 1)},
        {"r_m1_rev", a2, view(a2, -1, slice(none, none, -1))},
        {"c2", a2, view(a2, cunp::all, 2)},
        {"c_m1", a2, view(a2, cunp::all, -1)},
        {"sub", a2, view(a2, slice(1, none), slice(1, 3))},
        {"rev_both", a2, view(a2, slice(none, none, -1), slice(none, none, -2))},
        {"ell_c", a2, view(a2, ellipsis, 1)},
        {"ell_r", a2, view(a2, 1, ellipsis)},
        {"na_mid", a2, view(a2, cunp::all, newaxis, slice(1, 3))},
        {"na_ell", a2, view(a2, newaxis, ellipsis, newaxis)},
        {"empty_r", a2, view(a2, slice(3, none), cunp::all)},
        {"empty_c", a2, view(a2, cunp::all, slice(2, 2))},
        {"empty_rev", a2, view(a2, cunp::all, slice(0, 3, -1))},
        {"clamp2", a2, view(a2, slice(-10, 10), slice(-10, 10, 3))},
        {"ij", a2, view(a2, 2, 3)},
        {"ij_neg", a2, view(a2, -3, -4)},
        {"i_ell_j", a2, view(a2, 1, ellipsis, 2)},
        {"big_steps", a2, view(a2, slice(none, none, 5), slice(none, none, -5))},
        // 3-d
        {"i0", a3, view(a3, 0)},
        {"i_all_i", a3, view(a3, 1, cunp::all, 3)},
        {"ell_i3", a3, view(a3, ellipsis, -1)},
        {"i_ell3", a3, view(a3, -1, ellipsis)},
        {"steps3", a3, view(a3, slice(none, none, 2), slice(1, 3), slice(none, none, -2))},
        {"na3", a3, view(a3, newaxis, 1, newaxis, ellipsis, newaxis)},
        {"mix3", a3, view(a3, slice(1, none), newaxis, -2, slice(4, 0, -2))},
        {"empty3", a3, view(a3, cunp::all, slice(4, none), cunp::all)},
        {"ell_mid3", a3, view(a3, 0, ellipsis, 0)},
        {"ijk", a3, view(a3, 2, 3, 4)},
        {"rev_last3", a3, view(a3, cunp::all, cunp::all, slice(-1, -6, -1))},
        {"rev_all3", a3,
         view(a3, slice(none, none, -1), slice(none, none, -1), slice(none, none, -1))},
        // 0-d
        {"ell0", a0, view(a0, ellipsis)},
        {"na0", a0, view(a0, newaxis)},
        {"na0_ell", a0, view(a0, ellipsis, newaxis, newaxis)},
        {"empty_tuple0", a0, view(a0)},
        // views of views compose offsets and strides
        {"of_view", a3,
         view(view(view(a3, slice(none, none, -1), slice(1, none)), cunp::all,
                   slice(none, none, -1), 2),
              slice(1, none), newaxis)},
        {"of_view2", a2, view(view(a2.T(), slice(none, none, -2)), 1, slice(none, none, -1))},
    };
    for (const auto& c : cases) require_golden_view(c.view, c.base, "views_" + c.name);
  });
}

TEMPLATE_TEST_CASE("view and copyto work on every dtype and write through", "[views][copyto]", bool,
                   std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint16_t, std::uint32_t, std::uint64_t, cunp::float16, cunp::bfloat16,
                   float, double, cunp::complex64, cunp::complex128) {
  using T = TestType;
  const auto vals = [](std::vector<int> v) {
    std::vector<T> out;
    for (int x : v) out.push_back(cunp::detail::convert<T>(x));
    return out;
  };
  same_on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<std::int32_t>(0, 24, 1, dev).reshape({2, 3, 4}).astype<T>();
    return cunp::view(a, slice(none, none, -1), 1, slice(1, none, 2)).copy();
  });
  on_every_backend([&](cunp::device dev) {
    const auto a = cunp::arange<std::int32_t>(0, 24, 1, dev).reshape({2, 3, 4}).astype<T>();
    const auto v = cunp::view(a, slice(none, none, -1), 1, slice(1, none, 2));
    require_values<T>(v, vals({17, 19, 5, 7}), {2, 2});
    // Writing into a view writes into the base: a[::-1, 1, 1::2] = a[0, 0, :2] (overlaps a).
    cunp::copyto(v, cunp::view(a, 0, 0, slice(none, 2)));
    require_values<T>(cunp::view(a, cunp::all, 1), vals({4, 0, 6, 1, 16, 0, 18, 1}), {2, 4});
    cunp::copyto(cunp::view(a, 1, ellipsis, -1), cunp::detail::convert<T>(9));
    require_values<T>(cunp::view(a, 1, cunp::all, slice(2, none)), vals({14, 9, 18, 9, 22, 9}),
                      {3, 2});
    const auto empty = cunp::view(a, slice(1, 1), cunp::all, slice(5, 0, 2));
    REQUIRE(empty.shape() == shape_t{0, 3, 0});
    cunp::copyto(empty, cunp::zeros<T>({3, 1}, dev));  // nothing to write, shapes still checked
    REQUIRE_THROWS_AS(cunp::copyto(empty, cunp::zeros<T>({2}, dev)), cunp::shape_error);
  });
}

TEST_CASE("view takes a run-time index tuple and clamps extreme bounds", "[views]") {
  const auto a = cunp::arange<int>(0, 12, 1, cpu).reshape({3, 4});
  std::vector<cunp::index_item> idx(2, cunp::all);  // NumPy's idx = [slice(None)] * a.ndim
  idx[1] = slice(1, none);
  require_values<int>(cunp::view(a, idx), {1, 2, 3, 5, 6, 7, 9, 10, 11}, {3, 3});
  idx.insert(idx.begin(), newaxis);
  idx.back() = -1;
  require_values<int>(cunp::view(a, idx), {3, 7, 11}, {1, 3});
  constexpr auto lo = std::numeric_limits<std::int64_t>::min();
  constexpr auto hi = std::numeric_limits<std::int64_t>::max();
  REQUIRE(cunp::view(a, slice(lo, hi, lo)).shape() == shape_t{0, 4});
  REQUIRE(cunp::view(a, slice(hi, lo, lo)).shape() == shape_t{1, 4});
  REQUIRE(cunp::view(a, cunp::all, slice(0, std::numeric_limits<std::uint64_t>::max())).shape() ==
          shape_t{3, 4});
  const auto s = slice(none, 3u, std::int8_t(-1));
  REQUIRE(!s.start.has_value());
  REQUIRE(*s.stop == 3);
  REQUIRE(*s.step == -1);
  REQUIRE(cunp::view(a, s).shape() == shape_t{0, 4});
}

TEST_CASE("view errors say what NumPy says", "[views][errors]") {
  const auto a0 = cunp::full<double>({}, 1.0, cpu);
  const auto a1 = cunp::zeros<double>({10}, cpu);
  const auto a2 = cunp::zeros<double>({3, 4}, cpu);
  REQUIRE_THROWS_WITH(cunp::view(a2, 5), "index 5 is out of bounds for axis 0 with size 3");
  REQUIRE_THROWS_WITH(cunp::view(a2, -4), "index -4 is out of bounds for axis 0 with size 3");
  REQUIRE_THROWS_WITH(cunp::view(a2, newaxis, cunp::all, -5),
                      "index -5 is out of bounds for axis 1 with size 4");
  REQUIRE_THROWS_AS(cunp::view(a2, 3), cunp::index_error);
  REQUIRE_THROWS_AS(cunp::view(a2, 3), cunp::value_error);  // IndexError is a kind of bad value
  REQUIRE_THROWS_WITH(cunp::view(a2, 0, 0, 0),
                      "too many indices for array: array is 2-dimensional, but 3 were indexed");
  REQUIRE_THROWS_WITH(cunp::view(a2, 0, ellipsis, 0, 0),
                      "too many indices for array: array is 2-dimensional, but 3 were indexed");
  REQUIRE_THROWS_WITH(cunp::view(a0, 0),
                      "too many indices for array: array is 0-dimensional, but 1 were indexed");
  REQUIRE_THROWS_AS(cunp::view(a0, cunp::all), cunp::index_error);
  REQUIRE_THROWS_WITH(cunp::view(a2, ellipsis, 0, ellipsis),
                      "an index can only have a single ellipsis ('...')");
  REQUIRE_THROWS_AS(cunp::view(a2, ellipsis, ellipsis), cunp::index_error);
  REQUIRE_THROWS_WITH(cunp::view(a1, slice(none, none, 0)), "slice step cannot be zero");
  REQUIRE_THROWS_AS(cunp::view(a1, slice(1, 2, 0)), cunp::value_error);
  // NumPy's order: the ellipsis and the count first, then each index from the left.
  REQUIRE_THROWS_WITH(cunp::view(a2, ellipsis, 0, ellipsis, 9, 9, 9),
                      "an index can only have a single ellipsis ('...')");
  REQUIRE_THROWS_WITH(cunp::view(a2, 9, 9, 9),
                      "too many indices for array: array is 2-dimensional, but 3 were indexed");
  REQUIRE_THROWS_WITH(cunp::view(a2, 5, slice(none, none, 0)),
                      "index 5 is out of bounds for axis 0 with size 3");
  REQUIRE_THROWS_WITH(cunp::view(a2, slice(none, none, 0), 5), "slice step cannot be zero");
}

TEST_CASE("copyto broadcasts and casts into strided views like NumPy", "[copyto][golden]") {
  on_every_backend([](cunp::device dev) {
    using cunp::view;
    auto d = cunp::zeros<double>({4, 6}, dev);
    cunp::copyto(view(d, slice(none, none, -2), slice(1, none, 2)),
                 cunp::arange<std::int32_t>(1, 4, 1, dev));
    require_equal(d.to(cpu), golden<double>("copyto_bcast_cast"));

    const auto i64 = cunp::arange<std::int64_t>(0, 10, 1, dev);
    cunp::copyto(view(i64, slice(none, none, -3)),
                 cunp::asarray<std::int8_t>({100, 101, 102, 103}, dev));
    require_equal(i64.to(cpu), golden<std::int64_t>("copyto_neg_stride"));

    const auto f32 = cunp::zeros<float>({3, 4}, dev);
    cunp::copyto(view(f32, cunp::all, slice(none, none, -1)),
                 golden<double>("copyto_col_to_f32_src").to(dev));
    require_equal(f32.to(cpu), golden<float>("copyto_col_to_f32"));

    const auto i32 = cunp::zeros<std::int32_t>({6}, dev);
    cunp::copyto(i32, golden<double>("copyto_unsafe_src").to(dev), cunp::casting::unsafe);
    require_equal(i32.to(cpu), golden<std::int32_t>("copyto_unsafe"));

    const auto i8 = cunp::zeros<std::int8_t>({7}, dev);
    cunp::copyto(i8, golden<std::uint64_t>("copyto_u64_i8_src").to(dev));
    require_equal(i8.to(cpu), golden<std::int8_t>("copyto_u64_i8"));

    const auto f16 = cunp::zeros<cunp::float16>({7}, dev);
    cunp::copyto(f16, golden<double>("copyto_f16_src").to(dev));
    require_equal(f16.to(cpu), golden<cunp::float16>("copyto_f16"));

    const auto c = cunp::zeros<cunp::complex128>({2, 3}, dev);
    cunp::copyto(c.T(),
                 view(cunp::arange<float>(0, 6, 1, dev).reshape({3, 2}), slice(none, none, -1)));
    require_equal(c.to(cpu), golden<cunp::complex128>("copyto_complex"));

    const auto i16 = cunp::zeros<std::int16_t>({2, 3}, dev);
    cunp::copyto(i16, cunp::asarray<bool>({true, false, true}, dev));
    require_equal(i16.to(cpu), golden<std::int16_t>("copyto_bool"));

    const auto m = cunp::arange<double>(0, 12, 1, dev).reshape({3, 4});
    cunp::copyto(view(m, 1, 2), cunp::full<double>({}, 99.0, dev));
    require_equal(m.to(cpu), golden<double>("copyto_into_0d"));

    // src with more, leading extents of 1; a 0-d src fills everything.
    const auto row = cunp::zeros<float>({3}, dev);
    cunp::copyto(row, cunp::arange<float>(1, 4, 1, dev).reshape({1, 1, 3}));
    require_values<float>(row, {1, 2, 3}, {3});
    cunp::copyto(row, cunp::full<std::int8_t>({}, -5, dev));
    require_values<float>(row, {-5, -5, -5}, {3});
  });
}

TEST_CASE("copyto of overlapping views reads the source in full first", "[copyto][golden]") {
  on_every_backend([](cunp::device dev) {
    using cunp::view;
    using I = std::int32_t;
    const auto range = [&](int n) { return cunp::arange<I>(0, n, 1, dev); };
    auto a = range(10);
    cunp::copyto(view(a, slice(1, none)), view(a, slice(none, -1)));
    require_equal(a.to(cpu), golden<I>("copyto_shift_right"));
    a = range(10);
    cunp::copyto(view(a, slice(none, -1)), view(a, slice(1, none)));
    require_equal(a.to(cpu), golden<I>("copyto_shift_left"));
    a = range(10);
    cunp::copyto(view(a, slice(none, none, -1)), a);
    require_equal(a.to(cpu), golden<I>("copyto_reverse"));
    a = range(20).reshape({4, 5});
    cunp::copyto(view(a, slice(1, none), cunp::all), view(a, slice(none, -1), cunp::all));
    require_equal(a.to(cpu), golden<I>("copyto_rows_down"));
    a = range(9).reshape({3, 3});
    cunp::copyto(a, a.T());
    require_equal(a.to(cpu), golden<I>("copyto_transpose"));
    a = range(6);
    cunp::copyto(view(a, cunp::all), view(a, 2));
    require_equal(a.to(cpu), golden<I>("copyto_bcast_self"));
    a = range(10);
    cunp::copyto(view(a, slice(none, none, 2)), view(a, slice(1, none, 2)));
    require_equal(a.to(cpu), golden<I>("copyto_interleaved"));
    a = range(24).reshape({2, 3, 4});
    cunp::copyto(view(a, cunp::all, slice(1, none), slice(none, none, -1)),
                 view(a, cunp::all, slice(none, -1), cunp::all));
    require_equal(a.to(cpu), golden<I>("copyto_3d_overlap"));
    a = range(5);
    cunp::copyto(a, a);  // a[...] = a
    require_values<I>(a, {0, 1, 2, 3, 4}, {5});
  });
}

TEST_CASE("copyto of a scalar: weak like a Python scalar", "[copyto]") {
  on_every_backend([](cunp::device dev) {
    const auto u8 = cunp::zeros<std::uint8_t>({2, 2}, dev);
    cunp::copyto(cunp::view(u8, cunp::all, -1), 255);  // a Python int fits an unsigned array
    require_values<std::uint8_t>(u8, {0, 255, 0, 255}, {2, 2});
    const auto h = cunp::zeros<cunp::float16>({3}, dev);
    cunp::copyto(h, 1e10);  // a Python float fits float16 (as inf)
    REQUIRE(std::isinf(static_cast<float>(h.to_vector()[0])));
    const auto i = cunp::zeros<std::int32_t>({3}, dev);
    cunp::copyto(i, 2.7, cunp::casting::unsafe);
    require_values<std::int32_t>(i, {2, 2, 2}, {3});
    cunp::copyto(i, true, cunp::casting::no);  // weak scalars ignore the casting rule's strictness
    require_values<std::int32_t>(i, {1, 1, 1}, {3});
    const auto c = cunp::zeros<cunp::complex64>({2}, dev);
    cunp::copyto(c, std::complex<double>(1, -2));
    require_values<cunp::complex64>(c, {{1, -2}, {1, -2}}, {2});
    const auto b = cunp::zeros<bool>({2}, dev);
    cunp::copyto(b, 7, cunp::casting::unsafe);
    require_values<bool>(b, {true, true}, {2});
  });
}

TEST_CASE("copyto errors say what NumPy says", "[copyto][errors]") {
  on_every_backend([](cunp::device dev) {
    const auto d24 = cunp::zeros<double>({2, 4}, dev);
    REQUIRE_THROWS_WITH(cunp::copyto(d24, cunp::ones<double>({3}, dev)),
                        "could not broadcast input array from shape (3,) into shape (2,4)");
    REQUIRE_THROWS_AS(cunp::copyto(d24, cunp::ones<double>({2, 4, 1}, dev)), cunp::shape_error);
    REQUIRE_THROWS_WITH(
        cunp::copyto(cunp::zeros<double>({3}, dev), cunp::ones<double>({2, 3}, dev)),
        "could not broadcast input array from shape (2,3) into shape (3,)");
    REQUIRE_THROWS_WITH(cunp::copyto(cunp::zeros<double>({}, dev), cunp::ones<double>({3}, dev)),
                        "could not broadcast input array from shape (3,) into shape ()");
    REQUIRE_THROWS_WITH(
        cunp::copyto(cunp::zeros<double>({3, 0}, dev), cunp::ones<double>({2}, dev)),
        "could not broadcast input array from shape (2,) into shape (3,0)");
    const auto i32 = cunp::zeros<std::int32_t>({3}, dev);
    REQUIRE_THROWS_WITH(cunp::copyto(i32, cunp::ones<double>({3}, dev)),
                        "Cannot cast array data from dtype('float64') to dtype('int32') according "
                        "to the rule 'same_kind'");
    REQUIRE_THROWS_AS(cunp::copyto(i32, cunp::ones<double>({3}, dev)), cunp::dtype_error);
    // NumPy checks the cast before the shapes.
    REQUIRE_THROWS_AS(cunp::copyto(i32, cunp::ones<double>({7}, dev)), cunp::dtype_error);
    REQUIRE_THROWS_WITH(cunp::copyto(i32, cunp::ones<std::int64_t>({3}, dev), cunp::casting::safe),
                        "Cannot cast array data from dtype('int64') to dtype('int32') according "
                        "to the rule 'safe'");
    REQUIRE_THROWS_WITH(cunp::copyto(i32, cunp::ones<std::int64_t>({3}, dev), cunp::casting::no),
                        "Cannot cast array data from dtype('int64') to dtype('int32') according "
                        "to the rule 'no'");
    REQUIRE_THROWS_WITH(cunp::copyto(i32, cunp::ones<cunp::bfloat16>({3}, dev)),
                        "Cannot cast array data from dtype(bfloat16) to dtype('int32') according "
                        "to the rule 'same_kind'");
    REQUIRE_THROWS_WITH(cunp::copyto(i32, 2.5),
                        "Cannot cast scalar from dtype('float64') to dtype('int32') according to "
                        "the rule 'same_kind'");
    REQUIRE_THROWS_WITH(cunp::copyto(i32, 2.5, cunp::casting::no),
                        "Cannot cast scalar from dtype('float64') to dtype('int32') according to "
                        "the rule 'no'");
    REQUIRE_THROWS_WITH(cunp::copyto(cunp::zeros<bool>({3}, dev), 1),
                        "Cannot cast scalar from dtype('int64') to dtype('bool') according to the "
                        "rule 'same_kind'");
    REQUIRE_THROWS_WITH(cunp::copyto(cunp::zeros<float>({3}, dev), std::complex<double>(0, 1)),
                        "Cannot cast scalar from dtype('complex64') to dtype('float32') according "
                        "to the rule 'same_kind'");
    REQUIRE_THROWS_WITH(cunp::copyto(cunp::zeros<double>({3}, dev), std::complex<float>(0, 1)),
                        "Cannot cast scalar from dtype('complex128') to dtype('float64') "
                        "according to the rule 'same_kind'");
    REQUIRE_THROWS_WITH(cunp::copyto(cunp::zeros<std::int8_t>({3}, dev), std::complex<float>(0, 1)),
                        "Cannot cast scalar from dtype('complex128') to dtype('int8') according "
                        "to the rule 'same_kind'");
    const auto u8 = cunp::zeros<std::uint8_t>({3}, dev);
    REQUIRE_THROWS_WITH(cunp::copyto(u8, 300), "Python integer 300 out of bounds for uint8");
    REQUIRE_THROWS_WITH(cunp::copyto(u8, -1, cunp::casting::unsafe),
                        "Python integer -1 out of bounds for uint8");
    REQUIRE_THROWS_WITH(cunp::copyto(cunp::zeros<std::int64_t>({1}, dev), UINT64_MAX),
                        "Python integer 18446744073709551615 out of bounds for int64");
    REQUIRE_THROWS_AS(cunp::copyto(u8, 256), cunp::value_error);
    require_values<std::uint8_t>(u8, {0, 0, 0}, {3});  // a refused copyto writes nothing
    // A broadcast view repeats elements: NumPy makes it read-only.
    const auto rep = cunp::broadcast_to(cunp::zeros<double>({3}, dev), {2, 3});
    REQUIRE_THROWS_WITH(cunp::copyto(rep, 1.0),
                        Catch::StartsWith("assignment destination is read-only"));
    REQUIRE_THROWS_AS(cunp::copyto(rep, cunp::ones<double>({3}, dev)), cunp::value_error);
    cunp::copyto(cunp::broadcast_to(cunp::zeros<double>({3}, dev), {1, 3}), 1.0);  // no repeat
    for (const cunp::device other : backends())
      if (!(other == dev))
        REQUIRE_THROWS_AS(cunp::copyto(d24, cunp::ones<double>({4}, other)), cunp::device_error);
  });
}

TEST_CASE("can_cast matches numpy.can_cast for every pair and rule", "[copyto][golden]") {
  using cunp::dtype;
  const std::vector<dtype> types{dtype::bool_,     dtype::int8,      dtype::int16,   dtype::int32,
                                 dtype::int64,     dtype::uint8,     dtype::uint16,  dtype::uint32,
                                 dtype::uint64,    dtype::float16,   dtype::float32, dtype::float64,
                                 dtype::complex64, dtype::complex128};
  const std::vector<std::pair<cunp::casting, std::string>> rules{
      {cunp::casting::no, "no"},
      {cunp::casting::equiv, "equiv"},
      {cunp::casting::safe, "safe"},
      {cunp::casting::same_kind, "same_kind"},
      {cunp::casting::unsafe, "unsafe"}};
  for (const auto& [rule, name] : rules) {
    REQUIRE(cunp::casting_name(rule) == name);
    const auto table = golden<bool>("copyto_can_cast_" + name).to_vector();
    for (std::size_t f = 0; f < types.size(); ++f)
      for (std::size_t t = 0; t < types.size(); ++t) {
        INFO(name << ": " << cunp::dtype_name(types[f]) << " -> " << cunp::dtype_name(types[t]));
        REQUIRE(cunp::can_cast(types[f], types[t], rule) == table[f * types.size() + t]);
      }
  }
  // bfloat16 as ml_dtypes: safe from bool, int8, uint8 and to float32 and wider.
  REQUIRE(cunp::can_cast(dtype::uint8, dtype::bfloat16));
  REQUIRE_FALSE(cunp::can_cast(dtype::int16, dtype::bfloat16));
  REQUIRE(cunp::can_cast(dtype::bfloat16, dtype::float32));
  REQUIRE(cunp::can_cast(dtype::bfloat16, dtype::complex64));
  REQUIRE_FALSE(cunp::can_cast(dtype::bfloat16, dtype::float16));
  REQUIRE_FALSE(cunp::can_cast(dtype::float16, dtype::bfloat16));
  REQUIRE(cunp::can_cast(dtype::float64, dtype::bfloat16, cunp::casting::same_kind));
  REQUIRE_FALSE(cunp::can_cast(dtype::bfloat16, dtype::int64, cunp::casting::same_kind));
  static_assert(cunp::can_cast(dtype::int64, dtype::float64));  // usable at compile time
}

TEST_CASE("may_share_memory compares memory bounds", "[views]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<double>(0, 10, 1, dev);
    using cunp::view;
    REQUIRE(cunp::may_share_memory(a, view(a, slice(none, none, -1))));
    REQUIRE(cunp::may_share_memory(view(a, slice(none, none, 2)), view(a, slice(1, none, 2))));
    REQUIRE_FALSE(cunp::may_share_memory(view(a, slice(none, 5)), view(a, slice(5, none))));
    REQUIRE_FALSE(cunp::may_share_memory(a, a.copy()));
    REQUIRE_FALSE(cunp::may_share_memory(view(a, slice(3, 3)), a));
  });
}

TEST_CASE("cunp's names that CUDA also declares globally work in file-scope using-declarations",
          "[views][names]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<float>(-3, 3, 1, dev);
    const auto b = cunp::eval(a * 0.75f);
    const auto z = cunp::eval(a / 0.0f);
    require_values<float>(cunp::eval(abs(a) + fabs(a)), {6, 4, 2, 0, 2, 4}, {6});
    require_values<float>(min(a), {-3}, {});
    require_values<float>(max(a), {2}, {});
    require_values<float>(sum(a), {-3}, {});
    require_values<bool>(any(a > 1), {true}, {});
    require_values<bool>(cunp::eval(signbit(a)), {true, true, true, false, false, false}, {6});
    require_values<bool>(cunp::eval(isnan(z)), {false, false, false, true, false, false}, {6});
    require_values<bool>(cunp::eval(isinf(z)), {true, true, true, false, true, true}, {6});
    require_values<bool>(cunp::eval(isfinite(z) || isfinite(a)), {true, true, true, true, true, true}, {6});
    require_values<float>(cunp::eval(floor(b)), {-3, -2, -1, 0, 0, 1}, {6});
    require_values<float>(cunp::eval(ceil(b)), {-2, -1, -0.0f, 0, 1, 2}, {6});
    require_values<float>(cunp::eval(trunc(b)), {-2, -1, -0.0f, 0, 0, 1}, {6});
    require_values<float>(cunp::eval(round(b) - rint(b)), {0, 0, 0, 0, 0, 0}, {6});
    require_values<float>(cunp::eval(sqrt(a * a) - hypot(a, 0.0f)), {0, 0, 0, 0, 0, 0}, {6});
    require_values<float>(cunp::eval(fmax(a, 0.5f) + fmin(a, 0.5f)), {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5}, {6});
    require_values<float>(cunp::eval(fmod(a, 2.0f)), {-1, -0.0f, -1, 0, 1, 0}, {6});
    require_values<float>(cunp::eval(copysign(a, -1.0f)), {-3, -2, -1, -0.0f, -1, -2}, {6});
    require_values<float>(cunp::eval(exp(a * 0.0f) + cos(a * 0.0f) + sin(a * 0.0f) + log(exp(a * 0.0f))),
                          {2, 2, 2, 2, 2, 2}, {6});
    // cunp::all is declared at block scope (as README's example does) or spelled in full.
    using cunp::all;
    require_values<float>(cunp::view(a.reshape({2, 3}), all, 1), {-2, 1}, {2});
    require_values<bool>(all(a > -4), {true}, {});
    require_values<bool>(cunp::all(a > -3), {false}, {});
  });
}
