// cunp/detail/cpu/creation/generate.hpp: the cpu backend of the index rules arange and linspace
// fill arrays with (the CUDA one is detail/cuda/creation/generate.cuh).
#pragma once

#include "cunp/detail/core/copy.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// Writes rule(i) into the C-ordered array a on the cpu (the reference for the CUDA kernel).
template <class T, class Rule> void generate(host_backend, const ndarray<T>& a, const Rule& rule) {
  if (a.device().is_cuda()) {  // no kernel in a host-compiled TU: build on the host and upload
    ndarray<T> h(a.shape(), cpu);
    generate(host_backend{}, h, rule);
    copy_same(a, h.to(a.device()));
    return;
  }
  T* p = a.data();
  for (index_t i = 0, n = a.size(); i < n; ++i) p[i] = rule(i);
}

}  // namespace cunp::detail
