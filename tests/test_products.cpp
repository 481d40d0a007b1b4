// The matrix and tensor products (cunp/products.hpp) against NumPy (golden/cases_products.py) on
// every backend: matmul of every dtype over 2-d, 1-d, broadcast batches, transposed and
// negative-stride views and k = 0; NumPy 2's promotion, integer wrap-around, NaN and inf;
// dot, vdot, inner, outer, tensordot, kron, vecdot, multi_dot, matrix_transpose; out=; the
// float32 precision modes against float64; GPU against cpu on shapes cuBLAS lays out
// differently (batch groups, copies, bfloat16); the operands never written; NumPy's errors.
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cunp/einsum.hpp"
#include "cunp/products.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

/// A product's error bound against NumPy's, relative to the result's norm: the result's rounding
/// plus 4 k units of the accumulator's (float16 and bfloat16 accumulate in float32); exact for
/// integers and bool.
template <class T> double product_tolerance(index_t k) {
  using P = typename cunp::detail::complex_parts<T>::type;
  if constexpr (!cunp::is_floating_v<P>) return 0;
  else if constexpr (std::is_same_v<P, double>) return 4.0 * double(k + 1) * eps<double>();
  else return 2 * eps<T>() + 4.0 * double(k + 1) * eps<float>();
}

/// Equal shapes, and ||got - want|| <= tol ||want|| over the finite elements (NaN where NumPy
/// has NaN, the same inf where it has inf); exact when tol is 0.
template <class T>
void require_product(const ndarray<T>& got, const ndarray<T>& want, double tol) {
  INFO("dtype " << cunp::dtype_name_v<T>);
  REQUIRE(cunp::shape_str(got.shape()) == cunp::shape_str(want.shape()));
  const auto g = got.to(cpu).to_vector(), w = want.to_vector();
  double err = 0, ref = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto x = as_complex(g[i]), y = as_complex(w[i]);
    if (!std::isfinite(y.real()) || !std::isfinite(y.imag())) {
      CHECK(close(x.real(), y.real(), 0, 0));
      CHECK(close(x.imag(), y.imag(), 0, 0));
      continue;
    }
    if (tol == 0) {
      if (x != y) FAIL("element " << i << ": got " << x << ", NumPy " << y);
      continue;
    }
    err += std::norm(x - y);
    ref += std::norm(y);
  }
  INFO("relative error " << std::sqrt(err / (ref > 0 ? ref : 1)));
  CHECK(std::sqrt(err) <= tol * (ref > 0 ? std::sqrt(ref) : 1));
}

/// Checks f() against golden member `name` (or NumPy's error) with product_tolerance(k).
template <class F> void check_product(archive& g, const std::string& name, index_t k, F&& f) {
  INFO(name);
  if (g.contains(name + "__error")) {
    const auto bytes = g.get<std::uint8_t>(name + "__error").to_vector();
    require_numpy_error([&] { (void)f(); }, std::string(bytes.begin(), bytes.end()));
    return;
  }
  const auto got = f();
  using R = typename std::decay_t<decltype(got)>::value_type;
  require_product(got, g.get<R>(name), product_tolerance<R>(k));
}

template <class T> void matmul_cases(archive& g, cunp::device dev) {
  const std::string d = dname<T>();
  const auto in = [&](const std::string& n) { return g.get<T>("in_" + d + "_" + n).to(dev); };
  const auto a = in("a"), b = in("b"), v = in("v"), p = in("p"), q = in("q"), big_a = in("big_a"),
             big_b = in("big_b");
  const auto before = a.to(cpu).to_vector();
  const auto mm = [&](const std::string& n, index_t k, auto&& f) {
    check_product(g, "mm_" + d + "_" + n, k, [&] {
      auto r = f();
      CHECK(r.device() == dev);
      return r;
    });
  };
  using cunp::matmul;
  mm("2d", 7, [&] { return matmul(a, b); });
  mm("1d2d", 7, [&] { return matmul(v, b); });
  mm("2d1d", 7, [&] { return matmul(a, v); });
  mm("1d1d", 7, [&] { return matmul(v, v); });
  mm("batch", 7, [&] { return matmul(p, q); });
  mm("batch1d", 7, [&] { return matmul(p, v); });
  mm("bT_aT", 7, [&] { return matmul(b.T(), a.T()); });
  mm("neg", 4, [&] {
    return matmul(cunp::view(a, slice(none, none, -1), slice(none, none, -2)),
                  cunp::view(b, slice(none, none, 2)));
  });
  mm("big", 65, [&] { return matmul(big_a, big_b); });
  mm("bigT", 65, [&] { return matmul(big_b.T(), big_a.T()); });
  mm("k0", 0, [&] { return matmul(cunp::zeros<T>({3, 0}, dev), cunp::zeros<T>({0, 4}, dev)); });
  require_values(a, before, {5, 7});  // the operands are never written
}

}  // namespace

#if CUNP_IN_PART(0)
TEST_CASE("matmul of every dtype matches NumPy", "[products][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("products_matmul");
    matmul_cases<bool>(g, dev);
    matmul_cases<std::int8_t>(g, dev);
    matmul_cases<std::uint8_t>(g, dev);
    matmul_cases<std::int16_t>(g, dev);
    matmul_cases<std::int32_t>(g, dev);
    matmul_cases<std::int64_t>(g, dev);
    matmul_cases<std::uint32_t>(g, dev);
    matmul_cases<std::uint64_t>(g, dev);
    matmul_cases<cunp::float16>(g, dev);
    matmul_cases<float>(g, dev);
    matmul_cases<double>(g, dev);
    matmul_cases<std::complex<float>>(g, dev);
    matmul_cases<std::complex<double>>(g, dev);
    g.require_all_used();
  });
}
#endif  // CUNP_IN_PART(0)

namespace {

template <class T> void family_cases(archive& g, cunp::device dev) {
  const std::string d = dname<T>();
  const auto in = [&](const std::string& n) { return g.get<T>("in_" + d + "_" + n).to(dev); };
  const auto x3 = in("x3"), y3 = in("y3"), x2 = in("x2"), v4 = in("v4"), w4 = in("w4"),
             z3 = in("z3"), u3 = in("u3"), t3 = in("t3"), s0 = in("s0");
  const auto y3_0t = cunp::view(y3, 0).T();
  check_product(g, "dot_" + d + "_nd", 4, [&] { return cunp::dot(x3, y3); });
  check_product(g, "dot_" + d + "_1d_nd", 4, [&] { return cunp::dot(v4, y3); });
  check_product(g, "dot_" + d + "_nd_1d", 4, [&] { return cunp::dot(x3, v4); });
  check_product(g, "dot_" + d + "_1d_1d", 4, [&] { return cunp::dot(v4, w4); });
  check_product(g, "dot_" + d + "_0d", 1, [&] { return cunp::dot(s0, x3); });
  check_product(g, "dot_" + d + "_2d", 3, [&] { return cunp::dot(x2, x2.T()); });
  check_product(g, "vdot_" + d, 24, [&] { return cunp::vdot(x3, cunp::moveaxis(x3, 0, 2)); });
  check_product(g, "inner_" + d, 4, [&] { return cunp::inner(x3, y3_0t); });
  check_product(g, "inner_" + d + "_1d", 4, [&] { return cunp::inner(v4, w4); });
  check_product(g, "inner_" + d + "_0d", 1, [&] { return cunp::inner(x2, s0); });
  check_product(g, "outer_" + d, 1, [&] { return cunp::outer(x2, v4); });
  check_product(g, "td_" + d + "_pairs", 12, [&] { return cunp::tensordot(z3, u3, {1, 0}, {0, 1}); });
  check_product(g, "td_" + d + "_n2", 20, [&] { return cunp::tensordot(z3, t3, 2); });
  check_product(g, "td_" + d + "_n0", 1, [&] { return cunp::tensordot(x2, v4, 0); });
  check_product(g, "td_" + d + "_neg", 3, [&] { return cunp::tensordot(z3, u3, {-3}, {-2}); });
  check_product(g, "kron_" + d, 1, [&] { return cunp::kron(x2, cunp::view(x3, 0)); });
  check_product(g, "kron_" + d + "_nd", 1, [&] { return cunp::kron(v4, x3); });
  check_product(g, "kron_" + d + "_0d", 1, [&] { return cunp::kron(s0, x2); });
  check_product(g, "vecdot_" + d, 4, [&] { return cunp::linalg::vecdot(x3, cunp::view(x3, 0)); });
  check_product(g, "vecdot_" + d + "_axis", 3,
                [&] { return cunp::linalg::vecdot(x3, cunp::view(x3, 1), -2); });
  check_product(g, "lin_outer_" + d, 1, [&] { return cunp::linalg::outer(v4, w4); });
}

}  // namespace

#if CUNP_IN_PART(0)
TEST_CASE("dot, vdot, inner, outer, tensordot, kron and vecdot match NumPy", "[products][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("products_family");
    family_cases<double>(g, dev);
    family_cases<std::int32_t>(g, dev);
    family_cases<std::complex<double>>(g, dev);
    g.require_all_used();
  });
}
#endif  // CUNP_IN_PART(0)

#if CUNP_IN_PART(1)
TEST_CASE("promotion, wrap-around, NaN, multi_dot and NumPy's errors", "[products][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("products_misc");
    archive mm("products_matmul");
    const auto a = [&](const char* dt) { return "in_" + std::string(dt) + "_a"; };
    const auto b = [&](const char* dt) { return "in_" + std::string(dt) + "_b"; };
    const auto mix = [&](auto x, auto y, const char* dx, const char* dy) {
      using X = decltype(x);
      using Y = decltype(y);
      check_product(g, "mix_" + std::string(dx) + "_" + dy, 7, [&] {
        return cunp::matmul(mm.get<X>(a(dx)).to(dev), mm.get<Y>(b(dy)).to(dev));
      });
    };
    mix(std::int8_t{}, std::uint8_t{}, "int8", "uint8");
    mix(float{}, double{}, "float32", "float64");
    mix(std::int32_t{}, float{}, "int32", "float32");
    mix(bool{}, std::int8_t{}, "bool", "int8");
    mix(cunp::float16{}, float{}, "float16", "float32");
    mix(std::complex<float>{}, double{}, "complex64", "float64");
    const auto w8 = g.get<std::int8_t>("in_wrap_i8").to(dev);
    check_product(g, "wrap_i8", 2, [&] { return cunp::matmul(w8, cunp::ones<std::int8_t>({2, 2}, dev)); });
    const auto wu = g.get<std::uint8_t>("in_wrap_u8").to(dev);
    check_product(g, "wrap_u8", 2, [&] { return cunp::matmul(wu, cunp::ones<std::uint8_t>({2, 2}, dev)); });
    const auto na = g.get<double>("in_nan_a").to(dev), nb = g.get<double>("in_nan_b").to(dev);
    check_product(g, "nan", 4, [&] { return cunp::matmul(na, nb); });

    std::vector<ndarray<double>> c;
    for (int i = 0; i < 6; ++i) c.push_back(g.get<double>("in_chain_" + std::to_string(i)).to(dev));
    using cunp::linalg::multi_dot;
    const auto chain = [&](std::size_t from, std::size_t to) {
      return std::vector<ndarray<double>>(c.begin() + from, c.begin() + to);
    };
    check_product(g, "multi_dot_vv", 30, [&] { return multi_dot(chain(0, 5)); });
    check_product(g, "multi_dot_mm", 30, [&] { return multi_dot(chain(1, 4)); });
    check_product(g, "multi_dot_v", 30, [&] { return multi_dot(chain(0, 4)); });
    check_product(g, "multi_dot_two", 30, [&] { return multi_dot(chain(1, 3)); });

    const auto pa = g.get<float>("in_prec_a").to(dev), pb = g.get<float>("in_prec_b").to(dev);
    const auto exact = g.get<double>("prec_exact");
    // Each mode's error against the float64 product, relative to its norm: float32's rounding
    // (~1e-7), bf16x3's split (~1e-5: the dropped lo * lo term, 2^-16 of the product), TF32's
    // 10-bit inputs (~1e-3). The bounds are these measured errors with a margin.
    const auto error_of = [&](cunp::matmul_precision mode) {
      cunp::matmul_precision_guard guard(mode);
      CHECK(cunp::get_matmul_precision() == mode);
      const auto r = cunp::matmul(pa, pb).to(cpu).to_vector();
      const auto e = exact.to_vector();
      double err = 0, ref = 0;
      for (std::size_t i = 0; i < e.size(); ++i) {
        err += (r[i] - e[i]) * (r[i] - e[i]);
        ref += e[i] * e[i];
      }
      return std::sqrt(err / ref);
    };
    const double highest = error_of(cunp::matmul_precision::highest);
    const double bf16x3 = error_of(cunp::matmul_precision::bf16x3);
    const double tf32 = error_of(cunp::matmul_precision::tf32);
    INFO("errors: highest " << highest << ", bf16x3 " << bf16x3 << ", tf32 " << tf32);
    CHECK(cunp::get_matmul_precision() == cunp::matmul_precision::highest);
    CHECK(highest < 1e-6);
    CHECK(bf16x3 < 2e-5);
    CHECK(tf32 < 2e-3);
    CHECK(tf32 > 1e-5);  // the mode is in effect: TF32 rounding shows
    CHECK(bf16x3 > highest);

    const auto one = [&](cunp::shape_t s) { return cunp::ones<double>(s, dev); };
    const auto err = [&](const std::string& n, auto&& f) { check_product(g, "err_" + n, 0, f); };
    using namespace cunp;
    err("mm_core", [&] { return matmul(one({2, 3}), one({2, 3})); });
    err("mm_0d_a", [&] { return matmul(one({}), one({3})); });
    err("mm_0d_b", [&] { return matmul(one({3}), one({})); });
    err("mm_batch", [&] { return matmul(one({2, 3, 4}), one({3, 4, 5})); });
    err("mm_batch_nd", [&] { return matmul(one({2, 3, 4}), one({5, 3, 4, 5})); });
    err("mm_out_core", [&] { return matmul(one({2, 3}), one({3, 4}), one({2, 5})); });
    err("dot", [&] { return dot(one({2, 3}), one({2, 3})); });
    err("dot_nd", [&] { return dot(one({2, 3}), one({4, 2, 5})); });
    err("dot_1d", [&] { return dot(one({3}), one({4})); });
    err("inner", [&] { return inner(one({2, 3}), one({4})); });
    err("vdot", [&] { return vdot(one({3}), one({4})); });
    err("td_mismatch", [&] { return tensordot(one({2, 3}), one({2, 3}), {0, 1}, {1, 0}); });
    err("td_lengths", [&] { return tensordot(one({2, 3}), one({2, 3}), {0}, {0, 1}); });
    err("td_index", [&] { return tensordot(one({2, 3}), one({3, 2}), {0}, {5}); });
    err("td_n", [&] { return tensordot(one({2, 3}), one({2, 3}), 1); });
    err("matrix_transpose", [&] { return linalg::matrix_transpose(one({3})); });
    err("vecdot", [&] { return linalg::vecdot(one({3}), one({4})); });
    err("vecdot_batch", [&] { return linalg::vecdot(one({2, 3}), one({3, 3})); });
    err("lin_outer", [&] { return linalg::outer(one({}), one({2})); });
    err("multi_dot_one", [&] { return linalg::multi_dot(std::vector{one({2, 2})}); });
    err("multi_dot_3d",
        [&] { return linalg::multi_dot(std::vector{one({3}), one({3, 3, 3}), one({3})}); });
    g.require_all_used();
  });
}
#endif  // CUNP_IN_PART(1)

#if CUNP_IN_PART(1)
TEST_CASE("out=, expressions, matrix_transpose and the shapes of empty products", "[products]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<double>(6, dev).reshape({2, 3});
    const auto b = cunp::arange<double>(12, dev).reshape({3, 4});
    const auto want = cunp::matmul(a, b).to(cpu);
    // out= C-ordered, a transposed view, and out broadcasting the batch as NumPy does.
    auto out = cunp::zeros<double>({2, 4}, dev);
    CHECK(cunp::matmul(a, b, out).storage() == out.storage());
    require_close(out.to(cpu), want);
    auto outT = cunp::zeros<double>({4, 2}, dev);
    cunp::matmul(a, b, outT.T());
    require_close(outT.T().to(cpu), want);
    auto batched = cunp::zeros<double>({3, 2, 4}, dev);
    cunp::matmul(a, b, batched);
    for (int i = 0; i < 3; ++i) require_close(cunp::view(batched, i).to(cpu), want);
    // out overlapping an operand: the result is computed first, as NumPy's.
    auto sq = cunp::arange<double>(4, dev).reshape({2, 2});
    const auto sq2 = cunp::matmul(sq, sq).to(cpu);
    cunp::matmul(sq, sq, sq);
    require_close(sq.to(cpu), sq2);
    CHECK_THROWS_AS(cunp::matmul(cunp::ones<double>({2, 2, 3}, dev), b, cunp::zeros<double>({1, 2, 4}, dev)),
                    cunp::shape_error);
    // An expression operand is evaluated once, with the cast fused: int * 2 promoted to double.
    require_close(cunp::matmul(a * 2.0, b).to(cpu), cunp::matmul(a, b * 2.0).to(cpu));
    require_close(cunp::matmul(cunp::astype<float>(a), b).to(cpu), want);
    // matrix_transpose is a view of the last two axes.
    const auto x = cunp::arange<float>(24, dev).reshape({2, 3, 4});
    const auto t = cunp::linalg::matrix_transpose(x);
    CHECK(t.storage() == x.storage());
    CHECK(cunp::shape_str(t.shape()) == "(2, 4, 3)");
    require_close(t.to(cpu), cunp::swapaxes(x, 1, 2).to(cpu));
    // Empty products: zeros where k is 0, empty where m, n or a batch extent is.
    require_close(cunp::matmul(cunp::zeros<float>({2, 0}, dev), cunp::zeros<float>({0, 3}, dev)).to(cpu),
                  cunp::zeros<float>({2, 3}, cpu));
    CHECK(cunp::matmul(cunp::zeros<float>({0, 2}, dev), cunp::zeros<float>({2, 3}, dev)).size() == 0);
    CHECK(cunp::shape_str(cunp::matmul(cunp::zeros<float>({0, 1, 2}, dev),
                                       cunp::zeros<float>({2, 3}, dev)).shape()) == "(0, 1, 3)");
    require_close(cunp::vdot(cunp::zeros<float>({0}, dev), cunp::zeros<float>({0}, dev)).to(cpu),
                  cunp::zeros<float>({}, cpu));
  });
}
#endif  // CUNP_IN_PART(1)

#if CUNP_IN_PART(1)
namespace {

/// Random values of T in [-1, 1) (integers in [-3, 3]), deterministic.
template <class T> ndarray<T> random_of(const shape_t& shape, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, bool>) {
    return random_of<std::int8_t>(shape, seed).astype<bool>();
  } else {
    std::vector<T> v(static_cast<std::size_t>(cunp::detail::extent_product(shape).value_or(0)));
    for (auto& e : v) {
      const double u = double(splitmix64(seed) >> 11) * 0x1p-53 * 2 - 1;
      if constexpr (cunp::is_complex_v<T>) e = T(u, double(splitmix64(seed) >> 11) * 0x1p-53 - 0.5);
      else if constexpr (cunp::is_floating_v<T>) e = T(static_cast<float>(u));
      else e = static_cast<T>(std::lround(u * 3));
    }
    return cunp::asarray(v, shape, cpu);
  }
}

/// GPU against cpu: a @ b of these shapes, from a and b or views of them.
template <class T>
void same_product(const shape_t& as, const shape_t& bs,
                  fn_ref<ndarray<T>(const ndarray<T>&)> va,
                  fn_ref<ndarray<T>(const ndarray<T>&)> vb, index_t k) {
  const auto a = random_of<T>(as, 1), b = random_of<T>(bs, 2);
  const auto ref = cunp::matmul(va(a), vb(b));
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    INFO("shapes " << cunp::shape_str(as) << " @ " << cunp::shape_str(bs));
    require_product(cunp::matmul(va(a.to(dev)), vb(b.to(dev))), ref, product_tolerance<T>(k));
  }
}

template <class T> ndarray<T> same(const ndarray<T>& x) { return x; }

/// a @ b in double, a naive loop on the host: the reference for products larger than the cpu
/// kernel's tiles, independent of both backends' kernels.
template <class T> ndarray<double> naive_product(const ndarray<T>& a, const ndarray<T>& b) {
  const index_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  const auto x = cunp::ascontiguousarray(a.to(cpu)).to_vector();
  const auto y = cunp::ascontiguousarray(b.to(cpu)).to_vector();
  std::vector<double> c(static_cast<std::size_t>(m * n), 0.0);
  for (index_t i = 0; i < m; ++i)
    for (index_t l = 0; l < k; ++l) {
      const double ail = double(x[static_cast<std::size_t>(i * k + l)]);
      for (index_t j = 0; j < n; ++j)
        c[static_cast<std::size_t>(i * n + j)] +=
            ail * double(y[static_cast<std::size_t>(l * n + j)]);
    }
  return cunp::asarray(c, {m, n}, cpu);
}

}  // namespace

TEST_CASE("matmul of operands larger than the cpu kernel's tiles and k-panels", "[products]") {
  // 770 x 300 @ 300 x 530: more rows and columns than one tile of the cpu kernel (at most 768 x
  // 512) and more than one panel of k (256), ragged against every register tile; b also as a
  // transposed view (packed from columns), each float32 precision mode at its documented error.
  const auto a64 = random_of<double>({770, 300}, 11), b64 = random_of<double>({300, 530}, 12);
  const auto want = naive_product(a64, b64).to_vector();
  const auto error = [&](const ndarray<double>& got) {
    const auto g = got.to(cpu).to_vector();
    double err = 0, ref = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      err += (g[i] - want[i]) * (g[i] - want[i]);
      ref += want[i] * want[i];
    }
    return std::sqrt(err / ref);
  };
  const ndarray<float> a32 = a64.astype<float>(), b32 = b64.astype<float>();
  const ndarray<float> b32t = b32.T().copy().T();  // column-major b
  for (const cunp::device dev : backends()) {
    INFO("on " << dev.str());
    CHECK(error(cunp::matmul(a64.to(dev), b64.to(dev))) < 1e-14);
    CHECK(error(cunp::matmul(a64.to(dev), b64.T().copy().T().to(dev))) < 1e-14);
    const auto f32 = [&](const ndarray<float>& b) {
      return error(cunp::matmul(a32.to(dev), b.to(dev)).astype<double>());
    };
    CHECK(f32(b32) < 1e-6);
    CHECK(f32(b32t) < 1e-6);
    {
      cunp::matmul_precision_guard guard(cunp::matmul_precision::bf16x3);
      CHECK(f32(b32) < 2e-5);
    }
    {
      cunp::matmul_precision_guard guard(cunp::matmul_precision::tf32);
      const double e = f32(b32);
      CHECK(e < 2e-3);
      CHECK(e > 1e-5);
    }
  }
}

namespace {

/// The layouts cuBLAS reads differently, products over an inner length k with r-sized sides: a
/// batch that merges to one strided call, a broadcast batch that does not (a loop of calls), a
/// column-major operand (op T), a view with neither unit stride (copied), a negative batch stride
/// (copied), and the bfloat16 and float16 paths, ragged sizes.
void layout_cases(index_t k, index_t r) {
  const auto t = [](const auto& x) { return cunp::linalg::matrix_transpose(x); };
  same_product<float>({3, 1, r, k}, {1, 4, k, r / 2}, same<float>, same<float>, k);
  same_product<double>({k, r}, {2 * r, k}, t, t, k);
  same_product<std::complex<float>>({k, r}, {k, 2 * r}, t, same<std::complex<float>>, k);
  same_product<double>({2 * r, 2 * k}, {k, r / 2}, [](const auto& x) {
    return cunp::view(x, slice(none, none, 2), slice(none, none, 2));
  }, same<double>, k);
  same_product<float>({4, r - 3, k}, {4, k, r + 7}, [](const auto& x) {
    return cunp::view(x, slice(none, none, -1));
  }, same<float>, k);
  same_product<cunp::bfloat16>({2, r + 1, k}, {k, r}, same<cunp::bfloat16>, same<cunp::bfloat16>,
                               k);
  same_product<cunp::float16>({r + 1, k}, {2, k, r}, same<cunp::float16>, same<cunp::float16>, k);
}

}  // namespace

TEST_CASE("GPU products equal the cpu's where cuBLAS lays them out differently", "[products][gpu]") {
  const auto t = [](const auto& x) { return cunp::linalg::matrix_transpose(x); };
  // Floating products within the tiled kernel's limits (small_matmul_max multiply-adds, k up to
  // small_matmul_max_k) take it; the same layouts over a longer k take cuBLAS, as a long k with
  // few results does. Integer products take the tiled kernel, and the long inner products a
  // reduction.
  layout_cases(300, 60);
  layout_cases(30, 20);
  // k within small_matmul_max_k, multiply-adds over small_matmul_max: cuBLAS.
  same_product<std::complex<float>>({90, 60}, {90, 120}, t, same<std::complex<float>>, 90);
  same_product<float>({8, 33, 65}, {8, 65, 17}, same<float>, same<float>, 65);
  same_product<double>({2, 500}, {500, 3}, same<double>, same<double>, 500);
  same_product<std::int64_t>({3, 37, 41}, {41, 19}, same<std::int64_t>, same<std::int64_t>, 41);
  same_product<std::int8_t>({70, 50}, {70, 33}, t, same<std::int8_t>, 70);
  same_product<bool>({2, 20, 30}, {2, 30, 25}, same<bool>, same<bool>, 30);
  same_product<std::int32_t>({3, 1, 2000}, {2000, 1}, same<std::int32_t>, same<std::int32_t>, 2000);
  same_product<std::uint16_t>({2000}, {2000}, same<std::uint16_t>, same<std::uint16_t>, 2000);
  // The precision modes on the GPU within their bounds of the cpu's emulation of them.
  for (const auto mode : {cunp::matmul_precision::tf32, cunp::matmul_precision::bf16x3}) {
    cunp::matmul_precision_guard guard(mode);
    INFO("mode " << int(mode));
    same_product<float>({64, 256}, {256, 48}, same<float>, same<float>,
                        mode == cunp::matmul_precision::tf32 ? 20000 : 256);
  }
}

namespace {

std::string text_of(archive& g, const std::string& name) {
  const auto bytes = g.get<std::uint8_t>(name).to_vector();
  return std::string(bytes.begin(), bytes.end());
}

/// einsum case i of dtype T: its 1, 2 or 3 operands from the archive.
template <class T> void einsum_cases(archive& g, cunp::device dev) {
  const std::string d = dname<T>();
  for (int i = 0; g.contains("esub_" + std::to_string(i)); ++i) {
    const std::string sub = text_of(g, "esub_" + std::to_string(i));
    INFO("einsum " << sub);
    std::vector<ndarray<T>> x;
    for (int j = 0; g.contains("in_" + d + "_e" + std::to_string(i) + "_" + std::to_string(j)); ++j)
      x.push_back(g.get<T>("in_" + d + "_e" + std::to_string(i) + "_" + std::to_string(j)).to(dev));
    check_product(g, "einsum_" + d + "_" + std::to_string(i), 8, [&]() -> ndarray<T> {
      if (x.size() == 1) return cunp::einsum(sub, x[0]);
      if (x.size() == 2) return cunp::einsum(sub, x[0], x[1]);
      return cunp::einsum(sub, x[0], x[1], x[2]);
    });
  }
}

}  // namespace

TEST_CASE("einsum matches NumPy's documented examples", "[products][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("products_einsum");
    einsum_cases<double>(g, dev);
    einsum_cases<float>(g, dev);
    einsum_cases<std::complex<double>>(g, dev);
    einsum_cases<std::int64_t>(g, dev);
    einsum_cases<bool>(g, dev);
    for (int i = 0; g.contains("err_sub_" + std::to_string(i)); ++i) {
      std::vector<ndarray<double>> x;
      for (int j = 0; g.contains("err_shape_" + std::to_string(i) + "_" + std::to_string(j)); ++j) {
        const auto s = g.get<std::int64_t>("err_shape_" + std::to_string(i) + "_" + std::to_string(j));
        const auto v = s.to_vector();
        x.push_back(cunp::ones<double>(shape_t(v.begin(), v.end()), dev));
      }
      const std::string sub = text_of(g, "err_sub_" + std::to_string(i));
      check_product(g, "err_einsum_" + std::to_string(i), 0, [&]() -> ndarray<double> {
        if (x.size() == 1) return cunp::einsum(sub, x[0]);
        return cunp::einsum(sub, x[0], x[1]);
      });
    }
    g.require_all_used();
    // Labels whose extents do not broadcast (NumPy's text is its iterator's).
    CHECK_THROWS_AS(cunp::einsum("ij,jk", cunp::ones<double>({2, 3}, dev),
                                 cunp::ones<double>({4, 5}, dev)),
                    cunp::value_error);
    // An expression operand, and mixed dtypes promoted.
    const auto a = cunp::arange<float>(6, dev).reshape({2, 3});
    const auto b = cunp::arange<double>(3, dev);
    const auto r = cunp::einsum("ij,j->i", a * 2.0f, b);
    static_assert(std::is_same_v<decltype(r), const ndarray<double>>);
    require_close(r.to(cpu), cunp::matmul(a, b * 2.0).to(cpu));
  });
}
#endif  // CUNP_IN_PART(1)
