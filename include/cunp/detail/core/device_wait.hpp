// cunp/detail/core/device_wait.hpp: the one way host code waits for a GPU. Besides waiting, each
// wait raises the bad index that an index kernel queued before it recorded (detail/indexing/
// fault.hpp): so such an error surfaces at the first wait after the call that made it, as an
// exception naming the call, without a copy on a wait that follows no index kernel.
#pragma once
#include <vector>

#include "cunp/detail/indexing/fault.hpp"
#include "cunp/memory.hpp"

namespace cunp::detail {

/// A stream of a device on which this thread queued index kernels whose fault record it has not
/// read since (nullptr: the per-thread default stream).
struct armed_stream {
  int dev;
  void* stream;
};
inline std::vector<armed_stream>& armed_streams() {
  thread_local std::vector<armed_stream> armed;
  return armed;
}

/// Notes that an index kernel that may record a fault was queued on `stream` of `dev`.
inline void arm_index_faults(int dev, void* stream) {
  auto& armed = armed_streams();
  for (const armed_stream& a : armed)
    if (a.dev == dev && a.stream == stream) return;
  armed.push_back({dev, stream});
}

/// What a finished wait covered: the work queued on one stream, all the work of the device, or
/// the work before an event (recorded on a stream not known here: the record is read, but no
/// stream counts as checked).
enum class waited : std::uint8_t { stream, device, event };

/// Called after a wait for `dev` that covered `what` (`stream`: the stream waited for): throws
/// the pending index fault of the device, if a covered stream queued index kernels since its
/// last check. Costs nothing else: no copy unless such a stream is armed.
inline void raise_pending_index_fault(device dev, waited what, void* stream = nullptr) {
  auto& armed = armed_streams();
  if (armed.empty() || !dev.is_cuda()) return;
  bool covered = false;
  for (std::size_t i = 0; i < armed.size();) {
    const armed_stream a = armed[i];
    const bool here = a.dev == dev.index() && (what != waited::stream || a.stream == stream);
    covered = covered || here;
    if (here && what != waited::event) {
      armed[i] = armed.back();
      armed.pop_back();
    } else {
      ++i;
    }
  }
  if (!covered) return;
  index_fault f{};
  if (gpu()->take_index_fault(dev.index(), &f)) throw_index_fault(f);
}

/// Waits for the calling thread's current stream of `dev` (named `what` when
/// allow_synchronize(false) refuses the wait), then raises a pending index fault. A no-op on the
/// cpu.
inline void wait_for_device(device dev, const char* what) {
  if (!dev.is_cuda()) return;
  check_synchronize_allowed(what);
  void* s = stream_for(dev.index());
  gpu()->stream_synchronize(dev.index(), s);
  raise_pending_index_fault(dev, waited::stream, s);
}

}  // namespace cunp::detail
