// cunp/detail/cpu/indexing/gather.hpp: the cpu backend of take, take_along_axis and choose
// (cunp/indexing.hpp), and the check of the indices that every cpu index operation makes before
// it writes anything.
#pragma once
#include <cstdint>

#include "cunp/detail/cpu/core/loops.hpp"
#include "cunp/detail/indexing/plan.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace host {

/// Throws NumPy's error for the first index (C order) of the index array outside [-n, n) (for
/// choose: [0, n)), when the call checks its indices at all.
template <class I>
void check_indices(const I* idx, const index_check& c, std::int64_t n) {
  if (!c.enabled) return;
  for_each_row(c.indices, [&](const auto& off, std::int64_t len, const auto& st) {
    for (std::int64_t j = 0; j < len; ++j) {
      const std::int64_t v = index_value(idx[off[0] + j * st[0]]);
      if (c.op == index_op::choose) {
        if (v < 0 || v >= n) throw value_error(invalid_choice_text);
      } else if (v < -n || v >= n) {
        throw index_error(out_of_bounds_text(v, n, c.axis));
      }
    }
  });
}

}  // namespace host

/// out(i) = src[base(i) + k(i) * stride] (take, take_along_axis; cpu backend). An index that the
/// mode leaves out of bounds is skipped: only possible where NumPy checks nothing and the result
/// is empty.
template <class T, class I>
void gather(host_backend, const gather_plan& p, const index_check& c, index_mode mode,
            const ndarray<T>& out, const ndarray<I>& idx, const ndarray<T>& src) {
  require_cpu_for(src.device(), index_op_name(c.op));
  host::check_indices(idx.data(), c, p.target.n);
  T* o = out.data();
  const I* ix = idx.data();
  const T* s = src.data();
  const index_target t = p.target;
  host::for_each_row_parallel(p.layout, [&](const auto& off, std::int64_t len, const auto& st) {
    for (std::int64_t j = 0; j < len; ++j) {
      std::int64_t k = 0;
      if (normalize_index(index_value(ix[off[gather_index] + j * st[gather_index]]), t.n, mode, k))
        o[off[gather_out] + j * st[gather_out]] =
            s[off[gather_base] + j * st[gather_base] + k * t.stride];
    }
  });
}

/// out(i) = choices[k(i)](i) (choose; cpu backend).
template <class T, class I>
void choose_into(host_backend, const choose_plan& p, const index_check& c, index_mode mode,
                 const ndarray<T>& out, const ndarray<I>& idx) {
  require_cpu_for(out.device(), "choose");
  host::check_indices(idx.data(), c, p.count);
  const int nd = p.shape.ndim;
  std::int64_t pos[max_dims] = {};
  std::int64_t oo = 0, io = 0;
  for (std::int64_t i = 0; i < p.size; ++i) {
    std::int64_t k = 0;
    if (normalize_choice(index_value(idx.data()[io]), p.count, mode, k)) {
      std::int64_t co = 0;
      for (int d = 0; d < nd; ++d) co += pos[d] * p.strides[k][d];
      out.data()[oo] = static_cast<const T*>(p.data[k])[co];
    }
    for (int d = nd - 1; d >= 0; --d) {  // the next position in C order
      oo += p.out[d];
      io += p.index[d];
      if (++pos[d] < p.shape.extent[d]) break;
      oo -= p.out[d] * pos[d];
      io -= p.index[d] * pos[d];
      pos[d] = 0;
    }
  }
}

}  // namespace cunp::detail
