// cunp/detail/sparse/krylov_steps.hpp: the steps of the iterative solvers (cg, gmres) that both
// backends run alike, as functors callable on the host and the device: the element-wise vector
// updates (run by krylov_map: an OpenMP loop on the cpu, a grid-stride kernel on a GPU) and the
// scalar steps (run by krylov_scalar: a call on the cpu, a one-thread kernel on a GPU), which
// read and write the solver's scalars where they lie, so that a GPU solve never brings a scalar
// to the host. Every functor holds a gate: the control word that, once nonzero, makes it return
// at once (the solve, or gmres's inner loop, has ended; the host queued the step before knowing).
#pragma once
#include <cstdint>

#include "cunp/config.hpp"
#include "cunp/detail/core/math.hpp"

namespace cunp::detail::krylov {

/// The solver's control words (std::int64_t on the solve's device).
enum ctl : int {
  done = 0,        // the solve ended: converged, broke down, or b == 0
  inner_stop = 1,  // gmres: this cycle's column loop ended (also set when done)
  converged = 2,   // info 0
  zero_b = 3,      // ||b|| == 0: scipy returns b itself
  breakdown = 4,   // gmres: h1 <= eps h0 in this cycle
  last_col = 5,    // gmres: the last column this cycle ran
  ctl_words = 6
};

/// The solver's scalars (math_t<T> on the solve's device; norms and tolerances in the real part).
enum slot : int {
  bnrm2 = 0,     // ||b||^2, then ||b||
  atol_s = 1,    // scipy's atol: max(atol, rtol ||b||)
  rr = 2,        // ||r||^2
  rho = 3,       // cg: r . z
  rho_prev = 4,  // cg: the last iteration's rho
  pq = 5,        // cg: p . q
  alpha = 6,     // cg
  beta = 7,      // cg
  mbn = 8,       // gmres: ||M b||^2
  ptol = 9,      // gmres: the inner loop's tolerance (gh-8400's control)
  pmf = 10,      // gmres: ptol_max_factor
  presid = 11,   // gmres: the projected residual
  h0 = 12,       // gmres: ||w|| before Gram-Schmidt (squared until used)
  scale = 13,    // gmres: what the next basis vector is multiplied by
  slots = 14
};

template <class R> CUNP_HD R k_conj(R x) { return x; }
template <class R> CUNP_HD cplx<R> k_conj(cplx<R> z) { return {z.re, -z.im}; }
template <class R> CUNP_HD R k_real(R x) { return x; }
template <class R> CUNP_HD R k_real(cplx<R> z) { return z.re; }
template <class R> CUNP_HD R k_abs2(R x) { return x * x; }
template <class R> CUNP_HD R k_abs2(cplx<R> z) { return z.re * z.re + z.im * z.im; }
template <class M> using real_of = typename complex_parts<M>::type;
template <class M> CUNP_HD real_of<M> k_abs(M x) { return real_sqrt(k_abs2(x)); }

// ---------------------------------------------------------------------------------------------
// Element-wise updates: f(i) for i in [0, n) unless *gate.

/// y = d * x (a diagonal preconditioner).
template <class M> struct diag_apply {
  const std::int64_t* gate;
  const M* d;
  const M* x;
  M* y;
  CUNP_HD void operator()(std::int64_t i) const { y[i] = d[i] * x[i]; }
};

/// y = x.
template <class M> struct copied {
  const std::int64_t* gate;
  const M* x;
  M* y;
  CUNP_HD void operator()(std::int64_t i) const { y[i] = x[i]; }
};

/// y = b - y (a residual, y holding A x).
template <class M> struct residual_of {
  const std::int64_t* gate;
  const M* b;
  M* y;
  CUNP_HD void operator()(std::int64_t i) const { y[i] = b[i] - y[i]; }
};

/// cg: p = z on the first iteration, else p = z + beta p.
template <class M> struct cg_direction {
  const std::int64_t* gate;
  const M* s;
  const M* z;
  M* p;
  bool first;
  CUNP_HD void operator()(std::int64_t i) const { p[i] = first ? z[i] : z[i] + s[beta] * p[i]; }
};

/// cg: x += alpha p, r -= alpha q.
template <class M> struct cg_update {
  const std::int64_t* gate;
  const M* s;
  const M* p;
  const M* q;
  M* x;
  M* r;
  CUNP_HD void operator()(std::int64_t i) const {
    const M a = s[alpha];
    x[i] = x[i] + a * p[i];
    r[i] = r[i] - a * q[i];
  }
};

/// y = x * (*factor).
template <class M> struct scaled {
  const std::int64_t* gate;
  const M* factor;
  const M* x;
  M* y;
  CUNP_HD void operator()(std::int64_t i) const { y[i] = x[i] * *factor; }
};

/// w -= (*h) v (a modified Gram-Schmidt step).
template <class M> struct minus_projection {
  const std::int64_t* gate;
  const M* h;
  const M* v;
  M* w;
  CUNP_HD void operator()(std::int64_t i) const { w[i] = w[i] - *h * v[i]; }
};

/// gmres: x += y @ V[:col + 1] (V's rows n apart; col from the control words).
template <class M> struct basis_combination {
  const std::int64_t* gate;
  const std::int64_t* c;
  const M* y;
  const M* v;
  std::int64_t n;
  M* x;
  CUNP_HD void operator()(std::int64_t i) const {
    M acc(0);
    for (std::int64_t k = 0; k <= c[last_col]; ++k) acc = acc + y[k] * v[k * n + i];
    x[i] = x[i] + acc;
  }
};

// ---------------------------------------------------------------------------------------------
// Scalar steps: f() unless *gate.

/// The start of a solve (s[bnrm2] holds ||b||^2, s[rr] ||r0||^2): scipy's early return for
/// b == 0, atol = max(atol, rtol ||b||), and its first test ||r0|| < atol.
template <class M> struct solve_start {
  const std::int64_t* gate;
  std::int64_t* c;
  M* s;
  double atol, rtol;
  CUNP_HD void operator()() const {
    using R = real_of<M>;
    const R b = real_sqrt(k_real(s[bnrm2]));
    s[bnrm2] = M(b);
    // scipy: max(float(atol), float(rtol) * float(b_norm)), in double.
    const double t = rtol * double(b);
    s[atol_s] = M(R(atol > t ? atol : t));
    if (b == R(0)) {
      c[done] = c[inner_stop] = c[zero_b] = c[converged] = 1;
      return;
    }
    if (real_sqrt(k_real(s[rr])) < k_real(s[atol_s])) c[done] = c[inner_stop] = c[converged] = 1;
  }
};

/// cg, an iteration's start (s[rr] fresh; s[rho] too, unless rho_is_rr: no preconditioner, z =
/// r): scipy's test ||r|| < atol (the first iteration's was solve_start's), then beta.
template <class M> struct cg_check {
  const std::int64_t* gate;
  std::int64_t* c;
  M* s;
  bool first, rho_is_rr;
  CUNP_HD void operator()() const {
    if (!first && real_sqrt(k_real(s[rr])) < k_real(s[atol_s])) {
      c[done] = c[inner_stop] = c[converged] = 1;
      return;
    }
    if (rho_is_rr) s[rho] = s[rr];
    if (!first) s[beta] = s[rho] / s[rho_prev];
    s[rho_prev] = s[rho];
  }
};

/// cg: alpha = rho / (p . q).
template <class M> struct cg_alpha {
  const std::int64_t* gate;
  M* s;
  CUNP_HD void operator()() const { s[alpha] = s[rho_prev] / s[pq]; }
};

/// A slot's value, a squared norm, to its square root (in place).
template <class M> struct root_of {
  const std::int64_t* gate;
  M* s;
  int at;
  CUNP_HD void operator()() const { s[at] = M(real_sqrt(k_real(s[at]))); }
};

/// gmres, a cycle's start (s[rr] = ||M r||^2): the inner loop re-armed, S = (||M r||, 0, ...),
/// the first basis vector's factor 1 / ||M r||.
template <class M> struct gmres_cycle_start {
  const std::int64_t* gate;
  std::int64_t* c;
  M* s;
  M* S;
  std::int64_t restart;
  CUNP_HD void operator()() const {
    c[inner_stop] = c[breakdown] = 0;
    const auto t = real_sqrt(k_real(s[rr]));
    for (std::int64_t k = 0; k <= restart; ++k) S[k] = M(0);
    S[0] = M(t);
    s[scale] = M(1) / M(t);
  }
};

/// gmres, scipy's tolerance control at the start (s[mbn] = ||M b||^2, after solve_start).
template <class M> struct gmres_tolerance_start {
  const std::int64_t* gate;
  M* s;
  CUNP_HD void operator()() const {
    using R = real_of<M>;
    const R mb = real_sqrt(k_real(s[mbn]));
    const R ratio = k_real(s[atol_s]) / k_real(s[bnrm2]);
    s[pmf] = M(1);
    s[ptol] = M(mb * (R(1) < ratio ? R(1) : ratio));
    s[presid] = M(0);
  }
};

/// LAPACK's lartg (3.10 and later, the unscaled branch): c, s, r with [c s; -conj(s) c] [f; g] =
/// [r; 0], c real. Written once for real and complex values.
template <class M> CUNP_HD void lartg(M f, M g, M& cs, M& sn, M& r) {
  using R = real_of<M>;
  if (g == M(0)) {
    cs = M(1);
    sn = M(0);
    r = f;
    return;
  }
  if (f == M(0)) {
    const R d = k_abs(g);
    cs = M(0);
    sn = k_conj(g) / M(d);
    r = M(d);
    return;
  }
  const R f2 = k_abs2(f), h2 = f2 + k_abs2(g);
  const R cr = real_sqrt(f2 / h2);
  cs = M(cr);
  r = f / M(cr);
  sn = k_conj(g) * (f / M(real_sqrt(f2 * h2)));
}

/// gmres, column col after Gram-Schmidt (s[h0] = ||w||^2 before it, h[col][col + 1] = ||w||^2
/// after): scipy's breakdown test h1 <= eps h0, the next basis vector's factor, the past Givens
/// rotations applied to the column, the new one made and applied to it and to S, presid, and
/// the inner loop's end (presid <= ptol or a breakdown).
template <class M> struct gmres_column {
  const std::int64_t* gate;
  std::int64_t* c;
  M* s;
  M* h;  // restart rows of restart + 1: h[col][k] is the Hessenberg matrix's (k, col)
  M* g;  // the rotations, (c, s) per column
  M* S;
  std::int64_t col, restart;
  double eps;
  CUNP_HD void operator()() const {
    using R = real_of<M>;
    M* hc = h + col * (restart + 1);
    const R h0v = real_sqrt(k_real(s[h0]));
    const R h1 = real_sqrt(k_real(hc[col + 1]));
    hc[col + 1] = M(h1);
    if (h1 <= R(eps) * h0v) {
      hc[col + 1] = M(0);
      c[breakdown] = 1;
      s[scale] = M(1);
    } else {
      s[scale] = M(1) / M(h1);
    }
    for (std::int64_t k = 0; k < col; ++k) {
      const M cs = g[2 * k], sn = g[2 * k + 1], n0 = hc[k], n1 = hc[k + 1];
      hc[k] = cs * n0 + sn * n1;
      hc[k + 1] = -k_conj(sn) * n0 + cs * n1;
    }
    M cs, sn, mag;
    lartg(hc[col], hc[col + 1], cs, sn, mag);
    g[2 * col] = cs;
    g[2 * col + 1] = sn;
    hc[col] = mag;
    hc[col + 1] = M(0);
    const M t = -k_conj(sn) * S[col];
    S[col] = cs * S[col];
    S[col + 1] = t;
    const R pr = k_abs(t);
    s[presid] = M(pr);
    c[last_col] = col;
    if (pr <= k_real(s[ptol]) || c[breakdown]) c[inner_stop] = 1;
  }
};

/// gmres, a cycle's end: scipy's back substitution of the triangular system (a zero diagonal
/// end: a pseudo-solve), y into `y`.
template <class M> struct gmres_solve_y {
  const std::int64_t* gate;
  const std::int64_t* c;
  const M* h;
  M* S;
  M* y;
  std::int64_t restart;
  CUNP_HD void operator()() const {
    const std::int64_t col = c[last_col], ld = restart + 1;
    if (h[col * ld + col] == M(0)) S[col] = M(0);
    for (std::int64_t k = 0; k <= col; ++k) y[k] = S[k];
    for (std::int64_t k = col; k > 0; --k) {
      if (y[k] != M(0)) {
        y[k] = y[k] / h[k * ld + k];
        const M t = y[k];
        for (std::int64_t j = 0; j < k; ++j) y[j] = y[j] - t * h[k * ld + j];
      }
    }
    if (y[0] != M(0)) y[0] = y[0] / h[0];
  }
};

/// gmres, after the cycle's residual (s[rr] = ||b - A x||^2): scipy's exits (converged, or a
/// breakdown that did not) and its update of the inner tolerance.
template <class M> struct gmres_cycle_end {
  const std::int64_t* gate;
  std::int64_t* c;
  M* s;
  double eps;
  CUNP_HD void operator()() const {
    using R = real_of<M>;
    const R rnorm = real_sqrt(k_real(s[rr]));
    const R atol = k_real(s[atol_s]), pr = k_real(s[presid]), pt = k_real(s[ptol]);
    if (rnorm <= atol) {
      c[done] = c[inner_stop] = c[converged] = 1;
      return;
    }
    if (c[breakdown]) {
      c[done] = c[inner_stop] = 1;
      return;
    }
    R f = k_real(s[pmf]);
    if (pr <= pt) {
      const R q = R(0.25) * f;
      f = R(eps) > q ? R(eps) : q;
    } else {
      const R q = R(1.5) * f;
      f = R(1) < q ? R(1) : q;
    }
    s[pmf] = M(f);
    const R ratio = atol / rnorm;
    s[ptol] = M(pr * (f < ratio ? f : ratio));
  }
};

}  // namespace cunp::detail::krylov
