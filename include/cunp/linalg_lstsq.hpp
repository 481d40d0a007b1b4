// cunp/linalg_lstsq.hpp: numpy.linalg's generalised inverses and solvers built on the others:
// pinv, lstsq, tensorsolve, tensorinv. NumPy's dtypes and errors; pinv batched over leading axes,
// lstsq for one matrix as NumPy's. Composed of cunp's operations (svd, solve, inv, matmul, where,
// the reductions), so each runs unchanged on every backend; only lstsq reads device data (the
// rank, which decides the size of its residuals).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/decompositions.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::detail {

template <class R> using lstsq_real_t = typename complex_parts<R>::type;

/// a^H over the last two axes (a view for real a).
template <class Backend, class R> ndarray<R> adjoint_of(const ndarray<R>& a) {
  if constexpr (is_complex_v<R>)
    return eval<Backend>(cunp::conj(swapaxes(a, -1, -2)));
  else
    return swapaxes(a, -1, -2);
}

}  // namespace cunp::detail

namespace cunp::linalg {

/// numpy.linalg.pinv's rtol, whose default (NumPy's _NoValue) differs from None: left out,
/// rcond's default 1e-15 holds; std::nullopt or cunp::none, max(M, N) * eps of a's dtype; a
/// number, that cutoff.
class pinv_rtol {
 public:
  pinv_rtol() = default;
  pinv_rtol(std::nullopt_t) : given_(true) {}       // NOLINT(google-explicit-constructor)
  pinv_rtol(none_t) : given_(true) {}               // NOLINT(google-explicit-constructor)
  pinv_rtol(double v) : given_(true), value_(v) {}  // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool given() const { return given_; }
  [[nodiscard]] const std::optional<double>& value() const { return value_; }

 private:
  bool given_ = false;
  std::optional<double> value_;
};

/// numpy.linalg.pinv(a, rcond=None, hermitian=False, *, rtol=<no value>): the Moore-Penrose
/// pseudo-inverse of each matrix of a (..., m, n), (..., n, m), from the SVD with the singular
/// values at most rcond * max(S) dropped (NumPy 2's cutoff: rcond, else rtol, else 1e-15; both
/// given: NumPy's error). hermitian: through eigh, as svd's. An empty a gives an empty result of
/// the computation dtype (NumPy keeps an integer a's dtype there).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<R> pinv(const A& a, std::optional<double> rcond = std::nullopt,
                              bool hermitian = false, const pinv_rtol& rtol = {}) {
  using V = detail::input_t<A>;
  using P = detail::lstsq_real_t<R>;
  const auto x = detail::linalg_array<R, Backend>(a);
  const shape_t& s = x.shape();
  double cut = 1e-15;
  if (rcond) {
    if (rtol.given()) throw value_error("`rtol` and `rcond` can't be both set.");
    cut = *rcond;
  } else if (rtol.given() && rtol.value()) {
    cut = *rtol.value();
  } else if (rtol.given()) {  // NumPy's finfo(a.dtype).eps: a's own dtype, not float64
    if constexpr (!is_floating_v<V> && !is_complex_v<V>) {  // (NumPy 2.5's finfo text)
      throw value_error("data type dtype('" + std::string(dtype_name_v<V>) +
                        "') not compatible with finfo");
    } else {
      const index_t extent =
          s.empty() ? 1 : *std::max_element(s.end() - std::min<std::size_t>(2, s.size()), s.end());
      cut = double(extent) *
            double(std::numeric_limits<typename detail::complex_parts<V>::type>::epsilon());
    }
  }
  if (s.size() < 2)
    throw linalg_error(std::to_string(s.size()) +
                       "-dimensional array given. Array must be at least two-dimensional");
  const index_t m = s[s.size() - 2], n = s.back();
  if (m == 0 || n == 0)
    return ndarray<R>(detail::with_core(detail::batch_of(s, 2), {n, m}), x.device());
  // NumPy: the SVD of conj(a), then Vh^T diag(1 / S) U^T, S's cutoff a float64 array
  ndarray<R> c = x;
  if constexpr (is_complex_v<R>) c = eval<Backend>(cunp::conj(x));
  const auto f = svd<Backend, ndarray<R>, R>(c, false, true, hermitian);
  const auto cutoff = eval<Backend>(cunp::astype<double>(cunp::amax<Backend>(f.S, -1, true)) * cut);
  const auto inverse = eval<Backend>(
      cunp::where(cunp::greater(cunp::astype<double>(f.S), cutoff), P(1) / f.S, P(0)));
  return cunp::matmul<Backend>(swapaxes(f.Vh, -1, -2),
                               cunp::view(inverse, ellipsis, newaxis) * swapaxes(f.U, -1, -2));
}

/// numpy.linalg.lstsq's result: the solution x (n,) or (n, k); residuals, the squared 2-norms
/// of the columns of b - a @ x, (1,) or (k,), only when rank == n and m > n (else empty, as
/// NumPy); a's rank; its singular values, descending.
template <class T> struct lstsq_result {
  ndarray<T> x;
  ndarray<detail::lstsq_real_t<T>> residuals;
  index_t rank = 0;
  ndarray<detail::lstsq_real_t<T>> s;
};

/// numpy.linalg.lstsq(a, b, rcond=None): the minimum-norm least-squares solution of a @ x = b for
/// one matrix a (m, n) and b (m,) or (m, k), through the SVD as LAPACK's gelsd: singular values at
/// most rcond * max(S) count as zero (rcond default: eps * max(m, n) of the computation dtype;
/// rcond <= 0 or >= 1: the unit roundoff, as gelsd's). Reads the rank from the device (a wait):
/// the residuals' size depends on it.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::linalg_result_t<A, B>>
[[nodiscard]] lstsq_result<R> lstsq(const A& a, const B& b,
                                    std::optional<double> rcond = std::nullopt) {
  using P = detail::lstsq_real_t<R>;
  const auto x = detail::linalg_array<R, Backend>(a);
  const auto y = detail::linalg_array<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "lstsq");
  const bool is_1d = y.ndim() == 1;
  const ndarray<R> rhs = is_1d ? y.reshape({y.shape()[0], 1}) : y;
  for (const int nd : {x.ndim(), rhs.ndim()})
    if (nd != 2)
      throw linalg_error(std::to_string(nd) +
                         "-dimensional array given. Array must be two-dimensional");
  const index_t m = x.shape()[0], n = x.shape()[1];
  if (rhs.shape()[0] != m) throw linalg_error("Incompatible dimensions");
  double r = rcond ? *rcond : double(std::numeric_limits<P>::epsilon()) * double(std::max(m, n));
  if (r <= 0 || r >= 1) r = double(std::numeric_limits<P>::epsilon()) / 2;
  lstsq_result<R> out;
  svd_result<R> f;
  ndarray<bool> kept;
  try {
    f = svd<Backend, ndarray<R>, R>(x, false, true, false);
    kept = eval<Backend>(cunp::greater(
        f.S, cunp::amax<Backend>(f.S, -1, reduce_options{.keepdims = true, .initial = 0}) * r));
    out.rank = index_t(cunp::count_nonzero<Backend>(kept).item());
  } catch (const linalg_error& e) {
    if (std::string_view(e.what()) == "SVD did not converge")
      throw linalg_error("SVD did not converge in Linear Least Squares");
    throw;
  }
  // x = V diag(1 / S) U^H b over the singular values kept
  const auto c = cunp::matmul<Backend>(detail::adjoint_of<Backend>(f.U), rhs);
  const auto inverse = eval<Backend>(cunp::where(kept, P(1) / f.S, P(0)));
  const auto solution = cunp::matmul<Backend>(detail::adjoint_of<Backend>(f.Vh),
                                              cunp::view(inverse, all, newaxis) * c);
  out.x = is_1d ? solution.reshape({n}) : solution;
  out.s = f.S;
  if (out.rank == n && m > n) {  // |b - U U^H b|^2: what the orthogonal complement keeps
    const auto rest = eval<Backend>(rhs - cunp::matmul<Backend>(f.U, c));
    if constexpr (is_complex_v<R>)
      out.residuals = cunp::sum<void, Backend>(cunp::real(cunp::conj(rest) * rest), 0);
    else
      out.residuals = cunp::sum<void, Backend>(rest * rest, 0);
  } else {
    out.residuals = ndarray<P>(shape_t{0}, x.device());
  }
  return out;
}

/// numpy.linalg.tensorsolve(a, b, axes=None): x with tensordot(a, x, x.ndim) = b, x of the shape
/// of a's trailing axes (those after b.ndim); axes: a's axes moved to the end first (NumPy's
/// list.remove: non-negative, each must be there).
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::linalg_result_t<A, B>>
[[nodiscard]] ndarray<R> tensorsolve(const A& a, const B& b, const std::vector<index_t>& axes) {
  auto x = detail::linalg_array<R, Backend>(a);
  const auto y = detail::linalg_array<R, Backend>(b);
  const auto an = static_cast<index_t>(x.ndim()), bn = static_cast<index_t>(y.ndim());
  std::vector<index_t> order;
  for (index_t d = 0; d < an; ++d) order.push_back(d);
  for (const index_t k : axes) {
    const auto at = std::find(order.begin(), order.end(), k);
    if (at == order.end()) throw value_error("list.remove(x): x not in list");
    order.erase(at);
    order.push_back(k);
  }
  if (!axes.empty()) x = transpose(x, order);
  // NumPy's a.shape[-(an - b.ndim):], Python's slice (an == b.ndim: the whole shape)
  const index_t back = an - bn;
  const index_t start = back > 0 ? an - back : std::min(-back, an);
  const shape_t oldshape(x.shape().begin() + start, x.shape().end());
  index_t prod = 1;
  for (const index_t e : oldshape) prod *= e;
  if (x.size() != prod * prod)
    throw linalg_error(
        "Input arrays must satisfy the requirement             prod(a.shape[b.ndim:]) == "
        "prod(a.shape[:b.ndim])");
  return solve<Backend>(x.reshape({prod, prod}), ravel(y)).reshape(oldshape);
}
/// numpy.linalg.tensorsolve(a, b): with axes=None.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::linalg_result_t<A, B>>
[[nodiscard]] ndarray<R> tensorsolve(const A& a, const B& b) {
  return tensorsolve<Backend, A, B, R>(a, b, {});
}

/// numpy.linalg.tensorinv(a, ind=2): the inverse of a read as a matrix of its first ind axes by
/// the rest, of shape a.shape[ind:] + a.shape[:ind].
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<R> tensorinv(const A& a, index_t ind = 2) {
  if (ind <= 0) throw value_error("Invalid ind argument.");
  const auto x = detail::linalg_array<R, Backend>(a);
  const shape_t& s = x.shape();
  const auto split = s.begin() + std::min<index_t>(ind, index_t(s.size()));
  shape_t invshape(split, s.end());
  invshape.insert(invshape.end(), s.begin(), split);
  index_t prod = 1;
  for (auto it = split; it != s.end(); ++it) prod *= *it;
  if (prod == 0)  // NumPy's reshape(0, -1)
    throw shape_error("cannot reshape array of size " + std::to_string(x.size()) +
                      " into shape (0,newaxis)");
  return inv<Backend>(x.reshape({prod, -1})).reshape(invshape);
}

}  // namespace cunp::linalg
