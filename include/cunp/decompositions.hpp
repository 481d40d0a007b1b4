// cunp/decompositions.hpp: numpy.linalg's matrix decompositions: cholesky, qr (and its raw form),
// eigh, eigvalsh, svd, svdvals, eig, eigvals. Batched over leading axes, NumPy's dtypes
// (linalg.hpp's rules), NumPy's checks and errors, each one backend call: cunp's own kernels on the
// cpu (detail/cpu/linalg/decompositions.hpp), cuSOLVER on a GPU (detail/cuda/linalg/
// decompositions.cuh). Every routine computes in the input's precision (NumPy computes float32
// and complex64 in double and rounds the result: docs/differences.md).
#pragma once
#include <algorithm>
#include <string>
#include <string_view>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/linalg/decompositions.hpp"
#include "cunp/indexing.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/sort.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::detail {

template <class T> using linalg_real_t = typename complex_parts<T>::type;

/// NumPy's _assert_stacked_2d.
inline void check_stacked_2d(const shape_t& s) {
  if (s.size() < 2)
    throw linalg_error(std::to_string(s.size()) +
                       "-dimensional array given. Array must be at least two-dimensional");
}

/// NumPy's check of eigh's and eigvalsh's UPLO (either case); whether it names the upper.
inline bool uplo_is_upper(std::string_view uplo) {
  const bool upper = uplo == "U" || uplo == "u";
  if (!upper && uplo != "L" && uplo != "l") throw value_error("UPLO argument must be 'L' or 'U'");
  return upper;
}

/// identity matrices of order n in the shape batch + (n, cols), C-ordered (cols <= n: the first
/// columns).
template <class R>
ndarray<R> identities(const shape_t& batch, index_t n, index_t cols, device dev) {
  return broadcast_to(eye<R>(n, cols, 0, dev), with_core(batch, {n, cols})).copy();
}

/// The eigenvalues (and vectors) of each Hermitian matrix of a: eigh and eigvalsh.
template <class Backend, class R>
void eigh_into(const ndarray<R>& vectors, const ndarray<linalg_real_t<R>>& w, bool want_vectors,
               bool upper) {
  if (w.size() == 0) return;
  dispatch<Backend>(vectors.device(),
                    [&](auto be) { eigh_run(be, vectors, w, want_vectors, upper); });
}

}  // namespace cunp::detail

namespace cunp::linalg {

/// numpy.linalg.qr's result (QRResult): Q with orthonormal columns and upper-triangular R.
template <class T> struct qr_result { ndarray<T> Q, R; };
/// numpy.linalg.qr(a, mode='raw')'s result: LAPACK geqrf's array, transposed (..., n, m), and
/// the reflectors' scalars (..., min(m, n)).
template <class T> struct qr_raw_result { ndarray<T> h, tau; };
/// numpy.linalg.eigh's result (EighResult): ascending real eigenvalues and the orthonormal
/// eigenvectors as columns (eigenvectors[..., :, j] belongs to eigenvalues[..., j]).
template <class T> struct eigh_result {
  ndarray<detail::linalg_real_t<T>> eigenvalues;
  ndarray<T> eigenvectors;
};
/// numpy.linalg.svd's result (SVDResult): a = U @ diag(S) @ Vh, S descending and non-negative.
/// Under compute_uv = false, U and Vh are empty (shape (0,)): NumPy then returns S alone.
template <class T> struct svd_result {
  ndarray<T> U;
  ndarray<detail::linalg_real_t<T>> S;
  ndarray<T> Vh;
};

/// numpy.linalg.eig's result (EigResult): the eigenvalues, in no particular order, and the right
/// eigenvectors as columns (each of norm 1, its largest entry real), always complex (NumPy's are
/// real when every eigenvalue of a real input is).
template <class C> struct eig_result { ndarray<C> eigenvalues, eigenvectors; };

/// numpy.linalg.cholesky(a, upper=False): L with a = L @ L^H (lower triangular, real positive
/// diagonal), or U = L^H with a = U^H @ U under upper, for each matrix of a (..., n, n); only that
/// triangle of a is read. A matrix that is not positive definite raises linalg_error("Matrix is
/// not positive definite"): on a GPU at the next wait for the device, as solve's singular matrix.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<R> cholesky(const A& a, bool upper = false) {
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_square(x.shape());
  ndarray<R> f = x.copy();
  if (f.size() > 0)
    detail::dispatch<Backend>(f.device(), [&](auto be) { cholesky_run(be, f, upper); });
  return f;
}

/// numpy.linalg.qr(a, mode='raw'): geqrf's Householder reflectors and R in one array, as NumPy
/// returns it (the column-major LAPACK array read in C order, (..., n, m)), and tau.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] qr_raw_result<R> qr_raw(const A& a) {
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_2d(x.shape());
  const index_t m = x.shape()[x.ndim() - 2], n = x.shape().back();
  const shape_t batch = detail::batch_of(x.shape(), 2);
  qr_raw_result<R> r{ndarray<R>(detail::with_core(batch, {n, m}), x.device()),
                     zeros<R>(detail::with_core(batch, {std::min(m, n)}), x.device())};
  if (r.tau.size() > 0)
    detail::dispatch<Backend>(x.device(), [&](auto be) { qr_factor_run(be, x, r.h, r.tau); });
  else if (r.h.size() > 0)
    copyto<Backend>(r.h, swapaxes(x, -1, -2));
  return r;
}

/// numpy.linalg.qr(a, mode='reduced'): a = Q @ R for each matrix of a (..., m, n), with
/// k = min(m, n): mode "reduced" Q (..., m, k) and R (..., k, n); "complete" Q (..., m, m) and
/// R (..., m, n); "r" R alone (..., k, n), Q left empty. R's diagonal may be negative (LAPACK's
/// reflectors, as NumPy's). mode "raw" is qr_raw (another result type in C++).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] qr_result<R> qr(const A& a, std::string_view mode = "reduced") {
  if (mode == "raw")
    throw value_error(
        "qr: mode 'raw' returns (h, tau), another type in C++: call "
        "cunp::linalg::qr_raw(a)");
  if (mode != "reduced" && mode != "complete" && mode != "r")
    throw value_error("Unrecognized mode '" + std::string(mode) + "'");
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_2d(x.shape());
  const index_t m = x.shape()[x.ndim() - 2], n = x.shape().back(), k = std::min(m, n);
  const shape_t batch = detail::batch_of(x.shape(), 2);
  const auto f = qr_raw<Backend, ndarray<R>, R>(x);
  const bool complete = mode == "complete";
  const index_t rrows = complete ? m : k;
  qr_result<R> r;
  r.R = zeros<R>(detail::with_core(batch, {rrows, n}), x.device());
  if (r.R.size() > 0) {
    const auto top = view(swapaxes(f.h, -1, -2), ellipsis, slice(0, k), all);
    copyto<Backend>(view(r.R, ellipsis, slice(0, k), all), top);
    detail::tri_zero(r.R, 0, false);
  }
  if (mode == "r") return r;
  const index_t cols = complete ? m : k;
  if (k == 0) {  // no reflectors: Q is the identity (or has no columns)
    r.Q = detail::identities<R>(batch, m, cols, x.device());
  } else {
    r.Q = ndarray<R>(detail::with_core(batch, {m, cols}), x.device());
    if (r.Q.size() > 0)
      detail::dispatch<Backend>(x.device(), [&](auto be) { qr_q_run(be, f.h, f.tau, r.Q); });
  }
  return r;
}

/// numpy.linalg.eigh(a, UPLO='L'): the eigenvalues (ascending) and orthonormal eigenvectors of
/// each Hermitian matrix of a (..., n, n); only the triangle UPLO names ("L" or "U") is read, and
/// the imaginary parts of the diagonal are ignored. No convergence raises linalg_error
/// ("Eigenvalues did not converge"), on a GPU at the next wait for the device. A NaN in the
/// triangle read gives NaN eigenvalues and vectors on the cpu, as NumPy (a GPU's result then
/// depends on cuSOLVER).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] eigh_result<R> eigh(const A& a, std::string_view UPLO = "L") {
  const bool upper = detail::uplo_is_upper(UPLO);
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_square(x.shape());
  eigh_result<R> r{ndarray<detail::linalg_real_t<R>>(detail::batch_of(x.shape(), 1), x.device()),
                   x.copy()};
  detail::eigh_into<Backend>(r.eigenvectors, r.eigenvalues, true, upper);
  return r;
}

/// numpy.linalg.eigvalsh(a, UPLO='L'): eigh's eigenvalues alone (ascending, real).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<detail::linalg_real_t<R>> eigvalsh(const A& a, std::string_view UPLO = "L") {
  const bool upper = detail::uplo_is_upper(UPLO);
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_square(x.shape());
  ndarray<detail::linalg_real_t<R>> w(detail::batch_of(x.shape(), 1), x.device());
  detail::eigh_into<Backend>(x.copy(), w, false, upper);
  return w;
}

/// numpy.linalg.svd(a, full_matrices=True, compute_uv=True, hermitian=False): a = U @ diag(S) @
/// Vh for each matrix of a (..., m, n), S (..., k) descending, k = min(m, n); U (..., m, m) and
/// Vh (..., n, n) with full_matrices, else (..., m, k) and (..., k, n). hermitian: a is taken to
/// be Hermitian and factorised through eigh, as NumPy does. No convergence (or a NaN or inf in
/// a, on the cpu) raises linalg_error("SVD did not converge").
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] svd_result<R> svd(const A& a, bool full_matrices = true, bool compute_uv = true,
                                bool hermitian = false) {
  using P = detail::linalg_real_t<R>;
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_2d(x.shape());
  const index_t m = x.shape()[x.ndim() - 2], n = x.shape().back(), k = std::min(m, n);
  const shape_t batch = detail::batch_of(x.shape(), 2);
  svd_result<R> r{ndarray<R>(shape_t{0}, x.device()),
                  ndarray<P>(detail::with_core(batch, {k}), x.device()),
                  ndarray<R>(shape_t{0}, x.device())};
  if (hermitian) {
    detail::check_stacked_square(x.shape());
    // NumPy's route: |eigenvalues| descending, the vectors in that order, Vh from their signs
    if (!compute_uv) {
      const auto w = eigvalsh<Backend>(x);
      copyto<Backend>(r.S, view(sort<Backend>(abs(w)), ellipsis, slice(none, none, -1)));
      return r;
    }
    const auto e = eigh<Backend>(x);
    const auto order =
        eval<Backend>(view(argsort<Backend>(abs(e.eigenvalues)), ellipsis, slice(none, none, -1)));
    const auto w = take_along_axis<Backend>(e.eigenvalues, order, -1);
    r.S = eval<Backend>(abs(w));
    r.U = take_along_axis<Backend>(e.eigenvectors, view(order, ellipsis, newaxis, all), -1);
    const auto sgn = eval<Backend>(sign(w));
    const auto scaled = eval<Backend>(r.U * view(sgn, ellipsis, newaxis, all).template astype<R>());
    if constexpr (is_complex_v<R>)
      r.Vh = eval<Backend>(conj(swapaxes(scaled, -1, -2)));
    else
      r.Vh = swapaxes(scaled, -1, -2).copy();
    return r;
  }
  if (compute_uv) {
    r.U = ndarray<R>(detail::with_core(batch, {m, full_matrices ? m : k}), x.device());
    r.Vh = ndarray<R>(detail::with_core(batch, {full_matrices ? n : k, n}), x.device());
  }
  if (k == 0) {  // nothing to factorise: the full bases are identities
    if (compute_uv) {
      r.U = detail::identities<R>(batch, m, r.U.shape().back(), x.device());
      r.Vh = detail::identities<R>(batch, r.Vh.shape()[r.Vh.ndim() - 2], n, x.device());
    }
    return r;
  }
  if (r.S.size() == 0) return r;
  const ndarray<R> work = x.copy();
  detail::dispatch<Backend>(
      x.device(), [&](auto be) { svd_run(be, work, r.S, r.U, r.Vh, full_matrices, compute_uv); });
  return r;
}

/// numpy.linalg.eig(a): the eigenvalues and right eigenvectors (a @ v[:, j] = w[j] v[:, j]) of
/// each general matrix of a (..., n, n), complex (std::complex of the computation type); a real
/// matrix's complex eigenvalues come in adjacent conjugate pairs, the positive imaginary part
/// first, with conjugate vectors (LAPACK geev's conventions, as NumPy's). An inf or NaN raises
/// linalg_error("Array must not contain infs or NaNs") on the cpu; no convergence
/// linalg_error("Eigenvalues did not converge"), on a GPU at the next wait.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] eig_result<std::complex<detail::linalg_real_t<R>>> eig(const A& a) {
  using C = std::complex<detail::linalg_real_t<R>>;
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_square(x.shape());
  eig_result<C> r{ndarray<C>(detail::batch_of(x.shape(), 1), x.device()),
                  ndarray<C>(x.shape(), x.device())};
  if (r.eigenvalues.size() > 0) {
    const ndarray<R> work = x.copy();
    detail::dispatch<Backend>(
        x.device(), [&](auto be) { eig_run(be, work, r.eigenvalues, r.eigenvectors, true); });
  }
  return r;
}

/// numpy.linalg.eigvals(a): eig's eigenvalues alone (complex; the same values as eig's).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<std::complex<detail::linalg_real_t<R>>> eigvals(const A& a) {
  using C = std::complex<detail::linalg_real_t<R>>;
  const auto x = detail::linalg_array<R, Backend>(a);
  detail::check_stacked_square(x.shape());
  ndarray<C> w(detail::batch_of(x.shape(), 1), x.device());
  if (w.size() > 0) {
    const ndarray<R> work = x.copy();
    detail::dispatch<Backend>(x.device(), [&](auto be) { eig_run(be, work, w, w, false); });
  }
  return w;
}

/// numpy.linalg.svdvals(x): the singular values alone, descending (svd without U and Vh).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<detail::linalg_real_t<R>> svdvals(const A& a) {
  return svd<Backend, A, R>(a, false, false).S;
}

}  // namespace cunp::linalg

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/linalg/decompositions.cuh"
#endif

// numpy.linalg's functions built on the decompositions (norms, ranks, least squares), so that
// <cunp/linalg.hpp> and this header, whichever comes first, give all of numpy.linalg.
#include "cunp/linalg_lstsq.hpp"
#include "cunp/linalg_norms.hpp"
