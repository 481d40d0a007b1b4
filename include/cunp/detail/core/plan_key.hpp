// cunp/detail/core/plan_key.hpp: the key of a vendor-library plan, made of what decides the plan.
#pragma once
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace cunp::detail::core {

/// A family tag ("fft", "spmv", ...) then the integers and strings that decide a plan (dtype,
/// shape, strides, batch, axes), in the order the family adds them. The device is not part of it:
/// each device has its own cache. Nor is the stream: a plan is bound to a stream when it is used.
/// Each item is stored with a type byte, and strings and sequences with their length, so two
/// different sequences never have the same bytes.
class plan_key {
 public:
  explicit plan_key(std::string_view family) { add(family); }

  template <std::integral I> plan_key& add(I v) {
    put('i', static_cast<std::int64_t>(v));
    return *this;
  }
  plan_key& add(std::string_view s) {
    put('s', static_cast<std::int64_t>(s.size()));
    bytes_.append(s);
    return *this;
  }
  /// A sequence (a shape, strides, axes), its length first.
  template <class R>
    requires requires(const R& r) {
      { *std::begin(r) } -> std::convertible_to<std::int64_t>;
    }
  plan_key& add_all(const R& r) {
    put('n', static_cast<std::int64_t>(std::size(r)));
    for (const auto& v : r) put('i', static_cast<std::int64_t>(v));
    return *this;
  }

  friend bool operator==(const plan_key&, const plan_key&) = default;
  struct hash {
    std::size_t operator()(const plan_key& k) const noexcept {
      return std::hash<std::string>{}(k.bytes_);
    }
  };

 private:
  void put(char type, std::int64_t v) {
    bytes_.push_back(type);
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  std::string bytes_;
};

}  // namespace cunp::detail::core
