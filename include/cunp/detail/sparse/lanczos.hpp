// cunp/detail/sparse/lanczos.hpp: thick-restart Lanczos with full reorthogonalisation, the one
// algorithm behind sparse::linalg::eigsh and svds. Written once over cunp's own operations (the
// operator, dense matmul for the Gram-Schmidt passes, linalg::norm, element-wise expressions), so
// the cpu and a GPU run the same iteration on the operator's device and agree to rounding. Each
// Lanczos step stays on the device: its scalars (the Gram-Schmidt coefficients, beta) are
// 0-d or short device arrays written into the projected matrix's device copy; the host reads
// that (ncv + 1) x ncv matrix once per restart, to solve the small eigenproblem and decide.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/decompositions.hpp"
#include "cunp/linalg_norms.hpp"
#include "cunp/products.hpp"
#include "cunp/random.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::detail::lanczos {

template <class T> using real_of = typename complex_parts<T>::type;

/// The operator y = op(x) on 1-d arrays of the problem's device (one type-erased call: the
/// algorithm is instantiated once per value type, whatever matrix type feeds it).
template <class T> using linear_operator = std::function<ndarray<T>(const ndarray<T>&)>;

/// A Hermitian eigenproblem as eigsh has checked it. which: "LM", "SM", "LA", "SA" or "BE".
struct problem {
  index_t n = 0, k = 0, ncv = 0, maxiter = 0;
  std::string which;
  double tol = 0;
  bool vectors = true;
};

/// The k wanted Ritz pairs, eigenvalues ascending; vectors (k, n) as rows (empty when not asked).
template <class T> struct ritz_pairs {
  std::vector<double> values;
  ndarray<T> vectors;
};

/// ARPACK's "machine precision" when tol is 0: LAPACK's dlamch('E'), half of the epsilon.
template <class R> double default_tol() { return std::numeric_limits<R>::epsilon() / 2; }

/// The deterministic start (and fresh restart) vector: uniform in [-1, 1) from cunp's PCG64,
/// which gives the same numbers on every backend (scipy draws a random one each call).
template <class Backend, class T> ndarray<T> fixed_vector(index_t n, std::uint64_t seed, device dev) {
  auto g = random::default_rng(seed);
  const auto u = g.template uniform<real_of<T>, Backend>(-1.0, 1.0, {n}, dev);
  if constexpr (is_complex_v<T>) return u.template astype<T>();
  else return u;
}

/// V^H w for the first rows of V (each row a basis vector): one gemv, conj'd only as vectors.
template <class Backend, class T> ndarray<T> project(const ndarray<T>& basis, const ndarray<T>& w) {
  if constexpr (is_complex_v<T>)
    return eval<Backend>(conj(cunp::matmul<Backend>(basis, eval<Backend>(conj(w)))));
  else return cunp::matmul<Backend>(basis, w);
}

/// w minus its components along the rows of basis, twice (classical Gram-Schmidt, repeated: one
/// pass loses orthogonality when w is nearly in their span). Returns the coefficients' sum.
template <class Backend, class T> ndarray<T> orthogonalise(const ndarray<T>& basis, ndarray<T>& w) {
  const auto h1 = project<Backend>(basis, w);
  w = eval<Backend>(w - cunp::matmul<Backend>(basis.T(), h1));
  const auto h2 = project<Backend>(basis, w);
  w = eval<Backend>(w - cunp::matmul<Backend>(basis.T(), h2));
  return eval<Backend>(h1 + h2);
}

/// The order in which the Ritz values theta (ascending) are wanted: the most wanted first.
inline std::vector<index_t> wanted_order(const std::vector<double>& theta, const std::string& which) {
  const auto m = static_cast<index_t>(theta.size());
  std::vector<index_t> idx(static_cast<std::size_t>(m));
  std::iota(idx.begin(), idx.end(), index_t{0});
  if (which == "LA") {
    std::reverse(idx.begin(), idx.end());
  } else if (which == "LM") {
    // Largest magnitude first; stable, so of +x and -x the larger (algebraically) wins last.
    std::stable_sort(idx.begin(), idx.end(), [&](index_t a, index_t b) {
      return std::abs(theta[static_cast<std::size_t>(a)]) > std::abs(theta[static_cast<std::size_t>(b)]);
    });
  } else if (which == "SM") {
    std::stable_sort(idx.begin(), idx.end(), [&](index_t a, index_t b) {
      return std::abs(theta[static_cast<std::size_t>(a)]) < std::abs(theta[static_cast<std::size_t>(b)]);
    });
  } else if (which == "BE") {
    // ARPACK's BE: alternately from the high and the low end, the high end first.
    std::vector<index_t> out;
    for (index_t lo = 0, hi = m - 1; lo <= hi;) {
      out.push_back(hi--);
      if (lo <= hi) out.push_back(lo++);
    }
    idx = out;
  }  // SA: ascending already
  return idx;
}

/// Runs thick-restart Lanczos on op from v0 (any nonzero vector; unnormalised is fine).
/// Throws linalg_error with ARPACK's words when maxiter restarts do not converge.
template <class Backend, class T>
ritz_pairs<T> solve(const linear_operator<T>& op, const ndarray<T>& v0, const problem& p) {
  using R = real_of<T>;
  const device dev = v0.device();
  const index_t n = p.n, ncv = p.ncv, k = p.k;
  const double tol = p.tol > 0 ? p.tol : default_tol<R>();
  const double eps23 = std::pow(default_tol<R>(), 2.0 / 3.0);
  // Breakdown (an invariant subspace) when beta is this small against |A v|: the vector left
  // after Gram-Schmidt is rounding. The step then writes a zero vector and beta 0, which the
  // host finds at the restart and replaces by a fresh vector.
  const R breakdown = R(4) * R(ncv) * std::numeric_limits<R>::epsilon();

  ndarray<T> basis = zeros<T>({ncv + 1, n}, dev);  // rows: the Lanczos vectors
  ndarray<T> hd = zeros<T>({ncv + 1, ncv}, dev);   // column j: V^H A v_j, then beta_j
  copyto<Backend>(view(basis, 0), eval<Backend>(v0 / cunp::linalg::norm<Backend>(v0)));

  std::vector<double> kept;  // the kept Ritz values (the projected matrix's leading diagonal)
  std::vector<T> arrow;      // their couplings to the next vector: beta times Y's last row
  std::uint64_t fresh_seed = 1;
  for (index_t iter = 1;; ++iter) {
    const auto first = static_cast<index_t>(kept.size());
    for (index_t j = first; j < ncv; ++j) {
      ndarray<T> w = op(view(basis, j));
      const auto anorm = cunp::linalg::norm<Backend>(w);
      const auto h = orthogonalise<Backend>(view(basis, slice(0, j + 1)), w);
      const auto beta = cunp::linalg::norm<Backend>(w);
      const auto ok = eval<Backend>(beta > breakdown * anorm);
      copyto<Backend>(view(basis, j + 1), eval<Backend>(w * where(ok, R(1) / beta, R(0))));
      copyto<Backend>(view(hd, slice(0, j + 1), j), h);
      copyto<Backend>(view(hd, j + 1, j), eval<Backend>(where(ok, beta, R(0))));
    }
    // The restart's one read: the projected matrix's new columns.
    const auto hv = hd.to(cpu).to_vector();
    const auto at = [&](index_t i, index_t j) { return hv[static_cast<std::size_t>(i * ncv + j)]; };
    index_t m = ncv;
    for (index_t j = first; j < ncv; ++j)
      if (at(j + 1, j) == T(0)) {
        m = j + 1;
        break;
      }
    const bool exhausted = m < ncv || at(ncv, ncv - 1) == T(0);
    const double beta_last = exhausted ? 0.0 : std::abs(std::complex<double>(at(ncv, ncv - 1)));

    // The projected matrix as thick-restart Lanczos has it, exactly: the kept Ritz values on the
    // diagonal, their couplings to the first new vector (the arrow), then tridiagonal. The other
    // Gram-Schmidt coefficients are rounding; taking them in would put a floor of rounding under
    // the Ritz vectors' last components, which the convergence test below reads.
    std::vector<T> tm(static_cast<std::size_t>(m * m), T(0));
    const auto tset = [&](index_t i, index_t j, T v) { tm[static_cast<std::size_t>(i * m + j)] = v; };
    for (index_t i = 0; i < first; ++i) {
      tset(i, i, T(R(kept[static_cast<std::size_t>(i)])));
      const T s = arrow[static_cast<std::size_t>(i)];
      tset(first, i, s);
      if constexpr (is_complex_v<T>) tset(i, first, std::conj(s));
      else tset(i, first, s);
    }
    for (index_t j = first; j < m; ++j) {
      tset(j, j, T(std::real(at(j, j))));
      if (j + 1 < m) tset(j + 1, j, at(j + 1, j)), tset(j, j + 1, at(j + 1, j));
    }
    // The projected matrix is at most ncv x ncv: its eigh runs on the cpu, whose results the
    // host needs anyway for the convergence test and the choice of vectors to keep.
    const auto e = cunp::linalg::eigh<Backend>(asarray(tm, {m, m}, cpu));
    const auto ev = e.eigenvalues.to_vector();
    const auto y = e.eigenvectors.to_vector();  // (m, m), columns the Ritz vectors' coordinates
    const std::vector<double> theta(ev.begin(), ev.end());
    const auto order = wanted_order(theta, p.which);

    const index_t nwant = std::min(k, m);
    index_t nconv = 0;
    for (index_t i = 0; i < nwant; ++i) {
      const auto c = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
      const double res = beta_last * std::abs(std::complex<double>(y[static_cast<std::size_t>(m - 1) * m + c]));
      if (res <= tol * std::max(eps23, std::abs(theta[c]))) ++nconv;
    }
    // Kept Ritz vectors (rows): the columns sel of Y, transposed, times V's first m rows.
    const auto ritz = [&](const std::vector<index_t>& cols) {
      const auto count = static_cast<index_t>(cols.size());
      std::vector<T> yt(static_cast<std::size_t>(count * m));
      for (index_t r = 0; r < count; ++r)
        for (index_t i = 0; i < m; ++i)
          yt[static_cast<std::size_t>(r * m + i)] =
              y[static_cast<std::size_t>(i * m + cols[static_cast<std::size_t>(r)])];
      return cunp::matmul<Backend>(asarray(yt, {count, m}, dev), view(basis, slice(0, m)));
    };
    if (nwant == k && nconv == k) {
      // scipy's order (ARPACK's dseupd): with vectors, ascending algebraically; without, the
      // most wanted last (BE: ascending).
      std::vector<index_t> sorted(order.begin(), order.begin() + k);
      if (p.vectors || p.which == "BE")
        std::stable_sort(sorted.begin(), sorted.end(), [&](index_t a, index_t b) {
          return theta[static_cast<std::size_t>(a)] < theta[static_cast<std::size_t>(b)];
        });
      else std::reverse(sorted.begin(), sorted.end());
      ritz_pairs<T> out;
      for (const index_t c : sorted) out.values.push_back(theta[static_cast<std::size_t>(c)]);
      out.vectors = p.vectors ? ritz(sorted) : zeros<T>({0}, dev);
      return out;
    }
    if (iter > p.maxiter)
      throw linalg_error("ARPACK error -1: No convergence (" + std::to_string(iter) +
                         " iterations, " + std::to_string(nconv) + "/" + std::to_string(k) +
                         " eigenvectors converged)");
    // Thick restart: keep the most wanted Ritz vectors (more than k, which speeds convergence,
    // but leave room for new steps), then go on from the residual vector v_ncv, or from a fresh
    // vector orthogonal to the kept ones when the Krylov space was invariant.
    const index_t keep = exhausted ? std::min(m, ncv - 1) : std::min(k + (ncv - k) / 2, ncv - 1);
    const auto kept_vectors = ritz(std::vector<index_t>(order.begin(), order.begin() + keep));
    copyto<Backend>(view(basis, slice(0, keep)), kept_vectors);
    kept.assign(static_cast<std::size_t>(keep), 0.0);
    arrow.assign(static_cast<std::size_t>(keep), T(0));
    for (index_t i = 0; i < keep; ++i) {
      const auto c = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
      kept[static_cast<std::size_t>(i)] = theta[c];
      arrow[static_cast<std::size_t>(i)] = T(R(beta_last)) * y[static_cast<std::size_t>(m - 1) * m + c];
    }
    if (!exhausted) {
      copyto<Backend>(view(basis, keep), eval<Backend>(view(basis, ncv)));
    } else {
      ndarray<T> f = fixed_vector<Backend, T>(n, fresh_seed++, dev);
      (void)orthogonalise<Backend>(view(basis, slice(0, keep)), f);
      copyto<Backend>(view(basis, keep), eval<Backend>(f / cunp::linalg::norm<Backend>(f)));
    }
  }
}

}  // namespace cunp::detail::lanczos
