// cunp/detail/cpu/linalg/eigh.hpp: the cpu backend of eigh and eigvalsh, our own code (no LAPACK):
// Householder reduction of the Hermitian matrix to tridiagonal form (LAPACK's hetrd, unblocked),
// a diagonal unitary scaling that makes the tridiagonal real, then the implicit QL algorithm with
// Wilkinson's shift (EISPACK's imtql2), its plane rotations accumulated into the Householder basis.
// Everything runs in the input's precision (float32 in float32, as LAPACK's ssyevd). The helpers
// of namespace spectral (reflectors, rotations, the scaling into range) are shared with svd.hpp
// and eig.hpp.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/linalg/level1.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail::cpu_linalg::spectral {

using namespace level1;

/// sqrt(sum |x_i|^2) over n values at stride, without overflow or underflow (LAPACK's nrm2).
template <class T> real_t<T> norm2(const T* x, index_t n, index_t stride) {
  using R = real_t<T>;
  R scale = 0, ssq = 1;
  auto add = [&](R c) {
    if (c == 0) return;
    const R m = std::abs(c);
    if (scale < m) {
      ssq = 1 + ssq * (scale / m) * (scale / m);
      scale = m;
    } else {
      ssq += (m / scale) * (m / scale);
    }
  };
  for (index_t i = 0; i < n; ++i) {
    add(std::real(x[i * stride]));
    if constexpr (is_complex<T>) add(std::imag(x[i * stride]));
  }
  return scale * std::sqrt(ssq);
}

/// The reflector H = I - tau v v^H (v[0] = 1, tau real in [1, 2]) with H x = beta e0, for the n
/// values of x at stride; v overwrites x. Returns tau, or 0 (H = I, beta = x[0], possibly
/// complex) when x[1:] is zero already: no phase is forced on beta, since the callers make their
/// tridiagonal or bidiagonal real afterwards by a diagonal unitary scaling. As LAPACK's larfg, a
/// vector whose norm is below safmin (tiny / eps: its entries near or in the subnormal range,
/// where the norm and tau lose their digits and H its orthogonality, and 1 / (|x0| + norm) may
/// overflow) is scaled up by powers of two first, and beta scaled back.
template <class T> real_t<T> make_reflector(T* x, index_t n, index_t stride, T& beta) {
  using R = real_t<T>;
  R tail = n > 1 ? norm2(x + stride, n - 1, stride) : R(0);
  beta = x[0];
  if (tail == 0) return 0;
  const R safmin = std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon();
  int scalings = 0;
  while (std::hypot(std::abs(x[0]), tail) < safmin && scalings < 20) {
    for (index_t i = 0; i < n; ++i) x[i * stride] *= R(1) / safmin;  // a power of two: exact
    tail = norm2(x + stride, n - 1, stride);
    ++scalings;
  }
  const R aa = std::abs(x[0]);
  const R norm = std::hypot(aa, tail);
  const T phase = aa == 0 ? T(1) : x[0] / aa;
  R beta_norm = norm;
  for (int k = 0; k < scalings; ++k) beta_norm *= safmin;
  beta = -phase * beta_norm;
  // v = x - beta e0 = x + phase norm e0 divided by its first entry phase (|x0| + norm), which
  // cannot cancel; tau = 2 / |v|^2 then lies in [1, 2]
  const T inv = conj_of(phase) / (aa + norm);
  for (index_t i = 1; i < n; ++i) x[i * stride] = mul(x[i * stride], inv);
  x[0] = T(1);
  return (aa + norm) / norm;
}

/// A plane rotation of rows i and j of a matrix: (z_i, z_j) <- (c z_i + s z_j, c z_j - s z_i).
template <class R> struct rotation {
  std::int32_t i, j;
  R c, s;
};

/// The plane rotations of a QL or QR iteration, recorded in order and replayed onto the rows of z
/// (`rows` x `len`, row-major) once the log holds 2^17 of them (a few MB, within the L3 cache) or
/// at flush(). The replay splits z's columns into blocks narrow enough that a block of all the
/// rows stays in L2 while the whole log runs over it, each block by one thread: one OpenMP team
/// per replay, where one per sweep (LAPACK's lasr, rotation by rotation over whole rows) pays a
/// barrier per sweep and streams z from memory each time. Real c and s: a complex row rotates
/// as 2 len reals. With a null z the log records nothing.
template <class T, class R> class rotation_log {
 public:
  rotation_log(T* z, index_t rows, index_t len) : z_(z), rows_(rows), len_(len) {}
  void add(index_t i, index_t j, R c, R s) {
    if (z_ == nullptr) return;
    log_.push_back({static_cast<std::int32_t>(i), static_cast<std::int32_t>(j), c, s});
    if (log_.size() >= capacity) flush();
  }
  void flush() {
    if (log_.empty()) return;
    const index_t width = is_complex<T> ? 2 * len_ : len_;
    // block: all rows of it in ~256 KB, a multiple of 8 reals for the vector loop
    const index_t fit = (index_t(1) << 18) / (index_t(sizeof(R)) * std::max<index_t>(rows_, 1));
    const index_t block = std::clamp<index_t>(fit / 8 * 8, 16, 1024);
    const index_t blocks = (width + block - 1) / block;
    const index_t count = static_cast<index_t>(log_.size());
    const rotation<R>* rots = log_.data();
    R* base = reinterpret_cast<R*>(z_);
#pragma omp parallel for schedule(dynamic) if (may_fork(double(count) * double(width)))
    for (index_t b = 0; b < blocks; ++b) {
      const index_t c0 = b * block, w = std::min(width - c0, block);
      for (index_t r = 0; r < count; ++r) {
        const rotation<R> g = rots[r];
        R* __restrict x = base + g.i * width + c0;
        R* __restrict y = base + g.j * width + c0;
#pragma omp simd
        for (index_t c = 0; c < w; ++c) {
          const R xc = x[c], yc = y[c];
          x[c] = g.c * xc + g.s * yc;
          y[c] = g.c * yc - g.s * xc;
        }
      }
    }
    log_.clear();
  }

 private:
  static constexpr std::size_t capacity = std::size_t(1) << 17;
  T* z_;
  index_t rows_, len_;
  std::vector<rotation<R>> log_;
};

/// One reflector H = I - tau v v^H of a product, acting on the columns [first, first + len).
template <class T, class R> struct reflector {
  const T* v;
  index_t first, len;
  R tau;
};

/// z <- z H_{count-1}^T ... H_1^T H_0^T for the reflectors refl(k), on the rows of z (rows x ld):
/// the transpose of the product H_0 ... H_{count-1} applied to z^T, accumulated from the right
/// so that the rows of z and the reflectors both run contiguously. Each row loses
/// tau (row . conj(v)) v^T; a row r < first of a reflector is left alone (as the rows of an
/// identity z are, which makes this the basis's backward accumulation, orgtr's cost). The rows
/// go by groups of 16 (a group's rows stay in cache while the reflectors stream past), each group
/// through all the reflectors by one thread: one OpenMP team in all.
template <class T, class Refl>
void accumulate_transposed(T* z, index_t rows, index_t ld, index_t count, Refl refl) {
  constexpr index_t group = 16;
  const index_t groups = (rows + group - 1) / group;
  double work = 0;
  for (index_t k = 0; k < count; ++k) work += double(rows) * double(refl(k).len);
#pragma omp parallel for schedule(dynamic) if (may_fork(work))
  for (index_t g = groups - 1; g >= 0; --g) {  // the last rows, the most work, first
    const index_t r0 = g * group, r1 = std::min(rows, r0 + group);
    for (index_t k = count - 1; k >= 0; --k) {
      const auto h = refl(k);
      if (h.tau == 0) continue;
      for (index_t r = std::max(r0, h.first); r < r1; ++r) {
        T* row = z + r * ld + h.first;
        const T t = dotc(h.v, row, h.len) * h.tau;
        sub_scaled(row, h.v, t, h.len);
      }
    }
  }
}

/// The exponent e such that 2^e max|a| lies in range, or 0 where it does already (LAPACK's
/// scaling of a matrix whose norm is within sqrt(underflow)/eps of the limits): squares, norms
/// and shifts then neither overflow nor lose the small entries. Powers of 2 scale exactly.
template <class R> int range_exponent(R amax) {
  const R small = std::sqrt(std::numeric_limits<R>::min()) / std::numeric_limits<R>::epsilon();
  if (amax == 0 || (amax >= small && amax <= 1 / small)) return 0;
  return -std::ilogb(amax);
}
template <class T> T scaled(const T& v, int e) {
  if constexpr (is_complex<T>)
    return T(std::ldexp(v.real(), e), std::ldexp(v.imag(), e));
  else
    return std::ldexp(v, e);
}

template <class T> bool finite(const T& v) {
  if constexpr (is_complex<T>)
    return std::isfinite(v.real()) && std::isfinite(v.imag());
  else
    return std::isfinite(v);
}

template <class T> T quiet_nan() {
  using R = real_t<T>;
  if constexpr (is_complex<T>)
    return T(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
  else
    return std::numeric_limits<R>::quiet_NaN();
}

/// The eigenvalues d (n of them) of the real symmetric tridiagonal matrix of diagonal d and
/// off-diagonal e (e[i] couples i and i + 1; e has n entries, e[n - 1] is scratch), by the implicit
/// QL algorithm with Wilkinson's shift (EISPACK's imtql2, with LAPACK steqr's test: e_m is
/// negligible where e_m^2 <= eps^2 |d_m d_m+1| + safmin). The shift is never subtracted from the
/// whole diagonal (tql2 does, and its rounding then accumulates over the iterations, to ~sqrt(n)
/// eps |T|). The rotations go to rows i, i + 1 of z (n rows of `len` columns) unless z is null.
/// Unsorted. Returns false, d then unspecified, after 30 n iterations in all (steqr's limit), so
/// that a NaN cannot loop forever.
template <class T, class R> bool tridiagonal_ql(R* d, R* e, index_t n, T* z, index_t len) {
  rotation_log<T, R> log(z, n, len);
  const R eps = std::numeric_limits<R>::epsilon(), safmin = std::numeric_limits<R>::min();
  e[n - 1] = 0;
  index_t iterations = 0;
  const index_t max_iterations = 30 * n;
  for (index_t l = 0; l < n; ++l) {
    for (;;) {
      index_t m = l;
      for (; m + 1 < n; ++m) {
        const R t = std::abs(e[m]);
        if (t * t <= (eps * eps * std::abs(d[m])) * std::abs(d[m + 1]) + safmin) break;
      }
      if (m == l) break;  // d[l] has converged
      if (++iterations > max_iterations) return false;
      // the shift: the eigenvalue of the leading 2 x 2 nearer d[l], applied implicitly
      R g = (d[l + 1] - d[l]) / (2 * e[l]);
      R r = std::hypot(g, R(1));
      g = d[m] - d[l] + e[l] / (g + std::copysign(r, g));
      R s = 1, c = 1, p = 0;
      bool underflow = false;
      for (index_t i = m - 1; i >= l; --i) {
        const R f = s * e[i], b = c * e[i];
        r = std::hypot(f, g);
        e[i + 1] = r;
        if (r == 0) {  // the bulge underflowed: deflate at m and start again
          d[i + 1] -= p;
          e[m] = 0;
          underflow = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - p;
        r = (d[i] - g) * s + 2 * c * b;
        p = s * r;
        d[i + 1] = g + p;
        g = c * r - b;
        log.add(i, i + 1, c, -s);
      }
      if (underflow) continue;
      d[l] -= p;
      e[l] = g;
      e[m] = 0;
    }
  }
  log.flush();
  return true;
}

/// Rescales the rows of z (rows x len) to unit norm: thousands of rotations, each with
/// c^2 + s^2 = 1 only to rounding, make the norms drift by ~sqrt(n) eps (1.5e-14 at n = 1024
/// after the QL iteration), several times the loss of orthogonality between the rows (4e-15).
template <class T> void normalize_rows(T* z, index_t rows, index_t len) {
  using R = real_t<T>;
#pragma omp parallel for schedule(static) if (may_fork(double(rows) * double(len)))
  for (index_t r = 0; r < rows; ++r) {
    T* row = z + r * len;
    const R norm = std::sqrt(std::real(dotc(row, row, len)));
    if (norm == 0) continue;
    const R inv = 1 / norm;
    for (index_t i = 0; i < len; ++i) row[i] *= inv;
  }
}

/// The number of eigenvalues below x of the symmetric tridiagonal of diagonal d and squared
/// off-diagonal e2 (Sturm's count by the pivots of T - x = L D L^T, as LAPACK's stebz, a pivot
/// below pivmin replaced by -pivmin).
template <class R> index_t eigenvalues_below(const R* d, const R* e2, index_t n, R x, R pivmin) {
  index_t count = 0;
  R q = d[0] - x;
  for (index_t i = 0;;) {
    if (std::abs(q) < pivmin) q = -pivmin;
    count += q < 0;
    if (++i == n) break;
    q = d[i] - x - e2[i - 1] / q;
  }
  return count;
}

/// Polishes w[c], an approximation of the eigenvalue of ascending index first + c of the
/// symmetric tridiagonal (d, e) (n of them), for the count values of w (ascending), by bisection
/// on Sturm counts from a bracket around it, to a width of eps |T| / 4 (or 2 eps |w|): the QL and
/// QR iterations' rounding accumulates over their sweeps (~20 eps |T| for n = 800), the count's
/// does not (a few eps). A value still inside the final bracket is kept, so that what those
/// iterations computed better (small eigenvalues of a graded matrix) stays. O(n) per count,
/// about a dozen counts per value.
template <class R>
void polish_eigenvalues(const R* d, const R* e, index_t n, R* w, index_t first, index_t count) {
  const R eps = std::numeric_limits<R>::epsilon();
  std::vector<R> e2(static_cast<std::size_t>(n), R(0));
  R e2max = 0, tnorm = 0;
  for (index_t i = 0; i < n; ++i) {
    if (i + 1 < n) {
      e2[i] = e[i] * e[i];
      e2max = std::max(e2max, e2[i]);
    }
    const R row =
        std::abs(d[i]) + (i > 0 ? std::abs(e[i - 1]) : R(0)) + (i + 1 < n ? std::abs(e[i]) : R(0));
    tnorm = std::max(tnorm, row);
  }
  if (tnorm == 0) return;
  const R pivmin = std::numeric_limits<R>::min() * std::max(R(1), e2max), floor = eps * tnorm / 4;
  const R* q = e2.data();
#pragma omp parallel for schedule(dynamic, 16) if (may_fork(double(count) * double(n) * 16))
  for (index_t c = 0; c < count; ++c) {
    const index_t j = first + c;
    const R x0 = w[c];
    R delta = 16 * eps * tnorm, lo = x0 - delta, hi = x0 + delta;
    int widen = 0;
    for (; eigenvalues_below(d, q, n, lo, pivmin) > j && widen < 64; ++widen) {
      delta *= 2;
      lo = x0 - delta;
    }
    for (; eigenvalues_below(d, q, n, hi, pivmin) <= j && widen < 128; ++widen) {
      delta *= 2;
      hi = x0 + delta;
    }
    if (widen >= 64) continue;  // no bracket found: keep the value
    while (hi - lo > std::max(2 * eps * std::max(std::abs(lo), std::abs(hi)), floor)) {
      const R mid = lo + (hi - lo) / 2;
      if (!(mid > lo && mid < hi)) break;
      if (eigenvalues_below(d, q, n, mid, pivmin) > j)
        hi = mid;
      else
        lo = mid;
    }
    if (!(x0 >= lo && x0 <= hi)) w[c] = lo + (hi - lo) / 2;
  }
  for (index_t c = 1; c < count; ++c) w[c] = std::max(w[c], w[c - 1]);
}

/// Reduces the Hermitian n x n matrix a (both triangles present) to tridiagonal form
/// Q^H a Q = T: diagonal d, subdiagonal e (complex for a complex a; e[i] = T[i + 1][i]). The
/// reflector H_k = I - tau[k] v v^H of step k (acting on rows and columns k + 1 ..) keeps v in row
/// k of a, right of the diagonal, with v[0] = 1; Q = H_0 H_1 ... H_{n-3}. Unblocked (hetd2): step
/// k's rank-2 update A -= v q^H + q v^H, q = p - (tau/2 v^H p) v, p = tau A v, is fused with the
/// product p of step k + 1, whose reflector comes first from the updated column alone: one pass
/// over the trailing block per step, each row by one thread (one OpenMP team per step).
template <class T, class R> void tridiagonalize(T* a, index_t n, R* d, T* e, R* tau) {
  d[0] = std::real(a[0]);
  if (n == 1) return;
  if (n == 2) {
    e[0] = a[2];
    tau[0] = 0;
    d[1] = std::real(a[3]);
    return;
  }
  std::vector<T> v(static_cast<std::size_t>(n)), vn(v), p(v), pn(v);
  for (index_t i = 0; i + 1 < n; ++i) v[i] = a[(i + 1) * n];
  T beta;
  tau[0] = make_reflector(v.data(), n - 1, 1, beta);
  e[0] = beta;
  if (tau[0] != 0) {
#pragma omp parallel for schedule(static) if (may_fork(double(n) * double(n)))
    for (index_t i = 0; i < n - 1; ++i) p[i] = dotu(a + (i + 1) * n + 1, v.data(), n - 1) * tau[0];
  }
  for (index_t k = 0; k + 2 < n; ++k) {
    const index_t len = n - k - 1;
    T* b = a + (k + 1) * n + (k + 1);  // the trailing block, row length n
    const R t = tau[k];
    std::copy(v.begin(), v.begin() + len, a + k * n + k + 1);  // row k is not read again
    if (t != 0) {
      const R half = t * std::real(dotc(v.data(), p.data(), len)) / 2;
      for (index_t i = 0; i < len; ++i) p[i] -= v[i] * half;  // p becomes q
    }
    const T* q = p.data();
    // the next reflector, from column k + 1 below the diagonal as this step leaves it
    R tn = 0;
    if (k + 3 < n) {
      for (index_t i = 1; i < len; ++i)
        vn[i - 1] =
            t != 0 ? b[i * n] - mul(v[i], conj_of(q[0])) - mul(q[i], conj_of(v[0])) : b[i * n];
      tn = make_reflector(vn.data(), len - 1, 1, beta);
      e[k + 1] = beta;
      tau[k + 1] = tn;
    }
    if (t != 0 || tn != 0) {
#pragma omp parallel for schedule(static) if (may_fork(double(len) * double(len)))
      for (index_t i = 0; i < len; ++i) {
        T* row = b + i * n;
        if (t != 0) {
          sub_scaled(row, q, v[i], len, true);
          sub_scaled(row, v.data(), q[i], len, true);
        }
        if (tn != 0 && i >= 1) pn[i - 1] = dotu(row + 1, vn.data(), len - 1) * tn;
      }
    }
    d[k + 1] = std::real(b[0]);
    std::swap(v, vn);
    std::swap(p, pn);
  }
  e[n - 2] = a[(n - 1) * n + n - 2];
  tau[n - 2] = 0;
  d[n - 1] = std::real(a[(n - 1) * n + n - 1]);
}

}  // namespace cunp::detail::cpu_linalg::spectral

namespace cunp::detail::cpu_linalg {

/// The eigenvalues w (ascending) of the n x n row-major Hermitian matrix a, of which only the
/// lower triangle (upper false, NumPy's UPLO='L') or the upper one is read, the imaginary parts of
/// the diagonal ignored (as LAPACK's heevd). With vectors, a is overwritten with the orthonormal
/// eigenvectors as columns (a[i * n + j]: component i of the vector of w[j]); otherwise a's
/// content is unspecified. A non-finite entry in the triangle read, or no convergence within
/// 30 n QL iterations, gives NaNs in w and in the vectors (NumPy's result for a NaN input). n >= 1.
/// Work: about 4 n^3 / 3 flops for the reduction (8 n^3 / 3 with vectors: the basis), and about
/// 3 n^3 for the rotations accumulated into it.
template <class T, class R> void eigh(T* a, index_t n, R* w, bool vectors, bool upper) {
  using namespace spectral;
  static_assert(std::is_same_v<R, real_t<T>>);
  const auto nn = static_cast<std::size_t>(n * n);
  // make the matrix whole from the triangle read, checking it and finding its scale
  bool ok = true;
  R amax = 0;
  for (index_t i = 0; i < n; ++i) {
    a[i * n + i] = T(std::real(a[i * n + i]));
    for (index_t j = 0; j <= i; ++j) {
      T& lo = a[i * n + j];
      T& up = a[j * n + i];
      if (upper)
        lo = conj_of(up);
      else
        up = conj_of(lo);
      ok = ok && finite(lo);
      amax = std::max(amax, std::abs(lo));
    }
  }
  auto fail = [&] {
    std::fill(w, w + n, std::numeric_limits<R>::quiet_NaN());
    if (vectors) std::fill(a, a + nn, quiet_nan<T>());
  };
  if (!ok) return fail();
  const int ex = range_exponent(amax);
  if (ex != 0)
    for (std::size_t i = 0; i < nn; ++i) a[i] = scaled(a[i], ex);

  std::vector<R> d(static_cast<std::size_t>(n)), e(static_cast<std::size_t>(n), R(0));
  std::vector<T> ec(static_cast<std::size_t>(n), T(0));
  std::vector<R> tau(static_cast<std::size_t>(n), R(0));
  tridiagonalize(a, n, d.data(), ec.data(), tau.data());

  // z = Q^T, rows the columns of Q, so that the QL rotations (of Q's columns) run along rows
  std::vector<T> z;
  if (vectors) {
    z.assign(nn, T(0));
    for (index_t i = 0; i < n; ++i) z[i * n + i] = T(1);
    accumulate_transposed(z.data(), n, n, n - 2, [&](index_t k) {
      return reflector<T, R>{a + k * n + k + 1, k + 1, n - k - 1, tau[k]};
    });
  }
  // D^H T D is real for D = diag(delta), delta_{k+1} = delta_k e_k / |e_k|; the vectors of the
  // matrix are then the columns of Q D times those of the real tridiagonal
  // (a real e may keep its signs: the QL algorithm does not mind them)
  T delta(1);
  for (index_t k = 0; k + 1 < n; ++k) {
    if constexpr (is_complex<T>) {
      const R m = std::abs(ec[k]);
      e[k] = m;
      if (m != 0) delta = mul(delta, ec[k] / m);
      if (vectors)
        for (index_t i = 0; i < n; ++i) z[(k + 1) * n + i] = mul(z[(k + 1) * n + i], delta);
    } else {
      e[k] = ec[k];
    }
  }
  const std::vector<R> d0(d), e0(e);
  if (!tridiagonal_ql(d.data(), e.data(), n, vectors ? z.data() : static_cast<T*>(nullptr), n))
    return fail();
  if (vectors) normalize_rows(z.data(), n, n);

  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), index_t(0));
  std::stable_sort(order.begin(), order.end(), [&](index_t x, index_t y) { return d[x] < d[y]; });
  std::vector<R> sorted(static_cast<std::size_t>(n));
  for (index_t j = 0; j < n; ++j) sorted[j] = d[order[j]];
  polish_eigenvalues(d0.data(), e0.data(), n, sorted.data(), 0, n);
  for (index_t j = 0; j < n; ++j) w[j] = std::ldexp(sorted[j], -ex);
  if (vectors)
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j) a[i * n + j] = z[order[j] * n + i];
}

}  // namespace cunp::detail::cpu_linalg
