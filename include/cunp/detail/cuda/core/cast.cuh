// cunp/detail/cuda/core/cast.cuh: astype/copyto conversion kernels, instantiated per dtype pair on use.
#pragma once
#include "cunp/detail/cuda/core/strided_copy.cuh"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace cuda {
/// NumPy's astype conversion of one element, as a copy kernel's operation.
template <class To> struct convert_to {
  template <class From> __device__ __forceinline__ To operator()(const From& v) const {
    return convert<To>(v);
  }
};
}  // namespace cuda

template <class To, class From>
void cast_into(cuda_backend, const ndarray<To>& dst, const ndarray<From>& src) {
  // Copies of one type only move bytes: the cpu backend reaches the GPU for them.
  if constexpr (std::is_same_v<To, From>) return cast_into(host_backend{}, dst, src);
  check_same_device(dst.device(), src.device(), "astype");
  const auto l = pair_layout(dst, src);
  if (l.size == 0) return;
  const int dev = dst.device().index();
  cuda::device_scope scope(dev);
  cuda::copy_layout_run<To, From>(dev, {l.shape, operand(dst.data(), l, 0), operand(src.data(), l, 1)},
                                  cuda::current_stream(dev), cuda::convert_to<To>{});
}

}  // namespace cunp::detail
