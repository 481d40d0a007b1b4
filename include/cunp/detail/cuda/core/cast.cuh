// cunp/detail/cuda/core/cast.cuh: astype/copyto conversion kernels, instantiated per dtype pair on use.
#pragma once
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace cuda {
template <class To, class From, class I>
CUNP_KERNEL void cast_kernel(strided_shape shape, strided_operand dst, strided_operand src, I n) {
  To* d = static_cast<To*>(dst.data);
  const From* s = static_cast<const From*>(src.data);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    d[offset_of(i, shape, dst.strides)] = convert<To>(s[offset_of(i, shape, src.strides)]);
}
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
  const auto grid = cuda::grid_for(dev, l.size);
  const cudaStream_t st = cuda::current_stream(dev);
  if (l.size < (std::int64_t(1) << 31))
    cuda::cast_kernel<To, From, std::int32_t><<<grid, cuda::block_threads, 0, st>>>(
        l.shape, operand(dst.data(), l, 0), operand(src.data(), l, 1), std::int32_t(l.size));
  else
    cuda::cast_kernel<To, From, std::int64_t><<<grid, cuda::block_threads, 0, st>>>(
        l.shape, operand(dst.data(), l, 0), operand(src.data(), l, 1), l.size);
  CUNP_CUDA_CHECK_LAUNCH("cast_kernel");
}

}  // namespace cunp::detail
