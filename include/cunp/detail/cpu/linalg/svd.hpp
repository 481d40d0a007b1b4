// cunp/detail/cpu/linalg/svd.hpp: the cpu backend of svd, our own code (no LAPACK): Golub-Kahan
// Householder bidiagonalisation (LAPACK's gebrd, unblocked) of the matrix, or of its conjugate
// transpose when it is wide, a diagonal unitary scaling that makes the bidiagonal real, then the
// Golub-Reinsch implicit shifted QR iteration on it (LINPACK's svdc, as in JAMA), its plane
// rotations accumulated into the two Householder bases. Runs in the input's precision.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <vector>

#include "cunp/detail/cpu/linalg/eigh.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail::cpu_linalg::spectral {

/// Reduces the m x n row-major b (m >= n) to upper bidiagonal form U^H b V = B: diagonal d,
/// superdiagonal f (complex for a complex b). The left reflector k (rows k ..) keeps its v in
/// column k of b from the diagonal down (v[0] = 1), tau_l[k]; the right one (columns k + 1 ..)
/// keeps its v in row k right of the diagonal, tau_r[k]; U = H_0 ... H_{n-1}, V = G_0 ... G_{n-3}.
/// A left reflector is applied by blocks of columns (w = v^H b, then b -= tau v w, each block by
/// one thread), a right one row by row; both vectorise along rows.
template <class T, class R>
void bidiagonalize(T* b, index_t m, index_t n, T* d, T* f, R* tau_l, R* tau_r) {
  std::vector<T> v(static_cast<std::size_t>(m));
  constexpr index_t block = 64;
  for (index_t k = 0; k < n; ++k) {
    // left: zero column k below the diagonal
    T beta;
    T* col = b + k * n + k;
    const index_t rows = m - k, cols = n - k - 1;
    const R tl = make_reflector(col, rows, n, beta);
    d[k] = beta;
    tau_l[k] = tl;
    if (tl != 0 && cols > 0) {
      for (index_t i = 0; i < rows; ++i) v[i] = col[i * n];
      const index_t blocks = (cols + block - 1) / block;
#pragma omp parallel for schedule(static) if (may_fork(double(rows) * double(cols)))
      for (index_t bl = 0; bl < blocks; ++bl) {
        const index_t c0 = k + 1 + bl * block, w = std::min(block, n - c0);
        std::array<T, block> acc{};
        for (index_t i = 0; i < rows; ++i) {
          const T* row = b + (k + i) * n + c0;
          const T vi = v[i];
#pragma omp simd
          for (index_t c = 0; c < w; ++c) acc[c] += mulc(vi, row[c]);
        }
        for (index_t i = 0; i < rows; ++i)
          sub_scaled(b + (k + i) * n + c0, acc.data(), v[i] * tl, w);
      }
    }
    if (cols == 0) continue;
    // right: zero row k beyond the superdiagonal, by the reflector of its conjugate
    if (cols == 1) {
      f[k] = b[k * n + k + 1];
      tau_r[k] = 0;
      continue;
    }
    T* row = b + k * n + k + 1;
    for (index_t j = 0; j < cols; ++j) row[j] = conj_of(row[j]);
    const R tr = make_reflector(row, cols, 1, beta);
    f[k] = conj_of(beta);
    tau_r[k] = tr;
    if (tr == 0) {
      for (index_t j = 0; j < cols; ++j) row[j] = conj_of(row[j]);  // untouched: restore it
      continue;
    }
    // b_i <- b_i (I - tau u u^H) for the rows below
#pragma omp parallel for schedule(static) if (may_fork(double(m - k - 1) * double(cols)))
    for (index_t i = k + 1; i < m; ++i) {
      T* r = b + i * n + k + 1;
      const T t = dotu(r, row, cols) * tr;
      sub_scaled(r, row, t, cols, true);
    }
  }
}

/// The singular values of the real upper bidiagonal matrix of diagonal s and superdiagonal e (n
/// each; e[n - 1] = 0), left in s unsorted and possibly negative, by the Golub-Reinsch implicit
/// shifted QR iteration with LINPACK's negligibility tests (|e_k| <= tiny + eps (|s_k| + |s_k+1|)
/// and alike for s_k: singular values to a few eps times the norm). The rotations of the right
/// basis go to rows of vt (n rows of n), those of the left basis to rows of ut (rows of `ulen`),
/// each unless null (ut's first n rows). Returns false after 6 n^2 rotations of QR sweeps
/// (LAPACK's bdsqr's limit).
template <class T, class R> bool bidiagonal_qr(R* s, R* e, index_t n, T* ut, index_t ulen, T* vt) {
  const R eps = std::numeric_limits<R>::epsilon();
  const R tiny = std::numeric_limits<R>::min() / eps;
  // A NaN is never negligible and the deflating cases below take no budget: it would spin.
  for (index_t i = 0; i < n; ++i)
    if (!std::isfinite(s[i]) || !std::isfinite(e[i])) return false;
  rotation_log<T, R> lu(ut, n, ulen), lv(vt, n, n);
  std::vector<char> negated(static_cast<std::size_t>(n), 0);
  index_t budget = 6 * n * n;
  index_t p = n;
  while (p > 0) {
    // k: the largest index below p - 1 with e[k] negligible (-1 if none)
    index_t k;
    for (k = p - 2; k >= 0; --k)
      if (std::abs(e[k]) <= tiny + eps * (std::abs(s[k]) + std::abs(s[k + 1]))) {
        e[k] = 0;
        break;
      }
    int kase;
    if (k == p - 2) {
      kase = 4;  // s[p - 1] has converged
    } else {
      index_t ks;
      for (ks = p - 1; ks > k; --ks) {
        const R t = (ks != p ? std::abs(e[ks]) : R(0)) + (ks != k + 1 ? std::abs(e[ks - 1]) : R(0));
        if (std::abs(s[ks]) <= tiny + eps * t) {
          s[ks] = 0;
          break;
        }
      }
      if (ks == k) {
        kase = 3;
      } else if (ks == p - 1) {
        kase = 1;
      } else {
        kase = 2;
        k = ks;
      }
    }
    ++k;
    // rotations that cannot divide by zero: (f, g) both zero gives the identity
    auto givens = [](R f, R g, R& c, R& sn) {
      const R t = std::hypot(f, g);
      if (t == 0) {
        c = 1;
        sn = 0;
      } else {
        c = f / t;
        sn = g / t;
      }
      return t;
    };
    switch (kase) {
      case 1: {  // s[p - 1] negligible: chase e[p - 2] out through the columns
        R f = e[p - 2];
        e[p - 2] = 0;
        for (index_t j = p - 2; j >= k; --j) {
          R c, sn;
          s[j] = givens(s[j], f, c, sn);
          if (j != k) {
            f = -sn * e[j - 1];
            e[j - 1] = c * e[j - 1];
          }
          lv.add(j, p - 1, c, sn);
        }
        break;
      }
      case 2: {  // s[k - 1] negligible: chase e[k - 1] out through the rows
        R f = e[k - 1];
        e[k - 1] = 0;
        for (index_t j = k; j < p; ++j) {
          R c, sn;
          s[j] = givens(s[j], f, c, sn);
          f = -sn * e[j];
          e[j] = c * e[j];
          lu.add(j, k - 1, c, sn);
        }
        break;
      }
      case 3: {  // one QR sweep on s[k .. p - 1], shifted by the trailing 2 x 2's eigenvalue
        budget -= p - 1 - k;
        if (budget < 0) return false;
        const R scale = std::max({std::abs(s[p - 1]), std::abs(s[p - 2]), std::abs(e[p - 2]),
                                  std::abs(s[k]), std::abs(e[k])});
        const R sp = s[p - 1] / scale, spm1 = s[p - 2] / scale, epm1 = e[p - 2] / scale;
        const R sk = s[k] / scale, ek = e[k] / scale;
        const R bb = ((spm1 + sp) * (spm1 - sp) + epm1 * epm1) / 2;
        const R cc = (sp * epm1) * (sp * epm1);
        R shift = 0;
        if (bb != 0 || cc != 0) {
          shift = std::sqrt(bb * bb + cc);
          if (bb < 0) shift = -shift;
          shift = cc / (bb + shift);
        }
        R f = (sk + sp) * (sk - sp) + shift;
        R g = sk * ek;
        for (index_t j = k; j < p - 1; ++j) {
          R c, sn;
          R t = givens(f, g, c, sn);
          if (j != k) e[j - 1] = t;
          f = c * s[j] + sn * e[j];
          e[j] = c * e[j] - sn * s[j];
          g = sn * s[j + 1];
          s[j + 1] = c * s[j + 1];
          lv.add(j, j + 1, c, sn);
          t = givens(f, g, c, sn);
          s[j] = t;
          f = c * e[j] + sn * s[j + 1];
          s[j + 1] = -sn * e[j] + c * s[j + 1];
          g = sn * e[j + 1];
          e[j + 1] = c * e[j + 1];
          lu.add(j, j + 1, c, sn);
        }
        e[p - 2] = f;
        break;
      }
      default: {  // converged: make s[k] non-negative (the order is settled by the caller)
        if (s[k] < 0) {
          s[k] = -s[k];
          negated[k] = 1;  // no later rotation touches row k = p - 1: negate it at the end
        }
        --p;
        break;
      }
    }
  }
  lu.flush();
  lv.flush();
  if (vt)
    for (index_t k = 0; k < n; ++k)
      if (negated[k])
        for (index_t i = 0; i < n; ++i) vt[k * n + i] = -vt[k * n + i];
  return true;
}

}  // namespace cunp::detail::cpu_linalg::spectral

namespace cunp::detail::cpu_linalg {

/// The singular values s (min(m, n), descending) of the m x n row-major a (overwritten), and with
/// compute_uv u (m x m, or m x k with k = min(m, n) without full_matrices) and vh (n x n, or
/// k x n), row-major, with a = u[:, :k] diag(s) vh[:k, :]; full_matrices completes both to unitary
/// matrices. Returns false, s then NaN and u, vh unspecified, for a non-finite entry or no
/// convergence (NumPy's LinAlgError "SVD did not converge"). m, n >= 1. A wide matrix is done as
/// its conjugate transpose, a = (V S U^H) of a^H = U S V^H. Work: about 4 m n^2 - 4 n^3 / 3 flops
/// (m >= n) for the reduction, as much again for each basis, and up to ~12 n^3 for the rotations.
template <class T, class R>
bool svd(T* a, index_t m, index_t n, R* s, T* u, T* vh, bool full_matrices, bool compute_uv) {
  using namespace spectral;
  static_assert(std::is_same_v<R, real_t<T>>);
  const index_t big = std::max(m, n), small = std::min(m, n);
  const auto total = static_cast<std::size_t>(m * n);
  bool ok = true;
  R amax = 0;
  for (std::size_t i = 0; i < total; ++i) {
    ok = ok && finite(a[i]);
    amax = std::max(amax, std::abs(a[i]));
  }
  if (!ok) {
    std::fill(s, s + small, std::numeric_limits<R>::quiet_NaN());
    return false;
  }
  const int ex = range_exponent(amax);
  // the tall problem: b = a (m >= n) or a^H, big x small
  const bool wide = m < n;
  std::vector<T> copy;
  T* b = a;
  if (wide) {
    copy.resize(total);
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) copy[j * m + i] = conj_of(a[i * n + j]);
    b = copy.data();
  }
  if (ex != 0)
    for (std::size_t i = 0; i < total; ++i) b[i] = scaled(b[i], ex);
  const index_t M = big, N = small;
  std::vector<T> d(static_cast<std::size_t>(N)), f(static_cast<std::size_t>(N), T(0));
  std::vector<R> tau_l(static_cast<std::size_t>(N), R(0)), tau_r(static_cast<std::size_t>(N), R(0));
  bidiagonalize(b, M, N, d.data(), f.data(), tau_l.data(), tau_r.data());

  // ut = U^T (ucount x M: the rows are U's columns, all M of them for the full basis), vt = V^T
  // (N x N), so that the QR rotations of their columns run along rows
  const index_t ucount = full_matrices ? M : N;
  std::vector<T> ut, vt;
  if (compute_uv) {
    // the left reflectors, columns of b, packed contiguous: reflector k at offset[k]
    std::vector<std::size_t> offset(static_cast<std::size_t>(N) + 1, 0);
    for (index_t k = 0; k < N; ++k) offset[k + 1] = offset[k] + static_cast<std::size_t>(M - k);
    std::vector<T> packed(offset[N]);
    for (index_t k = 0; k < N; ++k)
      for (index_t i = k; i < M; ++i) packed[offset[k] + (i - k)] = b[i * N + k];
    ut.assign(static_cast<std::size_t>(ucount * M), T(0));
    for (index_t i = 0; i < ucount; ++i) ut[i * M + i] = T(1);
    accumulate_transposed(ut.data(), ucount, M, N, [&](index_t k) {
      return reflector<T, R>{packed.data() + offset[k], k, M - k, tau_l[k]};
    });
    vt.assign(static_cast<std::size_t>(N * N), T(0));
    for (index_t i = 0; i < N; ++i) vt[i * N + i] = T(1);
    accumulate_transposed(vt.data(), N, N, N - 2, [&](index_t k) {
      return reflector<T, R>{b + k * N + k + 1, k + 1, N - k - 1, tau_r[k]};
    });
  }
  // P^H B Q is real and non-negative for p_k = phase(d_k q_k), q_{k+1} = conj(phase(conj(p_k)
  // f_k)), q_0 = 1; the bases become U P and V Q
  std::vector<R> sd(static_cast<std::size_t>(N)), se(static_cast<std::size_t>(N), R(0));
  T q(1);
  for (index_t k = 0; k < N; ++k) {
    const T dk = mul(d[k], q);
    const R ad = std::abs(dk);
    const T p = ad == 0 ? T(1) : dk / ad;
    sd[k] = ad;
    if (compute_uv) {
      for (index_t i = 0; i < M; ++i) ut[k * M + i] = mul(ut[k * M + i], p);
      for (index_t i = 0; i < N; ++i) vt[k * N + i] = mul(vt[k * N + i], q);
    }
    if (k + 1 < N) {
      const T fk = mulc(p, f[k]);
      const R af = std::abs(fk);
      se[k] = af;
      q = af == 0 ? T(1) : conj_of(fk / af);
    }
  }
  // the Golub-Kahan tridiagonal (zero diagonal; off-diagonal s0, e0, s1, e1, ...), whose
  // eigenvalues are +-s: its bisection polishes the QR iteration's values
  std::vector<R> gk_d(static_cast<std::size_t>(2 * N), R(0)),
      gk_e(static_cast<std::size_t>(2 * N), R(0));
  for (index_t k = 0; k < N; ++k) {
    gk_e[2 * k] = sd[k];
    if (k + 1 < N) gk_e[2 * k + 1] = se[k];
  }
  if (!bidiagonal_qr(sd.data(), se.data(), N, compute_uv ? ut.data() : static_cast<T*>(nullptr), M,
                     compute_uv ? vt.data() : static_cast<T*>(nullptr))) {
    std::fill(s, s + small, std::numeric_limits<R>::quiet_NaN());
    return false;
  }

  if (compute_uv) {  // the rotations' drift of the norms (see normalize_rows)
    normalize_rows(ut.data(), N, M);
    normalize_rows(vt.data(), N, N);
  }
  std::vector<index_t> order(static_cast<std::size_t>(N));
  std::iota(order.begin(), order.end(), index_t(0));
  std::stable_sort(order.begin(), order.end(), [&](index_t x, index_t y) { return sd[x] > sd[y]; });
  std::vector<R> rising(static_cast<std::size_t>(N));
  for (index_t j = 0; j < N; ++j) rising[N - 1 - j] = sd[order[j]];
  polish_eigenvalues(gk_d.data(), gk_e.data(), 2 * N, rising.data(), N, N);
  for (index_t j = 0; j < N; ++j) s[j] = std::ldexp(rising[N - 1 - j], -ex);
  if (!compute_uv) return true;
  auto row_of = [&](index_t j) { return j < N ? order[j] : j; };  // the full basis's rest stays
  // the left vectors of b are columns (transposed out of ut or vt), the right ones rows of
  // the conjugate (conjugated out of vt or ut)
  auto columns_out = [&](T* dst, const std::vector<T>& src, index_t len, index_t count) {
    for (index_t i = 0; i < len; ++i)
      for (index_t j = 0; j < count; ++j) dst[i * count + j] = src[row_of(j) * len + i];
  };
  auto rows_out = [&](T* dst, const std::vector<T>& src, index_t len, index_t count) {
    for (index_t j = 0; j < count; ++j)
      for (index_t i = 0; i < len; ++i) dst[j * len + i] = conj_of(src[row_of(j) * len + i]);
  };
  if (!wide) {
    columns_out(u, ut, M, ucount);  // u: m x ucount
    rows_out(vh, vt, N, N);         // vh: n x n
  } else {
    columns_out(u, vt, N, N);     // u = V: m x m
    rows_out(vh, ut, M, ucount);  // vh = U^H: ucount x n
  }
  return true;
}

}  // namespace cunp::detail::cpu_linalg
