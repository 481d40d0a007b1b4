// cunp/detail/cuda/core/per_device.cuh: one object per visible GPU, made on first use.
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "cunp/detail/cuda/core/check.cuh"

namespace cunp::detail::cuda {

/// The GPUs the CUDA runtime sees (0 without a driver or a device), asked once: the runtime reads
/// CUDA_VISIBLE_DEVICES when it starts, so the count cannot change afterwards.
inline int device_count() {
  static const int n = [] {
    int c = 0;
    if (cudaGetDeviceCount(&c) != cudaSuccess) {
      cudaGetLastError();
      c = 0;
    }
    return c;
  }();
  return n;
}

/// Throws device_error unless `dev` is a visible GPU.
inline void check_device_index(int dev) {
  const int n = device_count();
  if (dev < 0 || dev >= n)
    throw device_error("cuda:" + std::to_string(dev) + " is not available: " + std::to_string(n) +
                       " CUDA device(s) found");
}

/// One T per visible GPU, made by make(dev) the first time get(dev) is called. Afterwards get
/// costs a bounds check and std::call_once's flag read: no lock on the hot path. A make that
/// throws leaves the slot empty, and the next get tries again. T need not be movable.
template <class T> class per_device {
 public:
  per_device() : n_(device_count()), slots_(std::make_unique<slot[]>(static_cast<std::size_t>(n_))) {}
  per_device(const per_device&) = delete;
  per_device& operator=(const per_device&) = delete;

  template <class Make> T& get(int dev, Make&& make) {
    if (dev < 0 || dev >= n_) check_device_index(dev);
    slot& s = slots_[dev];
    std::call_once(s.once, [&] { s.value.emplace(made_by<Make&>{make, dev}); });
    return *s.value;
  }

 private:
  // Lets emplace build T in place from make's result (guaranteed copy elision).
  template <class F> struct made_by {
    F make;
    int dev;
    operator T() const { return make(dev); }
  };
  struct slot {
    std::once_flag once;
    std::optional<T> value;
  };
  int n_;
  std::unique_ptr<slot[]> slots_;
};

}  // namespace cunp::detail::cuda
