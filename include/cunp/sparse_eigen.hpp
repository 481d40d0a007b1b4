// cunp/sparse_eigen.hpp: scipy.sparse.linalg's eigsh and svds: a few eigenpairs of a sparse
// Hermitian matrix, a few singular triplets of a sparse matrix, by thick-restart Lanczos
// (detail/sparse/lanczos.hpp) on the matrix's device. scipy's checks and words; the start vector,
// when not given, is a fixed one (scipy draws a random one), so that every backend agrees.
#pragma once
#include <optional>
#include <string>

#include "cunp/decompositions.hpp"
#include "cunp/detail/sparse/lanczos.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/sparse_products.hpp"

namespace cunp::sparse::linalg {

/// eigsh's keywords (scipy.sparse.linalg.eigsh): which "LM" (largest magnitude), "SM", "LA"
/// (largest algebraic), "SA", "BE" (both ends); tol 0: machine precision; maxiter (restarts,
/// default n * 10) and ncv (Lanczos vectors, default min(n, max(2k + 1, 20))) -1: scipy's
/// defaults; v0: the start vector (n,) on A's device.
template <class T> struct eigsh_options {
  std::string which = "LM";
  double tol = 0;
  index_t maxiter = -1;
  index_t ncv = -1;
  std::optional<ndarray<T>> v0 = std::nullopt;
  bool return_eigenvectors = true;
};

/// eigsh's result: k real eigenvalues in scipy's order (ascending; under return_eigenvectors =
/// false ARPACK's: the most wanted last, BE ascending) and the eigenvectors as columns (n, k)
/// (empty, shape (0,), under return_eigenvectors = false: scipy returns w alone).
template <class T> struct eigsh_result {
  ndarray<detail::lanczos::real_of<T>> eigenvalues;
  ndarray<T> eigenvectors;
};

/// svds' keywords (scipy.sparse.linalg.svds, solver 'arpack'): which "LM" or "SM"; tol 0:
/// machine precision; maxiter and ncv -1: eigsh's defaults on the Gram matrix; v0 (min(A.shape),).
template <class T> struct svds_options {
  std::string which = "LM";
  double tol = 0;
  index_t maxiter = -1;
  index_t ncv = -1;
  std::optional<ndarray<T>> v0 = std::nullopt;
  bool return_singular_vectors = true;
};

/// svds' result: A ~ U @ diag(S) @ Vh, S ascending (scipy's order), U (m, k), Vh (k, n); U and
/// Vh empty (shape (0,)) under return_singular_vectors = false.
template <class T> struct svds_result {
  ndarray<T> U;
  ndarray<detail::lanczos::real_of<T>> S;
  ndarray<T> Vh;
};

namespace detail_eigen {

using cunp::detail::lanczos::linear_operator;

inline std::string shape_text(index_t m, index_t n) {
  return "(" + std::to_string(m) + ", " + std::to_string(n) + ")";
}

/// A's products as operators (coo through csr): A x and A^H x (conj(A^T conj(x))).
template <class Backend, class M> auto operators_of(const M& a) {
  using T = cunp::detail::sparse_value_t<M>;
  if constexpr (cunp::detail::is_coo_v<M>) {
    return operators_of<Backend>(a.template tocsr<Backend>());
  } else {
    const linear_operator<T> times = [a](const ndarray<T>& x) {
      return cunp::matmul<Backend>(a, x);
    };
    const linear_operator<T> adjoint_times = [at = a.T()](const ndarray<T>& x) {
      if constexpr (is_complex_v<T>)
        return eval<Backend>(conj(cunp::matmul<Backend>(at, eval<Backend>(conj(x)))));
      else return cunp::matmul<Backend>(at, x);
    };
    return std::pair{times, adjoint_times};
  }
}

/// The start vector: v0 checked (length, device, not zero) or the fixed one.
template <class Backend, class T>
ndarray<T> start_vector(const std::optional<ndarray<T>>& v0, index_t n, device dev,
                        const std::string& length_error) {
  if (!v0) return cunp::detail::lanczos::fixed_vector<Backend, T>(n, 0, dev);
  if (v0->ndim() != 1 || v0->shape()[0] != n) throw value_error(length_error);
  cunp::detail::check_same_device(dev, v0->device(), "eigsh");
  if (cunp::linalg::norm<Backend>(*v0).item() == 0)
    throw linalg_error("ARPACK error -9: Starting vector is zero.");
  return v0->copy();
}

/// eigsh on an operator of order n, after scipy's checks of k, which, ncv and maxiter.
template <class Backend, class T>
cunp::detail::lanczos::ritz_pairs<T> eigsh_operator(const linear_operator<T>& op, index_t n,
                                                    index_t k, const eigsh_options<T>& o,
                                                    device dev) {
  if (k <= 0) throw value_error("k must be greater than 0.");
  if (k >= n)
    throw value_error("Cannot use scipy.linalg.eigh for sparse A with k >= N. Use "
                      "scipy.linalg.eigh(A.toarray()) or reduce k.");
  if (o.which != "LM" && o.which != "SM" && o.which != "LA" && o.which != "SA" && o.which != "BE")
    throw value_error("which must be one of LM SM LA SA BE");
  if (is_complex_v<T> && o.which == "BE")
    throw value_error("which='BE' cannot be used with complex matrix A");
  const index_t ncv = std::min(n, o.ncv < 0 ? std::max(2 * k + 1, index_t{20}) : o.ncv);
  if (ncv <= k) throw value_error("ncv must be k<ncv<=n, ncv=" + std::to_string(ncv));
  const index_t maxiter = o.maxiter == -1 ? n * 10 : o.maxiter;
  if (maxiter <= 0) throw value_error("maxiter must be positive, maxiter=" + std::to_string(maxiter));
  const auto v0 = start_vector<Backend, T>(o.v0, n, dev,
                                           "v0 must have shape (" + std::to_string(n) + ",)");
  return cunp::detail::lanczos::solve<Backend, T>(
      op, v0, {n, k, ncv, maxiter, o.which, o.tol, o.return_eigenvectors});
}

}  // namespace detail_eigen

/// scipy.sparse.linalg.eigsh(A, k, which=, tol=, maxiter=, ncv=, v0=, return_eigenvectors=): k
/// eigenpairs of the Hermitian A (csr, csc or coo; only its products are used, so A is taken as
/// Hermitian unchecked, as scipy does). k >= n is value_error with scipy's TypeError words; no
/// convergence is linalg_error with ARPACK's words (scipy: ArpackNoConvergence).
template <class Backend = cunp::detail::compiled_backend, sparse_matrix_type M,
          class T = cunp::detail::sparse_value_t<M>>
[[nodiscard]] eigsh_result<T> eigsh(const M& a, index_t k = 6, const eigsh_options<T>& o = {}) {
  static_assert(std::is_floating_point_v<cunp::detail::lanczos::real_of<T>>,
                "eigsh: A must hold float32, float64, complex64 or complex128 values");
  const auto [m, n] = std::pair{a.shape()[0], a.shape()[1]};
  if (m != n) throw shape_error("expected square matrix (shape=" + detail_eigen::shape_text(m, n) + ")");
  const auto ops = detail_eigen::operators_of<Backend>(a);
  const auto r = detail_eigen::eigsh_operator<Backend, T>(ops.first, n, k, o, a.device());
  using R = cunp::detail::lanczos::real_of<T>;
  const std::vector<R> w(r.values.begin(), r.values.end());
  eigsh_result<T> out{asarray(w, {k}, a.device()), r.vectors};
  if (o.return_eigenvectors) out.eigenvectors = ascontiguousarray(r.vectors.T());
  return out;
}

/// scipy.sparse.linalg.svds(A, k, which=, tol=, maxiter=, ncv=, v0=, return_singular_vectors=)
/// with solver 'arpack': eigsh (tol squared) on A^H A, or on A A^H when A is wide, then, as scipy,
/// the eigenvectors orthonormalised by qr and the triplets from the dense svd of A V (m x k).
/// return_singular_vectors takes true or false (scipy's "u" and "vh" are not taken).
template <class Backend = cunp::detail::compiled_backend, sparse_matrix_type M,
          class T = cunp::detail::sparse_value_t<M>>
[[nodiscard]] svds_result<T> svds(const M& a, index_t k = 6, const svds_options<T>& o = {}) {
  static_assert(std::is_floating_point_v<cunp::detail::lanczos::real_of<T>>,
                "svds: A must hold float32, float64, complex64 or complex128 values");
  const index_t rows = a.shape()[0], cols = a.shape()[1], small = std::min(rows, cols);
  if (rows * cols == 0) throw value_error("`A` must not be empty.");
  if (k <= 0 || k > small - 1)
    throw value_error("`k` must be an integer satisfying `0 < k < min(A.shape)`.");
  if (o.ncv != -1 && !(k < o.ncv && o.ncv < small))
    throw value_error("`ncv` must be an integer satisfying `k < ncv < min(A.shape)`.");
  if (o.tol < 0 || !std::isfinite(o.tol))
    throw value_error("`tol` must be a non-negative floating point value.");
  if (o.which != "LM" && o.which != "SM") throw value_error("`which` must be in {'LM', 'SM'}.");
  if (o.v0 && (o.v0->ndim() != 1 || o.v0->shape()[0] != small))
    throw value_error("`v0` must have shape (" + std::to_string(small) + ",).");
  if (o.maxiter != -1 && o.maxiter <= 0) throw value_error("`maxiter` must be a positive integer.");

  // X is A when tall, A^H when wide (scipy's `transpose`): the Gram matrix X^H X is the smaller.
  const bool transpose = rows < cols;
  const auto ops = detail_eigen::operators_of<Backend>(a);
  const auto x_times = transpose ? ops.second : ops.first;
  const auto xh_times = transpose ? ops.first : ops.second;
  const detail_eigen::linear_operator<T> gram = [&](const ndarray<T>& v) {
    return xh_times(x_times(v));
  };
  const eigsh_options<T> eo{o.which, o.tol * o.tol, o.maxiter, o.ncv, o.v0, true};
  const auto r = detail_eigen::eigsh_operator<Backend, T>(gram, small, k, eo, a.device());
  // qr as scipy (ARPACK's vectors need not be orthonormal to the last bit), then X V column by
  // column: the operator takes vectors.
  const auto eigvec = cunp::linalg::qr<Backend>(ascontiguousarray(r.vectors.T())).Q;  // (small, k)
  const index_t big = transpose ? cols : rows;
  ndarray<T> av = zeros<T>({k, big}, a.device());  // rows: X v_j
  for (index_t j = 0; j < k; ++j)
    copyto<Backend>(view(av, j), x_times(ascontiguousarray(view(eigvec, all, j))));
  const auto s = cunp::linalg::svd<Backend>(ascontiguousarray(av.T()), false,
                                            o.return_singular_vectors);
  const auto reversed = slice(none, none, -1);
  svds_result<T> out{zeros<T>({0}, a.device()), ascontiguousarray(view(s.S, reversed)),
                     zeros<T>({0}, a.device())};
  if (!o.return_singular_vectors) return out;
  const auto u = view(s.U, all, reversed);   // (big, k)
  const auto vh = view(s.Vh, reversed, all);  // (k, k)
  const auto herm = [](const ndarray<T>& x) {
    if constexpr (is_complex_v<T>) return eval<Backend>(conj(x.T()));
    else return ascontiguousarray(x.T());
  };
  if (transpose) {
    out.U = cunp::matmul<Backend>(eigvec, herm(vh));
    out.Vh = herm(u);
  } else {
    out.U = ascontiguousarray(u);
    out.Vh = cunp::matmul<Backend>(vh, herm(eigvec));
  }
  return out;
}

}  // namespace cunp::sparse::linalg
