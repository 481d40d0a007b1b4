// linalg::solve's mixed-precision mode, solve(a, b, {.refine = cunp::refine::...})
// (cunp/linalg.hpp; detail/cpu/linalg/refine.hpp, detail/cuda/linalg/refine.cuh) on every backend,
// against NumPy's numpy.linalg.solve (golden/cases_linalg_refine.py): every mode of float64 and
// complex128 (fp32, tf32, bf16, fp16) and of float32 and complex64 (tf32, bf16, fp16); n = 1, 2,
// 50, 200 with matrix and vector right-hand sides, batches, a broadcast batch, a vector against a
// batch, transposed and negative-stride views, an empty batch, int32 input. Each result is NumPy's
// solution to rounding, its backward error no worse than the plain solve's (by a factor measured
// below) and within n eps, the GPU's equal to the cpu's, the operands unchanged. A matrix of
// condition number 1e10 and one past float16's range are still solved to float64 accuracy (the
// full-precision fallback); a singular matrix raises NumPy's LinAlgError; refine::fp32 of float32
// input is a value_error; on a GPU, allow_synchronize(false) refuses the refined solve, which
// waits.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "cunp/linalg.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::refine;
using cunp::slice;

namespace {

namespace L = cunp::linalg;

/// T's unit roundoff u (2^-53 for float64 and complex128, 2^-24 for float32 and complex64): the
/// refinement stops once ||b - A x|| <= sqrt(n) u ||A|| ||x|| (detail/linalg/refinement.hpp).
template <class T> double unit_roundoff() {
  using P = typename cunp::detail::complex_parts<T>::type;
  return std::numeric_limits<P>::epsilon() / 2;
}

// The refined solution's backward error against the plain solve's. The stopping test lets the
// refinement stop anywhere below sqrt(n) u, while an LU solve's backward error is usually below
// u; the last correction, though, shrinks the residual by a factor cond(A) u_low (1e-2 to 1e-6
// for these matrices), so refinement ends near the plain solve's level. Measured on this file's
// systems (the cpu, every mode and dtype): at most 1.6 max(plain, u); a NumPy emulation of the
// same algorithm over 200 random systems per size and mode gave at most 2.8. Allowed: 8.
constexpr double refine_backward_factor = 8;

template <class T> auto widen(const T& v) {
  if constexpr (cunp::is_complex_v<T>)
    return std::complex<long double>(v.real(), v.imag());
  else
    return static_cast<long double>(v);
}

/// The largest normwise backward error ||b - a x||_inf / (||a||_inf ||x||_inf + ||b||_inf) over
/// the columns of the systems a x = b, for a, b and x as solve takes and returns them (b and x
/// (..., n, k), or b (n,) and x (..., n)). The residual in long double (64 mantissa bits), so that
/// its own rounding does not hide the error it measures.
template <class T>
double backward_error(const ndarray<T>& a, const ndarray<T>& b, const ndarray<T>& x) {
  const index_t n = a.shape().back();
  shape_t xs = x.shape();
  if (b.ndim() == 1) xs.push_back(1);
  const shape_t batch(xs.begin(), xs.end() - 2);
  shape_t as = batch;
  as.insert(as.end(), {n, n});
  const index_t k = xs.back();
  const auto av = cunp::broadcast_to(a.to(cpu), as).copy().to_vector();
  const auto bv = cunp::broadcast_to(b.ndim() == 1 ? b.to(cpu).reshape({n, 1}) : b.to(cpu), xs)
                      .copy()
                      .to_vector();
  const auto xv = x.to(cpu).reshape(xs).copy().to_vector();
  const index_t count = n * k == 0 ? 0 : static_cast<index_t>(xv.size()) / (n * k);
  double worst = 0;
  for (index_t z = 0; z < count; ++z) {
    const T* az = av.data() + z * n * n;
    const T* bz = bv.data() + z * n * k;
    const T* xz = xv.data() + z * n * k;
    long double anrm = 0;
    for (index_t i = 0; i < n; ++i) {
      long double row = 0;
      for (index_t j = 0; j < n; ++j) row += std::abs(widen(az[i * n + j]));
      anrm = std::max(anrm, row);
    }
    for (index_t c = 0; c < k; ++c) {
      long double rn = 0, xn = 0, bn = 0;
      for (index_t i = 0; i < n; ++i) {
        auto r = widen(bz[i * k + c]);
        for (index_t j = 0; j < n; ++j) r -= widen(az[i * n + j]) * widen(xz[j * k + c]);
        rn = std::max(rn, std::abs(r));
        xn = std::max(xn, std::abs(widen(xz[i * k + c])));
        bn = std::max(bn, std::abs(widen(bz[i * k + c])));
      }
      if (rn > 0) worst = std::max(worst, static_cast<double>(rn / (anrm * xn + bn)));
    }
  }
  return worst;
}

/// f() raises NumPy's error recorded as member `name`__error.
void check_numpy_error(archive& g, const std::string& name, fn_ref<void()> f) {
  const auto bytes = g.get<std::uint8_t>(name + "__error").to_vector();
  require_numpy_error(f, std::string(bytes.begin(), bytes.end()));
}

// (An alias: nvcc's host code turned std::vector<std::complex<double>> inside the template below
// into a dependent std::conditional that g++ then rejected.)
using complex_values = std::vector<std::complex<double>>;

double largest_magnitude(const complex_values& v) {
  double m = 0;
  for (const auto& e : v) m = std::max(m, std::abs(e));
  return m;
}
template <class T> complex_values as_complex_vector(const ndarray<T>& x) {
  complex_values out;
  for (const T& e : x.to(cpu).to_vector()) out.push_back(as_complex(e));
  return out;
}

/// solve(a, b, {.refine = mode}) checked: NumPy's solution (member `name`) within tol of its
/// largest magnitude; the backward error within refine_backward_factor of the plain solve's (or
/// of u) and within max(n, 2) eps; on a GPU, the cpu backend's refined result within tol too;
/// the operands unchanged. Returns the call's smallest iteration count (last_refine()).
template <class T>
int check_refined(archive& g, const std::string& name, const ndarray<T>& a, const ndarray<T>& b,
                  refine mode, double tol) {
  INFO(name << " with " << cunp::detail::refine_name(mode));
  const auto a_before = a.to(cpu).copy(), b_before = b.to(cpu).copy();
  const auto x = L::solve(a, b, {.refine = mode});
  const int iterations = cunp::detail::last_refine().min_iterations;
  CHECK(x.device() == a.device());
  const auto want = g.get<T>(name);
  const double scale = std::max(largest_magnitude(as_complex_vector(want)), 1e-300);
  require_near(x, want, 0, tol * scale);

  const double u = unit_roundoff<T>();
  const index_t n = a.shape().back();
  const double refined = backward_error(a, b, x);
  const double plain = backward_error(a, b, L::solve(a, b));
  INFO("backward error " << refined << ", plain solve's " << plain << ", u " << u);
  CHECK(refined <= refine_backward_factor * std::max(plain, u));
  CHECK(refined <= static_cast<double>(std::max<index_t>(n, 2)) * 2 * u);
  if (!a.device().is_cpu())
    require_near(x, L::solve(a.to(cpu), b.to(cpu), {.refine = mode}), 0, tol * scale);
  require_equal(a.to(cpu), a_before);
  require_equal(b.to(cpu), b_before);
  return iterations;
}

template <class T> void refine_cases(archive& g, cunp::device dev) {
  using P = typename cunp::detail::complex_parts<T>::type;
  constexpr bool single = std::is_same_v<P, float>;
  const std::string d = dname<T>();
  // Rounding's tolerance for these well-conditioned systems (test_linalg.cpp's), relative to the
  // solution's largest magnitude; cond 1e10 leaves the solution 1e10 u uncertain.
  const double tol = single ? 2e-4 : 1e-11, ill_tol = 1e-4;
  const std::vector<refine> modes =
      single ? std::vector<refine>{refine::tf32, refine::bf16, refine::fp16}
             : std::vector<refine>{refine::fp32, refine::tf32, refine::bf16, refine::fp16};
  const slice rev(none, none, -1);
  for (const refine mode : modes) {
    for (const int n : {1, 2, 50, 200}) {
      const std::string tag = d + "_" + std::to_string(n);
      const auto a = g.get<T>("in_" + tag).to(dev);
      const int it =
          check_refined(g, "solve_" + tag, a, g.get<T>("in_" + tag + "_b").to(dev), mode, tol);
      const int itv = check_refined(g, "solve_" + tag + "_v", a,
                                    g.get<T>("in_" + tag + "_v").to(dev), mode, tol);
      // Refined, not solved again in full precision (n = 1 and 2 may fall back: the stopping
      // test asks a scalar's residual to be below u |a| |x|, which rounding may never reach).
      if (n >= 50) {
        CHECK(it >= 0);
        CHECK(itv >= 0);
      }
    }
    const auto a = g.get<T>("in_" + d + "_50").to(dev);
    const auto b = g.get<T>("in_" + d + "_50_b").to(dev);
    check_refined(g, "solve_" + d + "_T", a.T(), b, mode, tol);
    check_refined(g, "solve_" + d + "_neg", cunp::view(a, rev, rev), b, mode, tol);
    const auto ab = g.get<T>("in_" + d + "_batch").to(dev);
    CHECK(check_refined(g, "solve_" + d + "_batch", ab, g.get<T>("in_" + d + "_batch_b").to(dev),
                        mode, tol) >= 0);
    check_refined(g, "solve_" + d + "_batch_vector", ab, g.get<T>("in_" + d + "_50_v").to(dev),
                  mode, tol);
    check_refined(g, "solve_" + d + "_bcast", g.get<T>("in_" + d + "_bcast").to(dev),
                  g.get<T>("in_" + d + "_bcast_b").to(dev), mode, tol);
    check_refined(g, "solve_" + d + "_empty", g.get<T>("in_" + d + "_empty").to(dev),
                  g.get<T>("in_" + d + "_empty_b").to(dev), mode, tol);
    // Entries of 1e6: float16 overflows (the cpu gives up at once; cuSOLVER may scale or fall
    // back), the other formats hold them.
    const int big =
        check_refined(g, "solve_" + d + "_big", g.get<T>("in_" + d + "_big").to(dev), b, mode, tol);
    if (mode != refine::fp16)
      CHECK(big >= 0);
    else if (dev.is_cpu())
      CHECK(big == cunp::detail::refine_overflow);
    // Condition number 1e10: no format's refinement converges, the fallback solves it.
    if (!single) {
      const auto ill = g.get<T>("in_" + d + "_ill").to(dev);
      CHECK(check_refined(g, "solve_" + d + "_ill", ill, b, mode, ill_tol) < 0);
      if (dev.is_cpu())  // the fallback is the plain solve itself
        require_equal(L::solve(ill, b, {.refine = mode}), L::solve(ill, b));
    }
  }
}

}  // namespace

TEST_CASE("solve with refine matches NumPy's solve to the plain solve's accuracy",
          "[linalg][refine][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("linalg_refine");
    refine_cases<double>(g, dev);
    refine_cases<std::complex<double>>(g, dev);
    refine_cases<float>(g, dev);
    refine_cases<std::complex<float>>(g, dev);

    // int32 computes in float64, as the plain solve.
    const auto ai = g.get<std::int32_t>("in_int32").to(dev);
    const auto bi = g.get<double>("in_int32_b").to(dev);
    const auto want = g.get<double>("solve_int32");
    for (const refine mode : {refine::fp32, refine::tf32, refine::bf16, refine::fp16}) {
      const ndarray<double> x = L::solve(ai, bi, {.refine = mode});
      require_near(x, want, 0, 1e-12);
    }

    // A singular matrix: NumPy's LinAlgError on both backends (a GPU's at the call under eager
    // checking, as solve's); solve's shape errors are NumPy's, whatever the mode.
    const auto sing = g.get<double>("in_singular").to(dev);
    for (const refine mode : {refine::fp32, refine::tf32, refine::bf16, refine::fp16}) {
      INFO(cunp::detail::refine_name(mode));
      check_numpy_error(g, "solve_singular", [&] {
        cunp::index_checking_guard eager(cunp::index_checking::eager);
        (void)L::solve(sing, cunp::ones<double>({3}, dev), {.refine = mode});
      });
      const auto one = [&](cunp::shape_t sh) { return cunp::ones<double>(sh, dev); };
      check_numpy_error(g, "err_solve_vector", [&] {
        (void)L::solve(one({3, 3}), one({2}), {.refine = mode});
      });
      check_numpy_error(g, "err_solve_batch", [&] {
        (void)L::solve(one({2, 3, 3}), one({4, 3, 1}), {.refine = mode});
      });
    }
    g.require_all_used();
  });
}

TEST_CASE("solve with refine: the modes each dtype takes, and the wait on a GPU",
          "[linalg][refine][errors]") {
  on_every_backend([](cunp::device dev) {
    const ndarray<float> a =
        cunp::eye<float>(3, none, 0, dev) * 4.f + cunp::ones<float>({3, 3}, dev);
    const auto b = cunp::ones<float>({3}, dev);
    // fp32 refines to float64: float32 and complex64 input are float32 already.
    CHECK_THROWS_WITH(L::solve(a, b, {.refine = refine::fp32}),
                      "solve: refine::fp32 factorises in float32, the precision of float32 input "
                      "already: use refine::tf32, refine::bf16 or refine::fp16, or convert the "
                      "operands to float64 or complex128");
    const auto ac = a.astype<std::complex<float>>();
    CHECK_THROWS_AS(L::solve(ac, ac, {.refine = refine::fp32}), cunp::value_error);
    // float32 with float64 promotes to float64, which takes fp32.
    const auto x = L::solve(a, b.astype<double>(), {.refine = refine::fp32});
    require_near(x, L::solve(a, b.astype<double>()), 0, 1e-15);
    // refine::none is the plain solve.
    require_equal(L::solve(a, b, {.refine = refine::none}).to(cpu), L::solve(a, b).to(cpu));

    // Each refined solve on a GPU waits for its iteration count: allow_synchronize(false)
    // refuses it (the cpu has nothing to wait for).
    struct restore {
      ~restore() { cunp::allow_synchronize(true); }
    } guard;
    cunp::allow_synchronize(false);
    if (dev.is_cpu())
      CHECK_NOTHROW(L::solve(a, b, {.refine = refine::fp16}));
    else
      CHECK_THROWS_AS(L::solve(a, b, {.refine = refine::fp16}), cunp::device_error);
    cunp::allow_synchronize(true);
  });
}
