// cunp/sparse_iterative.hpp: scipy.sparse.linalg's iterative solvers cg and gmres for a sparse
// A (csr, csc, coo; A of csc or coo form is converted to CSR once) and a dense b, with scipy's
// options (x0, rtol, atol, maxiter, gmres's restart) and an optional preconditioner M (a sparse
// matrix, applied as M @ r: scipy's M approximates inv(A); or a 1-d array d, applied as d * r).
// The algorithms are detail/sparse/krylov.hpp's, run by the cpu backend or the GPU's kernels
// and cuSPARSE's SpMV, with every scalar on the device (docs/differences.md says when a GPU
// solve waits).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "cunp/detail/sparse/krylov.hpp"
#include "cunp/sparse_products.hpp"
#include "cunp/testing.hpp"

#if defined(__CUDACC__)
#include "cunp/detail/cuda/sparse/krylov.cuh"
#endif

namespace cunp::detail {

/// A's CSR arrays with values of R (a csc or coo A converted once; an overfull A summed, as
/// product_operand_of gives it).
template <class R, class Backend, class A> auto solver_arrays(const A& a) {
  using I = sparse_index_t<A>;
  if constexpr (A::format != sparse::format::coo)
    if (overfull(a)) return lines_of<true, R, I, Backend>(a, true);
  if constexpr (A::format == sparse::format::csr)
    return arrays_as<R, I, Backend>(a.arrays());
  else
    return arrays_as<R, I, Backend>(a.template tocsr<Backend>().arrays());
}

}  // namespace cunp::detail

namespace cunp::sparse::linalg {

/// A preconditioner for cg and gmres: nothing (the default), a sparse matrix M applied as
/// M @ r (scipy's meaning), or a 1-d array d of A's extent applied as d * r (Jacobi: d = 1 /
/// A.diagonal()). Values are converted to the solve's type.
template <class T> class preconditioner {
 public:
  preconditioner() = default;
  /// M @ r for a csr, csc or coo matrix (converted to CSR once).
  template <sparse_matrix_type S> preconditioner(const S& m) {  // NOLINT: implicit, as scipy's M=
    shape_ = m.shape();
    dev_ = m.device();
    v_ = detail::solver_arrays<T, detail::compiled_backend>(m);
  }
  /// d * r for a 1-d array d.
  template <class V> preconditioner(const ndarray<V>& d) {  // NOLINT: implicit, as M=
    shape_ = d.shape();
    dev_ = d.device();
    v_ = d.template astype<T>().copy();
  }

  /// The kind held: 0 none, 1 a diagonal, 2 and 3 a CSR matrix with 32- or 64-bit indices.
  [[nodiscard]] const auto& held() const { return v_; }
  /// The shape a check compares with A's: (n, n) of a matrix, (n,) of a diagonal.
  [[nodiscard]] const shape_t& shape() const { return shape_; }
  [[nodiscard]] bool is_none() const { return v_.index() == 0; }
  [[nodiscard]] cunp::device device() const { return dev_; }

 private:
  std::variant<std::monostate, ndarray<T>, detail::cs_arrays<T, std::int32_t>,
               detail::cs_arrays<T, std::int64_t>>
      v_;
  shape_t shape_;
  cunp::device dev_ = cpu;
};

/// cg's options, scipy's keywords: x0 (the starting guess, zeros by default), rtol, atol (the
/// test ||b - A x|| < max(rtol ||b||, atol)), maxiter (10 n by default), M.
template <class T> struct cg_options {
  std::optional<ndarray<T>> x0;
  double rtol = 1e-5;
  double atol = 0.0;
  std::optional<index_t> maxiter;
  preconditioner<T> M;
};

/// gmres's options: cg's, and restart (columns a cycle, 20 by default, at most n). maxiter
/// counts cycles (scipy's outer iterations), 10 n by default.
template <class T> struct gmres_options {
  std::optional<ndarray<T>> x0;
  double rtol = 1e-5;
  double atol = 0.0;
  std::optional<index_t> restart;
  std::optional<index_t> maxiter;
  preconditioner<T> M;
};

/// What cg and gmres return, scipy's (x, info): info 0 converged, > 0 the iterations (maxiter)
/// run without converging. `auto [x, info] = cg(A, b);`.
template <class T> struct solve_result {
  ndarray<T> x;
  index_t info = 0;
};

}  // namespace cunp::sparse::linalg

namespace cunp::detail {

/// The solve's value type for A and b: NumPy's result type (scipy's coerce, integers as float64).
template <class A, class B> using solve_value_t = result_type_t<sparse_value_t<A>, B>;

/// scipy's checks of make_system and _get_atol_rtol, in its order and words; b (and x0)
/// of shape (n,) or (n, 1).
template <class T>
void check_solve(const char* name, const shape_t& a, const ndarray<T>& b,
                 const sparse::linalg::preconditioner<T>& m, const std::optional<ndarray<T>>& x0,
                 double atol) {
  const std::string as = shape_str(a);
  if (a[0] != a[1]) throw value_error("expected square matrix, but got shape=(" + as + ",)");
  const index_t n = a[0];
  const auto fits = [n](const shape_t& s) {
    return (s.size() == 1 && s[0] == n) || (s.size() == 2 && s[0] == n && s[1] == 1);
  };
  if (!fits(b.shape()))
    throw value_error("shapes of A " + as + " and b " + shape_str(b.shape()) + " are incompatible");
  const bool m_fits = m.is_none() || m.shape() == a || m.shape() == shape_t{n};
  if (!m_fits) throw value_error("matrix and preconditioner have different shapes");
  if (x0 && !fits(x0->shape()))
    throw value_error("shapes of A " + as + " and x0 " + shape_str(x0->shape()) +
                      " are incompatible");
  if (!(atol >= 0))
    throw value_error(std::string("'scipy.sparse.linalg.") + name +
                      "' called with invalid `atol`=" + python_float_repr(atol, true) +
                      "; if set, `atol` must be a real, non-negative number.");
  if (!m.is_none()) check_same_device(b.device(), m.device(), "a preconditioned solve");
  if (x0) check_same_device(b.device(), x0->device(), "a solve's x0");
}

/// Runs `run(state, preconditioner)` for a checked solve on A's device, with the solution
/// vector x (x0's copy, or zeros) and b (1-d, R, contiguous); returns scipy's (x, info).
template <class Backend, class R, class A, class Run>
sparse::linalg::solve_result<R> krylov_solve(const A& a, const ndarray<R>& b1,
                                             const sparse::linalg::preconditioner<R>& m,
                                             const std::optional<ndarray<R>>& x0, Run&& run) {
  const index_t n = a.shape()[0];
  const cunp::device dev = a.device();
  check_same_device(dev, b1.device(), "a solve");
  const cs_arrays<R, sparse_index_t<A>> arrays = solver_arrays<R, Backend>(a);
  const ndarray<R> b = b1.reshape({n}).copy();
  const ndarray<R> x = x0 ? x0->reshape({n}).copy() : zeros<R>({n}, dev);
  if (n == 0) return {x, 0};
  const krylov_outcome out = dispatch<Backend>(dev, [&](auto be) {
    using B = decltype(be);
    const krylov_state<B, R, decltype(make_krylov_spmv(be, n, arrays, b, x))> st{
        be, dev, n, make_krylov_spmv(be, n, arrays, b, x)};
    return std::visit(
        [&](const auto& held) -> krylov_outcome {
          using H = std::decay_t<decltype(held)>;
          if constexpr (std::is_same_v<H, std::monostate>) {
            return run(st, no_preconditioner<B, R>{}, b, x);
          } else if constexpr (std::is_same_v<H, ndarray<R>>) {
            return run(st, diagonal_preconditioner<B, R>{be, held.reshape({n}).copy()}, b, x);
          } else {
            using P = decltype(make_krylov_spmv(be, n, held, b, x));
            return run(st, sparse_preconditioner<B, R, P>{make_krylov_spmv(be, n, held, b, x)}, b,
                       x);
          }
        },
        m.held());
  });
  return {out.zero_b ? b : x, out.info};
}

}  // namespace cunp::detail

namespace cunp::sparse::linalg {

/// scipy.sparse.linalg.cg(A, b, x0=, rtol=, atol=, maxiter=, M=): the conjugate gradient method
/// for a Hermitian positive definite A, scipy's iteration and stopping rule (||r|| < atol after
/// atol = max(atol, rtol ||b||); x = b at once for b == 0). Returns {x, info}: info 0 when it
/// converged, else maxiter. The values are NumPy's result type of A's and b's.
template <class Backend = detail::compiled_backend, sparse_matrix_type A, class Tb,
          class R = detail::solve_value_t<A, Tb>>
[[nodiscard]] solve_result<R> cg(const A& a, const ndarray<Tb>& b, const cg_options<R>& opts = {}) {
  const ndarray<R> bv = b.template astype<R, Backend>();
  detail::check_solve("cg", a.shape(), bv, opts.M, opts.x0, opts.atol);
  const index_t maxiter = opts.maxiter.value_or(a.shape()[0] * 10);
  return detail::krylov_solve<Backend>(
      a, bv, opts.M, opts.x0, [&](const auto& st, const auto& pre, const auto& bb, const auto& x) {
        return detail::cg_run(st, pre, bb, x, opts.x0.has_value(), opts.rtol, opts.atol, maxiter);
      });
}

/// scipy.sparse.linalg.gmres(A, b, x0=, rtol=, atol=, restart=, maxiter=, M=): restarted GMRES
/// as scipy's (modified Gram-Schmidt, Givens rotations, left preconditioning, the gh-8400
/// inner tolerance control; callback_type None). restart columns a cycle (20, at most n),
/// maxiter cycles (10 n). Returns {x, info}: info 0 when ||b - A x|| <= atol at the end of a
/// cycle, else maxiter. restart and maxiter must be at least 1 (scipy fails on them unchecked).
template <class Backend = detail::compiled_backend, sparse_matrix_type A, class Tb,
          class R = detail::solve_value_t<A, Tb>>
[[nodiscard]] solve_result<R> gmres(const A& a, const ndarray<Tb>& b,
                                    const gmres_options<R>& opts = {}) {
  const ndarray<R> bv = b.template astype<R, Backend>();
  detail::check_solve("gmres", a.shape(), bv, opts.M, opts.x0, opts.atol);
  const index_t n = a.shape()[0];
  const index_t restart = std::min<index_t>(opts.restart.value_or(20), n);
  const index_t maxiter = opts.maxiter.value_or(n * 10);
  if (opts.restart && *opts.restart < 1)
    throw value_error("gmres: restart must be at least 1, got " + std::to_string(*opts.restart));
  if (maxiter < 1 && n > 0)
    throw value_error("gmres: maxiter must be at least 1, got " + std::to_string(maxiter));
  return detail::krylov_solve<Backend>(
      a, bv, opts.M, opts.x0, [&](const auto& st, const auto& pre, const auto& bb, const auto& x) {
        return detail::gmres_run(st, pre, bb, x, opts.x0.has_value(), opts.rtol, opts.atol, restart,
                                 maxiter);
      });
}

}  // namespace cunp::sparse::linalg
