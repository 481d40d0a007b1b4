// cunp/detail/cpu/core/cast.hpp: the cpu backend of astype / copyto between dtypes (the CUDA one is
// detail/cuda/core/cast.cuh).
#pragma once
#include <string>
#include <type_traits>

#include "cunp/detail/core/copy.hpp"
#include "cunp/detail/cpu/core/loops.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// The cpu backend's astype/copyto cast; a GPU array here needs a translation unit built by nvcc.
template <class To, class From>
void cast_into(host_backend, const ndarray<To>& dst, const ndarray<From>& src) {
  check_same_device(dst.device(), src.device(), "astype");
  if constexpr (std::is_same_v<To, From>) {
    copy_same(dst, src);
  } else {
    require_cpu_for(dst.device(), "casting " + std::string(dtype_name_v<From>) + " to " +
                                      std::string(dtype_name_v<To>));
    host::map_strided(dst.data(), src.data(), pair_layout(dst, src),
                     [](const From& v) { return convert<To>(v); });
  }
}

}  // namespace cunp::detail
