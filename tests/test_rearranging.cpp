// Rearranging and tiling against NumPy (tests/golden/cases_rearranging.py): flip, fliplr, flipud,
// rot90 and diagonal (views of their input), roll, tile and repeat (new arrays), trace, on every
// backend, with views and negative strides as inputs and every error NumPy raises.
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::none;
using cunp::slice;

namespace {

using storage_t = std::shared_ptr<cunp::detail::buffer>;

/// g.check of a function that returns a view: the result must also share base's storage.
template <class T>
void check_view(archive& g, const std::string& name, const storage_t& base,
                fn_ref<ndarray<T>()> f) {
  g.check(name, [&] {
    const auto v = f();
    INFO(name);
    CHECK(v.storage() == base);
    return v;
  }, 0);
}

/// g.check of a function that returns a new array: it must not share base's storage.
template <class T>
void check_copy(archive& g, const std::string& name, const storage_t& base,
                fn_ref<ndarray<T>()> f) {
  g.check(name, [&] {
    const auto c = f();
    INFO(name);
    CHECK(c.storage() != base);
    return c;
  }, 0);
}

template <class T> void rearranging_cases(cunp::device dev) {
  archive g("rearrange_" + std::string(cunp::dtype_name_v<T>));
  const auto in = [&](const char* name) { return g.get<T>(name).to(dev); };
  const auto x0 = in("x0"), x1 = in("x1"), y1 = in("y1"), e1 = in("e1"), x2 = in("x2"),
             y2 = in("y2"), z2 = in("z2"), e2 = in("e2"), x3 = in("x3"), o3 = in("o3");
  (void)g.get<std::int8_t>("i8"), (void)g.get<std::uint8_t>("u8"), (void)y1, (void)y2, (void)z2;
  const auto r4 = g.get<std::int8_t>("r4").to(dev);
  const auto rb = g.get<bool>("rb").to(dev);
  const auto r0d = g.get<std::int64_t>("r0d").to(dev);
  const auto r12 = g.get<std::uint8_t>("r12").to(dev);
  const auto r_u64 = g.get<std::uint64_t>("r_u64").to(dev);
  const auto r_f64 = g.get<double>("r_f64").to(dev);
  const auto r2d = g.get<std::int64_t>("r2d").to(dev);
  // cases_joining.view_sets
  const slice rev_(none, none, -1), rev2(none, none, -2);
  const auto rev = cunp::view(x2, rev_, rev2), t2 = x2.T();
  const auto rev3 = cunp::view(x3, cunp::all, rev_, rev2);
  const auto& b0 = x0.storage();
  const auto& b1 = x1.storage();
  const auto& b2 = x2.storage();
  const auto& b3 = x3.storage();
#define VIEW(NAME, BASE, ...) \
  check_view<value_of<decltype(__VA_ARGS__)>>(g, NAME, BASE, [&] { return __VA_ARGS__; })
#define COPY(NAME, BASE, ...) \
  check_copy<value_of<decltype(__VA_ARGS__)>>(g, NAME, BASE, [&] { return __VA_ARGS__; })
  VIEW("flip_all", b2, cunp::flip(x2));
  VIEW("flip_a0", b2, cunp::flip(x2, 0));
  VIEW("flip_am1", b3, cunp::flip(x3, -1));
  VIEW("flip_axes", b3, cunp::flip(x3, {0, 2}));
  VIEW("flip_axes_neg", b3, cunp::flip(x3, {-1, 0}));
  VIEW("flip_rev", b2, cunp::flip(rev, 1));
  VIEW("flip_t", b2, cunp::flip(t2));
  VIEW("flip_0d", b0, cunp::flip(x0));
  VIEW("flip_empty", e2.storage(), cunp::flip(e2, 0));
  VIEW("flip_size1", o3.storage(), cunp::flip(o3));
  VIEW("flip_err_axis", b2, cunp::flip(x2, 2));
  VIEW("flip_err_repeat", b2, cunp::flip(x2, {0, -2}));
  VIEW("flip_err_0d", b0, cunp::flip(x0, 0));
  VIEW("fliplr_2d", b2, cunp::fliplr(x2));
  VIEW("fliplr_3d", b3, cunp::fliplr(rev3));
  VIEW("fliplr_err", b1, cunp::fliplr(x1));
  VIEW("flipud_1d", b1, cunp::flipud(x1));
  VIEW("flipud_2d", b2, cunp::flipud(rev));
  VIEW("flipud_err", b0, cunp::flipud(x0));
  COPY("roll_flat", b2, cunp::roll(x2, 5));
  COPY("roll_flat_neg", b2, cunp::roll(x2, -7));
  COPY("roll_flat_view", b2, cunp::roll(rev, 3));
  COPY("roll_flat_list", b2, cunp::roll(x2, {1, 2}));
  COPY("roll_a1", b2, cunp::roll(x2, 1, 1));
  COPY("roll_am1", b3, cunp::roll(x3, -5, -1));
  COPY("roll_multi", b3, cunp::roll(x3, {1, 2}, {0, 2}));
  COPY("roll_one_shift", b3, cunp::roll(x3, 1, {0, 1, 2}));
  COPY("roll_one_axis", b1, cunp::roll(x1, {2, 4}, 0));
  COPY("roll_repeat_axes", b2, cunp::roll(x2, {1, 2}, {1, 1}));
  COPY("roll_rev", b3, cunp::roll(rev3, {1, -1}, {1, 2}));
  COPY("roll_big", b1, cunp::roll(x1, (index_t{1} << 62) + 1));
  COPY("roll_min", b1, cunp::roll(x1, std::numeric_limits<index_t>::min()));
  COPY("roll_zero", b2, cunp::roll(x2, 0, 0));
  COPY("roll_empty", e2.storage(), cunp::roll(e2, 3, {0, 1}));
  COPY("roll_0d", b0, cunp::roll(x0, 3));
  COPY("roll_size1", o3.storage(), cunp::roll(o3, 1, 0));
  COPY("roll_err_axis", b2, cunp::roll(x2, 1, 2));
  COPY("roll_err_0d", b0, cunp::roll(x0, 1, 0));
  COPY("roll_err_bcast", b3, cunp::roll(x3, {1, 2, 3}, {0, 1}));
  VIEW("rot_1", b2, cunp::rot90(x2));
  VIEW("rot_2", b2, cunp::rot90(x2, 2));
  VIEW("rot_3", b2, cunp::rot90(x2, 3));
  VIEW("rot_m1", b2, cunp::rot90(x2, -1));
  VIEW("rot_4", b2, cunp::rot90(x2, 4));
  VIEW("rot_3d", b3, cunp::rot90(x3, 1, {2, 0}));
  VIEW("rot_3d_neg", b3, cunp::rot90(x3, -3, {-1, 1}));
  VIEW("rot_rev", b2, cunp::rot90(rev));
  VIEW("rot_empty", e2.storage(), cunp::rot90(e2, 1));
  VIEW("rot_err_1d", b1, cunp::rot90(x1));
  VIEW("rot_err_0d", b0, cunp::rot90(x0));
  VIEW("rot_err_same", b2, cunp::rot90(x2, 1, {1, 1}));
  VIEW("rot_err_wrap", b2, cunp::rot90(x2, 1, {0, -2}));
  VIEW("rot_err_range", b2, cunp::rot90(x2, 1, {0, 3}));
  VIEW("rot_err_len", b2, cunp::rot90(x2, 1, {0, 1, 2}));
  VIEW("diag_2d", b2, cunp::diagonal(x2));
  VIEW("diag_k1", b2, cunp::diagonal(x2, 1));
  VIEW("diag_km2", b2, cunp::diagonal(x2, -2));
  VIEW("diag_far", b2, cunp::diagonal(x2, 7));
  VIEW("diag_far_neg", b2, cunp::diagonal(x2, -3));
  VIEW("diag_3d", b3, cunp::diagonal(x3));
  VIEW("diag_3d_axes", b3, cunp::diagonal(x3, 1, 2, 0));
  VIEW("diag_3d_neg", b3, cunp::diagonal(x3, -1, -1, -2));
  VIEW("diag_rev", b2, cunp::diagonal(rev, 1));
  VIEW("diag_t", b2, cunp::diagonal(t2, -1));
  VIEW("diag_empty", e2.storage(), cunp::diagonal(e2));
  VIEW("diag_err_1d", b1, cunp::diagonal(x1));
  VIEW("diag_err_0d", b0, cunp::diagonal(x0));
  VIEW("diag_err_same", b3, cunp::diagonal(x3, 0, 1, -2));
  VIEW("diag_err_axis1", b3, cunp::diagonal(x3, 0, 3, 1));
  VIEW("diag_err_axis2", b3, cunp::diagonal(x3, 0, 0, -4));
  using D = std::conditional_t<cunp::is_complex_v<T>, cunp::complex128, double>;
  COPY("trace_2d", b2, cunp::trace(x2));
  COPY("trace_k1", b2, cunp::trace(x2, 1));
  COPY("trace_3d", b3, cunp::trace(x3, 0, 1, 2));
  COPY("trace_3d_neg", b3, cunp::trace(x3, -1, -1, 0));
  COPY("trace_rev", b2, cunp::trace(rev));
  COPY("trace_empty", e2.storage(), cunp::trace(e2));
  COPY("trace_far", b2, cunp::trace(x2, 10));
  COPY("trace_dtype", b2, cunp::trace<D>(x2));
  COPY("trace_err_1d", b1, cunp::trace(x1));
  COPY("trace_err_same", b3, cunp::trace(x3, 0, 2, -1));
  COPY("tile_1d", b1, cunp::tile(x1, 2));
  COPY("tile_2d", b2, cunp::tile(x2, {2, 3}));
  COPY("tile_pad_reps", b2, cunp::tile(x2, 2));
  COPY("tile_pad_a", b1, cunp::tile(x1, {2, 1, 2}));
  COPY("tile_0d", b0, cunp::tile(x0, 3));
  COPY("tile_0d_no_reps", b0, cunp::tile(x0, std::vector<index_t>{}));
  COPY("tile_ones", b2, cunp::tile(x2, {1, 1}));
  COPY("tile_zero", b2, cunp::tile(x2, {0, 2}));
  COPY("tile_rev", b2, cunp::tile(rev, {2, 1}));
  COPY("tile_empty", e2.storage(), cunp::tile(e2, {2, 2}));
  COPY("tile_3d", b3, cunp::tile(rev3, {1, 2, 1, 2}));
  COPY("tile_err_neg", b2, cunp::tile(x2, {2, -1}));
  using cunp::repeat;
  COPY("rep_flat", b2, repeat(x2, 2));
  COPY("rep_a0", b2, repeat(x2, 2, 0));
  COPY("rep_am1", b3, repeat(x3, 3, -1));
  COPY("rep_zero", b2, repeat(x2, 0, 1));
  COPY("rep_0d", b0, repeat(x0, 3));
  COPY("rep_0d_axis", b0, repeat(x0, 2, 0));
  COPY("rep_rev", b2, repeat(rev, 2, 1));
  COPY("rep_rev_flat", b2, repeat(rev, 2));
  COPY("rep_neg_empty", e1.storage(), repeat(e1, -1));
  COPY("rep_list_a0", b2, repeat(x2, {1, 0, 2}, 0));
  COPY("rep_list_a1", b2, repeat(x2, {2, 0, 1, 3}, 1));
  COPY("rep_list_am2", b3, repeat(x3, {3, 1, 0}, -2));
  COPY("rep_list_flat", b1, repeat(x1, {1, 2, 0, 3, 1}));
  COPY("rep_list_rev", b3, repeat(rev3, {0, 2, 1}, 1));
  COPY("rep_list_rev_flat", b2, repeat(rev, {1, 0, 2, 3, 0, 1}));
  COPY("rep_list_t", b2, repeat(t2, {2, 1, 0, 1}, 0));
  COPY("rep_list_one", b2, repeat(x2, {2}, 1));
  COPY("rep_list_empty", e2.storage(), repeat(e2, std::vector<index_t>{}, 0));
  COPY("rep_list_zeros", b2, repeat(x2, {0, 0, 0}, 0));
  COPY("rep_list_0d", b0, repeat(x0, {3}));
  COPY("rep_arr_i8", b2, repeat(x2, r4, 1));
  COPY("rep_arr_bool", b2, repeat(x2, rb, 0));
  COPY("rep_arr_0d", b3, repeat(x3, r0d, 2));
  COPY("rep_arr_flat", b2, repeat(x2, r12));
  COPY("rep_err_neg", b2, repeat(x2, -1));
  COPY("rep_err_neg_one", b2, repeat(x2, {-1}, 0));
  COPY("rep_err_neg_list", b2, repeat(x2, {1, -1, 2}, 0));
  COPY("rep_err_len", b2, repeat(x2, {1, 2}, 0));
  COPY("rep_err_len_flat", b2, repeat(x2, {1, 2}));
  COPY("rep_err_axis", b2, repeat(x2, 2, 2));
  COPY("rep_err_0d_axis", b0, repeat(x0, 2, 1));
  COPY("rep_err_u64", b2, repeat(x2, r_u64, 0));
  COPY("rep_err_f64", b2, repeat(x2, r_f64, 0));
  COPY("rep_err_2d", b2, repeat(x2, r2d, 0));
#undef VIEW
#undef COPY
  // No call above, thrown or not, wrote into its inputs.
  const std::vector<std::pair<const char*, ndarray<T>>> inputs{
      {"x0", x0}, {"x1", x1}, {"e1", e1}, {"x2", x2}, {"e2", e2}, {"x3", x3}, {"o3", o3}};
  for (const auto& [name, a] : inputs) {
    INFO("input " << name);
    require_near(a, g.get<T>(name), 0);
  }
  g.require_all_used();
}

}  // namespace

TEMPLATE_TEST_CASE("rearranging and tiling match NumPy", "[rearranging][golden]", bool,
                   std::int8_t, std::uint16_t, std::int64_t, cunp::float16, cunp::bfloat16, float,
                   double, cunp::complex128) {
  on_every_backend([](cunp::device dev) { rearranging_cases<TestType>(dev); });
}

/// The dtypes without golden cases move as bytes of their size like those with: each result
/// equals the int64 one converted.
template <class T> void every_item_size(cunp::device dev) {
  const auto x = cunp::arange<std::int64_t>(-30, 30, 1, dev).reshape({3, 4, 5});
  const auto v = cunp::view(x, slice(none, none, -1), cunp::all, slice(none, none, -2));
  const auto xt = x.astype<T>(), vt = v.astype<T>();
  const auto same = [&](const ndarray<T>& got, const ndarray<std::int64_t>& want) {
    require_equal(got.to(cunp::cpu), want.astype<T>().to(cunp::cpu));
  };
  same(cunp::concatenate({xt, vt}, 2), cunp::concatenate({x, v}, 2));
  same(cunp::stack({vt, vt}, -1), cunp::stack({v, v}, -1));
  same(cunp::flip(vt, {0, 2}), cunp::flip(v, {0, 2}));
  same(cunp::roll(vt, {1, 2}, {0, 2}), cunp::roll(v, {1, 2}, {0, 2}));
  same(cunp::rot90(xt, 3, {1, 2}), cunp::rot90(x, 3, {1, 2}));
  same(cunp::diagonal(vt, 1, 2, 1), cunp::diagonal(v, 1, 2, 1));
  same(cunp::tile(vt, {2, 1, 2}), cunp::tile(v, {2, 1, 2}));
  same(cunp::repeat(vt, 3, 1), cunp::repeat(v, 3, 1));
  same(cunp::repeat(vt, {2, 0, 1}, 2), cunp::repeat(v, {2, 0, 1}, 2));
  same(cunp::repeat(vt, {1, 0, 3, 2}, 1), cunp::repeat(v, {1, 0, 3, 2}, 1));
  const auto parts = cunp::array_split(vt, 2, -1);
  const auto want = cunp::array_split(v, 2, -1);
  REQUIRE(parts.size() == want.size());
  for (std::size_t i = 0; i < parts.size(); ++i) same(parts[i], want[i]);
}

TEMPLATE_TEST_CASE("rearranging moves every dtype as NumPy does", "[rearranging]", std::int16_t,
                   std::int32_t, std::uint8_t, std::uint32_t, std::uint64_t, cunp::complex64) {
  on_every_backend([](cunp::device dev) { every_item_size<TestType>(dev); });
}

TEST_CASE("repeat by per-element counts over long axes and large slabs", "[rearranging]") {
  // Many slabs (the GPU's binary search over the scanned counts) and long slabs (its inner index).
  on_every_backend([](cunp::device dev) {
    const index_t n = 3000;
    const auto a = cunp::arange<std::int32_t>(0, 2 * n, 1, dev).reshape({2, n});
    std::vector<index_t> counts(n);
    index_t total = 0;
    for (index_t i = 0; i < n; ++i) total += counts[i] = (i * 7) % 5;
    const auto r = cunp::repeat(a, counts, 1);
    REQUIRE(r.shape() == shape_t{2, total});
    const auto got = r.to_vector();
    std::vector<std::int32_t> want;
    for (index_t row = 0; row < 2; ++row)
      for (index_t i = 0; i < n; ++i)
        for (index_t k = 0; k < counts[i]; ++k) want.push_back(std::int32_t(row * n + i));
    REQUIRE(got == want);
    const auto b = cunp::arange<double>(0, 3 * 4096, 1, dev).reshape({3, 4096});
    const auto rb = cunp::repeat(b, {2, 0, 1}, 0);
    require_equal(rb.to(cunp::cpu),
                  cunp::concatenate({cunp::view(b, slice(0, 1)), cunp::view(b, slice(0, 1)),
                                     cunp::view(b, slice(2, 3))}).to(cunp::cpu));
  });
}

TEST_CASE("tile and repeat refuse sizes past int64", "[rearranging]") {
  const auto a = cunp::zeros<float>({4}, cunp::cpu);
  constexpr index_t big = std::numeric_limits<index_t>::max() / 2;
  REQUIRE_THROWS_AS(cunp::repeat(a, big), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::repeat(a, {big, big, big, big}), cunp::value_error);
  REQUIRE_THROWS_AS(cunp::tile(a, big), cunp::value_error);
  REQUIRE_THROWS_WITH(cunp::tile(cunp::zeros<float>({0, 4}, cunp::cpu), {1, big}),
                      "Maximum allowed dimension exceeded");
}

TEST_CASE("diagonal is a writable view; roll and tile of one element", "[rearranging]") {
  on_every_backend([](cunp::device dev) {
    const auto m = cunp::zeros<float>({3, 3}, dev);
    cunp::diagonal(m).fill(1.0f);  // NumPy's view is read-only (docs/differences.md)
    require_values(m, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3});
    REQUIRE(cunp::diagonal(m, std::numeric_limits<index_t>::max()).size() == 0);
    REQUIRE(cunp::diagonal(m, std::numeric_limits<index_t>::min()).size() == 0);
    require_values(cunp::roll(cunp::full<float>({1}, 2.f, dev), -1), {2.f}, {1});
  });
}

TEST_CASE("repeat with counts on a GPU waits once, and only when allowed", "[rearranging]") {
  if (!CUNP_HAS_CUDA || !cunp::cuda_available()) return;
  const auto a = cunp::arange<float>(0, 4, 1, cunp::cuda(0));
  const auto counts = cunp::asarray(std::vector<std::int64_t>{1, 2, 0, 1}, {4}, cunp::cuda(0));
  cunp::allow_synchronize(false);
  REQUIRE_THROWS_AS(cunp::repeat(a, counts), cunp::device_error);
  cunp::allow_synchronize(true);
  require_values(cunp::repeat(a, counts), {0.f, 1.f, 1.f, 3.f}, {4});
  REQUIRE_THROWS_AS(cunp::repeat(a, cunp::asarray(std::vector<std::int64_t>{1, 2}, {2}, cunp::cpu)),
                    cunp::device_error);
}
