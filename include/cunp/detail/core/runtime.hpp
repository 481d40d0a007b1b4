// cunp/detail/core/runtime.hpp: the table through which host code reaches the CUDA runtime.
//
// Host headers never include CUDA headers. A translation unit compiled by nvcc fills this table
// (cunp/detail/cuda/core/runtime.cuh) at start-up; a program built by g++ alone leaves it empty and
// has the cpu backend only. Every entry is independent of the element type (it moves bytes of a
// given item size), so g++ and nvcc translation units of one program share arrays freely.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cunp {

/// cunp::memory_stats(dev): bytes in use by arrays, bytes cached by the pool, peak in use.
struct memory_info {
  std::size_t used_bytes = 0;
  std::size_t cached_bytes = 0;
  std::size_t peak_bytes = 0;
  std::size_t limit_bytes = 0;  ///< 0: no limit set
};

/// cunp::plan_cache_info(dev): the vendor-library plan cache of a device (zeros on the cpu).
struct plan_cache_stats {
  std::size_t entries = 0;
  std::size_t bytes = 0;  ///< work-area bytes of the cached plans
  std::size_t hits = 0;
  std::size_t misses = 0;
  std::size_t evictions = 0;  ///< entries dropped to stay within the bounds (not by clearing)
  std::size_t max_entries = 0;
  std::size_t max_bytes = 0;
};

namespace detail {

/// A strided operand as kernels see it: element pointer, extents and element strides.
inline constexpr int max_dims = 32;
struct strided_operand {
  void* data;
  std::int64_t strides[max_dims];
};
struct strided_shape {
  int ndim;
  std::int64_t extent[max_dims];
};

struct index_fault;  // detail/indexing/fault.hpp

struct gpu_runtime {
  int (*device_count)();
  // Stream-ordered pool memory on the calling thread's current stream of `dev`.
  void* (*allocate)(int dev, std::size_t bytes);
  void (*deallocate)(int dev, void* p, std::size_t bytes);
  void* (*allocate_pinned)(std::size_t bytes);
  void (*deallocate_pinned)(void* p);
  // Contiguous transfers. Host-to-device returns once the host memory may be reused;
  // device-to-host returns once the data is on the host.
  void (*copy_to_device)(int dev, void* dst, const void* src, std::size_t bytes, bool src_pinned);
  void (*copy_to_host)(int dev, void* dst, const void* src, std::size_t bytes, bool dst_pinned);
  // Device kernels over items of `itemsize` bytes (1, 2, 4, 8 or 16), any strides.
  void (*copy_strided)(int dev, std::size_t itemsize, const strided_shape& shape,
                       const strided_operand& dst, const strided_operand& src);
  void (*fill)(int dev, std::size_t itemsize, const strided_shape& shape,
               const strided_operand& dst, const void* value);
  // Zeroes, in each of `batch` C-contiguous n x m matrices, the elements above diagonal k
  // (lower = true, tril) or below it (lower = false, triu).
  void (*tri_zero)(int dev, std::size_t itemsize, void* data, std::int64_t batch, std::int64_t n,
                   std::int64_t m, std::int64_t k, bool lower);
  // Synchronisation, streams and events (handles are cudaStream_t / cudaEvent_t).
  void (*synchronize)(int dev);
  void* (*stream_create)(int dev);
  void (*stream_destroy)(int dev, void* s);
  void (*stream_synchronize)(int dev, void* s);  // s nullptr: the per-thread default stream
  void* (*event_create)(int dev);
  void (*event_destroy)(int dev, void* e);
  void (*event_record)(int dev, void* e, void* stream);
  void (*event_synchronize)(void* e);
  float (*event_elapsed_ms)(void* start, void* end);
  // The memory pool.
  memory_info (*memory_stats)(int dev);
  void (*empty_cache)(int dev);
  void (*set_memory_limit)(int dev, std::size_t bytes);
  // The vendor libraries' plan cache (cunp/detail/cuda/core/plan_cache.cuh).
  plan_cache_stats (*plan_cache_info)(int dev);
  void (*clear_plan_cache)(int dev);
  // Reads the fault record of `dev` after the calling thread's current stream: when a bad index
  // is ready there, copies it to `out`, clears the record and returns true.
  bool (*take_index_fault)(int dev, index_fault* out);
};

/// The table, or nullptr when no nvcc-compiled translation unit registered one.
inline const gpu_runtime*& gpu_slot() {
  static const gpu_runtime* table = nullptr;
  return table;
}
inline const gpu_runtime* gpu() { return gpu_slot(); }

// The calling thread's current stream (stream_guard); nullptr means the per-thread default stream.
struct current_stream_state {
  int device = -1;
  void* handle = nullptr;
};
inline current_stream_state& current_stream() {
  thread_local current_stream_state s;
  return s;
}
inline void* stream_for(int dev) {
  const auto& s = current_stream();
  return s.device == dev ? s.handle : nullptr;
}

// allow_synchronize(false): any wait for the device throws (to find hidden waits in hot loops).
inline bool& synchronize_allowed() {
  thread_local bool allowed = true;
  return allowed;
}

}  // namespace detail
}  // namespace cunp
