// numpy.linalg's det, slogdet, solve, inv and matrix_power (cunp/linalg.hpp) against NumPy
// (golden/cases_linalg.py) on every backend: float32, float64, complex64, complex128 and int32
// (computed in float64) over 0 x 0, 1 x 1, 3 x 3, 5 x 5 and batches, transposed and
// negative-stride inputs, vector and matrix right-hand sides with broadcast batches; singular and
// overflowing matrices; NumPy's errors. On a GPU: both LU routes (cuBLAS's batched and
// cuSOLVER's) against the cpu, and a singular matrix surfacing at the next wait (or at the call
// under index_checking::eager) with the device still usable after it.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cunp/linalg.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

/// Rounding's tolerance for a well-conditioned n x n problem of T, relative per element.
template <class T> double lu_tolerance() {
  using P = typename cunp::detail::complex_parts<T>::type;
  return std::is_same_v<P, float> ? 2e-4 : 1e-11;
}

/// f() against member `name` (or NumPy's error), within tol of each element relative to the
/// result's largest magnitude (entries of an inverse or a solution may be small).
template <class F> void check_lu(archive& g, const std::string& name, double tol, F&& f) {
  INFO(name);
  if (g.contains(name + "__error")) {
    const auto bytes = g.get<std::uint8_t>(name + "__error").to_vector();
    require_numpy_error([&] { (void)f(); }, std::string(bytes.begin(), bytes.end()));
    return;
  }
  const auto got = f();
  using R = typename std::decay_t<decltype(got)>::value_type;
  const auto want = g.get<R>(name);
  double scale = 0;
  for (const auto& w : want.to_vector())
    if (std::isfinite(std::abs(as_complex(w)))) scale = std::max(scale, std::abs(as_complex(w)));
  require_near(got, want, 0, tol * std::max(scale, 1e-300));
}

template <class T> void lu_cases(archive& g, cunp::device dev) {
  using R = cunp::detail::linalg_t<T>;
  using B = std::conditional_t<std::is_same_v<T, std::int32_t>, double, T>;
  const std::string d = dname<T>();
  const double tol = lu_tolerance<R>();
  for (const std::string shape : {"0x0", "1x1", "3x3", "5x5", "2x3x4x4", "0x3x3"}) {
    const std::string tag = d + "_" + shape;
    const auto a = g.get<T>("in_" + tag).to(dev);
    const auto b = g.get<B>("in_" + tag + "_b").to(dev);
    const auto before = a.to(cpu);
    check_lu(g, "det_" + tag, tol, [&] { return cunp::linalg::det(a); });
    const auto s = cunp::linalg::slogdet(a);
    CHECK(s.sign.device() == dev);
    require_near(s.sign, g.get<R>("slogdet_" + tag + "__sign"), tol, tol);
    require_near(s.logabsdet, g.get<typename cunp::detail::complex_parts<R>::type>(
                                  "slogdet_" + tag + "__logabsdet"), tol, tol);
    check_lu(g, "inv_" + tag, tol, [&] { return cunp::linalg::inv(a); });
    check_lu(g, "solve_" + tag, tol, [&] { return cunp::linalg::solve(a, b); });
    require_equal(a.to(cpu), before);  // never written
  }
  const auto a = g.get<T>("in_" + d + "_5x5").to(dev);
  const auto ab = g.get<T>("in_" + d + "_2x3x4x4").to(dev);
  const auto v = g.get<B>("in_" + d + "_v").to(dev);
  const auto bb = g.get<B>("in_" + d + "_bb").to(dev);
  const slice rev(none, none, -1);
  check_lu(g, "det_" + d + "_T", tol, [&] { return cunp::linalg::det(a.T()); });
  check_lu(g, "inv_" + d + "_neg", tol, [&] { return cunp::linalg::inv(cunp::view(a, rev, rev)); });
  check_lu(g, "solve_" + d + "_vector", tol, [&] { return cunp::linalg::solve(a, v); });
  check_lu(g, "solve_" + d + "_batch_vector", tol,
           [&] { return cunp::linalg::solve(ab, cunp::view(v, slice(none, 4))); });
  check_lu(g, "solve_" + d + "_broadcast", tol,
           [&] { return cunp::linalg::solve(cunp::view(ab, cunp::all, slice(none, 1)), bb); });
}

}  // namespace

TEST_CASE("det, slogdet, inv, solve and matrix_power match NumPy", "[linalg][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("linalg_lu");
    lu_cases<float>(g, dev);
    lu_cases<double>(g, dev);
    lu_cases<std::complex<float>>(g, dev);
    lu_cases<std::complex<double>>(g, dev);
    lu_cases<std::int32_t>(g, dev);

    namespace L = cunp::linalg;
    const auto sing = g.get<double>("in_singular").to(dev);
    check_lu(g, "det_singular", 0, [&] { return L::det(sing); });
    const auto s = L::slogdet(sing);
    require_equal(s.sign.to(cpu), g.get<double>("slogdet_singular__sign"));
    require_equal(s.logabsdet.to(cpu), g.get<double>("slogdet_singular__logabsdet"));
    // A singular matrix is an error at once on the cpu, at the next wait on a GPU.
    const auto singular = [&](auto&& f) {
      cunp::index_checking_guard eager(cunp::index_checking::eager);
      f();
    };
    check_lu(g, "solve_singular", 0, [&] {
      singular([&] { (void)L::solve(sing, cunp::ones<double>({3}, dev)); });
      return cunp::zeros<double>({}, cpu);
    });
    check_lu(g, "inv_singular", 0, [&] {
      singular([&] { (void)L::inv(sing); });
      return cunp::zeros<double>({}, cpu);
    });
    const auto big = g.get<double>("in_big").to(dev);
    check_lu(g, "det_big", 0, [&] { return L::det(big); });
    const auto sb = L::slogdet(big);
    require_near(sb.sign, g.get<double>("slogdet_big__sign"), 0);
    require_near(sb.logabsdet, g.get<double>("slogdet_big__logabsdet"), 1e-14);

    const auto p = g.get<double>("in_power").to(dev);
    for (const int k : {0, 1, 2, 3, 5, 8, -1, -3}) {
      const std::string name = "power_" + (k < 0 ? "m" + std::to_string(-k) : std::to_string(k));
      check_lu(g, name, 1e-12, [&] { return L::matrix_power(p, k); });
    }
    const auto pi = g.get<std::int64_t>("in_power_i").to(dev);
    check_lu(g, "power_i_4", 0, [&] { return L::matrix_power(pi, 4); });
    check_lu(g, "power_i_0", 0, [&] { return L::matrix_power(pi, 0); });
    CHECK_THROWS_AS(L::matrix_power(pi, -1), cunp::dtype_error);

    const auto one = [&](cunp::shape_t sh) { return cunp::ones<double>(sh, dev); };
    const auto err = [&](const std::string& n, auto&& f) { check_lu(g, "err_" + n, 0, f); };
    err("det_1d", [&] { return L::det(one({3})); });
    err("det_0d", [&] { return L::det(one({})); });
    err("det_square", [&] { return L::det(one({2, 3})); });
    err("inv_square", [&] { return L::inv(one({2, 3})); });
    err("solve_vector", [&] { return L::solve(one({3, 3}), one({2})); });
    err("solve_matrix", [&] { return L::solve(one({3, 3}), one({2, 2})); });
    err("solve_batch", [&] { return L::solve(one({2, 3, 3}), one({4, 3, 1})); });
    err("solve_0d", [&] { return L::solve(cunp::eye<double>(2, none, 0, dev), one({})); });
    err("power_square", [&] { return L::matrix_power(one({2, 3}), 2); });
    err("power_1d", [&] { return L::matrix_power(one({3}), 2); });
    g.require_all_used();
  });
}

TEST_CASE("GPU LU routes equal the cpu's; a singular matrix surfaces at the next wait", "[linalg][gpu]") {
  const auto random = [](cunp::shape_t shape, std::uint64_t seed) -> ndarray<double> {
    std::vector<double> v(static_cast<std::size_t>(cunp::detail::extent_product(shape).value_or(0)));
    for (auto& e : v) e = double(splitmix64(seed) >> 11) * 0x1p-53 - 0.5;
    const index_t n = shape.back();
    return cunp::asarray(v, shape, cpu) + cunp::eye<double>(n, none, 0, cpu) * (double(n) / 4);
  };
  // A stack of small matrices (cuBLAS's batched LU), large ones (cuSOLVER's, one call each), one
  // float32 matrix shared by a batch of right-hand sides.
  for (const cunp::shape_t& shape : {cunp::shape_t{300, 8, 8}, cunp::shape_t{3, 100, 100},
                                    cunp::shape_t{1, 64, 64}, cunp::shape_t{2, 65, 65}}) {
    INFO("shape " << cunp::shape_str(shape));
    const ndarray<double> a = random(shape, 3);
    const ndarray<double> b = random(shape, 4);
    same_on_every_backend([&](cunp::device dev) { return cunp::linalg::det(a.to(dev)); }, 1e-10, 0);
    same_on_every_backend([&](cunp::device dev) { return cunp::linalg::inv(a.to(dev)); }, 0, 1e-10);
    same_on_every_backend(
        [&](cunp::device dev) { return cunp::linalg::solve(a.to(dev), b.to(dev)); }, 0, 1e-10);
  }
  {
    // inv of a stack on the batched route (getriBatched) in single precision and complex, and of
    // a negative-stride view
    const auto stack = random({50, 7, 7}, 9);
    const auto cstack = cunp::eval(stack.astype<std::complex<double>>() +
                                   random({50, 7, 7}, 10).astype<std::complex<double>>() *
                                       std::complex<double>(0, 1));
    same_on_every_backend(
        [&](cunp::device dev) { return cunp::linalg::inv(stack.astype<float>().to(dev)); }, 0,
        2e-4);
    same_on_every_backend([&](cunp::device dev) { return cunp::linalg::inv(cstack.to(dev)); }, 0,
                          1e-10);
    same_on_every_backend(
        [&](cunp::device dev) {
          return cunp::linalg::inv(
              cunp::view(stack.to(dev), slice(none, none, -1), cunp::all, slice(none, none, -1)));
        },
        0, 1e-10);
  }
  {
    // slogdet on cuSOLVER's route (a block a matrix): orders past the block's 256 threads, a
    // complex sign multiplied across its warps, a singular matrix beside regular ones
    const auto big = random({2, 700, 700}, 11);
    const auto cbig = cunp::eval(big.astype<std::complex<double>>() +
                                 random({2, 700, 700}, 12).astype<std::complex<double>>() *
                                     std::complex<double>(0, 1));
    same_on_every_backend([&](cunp::device dev) { return cunp::linalg::slogdet(big.to(dev)).sign; },
                          0, 0);
    same_on_every_backend(
        [&](cunp::device dev) { return cunp::linalg::slogdet(big.to(dev)).logabsdet; }, 1e-12, 0);
    same_on_every_backend(
        [&](cunp::device dev) { return cunp::linalg::slogdet(cbig.to(dev)).sign; }, 0, 1e-10);
    same_on_every_backend(
        [&](cunp::device dev) { return cunp::linalg::slogdet(cbig.to(dev)).logabsdet; }, 1e-12, 0);
    auto sing = random({3, 80, 80}, 13);
    cunp::view(sing, 1).fill(1.0);
    same_on_every_backend([&](cunp::device dev) { return cunp::linalg::det(sing.to(dev)); }, 1e-10,
                          0);
  }
  const auto af = random({6, 6}, 5).astype<float>();
  const auto bf = cunp::view(random({40, 6, 6}, 6), cunp::all, cunp::all, slice(none, 3)).astype<float>();
  same_on_every_backend([&](cunp::device dev) { return cunp::linalg::solve(af.to(dev), bf.to(dev)); },
                        0, 2e-4);
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    // Deferred: the call returns, the next wait throws NumPy's error, the device stays usable.
    auto stack = random({4, 3, 3}, 7).to(dev);
    cunp::view(stack, 2).fill(1.0);  // matrix 2 singular
    const auto x = cunp::linalg::solve(stack, cunp::ones<double>({3}, dev));
    CHECK_THROWS_WITH(x.to_vector(), "Singular matrix");
    const auto xi = cunp::linalg::inv(stack);  // the batched getri route
    CHECK_THROWS_WITH(xi.to_vector(), "Singular matrix");
    const auto ok = cunp::linalg::inv(random({3, 3}, 8).to(dev));
    CHECK_NOTHROW(ok.to_vector());
    cunp::synchronize();
    // Eager: the call itself throws.
    cunp::index_checking_guard eager(cunp::index_checking::eager);
    CHECK_THROWS_AS(cunp::linalg::inv(stack), cunp::linalg_error);
    CHECK_NOTHROW(cunp::linalg::det(stack).to_vector());  // det of a singular matrix is 0, no error
  }
}
