// Joining and splitting against NumPy (tests/golden/cases_joining.py): concatenate (one type,
// mixed types, axis=None), stack, hstack, vstack, dstack, column_stack, split, array_split,
// hsplit, vsplit, dsplit, on every backend, with views and negative strides as inputs and every
// error NumPy raises. The split family must return views of its input.
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::none;
using cunp::slice;

namespace {

template <class T> using list = std::vector<ndarray<T>>;

/// Requires f() to give NumPy's pieces of case `name`, each a view of base, or NumPy's error.
template <class T>
void check_pieces(archive& g, const std::string& name, const ndarray<T>& base,
                  fn_ref<list<T>()> f) {
  INFO(name);
  if (g.contains(name + "__error")) {
    const auto bytes = g.get<std::uint8_t>(name + "__error").to_vector();
    require_numpy_error(f, std::string(bytes.begin(), bytes.end()));
    return;
  }
  const list<T> pieces = f();
  REQUIRE(static_cast<std::int64_t>(pieces.size()) == g.get<std::int64_t>(name + "__n").item());
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    INFO("piece " << k);
    CHECK(pieces[k].storage() == base.storage());
    require_near(pieces[k], g.get<T>(name + "__" + std::to_string(k)), 0);
  }
}

template <class T> void joining_cases(cunp::device dev) {
  archive g("join_" + std::string(cunp::dtype_name_v<T>));
  const auto in = [&](const char* name) { return g.get<T>(name).to(dev); };
  const auto x0 = in("x0"), x1 = in("x1"), y1 = in("y1"), e1 = in("e1"), x2 = in("x2"),
             y2 = in("y2"), z2 = in("z2"), e2 = in("e2"), x3 = in("x3"), o3 = in("o3");
  const auto i8 = g.get<std::int8_t>("i8").to(dev);
  const auto u8 = g.get<std::uint8_t>("u8").to(dev);
  // cases_joining.view_sets
  const slice rev_(none, none, -1), rev2(none, none, -2);
  const auto rev = cunp::view(x2, rev_, rev2), t2 = x2.T(),
             rev3 = cunp::view(x3, cunp::all, rev_, rev2), col = cunp::view(x2, cunp::all, 1),
             row = cunp::view(x2, slice(1, 2));
  const auto flip0 = [&](const ndarray<T>& a) { return cunp::view(a, rev_); };
  using cunp::concatenate;
#define CASE(NAME, ...) g.check(NAME, [&] { return __VA_ARGS__; }, 0)
  CASE("cat_a0", concatenate({x2, z2}));
  CASE("cat_a1", concatenate({x2, y2}, 1));
  CASE("cat_am1", concatenate(list<T>{y2, x2, y2}, -1));
  CASE("cat_am2", concatenate({z2, x2}, -2));
  CASE("cat_rev", concatenate({rev, y2, rev}, 1));
  CASE("cat_t", concatenate({t2, flip0(t2)}, 1));
  CASE("cat_3d", concatenate({x3, cunp::view(rev3, cunp::all, cunp::all, slice(none, 1))}, 2));
  CASE("cat_empty_first", concatenate({e2, x2, e2}));
  CASE("cat_empty_only", concatenate({e2, e2}, 1));
  CASE("cat_one", concatenate({rev}));
  CASE("cat_1d", concatenate({x1, y1, e1, cunp::view(x1, rev2)}));
  CASE("cat_rows", concatenate({row, row, cunp::view(x2, slice(2, 3))}));
  CASE("cat_none", concatenate({x2, x1, x0}, none));
  CASE("cat_none_views", concatenate(list<T>{rev, t2, rev3, e2}, none));
  CASE("cat_none_0d", concatenate({x0, x0}, none));
  CASE("cat_err_size", concatenate({x2, y2}));
  CASE("cat_err_size3",
       concatenate({x3, cunp::view(x3, cunp::all, slice(none, 2), slice(none, 3))}, 1));
  CASE("cat_err_ndim", concatenate({x2, x1}));
  CASE("cat_err_ndim2", concatenate({x1, x1, x2}));
  CASE("cat_err_0d", concatenate({x0, x0}));
  CASE("cat_err_axis", concatenate({x2, x2}, 2));
  CASE("cat_err_axis_neg", concatenate({x2, x2}, -3));
  CASE("cat_err_list", concatenate(list<T>{}));
  CASE("cat_err_list_none", concatenate(list<T>{}, none));
  CASE("cat_mixed_i8", concatenate(std::tuple{x2, i8}, 1));
  CASE("cat_mixed_3", concatenate(std::tuple{u8, x2, i8}));
  CASE("cat_mixed_none", concatenate(std::tuple{i8, x1, x0}, none));
  CASE("stack_a0", cunp::stack({x2, cunp::view(x2, rev_, rev_), x2}));
  CASE("stack_a1", cunp::stack({x2, flip0(x2)}, 1));
  CASE("stack_am1", cunp::stack({x1, flip0(x1)}, -1));
  CASE("stack_0d", cunp::stack({x0, x0, x0}));
  CASE("stack_empty", cunp::stack({e2, e2}, 2));
  CASE("stack_views", cunp::stack({rev, cunp::view(t2, slice(none, 2)).T()}, -2));
  CASE("stack_err_shape", cunp::stack({x2, z2}));
  CASE("stack_err_ndim", cunp::stack({x1, x2}));
  CASE("stack_err_axis", cunp::stack({x2, x2}, 3));
  CASE("stack_err_axis_neg", cunp::stack({x2, x2}, -4));
  CASE("stack_err_list", cunp::stack(list<T>{}));
  CASE("hstack_1d", cunp::hstack({x1, y1, e1}));
  CASE("hstack_2d", cunp::hstack({x2, y2, rev}));
  CASE("hstack_0d", cunp::hstack({x0, x0}));
  CASE("hstack_err", cunp::hstack({x2, z2}));
  CASE("hstack_err_list", cunp::hstack(list<T>{}));
  CASE("vstack_2d", cunp::vstack({x2, z2, e2}));
  CASE("vstack_1d", cunp::vstack({x1, flip0(x1)}));
  CASE("vstack_0d", cunp::vstack({x0, x0}));
  CASE("vstack_err", cunp::vstack({x1, y1}));
  CASE("dstack_2d", cunp::dstack({x2, flip0(x2)}));
  CASE("dstack_1d", cunp::dstack({x1, x1}));
  CASE("dstack_0d", cunp::dstack({x0, x0}));
  CASE("dstack_3d", cunp::dstack({x3, rev3}));
  CASE("dstack_err", cunp::dstack({x2, z2}));
  CASE("column_1d", cunp::column_stack({x1, flip0(x1)}));
  CASE("column_0d", cunp::column_stack({x0, x0}));
  CASE("column_mixed", cunp::column_stack({y2, col, rev}));
  CASE("column_err", cunp::column_stack({x1, y1}));
  CASE("column_err_list", cunp::column_stack(list<T>{}));
#undef CASE
#define PIECES(NAME, BASE, ...) check_pieces<T>(g, NAME, BASE, [&] { return __VA_ARGS__; })
  PIECES("split_3d_a2", x3, cunp::split(x3, 2, 2));
  PIECES("split_3d_a1", x3, cunp::split(x3, 3, 1));
  PIECES("split_3d_am2", x3, cunp::split(x3, 3, -2));
  PIECES("split_idx", x1, cunp::split(x1, {2, -1, 10, 1}));
  PIECES("split_idx_a2", x3, cunp::split(x3, {1}, 2));
  PIECES("split_idx_none", x2, cunp::split(x2, std::vector<index_t>{}));
  PIECES("split_empty", e1, cunp::split(e1, 3));
  PIECES("split_empty_a0", e2, cunp::split(e2, 2));
  PIECES("split_size1", x2, cunp::split(x2, 4, 1));
  PIECES("split_views", x2, cunp::split(rev, 2, 1));
  PIECES("split_err_neg", x2, cunp::split(x2, -3));
  PIECES("split_err_equal", x1, cunp::split(x1, 2));
  PIECES("split_err_equal_neg", x1, cunp::split(x1, -2));
  PIECES("split_err_sections", x1, cunp::split(x1, -1));
  PIECES("split_err_0d", x0, cunp::split(x0, 1));
  PIECES("split_err_axis", x2, cunp::split(x2, 2, 2));
  PIECES("split_err_axis_neg", x2, cunp::split(x2, {1}, -3));
  PIECES("asplit_5_3", x1, cunp::array_split(x1, 3));
  PIECES("asplit_more", x1, cunp::array_split(x1, 7));
  PIECES("asplit_am1", x3, cunp::array_split(x3, 3, -1));
  PIECES("asplit_idx", x1, cunp::array_split(x1, {3, -2, 20, 1}));
  PIECES("asplit_views", x3, cunp::array_split(rev3, 2, 1));
  PIECES("asplit_err_zero", x1, cunp::array_split(x1, 0));
  PIECES("asplit_err_0d", x0, cunp::array_split(x0, 1));
  PIECES("hsplit_2d", x2, cunp::hsplit(x2, 2));
  PIECES("hsplit_1d", x1, cunp::hsplit(x1, {2}));
  PIECES("hsplit_err_0d", x0, cunp::hsplit(x0, 1));
  PIECES("vsplit_2d", x2, cunp::vsplit(x2, {1, 2}));
  PIECES("vsplit_err_1d", x1, cunp::vsplit(x1, 1));
  PIECES("dsplit_3d", x3, cunp::dsplit(x3, 2));
  PIECES("dsplit_err_2d", x2, cunp::dsplit(x2, 1));
#undef PIECES
  // No call above, thrown or not, wrote into its inputs.
  const std::vector<std::pair<const char*, ndarray<T>>> inputs{
      {"x0", x0}, {"x1", x1}, {"y1", y1}, {"e1", e1}, {"x2", x2},
      {"y2", y2}, {"z2", z2}, {"e2", e2}, {"x3", x3}, {"o3", o3}};
  for (const auto& [name, a] : inputs) {
    INFO("input " << name);
    require_near(a, g.get<T>(name), 0);
  }
  require_near(i8, g.get<std::int8_t>("i8"), 0);
  require_near(u8, g.get<std::uint8_t>("u8"), 0);
  g.require_all_used();
}

}  // namespace

TEMPLATE_TEST_CASE("joining and splitting match NumPy", "[joining][golden]", bool, std::int8_t,
                   std::uint16_t, std::int64_t, cunp::float16, cunp::bfloat16, float, double,
                   cunp::complex128) {
  on_every_backend([](cunp::device dev) { joining_cases<TestType>(dev); });
}

TEST_CASE("concatenate and the stacks return new arrays", "[joining]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<float>(0, 6, 1, dev).reshape({2, 3});
    const auto c = cunp::concatenate({a});
    REQUIRE(c.storage() != a.storage());
    REQUIRE(c.device() == dev);
    REQUIRE(c.is_contiguous());
    REQUIRE(cunp::stack({a}).storage() != a.storage());
    REQUIRE(cunp::hstack({a}).storage() != a.storage());
    // Size-0 pieces of a split are still views of the input.
    for (const auto& p : cunp::array_split(a, 5, 1)) REQUIRE(p.storage() == a.storage());
  });
}

TEST_CASE("joining refuses arrays on different devices", "[joining]") {
  if (!cunp::cuda_available() || !CUNP_HAS_CUDA) return;
  const auto a = cunp::zeros<float>({2, 3}, cunp::cpu);
  const auto b = cunp::zeros<float>({2, 3}, cunp::cuda(0));
  REQUIRE_THROWS_AS(cunp::concatenate({a, b}), cunp::device_error);
  REQUIRE_THROWS_AS(cunp::concatenate(std::tuple{a, b.astype<double>()}), cunp::device_error);
  REQUIRE_THROWS_AS(cunp::stack({a, b}), cunp::device_error);
}

TEST_CASE("split of zero sections names the problem", "[joining]") {
  // NumPy raises ZeroDivisionError (integer modulo by zero) here; cunp gives array_split's text.
  const auto a = cunp::zeros<double>({4}, cunp::cpu);
  REQUIRE_THROWS_WITH(cunp::split(a, 0), "number sections must be larger than 0.");
}
