// cunp/shape.hpp: shapes, strides (in elements) and the helpers that NumPy applies to them.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cunp/errors.hpp"

namespace cunp {

using index_t = std::int64_t;
/// A shape: one extent per dimension. `{}` is the shape of a 0-d array.
using shape_t = std::vector<index_t>;
/// Strides counted in elements (NumPy counts bytes); negative and zero strides are allowed.
using strides_t = std::vector<index_t>;

/// The axes of a reduction: none given (all of them), one, or several (`{0, 2}`).
class axis_arg {
 public:
  axis_arg() = default;
  axis_arg(index_t axis) : axes_{axis}, all_(false) {}  // NOLINT: sum(a, 1)
  axis_arg(int axis) : axes_{axis}, all_(false) {}      // NOLINT
  axis_arg(std::initializer_list<index_t> axes) : axes_(axes), all_(false) {}
  axis_arg(std::vector<index_t> axes) : axes_(std::move(axes)), all_(false) {}  // NOLINT
  [[nodiscard]] bool all() const { return all_; }
  [[nodiscard]] const std::vector<index_t>& axes() const { return axes_; }

 private:
  std::vector<index_t> axes_;
  bool all_ = true;
};

/// "(3,)" / "(2, 3)" / "()": NumPy's way of printing a shape.
inline std::string shape_str(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  if (s.size() == 1) out += ",";
  return out + ")";
}

// Every product of extents is taken here, overflow-checked, in one of NumPy's two ways:
// checked_size, the check of every array made (fresh or a view), and extent_product, the
// element count of a shape that has no array yet (reshape's target, a broadcast shape).
namespace detail {

/// NumPy's ValueError for an array whose byte count does not fit an npy_intp.
inline value_error array_too_big() {
  return value_error("array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                     "maximum possible size.");
}

/// NumPy's check of every array it makes (PyArray_NewFromDescr, views included): no extent is
/// negative, and itemsize times the product of the nonzero extents fits an int64. Zero extents
/// are skipped, as NumPy skips them, so that the strides of a size-0 array fit too. Returns the
/// number of elements. ndim multiplications: cheap enough for the view constructor.
inline index_t checked_size(const shape_t& s, std::size_t itemsize) {
  auto bytes = static_cast<index_t>(itemsize);
  bool empty = false;
  for (index_t e : s) {
    if (e < 0) throw value_error("negative dimensions are not allowed: shape " + shape_str(s));
    if (e == 0) empty = true;
    else if (__builtin_mul_overflow(bytes, e, &bytes)) throw array_too_big();
  }
  return empty ? 0 : bytes / static_cast<index_t>(itemsize);
}

/// The product of the extents in order, or nullopt when a partial product leaves int64 (NumPy's
/// reshape and broadcast arithmetic: a zero after an overflow does not save it). Throws
/// value_error for a negative extent.
inline std::optional<index_t> extent_product(const shape_t& s) {
  index_t n = 1;
  bool overflow = false;
  for (index_t e : s) {
    if (e < 0) throw value_error("negative dimensions are not allowed: shape " + shape_str(s));
    overflow = overflow || __builtin_mul_overflow(n, e, &n);
  }
  if (overflow) return std::nullopt;
  return n;
}

}  // namespace detail

/// Number of elements; throws value_error for a negative extent or a count past int64 (NumPy's
/// messages).
inline index_t shape_size(const shape_t& s) { return detail::checked_size(s, 1); }

/// C-order strides of a shape. The products wrap (never overflow) for a shape too big for an
/// array, which the array constructor then refuses (checked_size).
inline strides_t c_strides(const shape_t& s) {
  strides_t st(s.size());
  std::uint64_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    st[i] = static_cast<index_t>(acc);
    acc *= s[i] > 0 ? static_cast<std::uint64_t>(s[i]) : 1;
  }
  return st;
}

/// NumPy's normalize_axis_index: -ndim <= axis < ndim, else AxisError's text.
inline int normalize_axis(index_t axis, std::size_t ndim) {
  const auto n = static_cast<index_t>(ndim);
  if (axis < -n || axis >= n)
    throw shape_error("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                      std::to_string(n));
  return static_cast<int>(axis < 0 ? axis + n : axis);
}

/// The broadcast shape of two shapes by NumPy's rule, with NumPy's error text.
inline shape_t broadcast_shapes(const shape_t& a, const shape_t& b) {
  const std::size_t n = a.size() > b.size() ? a.size() : b.size();
  shape_t out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const index_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const index_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      throw shape_error("operands could not be broadcast together with shapes " + shape_str(a) +
                        " " + shape_str(b));
    out[i] = x == 1 ? y : x;
  }
  // Operands that fit may broadcast to a shape that does not (a column times a row).
  if (!detail::extent_product(out)) throw value_error("broadcast dimensions too large.");
  return out;
}

}  // namespace cunp
