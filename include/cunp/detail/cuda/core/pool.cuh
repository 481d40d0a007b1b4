// cunp/detail/cuda/core/pool.cuh: device memory from a stream-ordered cudaMemPool per device.
#pragma once
#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <vector>

#include "cunp/detail/cuda/core/check.cuh"

namespace cunp::detail::cuda {

struct device_pool {
  cudaMemPool_t pool = nullptr;
  std::atomic<std::size_t> used{0}, peak{0}, limit{0};
  std::atomic<std::size_t> thread_cached{0};  // bytes held by the threads' block caches
};

/// The pool of `dev`, created on first use. Freed blocks stay cached (release threshold: all)
/// so that allocation after warm-up costs no driver call.
inline device_pool& pool_of(int dev) {
  static device_pool pools[64];
  static std::once_flag once[64];
  if (dev < 0 || dev >= 64) throw device_error("cuda:" + std::to_string(dev) + " is not supported");
  std::call_once(once[dev], [dev] {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    CUNP_CUDA_CHECK(cudaMemPoolCreate(&pools[dev].pool, &props));
    std::uint64_t keep_all = std::numeric_limits<std::uint64_t>::max();
    CUNP_CUDA_CHECK(cudaMemPoolSetAttribute(pools[dev].pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
  });
  return pools[dev];
}

/// Frees ptr on dev's stream st from any current device. Never throws: arrays are freed from
/// destructors, possibly after the CUDA runtime has shut down.
inline void free_on(int dev, void* ptr, cudaStream_t st) noexcept {
  int saved = dev;
  cudaGetDevice(&saved);
  if (saved != dev) cudaSetDevice(dev);
  if (cudaFreeAsync(ptr, st) != cudaSuccess) cudaGetLastError();
  if (saved != dev) cudaSetDevice(saved);
}

/// Blocks freed on this thread's default stream, reused by its next allocations of the same size
/// without a call into the pool. cudaMallocFromPoolAsync + cudaFreeAsync cost the host ~1.6 us
/// and, being stream-ordered, the GPU ~1.2 us a call whatever the size (bench/RESULTS.md: a
/// float16 matmul at 1024 was 0.93 of raw cuBLAS for that alone, and a cached fft of 2^24
/// complex64 points sent its 128 MiB output through the pool every call), so blocks up to
/// max_block are kept, at most max_bytes a thread (CuPy's and PyTorch's pools keep every freed
/// block); the oldest go back to the pool first. Reuse on the same stream is ordered after
/// every kernel that used the block, as the pool's own reuse is. Blocks on other streams are not
/// kept: a stream's handle may be reused after it is destroyed.
class block_cache {
 public:
  static constexpr std::size_t max_block = std::size_t(256) << 20, max_bytes = std::size_t(1) << 30,
                               max_blocks = 64;
  block_cache() = default;
  block_cache(const block_cache&) = delete;
  block_cache& operator=(const block_cache&) = delete;
  ~block_cache();

  void* take(int dev, std::size_t bytes) {
    for (std::size_t i = blocks_.size(); i-- > 0;)  // the newest first: likeliest still in L2
      if (blocks_[i].dev == dev && blocks_[i].bytes == bytes) {
        void* p = blocks_[i].ptr;
        forget(i);
        return p;
      }
    return nullptr;
  }
  bool put(int dev, void* p, std::size_t bytes) {
    if (bytes > max_block) return false;
    while (!blocks_.empty() && (blocks_.size() == max_blocks || cached_ + bytes > max_bytes))
      evict(0);
    blocks_.push_back({dev, bytes, p});
    cached_ += bytes;
    pool_of(dev).thread_cached.fetch_add(bytes);
    return true;
  }
  /// Returns the blocks of `dev` (-1: all) to the pool. Never throws.
  void release(int dev) noexcept {
    for (std::size_t i = blocks_.size(); i-- > 0;)
      if (dev < 0 || blocks_[i].dev == dev) evict(i);
  }
  std::size_t cached_bytes() const noexcept { return cached_; }

 private:
  struct entry {
    int dev;
    std::size_t bytes;
    void* ptr;
  };
  // Drops entry i from the list, keeping the others in age order.
  void forget(std::size_t i) noexcept {
    cached_ -= blocks_[i].bytes;
    pool_of(blocks_[i].dev).thread_cached.fetch_sub(blocks_[i].bytes);
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  void evict(std::size_t i) noexcept {
    const entry e = blocks_[i];
    forget(i);
    free_on(e.dev, e.ptr, cudaStreamPerThread);
  }
  std::vector<entry> blocks_;  // oldest first
  std::size_t cached_ = 0;
};
/// Set when this thread's cache is destroyed (a flag without a destructor stays readable).
inline thread_local bool thread_block_cache_gone = false;
inline block_cache::~block_cache() {
  release(-1);
  thread_block_cache_gone = true;
}
/// This thread's cache; nullptr once it is destroyed: at a thread's end (or the program's, for the
/// main thread) arrays held by objects destroyed after it, thread-local or static, are still freed,
/// and go straight back to the pool.
inline block_cache* thread_block_cache() {
  if (thread_block_cache_gone) return nullptr;
  thread_local block_cache cache;
  return &cache;
}
/// The cache for blocks of stream st: this thread's for its per-thread stream, none for others
/// (block_cache says why).
inline block_cache* block_cache_for(cudaStream_t st) {
  return st == cudaStreamPerThread ? thread_block_cache() : nullptr;
}

/// Counts `bytes` as newly in use by arrays.
inline void count_in_use(device_pool& p, std::size_t bytes) {
  const std::size_t now = p.used.fetch_add(bytes) + bytes;
  std::size_t seen = p.peak.load();
  while (now > seen && !p.peak.compare_exchange_weak(seen, now)) {
  }
}

inline std::string bytes_str(std::size_t b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu bytes (%.2f GiB)", b, double(b) / double(1ull << 30));
  return buf;
}

inline void* allocate(int dev, std::size_t bytes) {
  device_pool& p = pool_of(dev);
  const std::size_t lim = p.limit.load();
  if (lim && p.used.load() + bytes > lim)
    throw out_of_memory(bytes, lim - std::min(lim, p.used.load()),
                        "cuda:" + std::to_string(dev) + ": allocating " + bytes_str(bytes) +
                            " would exceed the limit of " + bytes_str(lim) +
                            " set by cunp::set_memory_limit (" + bytes_str(p.used.load()) + " in use)");
  const cudaStream_t st = current_stream(dev);
  if (block_cache* c = block_cache_for(st))
    if (void* cached = c->take(dev, bytes)) {
      count_in_use(p, bytes);
      return cached;
    }
  device_scope scope(dev);
  void* ptr = nullptr;
  cudaError_t err = cudaMallocFromPoolAsync(&ptr, bytes, p.pool, st);
  if (err == cudaErrorMemoryAllocation) {  // free the cache and retry once
    cudaGetLastError();
    if (block_cache* c = thread_block_cache()) c->release(dev);
    CUNP_CUDA_CHECK(cudaDeviceSynchronize());
    CUNP_CUDA_CHECK(cudaMemPoolTrimTo(p.pool, 0));
    err = cudaMallocFromPoolAsync(&ptr, bytes, p.pool, st);
  }
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw out_of_memory(bytes, free_b,
                        "cuda:" + std::to_string(dev) + ": out of memory allocating " +
                            bytes_str(bytes) + "; " + bytes_str(free_b) + " free of " +
                            bytes_str(total_b) + ", " + bytes_str(p.used.load()) +
                            " held by cunp arrays");
  }
  CUNP_CUDA_CHECK(err);
  count_in_use(p, bytes);
  return ptr;
}

inline void deallocate(int dev, void* ptr, std::size_t bytes) noexcept {
  pool_of(dev).used.fetch_sub(bytes);
  const cudaStream_t st = current_stream(dev);
  if (block_cache* c = block_cache_for(st))
    if (c->put(dev, ptr, bytes)) return;
  free_on(dev, ptr, st);
}

inline memory_info memory_stats(int dev) {
  device_pool& p = pool_of(dev);
  std::uint64_t reserved = 0, in_use = 0;
  CUNP_CUDA_CHECK(cudaMemPoolGetAttribute(p.pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  CUNP_CUDA_CHECK(cudaMemPoolGetAttribute(p.pool, cudaMemPoolAttrUsedMemCurrent, &in_use));
  const std::size_t pool_free = static_cast<std::size_t>(reserved - std::min(reserved, in_use));
  return {p.used.load(), pool_free + p.thread_cached.load(), p.peak.load(), p.limit.load()};
}

inline void empty_cache(int dev) {
  device_pool& p = pool_of(dev);
  // (other threads' caches stay, up to block_cache::max_bytes each)
  if (block_cache* c = thread_block_cache()) c->release(dev);
  device_scope scope(dev);
  CUNP_CUDA_CHECK(cudaDeviceSynchronize());
  CUNP_CUDA_CHECK(cudaMemPoolTrimTo(p.pool, 0));
}

inline void set_memory_limit(int dev, std::size_t bytes) { pool_of(dev).limit.store(bytes); }

}  // namespace cunp::detail::cuda
