// cunp/device.hpp: devices (cpu, cuda(i)), the default device and the GPU runtime it reaches.
#pragma once
#include <charconv>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include "cunp/config.hpp"
#include "cunp/detail/core/runtime.hpp"
#include "cunp/errors.hpp"

namespace cunp {

/// Where an array lives: the host (the reference backend) or one CUDA GPU.
class device {
 public:
  enum class kind : std::uint8_t { cpu, cuda };
  constexpr device() = default;
  constexpr device(kind k, int index) : kind_(k), index_(k == kind::cpu ? 0 : index) {}
  [[nodiscard]] constexpr kind type() const { return kind_; }
  [[nodiscard]] constexpr int index() const { return index_; }
  [[nodiscard]] constexpr bool is_cpu() const { return kind_ == kind::cpu; }
  [[nodiscard]] constexpr bool is_cuda() const { return kind_ == kind::cuda; }
  /// "cpu" or "cuda:0", as CUNP_DEVICE spells them.
  [[nodiscard]] std::string str() const {
    return is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(index_);
  }
  friend constexpr bool operator==(device a, device b) {
    return a.kind_ == b.kind_ && a.index_ == b.index_;
  }
  friend std::ostream& operator<<(std::ostream& os, device d) { return os << d.str(); }

 private:
  kind kind_ = kind::cpu;
  int index_ = 0;
};

/// The host.
inline constexpr device cpu{};
/// The i-th CUDA GPU (checked when it is used).
[[nodiscard]] constexpr device cuda(int index = 0) { return device(device::kind::cuda, index); }

/// Number of usable GPUs: 0 when no translation unit of the program was compiled with nvcc, or
/// when the CUDA driver finds none.
[[nodiscard]] inline int cuda_device_count() {
  const auto* rt = detail::gpu();
  return rt ? rt->device_count() : 0;
}
/// True when at least one GPU can run cunp's CUDA code.
[[nodiscard]] inline bool cuda_available() { return cuda_device_count() > 0; }

namespace detail {
/// Throws device_error unless d can be used now.
inline void check_device(device d) {
  if (d.is_cpu()) return;
  if (!gpu())
    throw device_error(
        d.str() + " requested, but no translation unit of this program was compiled with nvcc: "
                  "compile one that includes <cunp/cunp.hpp> as CUDA, or use cunp::cpu");
  const int n = gpu()->device_count();
  if (d.index() < 0 || d.index() >= n)
    throw device_error(d.str() + " is not available: " + std::to_string(n) +
                       " CUDA device(s) found");
}

/// Throws device_error for an array on a GPU met by the cpu backend: a translation unit compiled
/// without nvcc, which has no CUDA kernels for `what` (the operation, as the message names it).
inline void require_cpu_for(device d, const std::string& what) {
  if (d.is_cuda())
    throw device_error(what + " on " + d.str() +
                       ": that takes CUDA kernels, but this translation unit was compiled without "
                       "nvcc: compile it as CUDA, or compute on cunp::cpu");
}

/// The one choice of backend for every operation that runs code on its data (docs/
/// architecture.md): f(cuda_backend{}) for data on a GPU in a translation unit that nvcc
/// compiled (Backend = compiled_backend there), else f(host_backend{}). The cpu backend then
/// computes on the host, or, meeting GPU data in a host-compiled translation unit, moves bytes
/// through the GPU runtime where that is all the operation does (copies, fills) and throws
/// require_cpu_for's device_error where it needs a typed kernel. So a CUDA overload is only ever
/// called with GPU data, and a public function makes this one call after its checks.
template <class Backend, class F> decltype(auto) dispatch(device d, F&& f) {
  if constexpr (std::is_same_v<Backend, cuda_backend>)
    if (d.is_cuda()) return std::forward<F>(f)(cuda_backend{});
  return std::forward<F>(f)(host_backend{});
}

/// Throws device_error naming both devices when an operation mixes them.
inline void check_same_device(device a, device b, const char* op) {
  if (!(a == b))
    throw device_error(std::string(op) + ": operands are on different devices, " + a.str() +
                       " and " + b.str() + "; move one with .to(device)");
}

/// Parses "cpu", "cuda", "cuda:N" (CUNP_DEVICE's syntax): N is decimal digits alone (no sign,
/// no space) that fit an int; anything else is value_error.
inline device parse_device(const std::string& s) {
  if (s == "cpu") return cpu;
  if (s == "cuda" || s == "gpu") return cuda(0);
  if (s.rfind("cuda:", 0) == 0 && s.size() > 5 &&
      s.find_first_not_of("0123456789", 5) == std::string::npos) {
    int index = 0;
    const auto [end, ec] = std::from_chars(s.data() + 5, s.data() + s.size(), index);
    if (ec == std::errc() && end == s.data() + s.size()) return cuda(index);
  }
  throw value_error("CUNP_DEVICE='" + s + "' is not a device: use cpu, cuda or cuda:N");
}

struct default_device_state {
  std::mutex mutex;
  std::optional<device> value;
};
inline default_device_state& default_device_slot() {
  static default_device_state s;
  return s;
}
}  // namespace detail

/// The device that creation functions use when none is given: CUNP_DEVICE when set, else cuda(0)
/// when a usable GPU exists, else cpu.
[[nodiscard]] inline device default_device() {
  auto& s = detail::default_device_slot();
  std::lock_guard lock(s.mutex);
  if (!s.value) {
    const char* env = std::getenv("CUNP_DEVICE");
    if (env && *env) {
      const device d = detail::parse_device(env);
      detail::check_device(d);
      s.value = d;
    } else {
      s.value = cuda_available() ? cuda(0) : cpu;
    }
  }
  return *s.value;
}

/// Makes d the default device of the process (checked now).
inline void set_default_device(device d) {
  detail::check_device(d);
  auto& s = detail::default_device_slot();
  std::lock_guard lock(s.mutex);
  s.value = d;
}

}  // namespace cunp
