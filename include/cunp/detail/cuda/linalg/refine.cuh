// cunp/detail/cuda/linalg/refine.cuh: the CUDA backend of linalg::solve's mixed-precision mode
// (solve_options::refine): cuSOLVER's iterative-refinement solver, cusolverDnIRSXgesv, one call
// per matrix (cuSOLVER has no batched form), set to the rules of detail/linalg/refinement.hpp
// that the cpu reference repeats: classical refinement, cuSOLVER's default stopping test, the
// iteration cap set explicitly, the fallback to a full-precision solve on. Each call returns its
// iteration count to the host, so it waits for the device. A singular matrix (info > 0) reaches
// the host through the fault record, as solve's (solver_status.cuh); a stack where cuSOLVER fell
// back to the main precision, which reports none, is solved again by the plain solve.
#pragma once
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <map>
#include <string>
#include <utility>

#include "cunp/detail/cuda/core/cusolver.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/linalg/lu.cuh"
#include "cunp/detail/cuda/linalg/solver_status.cuh"
#include "cunp/detail/linalg/refinement.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// cuSOLVER's name of T as the solver's main (input and output) precision.
template <class T> constexpr cusolverPrecType_t irs_main_precision() {
  if constexpr (std::is_same_v<T, double>)
    return CUSOLVER_R_64F;
  else if constexpr (std::is_same_v<T, float>)
    return CUSOLVER_R_32F;
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return CUSOLVER_C_64F;
  else
    return CUSOLVER_C_32F;
}

/// cuSOLVER's name of the format `mode` factorises in (the solver's lowest precision).
inline cusolverPrecType_t irs_lowest_precision(refine mode, bool complex) {
  switch (mode) {
    case refine::fp16:
      return complex ? CUSOLVER_C_16F : CUSOLVER_R_16F;
    case refine::bf16:
      return complex ? CUSOLVER_C_16BF : CUSOLVER_R_16BF;
    case refine::tf32:
      return complex ? CUSOLVER_C_TF32 : CUSOLVER_R_TF32;
    default:
      return complex ? CUSOLVER_C_32F : CUSOLVER_R_32F;
  }
}

/// The calling thread's IRS parameters for a main and a lowest precision, made once: classical
/// refinement (GMRES refinement would take one right-hand side at a time and is not what the cpu
/// reference computes), the cap of refinement.hpp, the fallback to the main precision on (its
/// default, set so that no later default can change it), cuSOLVER's default tolerance.
inline cusolverDnIRSParams_t irs_params(cusolverPrecType_t main, cusolverPrecType_t lowest) {
  struct holder {
    std::map<std::pair<int, int>, cusolverDnIRSParams_t> made;
    holder() = default;
    holder(const holder&) = delete;
    holder& operator=(const holder&) = delete;
    ~holder() {
      for (const auto& entry : made) cusolverDnIRSParamsDestroy(entry.second);
    }
  };
  thread_local holder h;
  const auto key = std::make_pair(static_cast<int>(main), static_cast<int>(lowest));
  if (const auto it = h.made.find(key); it != h.made.end()) return it->second;
  cusolverDnIRSParams_t p = nullptr;
  CUNP_CUSOLVER_CHECK(cusolverDnIRSParamsCreate(&p));
  try {
    CUNP_CUSOLVER_CHECK(cusolverDnIRSParamsSetSolverPrecisions(p, main, lowest));
    CUNP_CUSOLVER_CHECK(cusolverDnIRSParamsSetRefinementSolver(p, CUSOLVER_IRS_REFINE_CLASSICAL));
    CUNP_CUSOLVER_CHECK(cusolverDnIRSParamsSetMaxIters(p, refine_max_iterations));
    CUNP_CUSOLVER_CHECK(cusolverDnIRSParamsEnableFallback(p));
  } catch (...) {
    cusolverDnIRSParamsDestroy(p);
    throw;
  }
  h.made.emplace(key, p);
  return p;
}

/// The record cuSOLVER keeps of one solve's iterations (cusolverDnIRSInfos_t), for one call.
class irs_infos {
 public:
  irs_infos() { CUNP_CUSOLVER_CHECK(cusolverDnIRSInfosCreate(&infos_)); }
  irs_infos(const irs_infos&) = delete;
  irs_infos& operator=(const irs_infos&) = delete;
  ~irs_infos() { cusolverDnIRSInfosDestroy(infos_); }
  [[nodiscard]] cusolverDnIRSInfos_t get() const noexcept { return infos_; }

 private:
  cusolverDnIRSInfos_t infos_ = nullptr;
};

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// x[z] = a[z]^-1 b[z] as solve_run, by cuSOLVER's refinement from a factorisation in `mode`'s
/// format (never refine::none), for a (batch, n, n) and b (batch, n, k) broadcast views and x
/// (batch, n, k) C-ordered. The solver reads column-major matrices and overwrites A when it
/// falls back, so A and B are copied transposed (a C-ordered A^T is A column-major); a single
/// right-hand side is written into x in place (an n x 1 C-ordered block is column-major too), k
/// of them into a transposed buffer copied back. Records the smallest iteration count in
/// last_refine().
template <class T>
void refine_solve_run(cuda_backend, const ndarray<T>& x, const ndarray<T>& a, const ndarray<T>& b,
                      refine mode) {
  const int nd = x.ndim();
  const index_t n = x.shape()[nd - 2], k = x.shape()[nd - 1], count = x.size() / (n * k);
  if (n > INT_MAX || k > INT_MAX)
    throw value_error("solve: refine takes at most 2147483647 rows and right-hand sides per "
                      "matrix on a GPU (cuSOLVER's 32-bit sizes), got " +
                      std::to_string(n) + " and " + std::to_string(k) + ": use refine::none");
  check_synchronize_allowed("solve with refine (cuSOLVER returns its iteration count to the host)");
  const int dev = x.device().index();
  const ndarray<T> at = swapaxes(a, -1, -2).copy();
  const ndarray<T> bt = swapaxes(b, -1, -2).copy();  // (batch, k, n): B column-major
  const ndarray<T> xt = k == 1 ? x : ndarray<T>(bt.shape(), x.device());
  const ndarray<int> info({count}, x.device());
  cuda::device_scope scope(dev);
  const cusolverDnHandle_t h = cuda::cusolver_handle(dev);
  const cusolverDnIRSParams_t params = cuda::irs_params(
      cuda::irs_main_precision<T>(), cuda::irs_lowest_precision(mode, is_complex_v<T>));
  const cuda::irs_infos infos;
  const int ni = static_cast<int>(n), ki = static_cast<int>(k);
  std::size_t bytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnIRSXgesv_bufferSize(h, params, ni, ki, &bytes));
  const cuda::workspace work(dev, bytes);
  int lowest = INT_MAX;
  for (index_t z = 0; z < count; ++z) {
    int iterations = 0;
    const cusolverStatus_t status = cusolverDnIRSXgesv(
        h, params, infos.get(), ni, ki, at.data() + z * n * n, ni, bt.data() + z * n * k, ni,
        xt.data() + z * n * k, ni, work.data(), bytes, &iterations, info.data() + z);
    // The solver has waited for the device already: a singular matrix it reports by status
    // rather than by info is NumPy's error at once.
    if (status == CUSOLVER_STATUS_IRS_MATRIX_SINGULAR) throw linalg_error("Singular matrix");
    cuda::check_cusolver(status, "cusolverDnIRSXgesv");
    lowest = std::min(lowest, iterations);
  }
  last_refine().min_iterations = lowest;
  if (lowest < 0) {
    // A negative count is cuSOLVER's fallback to the main precision, which reports no singular
    // matrix: an exactly singular one leaves info 0 and NaN in x (every format, cuSOLVER
    // 12.0.4 on an H100). The stack is solved again by the plain solve, which reports it as
    // NumPy does and returns what the fallback would.
    solve_run(cuda_backend{}, x, a, b);
    return;
  }
  if (k > 1) copyto<cuda_backend>(x, swapaxes(xt, -1, -2));
  cuda::report_linalg_failure(info, count, index_op::singular_matrix);
}

}  // namespace cunp::detail
