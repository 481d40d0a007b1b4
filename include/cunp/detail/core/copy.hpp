// cunp/detail/core/copy.hpp: the element-wise copy every backend shares (same dtype, any layout):
// the cpu's strided loop, or the CUDA runtime's strided copy kernel for GPU data, which needs no
// kernel of its own per dtype and so works in a host-compiled TU too.
#pragma once
#include <algorithm>

#include "cunp/detail/cpu/core/loops.hpp"
#include "cunp/device.hpp"
#include "cunp/dtype.hpp"

namespace cunp {
template <element_type Elem> class ndarray;
}

namespace cunp::detail {

/// Two-operand loop layout of dst and src (src already of dst's shape, strides may be 0).
template <class A, class B>
loop_layout<2> pair_layout(const ndarray<A>& dst, const ndarray<B>& src) {
  return make_loop_layout<2>(dst.shape(), {&dst.strides(), &src.strides()});
}

template <std::size_t N>
strided_operand operand(void* data, const loop_layout<N>& l, std::size_t k) {
  strided_operand op{data, {}};
  std::copy(l.strides[k].begin(), l.strides[k].end(), op.strides);
  return op;
}

/// Element-wise copy of src into dst, same dtype and device, src of dst's shape (broadcast
/// strides allowed). Overlapping views are handled by the caller (copyto).
template <class Elem> void copy_same(const ndarray<Elem>& dst, const ndarray<Elem>& src) {
  check_same_device(dst.device(), src.device(), "copy");
  const auto l = pair_layout(dst, src);
  if (l.size == 0) return;
  if (dst.device().is_cpu()) {
    host::map_strided(dst.data(), src.data(), l, [](const Elem& v) { return v; });
  } else {
    gpu()->copy_strided(dst.device().index(), sizeof(Elem), l.shape, operand(dst.data(), l, 0),
                        operand(src.data(), l, 1));
  }
}

}  // namespace cunp::detail

// ndarray.hpp after the helpers, not before: it includes this file and, after it, the cpu cast,
// which calls pair_layout; a header that reaches this file first (creation/generate.hpp) would
// otherwise have the cast parsed before pair_layout is declared.
#include "cunp/ndarray.hpp"
