// cunp/view.hpp: NumPy's basic indexing (slices, integers, newaxis, ellipsis) as views, and
// copyto, the assignment `a[...] = b` with broadcasting and NumPy's casting rules.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"

namespace cunp {

/// Python's None: an omitted slice bound, and as an index a new axis of extent 1.
struct none_t {
  explicit constexpr none_t() = default;
};
inline constexpr none_t none{};
/// numpy.newaxis, which is None.
inline constexpr none_t newaxis{};

/// `:` (the whole axis), slice(none, none, none). Called, cunp::all is numpy.all (reduce.hpp).
struct mean_options;
struct all_t {
  explicit constexpr all_t() = default;
  template <class Backend = detail::compiled_backend, class X>
  auto operator()(const X& x, const axis_arg& axis, bool keepdims = false) const;
  template <class Backend = detail::compiled_backend, class X>
  auto operator()(const X& x) const;
  template <class Backend = detail::compiled_backend, class X>
  auto operator()(const X& x, const axis_arg& axis, const mean_options& o) const;
  template <class Backend = detail::compiled_backend, class X, class T>
  auto operator()(const X& x, const axis_arg& axis, const mean_options& o,
                  const ndarray<T>& out) const;
};
inline constexpr all_t all{};

/// `...`: as many `:` as the other indices leave axes.
struct ellipsis_t {
  explicit constexpr ellipsis_t() = default;
};
inline constexpr ellipsis_t ellipsis{};

/// Python's slice(start, stop, step); each part is an integer or cunp::none.
struct slice {
  /// A slice bound: an integer, cunp::none, or an optional integer.
  struct bound {
    std::optional<index_t> value;
    constexpr bound(none_t) {}
    constexpr bound(std::optional<index_t> v) : value(v) {}
    template <std::integral I>
      requires(!std::is_same_v<I, bool>)
    constexpr bound(I v) {
      // Python integers have no range; bounds beyond int64 clamp like any out-of-range bound.
      if constexpr (std::is_unsigned_v<I>)
        value = v > static_cast<std::make_unsigned_t<index_t>>(std::numeric_limits<index_t>::max())
                    ? std::numeric_limits<index_t>::max()
                    : static_cast<index_t>(v);
      else
        value = static_cast<index_t>(v);
    }
  };

  std::optional<index_t> start, stop, step;

  /// slice(stop), as Python's one-argument form.
  explicit constexpr slice(bound stop_) : stop(stop_.value) {}
  constexpr slice(bound start_, bound stop_, bound step_ = none)
      : start(start_.value), stop(stop_.value), step(step_.value) {}
};

/// One index of view(): an integer, a slice, cunp::all, cunp::newaxis (cunp::none) or
/// cunp::ellipsis. A std::vector of them is Python's index tuple built at run time.
class index_item {
 public:
  enum class kind : std::uint8_t { integer, range, newaxis, ellipsis };

  template <std::integral I>
    requires(!std::is_same_v<I, bool>)
  constexpr index_item(I i) : kind_(kind::integer), integer_(slice::bound(i).value.value()) {}
  /// A bool index is a mask in NumPy (a copy), never a view.
  index_item(bool) = delete;
  constexpr index_item(const slice& s) : kind_(kind::range), range_(s) {}
  constexpr index_item(all_t) : kind_(kind::range) {}
  constexpr index_item(none_t) : kind_(kind::newaxis) {}
  constexpr index_item(ellipsis_t) : kind_(kind::ellipsis) {}

  [[nodiscard]] constexpr kind type() const { return kind_; }
  [[nodiscard]] constexpr index_t integer() const { return integer_; }
  [[nodiscard]] constexpr const slice& range() const { return range_; }

 private:
  kind kind_;
  index_t integer_ = 0;
  slice range_{none, none, none};
};

namespace detail {

/// A slice applied to an axis of `length`: first index, step and number of elements
/// (CPython's PySlice_Unpack + PySlice_AdjustIndices, clamping out-of-range bounds).
struct slice_range {
  index_t start, step, length;
};

inline slice_range adjust_slice(const slice& s, index_t length) {
  constexpr index_t max = std::numeric_limits<index_t>::max();
  index_t step = s.step.value_or(1);
  if (step == 0) throw value_error("slice step cannot be zero");
  if (step < -max) step = -max;  // so that -step cannot overflow
  index_t start = s.start.value_or(step < 0 ? max : 0);
  index_t stop = s.stop.value_or(step < 0 ? std::numeric_limits<index_t>::min() : max);
  const auto clamp = [&](index_t& v) {
    if (v < 0) {
      v += length;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= length) {
      v = step < 0 ? length - 1 : length;
    }
  };
  clamp(start);
  clamp(stop);
  index_t n = 0;
  if (step < 0 && stop < start) n = (start - stop - 1) / -step + 1;
  if (step > 0 && start < stop) n = (stop - start - 1) / step + 1;
  return {start, step, n};
}

/// An integer index of an axis, negative counting from the end, with NumPy's IndexError text.
inline index_t normalize_index(index_t i, index_t extent, std::size_t axis) {
  if (i < -extent || i >= extent)
    throw index_error("index " + std::to_string(i) + " is out of bounds for axis " +
                      std::to_string(axis) + " with size " + std::to_string(extent));
  return i < 0 ? i + extent : i;
}

/// "(2,4)": the way NumPy's C code prints shapes in broadcasting errors (no spaces).
inline std::string shape_str_compact(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ",";
    out += std::to_string(s[i]);
  }
  if (s.size() == 1) out += ",";
  return out + ")";
}





/// Throws value_error unless every element of dst has its own memory: a zero stride on an axis
/// longer than 1 (a broadcast_to view) would make the written result depend on the order of the
/// writes, which a GPU does not fix. NumPy marks such views read-only.
template <class T> void check_writeable(const ndarray<T>& dst) {
  if (dst.size() == 0) return;
  for (std::size_t d = 0; d < dst.shape().size(); ++d)
    if (dst.shape()[d] > 1 && dst.strides()[d] == 0)
      throw value_error("assignment destination is read-only: axis " + std::to_string(d) +
                        " repeats one element through a zero stride (a broadcast view)");
}

/// Strides that read src as an array of `shape` by NumPy's assignment broadcasting (leading
/// extents of 1 may be dropped, extents of 1 repeat), with NumPy's error text.
template <class T> strides_t assignment_strides(const ndarray<T>& src, const shape_t& shape) {
  const auto fail = [&] {
    return shape_error("could not broadcast input array from shape " +
                       shape_str_compact(src.shape()) + " into shape " + shape_str_compact(shape));
  };
  const auto nd = static_cast<std::ptrdiff_t>(shape.size());
  const auto ns = static_cast<std::ptrdiff_t>(src.shape().size());
  strides_t out(shape.size(), 0);
  for (std::ptrdiff_t d = 0; d < ns; ++d) {
    const std::ptrdiff_t o = d + nd - ns;  // the axis of `shape` that src's axis d meets
    const index_t e = src.shape()[d];
    if (o < 0) {
      if (e != 1) throw fail();
    } else if (e == shape[o]) {
      out[o] = src.strides()[d];
    } else if (e != 1) {
      throw fail();
    }
  }
  return out;
}

}  // namespace detail



/// numpy.may_share_memory: whether the memory bounds of a and b overlap (a quick, conservative
/// test: interleaved views that touch no common element still count).
template <element_type A, element_type B>
[[nodiscard]] bool may_share_memory(const ndarray<A>& a, const ndarray<B>& b) {
  return a.device() == b.device() && detail::bytes_of(a).overlaps(detail::bytes_of(b));
}

/// a[idx...] with a run-time index tuple; see view(a, idx...).
template <element_type T>
[[nodiscard]] ndarray<T> view(const ndarray<T>& a, const std::vector<index_item>& idx) {
  using kind = index_item::kind;
  const std::size_t nd = a.shape().size();
  std::size_t consumed = 0;
  bool has_ellipsis = false;
  for (const index_item& it : idx) {
    if (it.type() == kind::ellipsis) {
      if (has_ellipsis) throw index_error("an index can only have a single ellipsis ('...')");
      has_ellipsis = true;
    } else if (it.type() != kind::newaxis) {
      ++consumed;
    }
  }
  if (consumed > nd)
    throw index_error("too many indices for array: array is " + std::to_string(nd) +
                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  index_t offset = a.offset();
  shape_t shape;
  strides_t strides;
  std::size_t d = 0;  // the next axis of a
  const auto keep = [&](std::size_t n) {
    for (; n > 0; --n, ++d) {
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
  };
  for (const index_item& it : idx) {
    switch (it.type()) {
      case kind::integer:
        offset += detail::normalize_index(it.integer(), a.shape()[d], d) * a.strides()[d];
        ++d;
        break;
      case kind::range: {
        auto r = detail::adjust_slice(it.range(), a.shape()[d]);
        if (r.length == 0) r = {0, 1, 0};  // as NumPy: an empty slice keeps offset and stride
        offset += r.start * a.strides()[d];
        shape.push_back(r.length);
        // One element: the stride is never used and may overflow (a step near INT64_MIN); wrap it
        // as NumPy's C arithmetic does. Longer views stay in the buffer, so the product fits.
        strides.push_back(r.length == 1 ? index_t(std::uint64_t(r.step) * std::uint64_t(a.strides()[d]))
                                        : r.step * a.strides()[d]);
        ++d;
        break;
      }
      case kind::newaxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case kind::ellipsis: keep(nd - consumed); break;
    }
  }
  keep(nd - d);
  return ndarray<T>(a.storage(), offset, std::move(shape), std::move(strides));
}

/// numpy basic indexing a[idx...] as a view (never a copy): integers (negative from the end),
/// slice(start, stop, step), cunp::all (:), cunp::newaxis (None), cunp::ellipsis (...).
/// Indexing every axis with an integer gives a 0-d view, where NumPy gives a scalar.
template <element_type T, class... Idx>
[[nodiscard]] ndarray<T> view(const ndarray<T>& a, const Idx&... idx) {
  static_assert((!std::is_same_v<Idx, bool> && ...),
                "a bool index is a mask in NumPy and selects a copy: use cunp::mask(a, m)");
  static_assert((std::is_constructible_v<index_item, const Idx&> && ...),
                "view() takes integers, cunp::slice, cunp::all, cunp::newaxis, cunp::ellipsis");
  return view(a, std::vector<index_item>{index_item(idx)...});
}

namespace detail {
/// copyto's dtype check, with NumPy's text.
inline void check_copy_cast(dtype from, dtype to, casting rule) {
  if (!can_cast(from, to, rule))
    throw dtype_error("Cannot cast array data from " + dtype_repr(from) + " to " + dtype_repr(to) +
                      " according to the rule '" + std::string(casting_name(rule)) + "'");
}
}  // namespace detail

/// numpy.copyto(dst, src, casting='same_kind'): src broadcast to dst's shape and converted to
/// dst's type. When src and dst overlap in memory the result is as if src were read in full
/// before any write (a[1:] = a[:-1]). dst must not repeat elements through zero strides.
template <class Backend = detail::compiled_backend, element_type D, element_type S>
void copyto(const ndarray<D>& dst, const ndarray<S>& src, casting rule = casting::same_kind) {
  detail::check_same_device(dst.device(), src.device(), "copyto");
  detail::check_copy_cast(dtype_of_v<S>, dtype_of_v<D>, rule);
  detail::check_writeable(dst);
  strides_t strides = detail::assignment_strides(src, dst.shape());
  if constexpr (std::is_same_v<D, S>) {
    if (dst.data() == src.data() && dst.shape() == src.shape() && dst.strides() == src.strides())
      return;  // a[...] = a
  }
  ndarray<S> source = src;
  if (may_share_memory(dst, src)) {
    source = src.copy();
    strides = detail::assignment_strides(source, dst.shape());
  }
  const ndarray<S> spread(source.storage(), source.offset(), dst.shape(), std::move(strides));
  detail::dispatch<Backend>(dst.device(), [&](auto be) { cast_into(be, dst, spread); });
}

namespace detail {
template <class V>
concept assignable_scalar = std::is_arithmetic_v<V> || is_dtype_v<V>;

/// The dtype NumPy reports for a Python scalar of V's kind meeting an array of type D (NEP 50's
/// result_type of a weak scalar).
template <class D, class V> dtype weak_scalar_dtype() {
  if constexpr (std::is_integral_v<V>) return dtype::int64;
  else if constexpr (!is_complex_v<V>) return dtype::float64;
  else if constexpr (std::is_same_v<D, double> || !is_floating_v<D>) return dtype::complex128;
  else return dtype::complex64;
}
}  // namespace detail

/// numpy.copyto(dst, value): a C++ scalar is weak, like a Python scalar: it fits any dst of its
/// kind or a higher one (an int into uint8, a double into float16), whatever the casting rule
/// short of 'unsafe'; an integer out of dst's range throws value_error (NumPy: OverflowError).
template <element_type D, detail::assignable_scalar V>
void copyto(const ndarray<D>& dst, const V& value, casting rule = casting::same_kind) {
  constexpr int value_rank = std::is_same_v<V, bool> ? 0
                             : std::is_integral_v<V> ? 1  // a Python int fits unsigned arrays
                             : is_complex_v<V>       ? 4
                                                     : 3;
  if (!std::is_same_v<V, D> && rule != casting::unsafe &&
      detail::kind_rank(dtype_of_v<D>) < value_rank)
    throw dtype_error("Cannot cast scalar from " +
                      detail::dtype_repr(detail::weak_scalar_dtype<D, V>()) + " to " +
                      detail::dtype_repr(dtype_of_v<D>) + " according to the rule '" +
                      std::string(casting_name(rule)) + "'");
  detail::check_weak_fits<D>(value);
  detail::check_writeable(dst);
  dst.fill(detail::convert<D>(value));
}

}  // namespace cunp
