// cunp/shape.hpp: shapes, strides (in elements) and the helpers that NumPy applies to them.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "cunp/errors.hpp"

namespace cunp {

using index_t = std::int64_t;
/// A shape: one extent per dimension. `{}` is the shape of a 0-d array.
using shape_t = std::vector<index_t>;
/// Strides counted in elements (NumPy counts bytes); negative and zero strides are allowed.
using strides_t = std::vector<index_t>;

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

/// Number of elements; throws value_error for a negative extent (NumPy's message).
inline index_t shape_size(const shape_t& s) {
  index_t n = 1;
  for (index_t e : s) {
    if (e < 0) throw value_error("negative dimensions are not allowed: shape " + shape_str(s));
    n *= e;
  }
  return n;
}

/// C-order strides of a shape.
inline strides_t c_strides(const shape_t& s) {
  strides_t st(s.size());
  index_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s[i] > 0 ? s[i] : 1;
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
  return out;
}

}  // namespace cunp
