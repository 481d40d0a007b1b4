// cunp/linalg.hpp: numpy.linalg's decompositions and solvers (the products are in products.hpp):
// det, slogdet, solve, inv, matrix_power. Batched over leading axes as NumPy; NumPy's dtypes
// (float32, float64, complex64, complex128; bool and integers computed in float64). Each is
// NumPy's checks and one backend call: cunp's own LU on the cpu (detail/cpu/linalg/lu.hpp),
// cuBLAS's batched and cuSOLVER's 64-bit LU on a GPU (detail/cuda/linalg/lu.cuh). solve's opt-in
// mixed-precision mode (solve_options::refine): detail/cpu/linalg/refine.hpp on the cpu,
// cuSOLVER's iterative-refinement solver on a GPU (detail/cuda/linalg/refine.cuh).
#pragma once
#include <string>
#include <type_traits>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/linalg/lu.hpp"
#include "cunp/detail/cpu/linalg/refine.hpp"
#include "cunp/detail/linalg/refinement.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/products.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::detail {

/// numpy.linalg's computation dtype of V (its _commonType): the four inexact types as they are,
/// bool and integers in float64. float16 and bfloat16, which numpy.linalg refuses, map to float
/// so that signatures form, and linalg_array's static_assert gives the message.
template <class V> struct linalg_type { using type = double; };
template <> struct linalg_type<float> { using type = float; };
template <> struct linalg_type<float16> { using type = float; };
template <> struct linalg_type<bfloat16> { using type = float; };
template <> struct linalg_type<std::complex<float>> { using type = std::complex<float>; };
template <> struct linalg_type<std::complex<double>> { using type = std::complex<double>; };
template <class V> using linalg_t = typename linalg_type<V>::type;

/// The computation dtype of numpy.linalg's functions of A's and B's elements.
template <class A, class B = A>
using linalg_result_t = result_type_t<linalg_t<input_t<A>>, linalg_t<input_t<B>>>;

#define CUNP_LINALG_DTYPE_MESSAGE                                                                \
  "numpy.linalg takes float32, float64, complex64, complex128, bool and integers (NumPy: "      \
  "TypeError: array type float16 is unsupported in linalg): convert with astype<float>()"

template <class R, class Backend, class A> ndarray<R> linalg_array(const A& a) {
  static_assert(!std::is_same_v<input_t<A>, float16> && !std::is_same_v<input_t<A>, bfloat16>,
                CUNP_LINALG_DTYPE_MESSAGE);
  return array_of<R, Backend>(a);
}

/// NumPy's _assert_stacked_2d and _assert_stacked_square.
inline void check_stacked_square(const shape_t& s) {
  if (s.size() < 2)
    throw linalg_error(std::to_string(s.size()) +
                       "-dimensional array given. Array must be at least two-dimensional");
  if (s[s.size() - 1] != s[s.size() - 2])
    throw linalg_error("Last 2 dimensions of the array must be square");
}

inline shape_t batch_of(const shape_t& s, std::size_t core) {
  return shape_t(s.begin(), s.end() - static_cast<std::ptrdiff_t>(core));
}
inline shape_t with_core(shape_t batch, std::initializer_list<index_t> core) {
  batch.insert(batch.end(), core);
  return batch;
}

/// inv's backend call where a backend has none of its own (the CUDA backend's getri route):
/// x = a^-1 by the solve against the identity.
template <class Be, class T> void inv_run(Be be, const ndarray<T>& x, const ndarray<T>& a) {
  solve_run(be, x, a, broadcast_to(eye<T>(x.shape().back(), none, 0, x.device()), x.shape()));
}

/// x = a^-1 b for a (..., n, n) and b (..., n, k) whose batches broadcast (b's checked here),
/// refined from a factorisation in `mode`'s format unless it is refine::none.
template <class Backend, class R>
ndarray<R> solve_matrices(const ndarray<R>& a, const ndarray<R>& b, const shape_t& batch,
                          refine mode = refine::none) {
  const index_t n = a.shape().back(), k = b.shape().back();
  ndarray<R> x(with_core(batch, {n, k}), a.device());
  if (x.size() == 0) return x;
  dispatch<Backend>(a.device(), [&](auto be) {
    const auto av = broadcast_to(a, with_core(batch, {n, n}));
    const auto bv = broadcast_to(b, with_core(batch, {n, k}));
    if (mode == refine::none) solve_run(be, x, av, bv);
    else refine_solve_run(be, x, av, bv, mode);
  });
  return x;
}

}  // namespace cunp::detail

namespace cunp::linalg {

/// linalg::solve's keywords beyond NumPy's: `solve(a, b, {.refine = cunp::refine::tf32})`.
struct solve_options {
  /// Factorise in a lower precision and refine the solution to the input's (cunp::refine).
  cunp::refine refine = cunp::refine::none;
};

/// numpy.linalg.slogdet's result: the sign (a unit-modulus complex for complex input; 0 for a
/// singular matrix) and the natural log of |det| (-inf for a singular matrix), of the batch's
/// shape.
template <class T> struct slogdet_result {
  ndarray<T> sign;
  ndarray<typename detail::complex_parts<T>::type> logabsdet;
};

/// numpy.linalg.slogdet(a): sign and log|det| of each matrix of a (..., n, n), from its LU
/// factorisation; robust where det over- or underflows.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] slogdet_result<R> slogdet(const A& a) {
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_square(x.shape());
  using P = typename detail::complex_parts<R>::type;
  const shape_t batch = detail::batch_of(x.shape(), 2);
  slogdet_result<R> r{ndarray<R>(batch, x.device()), ndarray<P>(batch, x.device())};
  if (x.shape().back() == 0) {  // the empty product: det 1
    r.sign.fill(R(1));
    r.logabsdet.fill(P(0));
  } else if (r.sign.size() > 0) {
    detail::dispatch<Backend>(x.device(), [&](auto be) { slogdet_run(be, r.sign, r.logabsdet, x); });
  }
  return r;
}

/// numpy.linalg.det(a): the determinant of each matrix of a (..., n, n), sign * exp(logabsdet)
/// as NumPy computes it.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<R> det(const A& a) {
  const auto r = slogdet<Backend, A, R>(a);
  return eval<Backend>(r.sign * exp(r.logabsdet));
}

/// numpy.linalg.solve(a, b): x with a @ x = b for each matrix of a (..., n, n); b is one vector
/// (n,) when 1-d (broadcast over a's batch), else matrices (..., n, k) whose batch broadcasts
/// with a's. A singular matrix raises linalg_error("Singular matrix"): on a GPU at the next wait
/// for the device (or the call itself under index_checking::eager), as a bad index does.
/// `{.refine = cunp::refine::tf32}` (or fp16, bf16, fp32) opts into a mixed-precision solve
/// (NumPy has none): each matrix factorised in that format, its solution refined to the input's
/// precision, a full-precision solve where refinement does not converge; the result's dtype and
/// accuracy are the plain solve's (a refined x has ||b - a x|| <= sqrt(n) u ||a|| ||x||, u the
/// dtype's unit roundoff: detail/linalg/refinement.hpp). On a GPU this is
/// cuSOLVER's iterative-refinement solver, one call per matrix, each waiting for the device
/// (allow_synchronize(false) refuses it). refine::fp32 takes float64 and complex128 alone.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::linalg_result_t<A, B>>
[[nodiscard]] ndarray<R> solve(const A& a, const B& b, const solve_options& options = {}) {
  detail::check_refine<R>(options.refine);
  const auto x = detail::linalg_array<R, Backend>(a);
  const auto y = detail::linalg_array<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "solve");
  detail::check_stacked_square(x.shape());
  const index_t n = x.shape().back();
  const shape_t xb = detail::batch_of(x.shape(), 2);
  const auto mismatch = [&](const char* name, const char* signature, index_t got) {
    return value_error(std::string(name) + ": Input operand 1 has a mismatch in its core "
                                           "dimension 0, with gufunc signature " +
                       signature + " (size " + std::to_string(got) + " is different from " +
                       std::to_string(n) + ")");
  };
  if (y.ndim() == 1) {
    if (y.shape()[0] != n) throw mismatch("solve1", "(m,m),(m)->(m)", y.shape()[0]);
    return detail::solve_matrices<Backend>(x, y.reshape({n, 1}), xb, options.refine)
        .reshape(detail::with_core(xb, {n}));
  }
  if (y.ndim() == 0)
    throw value_error("solve: Input operand 1 does not have enough dimensions (has 0, gufunc "
                      "core with signature (m,m),(m,n)->(m,n) requires 2)");
  if (y.shape()[y.ndim() - 2] != n) throw mismatch("solve", "(m,m),(m,n)->(m,n)", y.shape()[y.ndim() - 2]);
  const index_t k = y.shape().back();
  shape_t batch;
  try {
    batch = broadcast_shapes(xb, detail::batch_of(y.shape(), 2));
  } catch (const shape_error&) {
    throw shape_error(detail::remapped_error({{x.shape(), 2}, {y.shape(), 2}}, std::nullopt, {n, k}));
  }
  return detail::solve_matrices<Backend>(x, y, batch, options.refine);
}

/// numpy.linalg.inv(a): the inverse of each matrix of a (..., n, n) (solve against the identity);
/// a singular matrix raises linalg_error("Singular matrix") as solve's does.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<R> inv(const A& a) {
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_square(x.shape());
  ndarray<R> out(x.shape(), x.device());
  if (out.size() == 0) return out;
  detail::dispatch<Backend>(x.device(), [&](auto be) { inv_run(be, out, x); });
  return out;
}

/// numpy.linalg.matrix_power(a, n): a @ a @ ... (n times) for each matrix of a (..., m, m), by
/// NumPy's binary decomposition (the same products in the same order); n = 0 gives the identity,
/// n < 0 the power of inv(a). A negative power of an integer or bool array, float64 in NumPy, is
/// dtype_error here (the result dtype is the input's): convert with astype<double>() first.
template <class Backend = detail::compiled_backend, array_like A>
[[nodiscard]] auto matrix_power(const A& a, index_t n) {
  using T = detail::input_t<A>;
  ndarray<T> x = eval<Backend>(a);
  detail::check_stacked_square(x.shape());
  if (n == 0) return broadcast_to(eye<T>(x.shape().back(), none, 0, x.device()), x.shape()).copy();
  if (n < 0) {
    if constexpr (!is_floating_v<T> && !is_complex_v<T>) {
      throw dtype_error("matrix_power: a negative power of an integer or bool array is float64 "
                        "in NumPy; convert with astype<double>() first");
    } else {
      x = linalg::inv<Backend>(x);
      n = -n;
    }
  }
  if (n == 1) return x.copy();
  const auto mm = [](const ndarray<T>& p, const ndarray<T>& q) {
    return detail::matmul_arrays<Backend, T>(p, q, std::nullopt);
  };
  if (n == 2) return mm(x, x);
  if (n == 3) return mm(mm(x, x), x);
  ndarray<T> z, result;
  bool have_z = false, have_result = false;
  for (; n > 0; n /= 2) {
    z = have_z ? mm(z, z) : x;
    have_z = true;
    if (n % 2 == 1) {
      result = have_result ? mm(result, z) : z;
      have_result = true;
    }
  }
  return result;
}

}  // namespace cunp::linalg

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/linalg/lu.cuh"
#include "cunp/detail/cuda/linalg/refine.cuh"
#endif

// The rest of numpy.linalg, which builds on this header: <cunp/linalg.hpp> gives all of it.
#include "cunp/decompositions.hpp"
