// Boolean selection (cunp/selection.hpp) against NumPy's outputs (golden/cases_selection.py):
// a[m], np.putmask, a[m] = v, nonzero, argwhere, flatnonzero, compress, extract, select, isin and
// digitize for every dtype, strided and expression masks, 0-d and empty arrays, and every error
// with NumPy's text (operands unchanged). Then GPU against cpu on arrays of many tiles, and the
// waits: none where the size does not depend on the values.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

const slice reverse{none, none, -1};

/// nonzero's arrays stacked, one row per axis (np.stack(np.nonzero(x))), on the cpu.
ndarray<std::int64_t> stacked(const std::vector<ndarray<std::int64_t>>& rows) {
  const index_t n = rows.empty() ? 0 : rows[0].size();
  std::vector<std::int64_t> v;
  for (const auto& r : rows) {
    REQUIRE(r.size() == n);
    const auto h = r.to_vector();
    v.insert(v.end(), h.begin(), h.end());
  }
  return cunp::asarray(v, {static_cast<index_t>(rows.size()), n}, cpu);
}

/// A golden archive read on one device: every result must be on it.
class golden_cases {
 public:
  golden_cases(const std::string& archive, cunp::device dev) : arc_(archive), dev_(dev) {}
  template <class T>
  ndarray<T> in(const std::string& name) {
    return arc_.get<T>(name).to(dev_);
  }
  /// f()'s result (or its error) against member `name`.
  template <class F>
  void check(const std::string& name, F&& f) {
    check_on<std::remove_cvref_t<decltype(f())>>(name, f);
  }
  /// op(b) on a copy b of x: b against member `name`, or NumPy's error with b unchanged.
  template <class T>
  void check_assign(const std::string& name, const ndarray<T>& x,
                    fn_ref<void(const ndarray<std::type_identity_t<T>>&)> op) {
    const ndarray<T> b = x.copy();
    check(name, [&] {
      op(b);
      return b;
    });
    if (arc_.contains(name + "__error")) require_equal(b.to(cpu), x.to(cpu));
  }
  [[nodiscard]] cunp::device dev() const { return dev_; }
  void require_all_used() const { arc_.require_all_used(); }

 private:
  // check's body, one copy per result type rather than one per call site (compile time).
  template <class R> void check_on(const std::string& name, fn_ref<R()> f) {
    arc_.check(
        name,
        [&] {
          auto r = f();
          REQUIRE(r.device() == dev_);
          return r;
        },
        0);
  }

  archive arc_;
  cunp::device dev_;
};

ndarray<bool> bools(std::vector<bool> v, cunp::device dev) {
  const auto n = static_cast<index_t>(v.size());
  return cunp::asarray(v, {n}, dev);
}

template <class T>
void selection_matches_numpy() {
  const std::string d = dname<T>();
  on_every_backend([&](cunp::device dev) {
    golden_cases g("selection_" + d, dev);
    const auto in = [&](const std::string& n) { return g.in<T>(d + "_" + n); };
    const auto mk = [&](const std::string& n) { return g.in<bool>(d + "_" + n); };
    const auto check = [&](const std::string& c, auto f) { g.check(d + "_" + c, f); };
    const auto x1 = in("x1"), x2 = in("x2"), x3 = in("x3"), a0 = in("a0");
    const auto m1 = mk("m1"), m2 = mk("m2"), m2s = mk("m2s"), m3 = mk("m3");
    const auto k2 = g.in<std::int8_t>(d + "_k2"), k34 = g.in<std::int8_t>(d + "_k34");
    const auto m2c = bools({true, false, true, true, false, true}, dev);
    const auto m3a = bools({true, false, true}, dev);
    const auto t0 = cunp::full<bool>({}, true, dev), f0 = cunp::full<bool>({}, false, dev);
    const auto rev = cunp::view(x2, reverse, slice(none, none, -2));
    const ndarray<T> x2_before = x2.copy();

    // a[m]
    check("mask_full1", [&] { return cunp::mask(x1, m1); });
    check("mask_full2", [&] { return cunp::mask(x2, m2); });
    check("mask_rows2", [&] { return cunp::mask(x2, m2c); });
    check("mask_lead3", [&] { return cunp::mask(x3, m3); });
    check("mask_rows3", [&] { return cunp::mask(x3, m3a); });
    check("mask_false2", [&] { return cunp::mask(x2, cunp::zeros<bool>({6, 7}, dev)); });
    check("mask_true2", [&] { return cunp::mask(x2, cunp::ones<bool>({6, 7}, dev)); });
    check("mask_rev", [&] { return cunp::mask(rev, m2s); });
    check("mask_revmask", [&] { return cunp::mask(x2, cunp::view(m2, reverse)); });
    check("mask_expr", [&] { return cunp::mask(x2, k2 > 1); });
    check("mask_expr_lead3", [&] { return cunp::mask(x3, k34 > 0); });
    check("mask_0d_true", [&] { return cunp::mask(a0, t0); });
    check("mask_0d_false", [&] { return cunp::mask(a0, f0); });
    check("mask_1d_0dtrue", [&] { return cunp::mask(x1, t0); });
    check("mask_1d_0dfalse", [&] { return cunp::mask(x1, f0); });
    check("mask_empty_rows",
          [&] { return cunp::mask(cunp::view(x2, slice(0, 0)), cunp::zeros<bool>({0}, dev)); });
    check("mask_empty_inner",
          [&] { return cunp::mask(cunp::view(x2, cunp::all, slice(0, 0)), m2c); });

    // nonzero and its relatives
    check("nz1", [&] { return stacked(cunp::nonzero(x1)).to(dev); });
    check("nz2", [&] { return stacked(cunp::nonzero(x2)).to(dev); });
    check("nz3", [&] { return stacked(cunp::nonzero(x3)).to(dev); });
    check("nz_rev", [&] { return stacked(cunp::nonzero(rev)).to(dev); });
    check("nz_0d", [&] { return stacked(cunp::nonzero(a0)).to(dev); });
    check("argw2", [&] { return cunp::argwhere(x2); });
    check("argw3", [&] { return cunp::argwhere(x3); });
    check("argw_rev", [&] { return cunp::argwhere(rev); });
    check("argw_0d", [&] { return cunp::argwhere(a0); });
    check("flatnz2", [&] { return cunp::flatnonzero(x2); });
    check("flatnz_rev", [&] { return cunp::flatnonzero(rev); });
    check("flatnz_0d", [&] { return cunp::flatnonzero(a0); });

    // compress and extract
    const auto c6 = cunp::asarray<std::int8_t>({2, 0, -1, 0, 0, 1}, {6}, dev);
    const auto c4 = bools({true, false, false, true}, dev);
    const auto c8 = cunp::asarray<std::int8_t>({1, 0, 1, 0, 0, 1, 0, 0}, {8}, dev);
    const auto cf = g.in<double>(d + "_cf");
    check("cmp_a0", [&] { return cunp::compress(c6, x2, 0); });
    check("cmp_short_a1", [&] { return cunp::compress(c4, x2, 1); });
    check("cmp_neg", [&] { return cunp::compress(c4, x3, -2); });
    check("cmp_last", [&] { return cunp::compress(cf, x3, -1); });
    check("cmp_none", [&] { return cunp::compress(c8, x2); });
    check("cmp_long_ok", [&] { return cunp::compress(c8, x2, 0); });
    check("cmp_long_bad", [&] { return cunp::compress(c8, cunp::view(x2, slice(0, 4)), 0); });
    check("cmp_rev", [&] { return cunp::compress(cf, rev, 1); });
    check("cmp_0d", [&] { return cunp::compress(bools({true}, dev), a0, 0); });
    check("cmp_0d_none", [&] { return cunp::compress(bools({false}, dev), a0); });
    check("ext2", [&] { return cunp::extract(k2, x2); });
    check("ext_short", [&] { return cunp::extract(m3, x2); });
    check("ext_long_bad", [&] { return cunp::extract(m2, cunp::view(x3, slice(0, 2))); });
    check("ext_rev", [&] { return cunp::extract(m2s, rev); });

    // np.putmask
    const auto v3 = in("v3"), v60 = in("v60");
    const auto vb = bools({true, false, true}, dev);
    const auto assign = [&](const std::string& c, const ndarray<T>& x, auto op) {
      g.check_assign(d + "_" + c, x, op);
    };
    assign("pm_short", x2, [&](const ndarray<T>& b) { cunp::put_mask(b, m2, v3); });
    assign("pm_long", x2, [&](const ndarray<T>& b) { cunp::put_mask(b, m2, v60); });
    assign("pm_shape", x2, [&](const ndarray<T>& b) { cunp::put_mask(b, m2.reshape({7, 6}), v3); });
    assign("pm_intmask", x2, [&](const ndarray<T>& b) { cunp::put_mask(b, k2, v3); });
    assign("pm_scalar", x2, [&](const ndarray<T>& b) { cunp::put_mask(b, m2, 1); });
    assign("pm_bool_values", x2, [&](const ndarray<T>& b) { cunp::put_mask(b, m2, vb); });
    assign("pm_rev", x2, [&](const ndarray<T>& b) {
      cunp::put_mask(cunp::view(b, reverse, slice(none, none, -2)), m2s, v3);
    });
    assign("pm_3d", x3, [&](const ndarray<T>& b) { cunp::put_mask(b, x3 != 0, v60); });

    // a[m] = v
    const auto vc = in("vc"), vr = in("vr"), vrow = in("vrow"), vcol = in("vcol");
    const auto v35 = in("v35"), ve = in("ve"), vs = in("vs");
    assign("as_full", x2, [&](const ndarray<T>& b) { cunp::assign_mask(b, m2, vc); });
    assign("as_full_one", x2,
           [&](const ndarray<T>& b) { cunp::assign_mask(b, m2, cunp::view(vc, slice(0, 1))); });
    assign("as_full_scalar", x2, [&](const ndarray<T>& b) { cunp::assign_mask(b, m2, 1); });
    assign("as_rows_row", x2, [&](const ndarray<T>& b) { cunp::assign_mask(b, m2c, vrow); });
    assign("as_rows_full", x2, [&](const ndarray<T>& b) { cunp::assign_mask(b, m2c, vr); });
    assign("as_rows_col", x2, [&](const ndarray<T>& b) { cunp::assign_mask(b, m2c, vcol); });
    assign("as_lead3", x3, [&](const ndarray<T>& b) { cunp::assign_mask(b, m3, v35); });
    assign("as_lead3_row", x3,
           [&](const ndarray<T>& b) { cunp::assign_mask(b, m3, cunp::view(v35, 0)); });
    assign("as_expr", x2, [&](const ndarray<T>& b) { cunp::assign_mask(b, k2 > 1, ve); });
    assign("as_expr_scalar", x2, [&](const ndarray<T>& b) { cunp::assign_mask(b, k2 > 1, 1); });
    assign("as_rev", x2, [&](const ndarray<T>& b) {
      cunp::assign_mask(cunp::view(b, reverse, slice(none, none, -2)), m2s, vs);
    });
    assign("as_self", x2,
           [&](const ndarray<T>& b) { cunp::assign_mask(b, m2c, cunp::view(b, slice(0, 4))); });

    // isin
    const auto t = in("t");
    check("isin", [&] { return cunp::isin(x2, t); });
    check("isin_inv", [&] { return cunp::isin(x2, t, false, true); });
    check("isin_rev", [&] { return cunp::isin(rev, cunp::view(t, reverse)); });
    check("isin_0d", [&] { return cunp::isin(a0, t); });
    check("isin_empty", [&] { return cunp::isin(x2, cunp::view(t, slice(0, 0)), false, true); });

    if constexpr (!cunp::is_complex_v<T>) {
      const auto bins = in("bins");
      const auto down = cunp::view(bins, reverse);
      check("dig", [&] { return cunp::digitize(x2, bins); });
      check("dig_right", [&] { return cunp::digitize(x2, bins, true); });
      check("dig_dec", [&] { return cunp::digitize(x2, down); });
      check("dig_dec_right", [&] { return cunp::digitize(rev, down, true); });
      check("dig_0d", [&] { return cunp::digitize(a0, bins); });
    }

    // select
    check("sel", [&] {
      return cunp::select(std::vector<ndarray<bool>>{m2, cunp::view(m2, 0), ndarray<bool>(k2 > 0)},
                          std::vector<ndarray<T>>{x2, cunp::view(x2, 0), cunp::view(rev, 0, 0)}, 0);
    });
    check("sel_default", [&] {
      return cunp::select(std::vector<ndarray<bool>>{m2, ndarray<bool>(k2 > 0)},
                          std::vector<ndarray<T>>{x2, cunp::view(x2, reverse)}, cunp::view(x2, 1));
    });

    require_equal(x2.to(cpu), x2_before.to(cpu));  // no call changed its input
    g.require_all_used();
  });
}

}  // namespace

#if CUNP_IN_PART(0)
TEMPLATE_TEST_CASE("selection matches NumPy", "[selection][golden]", bool, std::int8_t,
                   std::int16_t, std::int32_t, std::int64_t) {
  selection_matches_numpy<TestType>();
}
#endif
#if CUNP_IN_PART(1)
TEMPLATE_TEST_CASE("selection matches NumPy", "[selection][golden]", std::uint8_t, std::uint16_t,
                   std::uint32_t, std::uint64_t, cunp::float16) {
  selection_matches_numpy<TestType>();
}
#endif
#if CUNP_IN_PART(2)
TEMPLATE_TEST_CASE("selection matches NumPy", "[selection][golden]", float, double, cunp::complex64,
                   cunp::complex128) {
  selection_matches_numpy<TestType>();
}
#endif

#if CUNP_IN_PART(3)
TEST_CASE("isin, digitize and select across dtypes match NumPy", "[selection][golden]") {
  on_every_backend([](cunp::device dev) {
    golden_cases g("selection_mixed", dev);
    const auto i8 = g.in<std::int8_t>("mixed_i8");
    const auto i64 = g.in<std::int64_t>("mixed_i64");
    const auto f16 = g.in<cunp::float16>("mixed_f16");
    const auto f64 = g.in<double>("mixed_f64");
    const auto u8 = g.in<std::uint8_t>("mixed_u8");
    const auto b = g.in<bool>("mixed_b");
    const auto i32 = g.in<std::int32_t>("mixed_i32");
    const auto c = g.in<cunp::complex128>("mixed_c");
    g.check("mixed_isin_i8_i64", [&] { return cunp::isin(i8, i64); });
    g.check("mixed_isin_f16_f64", [&] { return cunp::isin(f16, f64); });
    g.check("mixed_isin_i32_u8", [&] { return cunp::isin(i32, u8); });
    g.check("mixed_isin_b_i32", [&] { return cunp::isin(b, i32); });
    g.check("mixed_isin_c_f64", [&] { return cunp::isin(c, f64); });
    g.check("mixed_isin_f64_c", [&] { return cunp::isin(f64, c, false, true); });

    const auto x = g.in<double>("mixed_dx");
    const auto b_nan = g.in<double>("mixed_b_nan"), b_dec_nan = g.in<double>("mixed_b_dec_nan");
    const auto b_same = g.in<double>("mixed_b_same");
    const auto xi = g.in<std::int16_t>("mixed_xi");
    const auto bf = g.in<float>("mixed_bf");
    const auto b_big = g.in<std::uint64_t>("mixed_b_big"),
               x_big = g.in<std::uint64_t>("mixed_x_big");
    g.check("mixed_dig_nan", [&] { return cunp::digitize(x, b_nan); });
    g.check("mixed_dig_nan_right", [&] { return cunp::digitize(x, b_nan, true); });
    g.check("mixed_dig_dec_nan", [&] { return cunp::digitize(x, b_dec_nan); });
    g.check("mixed_dig_same", [&] { return cunp::digitize(x, b_same); });
    g.check("mixed_dig_same_right", [&] { return cunp::digitize(x, b_same, true); });
    g.check("mixed_dig_int", [&] { return cunp::digitize(xi, bf); });
    g.check("mixed_dig_int_right",
            [&] { return cunp::digitize(xi, cunp::view(bf, reverse), true); });
    g.check("mixed_dig_big", [&] { return cunp::digitize(x_big, b_big); });
    g.check("mixed_dig_empty_bins", [&] { return cunp::digitize(x, cunp::view(x, slice(0, 0))); });
    g.check("mixed_dig_bad", [&] {
      return cunp::digitize(x, cunp::asarray<double>({1.0, 3.0, 2.0}, {3}, dev));
    });
    const double nan = std::numeric_limits<double>::quiet_NaN();
    g.check("mixed_dig_bad_nan", [&] {
      return cunp::digitize(x, cunp::asarray<double>({nan, 1.0, 2.0}, {3}, dev));
    });
    g.check("mixed_dig_complex_x", [&] { return cunp::digitize(c, bf); });
    g.check("mixed_dig_complex_bins", [&] { return cunp::digitize(x, c); });
    g.check("mixed_dig_2d_bins", [&] { return cunp::digitize(x, i32); });
    g.check("mixed_dig_0d_bins",
            [&] { return cunp::digitize(x, cunp::full<double>({}, 1.0, dev)); });

    const auto f = g.in<float>("mixed_sel_f");
    const ndarray<bool> cnd = f > 0.0f;
    using bools_t = std::vector<ndarray<bool>>;
    using floats_t = std::vector<ndarray<float>>;
    g.check("mixed_sel_i8_f32", [&] {
      return cunp::select(bools_t{cnd, f < -1.0f},
                          std::vector<ndarray<std::int8_t>>{i8, cunp::view(i8, cunp::all, reverse)},
                          1.5);
    });
    g.check("mixed_sel_wrap",
            [&] { return cunp::select(bools_t{cnd}, std::vector<ndarray<std::int8_t>>{i8}, 300); });
    g.check("mixed_sel_bool", [&] { return cunp::select(bools_t{cnd}, bools_t{cnd}); });
    g.check("mixed_sel_f32_f64", [&] {
      return cunp::select(bools_t{cnd}, floats_t{f}, cunp::full<double>({}, 0.25, dev));
    });
    g.check("mixed_sel_0d", [&] {
      return cunp::select(bools_t{cunp::full<bool>({}, true, dev)},
                          std::vector<ndarray<double>>{cunp::full<double>({}, 3.0, dev)});
    });
    g.check("mixed_sel_len", [&] { return cunp::select(bools_t{cnd, cnd}, floats_t{f}); });
    g.check("mixed_sel_empty", [&] { return cunp::select(bools_t{}, floats_t{}); });
    g.check("mixed_sel_cond_shapes", [&] {
      return cunp::select(bools_t{cnd, cunp::view(cnd, 0, slice(0, 2))}, floats_t{f, f});
    });
    g.check("mixed_sel_choice_shapes", [&] {
      return cunp::select(bools_t{cnd}, floats_t{cunp::view(f, cunp::all, slice(0, 2))});
    });
    g.check("mixed_sel_default_shape",
            [&] { return cunp::select(bools_t{cnd}, floats_t{f}, cunp::view(f, 0, slice(0, 2))); });
    g.check("mixed_sel_not_bool",
            [&] { return cunp::select(std::vector<ndarray<std::int8_t>>{i8}, floats_t{f}); });
    g.require_all_used();
  });
}

TEST_CASE("selection errors have NumPy's text and change no operand", "[selection][golden]") {
  on_every_backend([](cunp::device dev) {
    golden_cases g("selection_errors", dev);
    using cunp::all;
    const auto x2 = g.in<double>("err_x2");
    const auto x1 = cunp::arange<double>(0, 5, 1, dev);
    const auto ones = [&](const shape_t& s) { return cunp::ones<bool>(s, dev); };
    const auto col = cunp::view(x2, all, 0);
    g.check("err_mask_axis0", [&] { return cunp::mask(x2, ones({5})); });
    g.check("err_mask_axis1", [&] { return cunp::mask(x2, ones({6, 6})); });
    g.check("err_mask_dims", [&] { return cunp::mask(x1, ones({5, 1})); });
    const auto assign = [&](const std::string& name, const auto& x, auto op) {
      g.check_assign(name, x, op);
    };
    using f64 = const ndarray<double>&;
    assign("err_as_axis1", x2, [&](f64 b) { cunp::assign_mask(b, ones({6, 8}), 1); });
    assign("err_as_2d", x2, [&](f64 b) {
      cunp::assign_mask(b, x2 > 3.0, cunp::view(x2, slice(0, 2), slice(0, 2)));
    });
    assign("err_as_count", x2, [&](f64 b) { cunp::assign_mask(b, x2 > 3.0, x1); });
    assign("err_as_count0", x2, [&](f64 b) { cunp::assign_mask(b, x2 > 100.0, x1); });
    assign("err_as_rows", x2, [&](f64 b) { cunp::assign_mask(b, col > 10.0, x1); });
    assign("err_as_rows_count", x2, [&](f64 b) {
      cunp::assign_mask(b, col > 10.0, cunp::ones<double>({2, 7}, dev));
    });
    assign("err_as_rows_dims", x2, [&](f64 b) {
      cunp::assign_mask(b, col > 10.0, cunp::ones<double>({2, 4, 7}, dev));
    });
    const auto u8 = x2.astype<std::uint8_t>();
    using u8_t = const ndarray<std::uint8_t>&;
    assign("err_as_overflow", u8, [&](u8_t b) { cunp::assign_mask(b, x2 > 3.0, 300); });
    assign("err_pm_size", x2, [&](f64 b) { cunp::put_mask(b, ones({41}), x1); });
    assign("err_pm_cast", x2.astype<std::int64_t>(),
           [&](const ndarray<std::int64_t>& b) { cunp::put_mask(b, x2 > 3.0, x1); });
    assign("err_pm_cast_f16", x2.astype<cunp::float16>(), [&](const ndarray<cunp::float16>& b) {
      cunp::put_mask(b, x2 > 3.0, x1.astype<float>());
    });
    assign("err_pm_overflow", u8, [&](u8_t b) { cunp::put_mask(b, x2 > 3.0, 300); });
    g.check("err_pm_readonly", [&] {
      const auto ro = cunp::broadcast_to(x1, {3, 5});
      cunp::put_mask(ro, ones({3, 5}), 1.0);
      return ro;
    });
    g.check("err_nz_0d", [&] { return stacked(cunp::nonzero(cunp::full<double>({}, 1.0, dev))); });
    g.check("err_cmp_2d", [&] { return cunp::compress(x2 > 3.0, x2); });
    g.check("err_cmp_0d_cond", [&] { return cunp::compress(cunp::full<bool>({}, true, dev), x2); });
    g.check("err_cmp_axis", [&] { return cunp::compress(x1 > 1.0, x2, 2); });
    g.check("err_cmp_0d_axis",
            [&] { return cunp::compress(x1 > 1.0, cunp::full<double>({}, 1.0, dev), 1); });
    const auto empty_cols = cunp::view(x2, all, slice(0, 0));
    g.check("err_cmp_empty_axis", [&] { return cunp::compress(x1 > 1.0, empty_cols, 1); });
    g.check("err_cmp_empty_ok", [&] { return cunp::compress(x1 > 10.0, empty_cols, 1); });
    g.check("err_cmp_long", [&] {
      return cunp::compress(cunp::arange<std::int64_t>(0, 10, 1, dev) % 4 == 3, x2, 0);
    });
    g.check("err_ext_long", [&] { return cunp::extract(cunp::ones<double>({7, 7}, dev), x2); });
    g.check("err_ext_0d", [&] {
      return cunp::extract(cunp::full<std::int64_t>({}, 5, dev), cunp::full<double>({}, 2.0, dev));
    });
    g.require_all_used();
  });
}
#endif

// ---------------------------------------------------------------------------------------------
// Beyond the golden tables

#if CUNP_IN_PART(3)
namespace {
/// Deterministic data: small integers (with zeros) converted to T; flags true with probability
/// `density`.
template <class T>
ndarray<T> random_values(const shape_t& shape, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  std::uint64_t s = seed;
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = cunp::detail::convert<T>(int(splitmix64(s) % 9) - 3);
  return cunp::asarray(v, shape, cpu);
}
ndarray<bool> random_mask(const shape_t& shape, double density, std::uint64_t seed) {
  std::vector<bool> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  std::uint64_t s = seed;
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = double(splitmix64(s) >> 11) * 0x1p-53 < density;
  return cunp::asarray(v, shape, cpu);
}
}  // namespace

TEST_CASE("where(condition) is nonzero(condition)", "[selection]") {
  on_every_backend([](cunp::device dev) {
    const auto a = random_values<float>({5, 6}, 3).to(dev);
    require_equal(stacked(cunp::where(a)), stacked(cunp::nonzero(a)));
    require_equal(stacked(cunp::where(a > 0.0f)), stacked(cunp::nonzero(a > 0.0f)));
    // the three-argument where is still the element-wise one
    require_equal(ndarray<float>(cunp::where(a > 0.0f, a, 0.0f)).to(cpu),
                  ndarray<float>(cunp::maximum(a, 0.0f)).to(cpu));
  });
}

TEST_CASE("selection of bfloat16 moves the values it holds", "[selection]") {
  on_every_backend([](cunp::device dev) {
    const auto f = random_values<float>({9, 11}, 5);
    const auto h = f.astype<cunp::bfloat16>().to(dev);
    const auto m = random_mask({9, 11}, 0.4, 6).to(dev);
    require_equal(cunp::mask(h, m).to(cpu).astype<float>(), cunp::mask(f, m.to(cpu)));
    require_equal(stacked(cunp::nonzero(h)), stacked(cunp::nonzero(f)));
    require_equal(cunp::isin(h, cunp::view(h, 0)).to(cpu), cunp::isin(f, cunp::view(f, 0)));
    const auto b = h.copy();
    cunp::put_mask(b, m, cunp::view(h, 1));
    const auto c = f.copy();
    cunp::put_mask(c, m.to(cpu), cunp::view(f, 1));
    require_equal(b.to(cpu).astype<float>(), c);
    require_equal(cunp::compress(cunp::view(m, cunp::all, 0), h, 1).to(cpu).astype<float>(),
                  cunp::compress(cunp::view(m, cunp::all, 0).to(cpu), f, 1));
  });
}

TEST_CASE("selection on the GPU matches the cpu on many tiles", "[selection][gpu]") {
  // Sizes around the GPU's tile (4096 positions, 16 a thread) and well past it; densities from
  // none to all; views that start off the 16-byte alignment of the vector loads, reversed ones.
  for (const index_t n : {index_t(1), index_t(15), index_t(17), index_t(4095), index_t(4097),
                          index_t(3 * 4096 + 5), index_t(100003)}) {
    for (const double density : {0.0, 0.01, 0.5, 1.0}) {
      INFO("n " << n << ", density " << density);
      const auto host = random_values<float>({n + 3}, std::uint64_t(n));
      const auto hmask = random_mask({n + 3}, density, std::uint64_t(n) + 1);
      const auto pick = [&](cunp::device dev, int how) {
        const auto a = host.to(dev);
        const auto m = hmask.to(dev);
        switch (how) {
          case 0:
            return std::pair{cunp::view(a, slice(0, n)), cunp::view(m, slice(0, n))};
          case 1:
            return std::pair{cunp::view(a, slice(1, n + 1)), cunp::view(m, slice(3, n + 3))};
          default:
            return std::pair{cunp::view(a, slice(n, 0, -1)), cunp::view(m, slice(n + 2, 2, -1))};
        }
      };
      for (int how = 0; how < 3; ++how) {
        INFO("layout " << how);
        same_on_every_backend([&](cunp::device dev) {
          const auto [a, m] = pick(dev, how);
          return cunp::mask(a, m);
        });
        same_on_every_backend([&](cunp::device dev) {
          const auto [a, m] = pick(dev, how);
          return cunp::mask(a, m && (a > 0.0f));  // a fused expression mask
        });
        same_on_every_backend(
            [&](cunp::device dev) { return cunp::flatnonzero(pick(dev, how).second); });
        same_on_every_backend([&](cunp::device dev) {
          const auto [a, m] = pick(dev, how);
          return cunp::compress(m, a);
        });
        same_on_every_backend([&](cunp::device dev) {
          const auto [a, m] = pick(dev, how);
          const auto b = a.copy();
          cunp::assign_mask(b, m,
                            cunp::arange<float>(0, double(cunp::count_nonzero(m).item()), 1, dev));
          return b;
        });
        same_on_every_backend([&](cunp::device dev) {
          const auto [a, m] = pick(dev, how);
          const auto b = a.copy();
          cunp::put_mask(b, m, cunp::arange<float>(0, 7, 1, dev));
          return b;
        });
      }
    }
  }
}

TEMPLATE_TEST_CASE("a[m] of every item size on the GPU matches the cpu", "[selection][gpu]",
                   std::int8_t, std::int16_t, float, double, cunp::complex128) {
  // Whole tiles and a partial last one, in one block's walk and over many blocks (the staged
  // gather of 1- to 8-byte items, 16-byte ones element by element); an array that starts off
  // its 16-byte alignment takes the element-by-element pass.
  for (const index_t n : {index_t(4096), index_t(3 * 4096 + 5), index_t(2000003)}) {
    for (const double density : {0.0, 0.3, 1.0}) {
      INFO("n " << n << ", density " << density);
      const auto host = random_values<TestType>({n + 1}, std::uint64_t(n) + 7);
      const auto hmask = random_mask({n + 1}, density, std::uint64_t(n) + 8);
      for (const index_t start : {index_t(0), index_t(1)}) {
        INFO("start " << start);
        same_on_every_backend([&](cunp::device dev) {
          return cunp::mask(cunp::view(host.to(dev), slice(start, start + n)),
                            cunp::view(hmask.to(dev), slice(0, n)));
        });
      }
    }
  }
}

TEST_CASE("selection of rows, positions of nd arrays and the other functions on the GPU",
          "[selection][gpu]") {
  const auto host = random_values<double>({2001, 3, 5}, 11);
  const auto rows = random_mask({2001}, 0.3, 12);
  const auto lead = random_mask({2001, 3}, 0.6, 13);
  const auto flat = random_values<std::int16_t>({700, 301}, 14);
  using cunp::all;
  same_on_every_backend([&](cunp::device dev) { return cunp::mask(host.to(dev), rows.to(dev)); });
  same_on_every_backend([&](cunp::device dev) { return cunp::mask(host.to(dev), lead.to(dev)); });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::mask(cunp::view(host.to(dev), reverse, all, slice(none, none, 2)),
                      cunp::view(lead.to(dev), all, reverse));
  });
  same_on_every_backend([&](cunp::device dev) {
    return stacked(cunp::nonzero(cunp::view(flat.to(dev), all, slice(1, none, 3)))).to(dev);
  });
  same_on_every_backend([&](cunp::device dev) { return cunp::argwhere(host.to(dev)); });
  same_on_every_backend([&](cunp::device dev) { return cunp::argwhere(flat.to(dev) > 2); });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::compress(cunp::view(rows.to(dev), slice(0, 1500)), host.to(dev), 0);
  });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::compress(cunp::view(flat.to(dev), 0), flat.to(dev), 1);
  });
  same_on_every_backend([&](cunp::device dev) {
    const auto b = host.to(dev).copy();
    const index_t count = cunp::count_nonzero(rows).item();
    cunp::assign_mask(b, rows.to(dev), random_values<double>({count, 3, 1}, 15).to(dev));
    return b;
  });
  same_on_every_backend([&](cunp::device dev) {
    const auto b = host.to(dev).copy();
    cunp::assign_mask(b, lead.to(dev), cunp::arange<double>(0, 5, 1, dev));
    return b;
  });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::isin(flat.to(dev), cunp::view(flat.to(dev), 3, slice(0, 50)));
  });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::isin(host.to(dev), random_values<float>({999}, 16).to(dev), false, true);
  });
  same_on_every_backend([&](cunp::device dev) {
    return cunp::digitize(flat.to(dev), cunp::asarray<double>({3.5, 1.0, 0.0, -2.5}, {4}, dev));
  });
  same_on_every_backend([&](cunp::device dev) {
    const auto x = host.to(dev);
    return cunp::select(std::vector<ndarray<bool>>{x > 2.0, x < -1.0},
                        std::vector<ndarray<double>>{x, -x}, 0.5);
  });
}

namespace {
/// allow_synchronize(false) for a scope, restored however the scope ends.
struct no_waits {
  no_waits() { cunp::allow_synchronize(false); }
  no_waits(const no_waits&) = delete;
  no_waits& operator=(const no_waits&) = delete;
  ~no_waits() { cunp::allow_synchronize(true); }
};
}  // namespace

TEST_CASE("only selections whose size depends on the values wait for the device",
          "[selection][gpu]") {
  on_every_backend([](cunp::device dev) {
    const auto a = random_values<float>({40, 50}, 21).to(dev);
    const auto m = random_mask({40, 50}, 0.5, 22).to(dev);
    const ndarray<float> b = a.copy();
    const auto per_element = cunp::arange<float>(0, double(cunp::count_nonzero(m).item()), 1, dev);
    const no_waits guard;
    const auto waits = [&](auto f, const char* what) {
      if (dev.is_cpu()) {
        CHECK_NOTHROW(f());
      } else {
        REQUIRE_THROWS_AS(f(), cunp::device_error);
        REQUIRE_THROWS_WITH(f(),
                            std::string(what) +
                                " (its size depends on the values) waits "
                                "for the GPU, but cunp::allow_synchronize(false) is in effect");
      }
    };
    waits([&] { return cunp::mask(a, m); }, "cunp::mask");
    waits([&] { return cunp::mask(a, a > 1.0f); }, "cunp::mask");
    waits([&] { return cunp::nonzero(a); }, "cunp::nonzero");
    waits([&] { return cunp::argwhere(m); }, "cunp::argwhere");
    waits([&] { return cunp::flatnonzero(a); }, "cunp::flatnonzero");
    waits([&] { return cunp::compress(cunp::view(m, 0), a, 1); }, "cunp::compress");
    waits([&] { return cunp::extract(m, a); }, "cunp::extract");
    waits(
        [&] {
          cunp::assign_mask(b, m, per_element);
          return 0;
        },
        "cunp::assign_mask");
    // These never wait: their sizes are known.
    cunp::assign_mask(b, m, 2.0f);
    cunp::assign_mask(b, cunp::view(m, cunp::all, 0), cunp::view(a, 0));
    cunp::put_mask(b, m, cunp::view(a, 1));
    REQUIRE(cunp::isin(a, cunp::view(a, 2)).device() == dev);
    REQUIRE(cunp::select(std::vector<ndarray<bool>>{m}, std::vector<ndarray<float>>{a}).device() ==
            dev);
    REQUIRE(cunp::mask(cunp::view(a, slice(0, 0)), cunp::view(m, slice(0, 0))).shape() ==
            shape_t{0});
  });
}
#endif
