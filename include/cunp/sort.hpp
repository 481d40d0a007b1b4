// cunp/sort.hpp: numpy's sorting, searching and counting (sort, argsort, partition,
// argpartition, searchsorted, unique and the unique_* family, bincount, histogram) and the order
// statistics (median, percentile, quantile). The cpu backend is here; the CUDA kernels are in
// detail/cuda/sort.cuh.
//
// NumPy's order everywhere: NaN after every number, -0.0 equal to 0.0, complex numbers by real
// part then imaginary part with NumPy's NaN classes ([R + Rj, R + nanj, nan + Rj, nan + nanj]).
// Every sort is stable (NumPy's kind='stable'), which is also a valid result of NumPy's default.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/format.hpp"
#include "cunp/detail/reduction.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"
#include "cunp/view.hpp"

namespace cunp {

namespace detail {

// ---------------------------------------------------------------------------------------------
// NumPy's sort order, on host and device

template <class T>
inline constexpr bool is_16bit_float_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

/// The real parts of a complex element (convert() reads complex numbers the same way).
template <class T>
CUNP_HD const typename complex_parts<T>::type* complex_parts_of(const T& v) {
  return reinterpret_cast<const typename complex_parts<T>::type*>(&v);
}

template <class T>
CUNP_HD constexpr bool order_isnan(const T& v) {
  if constexpr (is_complex_v<T>) {
    const auto* p = complex_parts_of(v);
    return p[0] != p[0] || p[1] != p[1];
  } else if constexpr (std::is_same_v<T, float16>) {
    return (v.bits & 0x7fffu) > 0x7c00u;
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return (v.bits & 0x7fffu) > 0x7f80u;
  } else if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

/// (xr + xi j) < (yr + yi j) in NumPy's order of complex numbers (npysort's CLT): by real part,
/// then imaginary part, in the NaN classes [R + Rj, R + nanj, nan + Rj, nan + nanj].
template <class R>
CUNP_HD constexpr bool complex_order_less(R xr, R xi, R yr, R yi) {
  const bool x_im = xi == xi, y_im = yi == yi;
  if (xr < yr) return x_im || !y_im;
  if (xr > yr) return !y_im && x_im;
  if (xr == yr || (xr != xr && yr != yr)) return xi < yi || (!y_im && x_im);
  return yr != yr;
}

/// a < b in NumPy's sort order (npysort's LT and CLT): NaN last, complex by parts.
template <class T>
CUNP_HD constexpr bool order_less(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) {
    const auto* x = complex_parts_of(a);
    const auto* y = complex_parts_of(b);
    return complex_order_less(x[0], x[1], y[0], y[1]);
  } else if constexpr (is_16bit_float_v<T>) {
    return order_less(static_cast<float>(a), static_cast<float>(b));
  } else if constexpr (std::is_floating_point_v<T>) {
    return a < b || (b != b && a == a);
  } else {
    return a < b;
  }
}

/// a == b as NumPy's `!=` sees it (NaN never equal), or with NaNs all equal (equal_nan).
template <class T>
CUNP_HD constexpr bool order_equal(const T& a, const T& b, bool equal_nan) {
  if (equal_nan && order_isnan(a) && order_isnan(b)) return true;
  if constexpr (is_complex_v<T>) {
    const auto* x = complex_parts_of(a);
    const auto* y = complex_parts_of(b);
    return x[0] == y[0] && x[1] == y[1];
  } else if constexpr (is_16bit_float_v<T>) {
    return static_cast<float>(a) == static_cast<float>(b);
  } else {
    return a == b;
  }
}

/// a < b for elements of two types: integers exactly (whatever their signs), anything else in
/// NumPy's common type of the two.
template <class A, class B>
CUNP_HD constexpr bool order_less_mixed(const A& a, const B& b) {
  if constexpr (std::is_same_v<A, B>) {
    return order_less(a, b);
  } else if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
    using SA = std::conditional_t<std::is_same_v<A, bool>, int, A>;
    using SB = std::conditional_t<std::is_same_v<B, bool>, int, B>;
    const SA x = a;
    const SB y = b;
    if constexpr (std::is_signed_v<SA> == std::is_signed_v<SB>)
      return x < y;
    else if constexpr (std::is_signed_v<SA>)
      return x < 0 || std::make_unsigned_t<SA>(x) < y;
    else
      return y >= 0 && x < std::make_unsigned_t<SB>(y);
  } else {
    using C = result_type_t<A, B>;
    return order_less(convert<C>(a), convert<C>(b));
  }
}

/// The unsigned integer whose order is NumPy's order of T (T not complex): the key of the radix
/// sorts. -0.0 and 0.0 share a key, and so do all NaNs (above +inf), so that a stable radix sort
/// by this key is NumPy's stable sort.
template <class T>
struct sort_key_of;
template <>
struct sort_key_of<bool> {
  using type = std::uint8_t;
};
template <class T>
requires std::is_integral_v<T>
struct sort_key_of<T> {
  using type = std::make_unsigned_t<T>;
};
template <>
struct sort_key_of<float16> {
  using type = std::uint16_t;
};
template <>
struct sort_key_of<bfloat16> {
  using type = std::uint16_t;
};
template <>
struct sort_key_of<float> {
  using type = std::uint32_t;
};
template <>
struct sort_key_of<double> {
  using type = std::uint64_t;
};
template <class T>
using sort_key_t = typename sort_key_of<T>::type;

/// The bits of +inf in floating T.
template <class T>
inline constexpr sort_key_t<T> inf_bits = [] {
  if constexpr (std::is_same_v<T, float16>)
    return sort_key_t<T>(0x7c00u);
  else if constexpr (std::is_same_v<T, bfloat16>)
    return sort_key_t<T>(0x7f80u);
  else
    return std::bit_cast<sort_key_t<T>>(std::numeric_limits<T>::infinity());
}();

template <class T>
CUNP_HD constexpr sort_key_t<T> sort_key(const T& v) {
  using K = sort_key_t<T>;
  constexpr K sign = K(K(1) << (8 * sizeof(K) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return K(v ? 1 : 0);
  } else if constexpr (std::is_integral_v<T>) {
    return std::is_signed_v<T> ? K(K(v) ^ sign) : K(v);
  } else {
    const K u = std::bit_cast<K>(v);
    const K mag = K(u & K(~sign));
    if (mag > inf_bits<T>) return K(~K(0));  // NaN
    if (mag == 0) return sign;                // -0.0 and 0.0
    return (u & sign) ? K(~u) : K(u | sign);
  }
}

// ---------------------------------------------------------------------------------------------
// Shared helpers of the public functions

/// Throws device_error for a GPU array met by the cpu backend (a g++ translation unit).
inline void require_cpu_for(device d, const char* what) {
  if (d.is_cuda())
    throw device_error(std::string(what) + " on " + d.str() +
                       " runs CUDA kernels, but this translation unit was compiled without nvcc: "
                       "compile it as CUDA, or use cunp::cpu");
}

/// A view of a with axis `ax` moved to the end (the lanes that sorts work along).
template <class T>
ndarray<T> lanes_along(const ndarray<T>& a, int ax) {
  std::vector<int> order;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != ax) order.push_back(d);
  order.push_back(ax);
  return permuted(a, order);
}

/// A 1-d view of a when its strides allow it, else a C-ordered copy (numpy's a.ravel()).
template <class T>
ndarray<T> flat_view_or_copy(const ndarray<T>& a) {
  return a.reshape({a.size()});
}

/// NumPy's kth check of partition: negative kth count from the end; empty arrays check nothing.
inline void check_kth(const std::vector<index_t>& kth, index_t n, index_t size) {
  if (size == 0) return;
  for (index_t k : kth) {
    const index_t at = k < 0 ? k + n : k;
    if (at < 0 || at >= n)
      throw value_error("kth(=" + std::to_string(at) + ") out of bounds (" + std::to_string(n) +
                        ")");
  }
}

/// numpy's check that an argument is a 1-d array (PyArray_ContiguousFromAny with depth 1..1).
inline void check_1d_argument(int ndim) {
  if (ndim < 1) throw value_error("object of too small depth for desired array");
  if (ndim > 1) throw value_error("object too deep for desired array");
}

/// str() of a NumPy scalar of type T (Python's float repr rules: positional between 1e-4 and
/// 1e16, else scientific), as NumPy's error messages print values.
template <class T>
std::string numpy_scalar_str(const T& v) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_same_v<T, bool>)
      return v ? "True" : "False";
    else
      return std::to_string(v);
  } else {
    using F = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;
    const F x = static_cast<F>(v);
    if (x != x) return "nan";
    if (x == std::numeric_limits<F>::infinity()) return "inf";
    if (x == -std::numeric_limits<F>::infinity()) return "-inf";
    const float_parts p = decompose(x);
    const double ax = std::abs(static_cast<double>(x));
    if (ax != 0 && (ax < 1e-4 || ax >= 1e16)) {
      std::string s = format_scientific(p, -1, -1, true, false, 0, 2);
      if (const auto dot = s.find(".e"); dot != std::string::npos) s.erase(dot, 1);
      return s;
    }
    std::string s = format_positional(p, -1, -1, false, 0, 0);
    if (s.back() == '.') s += '0';
    return s;
  }
}

// ---------------------------------------------------------------------------------------------
// Order statistics of one sorted lane (NumPy's median and linear-method quantile), host and device

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

// ---------------------------------------------------------------------------------------------
// The cpu backend

namespace host {

/// Calls f(a_lane, b_lane) with the first element of every lane (the last axis) of two arrays of
/// the same shape but the last extent.
template <class A, class B, class F>
void for_each_sort_lane(const ndarray<A>& a, const ndarray<B>& b, F&& f) {
  const shape_t outer(a.shape().begin(), a.shape().end() - 1);
  const strides_t sa(a.strides().begin(), a.strides().end() - 1);
  const strides_t sb(b.strides().begin(), b.strides().end() - 1);
  const auto l = make_loop_layout<2>(outer, {&sa, &sb});
  for_each_row(l, [&](const auto& off, index_t count, const auto& st) {
    for (index_t k = 0; k < count; ++k)
      f(a.data() + off[0] + k * st[0], b.data() + off[1] + k * st[1]);
  });
}

/// Stable LSD radix sort of items[0, n) by key(item), an unsigned integer, one byte per pass,
/// ping-ponging with `scratch`; passes whose byte is the same for every key are skipped.
/// Returns the buffer that holds the result.
template <class Item, class Key>
Item* radix_sort_items(Item* items, Item* scratch, std::size_t n, Key key) {
  using K = decltype(key(*items));
  constexpr int passes = sizeof(K);
  std::array<std::array<std::size_t, 256>, passes> count{};
  for (std::size_t i = 0; i < n; ++i) {
    const K k = key(items[i]);
    for (int p = 0; p < passes; ++p) ++count[p][(k >> (8 * p)) & 0xff];
  }
  Item* src = items;
  Item* dst = scratch;
  for (int p = 0; p < passes; ++p) {
    auto& c = count[p];
    if (std::find(c.begin(), c.end(), n) != c.end()) continue;  // one digit: nothing moves
    std::size_t sum = 0;
    for (auto& v : c) sum += std::exchange(v, sum);
    for (std::size_t i = 0; i < n; ++i) dst[c[(key(src[i]) >> (8 * p)) & 0xff]++] = src[i];
    std::swap(src, dst);
  }
  return src;
}

/// Below this many elements a lane is sorted by comparisons (the radix passes cost more).
inline constexpr std::size_t comparison_sort_below = 64;

/// Sorts data[0, n) stably in NumPy's order; returns data or scratch, whichever holds the result.
template <class T>
T* sort_buffer(T* data, T* scratch, std::size_t n) {
  if constexpr (is_complex_v<T>) {
    std::stable_sort(data, data + n, [](const T& a, const T& b) { return order_less(a, b); });
    return data;
  } else {
    if (n < comparison_sort_below) {
      std::stable_sort(data, data + n,
                       [](const T& a, const T& b) { return sort_key(a) < sort_key(b); });
      return data;
    }
    return radix_sort_items(data, scratch, n, [](const T& v) { return sort_key(v); });
  }
}

template <class T>
struct keyed_index {
  sort_key_t<T> key;
  index_t index;
};

}  // namespace host

/// Sorts every lane (last axis) of src into the lane of dst of the same place (cpu backend).
template <class T>
void sort_lanes(host_backend, const ndarray<T>& src, const ndarray<T>& dst) {
  require_cpu_for(src.device(), "sort");
  if (src.size() == 0) return;
  const index_t n = src.shape().back(), ss = src.strides().back(), ds = dst.strides().back();
  const auto buf = std::make_unique<T[]>(static_cast<std::size_t>(n));
  const auto scratch = std::make_unique<T[]>(static_cast<std::size_t>(n));
  host::for_each_sort_lane(src, dst, [&](const T* s, T* d) {
    for (index_t i = 0; i < n; ++i) buf[i] = s[i * ss];
    const T* r = host::sort_buffer(buf.get(), scratch.get(), static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) d[i * ds] = r[i];
  });
}

/// Writes the stable sorting permutation of every lane of src into dst (cpu backend).
template <class T>
void argsort_lanes(host_backend, const ndarray<T>& src, const ndarray<std::int64_t>& dst) {
  require_cpu_for(src.device(), "argsort");
  if (src.size() == 0) return;
  const index_t n = src.shape().back(), ss = src.strides().back(), ds = dst.strides().back();
  if constexpr (is_complex_v<T>) {
    std::vector<T> vals(static_cast<std::size_t>(n));
    std::vector<index_t> idx(static_cast<std::size_t>(n));
    host::for_each_sort_lane(src, dst, [&](const T* s, std::int64_t* d) {
      for (index_t i = 0; i < n; ++i) {
        vals[i] = s[i * ss];
        idx[i] = i;
      }
      std::stable_sort(idx.begin(), idx.end(),
                       [&](index_t x, index_t y) { return order_less(vals[x], vals[y]); });
      for (index_t i = 0; i < n; ++i) d[i * ds] = idx[i];
    });
  } else {
    using item = host::keyed_index<T>;
    std::vector<item> buf(static_cast<std::size_t>(n)), scratch(static_cast<std::size_t>(n));
    host::for_each_sort_lane(src, dst, [&](const T* s, std::int64_t* d) {
      for (index_t i = 0; i < n; ++i) buf[i] = {sort_key(s[i * ss]), i};
      const item* r = buf.data();
      if (static_cast<std::size_t>(n) < host::comparison_sort_below)
        std::stable_sort(buf.begin(), buf.end(),
                         [](const item& x, const item& y) { return x.key < y.key; });
      else
        r = host::radix_sort_items(buf.data(), scratch.data(), buf.size(),
                                   [](const item& v) { return v.key; });
      for (index_t i = 0; i < n; ++i) d[i * ds] = r[i].index;
    });
  }
}

/// out[i] = src[idx[i]] for a 1-d src and contiguous idx and out (cpu backend).
template <class T>
void take_flat(host_backend, const ndarray<T>& src, const ndarray<std::int64_t>& idx,
               const ndarray<T>& out) {
  require_cpu_for(src.device(), "unique");
  const index_t st = src.strides()[0];
  for (index_t i = 0; i < out.size(); ++i) out.data()[i] = src.data()[idx.data()[i] * st];
}

/// Sorts the 1-d flat into sorted (contiguous) for unique (cpu backend: as sort).
template <class T>
void unique_sort(host_backend, const ndarray<T>& flat, const ndarray<T>& sorted) {
  sort_lanes(host_backend{}, flat, sorted);
}

/// The first element of each group of equal neighbours of a sorted, contiguous, non-empty 1-d
/// array (NaNs equal when equal_nan), as a new array (cpu backend).
template <class T>
ndarray<T> unique_sorted_values(host_backend, const ndarray<T>& sorted, bool equal_nan) {
  require_cpu_for(sorted.device(), "unique");
  const T* s = sorted.data();
  std::vector<index_t> starts;
  for (index_t i = 0; i < sorted.size(); ++i)
    if (i == 0 || !order_equal(s[i - 1], s[i], equal_nan)) starts.push_back(i);
  ndarray<T> out({static_cast<index_t>(starts.size())}, cpu);
  for (std::size_t k = 0; k < starts.size(); ++k) out.data()[k] = s[starts[k]];
  return out;
}

/// gid[i] = 1 + the number of group starts before i in a sorted, contiguous 1-d array (a group:
/// equal neighbours, NaNs equal when equal_nan); returns the number of groups (cpu backend).
template <class T>
index_t unique_groups(host_backend, const ndarray<T>& sorted, bool equal_nan,
                      const ndarray<std::int64_t>& gid) {
  require_cpu_for(sorted.device(), "unique");
  const T* s = sorted.data();
  std::int64_t* g = gid.data();
  std::int64_t groups = 0;
  for (index_t i = 0; i < sorted.size(); ++i) {
    if (i == 0 || !order_equal(s[i - 1], s[i], equal_nan)) ++groups;
    g[i] = groups;
  }
  return groups;
}

/// The outputs of the unique family from the sorted values and their group ids: the first value
/// of each group, and where asked for (non-null) the group sizes, the first original index (perm:
/// the stable sorting permutation) and each original element's group (cpu backend).
template <class T>
void unique_fill(host_backend, const ndarray<T>& sorted, const ndarray<std::int64_t>& gid,
                 const ndarray<std::int64_t>* perm, const ndarray<T>& values,
                 const ndarray<std::int64_t>* counts, const ndarray<std::int64_t>* indices,
                 const ndarray<std::int64_t>* inverse) {
  const index_t n = sorted.size();
  const std::int64_t* g = gid.data();
  for (index_t i = 0; i < n; ++i) {
    const std::int64_t k = g[i] - 1;
    if (i == 0 || g[i - 1] != g[i]) {
      values.data()[k] = sorted.data()[i];
      if (counts) counts->data()[k] = 0;
      if (indices) indices->data()[k] = perm->data()[i];
    }
    if (counts) ++counts->data()[k];
    if (inverse) inverse->data()[perm->data()[i]] = k;
  }
}

/// out[q * lanes + l] = the order statistic of sorted lane l (a contiguous (lanes, n) array) at
/// quantile qs[q] (cpu backend).
template <class T, class R>
void quantile_lanes(host_backend, const ndarray<T>& sorted, const std::vector<double>& qs,
                    order_stat stat, const ndarray<R>& out) {
  require_cpu_for(sorted.device(), "quantile");
  const index_t n = sorted.shape()[1], lanes = sorted.shape()[0];
  for (std::size_t q = 0; q < qs.size(); ++q)
    for (index_t l = 0; l < lanes; ++l) {
      const T* s = sorted.data() + l * n;
      out.data()[static_cast<index_t>(q) * lanes + l] =
          order_statistic_of_sorted<T, R>(s, n, qs[q], stat);
    }
}

/// out[...] = the insertion points of v's elements in the sorted 1-d a (cpu backend).
template <class T, class V>
void searchsorted_into(host_backend, const ndarray<T>& a, const ndarray<V>& v,
                       const ndarray<std::int64_t>& out, bool right) {
  require_cpu_for(a.device(), "searchsorted");
  const index_t n = a.shape()[0], st = a.strides()[0];
  const T* base = a.data();
  host::map_strided(out.data(), v.data(), pair_layout(out, v), [&](const V& x) {
    index_t lo = 0, hi = n;
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      const bool go_right =
          right ? !order_less_mixed(x, base[mid * st]) : order_less_mixed(base[mid * st], x);
      if (go_right)
        lo = mid + 1;
      else
        hi = mid;
    }
    return std::int64_t(lo);
  });
}

/// The smallest and the largest element (NaN if any element is NaN) of a non-empty array.
template <class T>
std::pair<T, T> value_range(host_backend, const ndarray<T>& a) {
  require_cpu_for(a.device(), "min/max");
  const T* p = a.data();
  std::pair<T, T> r{*p, *p};
  bool nan = false;
  host::for_each_row(make_loop_layout<1>(a.shape(), {&a.strides()}),
                     [&](const auto& off, index_t n, const auto& st) {
                       for (index_t i = 0; i < n; ++i) {
                         const T v = p[off[0] + i * st[0]];
                         if (order_isnan(v)) {
                           if (!nan) r = {v, v};
                           nan = true;
                         } else if (!nan) {
                           if (order_less(v, r.first)) r.first = v;
                           if (order_less(r.second, v)) r.second = v;
                         }
                       }
                     });
  return r;
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

/// hist[b] = the number of elements of a in bin b of `edges` (cpu backend; hist zeroed here).
template <class T, class E>
void histogram_count(host_backend, const ndarray<T>& a, const ndarray<E>& edges,
                     const ndarray<std::int64_t>& hist) {
  require_cpu_for(a.device(), "histogram");
  using C = result_type_t<T, E>;
  const index_t nb = hist.size();
  std::vector<C> e;
  for (const E& v : edges.to_vector()) e.push_back(convert<C>(v));
  std::fill(hist.data(), hist.data() + nb, 0);
  const T* p = a.data();
  host::for_each_row(make_loop_layout<1>(a.shape(), {&a.strides()}), [&](const auto& off, index_t n,
                                                                         const auto& st) {
    for (index_t i = 0; i < n; ++i) {
      const index_t b = histogram_bin(convert<C>(p[off[0] + i * st[0]]), e.data(), nb);
      if (b >= 0) ++hist.data()[b];
    }
  });
}

/// out[x[i]] += 1 (or weights[i]) for a 1-d x of non-negative integers (cpu backend; out zeroed
/// here).
template <class T, class W, class R>
void bincount_count(host_backend, const ndarray<T>& x, const ndarray<W>* weights,
                    const ndarray<R>& out) {
  require_cpu_for(x.device(), "bincount");
  std::fill(out.data(), out.data() + out.size(), R(0));
  const index_t n = x.size(), sx = x.strides()[0];
  for (index_t i = 0; i < n; ++i) {
    const auto b = static_cast<index_t>(x.data()[i * sx]);
    if (weights)
      out.data()[b] += convert<R>(weights->data()[i * weights->strides()[0]]);
    else
      out.data()[b] += R(1);
  }
}

// ---------------------------------------------------------------------------------------------
// Implementations shared by the public functions

template <class Backend, class T>
ndarray<T> sort_impl(const ndarray<T>& a, index_t axis) {
  const int ax = normalize_axis(axis, a.shape().size());
  ndarray<T> out(a.shape(), a.device());
  sort_lanes(Backend{}, lanes_along(a, ax), lanes_along(out, ax));
  return out;
}

template <class Backend, class T>
ndarray<std::int64_t> argsort_impl(const ndarray<T>& a, index_t axis) {
  if (a.ndim() == 0) return argsort_impl<Backend>(a.reshape({1}), axis);  // NumPy: as 1-d
  const int ax = normalize_axis(axis, a.shape().size());
  ndarray<std::int64_t> out(a.shape(), a.device());
  argsort_lanes(Backend{}, lanes_along(a, ax), lanes_along(out, ax));
  return out;
}

template <element_type T>
struct unique_parts {
  ndarray<T> values;
  ndarray<std::int64_t> indices, inverse_indices, counts;
};

template <class Backend, class T>
unique_parts<T> unique_impl(const ndarray<T>& a, bool equal_nan, bool want_indices,
                            bool want_inverse, bool want_counts) {
  const device dev = a.device();
  const ndarray<T> flat = flat_view_or_copy(a);
  const index_t n = flat.size();
  ndarray<T> sorted({n}, dev);
  ndarray<std::int64_t> perm({want_indices || want_inverse ? n : 0}, dev);
  if (want_indices || want_inverse) {
    argsort_lanes(Backend{}, flat, perm);
    take_flat(Backend{}, flat, perm, sorted);
  } else {
    unique_sort(Backend{}, flat, sorted);
    if (!want_counts) {
      const ndarray<std::int64_t> none_wanted({0}, dev);
      return {n == 0 ? sorted : unique_sorted_values(Backend{}, sorted, equal_nan), none_wanted,
              none_wanted, none_wanted};
    }
  }
  ndarray<std::int64_t> gid({n}, dev);
  const index_t groups = n == 0 ? 0 : unique_groups(Backend{}, sorted, equal_nan, gid);
  unique_parts<T> r{ndarray<T>({groups}, dev),
                    ndarray<std::int64_t>({want_indices ? groups : 0}, dev),
                    ndarray<std::int64_t>({want_inverse ? n : 0}, dev),
                    ndarray<std::int64_t>({want_counts ? groups : 0}, dev)};
  if (n > 0)
    unique_fill(Backend{}, sorted, gid, want_indices || want_inverse ? &perm : nullptr, r.values,
                want_counts ? &r.counts : nullptr, want_indices ? &r.indices : nullptr,
                want_inverse ? &r.inverse_indices : nullptr);
  if (want_inverse) r.inverse_indices = r.inverse_indices.reshape(a.shape());
  return r;
}

/// The axes a reduction keeps and the ones it reduces (normalized, repeats rejected).
struct order_axes {
  std::vector<int> kept, reduced;
};
inline order_axes split_order_axes(const axis_arg& axis, int ndim) {
  order_axes r;
  std::vector<bool> reduce(static_cast<std::size_t>(ndim), axis.all());
  if (!axis.all())
    for (int d : normalize_axis_tuple(axis.axes(), static_cast<std::size_t>(ndim)))
      reduce[d] = true;
  for (int d = 0; d < ndim; ++d) (reduce[d] ? r.reduced : r.kept).push_back(d);
  return r;
}

/// The order statistic over `axis`: the result has q's shape (qshape), then a's shape without the
/// reduced axes (or with them as 1 under keepdims).
template <class Backend, class R, class T>
ndarray<R> order_statistic(const ndarray<T>& a, const std::vector<double>& qs,
                           const shape_t& qshape, order_stat stat, const axis_arg& axis,
                           bool keepdims) {
  const order_axes ax = split_order_axes(axis, a.ndim());
  index_t n = 1, lanes = 1;
  shape_t kept_shape, out_shape = qshape;
  std::vector<int> order;
  for (int d : ax.kept) {
    lanes *= a.shape()[d];
    kept_shape.push_back(a.shape()[d]);
    order.push_back(d);
  }
  for (int d : ax.reduced) {
    n *= a.shape()[d];
    order.push_back(d);
  }
  for (int d = 0; d < a.ndim(); ++d) {
    const bool reduced = std::find(ax.reduced.begin(), ax.reduced.end(), d) != ax.reduced.end();
    if (!reduced)
      out_shape.push_back(a.shape()[d]);
    else if (keepdims)
      out_shape.push_back(1);
  }
  if (n == 0 && stat != order_stat::median)
    throw index_error("index -1 is out of bounds for axis 0 with size 0");
  ndarray<R> out({static_cast<index_t>(qs.size()), lanes}, a.device());
  if (lanes > 0 && n > 0) {
    const ndarray<T> lanes_view = permuted(a, order).reshape({lanes, n});
    ndarray<T> sorted({lanes, n}, a.device());
    sort_lanes(Backend{}, lanes_view, sorted);
    quantile_lanes(Backend{}, sorted, qs, stat, out);
  } else if (lanes > 0) {
    out.fill(order_nan<R>());  // the median of an empty lane (NumPy warns "Mean of empty slice")
  }
  return out.reshape(out_shape);
}

/// quantile (percent: percentile) of a at qs; a scalar q (qshape {}) interpolates in R.
template <class Backend, class R, class T>
ndarray<R> quantile_impl(const ndarray<T>& a, std::vector<double> qs, const shape_t& qshape,
                         bool percent, const axis_arg& axis, bool keepdims) {
  if constexpr (is_complex_v<T>) {
    throw dtype_error("a must be an array of real numbers");
  } else {
    for (double& q : qs) {
      if (percent) q /= 100.0;  // NumPy divides first, then checks
      if (!(q >= 0.0 && q <= 1.0))
        throw value_error(percent ? "Percentiles must be in the range [0, 100]"
                                  : "Quantiles must be in the range [0, 1]");
    }
    return order_statistic<Backend, R>(a, qs, qshape, order_stat::quantile, axis, keepdims);
  }
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Sorting

/// numpy.sort(a, axis=-1): a sorted C-ordered copy; stable (kind='stable'), NaN last. On a GPU,
/// NaNs of different bit patterns may come out in the order of their bits.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> sort(const ndarray<T>& a, index_t axis = -1) {
  return detail::sort_impl<Backend>(a, axis);
}
/// numpy.sort(a, axis=None): the flattened array, sorted.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> sort(const ndarray<T>& a, none_t) {
  return detail::sort_impl<Backend>(detail::flat_view_or_copy(a), -1);
}

/// numpy.argsort(a, axis=-1, kind='stable'): int64 indices that sort a along axis.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<std::int64_t> argsort(const ndarray<T>& a, index_t axis = -1) {
  return detail::argsort_impl<Backend>(a, axis);
}
/// numpy.argsort(a, axis=None): indices into the flattened array.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<std::int64_t> argsort(const ndarray<T>& a, none_t) {
  return detail::argsort_impl<Backend>(detail::flat_view_or_copy(a), -1);
}

/// numpy.partition(a, kth, axis=-1): every kth element in its sorted place, smaller ones before
/// it, larger ones after. cunp returns the fully sorted array, which is one valid partition.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> partition(const ndarray<T>& a, const std::vector<index_t>& kth,
                                   index_t axis = -1) {
  const int ax = normalize_axis(axis, a.shape().size());
  detail::check_kth(kth, a.shape()[ax], a.size());
  return detail::sort_impl<Backend>(a, ax);
}
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> partition(const ndarray<T>& a, index_t kth, index_t axis = -1) {
  return partition<Backend>(a, std::vector<index_t>{kth}, axis);
}
/// numpy.partition(a, kth, axis=None): partitions the flattened array.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> partition(const ndarray<T>& a, const std::vector<index_t>& kth, none_t) {
  return partition<Backend>(detail::flat_view_or_copy(a), kth, -1);
}
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> partition(const ndarray<T>& a, index_t kth, none_t) {
  return partition<Backend>(detail::flat_view_or_copy(a), std::vector<index_t>{kth}, -1);
}

/// numpy.argpartition(a, kth, axis=-1): indices that partition a. cunp returns the stable
/// sorting indices, which is one valid answer.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<std::int64_t> argpartition(const ndarray<T>& a,
                                                 const std::vector<index_t>& kth,
                                                 index_t axis = -1) {
  if (a.ndim() == 0) return argpartition<Backend>(a.reshape({1}), kth, axis);  // NumPy: as 1-d
  const int ax = normalize_axis(axis, a.shape().size());
  detail::check_kth(kth, a.shape()[ax], a.size());
  return detail::argsort_impl<Backend>(a, ax);
}
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<std::int64_t> argpartition(const ndarray<T>& a, index_t kth,
                                                 index_t axis = -1) {
  return argpartition<Backend>(a, std::vector<index_t>{kth}, axis);
}
/// numpy.argpartition(a, kth, axis=None): indices into the flattened array.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<std::int64_t> argpartition(const ndarray<T>& a,
                                                 const std::vector<index_t>& kth, none_t) {
  return argpartition<Backend>(detail::flat_view_or_copy(a), kth, -1);
}
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<std::int64_t> argpartition(const ndarray<T>& a, index_t kth, none_t) {
  return argpartition<Backend>(detail::flat_view_or_copy(a), std::vector<index_t>{kth}, -1);
}

// ---------------------------------------------------------------------------------------------
// Searching

/// numpy.searchsorted(a, v, side='left'): for each element of v, the index in the sorted 1-d a
/// where it would be inserted to keep the order (NaN sorts last). a and v are compared in their
/// common type (integers exactly). `side` is "left" or "right".
template <class Backend = detail::compiled_backend, element_type T, element_type V>
[[nodiscard]] ndarray<std::int64_t> searchsorted(const ndarray<T>& a, const ndarray<V>& v,
                                                 std::string_view side = "left") {
  if (side != "left" && side != "right")
    throw value_error("search side must be 'left' or 'right' (got '" + std::string(side) + "')");
  detail::check_1d_argument(a.ndim());
  detail::check_same_device(a.device(), v.device(), "searchsorted");
  ndarray<std::int64_t> out(v.shape(), v.device());
  if (out.size() > 0) searchsorted_into(Backend{}, a, v, out, side == "right");
  return out;
}
namespace detail {
/// The element type a C++ value takes in searchsorted(a, value): a floating value keeps a
/// floating or complex array's type (as a Python float does); otherwise the value's own dtype.
template <class T, class S>
using search_value_t = std::conditional_t<
    !std::is_integral_v<S> && (is_complex_v<T> || (is_floating_v<T> && !is_complex_v<S>)), T,
    std::conditional_t<
        std::is_same_v<S, bool>, bool,
        std::conditional_t<std::is_integral_v<S>,
                           std::conditional_t<std::is_unsigned_v<S> && sizeof(S) == 8,
                                              std::uint64_t, std::int64_t>,
                           std::conditional_t<is_complex_v<S>, complex128, double>>>>;
}  // namespace detail

/// numpy.searchsorted(a, v) for one C++ value: a 0-d array.
template <class Backend = detail::compiled_backend, element_type T, class S>
requires is_weak_scalar_v<S>
[[nodiscard]] ndarray<std::int64_t> searchsorted(const ndarray<T>& a, const S& v,
                                                 std::string_view side = "left") {
  using V = detail::search_value_t<T, S>;
  return searchsorted<Backend>(a, full<V>({}, detail::convert<V>(v), a.device()), side);
}

// ---------------------------------------------------------------------------------------------
// Unique elements

/// numpy.unique_counts's result.
template <element_type T>
struct unique_counts_result {
  ndarray<T> values;
  ndarray<std::int64_t> counts;
};
/// numpy.unique_inverse's result: inverse_indices has x's shape.
template <element_type T>
struct unique_inverse_result {
  ndarray<T> values;
  ndarray<std::int64_t> inverse_indices;
};
/// numpy.unique_all's result.
template <element_type T>
struct unique_all_result {
  ndarray<T> values;
  ndarray<std::int64_t> indices, inverse_indices, counts;
};

/// numpy.unique(a): the sorted unique elements of the flattened array; NaNs count as one
/// (equal_nan=True, NumPy's default). Waits for the device: the size depends on the data.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> unique(const ndarray<T>& a, bool equal_nan = true) {
  return detail::unique_impl<Backend>(a, equal_nan, false, false, false).values;
}
/// numpy.unique_values(x): every NaN is its own value. NumPy leaves the order unspecified;
/// cunp's is sorted.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> unique_values(const ndarray<T>& x) {
  return detail::unique_impl<Backend>(x, false, false, false, false).values;
}
/// numpy.unique_counts(x): the sorted unique values and how often each occurs.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] unique_counts_result<T> unique_counts(const ndarray<T>& x) {
  auto r = detail::unique_impl<Backend>(x, false, false, false, true);
  return {r.values, r.counts};
}
/// numpy.unique_inverse(x): the sorted unique values and, per element of x, its value's index.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] unique_inverse_result<T> unique_inverse(const ndarray<T>& x) {
  auto r = detail::unique_impl<Backend>(x, false, false, true, false);
  return {r.values, r.inverse_indices};
}
/// numpy.unique_all(x): values, the first index of each in the flattened x, the inverse indices
/// (x's shape) and the counts.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] unique_all_result<T> unique_all(const ndarray<T>& x) {
  auto r = detail::unique_impl<Backend>(x, false, true, true, true);
  return {r.values, r.indices, r.inverse_indices, r.counts};
}

// ---------------------------------------------------------------------------------------------
// Counting

namespace detail {
/// bincount's element types: bool and the integers that cast safely to int64.
template <class T>
inline constexpr bool bincount_input_v = std::is_integral_v<T> && !std::is_same_v<T, std::uint64_t>;

template <class T>
void check_bincount_input(const ndarray<T>& x, index_t minlength) {
  check_1d_argument(x.ndim());
  if (!bincount_input_v<T>)
    throw dtype_error("Cannot cast array data from " + dtype_repr(dtype_of_v<T>) +
                      " to dtype('int64') according to the rule 'safe'");
  if (minlength < 0) throw value_error("'minlength' must not be negative");
}

/// The length of bincount's result: max(x) + 1 (at least minlength); throws for negative x.
template <class Backend, class T>
index_t bincount_length(const ndarray<T>& x, index_t minlength) {
  if (x.size() == 0) return minlength;
  const auto [lo, hi] = value_range(Backend{}, x);
  if (static_cast<index_t>(lo) < 0)
    throw value_error("'list' argument must have no negative elements");
  return std::max(static_cast<index_t>(hi) + 1, minlength);
}

template <class Backend, class R, class T, class W>
ndarray<R> bincount_impl(const ndarray<T>& x, const ndarray<W>* weights, index_t minlength) {
  check_bincount_input(x, minlength);
  if constexpr (bincount_input_v<T>) {
    if (weights) {
      if constexpr (is_complex_v<W>)
        throw dtype_error("Cannot cast array data from " + dtype_repr(dtype_of_v<W>) +
                          " to dtype('float64') according to the rule 'safe'");
      check_same_device(x.device(), weights->device(), "bincount");
      check_1d_argument(weights->ndim());
      if (weights->size() != x.size())
        throw value_error("The weights and list don't have the same length.");
    }
    if constexpr (!is_complex_v<W>) {
      ndarray<R> out({bincount_length<Backend>(x, minlength)}, x.device());
      if (out.size() > 0) bincount_count(Backend{}, x, weights, out);
      return out;
    }
  }
  return {};  // not reached: the checks threw
}
}  // namespace detail

/// numpy.bincount(x, minlength=0): how often each value 0..max(x) occurs in the 1-d array of
/// non-negative integers x. Waits for the device: the length depends on the data.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<std::int64_t> bincount(const ndarray<T>& x, index_t minlength = 0) {
  return detail::bincount_impl<Backend, std::int64_t>(x, static_cast<const ndarray<bool>*>(nullptr),
                                                      minlength);
}
/// numpy.bincount(x, weights, minlength=0): the sums of the weights (as float64) per value. On a
/// GPU the sums are accumulated in an order that varies from run to run (float rounding).
template <class Backend = detail::compiled_backend, element_type T, element_type W>
[[nodiscard]] ndarray<double> bincount(const ndarray<T>& x, const ndarray<W>& weights,
                                       index_t minlength = 0) {
  return detail::bincount_impl<Backend, double>(x, &weights, minlength);
}

/// numpy.histogram's result: the counts per bin and the bin edges.
template <element_type E>
struct histogram_result {
  ndarray<std::int64_t> hist;
  ndarray<E> bin_edges;
};

namespace detail {
/// numpy.histogram's edge dtype: floating inputs keep theirs, integers and bool give float64.
template <class T>
using histogram_edge_t = std::conditional_t<is_floating_v<T>, T, double>;

/// numpy.linspace(first, last, bins + 1) as np.histogram calls it, computed in C (NumPy's
/// dtype of first and last; every operation rounded to C) and returned as E.
template <class C, class E>
std::vector<E> histogram_edges(C first, C last, index_t bins) {
  const auto op = [](double v) { return static_cast<C>(v); };  // one NumPy operation in C
  const C delta = op(static_cast<double>(last) - static_cast<double>(first));
  const C step = op(static_cast<double>(delta) / static_cast<double>(bins));
  std::vector<E> e(static_cast<std::size_t>(bins + 1));
  for (index_t i = 0; i <= bins; ++i) {
    const C y = op(static_cast<double>(i));
    const C scaled =
        static_cast<double>(step) == 0
            ? op(static_cast<double>(op(static_cast<double>(y) / static_cast<double>(bins))) *
                 static_cast<double>(delta))
            : op(static_cast<double>(y) * static_cast<double>(step));
    e[i] = convert<E>(op(static_cast<double>(scaled) + static_cast<double>(first)));
  }
  e[bins] = convert<E>(last);
  return e;
}

template <class Backend, class T, class E>
histogram_result<E> histogram_with_edges(const ndarray<T>& a, ndarray<E> edges) {
  const index_t nb = std::max<index_t>(edges.size() - 1, 0);
  ndarray<std::int64_t> hist({nb}, a.device());
  if (nb > 0) histogram_count(Backend{}, a, edges, hist);
  return {hist, edges};
}

template <class Backend, class T>
histogram_result<histogram_edge_t<T>> histogram_uniform(
    const ndarray<T>& a, index_t bins, std::optional<std::pair<double, double>> range) {
  static_assert(!is_complex_v<T>, "numpy.histogram of complex values is not supported");
  using E = histogram_edge_t<T>;
  if (bins < 1) throw value_error("`bins` must be positive, when an integer");
  std::vector<E> edges;
  if (range) {
    auto [first, last] = *range;
    if (first > last) throw value_error("max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error("supplied range of [" + numpy_scalar_str(first) + ", " +
                        numpy_scalar_str(last) + "] is not finite");
    if (first == last) {
      first -= 0.5;
      last += 0.5;
    }
    edges = histogram_edges<double, E>(first, last, bins);
  } else if (a.size() == 0) {
    edges = histogram_edges<double, E>(0.0, 1.0, bins);
  } else {
    const auto [lo, hi] = value_range(Backend{}, a);
    if (order_isnan(lo) || order_isnan(hi) || std::isinf(static_cast<double>(lo)) ||
        std::isinf(static_cast<double>(hi)))
      throw value_error("autodetected range of [" + numpy_scalar_str(lo) + ", " +
                        numpy_scalar_str(hi) + "] is not finite");
    if constexpr (is_floating_v<T>) {
      T first = lo, last = hi;
      if (static_cast<double>(first) == static_cast<double>(last)) {
        first = T(static_cast<double>(first) - 0.5);
        last = T(static_cast<double>(last) + 0.5);
      }
      edges = histogram_edges<T, E>(first, last, bins);
    } else {
      double first = static_cast<double>(lo), last = static_cast<double>(hi);
      if (first == last) {
        first -= 0.5;
        last += 0.5;
      }
      edges = histogram_edges<double, E>(first, last, bins);
    }
  }
  return histogram_with_edges<Backend>(a, asarray(edges, {bins + 1}, a.device()));
}
}  // namespace detail

/// numpy.histogram(a, bins=10): counts in `bins` equal-width bins over [a.min(), a.max()]
/// (flattened a; the last bin includes its right edge). Edges are float64 for integer input,
/// else a's type. Waits for the device (the range depends on the data).
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] histogram_result<detail::histogram_edge_t<T>> histogram(const ndarray<T>& a,
                                                                      index_t bins = 10) {
  return detail::histogram_uniform<Backend>(a, bins, std::nullopt);
}
/// numpy.histogram(a, bins, range=(lo, hi)): values outside [lo, hi] are not counted.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] histogram_result<detail::histogram_edge_t<T>> histogram(
    const ndarray<T>& a, index_t bins, std::pair<double, double> range) {
  return detail::histogram_uniform<Backend>(a, bins, range);
}
/// numpy.histogram(a, bins=edges): counts between the given monotonically increasing edges,
/// compared in the common type of a and the edges. Waits for the device (the edges are checked).
template <class Backend = detail::compiled_backend, element_type T, element_type E>
[[nodiscard]] histogram_result<E> histogram(const ndarray<T>& a, const ndarray<E>& bins) {
  static_assert(!is_complex_v<T> && !is_complex_v<E>,
                "numpy.histogram of complex values is not supported");
  detail::check_same_device(a.device(), bins.device(), "histogram");
  if (bins.ndim() != 1) throw value_error("`bins` must be 1d, when an array");
  const std::vector<E> host = bins.to_vector();
  for (std::size_t i = 1; i < host.size(); ++i)  // NumPy's any(bins[:-1] > bins[1:])
    if (detail::order_less(host[i], host[i - 1]) && !detail::order_isnan(host[i - 1]))
      throw value_error("`bins` must increase monotonically, when an array");
  return detail::histogram_with_edges<Backend>(a, bins);
}

// ---------------------------------------------------------------------------------------------
// Order statistics

/// numpy.median(a, axis=None, keepdims=False): the mean of the middle elements (float64 for
/// integer and bool input); a slice with a NaN gives NaN; an empty slice gives NaN.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<detail::median_result_t<T>> median(const ndarray<T>& a,
                                                         const axis_arg& axis = {},
                                                         bool keepdims = false) {
  return detail::order_statistic<Backend, detail::median_result_t<T>>(
      a, {0.5}, {}, detail::order_stat::median, axis, keepdims);
}

/// numpy.quantile(a, q, axis=None, keepdims=False), method 'linear'. A scalar q interpolates in
/// a's floating type (float64 for integers and bool); q must lie in [0, 1].
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<detail::quantile_result_t<T>> quantile(const ndarray<T>& a, double q,
                                                             const axis_arg& axis = {},
                                                             bool keepdims = false) {
  return detail::quantile_impl<Backend, detail::quantile_result_t<T>>(a, {q}, {}, false, axis,
                                                                      keepdims);
}
/// numpy.quantile(a, [q...]): float64 results with q's extent first.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<double> quantile(const ndarray<T>& a, const std::vector<double>& q,
                                       const axis_arg& axis = {}, bool keepdims = false) {
  return detail::quantile_impl<Backend, double>(a, q, {static_cast<index_t>(q.size())}, false, axis,
                                                keepdims);
}

/// numpy.percentile(a, q, axis=None, keepdims=False): quantile(a, q / 100); q in [0, 100].
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<detail::quantile_result_t<T>> percentile(const ndarray<T>& a, double q,
                                                               const axis_arg& axis = {},
                                                               bool keepdims = false) {
  return detail::quantile_impl<Backend, detail::quantile_result_t<T>>(a, {q}, {}, true, axis,
                                                                      keepdims);
}
/// numpy.percentile(a, [q...]): float64 results with q's extent first.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<double> percentile(const ndarray<T>& a, const std::vector<double>& q,
                                         const axis_arg& axis = {}, bool keepdims = false) {
  return detail::quantile_impl<Backend, double>(a, q, {static_cast<index_t>(q.size())}, true, axis,
                                                keepdims);
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/sort.cuh"
#endif
