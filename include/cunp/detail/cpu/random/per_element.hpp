// cunp/detail/cpu/random/per_element.hpp: the cpu backend of the per-element draws
// (detail/random/per_element.hpp): each element from its own stream, so the elements are
// independent and split over OpenMP threads; the reference the CUDA backend
// (detail/cuda/random/per_element.cuh) matches bit for bit.
#pragma once
#include <cstdint>

#include "cunp/detail/random/per_element.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// out[i] = rule.value(stream of element i under key (k0, k1)) over the C-contiguous `out`.
template <class T, class Rule>
void random_each(host_backend, const ndarray<T>& out, std::uint64_t k0, std::uint64_t k1,
                 const Rule& rule) {
  require_cpu_for(out.device(), "a random fill");
  T* o = out.data();
  const std::int64_t n = out.size();
#if defined(_OPENMP)
#pragma omp parallel for schedule(static) if (n >= (std::int64_t(1) << 12))
#endif
  for (std::int64_t i = 0; i < n; ++i) {
    element_stream s{k0, k1, std::uint64_t(i)};
    o[i] = static_cast<T>(rule.value(s));
  }
}

}  // namespace cunp::detail
