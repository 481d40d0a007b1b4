// cunp/sparse_products.hpp: scipy.sparse's products and element-wise arithmetic: matmul of a
// sparse matrix and a dense vector or matrix (either side) or another sparse matrix, A + B,
// A - B, multiply (element-wise, with a sparse or dense operand), A + dense (dense), A * scalar,
// A / scalar, -A, abs(A). The products run on cuSPARSE (SpMV, SpMM, SpGEMM) on a GPU and on
// cunp's own loops on the cpu (detail/sparse/product_arrays.hpp says where each lives); the sums
// of two sparse matrices on a line merge of cunp's own on both (cuSPARSE has no generic one).
//
// A CSC matrix, and the transpose T() of a CSR one (a CSC matrix on the same arrays), enter a
// product with a dense operand as the transpose of the CSR matrix on their arrays: no
// conversion. Results follow scipy: a dense result is a new C-ordered ndarray; a sparse one is
// CSC when the left operand is CSC, else CSR, and canonical (scipy's own may be unsorted);
// multiply by a dense array gives COO. Value types promote as NumPy 2 (NEP 50: a C++ scalar is
// weak, a Python scalar); index types to the wider of the two.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "cunp/detail/sparse/arrays.hpp"
#include "cunp/detail/sparse/product_arrays.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/products.hpp"
#include "cunp/promotion.hpp"
#include "cunp/sparse_matrix.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::sparse {

/// scipy.sparse.issparse, for types: csr_matrix, csc_matrix, coo_matrix.
template <class M> inline constexpr bool issparse_v = false;
template <class T, class I> inline constexpr bool issparse_v<csr_matrix<T, I>> = true;
template <class T, class I> inline constexpr bool issparse_v<csc_matrix<T, I>> = true;
template <class T, class I> inline constexpr bool issparse_v<coo_matrix<T, I>> = true;
/// A sparse matrix type (cv and references removed).
template <class M>
concept sparse_matrix_type = issparse_v<std::remove_cvref_t<M>>;

}  // namespace cunp::sparse

namespace cunp::detail {

template <class M> using sparse_value_t = typename std::remove_cvref_t<M>::value_type;
template <class M> using sparse_index_t = typename std::remove_cvref_t<M>::index_type;
/// The index type of a result of A and B: the wider of theirs.
template <class A, class B>
using wider_index_t = std::conditional_t<(sizeof(sparse_index_t<A>) >= sizeof(sparse_index_t<B>)),
                                         sparse_index_t<A>, sparse_index_t<B>>;
template <class M>
inline constexpr bool is_csc_v = std::remove_cvref_t<M>::format == sparse::format::csc;
template <class M>
inline constexpr bool is_coo_v = std::remove_cvref_t<M>::format == sparse::format::coo;

/// The compressed matrix of CSR (ByRows) or CSC form with these arrays (known valid).
template <bool ByRows, class T, class I>
auto compressed_result(cs_arrays<T, I> a, const shape_t& shape, std::shared_ptr<index_facts> f) {
  static_assert(sparse_value_v<T>, "a sparse result's values must be float, double or complex");
  if constexpr (ByRows)
    return sparse::csr_matrix<T, I>(unchecked, std::move(a), shape, std::move(f));
  else
    return sparse::csc_matrix<T, I>(unchecked, std::move(a), shape, std::move(f));
}
inline std::shared_ptr<index_facts> canonical_facts() { return make_facts(tri::yes, tri::yes); }

/// a's arrays with values of R and indices of J (the same arrays where the types agree).
template <class R, class J, class Backend, class T, class I>
cs_arrays<R, J> arrays_as(const cs_arrays<T, I>& a) {
  cs_arrays<R, J> r;
  if constexpr (std::is_same_v<T, R>)
    r.data = a.data;
  else
    r.data = a.data.template astype<R, Backend>();
  if constexpr (std::is_same_v<I, J>) {
    r.indices = a.indices;
    r.indptr = a.indptr;
  } else {
    r.indices = a.indices.template astype<J, Backend>();
    r.indptr = a.indptr.template astype<J, Backend>();
  }
  return r;
}

/// m's compressed arrays along rows (ByRows: CSR) or columns (CSC), with values of R and indices
/// of J, each line sorted by index and, with `canonical`, without duplicates (scipy's
/// sum_duplicates, on new arrays: m is left as it is). A GPU may wait: a scan for the facts
/// nothing recorded, the size of the summed form.
template <bool ByRows, class R, class J, class Backend, class M>
cs_arrays<R, J> lines_of(const M& m, bool canonical) {
  if constexpr (ByRows && std::remove_cvref_t<M>::format != sparse::format::csr) {
    return lines_of<ByRows, R, J, Backend>(m.template tocsr<Backend>(), canonical);
  } else if constexpr (!ByRows && !is_csc_v<M>) {
    return lines_of<ByRows, R, J, Backend>(m.template tocsc<Backend>(), canonical);
  } else {
    cs_arrays<sparse_value_t<M>, sparse_index_t<M>> a = m.arrays();
    const bool ok = canonical ? m.template has_canonical_format<Backend>()
                              : m.template has_sorted_indices<Backend>();
    if (!ok) {
      const index_t majors = a.indptr.size() - 1, minors = m.shape()[ByRows ? 1 : 0];
      a = compressed_from<Backend>(majors, minors, expanded<Backend>(a.indptr, m.nnz()), a.indices,
                                   a.data, canonical ? compress_mode::sum : compress_mode::sort);
    }
    return arrays_as<R, J, Backend>(a);
  }
}

/// Whether m stores more entries than its shape has places (format.hpp's overfull).
template <class M> bool overfull(const M& m) {
  return overfull(m.nnz(), m.shape()[0], m.shape()[1]);
}

/// m as a product operand with values of R: the CSR arrays of m (CSR), of its transpose (CSC,
/// flagged), or of its canonical CSR form (COO: scipy converts too). An overfull m is given
/// summed (lines_of's canonical arrays), on every backend, so that both add the same terms.
template <class R, class Backend, class M>
product_operand<R, sparse_index_t<M>> product_operand_of(const M& m) {
  using I = sparse_index_t<M>;
  if constexpr (is_coo_v<M>) {
    return product_operand_of<R, Backend>(m.template tocsr<Backend>());
  } else {
    constexpr bool csc = is_csc_v<M>;
    const index_t rows = m.shape()[csc ? 1 : 0], cols = m.shape()[csc ? 0 : 1];
    if (overfull(m)) return {rows, cols, lines_of<!csc, R, I, Backend>(m, true), csc};
    return {rows, cols, arrays_as<R, I, Backend>(m.arrays()), csc};
  }
}

/// scipy's text for operands of matmul whose inner extents differ (n: the left's columns, k:
/// the right's rows; vector: a 1-d or one-column right operand).
inline std::string matmul_mismatch(index_t n, index_t k, bool vector) {
  return "matmul: dimension mismatch with signature (n,k=" + std::to_string(n) +
         "),(k=" + std::to_string(k) + (vector ? ",1?)->(n,1?)" : ",m)->(n,m)");
}

/// scipy's checks of a dense right operand of shape `x` against a matrix with n columns.
inline void check_dense_operand(const shape_t& x, index_t n) {
  if (x.empty()) throw value_error("Scalar operands are not allowed, use '*' instead");
  if (x.size() > 2) throw value_error("could not interpret dimensions");
  const bool vector = x.size() == 1 || x[1] == 1;
  if (x[0] != n) throw shape_error(matmul_mismatch(n, x[0], vector));
}

/// A 1-d view of the one column of an (n, 1) array, or the one row of a (1, n) one.
template <class T> ndarray<T> vector_of(const ndarray<T>& x, int axis) {
  return ndarray<T>(x.storage(), x.offset(), shape_t{x.shape()[axis]},
                    strides_t{x.strides()[axis]});
}

/// op(A) x for a checked dense x (scipy's _matmul_dispatch): 1-d x and one-column x through
/// SpMV, (m, 1) for the latter; a matrix through SpMM. A new C-ordered array.
template <class Backend, class R, class I>
ndarray<R> operand_times_dense(const product_operand<R, I>& p, const ndarray<R>& x) {
  const index_t m = p.out_rows();
  if (x.ndim() == 1) {
    ndarray<R> y({m}, x.device());
    matvec_into<Backend>(p, x, y);
    return y;
  }
  ndarray<R> y({m, x.shape()[1]}, x.device());
  if (x.shape()[1] == 1)
    matvec_into<Backend>(p, vector_of(x, 0), y.reshape({m}));
  else
    matmat_into<Backend>(p, x, y);
  return y;
}

/// x op(A) for a dense x (scipy's _rmatmul_dispatch: (A^T x^T)^T, checked as that), written
/// straight into a C-ordered result: its transpose, column-major, is what SpMM writes.
template <class Backend, class R, class I>
ndarray<R> dense_times_operand(const ndarray<R>& x, const product_operand<R, I>& p) {
  const product_operand<R, I> pt = p.transposed();
  shape_t xt(x.shape().rbegin(), x.shape().rend());
  check_dense_operand(xt, pt.out_cols());
  if (x.ndim() == 1) return operand_times_dense<Backend>(pt, x);
  const index_t rows = x.shape()[0], n = pt.out_rows();
  ndarray<R> r({rows, n}, x.device());
  if (rows == 1)
    matvec_into<Backend>(pt, vector_of(x, 1), r.reshape({n}));
  else
    matmat_into<Backend>(pt, x.T(), r.T());
  return r;
}

/// The element-wise merge of two sparse matrices of equal shape (scipy's _binopt): both in the
/// left operand's frame (CSC for a CSC left operand, else CSR), each line sorted, zero results
/// left out. Unequal shapes are scipy's ValueError, in its words for each operation.
template <class Backend, class A, class B> auto sparse_binop(const A& a, const B& b, merge_op op) {
  using R = result_type_t<sparse_value_t<A>, sparse_value_t<B>>;
  using J = wider_index_t<A, B>;
  constexpr bool by_rows = !is_csc_v<A>;
  if (a.shape() != b.shape())
    throw shape_error(op == merge_op::times ? "inconsistent shapes " + shape_str(a.shape()) +
                                                  " and " + shape_str(b.shape())
                                            : std::string("inconsistent shapes"));
  check_same_device(a.device(), b.device(), "a sparse matrix operation");
  const index_t majors = a.shape()[by_rows ? 0 : 1];
  return compressed_result<by_rows>(
      merged<Backend>(majors, lines_of<by_rows, R, J, Backend>(a, false),
                      lines_of<by_rows, R, J, Backend>(b, false), op, true),
      a.shape(), canonical_facts());
}

/// m with `values` as its values, entry for entry: same format, the index arrays copied (as
/// scipy's _with_data: the result shares nothing with m).
template <class V, class M> auto with_values(const M& m, ndarray<V> values) {
  using I = sparse_index_t<M>;
  if constexpr (is_coo_v<M>) {
    return sparse::coo_matrix<V, I>(unchecked, std::move(values), m.row().copy(), m.col().copy(),
                                    m.shape(), m.has_canonical_format());
  } else {
    return compressed_result<!is_csc_v<M>>(
        cs_arrays<V, I>{std::move(values), m.indices().copy(), m.indptr().copy()}, m.shape(),
        nullptr);
  }
}

/// 1 / s as Python computes it for a Python scalar s (a double, or a complex of doubles), or
/// Python's ZeroDivisionError for 0 (as value_error, with Python's words).
template <class S> auto reciprocal_of(const S& s) {
  if constexpr (is_complex_v<S>) {
    const std::complex<double> z(static_cast<double>(s.real()), static_cast<double>(s.imag()));
    if (z == std::complex<double>(0)) throw value_error("complex division by zero");
    return std::complex<double>(1) / z;
  } else {
    if (s == S(0))
      throw value_error(std::is_integral_v<S> ? "division by zero" : "float division by zero");
    return 1.0 / static_cast<double>(s);
  }
}

}  // namespace cunp::detail

namespace cunp {

/// scipy's A @ x for a sparse A and a dense x: x 1-d of A's columns gives a 1-d result, x 2-d
/// (A's columns, k) an (A's rows, k) one (cuSPARSE's SpMV and SpMM on a GPU; x row- or
/// column-major as it lies, any other layout copied first). The values promote as NumPy's
/// result_type. A sparse transpose (A.T()) is a product with cuSPARSE's transpose flag.
template <class Backend = detail::compiled_backend, sparse::sparse_matrix_type M, array_like X,
          class R = result_type_t<detail::sparse_value_t<M>, detail::input_t<X>>>
[[nodiscard]] ndarray<R> matmul(const M& a, const X& x) {
  const ndarray<R> xv = detail::array_of<R, Backend>(x);
  detail::check_same_device(a.device(), xv.device(), "matmul");
  detail::check_dense_operand(xv.shape(), a.shape()[1]);
  return detail::operand_times_dense<Backend>(detail::product_operand_of<R, Backend>(a), xv);
}

/// scipy's x @ A for a dense x and a sparse A (computed as (A^T x^T)^T, the transpose a flag):
/// x 1-d of A's rows gives a 1-d result, x 2-d (k, A's rows) a C-ordered (k, A's columns) one.
template <class Backend = detail::compiled_backend, array_like X, sparse::sparse_matrix_type M,
          class R = result_type_t<detail::input_t<X>, detail::sparse_value_t<M>>>
[[nodiscard]] ndarray<R> matmul(const X& x, const M& a) {
  const ndarray<R> xv = detail::array_of<R, Backend>(x);
  detail::check_same_device(a.device(), xv.device(), "matmul");
  if (xv.ndim() == 0) throw value_error("Scalar operands are not allowed, use '*' instead");
  if (xv.ndim() > 2) throw value_error("could not interpret dimensions");
  return detail::dense_times_operand<Backend>(xv, detail::product_operand_of<R, Backend>(a));
}

/// scipy's A @ B for two sparse matrices (cuSPARSE's SpGEMM on a GPU, Gustavson's row product
/// on the cpu): CSC when A is CSC, else CSR; canonical, exact zero sums left out (as scipy's
/// csr_matmat). Operands that are not canonical are summed first, on new arrays. A GPU waits
/// twice: for the result's size and for its count of zero sums.
template <class Backend = detail::compiled_backend, sparse::sparse_matrix_type A,
          sparse::sparse_matrix_type B>
[[nodiscard]] auto matmul(const A& a, const B& b) {
  using R = result_type_t<detail::sparse_value_t<A>, detail::sparse_value_t<B>>;
  using J = detail::wider_index_t<A, B>;
  if (a.shape()[1] != b.shape()[0])
    throw shape_error(detail::matmul_mismatch(a.shape()[1], b.shape()[0], false));
  detail::check_same_device(a.device(), b.device(), "matmul");
  const index_t m = a.shape()[0], n = b.shape()[1];
  if constexpr (detail::is_csc_v<A>) {
    // C^T = B^T A^T, whose CSR arrays are C's CSC arrays: the operands' CSC arrays, swapped.
    return detail::compressed_result<false>(
        detail::sparse_product<Backend>(n, m, detail::lines_of<false, R, J, Backend>(b, true),
                                        detail::lines_of<false, R, J, Backend>(a, true)),
        {m, n}, detail::canonical_facts());
  } else {
    return detail::compressed_result<true>(
        detail::sparse_product<Backend>(m, n, detail::lines_of<true, R, J, Backend>(a, true),
                                        detail::lines_of<true, R, J, Backend>(b, true)),
        {m, n}, detail::canonical_facts());
  }
}

}  // namespace cunp

namespace cunp::sparse {

/// scipy's A.dot(x): A @ x, for a dense or sparse x.
template <class Backend = detail::compiled_backend, sparse_matrix_type M, class X>
requires(array_like<X> || sparse_matrix_type<X>) [[nodiscard]] auto dot(const M& a, const X& x) {
  return cunp::matmul<Backend>(a, x);
}

/// scipy's A + B for sparse A and B of equal shapes: a canonical CSC matrix when A is CSC, else
/// CSR; entries whose sum is zero left out. Duplicates and unsorted indices are allowed.
template <sparse_matrix_type A, sparse_matrix_type B>
[[nodiscard]] auto operator+(const A& a, const B& b) {
  return detail::sparse_binop<detail::compiled_backend>(a, b, detail::merge_op::plus);
}
/// scipy's A - B for sparse A and B of equal shapes (see operator+).
template <sparse_matrix_type A, sparse_matrix_type B>
[[nodiscard]] auto operator-(const A& a, const B& b) {
  return detail::sparse_binop<detail::compiled_backend>(a, b, detail::merge_op::minus);
}

/// scipy's A.multiply(B) for sparse B of A's shape: the element-wise product (the entries both
/// store; a stored NaN or inf times nothing stays NaN, as scipy's merge computes it), as
/// operator+ forms its result.
template <class Backend = detail::compiled_backend, sparse_matrix_type A, sparse_matrix_type B>
[[nodiscard]] auto multiply(const A& a, const B& b) {
  return detail::sparse_binop<Backend>(a, b, detail::merge_op::times);
}

/// scipy's A.multiply(x) for a dense x: a COO matrix with A's entries (A's storage order; a COO
/// A's canonical form) times the matching elements of x, which is A's shape, a row (1, cols)
/// or (cols,), a column (rows, 1), or a single element. No entry is left out.
template <class Backend = detail::compiled_backend, sparse_matrix_type M, array_like X,
          class R = result_type_t<detail::sparse_value_t<M>, detail::input_t<X>>>
[[nodiscard]] coo_matrix<R, detail::sparse_index_t<M>> multiply(const M& a, const X& x) {
  using I = detail::sparse_index_t<M>;
  const ndarray<R> xv = detail::array_of<R, Backend>(x);
  detail::check_same_device(a.device(), xv.device(), "multiply");
  const shape_t& s = a.shape();
  const auto inconsistent = [&] {
    return shape_error("inconsistent shapes " + shape_str(s) + " and " + shape_str(xv.shape()));
  };
  // Which index of an entry picks its factor: both (flat row * cols + col), the column, the
  // row, none.
  enum class by { both, col, row, none } pick;
  if (xv.ndim() > 2)
    throw value_error("multiply: an operand of " + std::to_string(xv.ndim()) +
                      " dimensions makes a dense result: use cunp::multiply(A.todense(), x)");
  if (xv.size() == 1)
    pick = by::none;
  else if (xv.shape() == s)
    pick = by::both;
  else if ((xv.ndim() == 1 && xv.shape()[0] == s[1]) ||
           (xv.ndim() == 2 && xv.shape()[0] == 1 && xv.shape()[1] == s[1]))
    pick = by::col;
  else if (xv.ndim() == 2 && xv.shape()[1] == 1 && xv.shape()[0] == s[0])
    pick = by::row;
  else
    throw inconsistent();
  // scipy's ret = self.tocoo(), a COO matrix through its canonical CSR form.
  coo_matrix<detail::sparse_value_t<M>, I> c;
  if constexpr (detail::is_coo_v<M>)
    c = a.template tocsr<Backend>().template tocoo<Backend>();
  else
    c = a.template tocoo<Backend>();
  const ndarray<R> flat = ravel(xv);
  ndarray<R> factor;
  switch (pick) {
    case by::both:
      factor = take<Backend>(flat, eval<Backend>(astype<std::int64_t>(c.row()) * s[1] +
                                                 astype<std::int64_t>(c.col())));
      break;
    case by::col:
      factor = take<Backend>(flat, c.col());
      break;
    case by::row:
      factor = take<Backend>(flat, c.row());
      break;
    case by::none:
      factor = broadcast_to(flat, {c.nnz()});
      break;
  }
  ndarray<R> values = eval<Backend>(astype<R>(c.data()) * factor);
  return coo_matrix<R, I>(detail::unchecked, std::move(values), c.row(), c.col(), s,
                          c.has_canonical_format());
}

/// scipy's A * s (and s * A, A.multiply(s)) for a C++ scalar s: the values times s, a weak
/// scalar (NEP 50: a float32 matrix times 2.0 stays float32); entries kept, even zeros.
template <class Backend = detail::compiled_backend, sparse_matrix_type M, class S>
requires is_weak_scalar_v<S>
[[nodiscard]] auto multiply(const M& a, const S& s) {
  return detail::with_values(a, eval<Backend>(a.data() * s));
}
template <sparse_matrix_type M, class S>
requires is_weak_scalar_v<S>
[[nodiscard]] auto operator*(const M& a, const S& s) { return multiply(a, s); }
template <class S, sparse_matrix_type M>
requires is_weak_scalar_v<S>
[[nodiscard]] auto operator*(const S& s, const M& a) { return multiply(a, s); }

/// scipy's A / s for a C++ scalar s: the values times 1 / s (scipy multiplies by the
/// reciprocal), a float matrix's values first converted to float64 (scipy's rule: float32 / 2
/// is float64); s == 0 throws value_error with Python's ZeroDivisionError words.
template <class Backend = detail::compiled_backend, sparse_matrix_type M, class S>
requires is_weak_scalar_v<S>
[[nodiscard]] auto divide(const M& a, const S& s) {
  const auto inv = detail::reciprocal_of(s);
  if constexpr (is_complex_v<detail::sparse_value_t<M>>)
    return detail::with_values(a, eval<Backend>(a.data() * inv));
  else
    return detail::with_values(a, eval<Backend>(astype<double>(a.data()) * inv));
}
template <sparse_matrix_type M, class S>
requires is_weak_scalar_v<S>
[[nodiscard]] auto operator/(const M& a, const S& s) { return divide(a, s); }

/// scipy's -A: the values negated, entries kept.
template <sparse_matrix_type M> [[nodiscard]] auto operator-(const M& a) {
  return detail::with_values(a, eval(-a.data()));
}

/// scipy's abs(A): the absolute values (real for complex matrices) of A's canonical form:
/// duplicates are summed first, as scipy's __abs__ does (which sums them in A itself; cunp leaves
/// A as it is). Explicit zeros are kept.
template <class Backend = detail::compiled_backend, sparse_matrix_type M>
[[nodiscard]] auto abs(const M& a) {
  using T = detail::sparse_value_t<M>;
  using I = detail::sparse_index_t<M>;
  if constexpr (detail::is_coo_v<M>) {
    const coo_matrix<T, I> c =
        a.has_canonical_format() ? a : a.template tocsr<Backend>().template tocoo<Backend>();
    return detail::with_values(c, eval<Backend>(cunp::abs(c.data())));
  } else {
    constexpr bool by_rows = !detail::is_csc_v<M>;
    const detail::cs_arrays<T, I> c = detail::lines_of<by_rows, T, I, Backend>(a, true);
    return detail::compressed_result<by_rows>(
        detail::cs_arrays<typename detail::complex_parts<T>::type, I>{
            eval<Backend>(cunp::abs(c.data)), c.indices.copy(), c.indptr.copy()},
        a.shape(), detail::canonical_facts());
  }
}

/// scipy's A + x for a dense x broadcast to A's shape (NumPy's broadcast_to, and its error): a
/// new dense array, A's entries added to x.
template <sparse_matrix_type M, array_like X> [[nodiscard]] auto operator+(const M& a, const X& x) {
  using R = result_type_t<detail::sparse_value_t<M>, detail::input_t<X>>;
  const ndarray<R> xb = broadcast_to(detail::array_of<R, detail::compiled_backend>(x), a.shape());
  detail::check_same_device(a.device(), xb.device(), "a sparse matrix operation");
  return eval(xb + astype<R>(a.todense()));
}
/// scipy's x + A: A + x.
template <array_like X, sparse_matrix_type M> [[nodiscard]] auto operator+(const X& x, const M& a) {
  return a + x;
}
/// scipy's A - x for a dense x broadcast to A's shape: A.todense() - x, a new dense array.
template <sparse_matrix_type M, array_like X> [[nodiscard]] auto operator-(const M& a, const X& x) {
  using R = result_type_t<detail::sparse_value_t<M>, detail::input_t<X>>;
  const ndarray<R> xb = broadcast_to(detail::array_of<R, detail::compiled_backend>(x), a.shape());
  detail::check_same_device(a.device(), xb.device(), "a sparse matrix operation");
  return eval(astype<R>(a.todense()) - xb);
}
/// scipy's x - A for a dense x broadcast to A's shape: x - A.todense(), a new dense array.
template <array_like X, sparse_matrix_type M> [[nodiscard]] auto operator-(const X& x, const M& a) {
  using R = result_type_t<detail::input_t<X>, detail::sparse_value_t<M>>;
  const ndarray<R> xb = broadcast_to(detail::array_of<R, detail::compiled_backend>(x), a.shape());
  detail::check_same_device(a.device(), xb.device(), "a sparse matrix operation");
  return eval(xb - astype<R>(a.todense()));
}

}  // namespace cunp::sparse

namespace cunp {
/// abs(A) of a sparse matrix (scipy's abs(A)) beside numpy's abs.
using sparse::abs;
}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/sparse/arithmetic.cuh"
#include "cunp/detail/cuda/sparse/products.cuh"
#endif
