// scipy.sparse.linalg's eigsh and svds (cunp/sparse_eigen.hpp) against scipy
// (golden/cases_sparse_eigen.py) on every backend: eigsh for LM, LA, SA and BE, k = 1, 3, 6, on
// real symmetric and complex Hermitian matrices (eigenvalues against scipy's; eigenvectors, unique
// only up to phase, by A v = lambda v and orthonormality), csr, csc and coo, int32 and int64
// indices, float32 and complex64 on one case, v0 given, return_eigenvectors false; svds k = 1, 3
// on tall, wide and square matrices (S against scipy's, U and Vh by A Vh^H = U diag(S) and
// orthonormality); every error scipy raises, and ARPACK's no-convergence. On a GPU the same body
// runs, and its results are also checked against the cpu backend's.
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cunp/sparse.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
namespace sp = cunp::sparse;
namespace spl = cunp::sparse::linalg;

namespace {

using c128 = std::complex<double>;

template <class T> using real_t = typename cunp::detail::complex_parts<T>::type;
template <class T> double tol_of() { return std::is_same_v<real_t<T>, float> ? 2e-4 : 1e-9; }

/// Golden matrix `name` as csr_matrix<T, I> on dev (stored float64 or complex128).
template <class T, class I> sp::csr_matrix<T, I> matrix(archive& g, const std::string& name,
                                                        cunp::device dev) {
  const auto shape = g.get<std::int64_t>(name + "_shape").to_vector();
  const auto idx = g.get<std::int64_t>(name + "_indices").astype<I>().to(dev);
  const auto ptr = g.get<std::int64_t>(name + "_indptr").astype<I>().to(dev);
  ndarray<T> data;
  if (name == "C80") data = g.get<c128>(name + "_data").astype<T>().to(dev);
  else data = g.get<double>(name + "_data").astype<T>().to(dev);
  return sp::csr_matrix<T, I>(data, idx, ptr, {shape[0], shape[1]});
}

/// ||A X - X diag(w)|| and ||X^H X - I|| small against the largest |w| (A as a dense array).
template <class T>
void check_pairs(const ndarray<T>& a, const ndarray<real_t<T>>& w, const ndarray<T>& x) {
  const auto wv = w.to(cpu).to_vector();
  double scale = 1e-300;
  for (const auto v : wv) scale = std::max(scale, std::abs(double(v)));
  const auto ax = cunp::matmul(a, x);
  const auto xw = x * w.template astype<T>();
  const double res = cunp::linalg::norm(eval(ax - xw)).to(cpu).item();
  CHECK(res <= 50 * tol_of<T>() * scale * std::sqrt(double(a.shape()[0])));
  const auto gram = cunp::matmul(cunp::eval(cunp::conj(x.T())), x);
  const auto eye = cunp::eye<T>(x.shape()[1], x.shape()[1], 0, x.device());
  CHECK(double(cunp::linalg::norm(eval(gram - eye)).to(cpu).item()) <= 50 * tol_of<T>());
}

/// scipy's error for `key`, mapped to the cunp error that stands for it: ARPACK's errors are
/// linalg_error, k >= n (scipy: TypeError) value_error.
void require_scipy_error(archive& g, const std::string& key, fn_ref<void()> f) {
  const auto bytes = g.get<std::uint8_t>(key + "__error").to_vector();
  std::string text(bytes.begin(), bytes.end());
  for (const std::string from : {"ArpackNoConvergence: ", "ArpackError: "})
    if (text.rfind(from, 0) == 0) text = "LinAlgError: " + text.substr(from.size());
  if (text.rfind("TypeError: ", 0) == 0) text = "ValueError: " + text.substr(11);
  require_numpy_error(f, text);
}

/// eigsh on every which and k of `name` as M<T, I> (the matrix's format picked by make).
template <class T, class I, class Make>
void eigsh_cases(archive& g, const std::string& name, cunp::device dev, Make make, bool vectors) {
  const auto a = make(matrix<T, I>(g, name, dev));
  const auto dense = matrix<T, I>(g, name, dev).todense();
  for (const std::string which : {"LM", "LA", "SA", "BE"})
    for (const index_t k : {1, 3, 6}) {
      const std::string key = "eigsh_" + name + "_" + which + "_" + std::to_string(k);
      if (!g.contains(key)) continue;
      INFO(key);
      const auto r = spl::eigsh(a, k, {.which = which, .return_eigenvectors = vectors});
      REQUIRE(r.eigenvalues.device() == dev);
      // scipy's golden values are in its return_eigenvectors=False order; with vectors it sorts.
      const auto scipy_w = g.get<double>(key).astype<real_t<T>>();
      const auto want = vectors ? cunp::sort(scipy_w) : scipy_w;
      double scale = 1;
      for (const auto v : want.to_vector()) scale = std::max(scale, std::abs(double(v)));
      require_near(r.eigenvalues.to(cpu), want, 0, tol_of<T>() * scale);
      if (vectors) {
        REQUIRE(r.eigenvectors.shape() == shape_t{dense.shape()[0], k});
        check_pairs(dense, r.eigenvalues, r.eigenvectors);
      } else {
        CHECK(r.eigenvectors.size() == 0);
      }
    }
}

}  // namespace

TEST_CASE("eigsh: real symmetric and complex Hermitian against scipy", "[sparse_eigen]") {
  archive g("sparse_eigen");
  on_every_backend([&](cunp::device dev) {
    const auto as_is = [](const auto& m) { return m; };
    const auto to_csc = [](const auto& m) { return m.tocsc(); };
    const auto to_coo = [](const auto& m) { return m.tocoo(); };
    eigsh_cases<double, std::int32_t>(g, "H50", dev, as_is, true);
    eigsh_cases<double, std::int64_t>(g, "H120", dev, to_csc, false);
    eigsh_cases<double, std::int32_t>(g, "H300", dev, to_coo, true);
    eigsh_cases<c128, std::int64_t>(g, "C80", dev, as_is, true);
  });

}

TEST_CASE("eigsh: float32, complex64, v0, and GPU against cpu", "[sparse_eigen]") {
  archive g("sparse_eigen");
  on_every_backend([&](cunp::device dev) {
    eigsh_cases<float, std::int32_t>(g, "H120", dev, [](const auto& m) { return m; }, true);
    eigsh_cases<std::complex<float>, std::int32_t>(g, "C80", dev,
                                                   [](const auto& m) { return m; }, true);
    const auto a = matrix<double, std::int32_t>(g, "H120", dev);
    const auto v0 = g.get<double>("v0_120").to(dev);
    const auto v0_before = v0.copy();
    const auto r = spl::eigsh(a, 4, {.v0 = v0});
    require_near(r.eigenvalues.to(cpu), g.get<double>("eigsh_v0"), 0, 1e-9 * 120);
    check_pairs(a.todense(), r.eigenvalues, r.eigenvectors);
    require_equal(v0.to(cpu), v0_before.to(cpu));
    // 1 x 1 is k >= n; a 2 x 2 problem takes the whole space in one step (an invariant subspace).
    const auto d2 = sp::csr_matrix<double, std::int32_t>(cunp::array<double>({{2, 1}, {1, 2}}).to(dev));
    const auto r2 = spl::eigsh(d2, 1);
    CHECK(r2.eigenvalues.to(cpu).item() == Approx(3.0));
  });
  // The GPU's eigenvalues and (sign-fixed) vectors against the cpu backend's.
  same_on_every_backend(
      [&](cunp::device dev) {
        return spl::eigsh(matrix<double, std::int32_t>(g, "H300", dev), 6).eigenvalues;
      },
      1e-10, 0);
}

TEST_CASE("eigsh: errors with scipy's words", "[sparse_eigen]") {
  archive g("sparse_eigen");
  on_every_backend([&](cunp::device dev) {
    const auto a = matrix<double, std::int32_t>(g, "H50", dev);
    const auto data_before = a.data().copy();
    require_scipy_error(g, "eigsh_k_n", [&] { (void)spl::eigsh(a, 50); });
    require_scipy_error(g, "eigsh_k_0", [&] { (void)spl::eigsh(a, 0); });
    const auto rect = sp::csr_matrix<double, std::int32_t>(
        cunp::view(a.todense(), cunp::all, cunp::slice(0, 40)));
    require_scipy_error(g, "eigsh_square", [&] { (void)spl::eigsh(rect, 3); });
    require_scipy_error(g, "eigsh_which", [&] { (void)spl::eigsh(a, 3, {.which = "XX"}); });
    require_scipy_error(g, "eigsh_ncv", [&] { (void)spl::eigsh(a, 3, {.ncv = 3}); });
    require_scipy_error(g, "eigsh_maxiter", [&] { (void)spl::eigsh(a, 3, {.maxiter = 0}); });
    require_scipy_error(g, "eigsh_noconv", [&] {
      (void)spl::eigsh(matrix<double, std::int32_t>(g, "H300", dev), 6, {.maxiter = 1, .ncv = 7});
    });
    require_scipy_error(g, "eigsh_be_complex", [&] {
      (void)spl::eigsh(matrix<c128, std::int32_t>(g, "C80", dev), 3, {.which = "BE"});
    });
    require_scipy_error(g, "eigsh_v0_zero", [&] {
      (void)spl::eigsh(a, 3, {.v0 = cunp::zeros<double>({50}, dev)});
    });
    CHECK_THROWS_AS(spl::eigsh(a, 3, {.v0 = cunp::ones<double>({7}, dev)}), cunp::value_error);
    require_equal(a.data().to(cpu), data_before.to(cpu));
  });

}

namespace {

template <class T>
void check_triplets(const ndarray<T>& a, const spl::svds_result<T>& r, index_t k) {
  REQUIRE(r.U.shape() == shape_t{a.shape()[0], k});
  REQUIRE(r.Vh.shape() == shape_t{k, a.shape()[1]});
  const double top = r.S.to(cpu).to_vector().back();
  const auto av = cunp::matmul(a, cunp::eval(cunp::conj(r.Vh.T())));
  const auto us = r.U * r.S.template astype<T>();
  CHECK(double(cunp::linalg::norm(eval(av - us)).to(cpu).item()) <= 1e-8 * top);
  const auto eye = cunp::eye<T>(k, k, 0, a.device());
  const auto uu = cunp::matmul(cunp::eval(cunp::conj(r.U.T())), r.U);
  CHECK(double(cunp::linalg::norm(eval(uu - eye)).to(cpu).item()) <= 1e-8);
  const auto vv = cunp::matmul(r.Vh, cunp::eval(cunp::conj(r.Vh.T())));
  CHECK(double(cunp::linalg::norm(eval(vv - eye)).to(cpu).item()) <= 1e-8);
}

}  // namespace

TEST_CASE("svds: tall, wide and square against scipy", "[sparse_eigen]") {
  archive g("sparse_eigen");
  on_every_backend([&](cunp::device dev) {
    for (const std::string name : {"T", "W", "Q"})
      for (const index_t k : {1, 3}) {
        INFO(name << " k " << k);
        const std::string key = "svds_" + name + "_" + std::to_string(k);
        const auto want = g.get<double>(key);
        const auto a = matrix<double, std::int64_t>(g, name, dev);
        const auto r = spl::svds(a, k);
        REQUIRE(r.S.device() == dev);
        require_near(r.S.to(cpu), want, 0, 1e-9);
        check_triplets(a.todense(), r, k);
        const auto s_only = spl::svds(a.tocsc(), k, {.return_singular_vectors = false});
        require_near(s_only.S.to(cpu), want, 0, 1e-9);
        CHECK(s_only.U.size() == 0);
        CHECK(s_only.Vh.size() == 0);
      }
    // Complex: the singular triplets of a complex matrix, checked by their definition.
    const auto c = matrix<c128, std::int32_t>(g, "C80", dev);
    check_triplets(c.todense(), spl::svds(c, 3), 3);

    const auto t = matrix<double, std::int32_t>(g, "T", dev);
    require_scipy_error(g, "svds_k", [&] { (void)spl::svds(t, 40); });
    require_scipy_error(g, "svds_which", [&] { (void)spl::svds(t, 3, {.which = "XX"}); });
    require_scipy_error(g, "svds_ncv", [&] { (void)spl::svds(t, 3, {.ncv = 2}); });
    require_scipy_error(g, "svds_maxiter", [&] { (void)spl::svds(t, 3, {.maxiter = 0}); });
    require_scipy_error(g, "svds_tol", [&] { (void)spl::svds(t, 3, {.tol = -1.0}); });
    require_scipy_error(g, "svds_v0", [&] {
      (void)spl::svds(t, 3, {.v0 = cunp::ones<double>({7}, dev)});
    });
  });

}
