// cunp/padding.hpp: numpy.pad in every mode of NumPy 2: constant, edge, linear_ramp, maximum,
// mean, median, minimum, reflect, symmetric, wrap and empty.
//
// pad_width takes NumPy's forms: one width for both sides of every axis, a pair (before, after)
// for every axis, or one pair per axis (a single pair is broadcast, as NumPy's). NumPy's keywords
// are the fields of cunp::pad_options, set with designated initializers in their order
// (constant_values, end_values, stat_length, reflect_type), each in NumPy's forms:
//
//   cunp::pad(a, 2)                                           // np.pad(a, 2)
//   cunp::pad(a, {1, 3}, cunp::pad_mode::edge)                // np.pad(a, (1, 3), 'edge')
//   cunp::pad(a, {{1, 2}, {0, 4}}, "constant", {.constant_values = {{9, 8}, {7, 6}}})
//   cunp::pad(a, 2, cunp::pad_mode::reflect, {.reflect_type = cunp::reflect_type::odd})
//   cunp::pad(a, 3, cunp::pad_mode::mean, {.stat_length = {2, 1}})
//   cunp::pad(a, 4, cunp::pad_mode::linear_ramp, {.end_values = 5})
//
// The result is a new C-ordered array on a's device, made as NumPy makes it
// (numpy/lib/_arraypad_impl.py): allocated, the input copied into its centre by one strided
// copy, then each axis's two pad areas filled from slices of the partly padded result. Modes
// constant, edge, wrap, empty, and reflect and symmetric with reflect_type even, only fill and
// copy (a few operations per side, in chunks of doubling length when a pad is wider than its
// axis): they need no kernel of their own, so they also work on GPU data from a host-compiled
// translation unit. linear_ramp, the statistics and reflect_type odd evaluate expressions and
// reductions, which a GPU runs from nvcc-compiled code only. On a GPU, from nvcc-compiled code,
// edge, wrap, and reflect and symmetric with reflect_type even are one gather instead, where
// every pad fits within one period of its mode (detail/pad/index_map.hpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/detail/pad/index_map.hpp"
#include "cunp/detail/pad/modes.hpp"
#include "cunp/detail/pad/pairs.hpp"

namespace cunp {

/// numpy.pad's modes (its mode strings, which pad() also takes). A callable mode has no
/// counterpart.
enum class pad_mode : std::uint8_t {
  constant, edge, linear_ramp, maximum, mean, median, minimum, reflect, symmetric, wrap, empty
};

/// numpy.pad's reflect_type: 'even' mirrors the values, 'odd' subtracts them from twice the edge.
enum class reflect_type : std::uint8_t { even, odd };

/// One value of constant_values or end_values: a C++ bool, integer, floating-point or complex
/// number, standing for the Python scalar of its kind.
class pad_value {
 public:
  /// NumPy's dtype kinds (b, i/u, f, c), in the order np.array promotes a list of them.
  enum class kind : std::uint8_t { boolean, integer, floating, complex };

  template <class V>
    requires detail::assignable_scalar<V>
  pad_value(const V& v) {  // NOLINT: implicit, as a Python scalar is
    if constexpr (std::is_same_v<V, bool>) {
      kind_ = kind::boolean;
      int_ = v;
    } else if constexpr (std::is_integral_v<V>) {
      kind_ = kind::integer;
      above_ = std::cmp_greater(v, std::numeric_limits<std::int64_t>::max());
      if (above_) uint_ = static_cast<std::uint64_t>(v);
      else int_ = static_cast<std::int64_t>(v);
    } else {
      kind_ = is_complex_v<V> ? kind::complex : kind::floating;
      z_ = detail::convert<std::complex<double>>(v);
    }
  }

  [[nodiscard]] kind type() const { return kind_; }
  /// An integer past int64 (NumPy holds it as uint64).
  [[nodiscard]] bool above_int64() const { return above_; }

  /// The value as np.array gives it in a list whose common kind is k (not below its own).
  [[nodiscard]] pad_value as_kind(kind k) const {
    if (k == kind_ || k == kind::integer) {
      pad_value out = *this;
      out.kind_ = k;
      return out;
    }
    pad_value out;
    out.kind_ = k;
    out.z_ = kind_ >= kind::floating ? z_ : std::complex<double>(integer_as_double());
    return out;
  }

  /// The value converted to D as a cast converts it (no range checks).
  template <element_type D> [[nodiscard]] D cast() const {
    switch (kind_) {
      case kind::boolean: return detail::convert<D>(int_ != 0);
      case kind::integer: return above_ ? detail::convert<D>(uint_) : detail::convert<D>(int_);
      case kind::floating: return detail::convert<D>(z_.real());
      case kind::complex: break;
    }
    return detail::convert<D>(z_);
  }

  /// The value stored into an array of T as `a[...] = value` stores a Python scalar, with
  /// NumPy's errors: an integer (or a float's integer part) out of T's range, NaN or infinity
  /// into an integer dtype, a complex number into a real one.
  template <element_type T> [[nodiscard]] T assigned() const {
    if constexpr (std::is_same_v<T, bool> || is_complex_v<T>) {
      return cast<T>();
    } else {
      if (kind_ == kind::complex)
        throw dtype_error(detail::is_integer_v<T>
                              ? "int() argument must be a string, a bytes-like object or a real "
                                "number, not 'complex'"
                              : "float() argument must be a string or a real number, not "
                                "'complex'");
      if constexpr (!detail::is_integer_v<T>) {
        return cast<T>();
      } else {
        if (kind_ != kind::floating) return python_int<T>(above_, int_, uint_);
        const double x = z_.real();
        if (std::isnan(x)) throw value_error("cannot convert float NaN to integer");
        if (std::isinf(x)) throw value_error("cannot convert float infinity to integer");
        const double t = std::trunc(x);
        if (t >= -0x1p63 && t < 0x1p63) return python_int<T>(false, std::int64_t(t), 0);
        if (t >= 0 && t < 0x1p64) return python_int<T>(true, 0, std::uint64_t(t));
        throw value_error("Python int too large to convert to C long");
      }
    }
  }

 private:
  pad_value() = default;
  [[nodiscard]] double integer_as_double() const {
    return above_ ? static_cast<double>(uint_) : static_cast<double>(int_);
  }
  // A Python int into integer T: past int64 only uint64 holds it (NumPy converts through C long).
  template <class T> static T python_int(bool above, std::int64_t i, std::uint64_t u) {
    if (above) {
      if constexpr (std::is_same_v<T, std::uint64_t>) return u;
      else throw value_error("Python int too large to convert to C long");
    }
    detail::check_weak_fits<T>(i);
    return static_cast<T>(i);
  }

  kind kind_ = kind::integer;
  bool above_ = false;
  std::int64_t int_ = 0;  // boolean, integer up to int64
  std::uint64_t uint_ = 0;  // integer past int64
  std::complex<double> z_;  // floating, complex
};

/// numpy.pad's pad_width: one width (int), a pair {before, after}, or one pair per axis
/// ({{b0, a0}, {b1, a1}, ...} or a std::vector of pairs; a single pair serves every axis).
class pad_widths {
 public:
  template <std::integral I>
    requires(!std::is_same_v<I, bool>)
  pad_widths(I width)  // NOLINT: implicit, as NumPy's int
      : arg_{detail::padding::form::one,
             {{detail::padding::as_index(width), detail::padding::as_index(width)}}} {}
  template <std::integral I, std::integral J>
    requires(!std::is_same_v<I, bool> && !std::is_same_v<J, bool>)
  pad_widths(I before, J after)
      : arg_{detail::padding::form::pair,
             {{detail::padding::as_index(before), detail::padding::as_index(after)}}} {}
  pad_widths(std::initializer_list<std::pair<index_t, index_t>> per_axis)
      : arg_{detail::padding::form::per_axis, per_axis} {}
  pad_widths(std::vector<std::pair<index_t, index_t>> per_axis)  // NOLINT
      : arg_{detail::padding::form::per_axis, std::move(per_axis)} {}

  [[nodiscard]] const detail::padding::pairs_arg<index_t>& arg() const { return arg_; }

 protected:
  pad_widths() = default;
  detail::padding::pairs_arg<index_t> arg_;
};

/// numpy.pad's stat_length: pad_width's forms, or cunp::none (the default): the whole axis.
class stat_lengths : public pad_widths {
 public:
  using pad_widths::pad_widths;
  stat_lengths() = default;
  stat_lengths(none_t) { arg_.how = detail::padding::form::none; }  // NOLINT
};

namespace detail::padding {
template <class V>
concept value_like = assignable_scalar<V> || std::same_as<V, pad_value>;
}  // namespace detail::padding

/// numpy.pad's constant_values and end_values: one value, a pair {before, after}, or one pair
/// per axis. Not given: NumPy's default, 0.
class pad_values {
 public:
  pad_values() = default;
  template <detail::padding::value_like V>
  pad_values(const V& value)  // NOLINT: implicit, as NumPy's scalar
      : arg_{detail::padding::form::one, {{pad_value(value), pad_value(value)}}} {}
  template <detail::padding::value_like A, detail::padding::value_like B>
  pad_values(const A& before, const B& after)
      : arg_{detail::padding::form::pair, {{pad_value(before), pad_value(after)}}} {}
  pad_values(std::initializer_list<std::pair<pad_value, pad_value>> per_axis)
      : arg_{detail::padding::form::per_axis, per_axis} {}
  pad_values(std::vector<std::pair<pad_value, pad_value>> per_axis)  // NOLINT
      : arg_{detail::padding::form::per_axis, std::move(per_axis)} {}

  [[nodiscard]] bool given() const { return arg_.how != detail::padding::form::absent; }
  [[nodiscard]] const detail::padding::pairs_arg<pad_value>& arg() const { return arg_; }

 private:
  detail::padding::pairs_arg<pad_value> arg_;
};

/// numpy.pad's keywords. Each mode takes only its own (NumPy's value_error otherwise):
/// constant: constant_values; linear_ramp: end_values; maximum, mean, median, minimum:
/// stat_length; reflect, symmetric: reflect_type.
struct pad_options {
  pad_values constant_values{};                      ///< default 0
  pad_values end_values{};                           ///< default 0
  stat_lengths stat_length{};                        ///< default none: the whole axis
  std::optional<cunp::reflect_type> reflect_type{};  ///< default even
};

namespace detail::padding {

inline constexpr std::string_view mode_names[] = {
    "constant", "edge", "linear_ramp", "maximum", "mean", "median",
    "minimum", "reflect", "symmetric", "wrap", "empty"};

inline std::string_view mode_name(pad_mode m) { return mode_names[static_cast<int>(m)]; }

inline pad_mode parse_mode(std::string_view name) {
  for (std::size_t i = 0; i < std::size(mode_names); ++i)
    if (mode_names[i] == name) return static_cast<pad_mode>(i);
  throw value_error("mode '" + std::string(name) + "' is not supported");
}

/// NumPy's check that every keyword given belongs to the mode. NumPy prints the set of the
/// others in its hash order; cunp in pad_options' order.
inline void check_keywords(pad_mode m, const pad_options& o) {
  const bool stat = m == pad_mode::maximum || m == pad_mode::mean || m == pad_mode::median ||
                    m == pad_mode::minimum;
  const bool reflect = m == pad_mode::reflect || m == pad_mode::symmetric;
  std::string bad;
  const auto refuse = [&](bool given, bool allowed, const char* name) {
    if (given && !allowed) bad += (bad.empty() ? "'" : ", '") + std::string(name) + "'";
  };
  refuse(o.constant_values.given(), m == pad_mode::constant, "constant_values");
  refuse(o.end_values.given(), m == pad_mode::linear_ramp, "end_values");
  refuse(o.stat_length.arg().how != form::absent, stat, "stat_length");
  refuse(o.reflect_type.has_value(), reflect, "reflect_type");
  if (!bad.empty())
    throw value_error("unsupported keyword arguments for mode '" + std::string(mode_name(m)) +
                      "': {" + bad + "}");
}

/// constant_values or end_values as NumPy's _as_pairs reads them: np.array of what was given
/// (one kind for all, the highest), broadcast to every axis.
struct resolved_values {
  std::vector<std::pair<pad_value, pad_value>> pairs;
  pad_value::kind kind;
  bool python_scalars;  // a table of several pairs: NumPy's tolist() gives Python scalars
  bool above_int64;     // np.array's dtype is uint64
};
inline resolved_values resolve(const pairs_arg<pad_value>& given, std::size_t ndim) {
  pairs_arg<pad_value> arg = given;
  if (arg.how == form::absent) arg = {form::one, {{pad_value(0), pad_value(0)}}};
  auto k = pad_value::kind::boolean;
  bool above = false;
  for (const auto& [b, a] : arg.pairs) {
    k = std::max({k, b.type(), a.type()});
    above = above || b.above_int64() || a.above_int64();
  }
  for (auto& [b, a] : arg.pairs) {
    b = b.as_kind(k);
    a = a.as_kind(k);
  }
  const bool table = arg.how == form::per_axis && arg.pairs.size() > 1;
  return {broadcast_pairs(arg, ndim), k, table, above};
}

/// np.linspace's dtype in _get_linear_ramps: result_type(end value, the array, float(width)),
/// the end value weak when NumPy hands out a Python scalar, else the NumPy scalar np.array made.
inline dtype ramp_dtype(dtype t, const resolved_values& v) {
  constexpr int python_kind[] = {0, 2, 3, 5};  // promote_weak's kinds, by pad_value::kind
  const int k = static_cast<int>(v.kind);
  if (v.python_scalars) return promote_weak(promote_weak(t, python_kind[k]), 3);
  const dtype numpy_scalar[] = {dtype::bool_, v.above_int64 ? dtype::uint64 : dtype::int64,
                                dtype::float64, dtype::complex128};
  return promote_weak(promote(numpy_scalar[k], t), 3);
}

/// Calls f(D{}) for the ramp dtype d of an array of T: one of four, whatever the end values.
template <class T, class F> void visit_ramp_dtype(dtype d, F&& f) {
  constexpr dtype t = dtype_of_v<T>;
  using W = type_of_t<promote_weak(t, 3)>;
  if constexpr (is_integer_v<T>) {
    f(W{});  // float64: complex end values were refused (floor)
  } else {
    using WC = type_of_t<promote_weak(t, 5)>;
    using Wide = type_of_t<promote(t, dtype::float64)>;
    if (d == dtype_of_v<W>) f(W{});
    else if (d == dtype_of_v<WC>) f(WC{});
    else if (d == dtype_of_v<Wide>) f(Wide{});
    else f(std::complex<double>{});  // the one left: a complex128 end value
  }
}

}  // namespace detail::padding

/// numpy.pad(array, pad_width, mode='constant', **kwargs); see the top of this header. Every
/// check (NumPy's, with its texts) comes before the result is allocated; a negative width is a
/// value_error ("index can't contain negative values"), as is a non-constant mode that would
/// extend an empty axis. Values of constant_values are stored as NumPy stores Python scalars
/// (pad_value::assigned). 0-d arrays take any one-pair width and come back as a copy.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> pad(const ndarray<T>& array, const pad_widths& pad_width,
                             pad_mode mode = pad_mode::constant, const pad_options& options = {}) {
  namespace dp = detail::padding;
  const shape_t& in = array.shape();
  const std::size_t nd = in.size();
  const std::vector<dp::width_pair> widths = dp::index_pairs(pad_width.arg(), nd);
  dp::check_keywords(mode, options);
  shape_t shape(nd);
  for (std::size_t d = 0; d < nd; ++d)
    if (__builtin_add_overflow(in[d], widths[d].first, &shape[d]) ||
        __builtin_add_overflow(shape[d], widths[d].second, &shape[d]))
      throw detail::array_too_big();
  detail::checked_size(shape, sizeof(T));
  const auto each_axis = [&](const ndarray<T>& padded, auto&& fill) {
    for (std::size_t d = 0; d < nd; ++d)
      fill(dp::roi(padded, widths, in, static_cast<int>(d)), static_cast<int>(d), widths[d]);
  };

  if (mode == pad_mode::constant) {
    std::vector<std::pair<T, T>> values;
    for (const auto& [b, a] : dp::resolve(options.constant_values.arg(), nd).pairs)
      values.emplace_back(b.template assigned<T>(), a.template assigned<T>());
    const ndarray<T> padded = dp::padded_copy(array, shape, widths);
    each_axis(padded, [&](const ndarray<T>& r, int d, dp::width_pair w) {
      dp::fill_constant(r, d, w, values[d]);
    });
    return padded;
  }
  if (mode == pad_mode::empty) return dp::padded_copy(array, shape, widths);
  if (array.size() == 0) {  // only the modes above can extend an empty axis
    for (std::size_t d = 0; d < nd; ++d)
      if (in[d] == 0 && (widths[d].first > 0 || widths[d].second > 0))
        throw value_error("can't extend empty axis " + std::to_string(d) +
                          " using modes other than 'constant' or 'empty'");
    return ndarray<T>(shape, array.device());
  }

  if (mode == pad_mode::edge || mode == pad_mode::wrap || mode == pad_mode::reflect ||
      mode == pad_mode::symmetric) {
    // On a GPU, one gather where every pad fits within one period (detail/pad/index_map.hpp).
    using detail::pad_rule;
    const pad_rule rule = mode == pad_mode::edge      ? pad_rule::edge
                          : mode == pad_mode::wrap    ? pad_rule::wrap
                          : mode == pad_mode::reflect ? pad_rule::reflect
                                                      : pad_rule::symmetric;
    if (const auto axes = detail::pad_index_map(rule, options.reflect_type == reflect_type::odd,
                                                widths, in))
      if (auto out = detail::dispatch<Backend>(
              array.device(), [&](auto be) { return pad_by_map(be, array, shape, *axes); }))
        return std::move(*out);
  }
  switch (mode) {
    case pad_mode::edge: {
      const ndarray<T> padded = dp::padded_copy(array, shape, widths);
      each_axis(padded, [](const ndarray<T>& r, int d, dp::width_pair w) {
        dp::fill_edge(r, d, w);
      });
      return padded;
    }
    case pad_mode::reflect:
    case pad_mode::symmetric: {
      const bool odd = options.reflect_type == reflect_type::odd;
      const ndarray<T> padded = dp::padded_copy(array, shape, widths);
      each_axis(padded, [&](const ndarray<T>& r, int d, dp::width_pair w) {
        dp::fill_reflect<Backend>(r, d, w, in[d], odd, mode == pad_mode::symmetric);
      });
      return padded;
    }
    case pad_mode::wrap: {
      const ndarray<T> padded = dp::padded_copy(array, shape, widths);
      each_axis(padded, [&](const ndarray<T>& r, int d, dp::width_pair w) {
        dp::fill_wrap(r, d, w, in[d]);
      });
      return padded;
    }
    case pad_mode::linear_ramp: {
      const dp::resolved_values ends = dp::resolve(options.end_values.arg(), nd);
      if (detail::is_integer_v<T> && ends.kind == pad_value::kind::complex && nd > 0)
        throw dtype_error("ufunc 'floor' not supported for the input types, and the inputs could "
                          "not be safely coerced to any supported types according to the "
                          "casting rule ''safe''");
      const ndarray<T> padded = dp::padded_copy(array, shape, widths);
      dp::visit_ramp_dtype<T>(dp::ramp_dtype(dtype_of_v<T>, ends), [&](auto zero) {
        using D = decltype(zero);
        each_axis(padded, [&](const ndarray<T>& r, int d, dp::width_pair w) {
          const auto& [b, a] = ends.pairs[d];
          dp::fill_ramp<Backend>(r, d, w, std::pair<D, D>(b.template cast<D>(),
                                                          a.template cast<D>()));
        });
      });
      return padded;
    }
    default: break;  // the statistics
  }
  const dp::statistic stat = mode == pad_mode::maximum  ? dp::statistic::maximum
                             : mode == pad_mode::minimum ? dp::statistic::minimum
                             : mode == pad_mode::mean    ? dp::statistic::mean
                                                         : dp::statistic::median;
  const std::vector<dp::width_pair> lengths = dp::index_pairs(options.stat_length.arg(), nd);
  if (stat == dp::statistic::maximum || stat == dp::statistic::minimum)
    for (std::size_t d = 0; d < nd; ++d)
      if (lengths[d].first == 0 || lengths[d].second == 0)
        throw value_error("stat_length of 0 yields no value for padding");
  const ndarray<T> padded = dp::padded_copy(array, shape, widths);
  each_axis(padded, [&](const ndarray<T>& r, int d, dp::width_pair w) {
    dp::fill_statistic<Backend>(r, d, w, lengths[d], stat);
  });
  return padded;
}

/// numpy.pad with NumPy's mode string ('reflect'); an unknown one is a value_error.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> pad(const ndarray<T>& array, const pad_widths& pad_width,
                             std::string_view mode, const pad_options& options = {}) {
  return pad<Backend>(array, pad_width, detail::padding::parse_mode(mode), options);
}

}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs.
#if defined(__CUDACC__)
#include "cunp/detail/cuda/pad/index_map.cuh"
#endif
