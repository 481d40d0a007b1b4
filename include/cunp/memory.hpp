// cunp/memory.hpp: the storage behind arrays, and the device memory pool's controls.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "cunp/device.hpp"

namespace cunp {

namespace detail {

/// One allocation, shared by every array and view of it.
struct buffer {
  enum class origin : std::uint8_t { host, pinned, device_pool, foreign };
  void* ptr = nullptr;
  std::size_t bytes = 0;
  cunp::device dev;
  origin how = origin::host;
  std::shared_ptr<const void> owner;  // keeps foreign memory alive (adapt), may be empty

  buffer() = default;
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() {
    if (!ptr) return;
    switch (how) {
      case origin::host: std::free(ptr); break;
      case origin::pinned: gpu()->deallocate_pinned(ptr); break;
      case origin::device_pool: gpu()->deallocate(dev.index(), ptr, bytes); break;
      case origin::foreign: break;
    }
  }
  [[nodiscard]] bool pinned() const { return how == origin::pinned; }
};

/// Host memory, 64-byte aligned. Large blocks are 2 MiB aligned and asked to be backed by
/// transparent huge pages, as NumPy does: first touch then faults once per 2 MiB, not per 4 KiB.
inline void* host_allocate(std::size_t bytes) {
  constexpr std::size_t huge = std::size_t(2) << 20;
  const std::size_t align = bytes >= 4 * huge ? huge : 64;
  const std::size_t rounded = (bytes + align - 1) / align * align;
  void* p = rounded >= bytes ? std::aligned_alloc(align, rounded) : nullptr;
  if (!p)
    throw out_of_memory(bytes, 0, "cpu: out of memory allocating " + std::to_string(bytes) + " bytes");
#if defined(__linux__)
  if (align == huge) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
  return p;
}

/// Fresh storage of `bytes` on `dev`: 64-byte aligned host memory, or pool memory on the GPU.
inline std::shared_ptr<buffer> allocate(device dev, std::size_t bytes) {
  check_device(dev);
  auto b = std::make_shared<buffer>();
  b->dev = dev;
  b->bytes = bytes;
  if (bytes == 0) return b;
  if (dev.is_cpu()) {
    b->ptr = host_allocate(bytes);
  } else {
    b->ptr = gpu()->allocate(dev.index(), bytes);
    b->how = buffer::origin::device_pool;
  }
  return b;
}

/// The storage that an array without any (ndarray(), a moved-from array) shows: one shared 0-byte
/// buffer on the cpu, which views of it (reshape, T, view) keep.
inline const std::shared_ptr<buffer>& empty_host_buffer() {
  static const std::shared_ptr<buffer> empty = allocate(cpu, 0);
  return empty;
}

/// Page-locked host storage (fast, asynchronous transfers); plain host memory without CUDA.
inline std::shared_ptr<buffer> allocate_pinned(std::size_t bytes) {
  if (!gpu() || bytes == 0) return allocate(cpu, bytes);
  auto b = std::make_shared<buffer>();
  b->bytes = bytes;
  b->ptr = gpu()->allocate_pinned(bytes);
  b->how = buffer::origin::pinned;
  return b;
}

inline void check_synchronize_allowed(const char* what) {
  if (!synchronize_allowed())
    throw device_error(std::string(what) +
                       " waits for the GPU, but cunp::allow_synchronize(false) is in effect");
}

}  // namespace detail

/// Bytes in use, cached by the pool, and the peak in use, on `dev` (zeros on the cpu).
[[nodiscard]] inline memory_info memory_stats(device dev) {
  detail::check_device(dev);
  return dev.is_cpu() ? memory_info{} : detail::gpu()->memory_stats(dev.index());
}
/// Entries, work-area bytes, hits, misses and evictions of the vendor libraries' plan cache of
/// `dev` (cuFFT plans, cuSPARSE and cuBLASLt descriptors; zeros on the cpu).
[[nodiscard]] inline plan_cache_stats plan_cache_info(device dev) {
  detail::check_device(dev);
  return dev.is_cpu() ? plan_cache_stats{} : detail::gpu()->plan_cache_info(dev.index());
}
/// Drops the plan cache of `dev`, then returns the pool's cached, unused device memory to the
/// driver (cupy: free_all_blocks). Plans in use stay alive until their users are done.
inline void empty_cache(device dev) {
  detail::check_device(dev);
  if (dev.is_cpu()) return;
  detail::gpu()->clear_plan_cache(dev.index());
  detail::gpu()->empty_cache(dev.index());
}
/// Caps the bytes that arrays may hold on `dev` (0 removes the cap); beyond it allocations throw
/// out_of_memory (cupy: MemoryPool.set_limit).
inline void set_memory_limit(device dev, std::size_t bytes) {
  detail::check_device(dev);
  if (dev.is_cpu()) throw value_error("set_memory_limit: the cpu has no memory pool to limit");
  detail::gpu()->set_memory_limit(dev.index(), bytes);
}

}  // namespace cunp
