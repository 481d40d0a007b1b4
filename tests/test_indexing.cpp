// Integer-array indexing (cunp/indexing.hpp) against NumPy (golden/cases_indexing.py): take, put,
// take_along_axis, put_along_axis, choose and the ufunc.at family for every dtype group, every
// index dtype, views and negative strides, out= aliasing; NumPy's errors on the cpu (nothing
// written) and on a GPU (at the next wait, or at the call under eager checking); and GPU against
// cpu on inputs large enough for many threads to meet repeated indices.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

using i64 = std::int64_t;

template <class I = i64>
ndarray<I> ints(const std::vector<I>& v, const shape_t& shape, cunp::device dev) {
  return cunp::asarray(v, shape, dev);
}
template <class I = i64>
ndarray<I> ints(const std::vector<I>& v, cunp::device dev) {
  return cunp::asarray(v, {static_cast<index_t>(v.size())}, dev);
}

/// A copy of `base` after f(copy): the put-like calls are checked by the array they leave.
template <class T, class F>
ndarray<T> after(const ndarray<T>& base, F&& f) {
  const ndarray<T> a = base.copy();
  f(a);
  return a;
}

/// Deterministic integers in [lo, hi) (splitmix64).
template <class T>
ndarray<T> random_ints(const shape_t& shape, std::int64_t lo, std::int64_t hi, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  for (std::size_t k = 0; k < v.size(); ++k) {
    const auto r = lo + static_cast<std::int64_t>(splitmix64(seed) % std::uint64_t(hi - lo));
    if constexpr (cunp::is_complex_v<T>) {
      const auto im = lo + static_cast<std::int64_t>(splitmix64(seed) % std::uint64_t(hi - lo));
      v[k] = T(typename T::value_type(r), typename T::value_type(im));
    } else {
      v[k] = cunp::detail::convert<T>(r);
    }
  }
  return cunp::asarray(v, shape, cpu);
}

// ---------------------------------------------------------------------------------------------
// Every function on every value dtype group (indexing_<dtype>.npz)

template <class T>
void take_cases(archive& g, cunp::device dev) {
  const auto x = g.get<T>("x").to(dev);
  const auto i2 = g.get<i64>("i2").to(dev), iw = g.get<i64>("iw").to(dev);
  const auto i1 = g.get<i64>("i1").to(dev);
  using cunp::index_mode;
  g.check(
      "take__none", [&] { return cunp::take(x, i1); }, 0);
  g.check(
      "take__a0", [&] { return cunp::take(x, i2, 0); }, 0);
  g.check(
      "take__a1", [&] { return cunp::take(x, i2, 1); }, 0);
  g.check(
      "take__am1", [&] { return cunp::take(x, i2, -1); }, 0);
  g.check(
      "take__a1__wrap", [&] { return cunp::take(x, iw, 1, index_mode::wrap); }, 0);
  g.check(
      "take__a2__clip", [&] { return cunp::take(x, iw, 2, index_mode::clip); }, 0);
  g.check(
      "take__none__wrap",
      [&] { return cunp::take(x, cunp::eval(iw * i64(17)), none, index_mode::wrap); }, 0);
  g.check(
      "take__rev__a2",
      [&] {
        return cunp::take(cunp::view(x, slice(none, none, -1), cunp::all, slice(none, none, -2)),
                          i2, 2);
      },
      0);
  g.check(
      "take__idxrev__a1",
      [&] { return cunp::take(x, cunp::view(i2, cunp::all, slice(none, none, -1)), 1); }, 0);
  g.check(
      "take__scalar__a1", [&] { return cunp::take(x, -2, 1); }, 0);
  g.check(
      "take__scalar__none", [&] { return cunp::take(x, 7); }, 0);
  g.check(
      "take__empty_idx__a1", [&] { return cunp::take(x, ints({}, dev), 1); }, 0);
  g.check(
      "take__empty_a__a1", [&] { return cunp::take(cunp::view(x, slice(none, 0)), i2, 1); }, 0);
  g.check(
      "take__0d_idx__a1", [&] { return cunp::take(x, cunp::full<i64>({}, 2, dev), 1); }, 0);
  g.check(
      "take__0d_a",
      [&] {
        return cunp::take(cunp::view(x, 1, 2, 3), ints({0, -1, 0}, dev));
      },
      0);
}

template <class T>
void put_cases(archive& g, cunp::device dev) {
  const auto p = g.get<T>("p").to(dev), pv = g.get<T>("pv").to(dev);
  const auto pi = g.get<i64>("pi").to(dev), pw = g.get<i64>("pw").to(dev);
  const auto first2 = cunp::view(pi, slice(none, 2));
  using cunp::index_mode;
  g.check(
      "put__cycle", [&] { return after(p, [&](auto& a) { cunp::put(a, pi, pv); }); }, 0);
  std::vector<T> twice = pv.to(cpu).to_vector();
  twice.insert(twice.end(), twice.begin(), twice.end());
  const auto long_v = cunp::asarray(twice, {static_cast<index_t>(twice.size())}, dev);
  g.check(
      "put__long_v", [&] { return after(p, [&](auto& a) { cunp::put(a, first2, long_v); }); }, 0);
  g.check(
      "put__wrap",
      [&] { return after(p, [&](auto& a) { cunp::put(a, pw, pv, index_mode::wrap); }); }, 0);
  g.check(
      "put__clip",
      [&] { return after(p, [&](auto& a) { cunp::put(a, pw, pv, index_mode::clip); }); }, 0);
  g.check(
      "put__view",
      [&] {
        return after(p, [&](auto& a) {
          cunp::put(cunp::view(a, cunp::all, slice(none, none, -2)), pi, pv);
        });
      },
      0);
  const T one = pv.to(cpu).to_vector()[1];
  g.check(
      "put__scalar_v", [&] { return after(p, [&](auto& a) { cunp::put(a, pi, one); }); }, 0);
  g.check(
      "put__scalar_idx", [&] { return after(p, [&](auto& a) { cunp::put(a, -3, pv); }); }, 0);
  g.check(
      "put__rev_v",
      [&] {
        return after(p, [&](auto& a) { cunp::put(a, pi, cunp::view(pv, slice(none, none, -1))); });
      },
      0);
  g.check(
      "put__empty_idx", [&] { return after(p, [&](auto& a) { cunp::put(a, ints({}, dev), pv); }); },
      0);
}

template <class T>
void along_axis_cases(archive& g, cunp::device dev) {
  const auto t = g.get<T>("t").to(dev), tv = g.get<T>("tv").to(dev);
  const auto ti = g.get<i64>("ti").to(dev), t0 = g.get<i64>("t0").to(dev);
  const auto tb = g.get<i64>("tb").to(dev), tn = g.get<i64>("tn").to(dev);
  const auto rev = [](const auto& a) {
    return cunp::view(a, slice(none, none, -1), slice(none, none, -1));
  };
  g.check(
      "tala__a1", [&] { return cunp::take_along_axis(t, ti, 1); }, 0);
  g.check(
      "tala__a0", [&] { return cunp::take_along_axis(t, t0, 0); }, 0);
  g.check(
      "tala__bcast", [&] { return cunp::take_along_axis(t, tb); }, 0);
  g.check(
      "tala__abcast", [&] { return cunp::take_along_axis(cunp::view(t, slice(none, 1)), ti); }, 0);
  g.check(
      "tala__none", [&] { return cunp::take_along_axis(t, tn, none); }, 0);
  g.check(
      "tala__rev", [&] { return cunp::take_along_axis(rev(t), ti, 1); }, 0);
  g.check(
      "tala__empty",
      [&] { return cunp::take_along_axis(t, cunp::view(ti, cunp::all, slice(none, 0)), 1); }, 0);
  g.check(
      "pala__a1", [&] { return after(t, [&](auto& a) { cunp::put_along_axis(a, ti, tv, 1); }); },
      0);
  g.check(
      "pala__dup",
      [&] {
        return after(t, [&](auto& a) {
          cunp::put_along_axis(a, cunp::zeros<i64>({3, 2}, dev), tv, 1);
        });
      },
      0);
  g.check(
      "pala__bcast_v",
      [&] {
        return after(t, [&](auto& a) {
          cunp::put_along_axis(a, ti, cunp::view(tv, cunp::all, slice(none, 1)), 1);
        });
      },
      0);
  const std::vector<T> tvh = tv.to(cpu).to_vector();
  g.check(
      "pala__scalar_v",
      [&] { return after(t, [&](auto& a) { cunp::put_along_axis(a, tb, tvh[0], 1); }); }, 0);
  g.check(
      "pala__none",
      [&] {
        const auto v =
            cunp::asarray(std::vector<T>{tvh[0], tvh[0], tvh[2], tvh[2], tvh[4]}, {5}, dev);
        return after(t, [&](auto& a) { cunp::put_along_axis(a, tn, v, none); });
      },
      0);
  g.check(
      "pala__view",
      [&] {
        return after(t, [&](auto& a) {
          cunp::put_along_axis(cunp::view(a, cunp::all, slice(none, none, -1)), ti, tv, 1);
        });
      },
      0);
}

template <class T>
void choose_cases(archive& g, cunp::device dev) {
  const auto ci = g.get<std::int8_t>("ci").to(dev), cw = g.get<std::int8_t>("cw").to(dev);
  const auto c0 = g.get<T>("c0").to(dev), c1 = g.get<T>("c1").to(dev);
  const auto c2 = g.get<T>("c2").to(dev);
  const std::vector<ndarray<T>> choices{c0, c1, c2};
  using cunp::index_mode;
  g.check(
      "choose__raise", [&] { return cunp::choose(ci, choices); }, 0);
  g.check(
      "choose__wrap", [&] { return cunp::choose(cw, choices, index_mode::wrap); }, 0);
  g.check(
      "choose__clip", [&] { return cunp::choose(cw, choices, index_mode::clip); }, 0);
  g.check(
      "choose__rev",
      [&] {
        return cunp::choose(cunp::view(ci, slice(none, none, -1), slice(none, none, -2)),
                            std::vector<ndarray<T>>{cunp::view(c0, cunp::all, slice(none, none, 2)),
                                                    cunp::view(c1, slice(none, none, -2)), c2});
      },
      0);
  // out= gives the same values, into a strided view
  const ndarray<T> buf = cunp::zeros<T>({3, 8}, dev);
  const auto out = cunp::view(buf, cunp::all, slice(none, none, -2));
  const ndarray<T> r = cunp::choose(ci, choices, out);
  REQUIRE(r.storage() == buf.storage());
  require_equal(out.to(cpu), cunp::choose(ci.to(cpu), std::vector<ndarray<T>>{
                                                          c0.to(cpu), c1.to(cpu), c2.to(cpu)}));
}

template <class T>
void at_cases(archive& g, cunp::device dev) {
  const auto aa = g.get<T>("aa").to(dev), av = g.get<T>("av").to(dev), am = g.get<T>("am").to(dev);
  const auto ai = g.get<i64>("ai").to(dev);
  g.check(
      "add_at", [&] { return after(aa, [&](auto& a) { cunp::add_at(a, ai, av); }); }, 0);
  if constexpr (!std::is_same_v<T, bool>)
    g.check(
        "subtract_at", [&] { return after(aa, [&](auto& a) { cunp::subtract_at(a, ai, av); }); },
        0);
  g.check(
      "multiply_at", [&] { return after(aa, [&](auto& a) { cunp::multiply_at(a, ai, av); }); }, 0);
  g.check(
      "maximum_at", [&] { return after(aa, [&](auto& a) { cunp::maximum_at(a, ai, am); }); }, 0);
  g.check(
      "minimum_at", [&] { return after(aa, [&](auto& a) { cunp::minimum_at(a, ai, am); }); }, 0);
  const auto row0 = cunp::view(av, 0);
  g.check(
      "add_at__bcast", [&] { return after(aa, [&](auto& a) { cunp::add_at(a, ai, row0); }); }, 0);
  const T v00 = av.to(cpu).to_vector()[0];
  g.check(
      "add_at__scalar", [&] { return after(aa, [&](auto& a) { cunp::add_at(a, ai, v00); }); }, 0);
  // NumPy's spelling, np.add.at: the ufunc objects' at is the same call.
  g.check(
      "add_at", [&] { return after(aa, [&](auto& a) { cunp::ufunc::add.at(a, ai, av); }); }, 0);
  g.check(
      "maximum_at",
      [&] { return after(aa, [&](auto& a) { cunp::ufunc::maximum.at(a, ai, am); }); }, 0);
  g.check(
      "add_at__scalar",
      [&] { return after(aa, [&](auto& a) { cunp::ufunc::add.at(a, ai, v00); }); }, 0);
  g.check(
      "add_at__2d_idx",
      [&] {
        const auto idx = cunp::view(ai, slice(none, 6)).reshape({2, 3});
        return after(aa, [&](auto& a) { cunp::add_at(a, idx, cunp::view(av, slice(none, 3))); });
      },
      0);
  g.check(
      "add_at__view",
      [&] {
        return after(aa, [&](auto& a) {
          cunp::add_at(cunp::view(a, slice(none, none, -1), slice(none, none, 2)), ai,
                       cunp::view(av, cunp::all, slice(none, 2)));
        });
      },
      0);
  g.check(
      "add_at__empty_idx",
      [&] {
        return after(aa, [&](auto& a) { cunp::add_at(a, cunp::view(ai, slice(none, 0)), row0); });
      },
      0);
  g.check(
      "add_at__0d_idx",
      [&] {
        return after(aa, [&](auto& a) { cunp::add_at(a, cunp::full<i64>({}, -2, dev), v00); });
      },
      0);
  if constexpr (cunp::is_floating_v<T> || cunp::is_complex_v<T>) {
    // Random floats, 50 to each element: a GPU sums them in its own order.
    const auto ti = g.get<i64>("tol_i").to(dev);
    const auto tv = g.get<T>("tol_v").to(dev);
    g.check(
        "add_at__tol",
        [&] { return after(cunp::zeros<T>({4}, dev), [&](auto& a) { cunp::add_at(a, ti, tv); }); },
        64);
  }
}

template <class T>
void indexing_matches_numpy() {
  on_every_backend([](cunp::device dev) {
    archive g("indexing_" + std::string(cunp::dtype_name_v<T>));
    take_cases<T>(g, dev);
    put_cases<T>(g, dev);
    along_axis_cases<T>(g, dev);
    choose_cases<T>(g, dev);
    at_cases<T>(g, dev);
    g.require_all_used();
  });
}

}  // namespace

#if CUNP_IN_PART(0)
TEMPLATE_TEST_CASE("indexing matches NumPy for every function", "[indexing][golden]", bool,
                   std::int8_t, std::uint16_t, std::int64_t, cunp::float16) {
  indexing_matches_numpy<TestType>();
}
#endif
#if CUNP_IN_PART(1)
TEMPLATE_TEST_CASE("indexing matches NumPy for every function", "[indexing][golden]", float, double,
                   cunp::complex64, cunp::complex128) {
  indexing_matches_numpy<TestType>();
}
#endif

// ---------------------------------------------------------------------------------------------
// Index dtypes (indexing_index_dtypes.npz)

#if CUNP_IN_PART(2)
namespace {
template <class I>
void index_dtype_cases(archive& g, cunp::device dev) {
  const std::string d(cunp::dtype_name_v<I>);
  INFO("index dtype " << d);
  const auto x = g.get<double>("x").to(dev);
  const auto t = g.get<std::int16_t>("t").to(dev);
  const auto aa = g.get<std::int32_t>("aa").to(dev);
  const auto idx = g.get<I>("idx__" + d).to(dev);
  g.check(
      "take__" + d, [&] { return cunp::take(x, idx, 1); }, 0);
  g.check(
      "take__none__" + d, [&] { return cunp::take(x, idx); }, 0);
  g.check(
      "put__" + d,
      [&] {
        return after(t, [&](auto& a) { cunp::put(a, idx, ints<std::int16_t>({-7, 8}, dev)); });
      },
      0);
  g.check(
      "tala__" + d, [&] { return cunp::take_along_axis(t, idx.T(), 1); }, 0);
  g.check(
      "pala__" + d,
      [&] {
        return after(
            t, [&](auto& a) { cunp::put_along_axis(a, cunp::view(idx, slice(none, 1)), 9, 1); });
      },
      0);
  // idx % 5 and idx % 2 as NumPy computes them (a floored remainder) for these small indices
  const auto mod = [&](I m) { return cunp::eval(cunp::remainder(idx, m)); };
  g.check(
      "add_at__" + d, [&] { return after(aa, [&](auto& a) { cunp::add_at(a, mod(5), 3); }); }, 0);
  const auto c0 = cunp::view(x, 0, slice(none, 2), slice(none, 3));
  const auto c1 = cunp::eval(-cunp::view(x, 1, slice(none, 2), slice(none, 3)));
  g.check(
      "choose__" + d,
      [&] {
        return cunp::choose(mod(2), std::vector<ndarray<double>>{c0, c1});
      },
      0);
}
}  // namespace

TEST_CASE("indexing takes every integer dtype of indices, uint64 as int64", "[indexing][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("indexing_index_dtypes");
    index_dtype_cases<std::int8_t>(g, dev);
    index_dtype_cases<std::uint8_t>(g, dev);
    index_dtype_cases<std::int32_t>(g, dev);
    index_dtype_cases<i64>(g, dev);
    index_dtype_cases<std::uint64_t>(g, dev);
    const auto x = g.get<double>("x").to(dev);
    const auto big = g.get<std::uint64_t>("big_u64").to(dev);
    g.check(
        "take__big_u64__wrap",
        [&] {
          return cunp::take(x, cunp::take(big, ints({0, 2}, dev)), 2, cunp::index_mode::wrap);
        },
        0);
    g.check(
        "take__big_u64__clip", [&] { return cunp::take(x, big, 2, cunp::index_mode::clip); }, 0);
    g.require_all_used();
  });
}
#endif

// ---------------------------------------------------------------------------------------------
// Errors (indexing_errors.npz)

#if CUNP_IN_PART(2)
namespace {

/// One of NumPy's errors. `make` builds the operand the call reads or writes (on the cpu it
/// must be unchanged after the throw); a `deferred` error is one that a GPU kernel finds, which
/// surfaces at the next wait, prefixed with the function's name `op`.
struct error_case {
  std::string name;
  const char* op;
  bool deferred;
  std::function<ndarray<double>(cunp::device)> make;
  std::function<void(const ndarray<double>&, cunp::device)> call;
};

ndarray<double> values(const shape_t& shape, cunp::device dev) {
  return cunp::arange<double>(0, double(cunp::shape_size(shape)), 1, dev).reshape(shape);
}

std::vector<error_case> error_cases() {
  using cunp::add_at, cunp::choose, cunp::put, cunp::put_along_axis, cunp::take,
      cunp::take_along_axis;
  const auto x = [](cunp::device d) { return values({3, 4, 5}, d); };
  const auto t = [](cunp::device d) { return values({3, 4}, d); };
  const auto aa = [](cunp::device d) { return values({5, 3}, d); };
  const auto shaped = [](shape_t s) {
    return [s](cunp::device d) { return cunp::zeros<double>(s, d); };
  };
  const auto c = [](cunp::device d) {
    return std::vector<ndarray<double>>{cunp::zeros<double>({4}, d), cunp::ones<double>({4}, d)};
  };
  using A = const ndarray<double>&;
  using D = cunp::device;
  return {
      {"take_oob", "take", true, x,
       [](A a, D d) {
         (void)take(a, ints({1, 9, -7, 12}, d), 0);
       }},
      {"take_oob_neg", "take", true, x,
       [](A a, D d) {
         (void)take(a, ints({0, -4}, d), 0);
       }},
      {"take_oob_flat", "take", true, x,
       [](A a, D d) {
         (void)take(a, ints({3, 60}, d));
       }},
      {"take_oob_scalar", "take", false, x, [](A a, D) { (void)take(a, 5, 1); }},
      {"take_oob_trailing", "take", true, shaped({3, 0}),
       [](A a, D d) { (void)take(a, ints({7}, d), 0); }},
      {"take_empty_axis", "take", false, shaped({2, 0}),
       [](A a, D d) { (void)take(a, ints({0}, d), 1); }},
      {"take_axis", "take", false, x, [](A a, D d) { (void)take(a, ints({0}, d), 3); }},
      {"take_out_shape", "take", false, x,
       [](A a, D d) {
         (void)take(a, ints({0}, d), 0, cunp::zeros<double>({2, 4, 5}, d));
       }},
      {"put_oob", "put", true, t,
       [](A a, D d) {
         put(a, ints({0, 25, -30}, d), 1.0);
       }},
      {"put_oob_scalar", "put", false, t, [](A a, D) { put(a, -13, 1.0); }},
      {"put_empty", "put", false, shaped({0}), [](A a, D d) { put(a, ints({0}, d), 1.0); }},
      {"tala_oob", "take_along_axis", true, t,
       [](A a, D d) {
         (void)take_along_axis(a, ints({1, 2, 9, 1, -7, 0}, {3, 2}, d), 1);
       }},
      {"tala_ndim", "take_along_axis", false, t,
       [](A a, D d) { (void)take_along_axis(a, ints({1}, d), 1); }},
      {"tala_none_ndim", "take_along_axis", false, t,
       [](A a, D d) {
         (void)take_along_axis(a, ints({1}, {1, 1}, d), none);
       }},
      {"tala_bcast", "take_along_axis", false, t,
       [](A a, D d) {
         (void)take_along_axis(a, cunp::zeros<i64>({2, 2}, d), 1);
       }},
      {"tala_axis", "take_along_axis", false, t,
       [](A a, D d) {
         (void)take_along_axis(a, cunp::zeros<i64>({1, 1}, d), -3);
       }},
      {"pala_oob", "put_along_axis", true, t,
       [](A a, D d) {
         put_along_axis(a, ints({0, 4, 9}, {3, 1}, d), 1.0, 1);
       }},
      {"pala_v_shape", "put_along_axis", false, t,
       [](A a, D d) {
         put_along_axis(a, cunp::zeros<i64>({3, 2}, d), cunp::ones<double>({4}, d), 1);
       }},
      {"choose_oob", "choose", true, t,
       [c](A, D d) {
         (void)choose(ints({0, 2, 1, 0}, d), c(d));
       }},
      {"choose_oob_neg", "choose", true, t,
       [c](A, D d) {
         (void)choose(ints({0, -1, 1, 0}, d), c(d));
       }},
      {"choose_bcast", "choose", false, t,
       [c](A, D d) {
         (void)choose(ints({0, 1, 0}, d), c(d));
       }},
      {"choose_empty", "choose", false, t,
       [](A, D d) { (void)choose(ints({0}, d), std::vector<ndarray<double>>{}); }},
      {"choose_too_many", "choose", false, t,
       [](A, D d) {
         (void)choose(ints({0}, d), std::vector<ndarray<double>>(64, cunp::zeros<double>({1}, d)));
       }},
      {"add_at_oob", "add_at", true, aa,
       [](A a, D d) {
         add_at(a, ints({0, 9, 7}, d), 1.0);
       }},
      {"add_at_oob_trailing", "add_at", true, shaped({3, 0}),
       [](A a, D d) { add_at(a, ints({9}, d), 1.0); }},
      {"add_at_0d", "add_at", false, shaped({}), [](A a, D d) { add_at(a, ints({0}, d), 1.0); }},
      {"add_at_bcast", "add_at", false, aa,
       [](A a, D d) {
         add_at(a, ints({0, 1}, d), cunp::ones<double>({2}, d));
       }},
  };
}

/// Requires f() to throw the GPU form of NumPy's error `numpy` ("Type: message"): the message
/// prefixed with "op: ", index_error for IndexError, value_error for choose's ValueError.
void require_gpu_error(fn_ref<void()> f, const std::string& numpy,
                       const std::string& op) {
  const auto colon = numpy.find(": ");
  const std::string type = numpy.substr(0, colon), text = op + ": " + numpy.substr(colon + 2);
  try {
    f();
  } catch (const cunp::index_error& e) {
    CHECK(type == "IndexError");
    CHECK(std::string(e.what()) == text);
    return;
  } catch (const cunp::value_error& e) {
    CHECK(type == "ValueError");
    CHECK(std::string(e.what()) == text);
    return;
  }
  FAIL("no exception; expected " << text);
}

}  // namespace

TEST_CASE("indexing errors: NumPy's on the cpu, nothing written; on a GPU at the next wait",
          "[indexing][errors][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("indexing_errors");
    for (const error_case& c : error_cases()) {
      INFO("case " << c.name);
      const auto bytes = g.get<std::uint8_t>(c.name + "__error").to_vector();
      const std::string numpy(bytes.begin(), bytes.end());
      const ndarray<double> a = c.make(dev);
      const ndarray<double> before = a.copy();
      if (dev.is_cpu() || !c.deferred) {
        require_numpy_error([&] { c.call(a, dev); }, numpy);
        require_equal(a.to(cpu), before.to(cpu));
        continue;
      }
      // A GPU kernel finds the bad index: the call returns, the next wait throws, once.
      REQUIRE_NOTHROW(c.call(a, dev));
      require_gpu_error([&] { cunp::synchronize(dev); }, numpy, c.op);
      REQUIRE_NOTHROW(cunp::synchronize(dev));
      // Eager checking waits in the call and throws there.
      cunp::index_checking_guard eager(cunp::index_checking::eager);
      require_gpu_error([&] { c.call(a, dev); }, numpy, c.op);
    }
    g.require_all_used();
  });
}

TEST_CASE("indexing errors: choose's out= shape, the first bad index of many",
          "[indexing][errors]") {
  on_every_backend([](cunp::device dev) {
    const std::vector<ndarray<double>> c{cunp::zeros<double>({4}, dev),
                                         cunp::ones<double>({4}, dev)};
    // NumPy raises TypeError here; cunp calls a shape a shape
    REQUIRE_THROWS_AS(cunp::choose(ints({0, 1, 1, 0}, dev), c, cunp::zeros<double>({3}, dev)),
                      cunp::shape_error);
    REQUIRE_THROWS_WITH(cunp::choose(ints({0, 1, 1, 0}, dev), c, cunp::zeros<double>({3}, dev)),
                        "choose: invalid shape for output array.");
    // Many threads meet bad indices: the one first in index order is reported.
    std::vector<std::int32_t> idx(1 << 20, 3);
    idx[700001] = -5000;
    idx[300007] = 4096;
    idx[300008] = -4097;
    idx[900000] = 9999;
    const auto a = cunp::zeros<float>({4096}, dev);
    const auto i = ints(idx, dev);
    const std::string text = "index 4096 is out of bounds for axis 0 with size 4096";
    if (dev.is_cpu()) {
      REQUIRE_THROWS_WITH(cunp::take(a, i), text);
      REQUIRE_THROWS_WITH(cunp::put(a, i, 1.0f), text);
      REQUIRE_THROWS_WITH(cunp::add_at(a, i, 1.0f), text);
      return;
    }
    const auto r = cunp::take(a, i);
    REQUIRE_THROWS_WITH(r.to_vector(), "take: " + text);
    cunp::put(a, i, 1.0f);
    REQUIRE_THROWS_WITH(a.to_vector(), "put: " + text);
    cunp::add_at(a, i, 1.0f);
    REQUIRE_THROWS_WITH(cunp::synchronize(dev), "add_at: " + text);
    // Two bad calls before a wait: the first call's error is the one reported.
    (void)cunp::take(a, ints({7, 0, 8000}, dev));
    (void)cunp::take_along_axis(a, ints({5000}, dev), 0);
    REQUIRE_THROWS_WITH(cunp::synchronize(dev),
                        "take: index 8000 is out of bounds for axis 0 with size 4096");
    REQUIRE_NOTHROW(cunp::synchronize(dev));
  });
}

TEST_CASE("indexing errors on a GPU surface at every wait, never in a hidden one", "[indexing]") {
  on_every_backend([](cunp::device dev) {
    const auto a = values({3, 4}, dev);
    const auto bad = ints({1, 9}, dev);
    const std::string text = "take: index 9 is out of bounds for axis 0 with size 3";
    if (dev.is_cpu()) {  // the cpu throws at the call, and nothing is pending afterwards
      REQUIRE_THROWS_AS(cunp::take(a, bad, 0), cunp::index_error);
      REQUIRE_NOTHROW(cunp::synchronize(dev));
      return;
    }
    const auto bad_take = [&] { return cunp::take(a, bad, 0); };
    // No wait hides in an index call.
    cunp::allow_synchronize(false);
    const bool queued = [&] {
      try {
        (void)bad_take();
        return true;
      } catch (...) {
        return false;
      }
    }();
    cunp::allow_synchronize(true);
    REQUIRE(queued);
    REQUIRE_THROWS_WITH(cunp::synchronize(dev), text);
    REQUIRE_THROWS_WITH(bad_take().to_vector(), text);
    REQUIRE_THROWS_WITH(bad_take().to(cpu), text);
    {
      const auto r = bad_take();
      REQUIRE_THROWS_WITH(cunp::view(r, 0, 0).item(), text);
    }
    (void)bad_take();
    REQUIRE_THROWS_WITH(cunp::bincount(ints({1, 2}, dev)), text);  // a data-dependent size
    {
      cunp::event e(dev);
      (void)bad_take();
      e.record();
      REQUIRE_THROWS_WITH(e.synchronize(), text);
    }
    {
      cunp::stream s(dev);
      {
        cunp::stream_guard guard(s);
        (void)bad_take();
      }
      REQUIRE_THROWS_WITH(s.synchronize(), text);
    }
    // Afterwards nothing is pending and good calls work.
    REQUIRE_NOTHROW(cunp::synchronize(dev));
    require_values(cunp::take(a, ints({2, -3}, dev), 0), {8, 9, 10, 11, 0, 1, 2, 3}, {2, 4});
    // The switch is per thread and the guard restores it.
    REQUIRE(cunp::get_index_checking() == cunp::index_checking::deferred);
    {
      cunp::index_checking_guard eager(cunp::index_checking::eager);
      REQUIRE(cunp::get_index_checking() == cunp::index_checking::eager);
      REQUIRE_THROWS_WITH(bad_take(), text);
    }
    REQUIRE(cunp::get_index_checking() == cunp::index_checking::deferred);
  });
}
#endif

// ---------------------------------------------------------------------------------------------
// out= aliasing, repeated indices at scale: GPU against cpu

#if CUNP_IN_PART(3)
TEST_CASE("take and choose with out=: NumPy's result also when out overlaps an input",
          "[indexing]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<i64>(10, dev);
    const auto out = cunp::view(a, slice(1, 4));
    const auto r = cunp::take(a, ints({2, 1, 0}, dev), 0, out);
    REQUIRE(r.storage() == a.storage());
    require_values(a, {0, 2, 1, 0, 4, 5, 6, 7, 8, 9}, {10});
    const auto b = cunp::arange<i64>(6, dev);
    (void)cunp::take(b, ints({5, 4, 3}, dev), none, cunp::view(b, slice(none, 3)));
    require_values(b, {5, 4, 3, 3, 4, 5}, {6});
    // choose into its first choice, which the other broadcasts against
    const auto c0 = cunp::arange<i64>(4, dev);
    const auto c1 = cunp::full<i64>({1}, 7, dev);
    (void)cunp::choose(ints({1, 0, 1, 0}, dev), std::vector<ndarray<i64>>{c0, c1}, c0);
    require_values(c0, {7, 1, 7, 3}, {4});
    // put, put_along_axis and add_at read their values as they were
    const auto p = cunp::arange<i64>(5, dev);
    cunp::put(p, ints({4, 3, 2, 1, 0}, dev), p);
    require_values(p, {4, 3, 2, 1, 0}, {5});
    const auto q = cunp::arange<double>(0, 5, 1, dev);
    cunp::add_at(q, ints({4, 3, 2, 1, 0}, dev), q);
    require_values(q, {4., 4., 4., 4., 4.}, {5});
  });
}

namespace {
/// Every member of the ufunc.at family with many threads meeting each element: 8000 updates of
/// 74 elements, values in {-1, 0, 1} (factors +-1), so every result is exact in any order (also
/// bfloat16's sums, which stay below 256).
template <class T>
void at_family_at_scale() {
  const auto idx = random_ints<i64>({8000}, -37, 37, 11);
  const auto small = random_ints<T>({8000, 1}, -1, 2, 12);
  const auto unit =
      std::is_same_v<T, bool>
          ? random_ints<T>({8000, 1}, 0, 2, 13)
          : cunp::eval(cunp::where(cunp::greater(random_ints<i64>({8000, 1}, 0, 2, 13), i64(0)),
                                   i64(1), i64(-1)))
                .template astype<T>();
  const auto base = random_ints<T>({37, 2}, 1, 4, 14);
  const auto run = [&](const ndarray<T>& v, auto f) {
    (void)same_on_every_backend([&](cunp::device dev) {
      const ndarray<T> a = base.to(dev).copy();
      f(a, idx.to(dev), v.to(dev));
      return a;
    });
  };
  run(small, [](const auto& a, const auto& i, const auto& v) { cunp::add_at(a, i, v); });
  if constexpr (!std::is_same_v<T, bool>)
    run(small, [](const auto& a, const auto& i, const auto& v) { cunp::subtract_at(a, i, v); });
  run(small, [](const auto& a, const auto& i, const auto& v) { cunp::maximum_at(a, i, v); });
  run(small, [](const auto& a, const auto& i, const auto& v) { cunp::minimum_at(a, i, v); });
  run(unit, [](const auto& a, const auto& i, const auto& v) { cunp::multiply_at(a, i, v); });
}
}  // namespace

TEMPLATE_TEST_CASE("the ufunc.at family: repeated indices accumulate, GPU as cpu",
                   "[indexing][scale]", bool, std::int8_t, std::int16_t, std::uint16_t,
                   std::int32_t, std::uint64_t, cunp::float16, cunp::bfloat16, float, double,
                   cunp::complex64, cunp::complex128) {
  at_family_at_scale<TestType>();
}

TEST_CASE("put, put_along_axis and take at scale: of repeated indices the last writes, GPU as cpu",
          "[indexing][scale]") {
  const auto idx = random_ints<std::int32_t>({100000}, -100, 100, 21);
  const auto v = cunp::arange<i64>(100000, cpu);
  (void)same_on_every_backend([&](cunp::device dev) {
    const auto a = cunp::zeros<i64>({10, 10}, dev);
    cunp::put(a, idx.to(dev), v.to(dev));
    return a;
  });
  (void)same_on_every_backend([&](cunp::device dev) {  // a non-contiguous target, v cycled
    const auto a = cunp::zeros<std::int16_t>({20, 10}, dev);
    cunp::put(cunp::view(a, slice(none, none, 2), slice(none, none, -1)), idx.to(dev),
              cunp::arange<std::int16_t>(7, dev), cunp::index_mode::wrap);
    return a;
  });
  const auto lanes = random_ints<i64>({4, 30000}, -50, 50, 22);
  (void)same_on_every_backend([&](cunp::device dev) {
    const auto a = cunp::zeros<double>({4, 50}, dev);
    const auto vals = cunp::arange<double>(0, 120000, 1, dev).reshape({4, 30000});
    cunp::put_along_axis(a, lanes.to(dev), vals, 1);
    return a;
  });
  const auto src = random_ints<float>({1000, 64}, -100, 100, 23);
  for (const int axis : {0, 1}) {
    (void)same_on_every_backend([&](cunp::device dev) {
      return cunp::take(src.to(dev), idx.to(dev), axis, cunp::index_mode::wrap);
    });
  }
  (void)same_on_every_backend(
      [&](cunp::device dev) { return cunp::take(src.to(dev), idx.to(dev)); });
  const auto rows = random_ints<float>({4, 64}, -100, 100, 24);
  (void)same_on_every_backend(
      [&](cunp::device dev) { return cunp::take_along_axis(rows.to(dev), lanes.to(dev), 1); });
}
#endif
