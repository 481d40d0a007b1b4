// cunp/detail/cpu/indexing/scatter.hpp: the cpu backend of put, put_along_axis and the add_at
// family (cunp/indexing.hpp). Both walk the indices in C order, as NumPy does: of repeated
// indices the last write stays, and updates apply in index order.
#pragma once
#include <cstdint>

#include "cunp/detail/core/math.hpp"
#include "cunp/detail/cpu/indexing/gather.hpp"

namespace cunp::detail {

/// a[base(i) + k(i) * stride] = v(i) (put, put_along_axis; cpu backend).
template <class T, class I>
void scatter_put(host_backend, const scatter_plan& p, const index_check& c, index_mode mode,
                 const ndarray<T>& a, const ndarray<I>& idx, const ndarray<T>& v) {
  require_cpu_for(a.device(), index_op_name(c.op));
  host::check_indices(idx.data(), c, p.target.n);
  T* ap = a.data();
  const I* ix = idx.data();
  const T* vp = v.data();
  const index_target t = p.target;
  std::int64_t i = 0;
  host::for_each_row(p.layout, [&](const auto& off, std::int64_t len, const auto& st) {
    for (std::int64_t j = 0; j < len; ++j, ++i) {
      std::int64_t k = 0;
      if (!normalize_index(index_value(ix[off[scatter_index] + j * st[scatter_index]]), t.n, mode,
                           k))
        continue;
      ap[off[scatter_base] + j * st[scatter_base] + k * t.stride] =
          p.cycle ? vp[i % p.cycle] : vp[off[scatter_value] + j * st[scatter_value]];
    }
  });
}

/// a[base(i) + k(i) * stride] = Op(that, v(i)), Op a ufunc's functor on T's math type (the
/// add_at family; cpu backend).
template <class Op, class T, class I>
void scatter_at(host_backend, const scatter_plan& p, const index_check& c, const ndarray<T>& a,
                const ndarray<I>& idx, const ndarray<T>& v) {
  require_cpu_for(a.device(), index_op_name(c.op));
  host::check_indices(idx.data(), c, p.target.n);
  using M = math_t<T>;
  T* ap = a.data();
  const I* ix = idx.data();
  const T* vp = v.data();
  const index_target t = p.target;
  host::for_each_row(p.layout, [&](const auto& off, std::int64_t len, const auto& st) {
    for (std::int64_t j = 0; j < len; ++j) {
      std::int64_t k = 0;
      if (!normalize_index(index_value(ix[off[scatter_index] + j * st[scatter_index]]), t.n,
                           index_mode::raise, k))
        continue;
      T& x = ap[off[scatter_base] + j * st[scatter_base] + k * t.stride];
      x = convert<T>(
          Op{}(convert<M>(x), convert<M>(vp[off[scatter_value] + j * st[scatter_value]])));
    }
  });
}

}  // namespace cunp::detail
