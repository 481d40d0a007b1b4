// cunp/creation.hpp: numpy.empty/zeros/ones/full, the *_like family, arange, linspace, eye,
// identity, asarray, array, diag, tri, tril, triu, meshgrid.
#pragma once
#include <cmath>
#include <concepts>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/creation/generate.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"
#include "cunp/view.hpp"

namespace cunp {

/// numpy.empty: uninitialised.
template <element_type T>
[[nodiscard]] ndarray<T> empty(const shape_t& shape, device dev = default_device()) {
  return ndarray<T>(shape, dev);
}
/// numpy.full.
template <element_type T>
[[nodiscard]] ndarray<T> full(const shape_t& shape, const T& value, device dev = default_device()) {
  ndarray<T> a(shape, dev);
  a.fill(value);
  return a;
}
/// numpy.zeros.
template <element_type T>
[[nodiscard]] ndarray<T> zeros(const shape_t& shape, device dev = default_device()) {
  return full<T>(shape, T(0), dev);
}
/// numpy.ones.
template <element_type T>
[[nodiscard]] ndarray<T> ones(const shape_t& shape, device dev = default_device()) {
  return full<T>(shape, T(1), dev);
}

// The *_like family: a's shape and device (C order); the element type is a's unless U is given.
template <class U = void, element_type T, class R = std::conditional_t<std::is_void_v<U>, T, U>>
[[nodiscard]] ndarray<R> empty_like(const ndarray<T>& a) {
  return empty<R>(a.shape(), a.device());
}
template <class U = void, element_type T, class R = std::conditional_t<std::is_void_v<U>, T, U>>
[[nodiscard]] ndarray<R> zeros_like(const ndarray<T>& a) {
  return zeros<R>(a.shape(), a.device());
}
template <class U = void, element_type T, class R = std::conditional_t<std::is_void_v<U>, T, U>>
[[nodiscard]] ndarray<R> ones_like(const ndarray<T>& a) {
  return ones<R>(a.shape(), a.device());
}
/// numpy.full_like(a, value): a's dtype (or U's), the value cast into it as NumPy casts a Python
/// scalar (unsafe: 2.7 into int16 is 2, a complex drops its imaginary part), except that an
/// integer out of an integer dtype's range throws value_error (NumPy: OverflowError).
template <class U = void, element_type T, detail::assignable_scalar V,
          class R = std::conditional_t<std::is_void_v<U>, T, U>>
[[nodiscard]] ndarray<R> full_like(const ndarray<T>& a, const V& value) {
  detail::check_weak_fits<R>(value);
  return full<R>(a.shape(), detail::convert<R>(value), a.device());
}

/// A C-ordered array holding a copy of `values` (numpy.asarray of a list); shape defaults to 1-d.
template <element_type T>
[[nodiscard]] ndarray<T> asarray(const std::vector<T>& values, shape_t shape = {},
                                 device dev = default_device()) {
  if (shape.empty() && values.size() != 1) shape = {static_cast<index_t>(values.size())};
  // np.array(values).reshape(shape): a product past int64 matches no size.
  if (detail::extent_product(shape) != static_cast<index_t>(values.size()))
    throw shape_error("cannot reshape array of size " + std::to_string(values.size()) +
                      " into shape " + shape_str(shape));
  ndarray<T> a(shape, cpu);
  std::copy(values.begin(), values.end(), a.data());  // element-wise: std::vector<bool> has no data()
  return a.to(dev);
}
template <element_type T>
[[nodiscard]] ndarray<T> asarray(std::initializer_list<T> values, device dev = default_device()) {
  return asarray(std::vector<T>(values), {static_cast<index_t>(values.size())}, dev);
}
/// numpy.asarray of an array: the same handle when it is on `dev`, else a copy there.
template <element_type T> [[nodiscard]] ndarray<T> asarray(const ndarray<T>& a, device dev) {
  return a.to(dev);
}

namespace detail {
// Nested initializer lists of depth N, flattened with NumPy's check that they are rectangular.
template <class T, std::size_t N> struct nested { using type = std::initializer_list<typename nested<T, N - 1>::type>; };
template <class T> struct nested<T, 0> { using type = T; };
template <class T, std::size_t N> using nested_t = typename nested<T, N>::type;

template <class T, class L>
void flatten_nested(const L& list, std::size_t depth, shape_t& shape, std::vector<T>& out) {
  if constexpr (std::is_same_v<L, T>) {
    out.push_back(list);
  } else {
    const auto n = static_cast<index_t>(list.size());
    if (shape.size() <= depth) shape.push_back(n);
    else if (shape[depth] != n)
      throw value_error("setting an array element with a sequence. The requested array has an "
                        "inhomogeneous shape after " + std::to_string(depth) + " dimensions.");
    for (const auto& sub : list) flatten_nested<T>(sub, depth + 1, shape, out);
  }
}
template <class T, std::size_t N>
ndarray<T> array_from(const nested_t<T, N>& list, device dev) {
  shape_t shape;
  std::vector<T> flat;
  flatten_nested<T>(list, 0, shape, flat);
  while (shape.size() < N) shape.push_back(0);  // an empty list leaves inner extents at 0
  return asarray(flat, shape, dev);
}
}  // namespace detail

/// numpy.array from (nested) initializer lists: array<int>({{1, 2}, {3, 4}}) has shape (2, 2).
/// A one-element innermost list ({{{1}, {2}}}) is ambiguous in C++ (braces around a scalar are
/// allowed); build such shapes with asarray(values, shape).
template <element_type T> [[nodiscard]] ndarray<T> array(const T& scalar, device dev = default_device()) {
  return asarray(std::vector<T>{scalar}, {}, dev);
}
template <element_type T>
[[nodiscard]] ndarray<T> array(detail::nested_t<T, 1> l, device dev = default_device()) { return detail::array_from<T, 1>(l, dev); }
template <element_type T>
[[nodiscard]] ndarray<T> array(detail::nested_t<T, 2> l, device dev = default_device()) { return detail::array_from<T, 2>(l, dev); }
template <element_type T>
[[nodiscard]] ndarray<T> array(detail::nested_t<T, 3> l, device dev = default_device()) { return detail::array_from<T, 3>(l, dev); }
template <element_type T>
[[nodiscard]] ndarray<T> array(detail::nested_t<T, 4> l, device dev = default_device()) { return detail::array_from<T, 4>(l, dev); }

namespace detail {
template <class T> concept real_number = element_type<T> && !is_complex_v<T>;
// The arithmetic type NumPy's fill loops use for T: float for the 16-bit floats, T otherwise.
template <class T> using fill_math_t =
    std::conditional_t<std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>, float, T>;

/// NumPy's arange fill: a0 = T(start), delta = T(start + step) - a0, x[i] = a0 + i * delta.
template <class T> struct arange_rule {
  fill_math_t<T> a0, delta;
  CUNP_HD T operator()(std::int64_t i) const {
    using M = fill_math_t<T>;
    if constexpr (std::is_same_v<T, bool>) return i == 0 ? a0 : static_cast<bool>(delta);
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(std::int64_t(a0) + i * std::int64_t(delta));
    else return T(static_cast<M>(a0 + static_cast<M>(i) * delta));
  }
};
/// NumPy's linspace: x[i] = i * step + start in float64, the last one `stop` when endpoint,
/// floored for integer types.
template <class T> struct linspace_rule {
  double start, step, stop, div, delta;
  std::int64_t last;  // index set to stop, or -1
  bool step_zero;
  CUNP_HD T operator()(std::int64_t i) const {
    double y = step_zero ? double(i) / div * delta + start : double(i) * step + start;
    if (i == last) y = stop;
    if constexpr (std::is_integral_v<T>) y = std::floor(y);
    return convert<T>(y);
  }
};

inline index_t checked_length(double len, const char* what) {
  if (!(len < 9.2e18)) throw value_error(std::string(what) + ": Maximum allowed size exceeded");
  return len > 0 ? static_cast<index_t>(len) : 0;
}
}  // namespace detail

/// numpy.arange(start, stop, step, dtype=T): ceil((stop - start) / step) values.
template <detail::real_number T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> arange(double start, double stop, double step = 1,
                                device dev = default_device()) {
  if (step == 0) throw value_error("arange: step must not be zero (numpy: division by zero)");
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step))
    throw value_error("arange: arange requires finite start, stop and step");
  const index_t n = detail::checked_length(std::ceil((stop - start) / step), "arange");
  ndarray<T> a({n}, dev);
  using M = detail::fill_math_t<T>;
  const M a0 = static_cast<M>(T(start)), a1 = static_cast<M>(T(start + step));
  const detail::arange_rule<T> rule{a0, static_cast<M>(a1 - a0)};
  detail::dispatch<Backend>(dev, [&](auto be) { generate(be, a, rule); });
  return a;
}
/// numpy.arange(stop, dtype=T).
template <detail::real_number T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> arange(double stop, device dev = default_device()) {
  return arange<T, Backend>(0.0, stop, 1.0, dev);
}

/// numpy.linspace(start, stop, num, endpoint, dtype=T).
template <detail::real_number T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> linspace(double start, double stop, index_t num = 50, bool endpoint = true,
                                  device dev = default_device()) {
  if (num < 0)
    throw value_error("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const double div = endpoint ? double(num - 1) : double(num);
  const double delta = stop - start;
  const double step = div > 0 ? delta / div : NAN;
  detail::linspace_rule<T> rule{start, step, stop, div, delta, endpoint && num > 1 ? num - 1 : -1,
                                div > 0 && step == 0};
  if (div <= 0) rule.step_zero = false, rule.step = delta;  // num <= 1: y = i * delta + start
  ndarray<T> a({num}, dev);
  detail::dispatch<Backend>(dev, [&](auto be) { generate(be, a, rule); });
  return a;
}

namespace detail {
/// The k-th diagonal of the last two axes of a (C-contiguous n x m) as a 1-d view.
template <class T> ndarray<T> diagonal_view(const ndarray<T>& a, index_t k) {
  const index_t n = a.shape()[0], m = a.shape()[1];
  const index_t len = std::max<index_t>(0, k >= 0 ? std::min(n, m - k) : std::min(n + k, m));
  const index_t start = len == 0 ? 0 : (k >= 0 ? k * a.strides()[1] : -k * a.strides()[0]);
  return ndarray<T>(a.storage(), a.offset() + start, {len}, {a.strides()[0] + a.strides()[1]});
}
/// Zeroes the part of each trailing n x m matrix of the C-contiguous a above (lower) or below
/// diagonal k.
template <class T> void tri_zero(const ndarray<T>& a, index_t k, bool lower) {
  const index_t n = a.shape()[a.ndim() - 2], m = a.shape()[a.ndim() - 1];
  const index_t batch = n * m != 0 ? a.size() / (n * m) : 0;
  if (a.device().is_cuda()) {
    gpu()->tri_zero(a.device().index(), sizeof(T), a.data(), batch, n, m, k, lower);
    return;
  }
  T* p = a.data();
  for (index_t b = 0; b < batch; ++b)
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < m; ++j)
        if (lower ? j - i > k : j - i < k) p[(b * n + i) * m + j] = T(0);
}
template <class T> ndarray<T> tri_part(const ndarray<T>& a, index_t k, bool lower) {
  if (a.ndim() == 0) throw value_error(std::string(lower ? "tril" : "triu") + ": input must be at least 1-d");
  ndarray<T> out;
  if (a.ndim() == 1) {  // NumPy broadcasts a 1-d input against the n x n mask
    const index_t n = a.shape()[0];
    out = ndarray<T>({n, n}, a.device());
    copy_same(out, ndarray<T>(a.storage(), a.offset(), {n, n}, {0, a.strides()[0]}));
  } else {
    out = a.copy();
  }
  tri_zero(out, k, lower);
  return out;
}
}  // namespace detail

namespace detail {
/// The columns of eye(n, m) and tri(n, m): N when M is omitted, std::nullopt, cunp::none or -1
/// (cunp 0.1's documented spelling of M = N, kept so that code written to it stays right); any
/// other negative M is NumPy's "negative dimensions" error, raised by the array's size check.
inline index_t columns_or_n(index_t n, std::optional<index_t> m) {
  return !m || *m == -1 ? n : *m;
}
}  // namespace detail

/// numpy.eye(N, M=None, k): ones on the k-th diagonal (M = N: see detail::columns_or_n).
template <element_type T>
[[nodiscard]] ndarray<T> eye(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0,
                             device dev = default_device()) {
  ndarray<T> a = zeros<T>({n, detail::columns_or_n(n, m)}, dev);
  detail::diagonal_view(a, k).fill(T(1));
  return a;
}
/// numpy.eye(N, None, k).
template <element_type T>
[[nodiscard]] ndarray<T> eye(index_t n, none_t, index_t k = 0, device dev = default_device()) {
  return eye<T>(n, std::nullopt, k, dev);
}
/// numpy.identity(n).
template <element_type T> [[nodiscard]] ndarray<T> identity(index_t n, device dev = default_device()) {
  return eye<T>(n, n, 0, dev);
}
/// numpy.tri(N, M=None, k): ones at and below the k-th diagonal (M = N: see
/// detail::columns_or_n).
template <element_type T>
[[nodiscard]] ndarray<T> tri(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0,
                             device dev = default_device()) {
  ndarray<T> a = ones<T>({n, detail::columns_or_n(n, m)}, dev);
  detail::tri_zero(a, k, true);
  return a;
}
/// numpy.tri(N, None, k).
template <element_type T>
[[nodiscard]] ndarray<T> tri(index_t n, none_t, index_t k = 0, device dev = default_device()) {
  return tri<T>(n, std::nullopt, k, dev);
}
/// numpy.tril: a copy with the elements above the k-th diagonal zeroed.
template <element_type T> [[nodiscard]] ndarray<T> tril(const ndarray<T>& a, index_t k = 0) {
  return detail::tri_part(a, k, true);
}
/// numpy.triu: a copy with the elements below the k-th diagonal zeroed.
template <element_type T> [[nodiscard]] ndarray<T> triu(const ndarray<T>& a, index_t k = 0) {
  return detail::tri_part(a, k, false);
}

/// numpy.diag: of a 1-d array, the 2-d array with it on diagonal k; of a 2-d array, a copy of
/// diagonal k (NumPy returns a read-only view there; cunp has no read-only views).
template <element_type T> [[nodiscard]] ndarray<T> diag(const ndarray<T>& v, index_t k = 0) {
  if (v.ndim() == 1) {
    // n = len(v) + |k| as a Python int: past int64 it is NumPy's error for a shape that C
    // cannot hold (|INT64_MIN| included).
    index_t n;
    if (k == std::numeric_limits<index_t>::min() ||
        __builtin_add_overflow(v.shape()[0], k < 0 ? -k : k, &n))
      throw value_error("Maximum allowed dimension exceeded");
    ndarray<T> a = zeros<T>({n, n}, v.device());
    detail::copy_same(detail::diagonal_view(a, k), v);
    return a;
  }
  if (v.ndim() == 2) return detail::diagonal_view(v, k).copy();
  throw value_error("Input must be 1- or 2-d.");
}

/// numpy.meshgrid(*xi, indexing): coordinate arrays (copies), inputs flattened. indexing "xy"
/// (default, Cartesian: the first two output axes swapped) or "ij" (matrix).
template <element_type T>
[[nodiscard]] std::vector<ndarray<T>> meshgrid(const std::vector<ndarray<T>>& xi,
                                               const std::string& indexing = "xy") {
  if (indexing != "xy" && indexing != "ij")
    throw value_error("Valid values for `indexing` are 'xy' and 'ij'.");
  const std::size_t nd = xi.size();
  shape_t out_shape(nd);
  for (std::size_t i = 0; i < nd; ++i) out_shape[i] = xi[i].size();
  const bool swap = indexing == "xy" && nd > 1;
  if (swap) std::swap(out_shape[0], out_shape[1]);
  std::vector<ndarray<T>> out;
  for (std::size_t i = 0; i < nd; ++i) {
    const ndarray<T> flat = xi[i].reshape({-1});
    strides_t st(nd, 0);
    st[swap && i < 2 ? 1 - i : i] = flat.strides()[0];
    ndarray<T> o(out_shape, flat.device());
    detail::copy_same(o, ndarray<T>(flat.storage(), flat.offset(), out_shape, st));
    out.push_back(o);
  }
  return out;
}
template <element_type T, std::same_as<ndarray<T>>... More>
[[nodiscard]] std::vector<ndarray<T>> meshgrid(const ndarray<T>& x, const More&... more) {
  return meshgrid(std::vector<ndarray<T>>{x, more...});
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/creation/generate.cuh"
#endif
