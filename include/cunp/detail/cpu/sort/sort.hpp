// cunp/detail/cpu/sort/sort.hpp: the cpu backend of cunp/sort.hpp: stable sorts (LSD radix sort by
// NumPy's order key, comparisons for short lanes), the unique family's groups, order statistics,
// searchsorted, bincount and histogram, on host arrays.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "cunp/detail/sort/order_stats.hpp"
#include "cunp/detail/sort/sort_order.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"

namespace cunp::detail {

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

}  // namespace cunp::detail
