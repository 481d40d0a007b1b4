// cunp/detail/pad/pairs.hpp: numpy.pad's keyword arguments as (before, after) pairs per axis
// (NumPy's _as_pairs), with its checks and error texts.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cunp/errors.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail::padding {

/// How a keyword was given. The form decides NumPy's broadcasting, and for values whether NumPy
/// hands them out as NumPy scalars (one value or one pair) or as Python scalars (tolist() of a
/// table of several pairs).
enum class form : std::uint8_t {
  absent,   ///< not given: NumPy's default
  none,     ///< given as None (stat_length only)
  one,      ///< one value for both sides of every axis
  pair,     ///< (before, after) for every axis
  per_axis  ///< one (before, after) pair per axis; a single pair is broadcast
};

template <class V> struct pairs_arg {
  form how = form::absent;
  std::vector<std::pair<V, V>> pairs;  // one: {(v, v)}; pair: {(before, after)}
};

/// _as_pairs' np.broadcast_to(x, (ndim, 2)) of a table of n pairs, with NumPy's text.
inline value_error pairs_mismatch(std::size_t n, std::size_t ndim) {
  return value_error("operands could not be broadcast together with remapped shapes "
                     "[original->remapped]: (" + std::to_string(n) + ",2)  and requested shape (" +
                     std::to_string(ndim) + ",2)");
}

/// The pair of every axis: a single pair serves all of them, a table needs one per axis.
template <class V>
std::vector<std::pair<V, V>> broadcast_pairs(const pairs_arg<V>& arg, std::size_t ndim) {
  if (arg.pairs.size() == 1) return std::vector<std::pair<V, V>>(ndim, arg.pairs.front());
  if (arg.pairs.size() != ndim) throw pairs_mismatch(arg.pairs.size(), ndim);
  return arg.pairs;
}

/// _as_pairs(x, ndim, as_index=True), for pad_width and stat_length: NumPy checks the sign
/// before it broadcasts (x.min() < 0, which an empty table cannot answer). None (or no
/// stat_length) is the whole axis: the largest length, which NumPy clips to the axis.
inline std::vector<std::pair<index_t, index_t>> index_pairs(const pairs_arg<index_t>& arg,
                                                            std::size_t ndim) {
  if (arg.how == form::absent || arg.how == form::none) {
    constexpr index_t whole = std::numeric_limits<index_t>::max();
    return std::vector<std::pair<index_t, index_t>>(ndim, {whole, whole});
  }
  if (arg.pairs.empty())
    throw value_error("zero-size array to reduction operation minimum which has no identity");
  for (const auto& [before, after] : arg.pairs)
    if (before < 0 || after < 0) throw value_error("index can't contain negative values");
  return broadcast_pairs(arg, ndim);
}

/// A Python int (an integral C++ value) as an index; one past int64 wraps negative, as NumPy's
/// astype(np.intp) of stat_length wraps it, and then fails the sign check.
template <class I> constexpr index_t as_index(I v) { return static_cast<index_t>(v); }

}  // namespace cunp::detail::padding
