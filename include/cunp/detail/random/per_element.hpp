// cunp/detail/random/per_element.hpp: the distributions cunp draws by rejection (gamma, beta,
// poisson, binomial), each element from a stream of its own, so that what an element draws does not depend
// on how many draws its neighbours refused: element i of a call reads the Philox4x64-10 blocks of
// counters (i, 0, 0, 0), (i, 1, 0, 0), ... under a key of two 64-bit draws that the call takes
// from the generator. The cpu (detail/cpu/random/per_element.hpp) and a GPU
// (detail/cuda/random/per_element.cuh) compute an element alike, every product through mul_rn and
// every log and exp through exact_math.hpp, and so give the same bits. The methods are the ones
// NumPy uses (Marsaglia-Tsang, Johnk, Hormann's PTRS, multiplication of uniforms, inversion) with
// other draws, and binomial's large counts split by Devroye's recursion on betas instead of
// NumPy's BTPE, so the numbers are not NumPy's (docs/differences.md).
#pragma once
#include <cmath>
#include <cstdint>

#include "cunp/config.hpp"
#include "cunp/detail/core/math.hpp"
#include "cunp/detail/random/draws.hpp"
#include "cunp/detail/random/exact_math.hpp"
#include "cunp/detail/random/philox.hpp"

namespace cunp::detail {

/// The draws of element `element` of a per-element call under key (k0, k1), word by word.
struct element_stream {
  std::uint64_t k0, k1, element;
  std::uint64_t block = 0;
  philox_block words{};
  int used = 4;

  CUNP_HD std::uint64_t next_uint64() {
    if (used == 4) {
      words = philox4x64_10({{element, block++, 0, 0}}, k0, k1);
      used = 0;
    }
    // The words move down instead of being indexed by `used`: an indexed array would live in a
    // GPU thread's local memory, a round trip through the cache for every draw.
    const std::uint64_t x = words.w[0];
    words.w[0] = words.w[1], words.w[1] = words.w[2], words.w[2] = words.w[3];
    ++used;
    return x;
  }
  /// In [0, 1), NumPy's next_double (53 bits).
  CUNP_HD double next_double() { return unit_double_rule{}.value(next_uint64()); }
  /// In (0, 1]: 1 - next_double(), exact.
  CUNP_HD double next_open() { return 1.0 - next_double(); }
  /// A standard normal by Box-Muller, the cosine half (the sine half is not kept).
  CUNP_HD double normal() {
    const double r = std::sqrt(mul_rn(-2.0, log_exact(next_open())));
    double s, c;
    sincospi_exact(mul_rn(2.0, next_double()), &s, &c);
    return mul_rn(r, c);
  }
  CUNP_HD double exponential() { return -log_exact(next_open()); }
};

/// Marsaglia and Tsang's gamma of shape a >= 1: d (1 + c x)^3 for a normal x, accepted by the
/// squeeze 1 - 0.0331 x^4 or the log test.
CUNP_HD inline double marsaglia_tsang(element_stream& s, double a) {
  const double d = add_exact(a, -1.0 / 3.0), c = 1.0 / std::sqrt(mul_rn(9.0, d));
  for (;;) {
    double x, v;
    do {
      x = s.normal();
      v = add_exact(1.0, mul_rn(c, x));
    } while (v <= 0);
    v = mul_rn(mul_rn(v, v), v);
    const double u = s.next_open(), x2 = mul_rn(x, x);
    if (u < add_exact(1.0, -mul_rn(0.0331, mul_rn(x2, x2)))) return mul_rn(d, v);
    const double bound = add_exact(mul_rn(0.5, x2), mul_rn(d, add_exact(add_exact(1.0, -v),
                                                                        log_exact(v))));
    if (log_exact(u) < bound) return mul_rn(d, v);
  }
}

/// A standard gamma of shape a >= 0 (0 for 0, NaN for NaN): Marsaglia-Tsang, below 1 boosted
/// (gamma(a + 1) u^(1/a)).
CUNP_HD inline double standard_gamma_draw(element_stream& s, double a) {
  if (!(a > 0)) return a;  // 0, or NaN
  if (a == 1) return s.exponential();
  if (a > 1) return marsaglia_tsang(s, a);
  const double g = marsaglia_tsang(s, add_exact(a, 1.0));
  return mul_rn(g, exp_exact(log_exact(s.next_open()) / a));
}

template <class T> struct standard_gamma_rule {
  double shape, scale;
  CUNP_HD T value(element_stream& s) const {
    return static_cast<T>(mul_rn(scale, standard_gamma_draw(s, shape)));
  }
};

/// beta(a, b), a, b > 0: Johnk's method when both are at most 1 (with the ratio taken in logs
/// when both powers underflow), else X / (X + Y) of two gammas.
template <class T> struct beta_rule {
  double a, b;
  CUNP_HD T value(element_stream& s) const {
    if (a > 1 || b > 1) {
      const double x = standard_gamma_draw(s, a), y = standard_gamma_draw(s, b);
      return static_cast<T>(x / add_exact(x, y));
    }
    for (;;) {
      const double u = s.next_double(), v = s.next_double();
      const double log_x = log_any(u) / a, log_y = log_any(v) / b;
      const double x = exp_exact(log_x), y = exp_exact(log_y), sum = add_exact(x, y);
      if (sum > 1.0 || add_exact(u, v) == 0) continue;
      if (sum > 0) return static_cast<T>(x / sum);
      const double m = log_x > log_y ? log_x : log_y;
      const double lx = add_exact(log_x, -m), ly = add_exact(log_y, -m);
      return static_cast<T>(
          exp_exact(add_exact(lx, -log_exact(add_exact(exp_exact(lx), exp_exact(ly))))));
    }
  }
};

/// binomial(n, p) for 0 <= p <= 1. While n min(p, 1 - p) > 30, one beta splits the n trials
/// (Devroye's recursion on order statistics): Y = Beta(i, n + 1 - i), i = (n + 1) / 2, is the
/// i-th smallest of the n uniforms; if Y <= p those i all count and the n - i above Y are
/// uniform on (Y, 1), so what is left is binomial(n - i, (p - Y) / (1 - Y)); else the i - 1 below
/// Y are uniform on (0, Y) and the rest do not count: binomial(i - 1, p / Y). Each step halves
/// n; the rest by inversion (NumPy's for small n p), on min(p, 1 - p).
struct binomial_rule {
  std::int64_t n;
  double p;

  /// NumPy's inversion for n p small: walk the probabilities from k = 0 until the uniform is
  /// used up, starting over past the bound of 10 standard deviations.
  CUNP_HD static std::int64_t inversion(element_stream& s, std::int64_t n, double p) {
    if (n == 0 || p == 0) return 0;
    const bool flip = p > 0.5;
    const double pp = flip ? add_exact(1.0, -p) : p, q = add_exact(1.0, -pp);
    const double qn = exp_exact(mul_rn(double(n), log_exact(q)));
    const double mean = mul_rn(double(n), pp);
    const double spread =
        add_exact(mean, mul_rn(10.0, std::sqrt(add_exact(mul_rn(mean, q), 1.0))));
    const double bound = spread < double(n) ? spread : double(n);
    std::int64_t k = 0;
    double px = qn, u = s.next_double();
    while (u > px) {
      ++k;
      if (double(k) > bound) {
        k = 0;
        px = qn;
        u = s.next_double();
      } else {
        u = add_exact(u, -px);
        px = mul_rn(mul_rn(double(n - k + 1), pp), px) / mul_rn(double(k), q);
      }
    }
    return flip ? n - k : k;
  }

  CUNP_HD std::int64_t value(element_stream& s) const {
    std::int64_t left = n, count = 0;
    double prob = p;
    while (mul_rn(double(left), prob < 0.5 ? prob : add_exact(1.0, -prob)) > 30) {
      const std::int64_t i = (left + 1) / 2;
      const double x = standard_gamma_draw(s, double(i)),
                   y = standard_gamma_draw(s, double(left + 1 - i));
      const double order = x / add_exact(x, y);
      if (order <= prob) {
        count += i;
        left -= i;
        prob = add_exact(prob, -order) / add_exact(1.0, -order);
      } else {
        left = i - 1;
        prob = prob / order;
      }
    }
    return count + inversion(s, left, prob);
  }
};

/// log(Gamma(x)) for x >= 1: Stirling's series to its tenth term at x + n >= 7, then the n
/// logs back down (NumPy's random_loggam's steps).
CUNP_HD inline double log_gamma_exact(double x) {
  if (x == 1 || x == 2) return 0;
  const int n = x < 7 ? int(7 - x) : 0;
  double x0 = add_exact(x, double(n));
  const double inv2 = 1.0 / mul_rn(x0, x0);
  constexpr double c[] = {0x1.5555555555555p-4,  -0x1.6c16c16c16c17p-9, 0x1.a01a01a01a01ap-11,
                          -0x1.3813813813814p-11, 0x1.b951e2b18ff23p-11, -0x1.f6ab0d9993c7dp-10,
                          0x1.a41a41a41a41ap-8,  -0x1.e4286cb0f5398p-6, 0x1.6fe96381e0680p-3,
                          -0x1.6476701181f3ap+0};  // B_2k / (2k (2k - 1))
  double series = c[9];
  for (int k = 8; k >= 0; --k) series = fma_exact(series, inv2, c[k]);
  constexpr double half_log_2pi = 0x1.d67f1c864beb4p-1;
  double gl = add_exact(add_exact(series / x0, half_log_2pi),
                        add_exact(mul_rn(add_exact(x0, -0.5), log_exact(x0)), -x0));
  for (int k = 0; k < n; ++k) {
    x0 = add_exact(x0, -1.0);
    gl = add_exact(gl, -log_exact(x0));
  }
  return gl;
}

/// poisson(lam): 0 for lam 0; below 10 the count of uniforms whose running product stays above
/// exp(-lam); from 10 Hormann's transformed rejection (PTRS). The constants of lam are the
/// host's (make), the same numbers for both backends.
struct poisson_rule {
  double lam, exp_neg_lam, log_lam, a, b, inv_alpha_log, vr;
  bool ptrs;

  static poisson_rule make(double lam) {
    poisson_rule r{lam, std::exp(-lam), std::log(lam), 0, 0, 0, 0, lam >= 10};
    const double slam = std::sqrt(lam);
    r.b = 0.931 + 2.53 * slam;
    r.a = -0.059 + 0.02483 * r.b;
    r.inv_alpha_log = std::log(1.1239 + 1.1328 / (r.b - 3.4));
    r.vr = 0.9277 - 3.6224 / (r.b - 2);
    return r;
  }

  CUNP_HD std::int64_t value(element_stream& s) const {
    if (lam == 0) return 0;
    if (!ptrs) {
      std::int64_t k = 0;
      for (double prod = s.next_double(); prod > exp_neg_lam; prod = mul_rn(prod, s.next_double()))
        ++k;
      return k;
    }
    for (;;) {
      const double u = add_exact(s.next_double(), -0.5), v = s.next_double();
      const double us = add_exact(0.5, -std::fabs(u));
      const double kd = std::floor(
          add_exact(add_exact(mul_rn(add_exact(mul_rn(2.0, a) / us, b), u), lam), 0.43));
      if (us >= 0.07 && v <= vr) return static_cast<std::int64_t>(kd);
      if (!(kd >= 0) || (us < 0.013 && v > us)) continue;
      const double lhs = add_exact(add_exact(log_any(v), inv_alpha_log),
                                   -log_exact(add_exact(a / mul_rn(us, us), b)));
      const double rhs = add_exact(add_exact(-lam, mul_rn(kd, log_lam)),
                                   -log_gamma_exact(add_exact(kd, 1.0)));
      if (lhs <= rhs) return static_cast<std::int64_t>(kd);
    }
  }
};

}  // namespace cunp::detail
