// cunp/detail/sort/order_stats.hpp: the element arithmetic both backends of cunp/sort.hpp share, on
// host and device: NumPy's median and linear-method quantile of one sorted lane, and the bin of a
// value among histogram edges.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cunp/detail/sort/sort_order.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {


/// np.median's dtype: floating and complex types keep theirs, integers and bool give float64.
template <class T>
using median_result_t = std::conditional_t<is_floating_v<T> || is_complex_v<T>, T, double>;
/// np.quantile's dtype for a scalar q (weak): floating types keep theirs, integers give float64.
template <class T>
using quantile_result_t = std::conditional_t<is_floating_v<T>, T, double>;

template <class R>
CUNP_HD R order_nan() {
  if constexpr (is_complex_v<R>) {
    using P = typename complex_parts<R>::type;
    return R(order_nan<P>(), order_nan<P>());
  } else if constexpr (is_16bit_float_v<R>) {
    return R(std::numeric_limits<float>::quiet_NaN());
  } else {
    return std::numeric_limits<R>::quiet_NaN();
  }
}

/// np.median of a sorted lane: the mean of the middle one or two elements, computed as np.mean
/// does (float16 through float32, integers in float64); a lane whose last element is NaN gives
/// that element, an empty lane NaN.
template <class T>
CUNP_HD median_result_t<T> median_of_sorted(const T* s, index_t n) {
  using R = median_result_t<T>;
  if (n == 0) return order_nan<R>();
  if (order_isnan(s[n - 1])) return convert<R>(s[n - 1]);
  const index_t h = n / 2;
  if (n % 2 == 1) return convert<R>(s[h]);
  if constexpr (is_complex_v<T>) {
    using P = typename complex_parts<T>::type;
    const P* a = complex_parts_of(s[h - 1]);
    const P* b = complex_parts_of(s[h]);
    return R((a[0] + b[0]) / P(2), (a[1] + b[1]) / P(2));
  } else if constexpr (is_16bit_float_v<T>) {
    return R((static_cast<float>(s[h - 1]) + static_cast<float>(s[h])) / 2.0f);
  } else if constexpr (std::is_floating_point_v<T>) {
    return (s[h - 1] + s[h]) / T(2);
  } else {
    return (static_cast<double>(s[h - 1]) + static_cast<double>(s[h])) / 2.0;
  }
}

/// a * b rounded once: nvcc would otherwise fuse the product into the addition that follows
/// (an FMA), where NumPy rounds twice.
template <class R>
CUNP_HD R product_rounded(R a, R b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<R, float>)
    return __fmul_rn(a, b);
  else if constexpr (std::is_same_v<R, double>)
    return __dmul_rn(a, b);
  else
    return a * b;
#else
  return a * b;
#endif
}

/// b - a of two sorted elements (b >= a) as NumPy's _lerp takes it: in T for floating types; for
/// integers exactly (NumPy subtracts in the input dtype, which wraps for narrow types).
template <class T, class R>
CUNP_HD R sorted_difference(const T& a, const T& b) {
  if constexpr (is_16bit_float_v<T>) {
    return convert<R>(T(static_cast<float>(b) - static_cast<float>(a)));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<R>(b - a);
  } else if constexpr (std::is_same_v<T, bool>) {
    return static_cast<R>(int(b) - int(a));
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<R>(std::uint64_t(std::int64_t(b)) - std::uint64_t(std::int64_t(a)));
  } else {
    return static_cast<R>(std::uint64_t(b) - std::uint64_t(a));
  }
}

/// np.quantile(lane, q, method='linear') of a sorted, non-empty lane, interpolated in R (the
/// lane's floating type for a scalar q, whose gamma NumPy keeps a Python float; else float64).
/// A lane whose last element is NaN gives that element.
template <class T, class R>
CUNP_HD R quantile_of_sorted(const T* s, index_t n, double q) {
  if (order_isnan(s[n - 1])) return convert<R>(s[n - 1]);
  const double vi = static_cast<double>(n - 1) * q;
  index_t prev = n - 1, next = n - 1;
  double gamma = vi + 1;  // NumPy marks both neighbours -1 past the end: gamma = vi - (-1)
  if (vi < static_cast<double>(n - 1)) {
    const double f = ::floor(vi);
    prev = static_cast<index_t>(f);
    next = prev + 1;
    gamma = vi - f;
  }
  if constexpr (is_16bit_float_v<R>) {  // every operation rounded to R, as NumPy's float16 loops do
    const float a = static_cast<float>(s[prev]), b = static_cast<float>(s[next]);
    const float d = static_cast<float>(sorted_difference<T, R>(s[prev], s[next]));
    if (gamma >= 0.5) return R(b - static_cast<float>(R(d * static_cast<float>(R(1 - gamma)))));
    return R(a + static_cast<float>(R(d * static_cast<float>(R(gamma)))));
  } else {
    const R a = convert<R>(s[prev]), b = convert<R>(s[next]);
    const R d = sorted_difference<T, R>(s[prev], s[next]);
    return gamma >= 0.5 ? R(b - product_rounded(d, static_cast<R>(1 - gamma)))
                        : R(a + product_rounded(d, static_cast<R>(gamma)));
  }
}

/// Which order statistic quantile_lanes computes.
enum class order_stat : std::uint8_t { median, quantile };

/// The order statistic `stat` (at quantile q) of a sorted lane; complex lanes have medians only.
template <class T, class R>
CUNP_HD R order_statistic_of_sorted(const T* s, index_t n, double q, order_stat stat) {
  if constexpr (is_complex_v<T>) {
    return median_of_sorted(s, n);
  } else {
    if (stat == order_stat::median) return convert<R>(median_of_sorted(s, n));
    return quantile_of_sorted<T, R>(s, n, q);
  }
}

/// The bin of x among sorted edges e[0..nb] (numpy.histogram: [e_i, e_i+1), the last bin closed),
/// or -1 when x falls outside or is NaN.
template <class C>
CUNP_HD index_t histogram_bin(const C& x, const C* e, index_t nb) {
  if (nb <= 0 || order_isnan(x) || x < e[0] || e[nb] < x) return -1;
  index_t lo = 0, hi = nb + 1;  // the number of edges <= x
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (x < e[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo - 1 < nb ? lo - 1 : nb - 1;
}

}  // namespace cunp::detail
