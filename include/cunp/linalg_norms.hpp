// cunp/linalg_norms.hpp: numpy.linalg's norms and what builds on them: norm, matrix_norm,
// vector_norm, cond, matrix_rank. Batched over leading axes as NumPy, with NumPy's dtypes (a real
// result: float32 for float32 and complex64, float64 for the rest, bool and integers included)
// and NumPy's errors. Each is composed of cunp's operations (abs, sqrt, power, the reductions,
// svd, inv, where), so it runs unchanged on every backend and never reads device data.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/decompositions.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp::linalg {

/// Python's float('inf') (numpy.inf), for norm's ord: norm(x, cunp::linalg::inf).
inline constexpr double inf = std::numeric_limits<double>::infinity();

/// numpy.linalg.norm's `ord`: None (default-constructed, std::nullopt or cunp::none), a number
/// (inf and -inf included, NaN too: NumPy's generic p-norm), or a name ("fro", "f", "nuc"; any
/// other string is NumPy's error at the call).
class norm_ord {
 public:
  norm_ord() = default;
  norm_ord(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): norm(x, std::nullopt)
  norm_ord(none_t) {}          // NOLINT(google-explicit-constructor)
  template <class N>
  requires(std::is_arithmetic_v<N> && !std::is_same_v<N, bool>) norm_ord(N p)
      : number_(static_cast<double>(p)) {}                // NOLINT: norm(x, 2), norm(x, inf)
  norm_ord(const char* name) : name_(name) {}             // NOLINT: norm(x, "fro")
  norm_ord(std::string name) : name_(std::move(name)) {}  // NOLINT

  [[nodiscard]] bool is_none() const { return !number_ && !name_; }
  [[nodiscard]] bool is_number() const { return number_.has_value(); }
  [[nodiscard]] bool is_name() const { return name_.has_value(); }
  /// Python's `ord == p` (false for None and names).
  [[nodiscard]] bool is(double p) const { return number_ && *number_ == p; }
  [[nodiscard]] double number() const { return *number_; }
  [[nodiscard]] const std::string& name() const { return *name_; }
  /// NumPy's `ord in ('f', 'fro')`.
  [[nodiscard]] bool is_fro() const { return name_ && (*name_ == "fro" || *name_ == "f"); }

 private:
  std::optional<double> number_;
  std::optional<std::string> name_;
};

/// numpy.linalg.norm's and vector_norm's `axis`: None (default-constructed, std::nullopt or
/// cunp::none), an int, or a tuple of ints ({-2, -1}, a std::pair, a std::vector; {} is None, an
/// empty tuple is std::vector<index_t>{}).
class norm_axis {
 public:
  norm_axis() = default;
  norm_axis(std::nullopt_t) {}  // NOLINT(google-explicit-constructor)
  norm_axis(none_t) {}          // NOLINT(google-explicit-constructor)
  template <std::integral I>
  requires(!std::is_same_v<I, bool>) norm_axis(I axis)
      : axes_(std::vector<index_t>{index_t(axis)}), scalar_(true) {}                     // NOLINT
  norm_axis(std::initializer_list<index_t> axes) : axes_(std::vector<index_t>(axes)) {}  // NOLINT
  norm_axis(std::vector<index_t> axes) : axes_(std::move(axes)) {}                       // NOLINT
  norm_axis(std::pair<index_t, index_t> axes)                                            // NOLINT
      : axes_(std::vector<index_t>{axes.first, axes.second}) {}

  [[nodiscard]] bool is_none() const { return !axes_; }
  /// Given as an int rather than a tuple (vector_norm checks a tuple's axes first).
  [[nodiscard]] bool is_int() const { return scalar_; }
  [[nodiscard]] const std::vector<index_t>& axes() const { return *axes_; }

 private:
  std::optional<std::vector<index_t>> axes_;
  bool scalar_ = false;
};

}  // namespace cunp::linalg

namespace cunp::detail {

template <class R> using norm_real_t = typename complex_parts<R>::type;

/// |x|^2 as NumPy's norms compute it: (x.conj() * x).real.
template <class R> auto squared_magnitude(const ndarray<R>& x) {
  if constexpr (is_complex_v<R>)
    return cunp::real(cunp::conj(x) * x);
  else
    return x * x;
}

/// NumPy's vector norms of x over `axes` (norm's path for one axis; vector_norm's for any).
template <class Backend, class R>
ndarray<norm_real_t<R>> vector_norm_of(const ndarray<R>& x, const axis_arg& axes, bool keepdims,
                                       const linalg::norm_ord& ord) {
  using P = norm_real_t<R>;
  if (ord.is_name()) throw value_error("Invalid norm order '" + ord.name() + "' for vectors");
  const auto mag = cunp::abs(x);
  if (ord.is(linalg::inf))
    return cunp::max<Backend>(mag, axes, reduce_options{.keepdims = keepdims, .initial = 0});
  if (ord.is(-linalg::inf)) return cunp::min<Backend>(mag, axes, keepdims);
  if (ord.is(0))
    return cunp::sum<void, Backend>(cunp::astype<P>(cunp::not_equal(x, 0)), axes, keepdims);
  if (ord.is(1)) return cunp::sum<void, Backend>(mag, axes, keepdims);
  if (ord.is_none() || ord.is(2))
    return eval<Backend>(
        cunp::sqrt(cunp::sum<void, Backend>(squared_magnitude(x), axes, keepdims)));
  // NumPy: abs(x) ** ord summed, then ** reciprocal(ord) in the result's dtype
  const P p = static_cast<P>(ord.number());
  const auto s = cunp::sum<void, Backend>(cunp::power(mag, p), axes, keepdims);
  return eval<Backend>(cunp::power(s, P(1) / p));
}

/// NumPy's matrix norms of x over the axes (row, col).
template <class Backend, class R>
ndarray<norm_real_t<R>> matrix_norm_of(const ndarray<R>& x, index_t row_axis, index_t col_axis,
                                       bool keepdims, const linalg::norm_ord& ord) {
  using P = norm_real_t<R>;
  const std::size_t nd = x.shape().size();
  const int row = normalize_axis(row_axis, nd), col = normalize_axis(col_axis, nd);
  if (row == col) throw value_error("Duplicate axes given.");
  // the singular values of the matrices, moved to the last two axes (NumPy's _multi_svd_norm)
  const auto singular_values = [&] {
    return linalg::svd<Backend, ndarray<R>, R>(moveaxis(x, {row, col}, {-2, -1}), false, false,
                                               false)
        .S;
  };
  const reduce_options from_zero{.initial = 0};
  // ord 1 and -1: the column sums' extreme, inf and -inf the row sums'; the axis left of the
  // other one shifts once that one is reduced
  const int after_rows = col > row ? col - 1 : col, after_cols = row > col ? row - 1 : row;
  ndarray<P> r;
  if (ord.is(2))
    r = cunp::amax<Backend>(singular_values(), -1, from_zero);
  else if (ord.is(-2))
    r = cunp::amin<Backend>(singular_values(), -1);
  else if (ord.is(1))
    r = cunp::max<Backend>(cunp::sum<void, Backend>(cunp::abs(x), row), after_rows, from_zero);
  else if (ord.is(linalg::inf))
    r = cunp::max<Backend>(cunp::sum<void, Backend>(cunp::abs(x), col), after_cols, from_zero);
  else if (ord.is(-1))
    r = cunp::min<Backend>(cunp::sum<void, Backend>(cunp::abs(x), row), after_rows);
  else if (ord.is(-linalg::inf))
    r = cunp::min<Backend>(cunp::sum<void, Backend>(cunp::abs(x), col), after_cols);
  else if (ord.is_none() || ord.is_fro())
    r = eval<Backend>(cunp::sqrt(
        cunp::sum<void, Backend>(squared_magnitude(x), axis_arg({index_t(row), index_t(col)}))));
  else if (ord.is_name() && ord.name() == "nuc")
    r = cunp::sum<void, Backend>(singular_values(), -1);
  else
    throw value_error("Invalid norm order for matrices.");
  if (!keepdims) return r;
  shape_t kept = x.shape();
  kept[row] = kept[col] = 1;
  return r.reshape(kept);
}

/// An ord that numpy.linalg.norm takes for matrices.
inline bool is_matrix_ord(const linalg::norm_ord& ord) {
  return ord.is_none() || ord.is_fro() || (ord.is_name() && ord.name() == "nuc") || ord.is(2) ||
         ord.is(-2) || ord.is(1) || ord.is(-1) || ord.is(linalg::inf) || ord.is(-linalg::inf);
}

}  // namespace cunp::detail

namespace cunp::linalg {

/// numpy.linalg.norm(x, ord=None, axis=None, keepdims=False). axis None: the 2-norm of the
/// flattened x when ord is None (also "fro" of a 2-d x, 2 of a 1-d one), else the vector norm of
/// a 1-d x or the matrix norm of a 2-d x. One axis: vector norms, ord None or 2 (sqrt of the sum
/// of |x|^2), inf (max |x|), -inf (min), 0 (the count of nonzeros), 1 (sum |x|), any other p
/// ((sum |x|^p)^(1/p)). Two axes: matrix norms, None or "fro" (Frobenius), "nuc" (sum of the
/// singular values), inf (max row sum of |x|), -inf (min row sum), 1 (max column sum), -1 (min
/// column sum), 2 (largest singular value), -2 (smallest). Like NumPy, it does not rescale: the
/// 2-norm of large elements overflows.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<detail::norm_real_t<R>> norm(const A& x, const norm_ord& ord = {},
                                                   const norm_axis& axis = {},
                                                   bool keepdims = false) {
  const auto a = detail::linalg_array<R, Backend>(x);
  const std::size_t nd = a.shape().size();
  if (axis.is_none() && (ord.is_none() || (ord.is_fro() && nd == 2) || (ord.is(2) && nd == 1)))
    return eval<Backend>(
        cunp::sqrt(cunp::sum<void, Backend>(detail::squared_magnitude(a), axis_arg(), keepdims)));
  std::vector<index_t> axes;
  if (axis.is_none())
    for (std::size_t d = 0; d < nd; ++d) axes.push_back(index_t(d));
  else
    axes = axis.axes();
  if (axes.size() == 1) return detail::vector_norm_of<Backend>(a, axis_arg(axes[0]), keepdims, ord);
  if (axes.size() == 2) return detail::matrix_norm_of<Backend>(a, axes[0], axes[1], keepdims, ord);
  throw value_error("Improper number of dimensions to norm.");
}

/// numpy.linalg.matrix_norm(x, keepdims=False, ord='fro'): norm over the last two axes.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<detail::norm_real_t<R>> matrix_norm(const A& x, bool keepdims = false,
                                                          const norm_ord& ord = "fro") {
  return norm<Backend, A, R>(x, ord, {-2, -1}, keepdims);
}

/// numpy.linalg.vector_norm(x, axis=None, keepdims=False, ord=2): a vector norm over every axis
/// (None), one, or several (a tuple: the norm of the elements they span).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<detail::norm_real_t<R>> vector_norm(const A& x, const norm_axis& axis = {},
                                                          bool keepdims = false,
                                                          const norm_ord& ord = 2) {
  const auto a = detail::linalg_array<R, Backend>(x);
  if (axis.is_none()) return detail::vector_norm_of<Backend>(a, axis_arg(), keepdims, ord);
  if (axis.is_int())
    return detail::vector_norm_of<Backend>(a, axis_arg(axis.axes()[0]), keepdims, ord);
  const auto d = detail::normalize_axis_tuple(axis.axes(), a.shape().size());
  return detail::vector_norm_of<Backend>(a, axis_arg(std::vector<index_t>(d.begin(), d.end())),
                                         keepdims, ord);
}

/// numpy.linalg.cond(x, p=None): the condition number of each matrix of x (..., m, n). p None, 2
/// or -2: the ratio of the extreme singular values (any shape); "fro", "nuc", inf, -inf, 1, -1:
/// norm(x, p) * norm(inv(x), p) (square matrices). A NaN result becomes inf unless the matrix
/// holds a NaN, as NumPy (a zero matrix: inf). NumPy's inv of a singular matrix gives NaN and
/// cond inf; cunp's inv raises linalg_error("Singular matrix") (on a GPU at the next wait), so
/// does cond with those p.
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<detail::norm_real_t<R>> cond(const A& x, const norm_ord& p = {}) {
  using P = detail::norm_real_t<R>;
  const auto a = detail::linalg_array<R, Backend>(x);
  const shape_t& s = a.shape();
  index_t core = 1;  // NumPy's _is_empty_2d: prod(x.shape[-2:])
  for (std::size_t d = s.size() > 2 ? s.size() - 2 : 0; d < s.size(); ++d) core *= s[d];
  if (a.size() == 0 && core == 0) throw linalg_error("cond is not defined on empty arrays");
  ndarray<P> r;
  if (p.is_none() || p.is(2) || p.is(-2)) {
    const auto sv = svd<Backend, ndarray<R>, R>(a, false, false, false).S;
    const auto first = view(sv, ellipsis, 0), last = view(sv, ellipsis, -1);
    r = p.is(-2) ? eval<Backend>(last / first) : eval<Backend>(first / last);
  } else {
    detail::check_stacked_square(s);
    if (!detail::is_matrix_ord(p)) throw value_error("Invalid norm order for matrices.");
    r = eval<Backend>(norm<Backend, ndarray<R>, R>(a, p, {-2, -1}) *
                      norm<Backend, ndarray<R>, R>(inv<Backend>(a), p, {-2, -1}));
  }
  const auto had_nan = cunp::any<Backend>(cunp::isnan(a), {-2, -1});
  return eval<Backend>(cunp::where(cunp::logical_and(cunp::isnan(r), cunp::logical_not(had_nan)),
                                   std::numeric_limits<P>::infinity(), r));
}

/// numpy.linalg.matrix_rank(A, tol=None, hermitian=False, rtol=None) (NumPy 2): the number of
/// singular values of each matrix of A (..., m, n) above tol, by default S.max() * rtol with
/// rtol = max(m, n) * eps of the singular values' dtype; hermitian: through eigvalsh, as svd's.
/// int64, of A's batch shape; a 0-d or 1-d A gives 1 unless all of it is zero (a 0-d array;
/// NumPy returns a Python int). tol and rtol are scalars here (NumPy also takes arrays of the
/// batch's shape).
template <class Backend = detail::compiled_backend, array_like A,
          class R = detail::linalg_result_t<A>>
[[nodiscard]] ndarray<std::int64_t> matrix_rank(const A& x,
                                                std::optional<double> tol = std::nullopt,
                                                bool hermitian = false,
                                                std::optional<double> rtol = std::nullopt) {
  using P = detail::norm_real_t<R>;
  if (tol && rtol) throw value_error("`tol` and `rtol` can't be both set.");
  const auto a = detail::linalg_array<R, Backend>(x);
  if (a.ndim() < 2)
    return eval<Backend>(cunp::astype<std::int64_t>(cunp::any<Backend>(cunp::not_equal(a, 0))));
  const auto S = svd<Backend, ndarray<R>, R>(a, false, false, hermitian).S;
  // NumPy's tol and rtol are float64 arrays, which compare in float64; its default rtol is a
  // Python float, weak against S's dtype
  if (tol) return cunp::count_nonzero<Backend>(cunp::greater(cunp::astype<double>(S), *tol), -1);
  const auto smax = cunp::amax<Backend>(S, -1, reduce_options{.keepdims = true, .initial = 0});
  if (rtol)
    return cunp::count_nonzero<Backend>(
        cunp::greater(cunp::astype<double>(S), cunp::astype<double>(smax) * *rtol), -1);
  const index_t m = a.shape()[a.shape().size() - 2], n = a.shape().back();
  const double r = double(std::max(m, n)) * double(std::numeric_limits<P>::epsilon());
  return cunp::count_nonzero<Backend>(cunp::greater(S, smax * r), -1);
}

}  // namespace cunp::linalg
