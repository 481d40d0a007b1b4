// cunp/detail/cpu/linalg/eig.hpp: the cpu backend of eig and eigvals, our own code (no LAPACK),
// LAPACK geev's path for a general square matrix: the matrix is balanced (gebal 'B': permutations
// that isolate eigenvalues, then a diagonal scaling by powers of 2) and scaled into range,
// reduced to upper Hessenberg form by Householder reflectors (gehd2, unblocked), and brought to
// Schur form by the shifted QR iteration of dlahqr (a real matrix: Francis's implicit double
// shift, to a quasi-triangular form whose 2 x 2 blocks hold the complex pairs) or zlahqr (a
// complex one: single shifts), the transformations accumulated into the Hessenberg basis when
// vectors are wanted. The eigenvectors of the Schur form come by back substitution (trevc: tiny
// pivots raised, the vector rescaled before it can overflow), go back through the basis and the
// balancing (gebak), and are normalised as geev does. Runs in the input's precision. dhseqr takes
// the multishift iteration with aggressive early deflation (dlaqr0) past n = 75, which converges
// in fewer sweeps; this is the small-matrix iteration at every n.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/linalg/eigh.hpp"
#include "cunp/detail/cpu/linalg/qr.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail::cpu_linalg::nonsymmetric {

using spectral::conj_of;
using spectral::is_complex;
using spectral::may_fork;
using spectral::mul;
using spectral::mulc;
using spectral::real_t;

/// |re| + |im| (LAPACK's cabs1) or |x|: the measure of LAPACK's tests, without a hypot.
template <class T> real_t<T> abs1(const T& x) {
  if constexpr (is_complex<T>)
    return std::abs(x.real()) + std::abs(x.imag());
  else
    return std::abs(x);
}

/// gebal's result: rows and columns outside [ilo, ihi] of P^T A P isolate eigenvalues (zero left
/// of the diagonal), and D^-1 P^T A P D, D = diag(scale) (powers of 2, 1 outside [ilo, ihi]),
/// has rows and columns of like norms inside. swap[i], i outside [ilo, ihi]: the index that
/// position i was exchanged with.
template <class R> struct balancing {
  index_t ilo = 0, ihi = 0;
  std::vector<index_t> swap;
  std::vector<R> scale;
};

/// a <- P a P for the transposition P of i and j.
template <class T> void exchange(T* a, index_t n, index_t i, index_t j) {
  if (i == j) return;
  std::swap_ranges(a + i * n, a + i * n + n, a + j * n);
  for (index_t r = 0; r < n; ++r) std::swap(a[r * n + i], a[r * n + j]);
}

/// Balances the n x n a in place as gebal('B') does (LAPACK 3.12's loops): rows whose only
/// nonzero in columns 0..ihi is their diagonal go to the bottom, columns likewise to the left,
/// then each row and column of the rest is scaled by a power of 2 until their 2-norms are within
/// 5% of balanced. Powers of 2 keep the scaling exact.
template <class T> balancing<real_t<T>> balance(T* a, index_t n) {
  using R = real_t<T>;
  balancing<R> b;
  b.swap.assign(static_cast<std::size_t>(n), 0);
  b.scale.assign(static_cast<std::size_t>(n), R(1));
  index_t k = 0, l = n - 1;
  for (bool moved = true; moved;) {
    moved = false;
    for (index_t i = l; i >= 0; --i) {
      bool alone = true;
      for (index_t j = 0; j <= l && alone; ++j) alone = j == i || a[i * n + j] == T(0);
      if (!alone) continue;
      b.swap[l] = i;
      exchange(a, n, i, l);
      moved = true;
      if (l == 0) return b;  // triangular: ilo = ihi = 0
      --l;
    }
  }
  for (bool moved = true; moved;) {
    moved = false;
    for (index_t j = k; j <= l; ++j) {
      bool alone = true;
      for (index_t i = k; i <= l && alone; ++i) alone = i == j || a[i * n + j] == T(0);
      if (!alone) continue;
      b.swap[k] = j;
      exchange(a, n, j, k);
      moved = true;
      ++k;
    }
  }
  b.ilo = k;
  b.ihi = l;
  const R sclfac = 2, factor = R(0.95);
  const R sfmin1 = std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon();
  const R sfmax1 = 1 / sfmin1, sfmin2 = sfmin1 * sclfac, sfmax2 = 1 / sfmin2;
  for (bool moved = true; moved;) {
    moved = false;
    for (index_t i = k; i <= l; ++i) {
      R c = spectral::norm2(a + k * n + i, l - k + 1, n);
      R r = spectral::norm2(a + i * n + k, l - k + 1, index_t(1));
      R ca = 0, ra = 0;
      for (index_t q = 0; q <= l; ++q) ca = std::max(ca, std::abs(a[q * n + i]));
      for (index_t q = k; q < n; ++q) ra = std::max(ra, std::abs(a[i * n + q]));
      if (c == 0 || r == 0) continue;
      const R s = c + r;
      R f = 1, g = r / sclfac;
      while (c < g && std::max({f, c, ca}) < sfmax2 && std::min({r, g, ra}) > sfmin2) {
        f *= sclfac;
        c *= sclfac;
        ca *= sclfac;
        r /= sclfac;
        g /= sclfac;
        ra /= sclfac;
      }
      g = c / sclfac;
      while (g >= r && std::max(r, ra) < sfmax2 && std::min({f, c, g, ca}) > sfmin2) {
        f /= sclfac;
        c /= sclfac;
        g /= sclfac;
        ca /= sclfac;
        r *= sclfac;
        ra *= sclfac;
      }
      R& d = b.scale[i];
      if (c + r >= factor * s || (f < 1 && d < 1 && f * d <= sfmin1) ||
          (f > 1 && d > 1 && d >= sfmax1 / f))
        continue;
      d *= f;
      moved = true;
      for (index_t q = k; q < n; ++q) a[i * n + q] /= f;
      for (index_t q = 0; q <= l; ++q) a[q * n + i] *= f;
    }
  }
  return b;
}

/// Reduces rows and columns ilo..ihi of the balanced a (n x n, row-major) to upper Hessenberg
/// form Q^H a Q, Q = H_ilo ... H_{ihi-2} (gehd2): reflector k, on indices k + 1 .. ihi, zeroes
/// column k below the subdiagonal, applied from the right to rows 0..ihi and from the left to
/// columns k + 1 .. n - 1 (zero left of them). Its v (v[0] = 1) goes to refl + k * stride (stride
/// 0: one row of scratch reused), its tau to tau[k]. The subdiagonal it leaves may be complex:
/// the QR iteration makes it real.
template <class T, class R>
void hessenberg(T* a, index_t n, index_t ilo, index_t ihi, R* tau, T* refl, index_t stride) {
  constexpr index_t chunk = 64;
  for (index_t k = ilo; k + 1 < ihi; ++k) {
    const index_t len = ihi - k;
    T* v = refl + k * stride;
    for (index_t r = 0; r < len; ++r) v[r] = a[(k + 1 + r) * n + k];
    T beta;
    const R t = spectral::make_reflector(v, len, index_t(1), beta);
    tau[k] = t;
    a[(k + 1) * n + k] = beta;
    for (index_t r = 1; r < len; ++r) a[(k + 1 + r) * n + k] = T(0);
    if (t == 0) continue;
#pragma omp parallel for schedule(static) if (may_fork(double(ihi + 1) * double(len)))
    for (index_t r = 0; r <= ihi; ++r) {  // A H: each row loses tau (row . v) v^H
      T* row = a + r * n + k + 1;
      spectral::sub_scaled(row, v, spectral::dotu(row, v, len) * t, len, true);
    }
    // H A: s = v^H A, then row r loses tau v_r s; by chunks of columns, along rows
    const index_t c0 = k + 1, chunks = (n - c0 + chunk - 1) / chunk;
#pragma omp parallel for schedule(static) if (may_fork(double(len) * double(n - c0)))
    for (index_t ch = 0; ch < chunks; ++ch) {
      std::array<T, chunk> s{};
      const index_t j0 = c0 + ch * chunk, width = std::min(chunk, n - j0);
      for (index_t r = 0; r < len; ++r)
        spectral::sub_scaled(s.data(), a + (k + 1 + r) * n + j0, -conj_of(v[r]), width);
      for (index_t r = 0; r < len; ++r)
        spectral::sub_scaled(a + (k + 1 + r) * n + j0, s.data(), v[r] * t, width);
    }
  }
}

/// A reflector of the QR iteration: H = I - tau v v^H on indices k .. k + nr - 1, v = (1, v1,
/// v2) (v2 = 0 when nr = 2), with tv1 = tau v1 and tv2 = tau v2 (dlahqr's t2, t3). Made by
/// xLARFG, as dlahqr and zlahqr make it, to map v[0 .. nr - 1] to (beta, 0, ..); v[0] becomes
/// beta.
template <class T> struct bulge {
  bulge(index_t k_, int nr_, T* v)
      : k(k_), nr(nr_), tau(householder_impl::make_reflector(v[0], v + 1, index_t(nr_ - 1))) {
    v1 = v[1];
    v2 = nr == 3 ? v[2] : T(0);
    tv1 = mul(tau, v1);
    tv2 = mul(tau, v2);
  }
  index_t k;
  int nr;
  T tau, v1, v2, tv1, tv2;
};

/// x0 -= s, x1 -= d1 s, x2 -= d2 s for s = c0 x0 + c1 x1 + c2 x2, elementwise over len entries
/// of three rows (x2 untouched when nr = 2): a reflector of the sweep applied along rows, H^H
/// from the left onto rows of h (c = conj(tau, tau v1, tau v2), d = v) or H from the right onto
/// columns of z, which are rows of zt (c = tau, tau v1, tau v2; d = conj(v)).
template <class T>
void combine_rows(const bulge<T>& b, bool left, T* x0, T* x1, T* x2, index_t len) {
  const T c0 = left ? conj_of(b.tau) : b.tau, c1 = left ? conj_of(b.tv1) : b.tv1;
  const T d1 = left ? b.v1 : conj_of(b.v1);
  if constexpr (is_complex<T>) {
    // zlahqr's single shifts have nr = 2; on the interleaved parts, which vectorise where
    // std::complex's arithmetic does not
    using R = real_t<T>;
    R* __restrict p0 = reinterpret_cast<R*>(x0);
    R* __restrict p1 = reinterpret_cast<R*>(x1);
    const R ar = c0.real(), ai = c0.imag(), br = c1.real(), bi = c1.imag();
    const R dr = d1.real(), di = d1.imag();
#pragma omp simd
    for (index_t c = 0; c < len; ++c) {
      const R x0r = p0[2 * c], x0i = p0[2 * c + 1], x1r = p1[2 * c], x1i = p1[2 * c + 1];
      const R sr = ar * x0r - ai * x0i + br * x1r - bi * x1i;
      const R si = ar * x0i + ai * x0r + br * x1i + bi * x1r;
      p0[2 * c] = x0r - sr;
      p0[2 * c + 1] = x0i - si;
      p1[2 * c] = x1r - (sr * dr - si * di);
      p1[2 * c + 1] = x1i - (sr * di + si * dr);
    }
    (void)x2;
  } else if (b.nr == 3) {
    const T c2 = left ? conj_of(b.tv2) : b.tv2, d2 = left ? b.v2 : conj_of(b.v2);
#pragma omp simd
    for (index_t c = 0; c < len; ++c) {
      const T s = mul(c0, x0[c]) + mul(c1, x1[c]) + mul(c2, x2[c]);
      x0[c] -= s;
      x1[c] -= mul(s, d1);
      x2[c] -= mul(s, d2);
    }
  } else {
#pragma omp simd
    for (index_t c = 0; c < len; ++c) {
      const T s = mul(c0, x0[c]) + mul(c1, x1[c]);
      x0[c] -= s;
      x1[c] -= mul(s, d1);
    }
  }
}

/// H from the right onto entries k .. k + nr - 1 of `rows` rows of h from y (row stride n):
/// independent rows, whose chains of dependent updates overlap.
template <class T> void right_rows(const bulge<T>& b, T* y, index_t n, index_t rows) {
  const T t0 = b.tau, t1 = b.tv1, t2 = b.tv2, d1 = conj_of(b.v1), d2 = conj_of(b.v2);
  if (b.nr == 3) {
    for (index_t r = 0; r < rows; ++r, y += n) {
      const T s = mul(t0, y[0]) + mul(t1, y[1]) + mul(t2, y[2]);
      y[0] -= s;
      y[1] -= mul(s, d1);
      y[2] -= mul(s, d2);
    }
  } else {
    for (index_t r = 0; r < rows; ++r, y += n) {
      const T s = mul(t0, y[0]) + mul(t1, y[1]);
      y[0] -= s;
      y[1] -= mul(s, d1);
    }
  }
}

/// The reflectors of one QR sweep over the active block (rows and columns up to i) applied to
/// the Hessenberg h (n x n, row-major; rows i1.. and columns ..i2 kept up to date) and to
/// entries zlo..zhi of the rows of zt (z transposed, so that z's columns run along rows; null:
/// none). Only what the bulge's next steps read is applied at once: rows k .. k + nr and columns
/// k .. i of the block. The rest waits in a log for flush(): the rows above the bulge, which from
/// then on see only right applications, each group of them through all of those while it sits
/// in cache, and the columns right of the block and zt, which see only left ones (zt's rows:
/// right ones, along rows), by blocks of columns; the groups and blocks in parallel. Every entry
/// still sees dlahqr's transformations in dlahqr's order; a sweep's first reflector is applied
/// whole, since zlahqr rescales rows and columns after it.
template <class T> class bulge_chase {
 public:
  bulge_chase(T* h, index_t n, T* zt, index_t zlo, index_t zhi)
      : h_(h), zt_(zt), n_(n), zlo_(zlo), zhi_(zhi) {}
  void start(index_t i1, index_t i2, index_t i) {
    i1_ = i1;
    i2_ = i2;
    i_ = i;
  }
  void apply(const bulge<T>& b, bool first) {
    const index_t k = b.k, r0 = first ? i1_ : k;
    T* x0 = h_ + k * n_;
    combine_rows(b, true, x0 + k, x0 + n_ + k, x0 + (b.nr - 1) * n_ + k,
                 (first ? i2_ : i_) - k + 1);
    right_rows(b, h_ + r0 * n_ + k, n_, std::min(k + b.nr, i_) - r0 + 1);
    if (!first) {
      log_.push_back(b);
      return;
    }
    if (zt_ != nullptr) {
      T* y0 = zt_ + k * n_ + zlo_;
      combine_rows(b, false, y0, y0 + n_, y0 + (b.nr - 1) * n_, zhi_ - zlo_ + 1);
    }
  }
  void flush() {
    if (log_.empty()) return;
    const index_t count = static_cast<index_t>(log_.size()), k0 = log_.front().k;
    const bulge<T>* lg = log_.data();
    // blocks of 64 columns of h right of the block, then of zt's entries zlo..zhi; groups of 8
    // rows of h above the bulge
    constexpr index_t width = 64, group = 8;
    const index_t hcols = i2_ - i_, zcols = zt_ != nullptr ? zhi_ - zlo_ + 1 : 0;
    const index_t hrows = std::max<index_t>(log_.back().k - i1_, 0);
    const index_t hb = (hcols + width - 1) / width, zb = (zcols + width - 1) / width;
    const index_t jobs = hb + zb + (hrows + group - 1) / group;
    const bool fork = may_fork(3.0 * double(count) * double(hcols + zcols + hrows));
#pragma omp parallel for schedule(dynamic) if (fork)
    for (index_t job = 0; job < jobs; ++job) {
      if (job < hb + zb) {
        const bool left = job < hb;
        const index_t j0 = left ? i_ + 1 + job * width : zlo_ + (job - hb) * width;
        const index_t len = std::min(width, left ? i2_ + 1 - j0 : zhi_ + 1 - j0);
        T* base = left ? h_ : zt_;
        for (index_t q = 0; q < count; ++q) {
          T* x0 = base + lg[q].k * n_ + j0;
          combine_rows(lg[q], left, x0, x0 + n_, x0 + (lg[q].nr - 1) * n_, len);
        }
      } else {
        const index_t r0 = i1_ + (job - hb - zb) * group, r1 = std::min(r0 + group, i1_ + hrows);
        for (index_t q = std::max<index_t>(r0 + 1 - k0, 0); q < count; ++q)
          right_rows(lg[q], h_ + r0 * n_ + lg[q].k, n_, std::min(r1, lg[q].k) - r0);
      }
    }
    log_.clear();
  }

 private:
  T* h_;
  T* zt_;
  index_t n_, zlo_, zhi_, i1_ = 0, i2_ = 0, i_ = 0;
  std::vector<bulge<T>> log_;
};

/// The start of the active block ending at row i: the last k in (l, i] whose subdiagonal
/// h[k][k-1] is negligible (at most smlnum, or by Ahues and Tisseur's test against its
/// neighbours, as dlahqr and zlahqr), else l.
template <class T, class R>
index_t split_point(const T* h, index_t n, index_t ilo, index_t ihi, index_t l, index_t i, R ulp,
                    R smlnum) {
  auto at = [&](index_t r, index_t c) { return h[r * n + c]; };
  index_t k = i;
  for (; k > l; --k) {
    const R sub = abs1(at(k, k - 1));
    if (sub <= smlnum) break;
    R tst = abs1(at(k - 1, k - 1)) + abs1(at(k, k));
    if (tst == 0) {
      if (k - 2 >= ilo) tst += std::abs(std::real(at(k - 1, k - 2)));
      if (k + 1 <= ihi) tst += std::abs(std::real(at(k + 1, k)));
    }
    if (std::abs(std::real(at(k, k - 1))) <= ulp * tst) {
      const R up = abs1(at(k - 1, k)), d0 = abs1(at(k, k)), d1 = abs1(at(k - 1, k - 1) - at(k, k));
      const R ab = std::max(sub, up), ba = std::min(sub, up);
      const R aa = std::max(d0, d1), bb = std::min(d0, d1), s = aa + ab;
      if (ba * (ab / s) <= std::max(smlnum, ulp * (bb * (aa / s)))) break;
    }
  }
  return k;
}

/// LAPACK's dlanv2: the Schur factorisation [a b; c d] = [cs -sn; sn cs] [aa bb; cc dd]
/// [cs sn; -sn cs] of a real 2 x 2, in place: cc = 0 for real eigenvalues, else aa = dd and
/// bb cc < 0. The eigenvalues go to (rt1r, rt1i) and (rt2r, rt2i), rt1i >= 0.
template <class R>
void standardize(R& a, R& b, R& c, R& d, R& rt1r, R& rt1i, R& rt2r, R& rt2i, R& cs, R& sn) {
  constexpr R multpl = 4;
  const R eps = std::numeric_limits<R>::epsilon();
  const R safmn2 = std::ldexp(
      R(1), (std::numeric_limits<R>::min_exponent - 1 - (std::numeric_limits<R>::digits - 1)) / 2);
  const R safmx2 = 1 / safmn2;
  cs = 1;
  sn = 0;
  if (c == 0) {
  } else if (b == 0) {  // exchange rows and columns
    cs = 0;
    sn = 1;
    std::swap(a, d);
    b = -c;
    c = 0;
  } else if (a - d == 0 && std::signbit(b) != std::signbit(c)) {
  } else {
    R temp = a - d, p = temp / 2;
    const R bcmax = std::max(std::abs(b), std::abs(c));
    const R bcmis =
        std::min(std::abs(b), std::abs(c)) * std::copysign(R(1), b) * std::copysign(R(1), c);
    R scale = std::max(std::abs(p), bcmax);
    R z = (p / scale) * p + (bcmax / scale) * bcmis;
    if (z >= multpl * eps) {  // real eigenvalues
      z = p + std::copysign(std::sqrt(scale) * std::sqrt(z), p);
      a = d + z;
      d -= (bcmax / z) * bcmis;
      const R tau = std::hypot(c, z);
      cs = z / tau;
      sn = c / tau;
      b -= c;
      c = 0;
    } else {  // complex or almost equal real eigenvalues: make the diagonal equal
      R sigma = b + c;
      for (int count = 0; count < 20; ++count) {
        scale = std::max(std::abs(temp), std::abs(sigma));
        if (scale >= safmx2) {
          sigma *= safmn2;
          temp *= safmn2;
        } else if (scale <= safmn2) {
          sigma *= safmx2;
          temp *= safmx2;
        } else {
          break;
        }
      }
      p = temp / 2;
      R tau = std::hypot(sigma, temp);
      cs = std::sqrt((1 + std::abs(sigma) / tau) / 2);
      sn = -(p / (tau * cs)) * std::copysign(R(1), sigma);
      const R aa = a * cs + b * sn, bb = -a * sn + b * cs;
      const R cc = c * cs + d * sn, dd = -c * sn + d * cs;
      a = aa * cs + cc * sn;
      b = bb * cs + dd * sn;
      c = -aa * sn + cc * cs;
      d = -bb * sn + dd * cs;
      temp = (a + d) / 2;
      a = d = temp;
      if (c != 0) {
        if (b == 0) {
          b = -c;
          c = 0;
          temp = cs;
          cs = -sn;
          sn = temp;
        } else if (std::signbit(b) == std::signbit(c)) {  // real: make it upper triangular
          const R sab = std::sqrt(std::abs(b)), sac = std::sqrt(std::abs(c));
          p = std::copysign(sab * sac, c);
          tau = 1 / std::sqrt(std::abs(b + c));
          a = temp + p;
          d = temp - p;
          b -= c;
          c = 0;
          const R cs1 = sab * tau, sn1 = sac * tau;
          temp = cs * cs1 - sn * sn1;
          sn = cs * sn1 + sn * cs1;
          cs = temp;
        }
      }
    }
  }
  rt1r = a;
  rt2r = d;
  rt1i = c == 0 ? R(0) : std::sqrt(std::abs(b)) * std::sqrt(std::abs(c));
  rt2i = -rt1i;
}

/// Francis's double-shift sweep of dlahqr over the active block l..i of the real h.
template <class R>
void real_sweep(R* h, index_t n, index_t l, index_t i, index_t kdefl, R ulp,
                bulge_chase<R>& chase) {
  auto at = [&](index_t r, index_t c) -> R& { return h[r * n + c]; };
  // the shifts: the eigenvalues of the trailing 2 x 2, or every 10th sweep without a
  // deflation, dlahqr's ad hoc ones
  R h11, h12, h21, h22;
  if (kdefl % 10 == 0) {
    const index_t e = kdefl % 20 == 0 ? i : l + 2;
    const R s = std::abs(at(e, e - 1)) + std::abs(at(e - 1, e - 2));
    h11 = R(0.75) * s + (kdefl % 20 == 0 ? at(i, i) : at(l, l));
    h12 = R(-0.4375) * s;
    h21 = s;
    h22 = h11;
  } else {
    h11 = at(i - 1, i - 1);
    h21 = at(i, i - 1);
    h12 = at(i - 1, i);
    h22 = at(i, i);
  }
  R rt1r = 0, rt1i = 0, rt2r = 0, rt2i = 0;
  if (const R s = std::abs(h11) + std::abs(h12) + std::abs(h21) + std::abs(h22); s != 0) {
    h11 /= s;
    h21 /= s;
    h12 /= s;
    h22 /= s;
    const R tr = (h11 + h22) / 2, det = (h11 - tr) * (h22 - tr) - h12 * h21;
    const R rtdisc = std::sqrt(std::abs(det));
    if (det >= 0) {  // a complex conjugate pair
      rt1r = rt2r = tr * s;
      rt1i = rtdisc * s;
      rt2i = -rt1i;
    } else {  // two real shifts: the one nearer h22, twice
      const R r1 = tr + rtdisc, r2 = tr - rtdisc;
      rt1r = rt2r = (std::abs(r1 - h22) <= std::abs(r2 - h22) ? r1 : r2) * s;
    }
  }
  // the start: the lowest m whose first column of the shift polynomial makes h[m][m-1]
  // negligible
  index_t m = i - 2;
  R v[3];
  for (;; --m) {
    const R s0 = std::abs(at(m, m) - rt2r) + std::abs(rt2i) + std::abs(at(m + 1, m));
    const R h21s = at(m + 1, m) / s0;
    v[0] = h21s * at(m, m + 1) + (at(m, m) - rt1r) * ((at(m, m) - rt2r) / s0) - rt1i * (rt2i / s0);
    v[1] = h21s * (at(m, m) + at(m + 1, m + 1) - rt1r - rt2r);
    v[2] = h21s * at(m + 2, m + 1);
    const R s = std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]);
    for (R& x : v) x /= s;
    if (m == l) break;
    const R h01 = std::abs(at(m, m - 1)) * (std::abs(v[1]) + std::abs(v[2]));
    const R h00 = std::abs(v[0]) *
                  (std::abs(at(m - 1, m - 1)) + std::abs(at(m, m)) + std::abs(at(m + 1, m + 1)));
    if (h01 <= ulp * h00) break;
  }
  for (index_t k = m; k < i; ++k) {
    const int nr = static_cast<int>(std::min<index_t>(3, i - k + 1));
    if (k > m)
      for (int q = 0; q < nr; ++q) v[q] = at(k + q, k - 1);
    const bulge<R> b(k, nr, v);
    if (k > m) {
      at(k, k - 1) = v[0];
      at(k + 1, k - 1) = 0;
      if (k < i - 1) at(k + 2, k - 1) = 0;
    } else if (m > l) {
      at(k, k - 1) *= 1 - b.tau;  // not a negation: v[1], v[2] may have underflowed
    }
    chase.apply(b, k == m);
  }
}

/// zlahqr's single-shift sweep over the active block l..i of the complex h (real subdiagonal).
template <class T, class R>
void complex_sweep(T* h, index_t n, index_t l, index_t i, index_t i1, index_t i2, index_t kdefl,
                   R ulp, T* zt, index_t ilo, index_t ihi, bulge_chase<T>& chase) {
  auto at = [&](index_t r, index_t c) -> T& { return h[r * n + c]; };
  T t;
  if (kdefl % 20 == 0) {  // exceptional shifts
    t = R(0.75) * std::abs(at(i, i - 1).real()) + at(i, i);
  } else if (kdefl % 10 == 0) {
    t = R(0.75) * std::abs(at(l + 1, l).real()) + at(l, l);
  } else {  // Wilkinson's
    t = at(i, i);
    const T u = std::sqrt(at(i - 1, i)) * std::sqrt(at(i, i - 1));
    R s = abs1(u);
    if (s != 0) {
      const T x = (at(i - 1, i - 1) - t) / R(2);
      const R sx = abs1(x);
      s = std::max(s, sx);
      T y = s * std::sqrt((x / s) * (x / s) + (u / s) * (u / s));
      if (sx > 0 && (x / sx).real() * y.real() + (x / sx).imag() * y.imag() < 0) y = -y;
      t -= u * (u / (x + y));
    }
  }
  index_t m = i - 1;
  T v[2];
  for (;; --m) {
    const T h11 = at(m, m), h22 = at(m + 1, m + 1);
    const R h21 = at(m + 1, m).real(), s = abs1(h11 - t) + std::abs(h21);
    v[0] = (h11 - t) / s;
    v[1] = h21 / s;
    if (m == l) break;
    if (std::abs(at(m, m - 1).real()) * std::abs(v[1].real()) <=
        ulp * (abs1(v[0]) * (abs1(h11) + abs1(h22))))
      break;
  }
  for (index_t k = m; k < i; ++k) {
    if (k > m) {
      v[0] = at(k, k - 1);
      v[1] = at(k + 1, k - 1);
    }
    const bulge<T> b(k, 2, v);
    if (k > m) {
      at(k, k - 1) = v[0];
      at(k + 1, k - 1) = T(0);
    }
    chase.apply(b, k == m);
    if (k == m && m > l) {
      // started below two small subdiagonals: a diagonal unitary similarity keeps
      // h[m+1][m] real
      T temp = T(1) - b.tau;
      temp /= std::abs(temp);
      at(m + 1, m) *= std::conj(temp);
      if (m + 2 <= i) at(m + 2, m + 1) *= temp;
      for (index_t j = m; j <= i; ++j) {
        if (j == m + 1) continue;
        for (index_t c = j + 1; c <= i2; ++c) at(j, c) *= temp;
        for (index_t r = i1; r < j; ++r) at(r, j) *= std::conj(temp);
        if (zt != nullptr)
          for (index_t r = ilo; r <= ihi; ++r) zt[j * n + r] *= std::conj(temp);
      }
    }
  }
}

/// The Schur form of rows and columns ilo..ihi of the Hessenberg h (n x n, row-major) by the
/// shifted QR iteration, dlahqr's for a real h and zlahqr's for a complex one; the eigenvalues
/// to w[ilo..ihi] (a real h's pairs as dlanv2 leaves them, the positive imaginary part first).
/// With wantt the whole of h becomes the Schur form T (a real one quasi-triangular, its 2 x 2
/// blocks those of the complex pairs, standardised) and the transformations go into columns
/// ilo..ihi of z (entries ilo..ihi of them), unless zt, z transposed, is null; without, only
/// the active block is kept. Returns false when a deflation takes more than
/// 30 max(10, ihi - ilo + 1) sweeps (LAPACK's limit).
template <class T, class C>
bool schur_form(T* h, index_t n, index_t ilo, index_t ihi, bool wantt, T* zt, C* w) {
  using R = real_t<T>;
  auto at = [&](index_t r, index_t c) -> T& { return h[r * n + c]; };
  if (ilo == ihi) {
    w[ilo] = C(at(ilo, ilo));
    return true;
  }
  const R ulp = std::numeric_limits<R>::epsilon();
  const index_t nh = ihi - ilo + 1;
  const R smlnum = std::numeric_limits<R>::min() * (R(nh) / ulp);
  if constexpr (is_complex<T>) {  // a real subdiagonal, by a diagonal unitary similarity
    const index_t jlo = wantt ? 0 : ilo, jhi = wantt ? n - 1 : ihi;
    for (index_t i = ilo + 1; i <= ihi; ++i) {
      const T x = at(i, i - 1);
      if (x.imag() == 0) continue;
      T sc = x / abs1(x);  // abs1 first: |x| may underflow where x does not
      sc = std::conj(sc) / std::abs(sc);
      at(i, i - 1) = std::abs(x);
      for (index_t c = i; c <= jhi; ++c) at(i, c) *= sc;
      for (index_t r = jlo; r <= std::min(jhi, i + 1); ++r) at(r, i) *= std::conj(sc);
      if (zt != nullptr)
        for (index_t r = ilo; r <= ihi; ++r) zt[i * n + r] *= std::conj(sc);
    }
  }
  constexpr index_t block = is_complex<T> ? 1 : 2;  // the largest block that deflates
  const index_t itmax = 30 * std::max<index_t>(10, nh);
  index_t i1 = 0, i2 = n - 1, kdefl = 0;
  bulge_chase<T> chase(h, n, zt, ilo, ihi);
  for (index_t i = ihi; i >= ilo;) {
    index_t l = ilo;
    for (index_t its = 0;; ++its) {
      l = split_point(h, n, ilo, ihi, l, i, ulp, smlnum);
      if (l > ilo) at(l, l - 1) = T(0);
      if (l > i - block) break;
      if (its > itmax) return false;
      ++kdefl;
      if (!wantt) {
        i1 = l;
        i2 = i;
      }
      chase.start(i1, i2, i);
      if constexpr (is_complex<T>) {
        complex_sweep(h, n, l, i, i1, i2, kdefl, ulp, zt, ilo, ihi, chase);
        chase.flush();
        if (T temp = at(i, i - 1); temp.imag() != 0) {  // h[i][i-1] real again
          const R rtemp = std::abs(temp);
          at(i, i - 1) = rtemp;
          temp /= rtemp;
          for (index_t c = i + 1; c <= i2; ++c) at(i, c) *= std::conj(temp);
          for (index_t r = i1; r < i; ++r) at(r, i) *= temp;
          if (zt != nullptr)
            for (index_t r = ilo; r <= ihi; ++r) zt[i * n + r] *= temp;
        }
      } else {
        real_sweep(h, n, l, i, kdefl, ulp, chase);
        chase.flush();
      }
    }
    if constexpr (!is_complex<T>) {
      if (l == i - 1) {  // a 2 x 2 block: standardised, its rotation applied to the rest
        R cs, sn, r1, i1v, r2, i2v;
        standardize(at(i - 1, i - 1), at(i - 1, i), at(i, i - 1), at(i, i), r1, i1v, r2, i2v, cs,
                    sn);
        w[i - 1] = C(r1, i1v);
        w[i] = C(r2, i2v);
        auto rot = [&](R& x, R& y) {
          const R xv = x, yv = y;
          x = cs * xv + sn * yv;
          y = cs * yv - sn * xv;
        };
        if (wantt) {
          for (index_t c = i + 1; c <= i2; ++c) rot(at(i - 1, c), at(i, c));
          for (index_t r = i1; r < i - 1; ++r) rot(at(r, i - 1), at(r, i));
        }
        if (zt != nullptr)
          for (index_t r = ilo; r <= ihi; ++r) rot(zt[(i - 1) * n + r], zt[i * n + r]);
      }
    }
    if (l == i) w[i] = C(at(i, i));
    kdefl = 0;
    i = l - 1;
  }
  return true;
}

/// sum row[c] x[c]: a real row with a complex x on x's interleaved parts, so that it vectorises.
template <class T, class S> S row_dot(const T* row, const S* x, index_t len) {
  if constexpr (std::is_same_v<T, S>) {
    return spectral::dotu(row, x, len);
  } else {
    const T* p = reinterpret_cast<const T*>(x);
    T re = 0, im = 0;
#pragma omp simd reduction(+ : re, im)
    for (index_t c = 0; c < len; ++c) {
      re += row[c] * p[2 * c];
      im += row[c] * p[2 * c + 1];
    }
    return S(re, im);
  }
}

/// dlaln2's solve of the 2 x 2 system m x = scale b by complete pivoting, b in x: a pivot below
/// smin is raised to it, and scale (returned, <= 1) keeps x from overflowing past bignum.
template <class S, class R> R solve_2x2(const S (&m)[2][2], S (&x)[2], R smin, R bignum) {
  int p = 0, q = 0;
  R cmax = 0;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c)
      if (abs1(m[r][c]) > cmax) {
        cmax = abs1(m[r][c]);
        p = r;
        q = c;
      }
  R scale = 1;
  if (cmax < smin) {  // nearly zero: solved as smin I
    const R bnorm = std::max(abs1(x[0]), abs1(x[1]));
    if (smin < 1 && bnorm > 1 && bnorm > bignum * smin) scale = 1 / bnorm;
    for (S& e : x) e = e * (scale / smin);
    return scale;
  }
  const S u11 = m[p][q], u12 = m[p][1 - q], l21 = m[1 - p][q] / u11;
  S u22 = m[1 - p][1 - q] - l21 * u12;
  if (abs1(u22) < smin) u22 = S(smin);
  const S y1 = x[p], y2 = x[1 - p] - l21 * y1;
  const R bbnd = std::max(abs1(y1) * (abs1(u22) / abs1(u11)), abs1(y2));
  if (bbnd > 1 && abs1(u22) < 1 && bbnd >= bignum * abs1(u22)) scale = 1 / bbnd;
  S x2 = (y2 * scale) / u22, x1 = (y1 * scale - u12 * x2) / u11;
  if (const R xnorm = std::max(abs1(x1), abs1(x2));
      xnorm > 1 && cmax > 1 && xnorm > bignum / cmax) {
    const R f = cmax / bignum;
    x1 *= f;
    x2 *= f;
    scale *= f;
  }
  x[q] = x1;
  x[1 - q] = x2;
  return scale;
}

/// Completes x (x[top .. last] given, zero past last) so that rows 0 .. top - 1 of
/// (t - lambda) x vanish: trevc's back substitution, along rows (each x_j from a dot product with
/// row j of t; a real t's 2 x 2 blocks, where t[j][j-1] != 0, two rows at a time), pivots below
/// smin raised to it, x rescaled whenever the next entry or dot product could pass bignum
/// (rownorm[j]: sum_{c > j} abs1(t[j][c])).
template <class T, class S, class R>
void back_substitute(const T* t, index_t n, index_t top, index_t last, S lambda, S* x, R smin,
                     const R* rownorm, R bignum) {
  R xmax = 0;
  for (index_t c = top; c <= last; ++c) xmax = std::max(xmax, abs1(x[c]));
  auto rescale = [&](R f) {
    for (index_t c = 0; c <= last; ++c) x[c] *= f;
    xmax *= f;
  };
  for (index_t j = top - 1; j >= 0;) {
    const bool pair = !is_complex<T> && j > 0 && t[j * n + j - 1] != T(0);
    const R rn = pair ? std::max(rownorm[j], rownorm[j - 1]) : rownorm[j];
    if (xmax > 1 && rn > bignum / xmax) rescale(1 / xmax);
    const S* tail = x + j + 1;
    if (!pair) {
      S s = -row_dot(t + j * n + j + 1, tail, last - j);
      S d = S(t[j * n + j]) - lambda;
      if (abs1(d) < smin) d = S(smin);
      if (const R sn = abs1(s), dn = abs1(d); dn < 1 && sn > 1 && sn > bignum * dn) {
        rescale(1 / sn);
        s /= sn;
      }
      x[j] = s / d;
      xmax = std::max(xmax, abs1(x[j]));
      --j;
    } else {
      const T* r0 = t + (j - 1) * n;
      const T* r1 = t + j * n;
      const S m[2][2] = {{S(r0[j - 1]) - lambda, S(r0[j])}, {S(r1[j - 1]), S(r1[j]) - lambda}};
      S b[2] = {-row_dot(r0 + j + 1, tail, last - j), -row_dot(r1 + j + 1, tail, last - j)};
      if (const R f = solve_2x2(m, b, smin, bignum); f != 1) rescale(f);
      x[j - 1] = b[0];
      x[j] = b[1];
      xmax = std::max({xmax, abs1(b[0]), abs1(b[1])});
      j -= 2;
    }
  }
}

/// The right eigenvectors of the Schur form t (n x n, row-major) in its basis, row j of xt
/// (n x n) the vector of t's eigenvalue j, zero past j + 1: trevc's, the entry of the
/// eigenvalue's own position 1. For a real t, a 2 x 2 block j, j + 1 gets the vector of its
/// eigenvalue with positive imaginary part, the real part in row j and the imaginary one in row
/// j + 1. The vectors in parallel, the longest first.
template <class T> void schur_vectors(const T* t, index_t n, T* xt) {
  using R = real_t<T>;
  using C = std::complex<R>;
  const R ulp = std::numeric_limits<R>::epsilon();
  const R smlnum = std::numeric_limits<R>::min() * (R(n) / ulp), bignum = (1 - ulp) / smlnum;
  std::vector<R> rownorm(static_cast<std::size_t>(n), R(0));
  for (index_t j = 0; j < n; ++j)
    for (index_t c = j + 1; c < n; ++c) rownorm[j] += abs1(t[j * n + c]);
  std::fill(xt, xt + n * n, T(0));
  std::vector<index_t> ends;  // the last index of each diagonal block, from the bottom
  for (index_t j = n - 1; j >= 0; --j) {
    ends.push_back(j);
    if (!is_complex<T> && j > 0 && t[j * n + j - 1] != T(0)) --j;
  }
  const auto count = static_cast<index_t>(ends.size());
#pragma omp parallel for schedule(dynamic) if (may_fork(double(n) * double(n) * double(n) / 6))
  for (index_t q = 0; q < count; ++q) {
    const index_t ki = ends[q];
    const T lambda = t[ki * n + ki];
    T* x = xt + ki * n;
    if (is_complex<T> || ki == 0 || t[ki * n + ki - 1] == T(0)) {
      x[ki] = T(1);
      back_substitute(t, n, ki, ki, lambda, x, std::max(ulp * abs1(lambda), smlnum), rownorm.data(),
                      bignum);
      continue;
    }
    const R up = std::real(t[(ki - 1) * n + ki]), lo = std::real(t[ki * n + ki - 1]);
    const R wr = std::real(lambda), wi = std::sqrt(std::abs(up)) * std::sqrt(std::abs(lo));
    std::vector<C> y(static_cast<std::size_t>(ki + 1));
    if (std::abs(up) >= std::abs(lo)) {
      y[ki - 1] = 1;
      y[ki] = C(0, wi / up);
    } else {
      y[ki - 1] = -wi / lo;
      y[ki] = C(0, 1);
    }
    back_substitute(t, n, ki - 1, ki, C(wr, wi), y.data(),
                    std::max(ulp * (std::abs(wr) + wi), smlnum), rownorm.data(), bignum);
    for (index_t c = 0; c <= ki; ++c) {
      x[c - n] = T(y[c].real());
      x[c] = T(y[c].imag());
    }
  }
}

/// out = xt zt (n x n, row-major): row j of out is the vector of row j of xt (zero past j + 1)
/// taken back through the basis of zt's rows, a sum of those rows; the rows in parallel.
template <class T> void back_transform(const T* xt, const T* zt, T* out, index_t n) {
#pragma omp parallel for schedule(dynamic, 8) if (may_fork(double(n) * double(n) * double(n) / 2))
  for (index_t j = 0; j < n; ++j) {
    T* o = out + j * n;
    std::fill(o, o + n, T(0));
    for (index_t c = 0; c <= std::min(j + 1, n - 1); ++c)
      if (const T x = xt[j * n + c]; x != T(0)) spectral::sub_scaled(o, zt + c * n, -x, n);
  }
}

/// gebak('B', 'R'): the vectors (the rows of vt) from the balanced matrix's back to the
/// original's, D's scaling then the exchanges in reverse.
template <class T, class R> void unbalance(T* vt, index_t n, const balancing<R>& b) {
  for (index_t j = 0; j < n; ++j) {
    T* x = vt + j * n;
    for (index_t i = b.ilo; i <= b.ihi; ++i) x[i] *= b.scale[i];
    for (index_t i = b.ilo - 1; i >= 0; --i) std::swap(x[i], x[b.swap[i]]);
    for (index_t i = b.ihi + 1; i < n; ++i) std::swap(x[i], x[b.swap[i]]);
  }
}

/// geev's normalisation of the eigenvectors, the rows of vt, into the columns of v: Euclidean
/// norm 1, the entry of largest modulus (the first of equal ones) real. pair[j]: rows j, j + 1
/// of a real vt hold the real and imaginary parts of the vector of the pair's first eigenvalue,
/// whose conjugate is the second's; the rotation that makes its largest entry real leaves it of
/// either sign (a complex vt's: positive).
template <class T, class C>
void normalize_vectors(T* vt, index_t n, const std::vector<char>& pair, C* v) {
  using R = real_t<T>;
  auto largest = [&](auto sq) {
    index_t k = 0;
    R best = -1;
    for (index_t i = 0; i < n; ++i)
      if (const R m = sq(i); m > best) {
        best = m;
        k = i;
      }
    return k;
  };
  for (index_t j = 0; j < n; ++j) {
    T* x = vt + j * n;
    if constexpr (is_complex<T>) {
      const R scl = 1 / spectral::norm2(x, n, index_t(1));
      for (index_t i = 0; i < n; ++i) x[i] *= scl;
      const index_t k = largest([&](index_t i) { return std::norm(x[i]); });
      const T phase = std::conj(x[k]) / std::sqrt(std::norm(x[k]));
      for (index_t i = 0; i < n; ++i) v[i * n + j] = x[i] * phase;
      v[k * n + j] = C(v[k * n + j].real(), 0);
    } else if (!pair[j]) {
      const R scl = 1 / spectral::norm2(x, n, index_t(1));
      for (index_t i = 0; i < n; ++i) v[i * n + j] = C(x[i] * scl, 0);
    } else {
      T* y = x + n;
      const R scl =
          1 / std::hypot(spectral::norm2(x, n, index_t(1)), spectral::norm2(y, n, index_t(1)));
      for (index_t i = 0; i < n; ++i) {
        x[i] *= scl;
        y[i] *= scl;
      }
      const index_t k = largest([&](index_t i) { return x[i] * x[i] + y[i] * y[i]; });
      // dlartg's rotation of (re, im) that zeroes im at k: the vector times a unit phase
      const R f = x[k], g = y[k], d = std::hypot(f, g);
      const R cs = std::abs(f) / d, sn = g / std::copysign(d, f);
      for (index_t i = 0; i < n; ++i) {
        const C e(cs * x[i] + sn * y[i], i == k ? R(0) : cs * y[i] - sn * x[i]);
        v[i * n + j] = e;
        v[i * n + j + 1] = std::conj(e);
      }
      ++j;
    }
  }
}

}  // namespace cunp::detail::cpu_linalg::nonsymmetric

namespace cunp::detail::cpu_linalg {

/// The eigenvalues w (n of them) and, unless v is null, the right eigenvectors v (n x n,
/// row-major, column j the vector of w[j]: v[i * n + j]) of the general n x n row-major matrix a
/// (T float, double or their complex; overwritten), as LAPACK's geev (NumPy's eig and eigvals):
/// the eigenvalues in the order the Schur form holds them, a real a's complex pairs adjacent with
/// the positive imaginary part first, their vectors conjugate; each vector of Euclidean norm 1
/// with its entry of largest modulus real. A non-finite entry, or a QR iteration that does not
/// converge (more than 30 max(10, nh) sweeps for one deflation, nh <= n the order of the part
/// that balancing leaves, LAPACK's limit), returns false with NaNs in w and v (NumPy raises
/// LinAlgError then). n >= 1. Work: about 10 n^3 / 3 flops for the Hessenberg reduction, some
/// 10 n^3 for the QR iteration without vectors and 25 n^3 with, then n^3 for the vectors.
template <class T, class C> bool eig(T* a, index_t n, C* w, C* v) {
  using namespace nonsymmetric;
  using R = real_t<T>;
  static_assert(std::is_same_v<C, std::complex<R>>);
  const auto nn = static_cast<std::size_t>(n * n);
  bool ok = true;
  for (std::size_t i = 0; i < nn; ++i) ok = ok && spectral::finite(a[i]);
  auto fail = [&] {
    std::fill(w, w + n, spectral::quiet_nan<C>());
    if (v != nullptr) std::fill(v, v + nn, spectral::quiet_nan<C>());
    return false;
  };
  if (!ok) return fail();
  // balanced before it is scaled (geev scales first): a graded matrix whose entries span more
  // than the exponent range (1e-300 .. 1e300) would lose its small ones to underflow, where
  // balancing brings them together first, its loops guarding their own range. Otherwise the
  // two orders agree: powers of 2 scale exactly
  const balancing<R> bal = balance(a, n);
  R amax = 0;
  for (std::size_t i = 0; i < nn; ++i) amax = std::max(amax, std::abs(a[i]));
  const int ex = spectral::range_exponent(amax);
  if (ex != 0)
    for (std::size_t i = 0; i < nn; ++i) a[i] = spectral::scaled(a[i], ex);
  const bool vectors = v != nullptr;
  std::vector<R> tau(static_cast<std::size_t>(n), R(0));
  std::vector<T> refl(vectors ? nn : static_cast<std::size_t>(n));  // Q needs every reflector
  hessenberg(a, n, bal.ilo, bal.ihi, tau.data(), refl.data(), vectors ? n : 0);
  std::vector<T> zt;  // Q^T: the QR iteration's transformations of Q's columns run along rows
  if (vectors) {
    zt.assign(nn, T(0));
    for (index_t i = 0; i < n; ++i) zt[i * n + i] = T(1);
    const index_t count = std::max<index_t>(bal.ihi - bal.ilo - 1, 0);
    spectral::accumulate_transposed(zt.data(), n, n, count, [&](index_t q) {
      const index_t k = bal.ilo + q;
      return spectral::reflector<T, R>{refl.data() + k * n, k + 1, bal.ihi - k, tau[k]};
    });
  }
  if (!schur_form(a, n, bal.ilo, bal.ihi, vectors, vectors ? zt.data() : nullptr, w)) return fail();
  for (index_t i = 0; i < n; ++i)
    if (i < bal.ilo || i > bal.ihi) w[i] = C(a[i * n + i]);
  for (index_t i = 0; i < n; ++i) w[i] = spectral::scaled(w[i], -ex);
  if (!vectors) return true;
  std::vector<char> pair(static_cast<std::size_t>(n), 0);
  if constexpr (!is_complex<T>)
    for (index_t j = 0; j + 1 < n; ++j) pair[j] = a[(j + 1) * n + j] != T(0);
  std::vector<T> xt(nn);
  schur_vectors(a, n, xt.data());
  back_transform(xt.data(), zt.data(), a, n);  // the Schur form is read no more
  unbalance(a, n, bal);
  normalize_vectors(a, n, pair, v);
  return true;
}

}  // namespace cunp::detail::cpu_linalg
