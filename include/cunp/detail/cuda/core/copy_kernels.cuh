// cunp/detail/cuda/core/copy_kernels.cuh: the runtime's strided copy, fill and triangle masking, by
// item size.
#pragma once
#include "cunp/detail/cuda/core/strided_copy.cuh"

namespace cunp::detail::cuda {

template <class U, class I>
CUNP_KERNEL void fill_kernel(strided_shape shape, strided_operand dst, U value, I n) {
  U* d = static_cast<U*>(dst.data);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    d[offset_of(i, shape, dst.strides)] = value;
}

template <class U>
CUNP_KERNEL void tri_zero_kernel(U* data, std::int64_t total, std::int64_t n, std::int64_t m,
                                 std::int64_t k, bool lower) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; t < total; t += step) {
    const std::int64_t j = t % m, i = (t / m) % n;
    if (lower ? j - i > k : j - i < k) data[t] = U{};
  }
}

inline bool fits_int32(std::int64_t n) { return n < (std::int64_t(1) << 31); }

/// A same-type copy of any layout (the CUDA runtime's strided copy, runtime.hpp).
inline void copy_strided(int dev, std::size_t itemsize, const strided_shape& shape,
                         const strided_operand& dst, const strided_operand& src) {
  const std::int64_t n = element_count(shape);
  if (n == 0) return;
  device_scope scope(dev);
  const cudaStream_t st = current_stream(dev);
  if (shape.ndim <= 1 && (shape.ndim == 0 || (dst.strides[0] == 1 && src.strides[0] == 1))) {
    CUNP_CUDA_CHECK(cudaMemcpyAsync(dst.data, src.data, n * itemsize, cudaMemcpyDeviceToDevice, st));
    return;
  }
  copy_layout l{shape, dst, src};
  forward_destination(l, itemsize, itemsize);
  std::size_t wide = widen_items(l, itemsize);
  const int last = l.shape.ndim - 1;
  if (wide != itemsize && l.src.strides[last] == -1) {  // reversed rows in 16-byte items
    bool done = false;
    visit_itemsize(itemsize, [&](auto sub) {
      if constexpr (sizeof(sub) < sizeof(item16))
        done = copy_rows<item16, item16, reverse_within<item16, decltype(sub)>, true>(
            dev, l, st, reverse_within<item16, decltype(sub)>{});
    });
    if (done) return;
    l = copy_layout{shape, dst, src};  // rows too short: the original items
    forward_destination(l, itemsize, itemsize);
    wide = itemsize;
  }
  visit_itemsize(wide, [&](auto u) {
    copy_layout_run<decltype(u), decltype(u)>(dev, l, st, copy_as_is{});
  });
}

inline void fill(int dev, std::size_t itemsize, const strided_shape& shape,
                 const strided_operand& dst, const void* value) {
  const std::int64_t n = element_count(shape);
  if (n == 0) return;
  device_scope scope(dev);
  const cudaStream_t st = current_stream(dev);
  const auto* bytes = static_cast<const unsigned char*>(value);
  const bool one_byte = std::all_of(bytes, bytes + itemsize, [&](unsigned char b) { return b == bytes[0]; });
  if (one_byte && (shape.ndim == 0 || (shape.ndim == 1 && dst.strides[0] == 1))) {
    CUNP_CUDA_CHECK(cudaMemsetAsync(dst.data, bytes[0], n * itemsize, st));
    return;
  }
  visit_itemsize(itemsize, [&](auto u) {
    using U = decltype(u);
    U v;
    std::memcpy(&v, value, sizeof(U));
    if (fits_int32(n))
      fill_kernel<U, std::int32_t><<<grid_for(dev, n), block_threads, 0, st>>>(shape, dst, v, std::int32_t(n));
    else
      fill_kernel<U, std::int64_t><<<grid_for(dev, n), block_threads, 0, st>>>(shape, dst, v, n);
  });
  CUNP_CUDA_CHECK_LAUNCH("fill_kernel");
}

inline void tri_zero(int dev, std::size_t itemsize, void* data, std::int64_t batch, std::int64_t n,
                     std::int64_t m, std::int64_t k, bool lower) {
  const std::int64_t total = batch * n * m;
  if (total == 0) return;
  device_scope scope(dev);
  visit_itemsize(itemsize, [&](auto u) {
    using U = decltype(u);
    tri_zero_kernel<U><<<grid_for(dev, total), block_threads, 0, current_stream(dev)>>>(
        static_cast<U*>(data), total, n, m, k, lower);
  });
  CUNP_CUDA_CHECK_LAUNCH("tri_zero_kernel");
}

}  // namespace cunp::detail::cuda
