// cunp/detail/cpu/fft/complex_plan.hpp: the cpu backend's complex FFT of any length, the
// reference the CUDA backend's cuFFT results are checked against: Stockham passes of radix 4, 2,
// 3, 5, 7 and any other odd prime, Bluestein's algorithm for large prime factors, and the plan
// cache.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <memory>
#include <numbers>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cunp/detail/core/lru_cache.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail::cpu_fft {

/// Transforms this long split each pass over the OpenMP threads; below it a pass fits in the
/// caches and a parallel region costs more than it saves.
inline constexpr index_t parallel_from = index_t(1) << 15;

/// The largest prime a radix pass takes at all: its butterfly keeps p - 1 values on the stack.
inline constexpr index_t largest_radix = 512;

/// Bluestein's transform length for n: a power of two >= 2n - 1, so the convolution's two
/// halves do not overlap.
inline index_t bluestein_length(index_t n) {
  index_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  return m;
}

/// Whether length n, whose largest prime factor is p, goes through Bluestein's algorithm. A
/// generic radix-p pass does p^2 / 4 complex multiply-adds per p elements (odd_butterflies),
/// Bluestein two transforms of length m. Timed with g++ -O3 on x86, the pass costs about
/// 0.35 p ns an element and Bluestein 1 to 1.5 (m/n) log2(m) ns, so the pass is taken while
/// p < 4 (m/n) log2(m): primes below 60 to 90 for n = p, below about 180 for n near 10^5 and
/// 250 near 10^7 (a fixed bound of 100 made 101 * 2^16 2.7 times slower than this).
inline bool use_bluestein(index_t p, index_t n) {
  const double m = double(bluestein_length(n));
  return p > largest_radix || double(p) > 4 * m / double(n) * std::log2(m);
}

/// Each plan cache holds this many plans, and this many bytes of tables: a 2^26-point
/// complex128 plan's twiddles (1 GiB) fit.
inline constexpr std::size_t cache_entries = 32;
inline constexpr std::size_t cache_bytes = std::size_t(3) << 29;

/// f(begin, end) over [0, count): one range per OpenMP thread when `parallel`, one range on the
/// calling thread when not or when it already runs inside a parallel region (a batch of
/// transforms, one a thread).
template <class F> void for_ranges(index_t count, [[maybe_unused]] bool parallel, F&& f) {
#if defined(_OPENMP)
  const int parts = parallel && !omp_in_parallel() ? omp_get_max_threads() : 1;
  if (parts > 1) {
#pragma omp parallel for schedule(static) num_threads(parts)
    for (int t = 0; t < parts; ++t) f(count * t / parts, count * (t + 1) / parts);
    return;
  }
#endif
  f(index_t(0), count);
}

/// exp(-2 pi i k / n) for 0 <= k < n. k is reflected into the first octant with integer
/// arithmetic (the angle is 2 pi a / (8 n)), so quarter and half turns are exact (-i, not
/// 6e-17 - i) and the roots are symmetric; cos and sin then see an angle of at most pi/4
/// formed in long double, and the double result is rounded once more to R.
template <class R> std::complex<R> unit_root(index_t k, index_t n) {
  const index_t full = 8 * n;
  index_t a = 8 * k;
  const bool past_half = 2 * a > full;
  if (past_half) a = full - a;
  const bool past_quarter = 4 * a > full;
  if (past_quarter) a = full / 2 - a;
  const bool past_eighth = 8 * a > full;
  if (past_eighth) a = full / 4 - a;
  const auto angle =
      static_cast<double>(2 * std::numbers::pi_v<long double> * static_cast<long double>(a) /
                          static_cast<long double>(full));
  // At pi/4 exactly, cos and sin of the rounded angle would differ by an ulp.
  const bool eighth = 8 * a == full;
  double c = eighth ? std::sqrt(0.5) : std::cos(angle), s = eighth ? c : std::sin(angle);
  if (past_eighth) std::swap(c, s);
  if (past_quarter) c = -c;
  if (past_half) s = -s;
  return {static_cast<R>(c), static_cast<R>(-s)};
}

/// a * w, or a * conj(w) when Conj, written out: std::complex's operator* checks for NaNs
/// through __muldc3 unless -ffast-math, which costs more than the FFT's arithmetic.
template <bool Conj, class R>
std::complex<R> twiddle(const std::complex<R>& a, const std::complex<R>& w) {
  const R wi = Conj ? -w.imag() : w.imag();
  return {a.real() * w.real() - a.imag() * wi, a.real() * wi + a.imag() * w.real()};
}

/// a times the quarter-turn root: -i forward, i backward.
template <bool Back, class R> std::complex<R> quarter(const std::complex<R>& a) {
  return Back ? std::complex<R>(-a.imag(), a.real()) : std::complex<R>(a.imag(), -a.real());
}

template <class R> class complex_plan;
template <class R> std::shared_ptr<const complex_plan<R>> cached_complex_plan(index_t n);

/// An FFT of one length: immutable once made, so any number of threads may run it at once,
/// each with its own scratch.
template <class R> class complex_plan {
  using C = std::complex<R>;

 public:
  explicit complex_plan(index_t n) : n_(n) {
    std::vector<index_t> radices;
    index_t rest = n;
    for (; rest % 4 == 0; rest /= 4) radices.push_back(4);
    for (; rest % 2 == 0; rest /= 2) radices.push_back(2);
    for (index_t p = 3; p * p <= rest; p += 2)
      for (; rest % p == 0; rest /= p) radices.push_back(p);
    if (rest > 1) radices.push_back(rest);
    if (!radices.empty() && use_bluestein(radices.back(), n))
      make_bluestein();
    else
      make_passes(radices);
  }

  [[nodiscard]] index_t size() const noexcept { return n_; }
  /// The std::complex<R> elements run() needs: the other buffer of the Stockham passes, or
  /// Bluestein's padded sequence and its transform's scratch.
  [[nodiscard]] index_t scratch_size() const noexcept {
    return sub_ ? sub_->size() + sub_->scratch_size() : n_;
  }
  /// The bytes of the plan's tables (what the plan cache counts).
  [[nodiscard]] std::size_t bytes() const noexcept {
    return (twiddles_.size() + chirp_.size() + kernel_.size()) * sizeof(C);
  }

  /// In place on n contiguous elements, unscaled: forward (backward=false) is
  /// X[k] = sum_j x[j] exp(-2 pi i j k / n) (numpy.fft.fft with norm="backward"), backward is the
  /// conjugate kernel without the 1/n (n * numpy.fft.ifft).
  void run(C* data, bool backward, C* scratch) const {
    if (sub_) return backward ? bluestein<true>(data, scratch) : bluestein<false>(data, scratch);
    backward ? passes<true>(data, scratch) : passes<false>(data, scratch);
  }

 private:
  /// A Stockham pass of radix p on a length n = s p m: butterfly (j, q), j < m, q < s, reads
  /// x[q + s (j + m r)] for r < p, takes their p-point DFT, multiplies output t by the root
  /// w_{pm}^{jt} and writes it to y[q + s (p j + t)]. The output is in natural order after the
  /// last pass, with no bit reversal.
  struct pass_info {
    int p;
    index_t m, s;
    std::size_t twiddles;  ///< offset of the (p - 1) m roots, [j (p - 1) + t - 1]
    std::size_t roots;     ///< odd radices: offset of (cos, sin)(2 pi k / p), k < p
  };

  void make_passes(const std::vector<index_t>& radices) {
    index_t s = 1, len = n_;
    for (const index_t p : radices) {
      const index_t m = len / p;
      pass_info pi{int(p), m, s, twiddles_.size(), 0};
      twiddles_.resize(twiddles_.size() + std::size_t((p - 1) * m));
      C* tw = twiddles_.data() + pi.twiddles;
      for_ranges(m, len >= parallel_from, [&](index_t j0, index_t j1) {
        for (index_t j = j0; j < j1; ++j)
          for (index_t t = 1; t < p; ++t) tw[j * (p - 1) + t - 1] = unit_root<R>(j * t, len);
      });
      if (p % 2 == 1) {
        pi.roots = twiddles_.size();
        for (index_t k = 0; k < p; ++k) twiddles_.push_back(std::conj(unit_root<R>(k, p)));
      }
      passes_.push_back(pi);
      s *= p;
      len = m;
    }
  }

  template <bool Back> void passes(C* data, C* scratch) const {
    const bool parallel = n_ >= parallel_from;
    C* x = data;
    C* y = scratch;
    for (const pass_info& pi : passes_) {
      for_ranges(n_ / pi.p, parallel, [&](index_t b0, index_t b1) {
        switch (pi.p) {
          case 4:
            return pass<4, Back>(pi, x, y, b0, b1);
          case 2:
            return pass<2, Back>(pi, x, y, b0, b1);
          case 3:
            return pass<3, Back>(pi, x, y, b0, b1);
          case 5:
            return pass<5, Back>(pi, x, y, b0, b1);
          case 7:
            return pass<7, Back>(pi, x, y, b0, b1);
          default:
            return pass<0, Back>(pi, x, y, b0, b1);
        }
      });
      std::swap(x, y);
    }
    if (x != data)
      for_ranges(n_, parallel, [&](index_t b, index_t e) { std::copy(x + b, x + e, data + b); });
  }

  /// Butterflies [b0, b1) of a pass, numbered b = j s + q so that threads split any pass
  /// evenly; P is the radix, or 0 for an odd radix known at run time.
  template <int P, bool Back>
  void pass(const pass_info& pi, const C* x, C* y, index_t b0, index_t b1) const {
    const int p = P > 0 ? P : pi.p;
    const index_t s = pi.s, d = pi.s * pi.m;  // d: the stride between a butterfly's inputs
    index_t j = b0 / s, q = b0 % s;
    for (index_t b = b0; b < b1; ++j, q = 0) {
      const index_t q1 = std::min(s, q + (b1 - b));
      b += q1 - q;
      const C* in = x + s * j;
      C* out = y + s * p * j;
      const C* w = twiddles_.data() + pi.twiddles + std::size_t(j * (p - 1));
      if constexpr (P == 4) {
        const C w1 = w[0], w2 = w[1], w3 = w[2];
        for (index_t i = q; i < q1; ++i) {
          const C a0 = in[i], a1 = in[i + d], a2 = in[i + 2 * d], a3 = in[i + 3 * d];
          const C t0 = a0 + a2, t1 = a0 - a2, t2 = a1 + a3, t3 = quarter<Back>(a1 - a3);
          out[i] = t0 + t2;
          out[i + s] = twiddle<Back>(t1 + t3, w1);
          out[i + 2 * s] = twiddle<Back>(t0 - t2, w2);
          out[i + 3 * s] = twiddle<Back>(t1 - t3, w3);
        }
      } else if constexpr (P == 2) {
        const C w1 = w[0];
        for (index_t i = q; i < q1; ++i) {
          const C a0 = in[i], a1 = in[i + d];
          out[i] = a0 + a1;
          out[i + s] = twiddle<Back>(a0 - a1, w1);
        }
      } else {
        odd_butterflies<P, Back>(pi, p, in, out, w, q, q1);
      }
    }
  }

  /// An odd radix p = 2h + 1 in the symmetric form: with u_r = a_r + a_{p-r} and
  /// v_r = a_r - a_{p-r}, outputs t and p - t are U_t -/+ i V_t (+/- backward), where
  /// U_t = a_0 + sum_r u_r cos(2 pi r t / p) and V_t = sum_r v_r sin(2 pi r t / p): h^2 real
  /// products of complex values instead of p^2 complex products.
  template <int P, bool Back>
  void odd_butterflies(const pass_info& pi, int p, const C* in, C* out, const C* w, index_t q,
                       index_t q1) const {
    constexpr index_t most = (P > 0 ? P : largest_radix) / 2;
    const int h = p / 2;
    const index_t s = pi.s, d = pi.s * pi.m;
    const C* cs = twiddles_.data() + pi.roots;
    for (index_t i = q; i < q1; ++i) {
      C u[most], v[most];
      const C a0 = in[i];
      C sum = a0;
      for (int r = 1; r <= h; ++r) {
        const C ar = in[i + r * d], br = in[i + (p - r) * d];
        u[r - 1] = ar + br;
        v[r - 1] = ar - br;
        sum += u[r - 1];
      }
      out[i] = sum;
      for (int t = 1; t <= h; ++t) {
        C ut = a0, vt{};
        for (int r = 1, k = t; r <= h; ++r, k = k + t < p ? k + t : k + t - p) {
          ut += u[r - 1] * cs[k].real();
          vt += v[r - 1] * cs[k].imag();
        }
        const C iv = quarter<Back>(vt);
        out[i + t * s] = twiddle<Back>(ut + iv, w[t - 1]);
        out[i + (p - t) * s] = twiddle<Back>(ut - iv, w[p - t - 1]);
      }
    }
  }

  /// Bluestein: with the chirp c_j = exp(-pi i j^2 / n), jk = (j^2 + k^2 - (k - j)^2) / 2
  /// makes the DFT X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), a convolution done by two
  /// power-of-two transforms of length m >= 2n - 1. The kernel's transform (conj(c) wrapped
  /// around m, times 1/m) is computed in double and rounded once.
  void make_bluestein() {
    const index_t m = bluestein_length(n_);
    sub_ = cached_complex_plan<R>(m);
    std::shared_ptr<const complex_plan<double>> wide;
    if constexpr (std::is_same_v<R, double>)
      wide = sub_;
    else
      wide = std::make_shared<const complex_plan<double>>(m);
    // The kernel as pairs of doubles: nvcc's host code generation misprints the type
    // std::vector<std::complex<double>> in a TU that has instantiated some of cunp's aliases.
    using W = std::complex<double>;
    std::vector<double> parts(2 * std::size_t(m + wide->scratch_size()));
    W* kernel = reinterpret_cast<W*>(parts.data());
    chirp_.resize(std::size_t(n_));
    // j^2 mod 2n, stepped by (j + 1)^2 - j^2 = 2j + 1 so that it never overflows.
    for (index_t j = 0, sq = 0; j < n_; ++j, sq = (sq + 2 * j - 1) % (2 * n_)) {
      const W c = unit_root<double>(sq, 2 * n_);
      chirp_[j] = C(c);
      kernel[j] = std::conj(c);
      if (j > 0) kernel[m - j] = std::conj(c);
    }
    wide->run(kernel, false, kernel + m);
    kernel_.resize(std::size_t(m));
    for (index_t k = 0; k < m; ++k) kernel_[k] = C(kernel[k] / double(m));
  }

  /// Backward is conj(forward(conj(x))): the conjugations ride on the chirp products.
  template <bool Back> void bluestein(C* data, C* scratch) const {
    const index_t m = sub_->size();
    const bool parallel = m >= parallel_from;
    C* a = scratch;
    for_ranges(m, parallel, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i)
        a[i] = i < n_ ? twiddle<false>(Back ? std::conj(data[i]) : data[i], chirp_[i]) : C{};
    });
    sub_->run(a, false, scratch + m);
    for_ranges(m, parallel, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) a[i] = twiddle<false>(a[i], kernel_[i]);
    });
    sub_->run(a, true, scratch + m);
    for_ranges(n_, parallel, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) {
        const C v = twiddle<false>(a[i], chirp_[i]);
        data[i] = Back ? std::conj(v) : v;
      }
    });
  }

  index_t n_;
  std::vector<pass_info> passes_;
  std::vector<C> twiddles_;  // every pass's roots, and the odd radices' (cos, sin) tables
  std::shared_ptr<const complex_plan<R>> sub_;  // Bluestein's power-of-two transform
  std::vector<C> chirp_, kernel_;
};

/// The Plan (complex_plan, real_plan) of length n from a process-wide cache of its type, so
/// repeated transforms of one length make their tables once.
template <class Plan> std::shared_ptr<const Plan> cached_of_length(index_t n) {
  static core::lru_cache<index_t, const Plan> cache(cache_entries, cache_bytes);
  return cache.lookup_or_make(n, [n] {
    auto made = std::make_shared<const Plan>(n);
    return core::sized<const Plan>{made, made->bytes()};
  });
}

template <class R> std::shared_ptr<const complex_plan<R>> cached_complex_plan(index_t n) {
  return cached_of_length<complex_plan<R>>(n);
}

}  // namespace cunp::detail::cpu_fft
