// numpy.linalg's cholesky, qr, eigh, eigvalsh, svd and svdvals (cunp/decompositions.hpp) against
// NumPy (golden/cases_decomp.py) on every backend: float32, float64, complex64, complex128 and
// int32 (computed in float64) over 0 x 0, 1 x 1, square, tall, wide, batched and empty inputs,
// transposed and negative-stride views; the triangle that must not be read filled with garbage.
// What is unique is compared with NumPy's values (Cholesky factors, LAPACK's QR, eigenvalues,
// singular values); eigenvectors and singular vectors by what defines them (orthonormal columns,
// A V = V diag(w), U diag(S) Vh = A). On a GPU: larger shapes against the cpu, and a failed
// factorisation surfacing at the next wait with the device still usable; stacks of small matrices
// (cuSOLVER's batched routes) and just over their limits (its per-matrix loop) against the cpu and
// against their matrices factorised one by one, with garbage in the triangle not read, special
// matrices (zero, rank one), a NaN in one matrix and a failed Cholesky factorisation; svd past
// the batched routes (a GPU's Xgesvdp and the Xgesvd it falls back to) on random, zero, rank-one
// and rank-two matrices.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cunp/decompositions.hpp"
#include "cunp/joining.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::ellipsis;
using cunp::newaxis;
using cunp::none;
using cunp::slice;
namespace L = cunp::linalg;

namespace {

template <class T> using real_t = typename cunp::detail::complex_parts<T>::type;

/// Rounding's tolerance for these well-conditioned problems of T, relative to the largest
/// magnitude of the result.
template <class T> double tolerance_of() { return std::is_same_v<real_t<T>, float> ? 3e-4 : 1e-11; }

template <class T> double max_magnitude(const ndarray<T>& a) {
  double m = 0;
  for (const auto& v : a.to(cpu).to_vector()) m = std::max(m, std::abs(as_complex(v)));
  return m;
}

/// got within tol of want, relative to want's largest magnitude.
template <class T> void require_scaled(const ndarray<T>& got, const ndarray<T>& want, double tol) {
  require_near(got.to(cpu), want, 0, tol * std::max(max_magnitude(want), 1.0));
}

/// a^H, C-ordered, on the cpu.
template <class T> ndarray<T> adjoint(const ndarray<T>& a) {
  const auto t = cunp::swapaxes(a.to(cpu), -1, -2);
  if constexpr (cunp::is_complex_v<T>)
    return cunp::eval(cunp::conj(t));
  else
    return t.copy();
}

/// q's columns are orthonormal: q^H q = I.
template <class T> void require_orthonormal_columns(const ndarray<T>& q, double tol) {
  const auto qc = q.to(cpu);
  const index_t c = qc.shape().back();
  const auto gram = cunp::matmul(adjoint(qc), qc);
  require_near(gram, cunp::broadcast_to(cunp::eye<T>(c, none, 0, cpu), gram.shape()).copy(), 0,
               tol);
}

/// f() against member `name`, or NumPy's error.
template <class F> void check_or_error(archive& g, const std::string& name, F&& f) {
  INFO(name);
  if (g.contains(name + "__error")) {
    const auto bytes = g.get<std::uint8_t>(name + "__error").to_vector();
    require_numpy_error([&] { (void)f(); }, std::string(bytes.begin(), bytes.end()));
  } else {
    f();
  }
}

template <class T> void hermitian_cases(archive& g, cunp::device dev) {
  using R = cunp::detail::linalg_t<T>;
  using P = real_t<R>;
  const std::string d = dname<T>();
  const double tol = tolerance_of<R>();
  for (const std::string shape : {"0x0", "1x1", "4x4", "2x3x4x4", "0x3x3"}) {
    const std::string t = d + "_" + shape;
    INFO(t);
    const auto h = g.get<T>("in_hpd_" + t).to(dev);
    const auto before = h.to(cpu);
    const auto chol = g.get<R>("chol_" + t), chol_u = g.get<R>("chol_" + t + "_upper");
    const auto w = g.get<P>("eigvalsh_" + t);
    require_scaled(L::cholesky(h), chol, tol);
    require_scaled(L::cholesky(h, true), chol_u, tol);
    const auto values = L::eigvalsh(h);
    CHECK(values.device() == dev);
    require_scaled(values, w, tol);
    require_scaled(L::svd(h, true, false, true).S, g.get<P>("svdh_" + t), tol);
    const auto e = L::eigh(h);
    require_scaled(e.eigenvalues, w, tol);
    const auto hr = h.to(cpu).template astype<R>();
    const double scale = std::max(max_magnitude(hr), 1.0);
    require_orthonormal_columns(e.eigenvectors, tol * 4);
    const auto v = e.eigenvectors.to(cpu);
    require_near(cunp::eval(cunp::matmul(hr, v)),
                 cunp::eval(v * cunp::view(e.eigenvalues.to(cpu), ellipsis, newaxis, cunp::all)
                                    .template astype<R>()),
                 0, tol * scale * 4);
    const auto s = L::svd(h, true, true, true);  // hermitian: through eigh, as NumPy
    require_near(cunp::eval(cunp::matmul(
                     s.U.to(cpu) *
                         cunp::view(s.S.to(cpu), ellipsis, newaxis, cunp::all).template astype<R>(),
                     s.Vh.to(cpu))),
                 hr, 0, tol * scale * 4);
    require_equal(h.to(cpu), before);  // never written
    if (h.size() == 0) continue;
    // only the triangle named is read
    const auto lower = g.get<T>("in_hpd_" + t + "_lower_only").to(dev);
    const auto upper = g.get<T>("in_hpd_" + t + "_upper_only").to(dev);
    require_scaled(L::cholesky(lower), chol, tol);
    require_scaled(L::cholesky(upper, true), chol_u, tol);
    require_scaled(L::eigvalsh(lower), w, tol);
    require_scaled(L::eigvalsh(upper, "U"), w, tol);
    require_scaled(L::eigh(upper, "U").eigenvalues, w, tol);
  }
  const auto h = g.get<T>("in_hpd_" + d + "_4x4").to(dev);
  const slice rev(none, none, -1);
  require_scaled(L::cholesky(cunp::view(h, rev, rev)), g.get<R>("chol_" + d + "_neg"), tol);
}

/// U diag(S) Vh = a with orthonormal U columns and Vh rows, in NumPy's shapes.
template <class R>
void require_svd_of(const ndarray<R>& a, const L::svd_result<R>& r, const std::string& name,
                    archive& g, double tol) {
  const auto want_u = g.get<R>(name + "__U"), want_vh = g.get<R>(name + "__Vh");
  require_scaled(r.S, g.get<real_t<R>>(name + "__S"), tol);
  REQUIRE(cunp::shape_str(r.U.shape()) == cunp::shape_str(want_u.shape()));
  REQUIRE(cunp::shape_str(r.Vh.shape()) == cunp::shape_str(want_vh.shape()));
  if (r.S.size() == 0) {  // the bases of an empty matrix are identities, as NumPy's
    require_equal(r.U.to(cpu), want_u);
    require_equal(r.Vh.to(cpu), want_vh);
    return;
  }
  const index_t k = r.S.shape().back();
  const auto u = cunp::view(r.U.to(cpu), ellipsis, slice(0, k));
  const auto vh = cunp::view(r.Vh.to(cpu), ellipsis, slice(0, k), cunp::all);
  const auto s = cunp::view(r.S.to(cpu), ellipsis, newaxis, cunp::all).template astype<R>();
  const double scale = std::max(max_magnitude(a), 1.0);
  require_near(cunp::eval(cunp::matmul(cunp::eval(u * s), vh)), a.to(cpu), 0, tol * scale * 4);
  require_orthonormal_columns(r.U, tol * 4);
  require_orthonormal_columns(adjoint(r.Vh.to(cpu)), tol * 4);
}

template <class T> void general_cases(archive& g, cunp::device dev) {
  using R = cunp::detail::linalg_t<T>;
  using P = real_t<R>;
  const std::string d = dname<T>();
  const double tol = tolerance_of<R>();
  for (const std::string shape :
       {"0x0", "1x1", "4x4", "2x3x4x4", "0x3x3", "5x3", "3x5", "2x5x3", "3x0", "0x3"}) {
    const std::string t = d + "_" + shape;
    INFO(t);
    const auto a = g.get<T>("in_" + t).to(dev);
    const auto before = a.to(cpu);
    const auto ar = before.template astype<R>();
    for (const std::string mode : {"reduced", "complete"}) {
      const auto q = L::qr(a, mode);
      CHECK(q.Q.device() == dev);
      require_scaled(q.Q, g.get<R>("qr_" + t + "_" + mode + "__Q"), tol);
      require_scaled(q.R, g.get<R>("qr_" + t + "_" + mode + "__R"), tol);
    }
    const auto r_only = L::qr(a, "r");
    require_scaled(r_only.R, g.get<R>("qr_" + t + "_r"), tol);
    CHECK(r_only.Q.size() == 0);
    const auto raw = L::qr_raw(a);
    require_scaled(raw.h, g.get<R>("qr_" + t + "_raw__h"), tol);
    require_scaled(raw.tau, g.get<R>("qr_" + t + "_raw__tau"), tol);
    require_scaled(L::svdvals(a), g.get<P>("svdvals_" + t), tol);
    require_svd_of(ar, L::svd(a), "svd_" + t + "_full", g, tol);
    require_svd_of(ar, L::svd(a, false), "svd_" + t + "_reduced", g, tol);
    CHECK(L::svd(a, true, false).U.size() == 0);
    require_equal(a.to(cpu), before);  // never written
  }
  const auto a = g.get<T>("in_" + d + "_4x4").to(dev);
  const auto qt = L::qr(a.T());
  require_scaled(qt.Q, g.get<R>("qr_" + d + "_T__Q"), tol);
  require_scaled(qt.R, g.get<R>("qr_" + d + "_T__R"), tol);
  require_scaled(L::svdvals(cunp::view(a, slice(none, none, -1), slice(none, none, -2))),
                 g.get<P>("svdvals_" + d + "_neg"), tol);
}

/// eig's eigenvalues sorted as np.sort sorts complex numbers (real part, then imaginary).
template <class C> ndarray<C> sorted_values(const ndarray<C>& w) {
  auto v = w.to(cpu).to_vector();
  const index_t n = w.ndim() > 0 ? w.shape().back() : 1;
  for (std::size_t z = 0; n > 0 && z < v.size(); z += static_cast<std::size_t>(n))
    std::sort(v.begin() + z, v.begin() + z + n, [](C x, C y) {
      return x.real() < y.real() || (x.real() == y.real() && x.imag() < y.imag());
    });
  return cunp::asarray(v, w.shape(), cpu);
}

/// eig(a) against NumPy's sorted eigenvalues, its vectors by a v = w v, norm 1 and their largest
/// entry real; eigvals the same values.
template <class T> void check_eig(archive& g, const ndarray<T>& a, const std::string& name) {
  using R = cunp::detail::linalg_t<T>;
  using C = std::complex<real_t<R>>;
  INFO(name);
  const double tol = tolerance_of<R>();
  const auto want = g.get<C>(name);
  const auto e = L::eig(a);
  CHECK(e.eigenvalues.device() == a.device());
  require_scaled(sorted_values(e.eigenvalues), want, tol);
  require_scaled(sorted_values(L::eigvals(a)), want, tol);
  if (a.size() == 0) return;
  const auto ac = a.to(cpu).template astype<C>();
  const auto v = e.eigenvectors.to(cpu);
  const double scale = std::max(max_magnitude(ac), 1.0);
  require_near(cunp::eval(cunp::matmul(ac, v)),
               cunp::eval(v * cunp::view(e.eigenvalues.to(cpu), ellipsis, newaxis, cunp::all)), 0,
               tol * scale * 8);
  const auto norms = cunp::eval(cunp::sqrt(cunp::sum(cunp::abs(v) * cunp::abs(v), -2)));
  require_near(norms, cunp::ones<real_t<R>>(norms.shape(), cpu), 0, tol * 4);
}

// (a function, not a lambda with a template parameter list: nvcc 13.0's front end crashes on
// that one)
template <class T> void eig_cases(archive& g, cunp::device dev) {
  for (const std::string shape : {"0x0", "1x1", "4x4", "2x3x4x4", "0x3x3", "6x6"}) {
    const std::string t = dname<T>() + "_" + shape;
    check_eig(g, g.get<T>("in_" + t).to(dev), "eig_" + t);
  }
}

// --- stacks of small matrices: the GPU's batched routes (batched_decompositions.cuh) take two or
// more matrices up to 256 x 256 (cholesky) or 32 x 32 (eigh, svd); one matrix, or larger ones, the
// per-matrix loop. Each case runs on every backend against the cpu's results and against the
// stack's matrices factorised one by one (on a GPU, the loop route).

/// Values in [-0.5, 0.5) of T in `shape`, on the cpu (complex: both parts).
template <class T> ndarray<T> random_stack(const cunp::shape_t& shape, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(cunp::shape_size(shape)));
  const auto next = [&] { return double(splitmix64(seed) >> 11) * 0x1p-53 - 0.5; };
  for (auto& e : v) {
    const double re = next();
    if constexpr (cunp::is_complex_v<T>)
      e = T(real_t<T>(re), real_t<T>(next()));
    else
      e = T(re);
  }
  return cunp::asarray(v, shape, cpu);
}

/// B B^H + n I of a random B (..., n, n): Hermitian positive definite, on the cpu.
template <class T> ndarray<T> hpd_stack(const cunp::shape_t& shape, std::uint64_t seed) {
  const auto b = random_stack<T>(shape, seed);
  const index_t n = shape.back();
  return cunp::eval(cunp::matmul(b, adjoint(b)) + cunp::eye<T>(n, none, 0, cpu) * T(double(n)));
}

/// h with garbage in the strict triangle not read (the lower one when upper, else the upper one)
/// and, with imag_diagonal, an imaginary part on a complex diagonal (which eigh ignores).
template <class T>
ndarray<T> with_garbage(const ndarray<T>& h, bool upper, std::uint64_t seed, bool imag_diagonal) {
  const auto g = cunp::eval(random_stack<T>(h.shape(), seed) * T(100));
  auto out = upper ? cunp::eval(cunp::triu(h) + cunp::tril(g, -1))
                   : cunp::eval(cunp::tril(h) + cunp::triu(g, 1));
  if constexpr (cunp::is_complex_v<T>)
    if (imag_diagonal)
      out = cunp::eval(out + cunp::eye<T>(h.shape().back(), none, 0, cpu) * T(0, 3));
  return out;
}

/// cholesky (both factors) and eigh, eigvalsh (both UPLO) of the Hermitian stack h (count, n, n)
/// against the cpu's and each matrix's alone; want_cholesky false for h not positive definite.
template <class T> void check_hermitian_stack(const ndarray<T>& h, bool want_cholesky) {
  const double tol = tolerance_of<T>();
  const index_t count = h.shape()[0];
  const double scale = std::max(max_magnitude(h), 1.0);
  if (want_cholesky) {
    const auto lower = with_garbage(h, false, 11, false), upper = with_garbage(h, true, 12, false);
    const auto want_l = L::cholesky(h), want_u = L::cholesky(h, true);
    for (const cunp::device dev : backends()) {
      INFO("cholesky on " << dev.str());
      const auto xl = lower.to(dev), xu = upper.to(dev);
      const auto l = L::cholesky(xl), u = L::cholesky(xu, true);
      CHECK(l.device() == dev);
      require_scaled(l, want_l, tol);
      require_scaled(u, want_u, tol);
      for (index_t z = 0; z < count; ++z) {
        require_scaled(cunp::view(l, z), L::cholesky(cunp::view(xl, z)).to(cpu), tol);
        require_scaled(cunp::view(u, z), L::cholesky(cunp::view(xu, z), true).to(cpu), tol);
      }
    }
  }
  if (h.shape().back() > 33) return;  // eigh's batched route stops at 32
  const auto w = L::eigvalsh(h);
  for (const bool up : {false, true}) {
    const std::string uplo = up ? "U" : "L";
    const auto in = with_garbage(h, up, 13, true);
    for (const cunp::device dev : backends()) {
      INFO("eigh UPLO " << uplo << " on " << dev.str());
      const auto x = in.to(dev);
      const auto e = L::eigh(x, uplo);
      CHECK(e.eigenvectors.device() == dev);
      require_scaled(e.eigenvalues, w, tol);
      require_scaled(L::eigvalsh(x, uplo), w, tol);
      require_orthonormal_columns(e.eigenvectors, tol * 4);
      const auto v = e.eigenvectors.to(cpu);
      const auto values = cunp::view(e.eigenvalues.to(cpu), ellipsis, newaxis, cunp::all);
      require_near(cunp::eval(cunp::matmul(h, v)), cunp::eval(v * values.template astype<T>()), 0,
                   tol * scale * 4);
      for (index_t z = 0; z < count; ++z)
        require_scaled(cunp::view(e.eigenvalues, z), L::eigvalsh(cunp::view(x, z), uplo).to(cpu),
                       tol);
    }
  }
}

/// svdvals and svd (full and reduced, and of the transposed view) of the stack a (..., m, n)
/// against the cpu's values and each matrix's alone, the factors by what defines them.
template <class T> void check_svd_stack(const ndarray<T>& a) {
  const double tol = tolerance_of<T>();
  const index_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
  const auto want = L::svdvals(a);
  const double scale = std::max(max_magnitude(a), 1.0);
  for (const cunp::device dev : backends()) {
    INFO("svd on " << dev.str());
    const auto x = a.to(dev);
    require_scaled(L::svdvals(x), want, tol);
    require_scaled(L::svd(x, true, false).S, want, tol);
    require_scaled(L::svdvals(cunp::swapaxes(x, -1, -2)), want, tol);
    for (const bool full : {true, false}) {
      INFO((full ? "full" : "reduced"));
      const auto r = L::svd(x, full);
      CHECK(r.U.device() == dev);
      CHECK(r.U.shape().back() == (full ? m : k));
      CHECK(r.Vh.shape()[r.Vh.ndim() - 2] == (full ? n : k));
      require_scaled(r.S, want, tol);
      const auto u = cunp::view(r.U.to(cpu), ellipsis, slice(0, k));
      const auto vh = cunp::view(r.Vh.to(cpu), ellipsis, slice(0, k), cunp::all);
      const auto s = cunp::view(r.S.to(cpu), ellipsis, newaxis, cunp::all).template astype<T>();
      require_near(cunp::eval(cunp::matmul(cunp::eval(u * s), vh)), a, 0, tol * scale * 4);
      require_orthonormal_columns(r.U, tol * 4);
      require_orthonormal_columns(adjoint(r.Vh), tol * 4);
    }
    const auto flat = x.reshape({-1, m, n});
    const auto values = L::svdvals(flat);
    for (index_t z = 0; z < flat.shape()[0]; ++z)
      require_scaled(cunp::view(values, z), L::svdvals(cunp::view(flat, z)).to(cpu), tol);
  }
}

template <class T> void batched_cases() {
  INFO(dname<T>());
  for (const index_t n : {1, 2, 7, 32, 33, 64, 65, 256, 257}) {
    INFO("stack of 4 Hermitian " << n << " x " << n);
    check_hermitian_stack(hpd_stack<T>({4, n, n}, 100 + std::uint64_t(n)), true);
  }
  {
    INFO("a stack of a positive definite, a zero, a rank-one matrix");
    auto h = hpd_stack<T>({3, 7, 7}, 200);
    cunp::view(h, 1).fill(T(0));
    cunp::view(h, 2).fill(T(1));
    check_hermitian_stack(h, false);
  }
  const std::vector<std::pair<index_t, index_t>> sides = {{1, 1},   {2, 2},   {7, 7},   {32, 32},
                                                          {33, 33}, {32, 20}, {20, 32}, {5, 3},
                                                          {3, 5},   {33, 20}, {20, 33}};
  for (const auto& [m, n] : sides) {
    INFO("svd of a 2 x 3 stack of " << m << " x " << n);
    check_svd_stack(random_stack<T>({2, 3, m, n}, 300 + std::uint64_t(m * 64 + n)));
  }
  for (const auto& [m, n] : std::vector<std::pair<index_t, index_t>>{{7, 5}, {5, 7}}) {
    INFO("svd of a random, a zero, a rank-one " << m << " x " << n);
    auto a = random_stack<T>({3, m, n}, 400);
    cunp::view(a, 1).fill(T(0));
    cunp::view(a, 2).fill(T(1));
    check_svd_stack(a);
  }
}

/// Matrices past the batched routes (one alone, or larger than 32 x 32) take Xgesvdp on a GPU in
/// float64 and complex128, and Xgesvd where Xgesvdp perturbs one (a singular value near zero),
/// for a tall matrix's full U, in single precision and under allow_synchronize(false): random square, tall and wide matrices alone and stacked,
/// zero, rank-one and rank-two ones, each against the cpu; a NaN matrix returns or raises NumPy's
/// error (no hang) and leaves the device usable.
template <class T> void polar_route_cases() {
  INFO(dname<T>());
  for (const auto& [m, n] : std::vector<std::pair<index_t, index_t>>{{40, 40}, {64, 48}, {48, 64}}) {
    INFO("svd of one random " << m << " x " << n);
    check_svd_stack(random_stack<T>({m, n}, 600 + std::uint64_t(m * 64 + n)));
  }
  {
    INFO("svd of a 2 x 40 x 40 stack");
    check_svd_stack(random_stack<T>({2, 40, 40}, 610));
  }
  const auto p = random_stack<T>({45, 2}, 611), q = random_stack<T>({2, 45}, 612);
  const auto rank_two = cunp::eval(cunp::matmul(p, q));
  const auto zero = cunp::zeros<T>({45, 45}, cpu), ones = cunp::ones<T>({45, 45}, cpu);
  for (const auto* a : {&zero, &ones, &rank_two}) {
    INFO("svd of a rank " << (a == &zero ? 0 : a == &ones ? 1 : 2) << " 45 x 45");
    check_svd_stack(*a);
  }
  {
    INFO("svd of a stack of a random, a zero and a rank-two 45 x 45");
    check_svd_stack(cunp::stack(std::vector<ndarray<T>>{random_stack<T>({45, 45}, 613), zero,
                                                        rank_two}));
  }
  const auto a = random_stack<T>({50, 40}, 614);
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    INFO("on " << dev.str());
    {
      INFO("allow_synchronize(false): Xgesvd, no wait");
      const auto x = a.to(dev);
      cunp::allow_synchronize(false);
      struct restore {
        ~restore() { cunp::allow_synchronize(true); }
      } restore_on_exit;
      const auto r = L::svd(x, false);
      const auto s = L::svdvals(x);
      cunp::allow_synchronize(true);
      require_scaled(r.S, L::svdvals(a), tolerance_of<T>());
      require_scaled(s, L::svdvals(a), tolerance_of<T>());
      require_orthonormal_columns(r.U, tolerance_of<T>() * 4);
    }
    auto bad = random_stack<T>({40, 40}, 615);
    cunp::view(bad, 7, 9).fill(T(NAN));
    try {
      (void)L::svd(bad.to(dev)).S.to_vector();
    } catch (const cunp::linalg_error& e) {
      CHECK(std::string(e.what()) == "SVD did not converge");
    }
    CHECK_NOTHROW(L::svdvals(a.to(dev)).to_vector());
  }
}

/// A NaN in one matrix of a stack that takes the batched routes: NumPy's eigvalsh gives that
/// matrix NaN values and its svd raises. A GPU gives cuSOLVER's result for that matrix
/// (differences.md) or NumPy's error at the next wait, the other matrices' values right either
/// way, and stays usable.
template <class T> void nan_in_stack() {
  using P = real_t<T>;
  const double tol = tolerance_of<T>();
  auto h = hpd_stack<T>({4, 7, 7}, 500);
  cunp::view(h, 2, 4, 3).fill(T(NAN));
  cunp::view(h, 2, 3, 4).fill(T(NAN));
  const auto others_right = [&](const ndarray<P>& got, auto&& one) {
    for (const index_t z : {0, 1, 3}) require_scaled(cunp::view(got, z), one(z), tol);
  };
  for (const cunp::device dev : backends()) {
    INFO(dname<T>() << " on " << dev.str());
    const auto x = h.to(dev);
    std::optional<ndarray<P>> w;
    try {
      w = L::eigvalsh(x).to(cpu);
    } catch (const cunp::linalg_error& e) {
      CHECK(!dev.is_cpu());
      CHECK(std::string(e.what()) == "Eigenvalues did not converge");
    }
    if (w) {
      others_right(*w, [&](index_t z) { return L::eigvalsh(cunp::view(h, z)); });
      if (dev.is_cpu()) CHECK(std::isnan(double(cunp::view(*w, 2, 0).item())));
    }
    if (dev.is_cpu()) {
      CHECK_THROWS_WITH(L::svdvals(x), "SVD did not converge");
    } else {
      try {
        const auto s = L::svdvals(x).to(cpu);
        others_right(s, [&](index_t z) { return L::svdvals(cunp::view(h, z)); });
      } catch (const cunp::linalg_error& e) {
        CHECK(std::string(e.what()) == "SVD did not converge");
      }
    }
    const auto ok = hpd_stack<T>({4, 7, 7}, 501).to(dev);
    CHECK_NOTHROW(L::svdvals(ok).to_vector());
    CHECK_NOTHROW(L::eigh(ok).eigenvectors.to_vector());
  }
}

/// A stack with its last matrix not positive definite, on the batched Cholesky route (5 x 7 x 7,
/// 5 x 32 x 32) and the loop (2 x 65 x 65, 1 x 7 x 7): the call returns, the next wait throws
/// NumPy's error, the device stays usable; under eager checking the call throws.
template <class T> void cholesky_failure_in_stack() {
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    for (const cunp::shape_t& shape : {cunp::shape_t{5, 7, 7}, cunp::shape_t{5, 32, 32},
                                       cunp::shape_t{2, 65, 65}, cunp::shape_t{1, 7, 7}}) {
      INFO(dname<T>() << " stack " << cunp::shape_str(shape));
      auto stack = hpd_stack<T>(shape, 600).to(dev);
      cunp::view(stack, shape[0] - 1).fill(T(1));  // rank one
      const auto f = L::cholesky(stack);
      CHECK_THROWS_WITH(f.to_vector(), "Matrix is not positive definite");
      const auto ok = L::cholesky(hpd_stack<T>(shape, 601).to(dev), true);
      CHECK_NOTHROW(ok.to_vector());
      cunp::index_checking_guard eager(cunp::index_checking::eager);
      CHECK_THROWS_AS(L::cholesky(stack), cunp::linalg_error);
    }
  }
}

}  // namespace

TEST_CASE("eig and eigvals match NumPy", "[decompositions][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("linalg_eig");
    eig_cases<float>(g, dev);
    eig_cases<double>(g, dev);
    eig_cases<std::complex<float>>(g, dev);
    eig_cases<std::complex<double>>(g, dev);
    eig_cases<std::int32_t>(g, dev);
    for (const std::string name : {"rotation", "symmetric", "triangular"})
      check_eig(g, g.get<double>("in_eig_" + name).to(dev), "eig_" + name);
    const auto one = [&](cunp::shape_t sh) { return cunp::ones<double>(sh, dev); };
    check_or_error(g, "err_eig_1d", [&] { return L::eig(one({3})); });
    check_or_error(g, "err_eig_square", [&] { return L::eig(one({2, 3})); });
    check_or_error(g, "err_eigvals_square", [&] { return L::eigvals(one({2, 3})); });
    const auto nan = cunp::asarray(std::vector<double>{NAN, 1, 1, 1}, {2, 2}, dev);
    if (dev.is_cpu())
      check_or_error(g, "err_eig_nan", [&] { return L::eig(nan); });
    else
      (void)g.get<std::uint8_t>("err_eig_nan__error");  // cuSOLVER's result (differences.md)
    g.require_all_used();
  });
}

TEST_CASE("cholesky, eigh, eigvalsh and svd(hermitian) match NumPy", "[decompositions][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("linalg_decomp");
    hermitian_cases<float>(g, dev);
    hermitian_cases<double>(g, dev);
    hermitian_cases<std::complex<float>>(g, dev);
    hermitian_cases<std::complex<double>>(g, dev);
    hermitian_cases<std::int32_t>(g, dev);
    general_cases<float>(g, dev);
    general_cases<double>(g, dev);
    general_cases<std::complex<float>>(g, dev);
    general_cases<std::complex<double>>(g, dev);
    general_cases<std::int32_t>(g, dev);

    const auto one = [&](cunp::shape_t sh) { return cunp::ones<double>(sh, dev); };
    const auto err = [&](const std::string& n, auto&& f) { check_or_error(g, "err_" + n, f); };
    err("chol_not_pd", [&] {
      cunp::index_checking_guard eager(cunp::index_checking::eager);
      return L::cholesky(cunp::asarray(std::vector<double>{1, 2, 2, 1}, {2, 2}, dev));
    });
    err("chol_1d", [&] { return L::cholesky(one({3})); });
    err("chol_square", [&] { return L::cholesky(one({2, 3})); });
    err("qr_mode", [&] { return L::qr(one({2, 2}), "xyz"); });
    err("qr_1d", [&] { return L::qr(one({3})); });
    err("eigh_uplo", [&] { return L::eigh(one({2, 2}), "X"); });
    err("eigh_square", [&] { return L::eigh(one({2, 3})); });
    err("eigh_0d", [&] { return L::eigh(one({})); });
    err("svd_1d", [&] { return L::svd(one({3})); });
    err("svdvals_1d", [&] { return L::svdvals(one({3})); });
    err("svdh_square", [&] { return L::svd(one({2, 3}), true, true, true); });
    // lower case is accepted, as NumPy's
    require_near(L::eigvalsh(one({2, 2}), "l"), g.get<double>("err_eigvalsh_uplo"), 0, 1e-15);
    CHECK_THROWS_AS(L::qr(one({2, 2}), "raw"), cunp::value_error);
    if (dev.is_cpu()) {  // a NaN: NumPy's results (a GPU's depend on cuSOLVER)
      err("svd_nan", [&] {
        return L::svd(cunp::asarray(std::vector<double>{NAN, 1, 1, 1}, {2, 2}, dev));
      });
      require_near(L::eigvalsh(g.get<double>("in_nan")), g.get<double>("eigvalsh_nan"), 0);
    } else {
      (void)g.get<std::uint8_t>("err_svd_nan__error");
      (void)g.get<double>("in_nan");
      (void)g.get<double>("eigvalsh_nan");
    }
    g.require_all_used();
  });
}

TEST_CASE("GPU decompositions equal the cpu's; a failure surfaces at the next wait",
          "[decompositions][gpu]") {
  const auto random = [](cunp::shape_t shape, std::uint64_t seed) -> ndarray<double> {
    std::vector<double> v(
        static_cast<std::size_t>(cunp::detail::extent_product(shape).value_or(0)));
    for (auto& e : v) e = double(splitmix64(seed) >> 11) * 0x1p-53 - 0.5;
    return cunp::asarray(v, shape, cpu);
  };
  const auto hpd = [&](cunp::shape_t shape, std::uint64_t seed) {
    const auto b = random(shape, seed);
    const index_t n = shape.back();
    return cunp::eval(cunp::matmul(b, cunp::swapaxes(b, -1, -2)) +
                      cunp::eye<double>(n, none, 0, cpu) * double(n));
  };
  for (const cunp::shape_t& shape : {cunp::shape_t{3, 40, 40}, cunp::shape_t{200, 200}}) {
    INFO("shape " << cunp::shape_str(shape));
    const auto h = hpd(shape, 1);
    same_on_every_backend([&](cunp::device dev) { return L::cholesky(h.to(dev)); }, 0, 1e-10);
    same_on_every_backend([&](cunp::device dev) { return L::cholesky(h.to(dev), true); }, 0, 1e-10);
    same_on_every_backend([&](cunp::device dev) { return L::eigvalsh(h.to(dev)); }, 1e-10, 1e-10);
    const auto hf = h.astype<std::complex<float>>();
    same_on_every_backend([&](cunp::device dev) { return L::eigvalsh(hf.to(dev), "U"); }, 1e-4,
                          1e-3);
  }
  for (const cunp::shape_t& shape :
       {cunp::shape_t{300, 40}, cunp::shape_t{40, 300}, cunp::shape_t{3, 50, 50}}) {
    INFO("shape " << cunp::shape_str(shape));
    const auto a = random(shape, 2);
    same_on_every_backend([&](cunp::device dev) { return L::svdvals(a.to(dev)); }, 1e-10, 1e-10);
    same_on_every_backend([&](cunp::device dev) { return L::qr(a.to(dev)).R; }, 0, 1e-10);
    same_on_every_backend([&](cunp::device dev) { return L::qr(a.to(dev), "complete").Q; }, 0,
                          1e-10);
    const auto af = a.astype<float>();
    same_on_every_backend([&](cunp::device dev) { return L::svdvals(af.to(dev)); }, 1e-4, 1e-4);
    for (const cunp::device dev : backends()) {
      INFO("on " << dev.str());
      const auto r = L::svd(a.to(dev), false);
      const index_t k = r.S.shape().back();
      const auto s = cunp::view(r.S.to(cpu), ellipsis, newaxis, cunp::all);
      require_near(cunp::eval(cunp::matmul(cunp::eval(r.U.to(cpu) * s), r.Vh.to(cpu))), a, 0,
                   1e-12);
      CHECK(r.U.shape().back() == k);
    }
  }
  for (const cunp::device dev : backends()) {
    if (dev.is_cpu()) continue;
    // Deferred: the call returns, the next wait throws NumPy's error, the device stays usable.
    auto stack = hpd({4, 3, 3}, 3).to(dev);
    cunp::view(stack, 2).fill(1.0);  // matrix 2 not positive definite
    const auto f = L::cholesky(stack);
    CHECK_THROWS_WITH(f.to_vector(), "Matrix is not positive definite");
    const auto ok = L::cholesky(hpd({3, 3}, 4).to(dev));
    CHECK_NOTHROW(ok.to_vector());
    cunp::synchronize();
    cunp::index_checking_guard eager(cunp::index_checking::eager);
    CHECK_THROWS_AS(L::cholesky(stack), cunp::linalg_error);
    CHECK_NOTHROW(L::eigvalsh(stack).to_vector());
  }
}

TEST_CASE("svd past the batched routes (the GPU's polar route and its fallback) equals the cpu's",
          "[decompositions][gpu]") {
  polar_route_cases<float>();
  polar_route_cases<double>();
  polar_route_cases<std::complex<float>>();
  polar_route_cases<std::complex<double>>();
}

TEST_CASE("Stacks of small matrices (the GPU's batched routes) equal the cpu's and the loop's",
          "[decompositions][gpu]") {
  batched_cases<float>();
  batched_cases<double>();
  batched_cases<std::complex<float>>();
  batched_cases<std::complex<double>>();
  nan_in_stack<double>();
  nan_in_stack<std::complex<float>>();
  cholesky_failure_in_stack<double>();
  cholesky_failure_in_stack<std::complex<float>>();
}

TEST_CASE("svd of a matrix whose reduction meets a subnormal column", "[decompositions]") {
  // Column 1 below the diagonal is (0, 1e-40): its reflector's scale 1 / 1e-40 overflows float32
  // (it was inf * 0 = NaN, then "SVD did not converge", or a QR iteration that spun on the NaN).
  // A 45 x 45 matrix of ones meets such a column in an unoptimised build.
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::asarray<float>({1, 0, 0, 0, 0, 0, 0, 1e-40f, 0}, {3, 3}, dev);
    const auto s = L::svdvals(a).to(cpu).to_vector();
    CHECK(s[0] == Approx(1.0f));
    CHECK(std::abs(s[1]) < 1e-6f);
    CHECK(std::abs(s[2]) < 1e-6f);
    const auto ones = cunp::ones<float>({45, 45}, dev);
    const auto r = L::svd(ones);
    CHECK(r.S.to(cpu).to_vector()[0] == Approx(45.0f));
    const auto s_row = cunp::view(r.S, newaxis, cunp::all);
    require_near(cunp::eval(cunp::matmul(cunp::eval(r.U * s_row), r.Vh)).to(cpu),
                 cunp::ones<float>({45, 45}, cpu), 0, 1e-4);
  });
}
