// cunp/detail/cuda/core/launch.cuh: grid sizing, the index arithmetic and the vector accesses shared
// by cunp's kernels.
#pragma once
#include <algorithm>
#include <cstdint>

#include "cunp/detail/cuda/core/check.cuh"
#include "cunp/detail/cuda/core/per_device.cuh"

// Kernels are templates with hidden visibility: one definition per program, never exported.
#define CUNP_KERNEL __global__ __attribute__((visibility("hidden")))

namespace cunp::detail::cuda {

inline constexpr int block_threads = 256;

/// Attribute A of `dev`, read once per device.
template <cudaDeviceAttr A> int device_attribute(int dev) {
  static per_device<int> values;
  return values.get(dev, [](int d) {
    int v = 0;
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&v, A, d));
    return v;
  });
}

/// Multiprocessors of `dev`.
inline int sm_count(int dev) { return device_attribute<cudaDevAttrMultiProcessorCount>(dev); }

/// Whether `dev` launches thread block clusters (sm_90 and later).
inline bool launches_clusters(int dev) {
  return device_attribute<cudaDevAttrClusterLaunch>(dev) != 0;
}

/// Whether Kernel may take `bytes` of dynamic shared memory on device d (the current one): its
/// binary built for sm_`min_arch` or later, from PTX of that architecture or later (a binary the
/// driver compiled from older PTX holds what `__CUDA_ARCH__ >= min_arch` left out), and the
/// device able to give that much beside the kernel's static shared memory. Asked once per
/// device, which also opts the kernel in (the setting is the kernel's on the current device;
/// ~1 us of host time a call otherwise).
template <auto Kernel>
bool shared_memory_opt_in(int d, std::size_t bytes, int min_arch = 0) {
  static per_device<bool> ok;
  return ok.get(d, [&](int dev) {
    cudaFuncAttributes a{};
    CUNP_CUDA_CHECK(cudaFuncGetAttributes(&a, Kernel));
    int most = 0;
    CUNP_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const bool fits = a.binaryVersion >= min_arch && a.ptxVersion >= min_arch &&
                      a.sharedSizeBytes + bytes <= std::size_t(most);
    if (fits)
      CUNP_CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(bytes)));
    return fits;
  });
}

/// How many blocks of `threads` threads of Kernel (with `dynamic_bytes` of dynamic shared
/// memory, the same on every call) fit on one SM of device d (the current one), asked once per
/// device.
template <auto Kernel>
int blocks_per_sm(int d, int threads, std::size_t dynamic_bytes = 0) {
  static per_device<int> counts;
  return counts.get(d, [&](int) {
    int n = 0;
    CUNP_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, Kernel, threads, dynamic_bytes));
    return n;
  });
}

/// Blocks for a loop over `items` work items (tiles) by one resident wave of Kernel: at most as
/// many blocks as fit on the device at once, so that each block walks several items and its next
/// one is in flight while it works on one, and never more blocks than items.
template <auto Kernel>
unsigned resident_grid(int d, std::int64_t items, int threads, std::size_t dynamic_bytes = 0) {
  const std::int64_t wave =
      std::int64_t(blocks_per_sm<Kernel>(d, threads, dynamic_bytes)) * sm_count(d);
  return static_cast<unsigned>(std::min(items, std::max<std::int64_t>(wave, 1)));
}

/// Blocks for a grid-stride loop over n items: enough to fill every SM several times.
inline unsigned grid_for(int dev, std::int64_t n, int items_per_thread = 1) {
  const std::int64_t want = (n + std::int64_t(block_threads) * items_per_thread - 1) /
                            (std::int64_t(block_threads) * items_per_thread);
  return static_cast<unsigned>(std::clamp<std::int64_t>(want, 1, std::int64_t(sm_count(dev)) * 32));
}

/// Element offset of linear C-order index i in an operand (I: 32- or 64-bit index arithmetic).
template <class I>
__device__ __forceinline__ std::int64_t offset_of(I i, const strided_shape& shape,
                                                  const std::int64_t* strides) {
  std::int64_t off = 0;
  for (int d = shape.ndim - 1; d >= 0; --d) {
    const I e = static_cast<I>(shape.extent[d]);
    const I q = i / e;
    off += static_cast<std::int64_t>(i - q * e) * strides[d];
    i = q;
  }
  return off;
}

/// V elements of T loaded or stored as one access.
template <class T, int V> struct alignas(sizeof(T) * V) vec {
  T v[V];
};

/// Whether p can be accessed as vec<T, V>s.
template <class T, int V> inline bool vec_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % sizeof(vec<T, V>) == 0;
}

/// Bytes-sized stand-ins for the element types (copies move bits; complex128 is 8-byte aligned).
template <std::size_t Size> struct item_of;
template <> struct item_of<1> { using type = std::uint8_t; };
template <> struct item_of<2> { using type = std::uint16_t; };
template <> struct item_of<4> { using type = std::uint32_t; };
template <> struct item_of<8> { using type = std::uint64_t; };
struct alignas(8) item16 { std::uint64_t lo, hi; };
template <> struct item_of<16> { using type = item16; };

/// Calls f(item_of<size>::type{}) for a run-time item size.
template <class F> void visit_itemsize(std::size_t size, F&& f) {
  switch (size) {
    case 1: f(std::uint8_t{}); return;
    case 2: f(std::uint16_t{}); return;
    case 4: f(std::uint32_t{}); return;
    case 8: f(std::uint64_t{}); return;
    case 16: f(item16{}); return;
  }
  throw value_error("unsupported item size " + std::to_string(size));
}

}  // namespace cunp::detail::cuda
