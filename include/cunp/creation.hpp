// cunp/creation.hpp: numpy.empty/zeros/ones/full, the *_like family, arange, linspace, eye,
// identity, asarray, array, diag, tri, tril, triu, meshgrid.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <concepts>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/creation/generate.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp {

/// numpy.empty: uninitialised.
template <element_type T>
[[nodiscard]] ndarray<T> empty(const shape_t& shape, device dev = default_device()) {
  return ndarray<T>(shape, dev);
}
/// numpy.full(shape, value, dtype=T): the value cast into T as NumPy casts a Python scalar
/// (unsafe: full<int32_t>({3}, 2.7) is 2, a complex drops its imaginary part, as NumPy does with
/// a warning), except that an integer out of an integer T's range throws value_error (NumPy 2:
/// OverflowError "Python integer 300 out of bounds for uint8"). Without T, the value's type.
template <class T = void, detail::assignable_scalar V,
          class R = std::conditional_t<std::is_void_v<T>, V, T>>
  requires element_type<R>
[[nodiscard]] ndarray<R> full(const shape_t& shape, const V& value, device dev = default_device()) {
  detail::check_weak_fits<R>(value);
  ndarray<R> a(shape, dev);
  a.fill(detail::convert<R>(value));
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
template <class T> concept complex_number = element_type<T> && is_complex_v<T>;
/// A C++ integer bound of arange: the Python int it stands for (bool is none).
template <class I> concept arange_integer = std::integral<I> && !std::is_same_v<I, bool>;
// The arithmetic type NumPy's fill loops use for T: float for the 16-bit floats, T otherwise.
template <class T> using fill_math_t =
    std::conditional_t<std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>, float, T>;

/// NumPy's arange fill: x[0] = a0 = T(start), x[1] = a1 = T(start + step) as given, then
/// x[i] = a0 + i * delta with delta = a1 - a0 in T's fill arithmetic (integers wrap, complex
/// numbers part by part, as NumPy's fill functions).
template <class T> struct arange_rule {
  fill_math_t<T> a0, delta;
  T a1;
  CUNP_HD T operator()(std::int64_t i) const {
    using M = fill_math_t<T>;
    if (i == 0) return T(a0);
    if (i == 1) return a1;
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(std::uint64_t(a0) + std::uint64_t(i) * std::uint64_t(delta));
    } else if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      return T(mul_add_unfused(static_cast<R>(i), static_cast<R>(delta.real()),
                               static_cast<R>(a0.real())),
               mul_add_unfused(static_cast<R>(i), static_cast<R>(delta.imag()),
                               static_cast<R>(a0.imag())));
    } else {
      return T(mul_add_unfused(static_cast<M>(i), delta, a0));
    }
  }
};
template <class T> arange_rule<T> make_arange_rule(const T& first, const T& second) {
  using M = fill_math_t<T>;
  const M a0 = static_cast<M>(first);
  return {a0, static_cast<M>(static_cast<M>(second) - a0), second};
}
/// NumPy's linspace: x[i] = i * step + start in float64, the last one `stop` when endpoint,
/// floored for integer types.
template <class T> struct linspace_rule {
  double start, step, stop, div, delta;
  std::int64_t last;  // index set to stop, or -1
  bool step_zero;
  CUNP_HD T operator()(std::int64_t i) const {
    double y = step_zero ? mul_add_unfused(double(i) / div, delta, start)
                         : mul_add_unfused(double(i), step, start);
    if (i == last) y = stop;
    if constexpr (std::is_integral_v<T>) y = std::floor(y);
    return convert<T>(y);
  }
};

/// NumPy's check of an arange length computed in float64: past int64 (or NaN) it is too long.
inline index_t checked_length(double len) {
  if (!(len < 9.2e18)) throw value_error("Maximum allowed size exceeded");
  return len > 0 ? static_cast<index_t>(len) : 0;
}
inline void check_arange_length(index_t n, bool is_bool) {
  if (is_bool && n > 2)
    throw dtype_error("arange() is only supported for booleans when the result has at most "
                      "length 2.");
}
template <class T, class Backend> ndarray<T> arange_fill(index_t n, T first, T second, device dev) {
  ndarray<T> a({n}, dev);
  const arange_rule<T> rule = make_arange_rule(first, second);
  dispatch<Backend>(dev, [&](auto be) { generate(be, a, rule); });
  return a;
}

/// A Python int (here an __int128 that holds every sum of two C++ integers) cast into T as
/// NumPy casts one: out of an integer dtype's range is NumPy's OverflowError.
template <class T> T python_int_as(__int128 v) {
  if (v < 0) {
    const auto x = static_cast<std::int64_t>(v);
    check_weak_fits<T>(x);
    if constexpr (std::is_integral_v<T>) return static_cast<T>(x);
    else return convert<T>(static_cast<double>(x));  // Python: int -> float64 -> T
  } else {
    const auto x = static_cast<std::uint64_t>(v);
    check_weak_fits<T>(x);
    if constexpr (std::is_integral_v<T>) return static_cast<T>(x);
    else return convert<T>(static_cast<double>(x));
  }
}

/// Python's complex division (CPython's _Py_c_quot), which NumPy's arange divides with.
inline std::complex<double> python_complex_quot(std::complex<double> a, std::complex<double> b) {
  const double br = b.real(), bi = b.imag();
  if (std::abs(br) >= std::abs(bi)) {
    if (br == 0) throw value_error("complex division by zero");  // NumPy: ZeroDivisionError
    const double ratio = bi / br, denom = br + bi * ratio;
    return {(a.real() + a.imag() * ratio) / denom, (a.imag() - a.real() * ratio) / denom};
  }
  if (std::abs(bi) >= std::abs(br)) {
    const double ratio = br / bi, denom = br * ratio + bi;
    return {(a.real() * ratio + a.imag()) / denom, (a.imag() * ratio - a.real()) / denom};
  }
  return {NAN, NAN};  // b has a NaN part
}
}  // namespace detail

/// numpy.arange(start, stop, step, dtype=T): ceil((stop - start) / step) values. A complex T
/// takes real bounds as Python floats (the length from their quotient).
template <element_type T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> arange(double start, double stop, double step = 1,
                                device dev = default_device()) {
  if (step == 0) throw value_error("arange: step must not be zero (numpy: division by zero)");
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step))
    throw value_error("arange: arange requires finite start, stop and step");
  const index_t n = detail::checked_length(std::ceil((stop - start) / step));
  detail::check_arange_length(n, std::is_same_v<T, bool>);
  return detail::arange_fill<T, Backend>(n, T(start), T(start + step), dev);
}
/// numpy.arange(stop, dtype=T).
template <element_type T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> arange(double stop, device dev = default_device()) {
  return arange<T, Backend>(0.0, stop, 1.0, dev);
}
/// numpy.arange with integer bounds (C++ integers, as Python ints): the length and the first two
/// values are computed in integers, so int64 and uint64 bounds past 2^53 are exact
/// (np.arange(2**62, 2**62 + 10, 3)); a bound that T cannot hold throws value_error, as NumPy's
/// OverflowError ("Python integer 300 out of bounds for uint8").
template <element_type T, class Backend = detail::compiled_backend, detail::arange_integer A,
          detail::arange_integer B, detail::arange_integer C = int>
[[nodiscard]] ndarray<T> arange(A start, B stop, C step = 1, device dev = default_device()) {
  using wide = __int128;  // every sum and difference of two 64-bit integers
  if (step == 0) throw value_error("arange: step must not be zero (numpy: division by zero)");
  const wide span = wide(stop) - wide(start), st = wide(step);
  wide n = span / st;  // ceil(span / step), as Python's true division then ceil for any length
  if (n * st != span && (span < 0) == (st < 0)) ++n;  // that an array can have
  if (n > std::numeric_limits<index_t>::max()) throw value_error("Maximum allowed size exceeded");
  const index_t len = n > 0 ? static_cast<index_t>(n) : 0;
  detail::check_arange_length(len, std::is_same_v<T, bool>);
  // NumPy casts only the values it sets: start, and start + step when there are two.
  const T first = len > 0 ? detail::python_int_as<T>(wide(start)) : T{};
  const T second = len > 1 ? detail::python_int_as<T>(wide(start) + st) : first;
  return detail::arange_fill<T, Backend>(len, first, second, dev);
}
/// numpy.arange(stop, dtype=T) with an integer stop.
template <element_type T, class Backend = detail::compiled_backend, detail::arange_integer I>
[[nodiscard]] ndarray<T> arange(I stop, device dev = default_device()) {
  return arange<T, Backend>(I(0), stop, 1, dev);
}
/// numpy.arange with complex bounds (a complex T only): start + i * (T(start + step) - start)
/// for min(ceil(re), ceil(im)) values, re and im the parts of (stop - start) / step (NumPy's
/// length rule: np.arange(0, 5 + 0j) is empty, np.arange(0, 5 + 10j) has 5 values).
template <detail::complex_number T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> arange(std::complex<double> start, std::complex<double> stop,
                                std::complex<double> step = 1, device dev = default_device()) {
  const std::complex<double> q = detail::python_complex_quot(stop - start, step);
  const index_t n = std::min(detail::checked_length(std::ceil(q.real())),
                             detail::checked_length(std::ceil(q.imag())));
  return detail::arange_fill<T, Backend>(n, detail::convert<T>(start),
                                         detail::convert<T>(start + step), dev);
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

/// numpy.linspace(..., retstep=True)'s result: the samples and the spacing between them (NaN
/// when num < 2 with endpoint, or num == 0: NumPy's undefined step).
template <element_type T, class S>
struct linspace_result {
  ndarray<T> samples;
  S step;
};

/// numpy.linspace(start, stop, num, endpoint, retstep=True, dtype=T).
template <detail::real_number T, class Backend = detail::compiled_backend>
[[nodiscard]] linspace_result<T, double> linspace_step(double start, double stop,
                                                       index_t num = 50, bool endpoint = true,
                                                       device dev = default_device()) {
  const double div = endpoint ? double(num - 1) : double(num);
  return {linspace<T, Backend>(start, stop, num, endpoint, dev),
          div > 0 ? (stop - start) / div : NAN};
}

namespace detail {
template <class A> using operand_value_t =
    typename operand_traits<std::remove_cvref_t<A>>::value_type;

/// linspace's computation dtype: NumPy's result_type of start and stop, made inexact.
template <class S, class E>
using linspace_dtype_t = std::conditional_t<
    is_floating_v<result_type_t<S, E>> || is_complex_v<result_type_t<S, E>>,
    result_type_t<S, E>, double>;

/// NumPy's linspace, step by step (function_base.py) in its computation dtype D, each step one
/// cunp ufunc with NumPy's rounding: samples of shape (num, *broadcast(start, stop).shape), and
/// the step (delta / div, NaN when div <= 0). Waits for the device (NumPy's any(step == 0)).
template <class D, class Backend, class S, class E>
std::pair<ndarray<D>, ndarray<D>> linspace_in(const S& start, const E& stop, index_t num,
                                              bool endpoint) {
  if (num < 0)
    throw value_error("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const index_t div = endpoint ? num - 1 : num;
  const ndarray<D> delta = astype<D>(stop) - astype<D>(start);  // np.subtract(..., dtype=D)
  shape_t column{num};
  column.insert(column.end(), delta.shape().size(), 1);
  const ndarray<D> i = arange<D, Backend>(index_t(0), num, 1, delta.device()).reshape(column);
  ndarray<D> y, step;
  if (div > 0) {
    step = delta / div;
    const auto zero = ndarray<bool>(step == 0).to_vector();
    if (std::find(zero.begin(), zero.end(), true) != zero.end())
      y = i / div * delta;  // denormal steps (NumPy's gh-5437)
    else
      y = i * step;
  } else {
    step = full<D>(delta.shape(), convert<D>(NAN), delta.device());
    y = i * delta;
  }
  y = y + start;
  if (endpoint && num > 1) copyto(view(y, -1), astype<D>(stop));
  return {y, step};
}

/// The samples of linspace_in with the new axis moved to `axis`, floored for an integer T, as T.
template <class T, class D>
ndarray<T> linspace_finish(const ndarray<D>& y, index_t axis) {
  const ndarray<D> moved = axis == 0 ? y : moveaxis(y, {0}, {axis});
  if constexpr (is_integer_v<T> && !is_complex_v<D>)
    return ndarray<T>(astype<T>(floor(moved)));
  else
    return ndarray<T>(astype<T>(moved));
}

template <class T>
using linspace_bound_t = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;
}  // namespace detail

/// numpy.linspace(start, stop, num, endpoint, dtype=T, axis) with array (or expression) bounds:
/// they broadcast; the samples run along the new axis `axis` of the result. Computed in NumPy's
/// dtype of start and stop (float64 for integers), then cast to T (floored for integers).
template <element_type T, class Backend = detail::compiled_backend, array_like S, array_like E>
[[nodiscard]] ndarray<T> linspace(const S& start, const E& stop, index_t num = 50,
                                  bool endpoint = true, index_t axis = 0) {
  using D = detail::linspace_dtype_t<detail::operand_value_t<S>, detail::operand_value_t<E>>;
  return detail::linspace_finish<T>(
      detail::linspace_in<D, Backend>(start, stop, num, endpoint).first, axis);
}
/// numpy.linspace(start, stop, ..., retstep=True) with array bounds: the step is an array of the
/// broadcast shape (NaN-filled where NumPy returns the float nan).
template <element_type T, class Backend = detail::compiled_backend, array_like S, array_like E>
[[nodiscard]] auto linspace_step(const S& start, const E& stop, index_t num = 50,
                                 bool endpoint = true, index_t axis = 0) {
  using D = detail::linspace_dtype_t<detail::operand_value_t<S>, detail::operand_value_t<E>>;
  auto [y, step] = detail::linspace_in<D, Backend>(start, stop, num, endpoint);
  return linspace_result<T, ndarray<D>>{detail::linspace_finish<T>(y, axis), step};
}
/// numpy.linspace with complex bounds (a complex T): computed in complex128, as NumPy.
template <detail::complex_number T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> linspace(std::complex<double> start, std::complex<double> stop,
                                  index_t num = 50, bool endpoint = true,
                                  device dev = default_device()) {
  return linspace<T, Backend>(full<complex128>({}, start, dev), full<complex128>({}, stop, dev),
                              num, endpoint);
}
/// numpy.linspace(..., retstep=True) with complex bounds.
template <detail::complex_number T, class Backend = detail::compiled_backend>
[[nodiscard]] linspace_result<T, complex128> linspace_step(std::complex<double> start,
                                                           std::complex<double> stop,
                                                           index_t num = 50, bool endpoint = true,
                                                           device dev = default_device()) {
  auto r = linspace_step<T, Backend>(full<complex128>({}, start, dev),
                                     full<complex128>({}, stop, dev), num, endpoint);
  return {r.samples, r.step.item()};
}

/// numpy.logspace(start, stop, num, endpoint, base, dtype=T): base ** linspace(start, stop) in
/// float64 (complex128 for a complex T), then cast to T.
template <element_type T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> logspace(detail::linspace_bound_t<T> start,
                                  detail::linspace_bound_t<T> stop, index_t num = 50,
                                  bool endpoint = true, double base = 10.0,
                                  device dev = default_device()) {
  using D = detail::linspace_bound_t<T>;
  const ndarray<D> y = detail::linspace_in<D, Backend>(full<D>({}, start, dev),
                                                       full<D>({}, stop, dev), num, endpoint)
                           .first;
  return ndarray<T>(astype<T>(power(base, y)));
}

/// numpy.geomspace(start, stop, num, endpoint, dtype=T): NumPy's algorithm, in float64
/// (complex128 for a complex T): start rotated onto the positive reals by its sign (negative and
/// complex endpoints), logspace between the log10s, the endpoints set exactly, rotated back.
template <element_type T, class Backend = detail::compiled_backend>
[[nodiscard]] ndarray<T> geomspace(detail::linspace_bound_t<T> start,
                                   detail::linspace_bound_t<T> stop, index_t num = 50,
                                   bool endpoint = true, device dev = default_device()) {
  using D = detail::linspace_bound_t<T>;
  if (start == D(0) || stop == D(0))
    throw value_error("Geometric sequence cannot include zero");
  const ndarray<D> sign_of_start = sign(full<D>({}, start, dev));
  const ndarray<D> first = full<D>({}, start, dev) / sign_of_start;
  const ndarray<D> last = full<D>({}, stop, dev) / sign_of_start;
  const ndarray<D> y = power(10.0, detail::linspace_in<D, Backend>(log10(first), log10(last),
                                                                   num, endpoint).first);
  if (num > 0) copyto(view(y, 0), first);
  if (num > 1 && endpoint) copyto(view(y, -1), last);
  return ndarray<T>(astype<T>(y * sign_of_start));
}

/// numpy.logspace(start, stop, num, endpoint, base, dtype=T, axis) with array (or expression)
/// bounds: base ** linspace(start, stop, num, endpoint, axis=axis), in linspace's dtype (a
/// Python float base is weak), then cast to T.
template <element_type T, class Backend = detail::compiled_backend, array_like S, array_like E>
[[nodiscard]] ndarray<T> logspace(const S& start, const E& stop, index_t num = 50,
                                  bool endpoint = true, double base = 10.0, index_t axis = 0) {
  using D = detail::linspace_dtype_t<detail::operand_value_t<S>, detail::operand_value_t<E>>;
  const ndarray<D> y = linspace<D, Backend>(start, stop, num, endpoint, axis);
  return ndarray<T>(astype<T>(power(base, y)));
}

/// numpy.geomspace(start, stop, num, endpoint, dtype=T, axis) with array (or expression)
/// bounds, by the scalar version's algorithm element-wise: in float64, or complex128 where the
/// bounds or T are complex (NumPy's result_type with float(num) and T), cast to T (truncated
/// for an integer T, as NumPy's astype). The check for zeros waits for the device.
template <element_type T, class Backend = detail::compiled_backend, array_like S, array_like E>
[[nodiscard]] ndarray<T> geomspace(const S& start, const E& stop, index_t num = 50,
                                   bool endpoint = true, index_t axis = 0) {
  using R = result_type_t<detail::operand_value_t<S>, detail::operand_value_t<E>>;
  using D = std::conditional_t<is_complex_v<R> || is_complex_v<T>, complex128, double>;
  const ndarray<D> lo = astype<D>(start), hi = astype<D>(stop);
  const auto has_zero = [](const ndarray<D>& a) {
    const auto z = ndarray<bool>(a == D(0)).to_vector();
    return std::find(z.begin(), z.end(), true) != z.end();
  };
  if (has_zero(lo) || has_zero(hi)) throw value_error("Geometric sequence cannot include zero");
  const ndarray<D> sign_of_start = sign(lo);
  const ndarray<D> first = lo / sign_of_start;
  const ndarray<D> last = hi / sign_of_start;
  const ndarray<D> y = logspace<D, Backend>(log10(first), log10(last), num, endpoint);
  if (num > 0) copyto(view(y, 0), first);
  if (num > 1 && endpoint) copyto(view(y, -1), last);
  const ndarray<D> signed_y = y * sign_of_start;
  return ndarray<T>(astype<T>(axis == 0 ? signed_y : moveaxis(signed_y, {0}, {axis})));
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
