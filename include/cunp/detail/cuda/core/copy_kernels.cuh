// cunp/detail/cuda/core/copy_kernels.cuh: strided copy, fill and triangle masking, by item size.
#pragma once
#include "cunp/detail/cuda/core/launch.cuh"

namespace cunp::detail::cuda {

template <class U, class I>
CUNP_KERNEL void copy_kernel(strided_shape shape, strided_operand dst, strided_operand src, I n) {
  U* d = static_cast<U*>(dst.data);
  const U* s = static_cast<const U*>(src.data);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  if (shape.ndim == 1) {  // one merged dimension: reversed and strided vectors, no division
    const std::int64_t sd = dst.strides[0], ss = src.strides[0];
    for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) d[i * sd] = s[i * ss];
    return;
  }
  for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    d[offset_of(i, shape, dst.strides)] = s[offset_of(i, shape, src.strides)];
}

/// Transposing copy of `batch` R x C matrices where src steps by 1 along rows (dim 1 of the
/// layout) and dst by 1 along columns (dim 2): a 32 x 32 tile goes through shared memory so that
/// both the reads and the writes are coalesced.
template <class U>
CUNP_KERNEL void transpose_kernel(U* dst, const U* src, std::int64_t rows, std::int64_t cols,
                                  std::int64_t dst_batch, std::int64_t dst_row,
                                  std::int64_t src_batch, std::int64_t src_col) {
  __shared__ U tile[32][33];
  const std::int64_t r0 = std::int64_t(blockIdx.y) * 32, c0 = std::int64_t(blockIdx.x) * 32;
  dst += std::int64_t(blockIdx.z) * dst_batch;
  src += std::int64_t(blockIdx.z) * src_batch;
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {
    const std::int64_t r = r0 + threadIdx.x, c = c0 + j;
    if (r < rows && c < cols) tile[j][threadIdx.x] = src[r + c * src_col];
  }
  __syncthreads();
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {
    const std::int64_t r = r0 + j, c = c0 + threadIdx.x;
    if (r < rows && c < cols) dst[r * dst_row + c] = tile[threadIdx.x][j];
  }
}

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

inline std::int64_t element_count(const strided_shape& shape) {
  std::int64_t n = 1;
  for (int d = 0; d < shape.ndim; ++d) n *= shape.extent[d];
  return n;
}

/// The tiled path for (batched) transposes: after merging dimensions, 2 or 3 of them, where the
/// source steps by 1 along one of the last two and the destination by 1 along the other.
inline bool try_transpose(std::size_t itemsize, const strided_shape& shape,
                          const strided_operand& dst, const strided_operand& src, cudaStream_t st) {
  if (shape.ndim != 2 && shape.ndim != 3) return false;
  const int b = shape.ndim - 3;  // the batch dimension, -1 when there is none
  const int d0 = shape.ndim - 2, d1 = shape.ndim - 1;
  std::int64_t rows = shape.extent[d0], cols = shape.extent[d1];
  std::int64_t dst_row, src_col;
  if (src.strides[d0] == 1 && dst.strides[d1] == 1) {
    dst_row = dst.strides[d0];
    src_col = src.strides[d1];
  } else if (src.strides[d1] == 1 && dst.strides[d0] == 1) {  // the same problem, axes swapped
    std::swap(rows, cols);
    dst_row = dst.strides[d1];
    src_col = src.strides[d0];
  } else {
    return false;
  }
  const std::int64_t batch = b >= 0 ? shape.extent[b] : 1;
  const dim3 grid(unsigned((cols + 31) / 32), unsigned((rows + 31) / 32), unsigned(batch));
  if ((rows + 31) / 32 > 65535 || batch > 65535 || (cols + 31) / 32 > (std::int64_t(1) << 31) - 1) return false;
  visit_itemsize(itemsize, [&](auto u) {
    using U = decltype(u);
    transpose_kernel<U><<<grid, dim3(32, 8), 0, st>>>(
        static_cast<U*>(dst.data), static_cast<const U*>(src.data), rows, cols,
        b >= 0 ? dst.strides[b] : 0, dst_row, b >= 0 ? src.strides[b] : 0, src_col);
  });
  CUNP_CUDA_CHECK_LAUNCH("transpose_kernel");
  return true;
}

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
  if (try_transpose(itemsize, shape, dst, src, st)) return;
  visit_itemsize(itemsize, [&](auto u) {
    using U = decltype(u);
    if (fits_int32(n))
      copy_kernel<U, std::int32_t><<<grid_for(dev, n), block_threads, 0, st>>>(shape, dst, src, std::int32_t(n));
    else
      copy_kernel<U, std::int64_t><<<grid_for(dev, n), block_threads, 0, st>>>(shape, dst, src, n);
  });
  CUNP_CUDA_CHECK_LAUNCH("copy_kernel");
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
