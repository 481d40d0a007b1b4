// cunp/detail/cpu/reduce/reduceat.hpp: the cpu backend of ufunc.reduceat (the GPU's:
// detail/cuda/reduce/reduceat.cuh), outputs over threads.
#pragma once
#include <cstdint>

#include "cunp/detail/reduce/reduceat.hpp"
#include "cunp/device.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

template <class R, class T>
void reduceat_run(host_backend, const ndarray<typename R::out>& out, const ndarray<T>& x,
                  const ndarray<std::int64_t>& idx, const reduceat_geometry& g, const R& r) {
  require_cpu_for(out.device(), "reduceat");
  typename R::out* o = out.data();
  const std::int64_t n = out.size();
#if defined(_OPENMP)
#pragma omp parallel for if (n >= (std::int64_t(1) << 16))
#endif
  for (std::int64_t e = 0; e < n; ++e) o[e] = reduceat_element(r, x.data(), idx.data(), g, e);
}

}  // namespace cunp::detail
