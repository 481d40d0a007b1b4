// cunp/detail/cuda/core/library_handle.cuh: a CUDA library's handle for each host thread and GPU.
#pragma once
#include <cstddef>
#include <vector>

#include "cunp/detail/cuda/core/per_device.cuh"
#include "cunp/detail/cuda/core/teardown.cuh"

namespace cunp::detail::cuda {

/// A library whose handle is bound to a stream (cuBLAS, cuSOLVER, cuSPARSE; cuBLASLt takes the
/// stream at each call instead).
template <class Lib>
concept stream_bound = requires(typename Lib::handle h, cudaStream_t s) { Lib::bind(h, s); };

/// The handles of one library (Lib: `handle`, create() with the device current, which also sets
/// the math mode, bind(handle, stream) where the library has one, destroy(handle) noexcept) that
/// one host thread uses, one per GPU. Handles are per thread because the libraries' handles are
/// not safe to share between threads, and binding a shared one to each caller's stream would race.
template <class Lib> class thread_handles {
 public:
  thread_handles() : slots_(static_cast<std::size_t>(device_count())) {}
  thread_handles(const thread_handles&) = delete;
  thread_handles& operator=(const thread_handles&) = delete;
  ~thread_handles() {
    for (std::size_t dev = 0; dev < slots_.size(); ++dev) {
      if (!slots_[dev].made) continue;
      teardown_scope scope(static_cast<int>(dev));
      if (scope.alive()) Lib::destroy(slots_[dev].h);
    }
  }

  /// The handle of `dev`, made on first use, bound to the thread's current stream of `dev` (a
  /// SetStream call only when that stream changed since the last use).
  typename Lib::handle get(int dev) {
    if (dev < 0 || static_cast<std::size_t>(dev) >= slots_.size()) check_device_index(dev);
    slot& s = slots_[dev];
    if (!s.made) {
      device_scope scope(dev);
      s.h = Lib::create();
      s.made = true;
    }
    if constexpr (stream_bound<Lib>) {
      const cudaStream_t st = current_stream(dev);
      if (!s.bound || st != s.stream) {
        Lib::bind(s.h, st);
        s.stream = st;
        s.bound = true;
      }
    }
    return s.h;
  }

 private:
  struct slot {
    typename Lib::handle h{};
    cudaStream_t stream = nullptr;
    bool made = false, bound = false;
  };
  std::vector<slot> slots_;
};

/// The calling thread's handle of Lib on `dev`. Destroyed when the thread ends (the main thread's
/// at exit, before static objects and CUDA's own teardown).
template <class Lib> typename Lib::handle thread_handle(int dev) {
  thread_local thread_handles<Lib> handles;
  return handles.get(dev);
}

}  // namespace cunp::detail::cuda
