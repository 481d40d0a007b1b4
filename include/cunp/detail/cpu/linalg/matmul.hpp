// cunp/detail/cpu/linalg/matmul.hpp: the cpu backend of matmul, the batched product every
// product in products.hpp reaches (cunp's own blocked kernel, gemm.hpp).
#pragma once
#include "cunp/detail/cpu/linalg/gemm.hpp"
#include "cunp/detail/linalg/gemm_problem.hpp"
#include "cunp/device.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// c = a @ b: a (batch, m, k) and b (batch, k, n) broadcast views, c (batch, m, n) C-ordered.
template <class T>
void matmul_run(host_backend, const ndarray<T>& c, const ndarray<T>& a, const ndarray<T>& b,
                matmul_precision precision) {
  require_cpu_for(c.device(), "matmul");
  cpu_linalg::gemm(make_gemm_problem(c, a, b, precision));
}

}  // namespace cunp::detail
