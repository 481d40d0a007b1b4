// scipy.sparse.linalg's cg and gmres (cunp/sparse_iterative.hpp) against scipy
// (golden/cases_sparse_solvers.py) on every backend: each value type, int32 and int64 indices,
// csr, csc and coo matrices (float64 and complex128), x0, maxiter reached (info > 0) and the
// iteration count where scipy converges, b == 0, diagonal and sparse preconditioners, atol,
// 1 x 1 systems and every error scipy raises; then what scipy does not test itself: operands
// left unchanged, options' errors, an empty system. The archive lists its cases (member
// `cases`), so one loop runs them all, one instantiation per value type.
#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cunp/sparse.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
namespace sp = cunp::sparse;
namespace sl = cunp::sparse::linalg;

namespace {

template <class T> using real_t = typename cunp::detail::complex_parts<T>::type;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

// (An alias: nvcc's host code turned std::complex<double> spelt inside the template below into
// a dependent std::conditional that g++ then rejected.)
using golden_complex = std::complex<double>;

/// A golden complex128 array as T (the real part for a real T).
template <class T> ndarray<T> as_type(archive& g, const std::string& name, cunp::device dev) {
  const auto a = g.get<golden_complex>(name);
  if constexpr (cunp::is_complex_v<T>)
    return a.template astype<T>().to(dev);
  else
    return cunp::real(a).template astype<T>().to(dev);
}

template <class T, class I>
sp::csr_matrix<T, I> matrix_of(archive& g, const std::string& name, cunp::device dev) {
  const auto ip = g.get<std::int64_t>(name + "_indptr");
  const index_t rows = ip.size() - 1;
  const auto ix = g.get<std::int64_t>(name + "_indices");
  index_t cols = rows;
  if (name == "W") cols = 4;
  return sp::csr_matrix<T, I>(as_type<T>(g, name + "_data", dev), ix.template astype<I>().to(dev),
                              ip.template astype<I>().to(dev), {rows, cols});
}

/// One line of `cases`, its fields by name.
struct solve_case {
  std::string key, solver, dtype, mat, b, x0, M;
  double rtol = 0, atol = 0;
  std::optional<index_t> maxiter, restart;
};
solve_case parse(const std::string& line) {
  const auto f = split(line, ';');
  const auto opt = [](const std::string& s) {
    return s == "None" ? std::optional<index_t>() : std::optional<index_t>(std::stoll(s));
  };
  return {f[0],      f[1],     f[2], f[3], f[4], f[5], f[10], std::stod(f[6]), std::stod(f[7]),
          opt(f[8]), opt(f[9])};
}

/// The solve of case c with A as `a` (any format and index type), on a's device.
template <class T, class MA>
sl::solve_result<T> solve(archive& g, const solve_case& c, const MA& a, cunp::device dev) {
  const ndarray<T> b = as_type<T>(g, "b_" + c.b, dev);
  std::optional<ndarray<T>> x0;
  if (c.x0 != "None") x0 = as_type<T>(g, "b_" + c.x0, dev);
  sl::preconditioner<T> m;
  if (c.M == "P") m = matrix_of<T, std::int64_t>(g, "P", dev);
  if (c.M == "diag") m = ndarray<T>(T(1) / a.diagonal());
  if (c.solver == "cg")
    return sl::cg(a, b, {.x0 = x0, .rtol = c.rtol, .atol = c.atol, .maxiter = c.maxiter, .M = m});
  return sl::gmres(a, b,
                   {.x0 = x0,
                    .rtol = c.rtol,
                    .atol = c.atol,
                    .restart = c.restart,
                    .maxiter = c.maxiter,
                    .M = m});
}

/// Case c on device dev for value type T: scipy's x (to the rounding of a few iterations in
/// T) and info, or scipy's error; float64 and complex128 in every format and index type.
template <class T> void run_case(archive& g, const solve_case& c, cunp::device dev) {
  const auto a = matrix_of<T, std::int32_t>(g, c.mat, dev);
  const std::string key = c.key;
  if (g.contains(key + "__error")) {
    const auto bytes = g.get<std::uint8_t>(key + "__error").to_vector();
    require_numpy_error([&] { (void)solve<T>(g, c, a, dev); },
                        std::string(bytes.begin(), bytes.end()));
    return;
  }
  const ndarray<T> want = g.get<T>(key + "__x");
  const index_t info = g.get<std::int64_t>(key + "__info").to_vector()[0];
  const double tol = std::is_same_v<real_t<T>, float> ? 2e-4 : 1e-10;
  const auto check = [&](const sl::solve_result<T>& r, const char* form) {
    INFO(key << " as " << form << " on " << dev.str());
    CHECK(r.x.device() == dev);
    CHECK(r.info == info);
    require_near(r.x.to(cpu), want, 0, tol);
  };
  check(solve<T>(g, c, a, dev), "csr int32");
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>) {
    const auto a64 = matrix_of<T, std::int64_t>(g, c.mat, dev);
    check(solve<T>(g, c, a64, dev), "csr int64");
    check(solve<T>(g, c, a.tocsc(), dev), "csc int32");
    check(solve<T>(g, c, a64.tocoo(), dev), "coo int64");
  }
}

}  // namespace

TEST_CASE("cg and gmres match scipy", "[sparse_solvers][golden]") {
  archive g("sparse_solvers");
  const auto bytes = g.get<std::uint8_t>("cases").to_vector();
  const auto lines = split(std::string(bytes.begin(), bytes.end()), '\n');
  on_every_backend([&](cunp::device dev) {
    for (const std::string& line : lines) {
      const solve_case c = parse(line);
      if (c.dtype == "float32") run_case<float>(g, c, dev);
      if (c.dtype == "float64") run_case<double>(g, c, dev);
      if (c.dtype == "complex64") run_case<std::complex<float>>(g, c, dev);
      if (c.dtype == "complex128") run_case<std::complex<double>>(g, c, dev);
    }
  });
}

TEST_CASE("cg and gmres leave their operands as they are and check their options",
          "[sparse_solvers]") {
  on_every_backend([&](cunp::device dev) {
    const index_t n = 8;
    const ndarray<double> d = cunp::full<double>({n}, 3.0, dev);
    const auto a = sp::diags(d);
    const ndarray<double> b = cunp::arange<double>(1.0, 9.0).to(dev);
    const ndarray<double> x0 = cunp::full<double>({n}, 0.5, dev);
    const ndarray<double> b_before = b.copy(), x0_before = x0.copy();
    const auto r = sl::cg(a, b, {.x0 = x0});
    const auto s = sl::gmres(a, b, {.x0 = x0, .restart = 100});
    CHECK(r.info == 0);
    CHECK(s.info == 0);
    require_near(r.x.to(cpu), ndarray<double>(b_before / 3.0).to(cpu), 0, 1e-12);
    require_near(s.x.to(cpu), ndarray<double>(b_before / 3.0).to(cpu), 0, 1e-12);
    require_equal(b.to(cpu), b_before.to(cpu));
    require_equal(x0.to(cpu), x0_before.to(cpu));
    // A column b (n, 1) is taken as scipy's: x is 1-d.
    const auto col = sl::cg(a, b.reshape({n, 1}));
    CHECK(col.x.shape() == cunp::shape_t{n});
    // gmres's restart and maxiter below 1 (scipy fails on them unchecked), cg's maxiter 0
    // (scipy: x0 back, info 0).
    CHECK_THROWS_AS(sl::gmres(a, b, {.restart = 0}), cunp::value_error);
    CHECK_THROWS_AS(sl::gmres(a, b, {.maxiter = 0}), cunp::value_error);
    const auto z = sl::cg(a, b, {.x0 = x0, .maxiter = 0});
    CHECK(z.info == 0);
    require_equal(z.x.to(cpu), x0_before.to(cpu));
    // A preconditioner of another length.
    CHECK_THROWS_AS(sl::cg(a, b, {.M = cunp::ones<double>({n + 1}, dev)}), cunp::value_error);
    // An empty system: x empty, info 0.
    const auto e = sl::cg(sp::csr_matrix<double>({0, 0}, dev), ndarray<double>({0}, dev));
    CHECK(e.info == 0);
    CHECK(e.x.size() == 0);
    // Promotion: a float32 matrix and a float64 b solve in float64.
    const auto f = sl::gmres(a.astype<float>(), b);
    static_assert(std::is_same_v<decltype(f.x), ndarray<double>>);
  });
}

TEST_CASE("sparse::random: scipy's count, distinct positions, values in [0, 1), errors",
          "[sparse_solvers][random]") {
  archive g("sparse_solvers");
  const auto text = [&](const std::string& k) {
    const auto bytes = g.get<std::uint8_t>(k).to_vector();
    return std::string(bytes.begin(), bytes.end());
  };
  // The same generator state gives the same matrix on every backend.
  const auto make = [](cunp::device dev) {
    auto rng = cunp::random::default_rng(7);
    return sp::random<sp::format::csr, double>(40, 30, 0.3, rng, dev);
  };
  const auto ref = make(cpu);
  on_every_backend([&](cunp::device dev) {
    const auto a = make(dev);
    CHECK(a.device() == dev);
    require_equal(a.todense().to(cpu), ref.todense());
    // scipy: int(round(density m n)), half to even: 0.3 * 40 * 30 = 360; 0.3 * 5 * 7 = 10.5 -> 10.
    CHECK(a.nnz() == 360);
    auto rng = cunp::random::default_rng(1);
    const auto c =
        sp::random<sp::format::coo, std::complex<float>, std::int64_t>(5, 7, 0.3, rng, dev);
    CHECK(c.nnz() == 10);
    const auto cv = c.data().to(cpu).to_vector();
    for (const auto& v : cv)
      CHECK((v.real() >= 0 && v.real() < 1 && v.imag() >= 0 && v.imag() < 1));
    // Distinct positions: the canonical form (duplicates added) keeps every entry.
    CHECK(c.tocsr().nnz() == 10);
    const auto cc = sp::random<sp::format::csc, float>(6, 6, 1.0, rng, dev);
    CHECK(cc.nnz() == 36);
    CHECK(sp::random(6, 6, 0.0, rng, dev).nnz() == 0);
    CHECK(sp::random(0, 6, 0.5, rng, dev).nnz() == 0);
    // Values in [0, 1), none an explicit zero of the pattern's bookkeeping.
    const auto v = a.data().to(cpu).to_vector();
    for (const double x : v) CHECK((x >= 0 && x < 1));
    require_numpy_error([&] { (void)sp::random(3, 3, 1.5, rng, dev); }, text("random_err_high"));
    require_numpy_error([&] { (void)sp::random(3, 3, -0.1, rng, dev); }, text("random_err_low"));
  });
  // Uniform positions: over 200 draws of 10 entries of a 10 x 10 matrix each cell is hit about
  // 20 times; a chi-square of the 100 counts (99 degrees of freedom) stays far below 200.
  auto rng = cunp::random::default_rng(3);
  std::vector<double> hits(100, 0);
  for (int t = 0; t < 200; ++t) {
    const auto a = sp::random<sp::format::coo, double>(10, 10, 0.1, rng);
    const auto r = a.row().to_vector(), cidx = a.col().to_vector();
    for (std::size_t k = 0; k < r.size(); ++k) hits[r[k] * 10 + cidx[k]] += 1;
  }
  double chi2 = 0;
  for (const double h : hits) chi2 += (h - 20) * (h - 20) / 20;
  CHECK(chi2 < 200);
  CHECK(chi2 > 40);
}

TEST_CASE("cg and gmres on a GPU equal the cpu's on a larger random system",
          "[sparse_solvers][gpu]") {
  // A = B^T B + n I for a random sparse B (sp::random: the same B on every backend), n = 400:
  // SPD, well conditioned; both backends run the same iterations, so x agrees to rounding and
  // info is the same.
  const index_t n = 400;
  const auto make_a = [&](cunp::device dev) {
    auto rng = cunp::random::default_rng(11);
    const auto b = sp::random<sp::format::csr, double>(n, n, 0.02, rng, dev);
    return cunp::matmul(b.T(), b) + sp::eye<double>(n, std::nullopt, 0, dev) * double(n);
  };
  const auto rhs = [&](cunp::device dev) {
    return ndarray<double>(cunp::sin(cunp::arange<double>(0.0, double(n)))).to(dev);
  };
  index_t info_cpu = -1;
  same_on_every_backend(
      [&](cunp::device dev) {
        const auto r = sl::cg(make_a(dev), ndarray<double>(rhs(dev)), {.rtol = 1e-12});
        if (dev == cpu) info_cpu = r.info;
        CHECK(r.info == info_cpu);
        return r.x;
      },
      1e-9, 1e-12);
  same_on_every_backend(
      [&](cunp::device dev) {
        const auto r =
            sl::gmres(make_a(dev), ndarray<double>(rhs(dev)), {.rtol = 1e-12, .restart = 7});
        if (dev == cpu) info_cpu = r.info;
        CHECK(r.info == info_cpu);
        return r.x;
      },
      1e-9, 1e-12);
  // An overfull A (more stored entries than places: [[4, 1], [1, 3]] with each entry in three
  // parts), which cuSPARSE's descriptors refuse as it is: A and M are given summed.
  const auto overfull = [](cunp::device dev) {
    std::vector<double> data;
    std::vector<std::int32_t> indices, indptr{0};
    const double a[2][2] = {{4, 1}, {1, 3}};
    for (int i = 0; i < 2; ++i) {
      for (int part = 0; part < 3; ++part)
        for (int j = 0; j < 2; ++j) {
          data.push_back(a[i][j] / 3);
          indices.push_back(j);
        }
      indptr.push_back(static_cast<std::int32_t>(data.size()));
    }
    return sp::csr_matrix<double>(cunp::asarray(data, {12}, dev), cunp::asarray(indices, {12}, dev),
                                  cunp::asarray(indptr, {3}, dev), {2, 2});
  };
  same_on_every_backend(
      [&](cunp::device dev) {
        const auto b = cunp::asarray(std::vector<double>{1, 2}, {2}, dev);
        const auto r = sl::cg(overfull(dev), b, {.rtol = 1e-12, .M = overfull(dev)});
        CHECK(r.info == 0);
        return r.x;
      },
      1e-12, 1e-12);
}

TEST_CASE("cg and gmres on a GPU: devices and waits", "[sparse_solvers][gpu]") {
  if (!CUNP_HAS_CUDA || !cunp::cuda_available()) return;
  const cunp::device gpu = cunp::cuda(0);
  const auto a = sp::diags(cunp::full<double>({6}, 2.0, gpu));
  const ndarray<double> b = cunp::ones<double>({6}, gpu);
  // Operands on two devices: device_error.
  CHECK_THROWS_AS(sl::cg(a, b.to(cpu)), cunp::device_error);
  CHECK_THROWS_AS(sl::gmres(a, b, {.x0 = cunp::zeros<double>({6}, cpu)}), cunp::device_error);
  CHECK_THROWS_AS(sl::cg(a, b, {.M = cunp::ones<double>({6}, cpu)}), cunp::device_error);
  // The convergence check reads the device's flags: a wait, which allow_synchronize(false)
  // refuses (with a device_error naming it).
  cunp::allow_synchronize(false);
  CHECK_THROWS_AS(sl::cg(a, b), cunp::device_error);
  CHECK_THROWS_AS(sl::gmres(a, b), cunp::device_error);
  cunp::allow_synchronize(true);
  cunp::synchronize(gpu);
  const auto r = sl::cg(a, b);
  CHECK(r.info == 0);
  require_near(r.x.to(cpu), cunp::full<double>({6}, 0.5), 0, 1e-12);
}
