// cunp/detail/linalg/refinement.hpp: linalg::solve's opt-in mixed-precision solve as both
// backends receive it: the modes (cunp::refine), which computation dtypes each takes, and the
// rules of cuSOLVER's iterative-refinement solver (IRS) that the GPU sets and the cpu reference
// repeats: classical refinement, the stopping test, the iteration cap, the fallback to a full
// precision solve. Each matrix is factorised once in the low format, then its solution is refined
// with residuals computed in the input's precision until the stopping test passes; a matrix whose
// refinement does not pass it within the cap is solved again in full precision.
#pragma once
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>

#include "cunp/dtype.hpp"
#include "cunp/errors.hpp"
#include "cunp/shape.hpp"

namespace cunp {

/// The format linalg::solve factorises in (linalg::solve_options::refine). `none`, the default,
/// is the plain solve, in the input's precision. The others factorise the matrix with its entries
/// rounded to the format (float32; TF32: 10 mantissa bits and float32's range; bfloat16: 7 bits
/// and float32's range; float16: 10 bits and a range of +-65504) and refine the solution to the
/// input's precision. float64 and complex128 take every mode, float32 and complex64 all but fp32.
enum class refine { none, fp32, tf32, bf16, fp16 };

}  // namespace cunp

namespace cunp::detail {

inline const char* refine_name(refine mode) {
  switch (mode) {
    case refine::none:
      return "refine::none";
    case refine::fp32:
      return "refine::fp32";
    case refine::tf32:
      return "refine::tf32";
    case refine::bf16:
      return "refine::bf16";
    case refine::fp16:
      return "refine::fp16";
  }
  return "refine";
}

/// The refinement iterations allowed per matrix before the full-precision fallback: cuSOLVER
/// IRS's default (cusolverDnIRSParamsSetMaxIters), which the GPU sets explicitly.
inline constexpr int refine_max_iterations = 50;

/// Why a refinement gave up (its iteration count, negative; the solution then comes from the
/// full-precision solve). The cpu reference's codes, after LAPACK's dsgesv (-2, -3, and
/// -(cap + 1)); cuSOLVER's niters is negative in the same cases, with codes of its own.
enum refine_failure : int {
  refine_overflow = -2,      ///< an entry overflowed the low format (float16 past 65504)
  refine_low_singular = -3,  ///< the low-format LU met an exactly zero pivot
  refine_not_finite = -4,    ///< a residual or a correction became inf or NaN
  refine_not_converged = -(refine_max_iterations + 1),  ///< the cap was reached
};

/// Throws value_error unless `mode` applies to a solve computed in T: fp32 refines to float64,
/// so float32 and complex64 input (the factorisation's precision already) do not take it.
template <class T> void check_refine(refine mode) {
  using P = typename complex_parts<T>::type;
  if (mode == refine::fp32 && std::is_same_v<P, float>)
    throw value_error("solve: refine::fp32 factorises in float32, the precision of " +
                      std::string(dtype_name_v<T>) +
                      " input already: use refine::tf32, refine::bf16 or refine::fp16, or "
                      "convert the operands to float64 or complex128");
}

/// The stopping test of the refinement (cuSOLVER IRS's default tolerance, LAPACK dsgesv's): each
/// column c of the residual R = B - A X passes when ||R_c||_inf <= sqrt(n) ||A||_inf eps
/// ||X_c||_inf, eps being LAPACK's xLAMCH('Epsilon') of T's precision (half the spacing at 1:
/// 2^-53 for float64, 2^-24 for float32). This is the factor before ||X_c||_inf. A NaN fails.
template <class T> double refine_tolerance(index_t n, double anrm) {
  using P = typename complex_parts<T>::type;
  return std::sqrt(static_cast<double>(n)) * anrm * (std::numeric_limits<P>::epsilon() / 2);
}

/// What this thread's last refined solve did: the smallest iteration count among the matrices of
/// its batch (negative: at least one fell back to the full-precision solve). The tests check
/// with it that a well-conditioned system was refined and an ill-conditioned one fell back; the
/// benchmarks report it.
struct refine_report {
  int min_iterations = 0;
};
inline refine_report& last_refine() {
  thread_local refine_report r;
  return r;
}

}  // namespace cunp::detail
