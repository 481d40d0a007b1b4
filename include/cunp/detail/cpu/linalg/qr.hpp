// cunp/detail/cpu/linalg/qr.hpp: the cpu backend of qr: Householder QR with LAPACK's conventions
// (geqrf's reflectors and tau, xLARFG's choice of beta, orgqr/ungqr's Q), so that mode='raw',
// whose array is geqrf's, can be compared with NumPy's to rounding. Every element sees the
// arithmetic of the unblocked geqr2 and org2r, in their order: the reflectors are applied one
// after another, never merged into a compact WY block (LAPACK's blocked path, which NumPy takes
// when min(m, n) > 128, rounds differently, but no more). What is blocked is only the order in
// which columns are visited: applying a reflector treats each column alone, so after a panel of nb
// reflectors is made, each chunk of trailing columns takes all nb of them while it sits in
// cache, the chunks in parallel. On row-major storage both halves of an application (s = v^H C,
// then C -= tau v s) run along C's rows.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/linalg/level1.hpp"
#include "cunp/dtype.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail::cpu_linalg {

namespace householder_impl {

using namespace level1;

constexpr index_t panel = 32;          // reflectors made before the trailing columns see them
constexpr index_t chunk_bytes = 1024;  // of one row of a chunk of columns (m x 1 KB, about L2)
constexpr index_t parallel_work = index_t(1) << 18;  // multiply-adds worth a parallel region

template <class T> constexpr index_t chunk_cols() {
  return chunk_bytes / static_cast<index_t>(sizeof(T));
}

/// LAPACK's dlapy2, sqrt(x^2 + y^2) without overflow, NaN kept.
template <class R> R lapy2(R x, R y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(y) ? y : x;
  const R xa = std::abs(x), ya = std::abs(y), w = std::max(xa, ya), z = std::min(xa, ya);
  if (z == R(0) || w > std::numeric_limits<R>::max()) return w;
  const R q = z / w;
  return w * std::sqrt(R(1) + q * q);
}

/// LAPACK's dlapy3, sqrt(x^2 + y^2 + z^2) without overflow.
template <class R> R lapy3(R x, R y, R z) {
  const R xa = std::abs(x), ya = std::abs(y), za = std::abs(z);
  const R w = std::max({xa, ya, za});
  if (w == R(0) || w > std::numeric_limits<R>::max()) return xa + ya + za;  // NaN kept as well
  const R p = xa / w, q = ya / w, r = za / w;
  return w * std::sqrt(p * p + q * q + r * r);
}

/// The 2-norm of x[0, len) (xNRM2; complex entries as two reals). float accumulates in double,
/// which can neither overflow nor underflow on float squares; double sums plainly and takes the
/// scaled two-pass route only when the sum overflowed or fell where squares lose digits.
template <class T> auto norm2(const T* x, index_t len) {
  using R = real_t<T>;
  using A = std::conditional_t<std::is_same_v<R, float>, double, R>;
  const R* p = reinterpret_cast<const R*>(x);
  const index_t count = is_complex_v<T> ? 2 * len : len;
  A s = 0;
  for (index_t j = 0; j < count; ++j) s += A(p[j]) * A(p[j]);
  if (std::is_same_v<A, R> && !std::isnan(s) &&
      !(s >= std::numeric_limits<A>::min() / std::numeric_limits<A>::epsilon() &&
        s <= std::numeric_limits<A>::max())) {
    A big = 0;
    for (index_t j = 0; j < count; ++j) big = std::max(big, A(std::abs(p[j])));
    if (big == A(0) || big > std::numeric_limits<A>::max()) return R(big);
    s = 0;
    for (index_t j = 0; j < count; ++j) {
      const A q = A(p[j]) / big;
      s += q * q;
    }
    return R(big * std::sqrt(s));
  }
  return R(std::sqrt(s));
}

/// xLARFG: the reflector H = I - tau v v^H (v(0) = 1) with H^H (alpha; x) = (beta; 0), beta
/// real; alpha becomes beta and x (len entries, contiguous) becomes v(1:). Returns tau, 0 (H = I)
/// when x is zero and alpha real. LAPACK's rescaling of a tiny beta (|beta| < safmin = tiny /
/// eps, where its norm may have lost digits) is kept, loop and all.
template <class T> T make_reflector(T& alpha, T* x, index_t len) {
  using R = real_t<T>;
  R ar, ai = 0;
  if constexpr (is_complex_v<T>)
    ar = alpha.real(), ai = alpha.imag();
  else
    ar = alpha;
  R xnorm = norm2(x, len);
  if (xnorm == R(0) && ai == R(0)) return T(0);
  const auto norm_of = [&] {
    if constexpr (is_complex_v<T>)
      return lapy3(ar, ai, xnorm);
    else
      return lapy2(ar, xnorm);
  };
  R beta = -std::copysign(norm_of(), ar);
  const R safmin = std::numeric_limits<R>::min() / (std::numeric_limits<R>::epsilon() / 2);
  int knt = 0;
  if (std::abs(beta) < safmin) {
    const R rsafmn = R(1) / safmin;
    do {
      ++knt;
      for (index_t j = 0; j < len; ++j) x[j] *= rsafmn;
      beta *= rsafmn;
      ar *= rsafmn;
      ai *= rsafmn;
    } while (std::abs(beta) < safmin && knt < 20);
    xnorm = norm2(x, len);
    beta = -std::copysign(norm_of(), ar);
  }
  T tau;
  if constexpr (is_complex_v<T>) {
    tau = T((beta - ar) / beta, -ai / beta);
    const T scale = T(1) / (T(ar, ai) - beta);  // zladiv's reciprocal (std::complex's), zscal
    for (index_t j = 0; j < len; ++j) x[j] = scale * x[j];
  } else {
    tau = (beta - ar) / beta;
    const R scale = R(1) / (ar - beta);  // dscal by the reciprocal, as dlarfg
    for (index_t j = 0; j < len; ++j) x[j] = scale * x[j];
  }
  for (int j = 0; j < knt; ++j) beta *= safmin;
  alpha = T(beta);
  return tau;
}

/// C = (I - tau v v^H) C for the rows x cols block at c (row stride ld), v of rows entries:
/// xLARF from the left in BLAS's order, s = conj(C^H v) = v^H C summed down the rows, then
/// C += v (-tau s). s: cols entries of scratch. tau == 0 leaves C alone, as xLARF does.
template <class T>
void apply_reflector(T* c, index_t rows, index_t cols, index_t ld, const T* v, T tau, T* s) {
  if (tau == T(0) || cols == 0) return;
  std::fill(s, s + cols, T(0));
  for (index_t r = 0; r < rows; ++r) sub_scaled(s, c + r * ld, -conj_of(v[r]), cols);
  const T minus_tau = -tau;
  for (index_t j = 0; j < cols; ++j) s[j] = minus_tau * s[j];
  for (index_t r = 0; r < rows; ++r) sub_scaled(c + r * ld, s, -v[r], cols);
}

/// Reflectors i0 .. i1 - 1 to columns [c0, c1) of the row-major a (row stride ld), in chunks
/// of columns, in parallel; reverse: from the last to the first (org2r's order; geqr2 goes
/// forwards). v: the reflectors, m entries apart, v_i(0) at v[(i - i0) * m]; conjugate: apply
/// H_i^H (geqr2) rather than H_i (org2r).
template <class T>
void apply_panel(T* a, index_t m, index_t ld, index_t c0, index_t c1, index_t i0, index_t i1,
                 const T* v, const T* tau, bool conjugate, bool reverse, bool parallel) {
  constexpr index_t w = chunk_cols<T>();
  const index_t chunks = (c1 - c0 + w - 1) / w;
  if (chunks <= 0) return;
  [[maybe_unused]] const bool spread =
      parallel && chunks > 1 && (m - i0) * (c1 - c0) * (i1 - i0) >= parallel_work;
#pragma omp parallel for schedule(static) if (spread)
  for (index_t ch = 0; ch < chunks; ++ch) {
    T s[w];
    const index_t j0 = c0 + ch * w, len = std::min(w, c1 - j0);
    for (index_t step = 0; step < i1 - i0; ++step) {
      const index_t i = reverse ? i1 - 1 - step : i0 + step;
      const T t = conjugate ? conj_of(tau[i]) : tau[i];
      apply_reflector(a + i * ld + j0, m - i, len, ld, v + (i - i0) * m, t, s);
    }
  }
}

}  // namespace householder_impl

/// The QR factorisation of the m x n row-major a in place, as LAPACK's geqrf leaves it (NumPy's
/// qr(mode='raw') returns that array transposed): R in and above the diagonal, the Householder
/// vectors v_i below it (v_i(i) = 1 not stored, v_i zero above i), tau[0, min(m, n)), and
/// Q = H_0 H_1 ... H_{k-1}, H_i = I - tau_i v_i v_i^H. Reflectors as xLARFG makes them: R's
/// diagonal is real, of either sign; a column already zero below the diagonal (and real on it)
/// gets tau = 0. parallel: OpenMP inside this one matrix (false when the caller already spreads
/// a batch over the threads).
template <class T> void householder_qr(T* a, index_t m, index_t n, T* tau, bool parallel = true) {
  using namespace householder_impl;
  const index_t k = std::min(m, n);
  std::vector<T> v(static_cast<std::size_t>(panel * m));
  T s[panel];
  for (index_t i0 = 0; i0 < k; i0 += panel) {
    const index_t i1 = std::min(k, i0 + panel);
    for (index_t i = i0; i < i1; ++i) {
      // The column below the diagonal, contiguous for the norm and the later applications.
      T* vi = v.data() + (i - i0) * m;
      for (index_t r = 1; r < m - i; ++r) vi[r] = a[(i + r) * n + i];
      tau[i] = make_reflector(a[i * n + i], vi + 1, m - i - 1);
      for (index_t r = 1; r < m - i; ++r) a[(i + r) * n + i] = vi[r];
      vi[0] = T(1);
      // geqr2 applies H_i^H = I - conj(tau_i) v_i v_i^H; here to the rest of the panel only.
      apply_reflector(a + i * n + i + 1, m - i, i1 - i - 1, n, vi, conj_of(tau[i]), s);
    }
    apply_panel(a, m, n, i1, n, i0, i1, v.data(), tau, true, false, parallel);
  }
}

/// The first cols columns (cols <= m) of Q = H_0 ... H_{k-1} from householder_qr's qr (m x n)
/// and tau, into the m x cols row-major q: LAPACK's orgqr/ungqr (NumPy's mode='reduced' takes
/// cols = min(m, n), 'complete' cols = m, the reflectors past n being the identity). Column j
/// of Q is H_0 ... H_j e_j (H_i e_j = e_j for j < i), so only the first min(m, n, cols)
/// reflectors are read. Built as org2r does, the last reflector first, each column set when its
/// own reflector is reached.
template <class T>
void form_q(const T* qr, index_t m, index_t n, const T* tau, T* q, index_t cols,
            bool parallel = true) {
  using namespace householder_impl;
  const index_t k = std::min({m, n, cols});
  std::fill(q, q + m * cols, T(0));
  for (index_t j = k; j < cols; ++j) q[j * cols + j] = T(1);
  std::vector<T> v(static_cast<std::size_t>(panel * m));
  T s[panel];
  for (index_t i1 = k; i1 > 0;) {
    const index_t i0 = std::max<index_t>(0, i1 - panel);
    for (index_t i = i0; i < i1; ++i) {
      T* vi = v.data() + (i - i0) * m;
      vi[0] = T(1);
      for (index_t r = 1; r < m - i; ++r) vi[r] = qr[(i + r) * n + i];
    }
    // The columns right of the panel do not depend on its own columns: take them first.
    apply_panel(q, m, cols, i1, cols, i0, i1, v.data(), tau, false, true, parallel);
    for (index_t i = i1; i-- > i0;) {
      const T* vi = v.data() + (i - i0) * m;
      apply_reflector(q + i * cols + i + 1, m - i, i1 - i - 1, cols, vi, tau[i], s);
      // Column i = H_i e_i: (1 - tau, -tau v_i(1:)), zero above (org2r's dscal by -tau).
      const T minus_tau = -tau[i];
      for (index_t r = 1; r < m - i; ++r) q[(i + r) * cols + i] = minus_tau * vi[r];
      q[i * cols + i] = T(1) - tau[i];
    }
    i1 = i0;
  }
}

}  // namespace cunp::detail::cpu_linalg
