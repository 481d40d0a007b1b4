// cunp/print.hpp: arrays print as NumPy 2's repr() under the default print options.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "cunp/detail/io/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp {

namespace detail {

/// What repr() shows of an array, on the host in C order: all of it, or for more than
/// print_threshold elements only the first and last print_edgeitems along each longer axis
/// (NumPy's _leading_trailing). Only those corners leave the device.
template <class T>
struct printed_block {
  std::vector<T> values;
  shape_t shape;
  std::vector<bool> summarized;
};

template <class T>
printed_block<T> printed_part(const ndarray<T>& a) {
  const std::size_t nd = a.shape().size();
  printed_block<T> out{{}, a.shape(), std::vector<bool>(nd, false)};
  if (a.size() <= print_threshold) {
    out.values = a.to_vector();
    return out;
  }
  // Each axis contributes one block [0, n) or two, [0, e) and [n - e, n); every combination
  // of blocks is a strided view that is copied out and placed into its corner of the result.
  std::vector<std::vector<index_t>> starts(nd);
  shape_t box(nd);
  std::size_t boxes = 1;
  for (std::size_t d = 0; d < nd; ++d) {
    const index_t n = a.shape()[d];
    out.summarized[d] = n > 2 * print_edgeitems;
    if (out.summarized[d]) {
      out.shape[d] = 2 * print_edgeitems;
      box[d] = print_edgeitems;
      starts[d] = {0, n - print_edgeitems};
    } else {
      box[d] = n;
      starts[d] = {0};
    }
    boxes *= starts[d].size();
  }
  out.values.resize(static_cast<std::size_t>(shape_size(out.shape)));
  const strides_t dst_strides = c_strides(out.shape);
  const strides_t box_strides = c_strides(box);
  for (std::size_t b = 0; b < boxes; ++b) {
    index_t src_offset = a.offset(), dst_offset = 0;
    for (std::size_t d = nd, rest = b; d-- > 0;) {
      const std::size_t pick = rest % starts[d].size();
      rest /= starts[d].size();
      src_offset += starts[d][pick] * a.strides()[d];
      dst_offset += static_cast<index_t>(pick) * print_edgeitems * dst_strides[d];
    }
    const std::vector<T> part = ndarray<T>(a.storage(), src_offset, box, a.strides()).to_vector();
    for (std::size_t k = 0; k < part.size(); ++k) {
      index_t dst = dst_offset, rest = static_cast<index_t>(k);
      for (std::size_t d = 0; d < nd; ++d) {
        dst += rest / box_strides[d] * dst_strides[d];
        rest %= box_strides[d];
      }
      out.values[static_cast<std::size_t>(dst)] = part[k];
    }
  }
  return out;
}

}  // namespace detail

/// numpy.array_repr: `array([1., 2.], dtype=float32)`, as repr() prints it under the default
/// print options (or with `precision` digits: NumPy's value_error for a negative one when floats
/// are printed). A GPU array is copied to the host first (only the printed part of a large one).
template <element_type T>
[[nodiscard]] std::string array_repr(const ndarray<T>& a, int precision = detail::print_precision) {
  const std::string prefix = "array(";
  std::string body = "[]";
  if (a.size() > 0) {
    detail::check_print_precision<T>(precision);  // before the data leaves a GPU
    const auto part = detail::printed_part(a);
    const auto words = detail::format_elements(part.values, a.ndim() == 0, precision);
    // The closing ")" takes one column of the line width.
    body = detail::array_layout(words, part.shape, part.summarized)
               .format(std::string(prefix.size() + 1, ' '), detail::print_linewidth - 1);
  }
  std::vector<std::string> extras;
  if ((a.size() == 0 && a.shape() != shape_t{0}) || a.size() > detail::print_threshold)
    extras.push_back("shape=" + shape_str(a.shape()));
  if (!detail::dtype_is_implied_v<T> || a.size() == 0)
    extras.push_back("dtype=" + std::string(dtype_name_v<T>));
  if (extras.empty()) return prefix + body + ")";
  const std::string head = prefix + body + ",";
  std::string tail = extras[0];
  for (std::size_t i = 1; i < extras.size(); ++i) tail += ", " + extras[i];
  tail += ")";
  // The extras move to a line of their own when they would pass the line width.
  const std::size_t last_line = head.size() - (head.rfind('\n') + 1);
  const bool wrap = int(last_line + tail.size() + 1) > detail::print_linewidth;
  return head + (wrap ? "\n" + std::string(prefix.size(), ' ') : std::string(" ")) + tail;
}

/// Prints numpy's repr() of the array (array_repr).
template <element_type T>
std::ostream& operator<<(std::ostream& os, const ndarray<T>& a) {
  return os << array_repr(a);
}

}  // namespace cunp
