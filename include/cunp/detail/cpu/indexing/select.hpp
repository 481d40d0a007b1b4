// cunp/detail/cpu/indexing/select.hpp: the cpu backend of cunp/selection.hpp (the reference the
// CUDA backend matches): counting the selected elements of a mask, writing them, their positions
// or values for them in C order, putmask, and isin's binary search.
#pragma once
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "cunp/detail/cpu/core/loops.hpp"
#include "cunp/detail/expr/expr.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/selection.hpp"

namespace cunp::detail {

namespace host {

/// dst[...] = src[...] over a two-operand layout (dst first).
template <class T>
void copy_block(T* dst, const T* src, const loop_layout<2>& l) {
  for_each_row(l, [&](const auto& off, index_t n, const auto& st) {
    for (index_t q = 0; q < n; ++q) dst[off[0] + q * st[0]] = src[off[1] + q * st[1]];
  });
}

/// Calls f(r, offset) for the selected flags of sel in C order: r counts them from 0, offset is
/// the element offset of the flag's position in an array whose leading axes are the flags' shape
/// with strides `lead`.
template <class F, class G>
void for_each_selected(const selection<F>& sel, const strides_t& lead, G&& f) {
  const F* p = sel.flags.data();
  index_t r = 0;
  for_each_row(make_loop_layout<2>(sel.flags.shape(), {&sel.flags.strides(), &lead}),
               [&](const auto& off, index_t n, const auto& st) {
                 for (index_t j = 0; j < n; ++j)
                   if (is_set(p[off[0] + j * st[0]])) f(r++, off[1] + j * st[1]);
               });
}

/// The leading k strides of a and the two-operand layout of its other axes with those of b.
template <class A, class B>
std::pair<strides_t, loop_layout<2>> split_layout(const ndarray<A>& a, int k, const ndarray<B>& b) {
  const shape_t inner(a.shape().begin() + k, a.shape().end());
  const strides_t ai(a.strides().begin() + k, a.strides().end());
  const strides_t bi(b.strides().begin() + 1, b.strides().end());
  return {strides_t(a.strides().begin(), a.strides().begin() + k),
          make_loop_layout<2>(inner, {&bi, &ai})};
}

}  // namespace host

/// Counts the nonzero elements of flags, and finds the first at a flat position >= limit.
template <class C>
selection<C> count_selected(host_backend, const ndarray<C>& flags, const char*,
                            index_t limit = std::numeric_limits<index_t>::max()) {
  require_cpu_for(flags.device(), "boolean selection");
  selection<C> sel;
  sel.flags = flags;
  const C* p = flags.data();
  index_t i = 0;
  host::for_each_row(make_loop_layout<1>(flags.shape(), {&flags.strides()}),
                     [&](const auto& off, index_t n, const auto& st) {
                       for (index_t j = 0; j < n; ++j, ++i)
                         if (is_set(p[off[0] + j * st[0]])) {
                           ++sel.count;
                           if (i >= limit && sel.first_beyond < 0) sel.first_beyond = i;
                         }
                     });
  return sel;
}

/// Evaluates a mask expression into flags once, and counts them.
template <class Op, class... Args>
selection<bool> count_selected(host_backend, const expr<Op, Args...>& e, const char* what) {
  require_cpu_for(e.device(), "boolean selection");
  const ndarray<bool> flags(e.shape(), e.device());
  evaluate(host_backend{}, flags, e);
  return count_selected(host_backend{}, flags, what);
}

/// out[r, ...] = src[the r-th selected position of its first k axes, ...]; out is (count,) +
/// src.shape[k:] (any strides).
template <class F, class T>
void gather_selected(host_backend, const selection<F>& sel, const ndarray<T>& src, int k,
                     const ndarray<T>& out) {
  if (out.size() == 0) return;
  const auto parts = host::split_layout(src, k, out);
  const index_t rs = out.strides()[0];
  host::for_each_selected(sel, parts.first, [&](index_t r, index_t offset) {
    host::copy_block(out.data() + r * rs, src.data() + offset, parts.second);
  });
}

/// dst[the r-th selected position of its first k axes, ...] = v[r, ...]; v is (count,) +
/// dst.shape[k:] (any strides, broadcasting ones too).
template <class F, class T>
void assign_selected(host_backend, const selection<F>& sel, const ndarray<T>& dst, int k,
                     const ndarray<T>& v) {
  if (v.size() == 0) return;
  const auto parts = host::split_layout(dst, k, v);
  loop_layout<2> swapped = parts.second;  // dst first
  std::swap(swapped.strides[0], swapped.strides[1]);
  const index_t rs = v.strides()[0];
  host::for_each_selected(sel, parts.first, [&](index_t r, index_t offset) {
    host::copy_block(dst.data() + offset, v.data() + r * rs, swapped);
  });
}

/// out[d, r] = the d-th index, in `shape` (of the flags' size), of the r-th selected flag.
template <class F>
void positions_selected(host_backend, const selection<F>& sel, const shape_t& shape,
                        const ndarray<std::int64_t>& out) {
  const std::size_t nd = shape.size();
  if (sel.count == 0 || nd == 0) return;
  std::vector<index_t> idx(nd, 0);
  const F* p = sel.flags.data();
  std::int64_t* o = out.data();
  const index_t sd = out.strides()[0], sr = out.strides()[1];
  index_t r = 0;
  host::for_each_row(make_loop_layout<1>(sel.flags.shape(), {&sel.flags.strides()}),
                     [&](const auto& off, index_t n, const auto& st) {
                       for (index_t j = 0; j < n; ++j) {
                         if (is_set(p[off[0] + j * st[0]])) {
                           for (std::size_t d = 0; d < nd; ++d) o[d * sd + r * sr] = idx[d];
                           ++r;
                         }
                         for (std::size_t d = nd; d-- > 0;) {
                           if (++idx[d] < shape[d]) break;
                           idx[d] = 0;
                         }
                       }
                     });
}

/// a.flat[n] = v[n % v.size] where m.flat[n] is nonzero (m of a's shape, v 1-d contiguous).
template <class T, class C>
void put_mask_into(host_backend, const ndarray<T>& a, const ndarray<C>& m, const ndarray<T>& v) {
  require_cpu_for(a.device(), "putmask");
  const index_t nv = v.size();
  const C* mp = m.data();
  T* ap = a.data();
  index_t n = 0;
  host::for_each_row(pair_layout(a, m), [&](const auto& off, index_t len, const auto& st) {
    for (index_t j = 0; j < len; ++j, ++n)
      if (is_set(mp[off[1] + j * st[1]])) ap[off[0] + j * st[0]] = v.data()[n % nv];
  });
}

/// out = whether each element of x is in the sorted 1-d contiguous `sorted` (not, with invert).
template <class X, class U>
void isin_into(host_backend, const ndarray<X>& x, const ndarray<U>& sorted,
               const ndarray<bool>& out, bool invert) {
  require_cpu_for(x.device(), "isin");
  const U* s = sorted.data();
  const index_t n = sorted.size();
  host::map_strided(out.data(), x.data(), pair_layout(out, x),
                    [&](const X& e) { return sorted_contains(e, s, n) != invert; });
}

}  // namespace cunp::detail
