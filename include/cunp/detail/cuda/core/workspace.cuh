// cunp/detail/cuda/core/workspace.cuh: scratch device memory for one call, from the pool.
#pragma once
#include <cstddef>

#include "cunp/detail/cuda/core/pool.cuh"

namespace cunp::detail::cuda {

/// `bytes` of device memory from dev's stream-ordered pool, taken on the calling thread's current
/// stream and freed on that stream when the scope ends: work queued on the stream before the end
/// of the scope may still use it, and the pool hands it out again only after that work. The
/// scope must not change the current stream in between. At least one byte is taken, so that
/// data() is never null (CUB reads null storage as a size query).
class workspace {
 public:
  workspace(int dev, std::size_t bytes)
      : dev_(dev), bytes_(bytes > 0 ? bytes : 1), ptr_(allocate(dev, bytes_)) {}
  workspace(const workspace&) = delete;
  workspace& operator=(const workspace&) = delete;
  ~workspace() { deallocate(dev_, ptr_, bytes_); }

  [[nodiscard]] void* data() const noexcept { return ptr_; }
  [[nodiscard]] std::size_t size() const noexcept { return bytes_; }

 private:
  int dev_;
  std::size_t bytes_;
  void* ptr_;
};

/// A CUB two-phase call: f(void* temp, std::size_t& bytes) -> cudaError_t, queued on the current
/// stream of `dev`, is called once with null storage (CUB's size query) and once with a
/// workspace of the size it asked for. `name` names the call in errors.
template <class F> void cub_call(int dev, const char* name, F&& f) {
  std::size_t bytes = 0;
  check(f(static_cast<void*>(nullptr), bytes), name);
  const workspace temp(dev, bytes);
  check(f(temp.data(), bytes), name);
}

}  // namespace cunp::detail::cuda
