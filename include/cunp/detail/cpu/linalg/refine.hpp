// cunp/detail/cpu/linalg/refine.hpp: the cpu backend of linalg::solve's mixed-precision mode
// (solve_options::refine), the algorithm of cuSOLVER's iterative-refinement solver written
// plainly (detail/linalg/refinement.hpp has its rules): A rounded to the mode's format and
// factorised in float32 (complex64 for complex input) by lu.hpp's LU; the first solution and each
// correction from those factors in float32; residuals B - A X and the updates X += D in the
// input's precision; the stopping test and cap of cuSOLVER IRS; a full-precision LU solve for a
// matrix whose refinement gives up. OpenMP across the matrices of a batch, or inside the LU of one.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/linalg/gemm.hpp"
#include "cunp/detail/cpu/linalg/lu.hpp"
#include "cunp/detail/linalg/gemm_problem.hpp"
#include "cunp/detail/linalg/refinement.hpp"
#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/errors.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cpu_linalg {

/// The type the low-format factors and the corrections are held in: float32 or complex64.
template <class T>
using refine_low_t = std::conditional_t<is_complex_v<T>, std::complex<float>, float>;

/// v rounded to the mode's format, held in float32 (through float32 first, as the GPU converts
/// float64 input); an entry past the format's range becomes inf.
inline float to_refine_format(double v, refine mode) {
  const auto f = static_cast<float>(v);
  switch (mode) {
    case refine::tf32:
      return to_tf32(f);
    case refine::bf16:
      return static_cast<float>(bfloat16(f));
    case refine::fp16:
      return static_cast<float>(float16(f));
    default:
      return f;
  }
}
template <class T> refine_low_t<T> to_refine_low(const T& v, refine mode) {
  if constexpr (is_complex_v<T>)
    return {to_refine_format(v.real(), mode), to_refine_format(v.imag(), mode)};
  else
    return to_refine_format(v, mode);
}

template <class T> bool is_finite_value(const T& v) {
  if constexpr (is_complex_v<T>)
    return std::isfinite(v.real()) && std::isfinite(v.imag());
  else
    return std::isfinite(v);
}

/// One thread's buffers, kept across the matrices of a batch.
template <class T> struct refine_buffers {
  using L = refine_low_t<T>;
  std::vector<T> a, b, r, full;
  std::vector<L> lu, d;
  std::vector<index_t> piv;
  std::vector<double> xnrm;
};

/// X (n x k, row-major, written) with A X = B for the row-major n x n A and n x k B in w.a and
/// w.b, refined from the low-format factors. Returns the refinement's iteration count, or a
/// refine_failure (negative) when it fell back to the full-precision LU; sets `singular` when
/// that LU met an exactly zero pivot (X is then not written).
template <class T>
int refine_matrix(refine_buffers<T>& w, index_t n, index_t k, T* x, refine mode, bool parallel,
                  bool& singular) {
  using L = refine_low_t<T>;
  const std::size_t nn = static_cast<std::size_t>(n * n), nk = static_cast<std::size_t>(n * k);
  const T* a = w.a.data();
  const T* b = w.b.data();
  w.lu.resize(nn);
  w.d.resize(nk);
  w.r.resize(nk);
  w.piv.resize(static_cast<std::size_t>(n));
  w.xnrm.resize(static_cast<std::size_t>(k));
  // A into the mode's format, right-hand sides and residuals into float32 (only the factors are
  // in the low format); an overflow (float16 past 65504, float32 past 3.4e38) or an entry that is
  // already inf or NaN cannot be refined.
  const auto lower = [&](const T* src, L* dst, std::size_t count, refine format) {
    bool finite = true;
    for (std::size_t i = 0; i < count; ++i) {
      dst[i] = to_refine_low(src[i], format);
      finite = finite && is_finite_value(dst[i]);
    }
    return finite;
  };
  const auto fallback = [&](int why) {
    w.full.assign(w.a.begin(), w.a.begin() + static_cast<std::ptrdiff_t>(nn));
    if (lu_factor(w.full.data(), n, w.piv.data(), parallel) > 0) {
      singular = true;
      return why;
    }
    std::copy(b, b + nk, x);
    lu_solve(w.full.data(), w.piv.data(), n, x, k);
    return why;
  };
  double anrm = 0;
  for (index_t i = 0; i < n; ++i) {
    double row = 0;
    for (index_t j = 0; j < n; ++j) row += std::abs(a[i * n + j]);
    anrm = std::max(anrm, row);
  }
  const double cte = refine_tolerance<T>(n, anrm);
  if (!lower(a, w.lu.data(), nn, mode)) return fallback(refine_overflow);
  if (lu_factor(w.lu.data(), n, w.piv.data(), parallel) > 0) return fallback(refine_low_singular);
  // The low-precision solution, then corrections of it.
  if (!lower(b, w.d.data(), nk, refine::fp32)) return fallback(refine_overflow);
  lu_solve(w.lu.data(), w.piv.data(), n, w.d.data(), k);
  for (std::size_t i = 0; i < nk; ++i) x[i] = static_cast<T>(w.d[i]);
  for (int it = 0;; ++it) {
    T* r = w.r.data();
#pragma omp parallel for schedule(static) if (parallel && n * n * k >= (1 << 18))
    for (index_t i = 0; i < n; ++i) {
      T* ri = r + i * k;
      std::copy(b + i * k, b + (i + 1) * k, ri);
      for (index_t j = 0; j < n; ++j) {
        const T aij = a[i * n + j];
        const T* xj = x + j * k;
        for (index_t c = 0; c < k; ++c) ri[c] -= aij * xj[c];
      }
    }
    bool converged = true, finite = true;
    for (index_t c = 0; c < k; ++c) {
      double rnrm = 0, xnrm = 0;
      for (index_t i = 0; i < n; ++i) {
        rnrm = std::max<double>(rnrm, std::abs(r[i * k + c]));
        xnrm = std::max<double>(xnrm, std::abs(x[i * k + c]));
      }
      finite = finite && std::isfinite(rnrm) && std::isfinite(xnrm);
      converged = converged && rnrm <= cte * xnrm;
    }
    if (!finite) return fallback(refine_not_finite);
    if (converged) return it;
    if (it == refine_max_iterations) return fallback(refine_not_converged);
    if (!lower(r, w.d.data(), nk, refine::fp32)) return fallback(refine_overflow);
    lu_solve(w.lu.data(), w.piv.data(), n, w.d.data(), k);
    for (std::size_t i = 0; i < nk; ++i) x[i] += static_cast<T>(w.d[i]);
  }
}

}  // namespace cunp::detail::cpu_linalg

namespace cunp::detail {

/// x[z] = a[z]^-1 b[z] as solve_run, by refinement from a factorisation in `mode`'s format
/// (never refine::none), for a (batch, n, n) and b (batch, n, k) broadcast views and x (batch, n,
/// k) C-ordered. A singular matrix throws NumPy's LinAlgError at once. Records the smallest
/// iteration count in last_refine().
template <class T>
void refine_solve_run(host_backend, const ndarray<T>& x, const ndarray<T>& a, const ndarray<T>& b,
                      refine mode) {
  require_cpu_for(a.device(), "solve");
  const auto p = make_gemm_problem(x, a, b, matmul_precision::highest);
  const index_t n = p.m, k = p.n, count = p.batch_count();
  bool singular = false;
  int lowest = std::numeric_limits<int>::max();
#pragma omp parallel if (count > 1)
  {
    cpu_linalg::refine_buffers<T> w;
    w.a.resize(static_cast<std::size_t>(n * n));
    w.b.resize(static_cast<std::size_t>(n * k));
#pragma omp for schedule(dynamic) reduction(min : lowest)
    for (index_t z = 0; z < count; ++z) {
      cpu_linalg::gather_matrix(p.a, p.batch, z, n, n, w.a.data());
      cpu_linalg::gather_matrix(p.b, p.batch, z, n, k, w.b.data());
      bool bad = false;
      T* xz = p.c.data + batch_offset(p.batch, p.c.batch, z);
      lowest = std::min(lowest, cpu_linalg::refine_matrix(w, n, k, xz, mode, count == 1, bad));
      if (bad) {
#pragma omp atomic write
        singular = true;
      }
    }
  }
  last_refine().min_iterations = lowest;
  if (singular) throw linalg_error("Singular matrix");
}

}  // namespace cunp::detail
