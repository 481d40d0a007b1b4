// cunp/stream.hpp: streams, events and synchronisation (mirrors cupy.cuda.Stream / Event).
#pragma once
#include <utility>

#include "cunp/detail/core/device_wait.hpp"
#include "cunp/memory.hpp"

namespace cunp {

/// Waits until all work queued on `dev` has finished (a no-op on the cpu).
inline void synchronize(device dev = default_device()) {
  detail::check_device(dev);
  if (dev.is_cpu()) return;
  detail::check_synchronize_allowed("cunp::synchronize");
  detail::gpu()->synchronize(dev.index());
  detail::raise_pending_index_fault(dev, detail::waited::device);
}

/// allow_synchronize(false) makes every call that would wait for the GPU on this thread throw
/// device_error (cupyx.allow_synchronize), to find hidden waits in a hot loop.
inline void allow_synchronize(bool allowed) { detail::synchronize_allowed() = allowed; }

/// A non-blocking CUDA stream (RAII). Make it current with stream_guard.
class stream {
 public:
  explicit stream(device dev = default_device()) : dev_(dev) {
    detail::check_device(dev);
    if (dev.is_cpu()) throw device_error("cunp::stream: the cpu has no streams; use cuda(i)");
    handle_ = detail::gpu()->stream_create(dev.index());
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  stream(stream&& o) noexcept : dev_(o.dev_), handle_(std::exchange(o.handle_, nullptr)) {}
  ~stream() {
    if (handle_) detail::gpu()->stream_destroy(dev_.index(), handle_);
  }
  /// Waits for the work queued on this stream.
  void synchronize() const {
    detail::check_synchronize_allowed("cunp::stream::synchronize");
    detail::gpu()->stream_synchronize(dev_.index(), handle_);
    detail::raise_pending_index_fault(dev_, detail::waited::stream, handle_);
  }
  [[nodiscard]] device dev() const { return dev_; }
  /// The cudaStream_t, for calling CUDA libraries on it.
  [[nodiscard]] void* handle() const { return handle_; }

 private:
  device dev_;
  void* handle_ = nullptr;
};

/// Makes `s` the current stream of this thread for its device within a scope.
class stream_guard {
 public:
  explicit stream_guard(const stream& s) : saved_(detail::current_stream()) {
    detail::current_stream() = {s.dev().index(), s.handle()};
  }
  stream_guard(const stream_guard&) = delete;
  stream_guard& operator=(const stream_guard&) = delete;
  ~stream_guard() { detail::current_stream() = saved_; }

 private:
  detail::current_stream_state saved_;
};

/// A CUDA event with timing (RAII), recorded on the current stream.
class event {
 public:
  explicit event(device dev = default_device()) : dev_(dev) {
    detail::check_device(dev);
    if (dev.is_cpu()) throw device_error("cunp::event: the cpu has no events; use cuda(i)");
    handle_ = detail::gpu()->event_create(dev.index());
  }
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  event(event&& o) noexcept : dev_(o.dev_), handle_(std::exchange(o.handle_, nullptr)) {}
  ~event() {
    if (handle_) detail::gpu()->event_destroy(dev_.index(), handle_);
  }
  /// Records the event on the calling thread's current stream of its device.
  void record() { detail::gpu()->event_record(dev_.index(), handle_, detail::stream_for(dev_.index())); }
  /// Records the event on `s`.
  void record(const stream& s) { detail::gpu()->event_record(dev_.index(), handle_, s.handle()); }
  /// Waits until the work before the record has finished.
  void synchronize() const {
    detail::check_synchronize_allowed("cunp::event::synchronize");
    detail::gpu()->event_synchronize(handle_);
    detail::raise_pending_index_fault(dev_, detail::waited::event);
  }
  /// Milliseconds between two recorded events (cudaEventElapsedTime).
  [[nodiscard]] static float elapsed_ms(const event& start, const event& end) {
    return detail::gpu()->event_elapsed_ms(start.handle_, end.handle_);
  }
  [[nodiscard]] void* handle() const { return handle_; }

 private:
  device dev_;
  void* handle_ = nullptr;
};

}  // namespace cunp
