// The ufunc objects' methods against NumPy: reduce (axes, keepdims, initial=, where=),
// accumulate, reduceat (decreasing indices too) and outer, for every associative ufunc on every
// dtype it has a loop for, and a ufunc's where=, on every backend; then view and expression
// inputs, dtype=, out= and the errors.
#include <string>
#include <vector>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::none;
using cunp::slice;

namespace {

/// Whether ufunc object U has a loop for T (NumPy: a TypeError; cunp: does not compile).
template <class U, class T> constexpr bool has_loop = false;
template <class Op, int N, class T>
constexpr bool has_loop<cunp::ufunc_object<Op, N>, T> = Op::template accepts<T>;

// Sums and maxima of these inputs are exact; products of twelve quarters may round in float32.
constexpr double ulps = 4;

template <class T, class U>
void check_methods(archive& g, const std::string& name, const U& u, const ndarray<T>& x,
                   const ndarray<bool>& m) {
  if constexpr (has_loop<U, T>) {
    const auto key = [&](const char* v) { return name + "__" + v; };
    CHECK(g.contains(key("reduce__a0")));
    g.check(key("reduce__a0"), [&] { return u.reduce(x, 0); }, ulps);
    g.check(key("reduce__a1"), [&] { return u.reduce(x, 1); }, ulps);
    g.check(key("reduce__none"), [&] { return u.reduce(x, {}); }, ulps);
    g.check(key("reduce__a1k"), [&] { return u.reduce(x, 1, true); }, ulps);
    g.check(key("reduce__iw_a1"), [&] { return u.reduce(x, 1, {.initial = 1, .where = m}); },
            ulps);
    g.check(key("accumulate__a0"), [&] { return u.accumulate(x, 0); }, ulps);
    g.check(key("accumulate__a1"), [&] { return u.accumulate(x, 1); }, ulps);
    g.check(key("reduceat__a1"), [&] { return u.reduceat(x, {0, 3, 1, 2}, 1); }, ulps);
    g.check(key("reduceat__a0"), [&] { return u.reduceat(x, {0, 2}, 0); }, ulps);
    g.check(key("reduceat__am1_one"), [&] { return u.reduceat(x, {1}, -1); }, ulps);
  } else {
    CHECK_FALSE(g.contains(name + "__reduce__a0"));
  }
}

template <class T, class U>
void check_outer(archive& g, const std::string& name, const U& u, const ndarray<T>& x,
                 const ndarray<T>& y) {
  if constexpr (has_loop<U, T>) g.check(name + "__outer", [&] { return eval(u.outer(x, y)); }, 0);
  else CHECK_FALSE(g.contains(name + "__outer"));
}

template <class T> void sweep_methods(cunp::device dev) {
  archive g("ufunc_methods_" + std::string(cunp::dtype_name_v<T>));
  const auto x = g.get<T>("x").to(dev);
  const auto y = g.get<T>("y").to(dev);
  const auto m = g.get<bool>("m").to(dev);
  namespace u = cunp::ufunc;
#define CUNP_METHODS(NAME) check_methods<T>(g, #NAME, u::NAME, x, m)
  CUNP_METHODS(add);
  CUNP_METHODS(multiply);
  CUNP_METHODS(maximum);
  CUNP_METHODS(minimum);
  CUNP_METHODS(fmax);
  CUNP_METHODS(fmin);
  CUNP_METHODS(logical_and);
  CUNP_METHODS(logical_or);
  CUNP_METHODS(logical_xor);
  CUNP_METHODS(bitwise_and);
  CUNP_METHODS(bitwise_or);
  CUNP_METHODS(bitwise_xor);
#undef CUNP_METHODS
#define CUNP_OUTER(NAME) check_outer<T>(g, #NAME, u::NAME, x, y)
  CUNP_OUTER(add);
  CUNP_OUTER(subtract);
  CUNP_OUTER(multiply);
  CUNP_OUTER(maximum);
  CUNP_OUTER(less);
  CUNP_OUTER(logical_xor);
  CUNP_OUTER(bitwise_or);
#undef CUNP_OUTER
  g.check("add__where", [&] {
    const auto out = cunp::ones<T>({3, 4}, dev);
    const auto r = cunp::add(x, cunp::view(x, slice(none, none, -1)), out, m);
    REQUIRE(r.data() == out.data());
    return out;
  }, 0);
  g.check("absolute__where", [&] {
    const auto out = cunp::ones<T>({3, 4}, dev);
    cunp::absolute(x, out, cunp::view(m, 0));  // a row of the mask, broadcast
    return out;
  }, 2);  // a complex modulus: CUDA's hypot and glibc's differ in the last bit
  g.require_all_used();
}

}  // namespace

#if CUNP_IN_PART(0)
TEMPLATE_TEST_CASE("ufunc methods match NumPy on every dtype", "[ufunc][golden]", bool,
                   std::int8_t, std::uint8_t, std::int64_t) {
  on_every_backend([](cunp::device dev) { sweep_methods<TestType>(dev); });
}
#endif
#if CUNP_IN_PART(1)
TEMPLATE_TEST_CASE("ufunc methods match NumPy on every dtype", "[ufunc][golden]", float, double,
                   cunp::complex128) {
  on_every_backend([](cunp::device dev) { sweep_methods<TestType>(dev); });
}
#endif

#if CUNP_IN_PART(2)
TEST_CASE("ufunc methods on views, expressions, dtype= and out=", "[ufunc]") {
  on_every_backend([](cunp::device dev) {
    namespace u = cunp::ufunc;
    const auto a = cunp::asarray<std::int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}, dev);
    const auto rev = cunp::view(a, slice(none, none, -1), slice(none, none, -1));  // [[6 5 4] [3 2 1]]
    require_values(u::add.reduce(rev, 1), {15, 6}, {2});
    require_values(u::maximum.accumulate(rev, 1), {6, 6, 6, 3, 3, 3}, {2, 3});
    require_values(u::add.reduceat(rev, {0, 2}, 1), {11, 4, 5, 1}, {2, 2});
    require_values(eval(u::subtract.outer(cunp::view(a, 0), rev)),
                   {-5, -4, -3, -2, -1, 0, -4, -3, -2, -1, 0, 1, -3, -2, -1, 0, 1, 2},
                   {3, 2, 3});
    // An expression input is fused (reduce) or materialised once (the others).
    require_values(u::multiply.reduce(a * 2, 0), {std::int64_t(16), 40, 72}, {3});
    require_values(u::bitwise_or.accumulate(a + 1, 1), {2, 3, 7, 5, 7, 7}, {2, 3});
    require_values(eval(u::add.outer(a - 1, cunp::asarray<std::int32_t>({10}, dev))),
                   {10, 11, 12, 13, 14, 15}, {2, 3, 1});
    // dtype=: the loop's dtype (int8 wraps), out=: written in place.
    require_values(u::add.reduce<std::int8_t>(cunp::full<std::int32_t>({3}, 100, dev)),
                   {std::int8_t(44)}, {});
    require_values(u::add.accumulate<double>(a, 0), {1., 2., 3., 5., 7., 9.}, {2, 3});
    const auto out = cunp::zeros<double>({3}, dev);
    u::minimum.reduce(a, 0, {}, out);
    require_values(out, {1., 2., 3.}, {3});
    // A 0-d input reduces over axis 0 as over no axis; empty inputs.
    require_values(u::add.reduce(cunp::array<double>(5.0, dev)), {5.0}, {});
    require_values(u::add.reduce(cunp::zeros<float>({0, 3}, dev)), {0.f, 0.f, 0.f}, {3});
    require_values(u::logical_and.accumulate(cunp::zeros<float>({0}, dev)), {}, {0});
    require_values(u::add.reduceat(cunp::zeros<float>({3, 0}, dev), {0, 1}, 0), {}, {2, 0});
    // Calling the object is calling the function.
    require_values(eval(u::add(a, 1)), {2, 3, 4, 5, 6, 7}, {2, 3});
  });
}

TEST_CASE("a ufunc's where= keeps the other elements, in place and with an expression mask",
          "[ufunc]") {
  on_every_backend([](cunp::device dev) {
    auto a = cunp::asarray<float>({1, -2, 3, -4}, {4}, dev);
    cunp::negative(a, a, a < 0);  // in place: the negative elements flip
    require_values(a, {1.f, 2.f, 3.f, 4.f}, {4});
    const auto o = cunp::full<double>({2, 4}, -1.0, dev);
    cunp::multiply(a, 2, o, cunp::asarray<bool>({true, false}, {2, 1}, dev));
    require_values(o, {2., 4., 6., 8., -1., -1., -1., -1.}, {2, 4});
    require_numpy_error(
        [&] { return cunp::add(a, 1, a, cunp::ones<bool>({2, 4}, dev)); },
        "ValueError: non-broadcastable output operand with shape (4,) doesn't match the "
        "broadcast shape (2, 4)");
  });
}

TEST_CASE("ufunc method errors are NumPy's", "[ufunc]") {
  on_every_backend([](cunp::device dev) {
    namespace u = cunp::ufunc;
    const auto a = cunp::arange<std::int64_t>(8, dev);
    require_numpy_error([&] { return u::add.reduceat(a, {0, 8}); },
                        "IndexError: index 8 out-of-bounds in add.reduceat [0, 8)");
    require_numpy_error([&] { return u::add.reduceat(a, {0, -1}); },
                        "IndexError: index -1 out-of-bounds in add.reduceat [0, 8)");
    require_numpy_error([&] { return u::add.reduceat(cunp::zeros<double>({0}, dev), {0}); },
                        "IndexError: index 0 out-of-bounds in add.reduceat [0, 0)");
    require_numpy_error([&] { return u::add.reduceat(cunp::array<double>(5.0, dev), {0}); },
                        "TypeError: cannot reduceat on a scalar");
    require_numpy_error([&] { return u::add.accumulate(cunp::array<double>(5.0, dev)); },
                        "TypeError: cannot accumulate on a scalar");
    require_numpy_error([&] { return u::maximum.reduce(cunp::zeros<double>({0}, dev)); },
                        "ValueError: zero-size array to reduction operation maximum which has "
                        "no identity");
    require_numpy_error([&] { return u::add.reduce(a, 1); },
                        "AxisError: axis 1 is out of bounds for array of dimension 1");
    require_numpy_error([&] { return u::add.accumulate(a, 1); },
                        "AxisError: axis 1 is out of bounds for array of dimension 1");
  });
}
#endif
