// cunp/detail/cuda/core/plan_cache.cuh: the plan cache of each GPU, shared by every family.
#pragma once
#include <cstddef>
#include <memory>

#include "cunp/detail/core/lru_cache.hpp"
#include "cunp/detail/core/plan_key.hpp"
#include "cunp/detail/cuda/core/per_device.cuh"

namespace cunp::detail::cuda {

using plan_cache = core::lru_cache<core::plan_key, void, core::plan_key::hash>;

// The default bounds. Entries: CuPy keeps 16 FFT plans per device; cunp's one cache holds the
// plans and descriptors of four families (FFT, sparse, cuBLASLt matmuls, solvers), so 4 x 16.
// Bytes: an eighth of the device's memory, so that plans' work areas never take more than a
// small share of what arrays could use, on any GPU, however many plans fit the count.
inline constexpr std::size_t default_plan_entries = 64;
inline constexpr std::size_t default_plan_bytes_divisor = 8;

/// The plan cache of `dev`: one per process and device, like its memory pool.
inline plan_cache& plan_cache_of(int dev) {
  static per_device<plan_cache> caches;
  return caches.get(dev, [](int d) {
    device_scope scope(d);
    std::size_t free_b = 0, total_b = 0;
    CUNP_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return plan_cache(default_plan_entries, total_b / default_plan_bytes_divisor);
  });
}

/// The plan of `key` on `dev` as a Plan, made by make() (returning core::sized<Plan>) on a miss.
/// The family tag that starts the key names Plan: one tag, one plan type. The plan stays alive
/// while the caller holds it, evicted or not.
template <class Plan, class Make>
std::shared_ptr<Plan> cached_plan(int dev, const core::plan_key& key, Make&& make) {
  return std::static_pointer_cast<Plan>(plan_cache_of(dev).lookup_or_make(key, [&] {
    core::sized<Plan> made = make();
    return core::sized<void>{std::move(made.value), made.bytes};
  }));
}

/// Sets the bounds of `dev`'s plan cache (tests; a later public setting), evicting beyond them.
inline void set_plan_cache_limits(int dev, std::size_t max_entries, std::size_t max_bytes) {
  plan_cache_of(dev).set_limits(max_entries, max_bytes);
}

inline plan_cache_stats plan_cache_info(int dev) { return plan_cache_of(dev).stats(); }
inline void clear_plan_cache(int dev) { plan_cache_of(dev).clear(); }

}  // namespace cunp::detail::cuda
