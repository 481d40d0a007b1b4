// cunp/detail/sparse/product_arrays.hpp: the sparse products and the element-wise merge on raw
// arrays, each allocated here and run by one backend call (detail/cpu/sparse/products.hpp and
// arithmetic.hpp; detail/cuda/sparse/products.cuh and arithmetic.cuh under nvcc), as
// detail/sparse/arrays.hpp does for the classes' own operations. sparse_products.hpp and
// sparse_linalg.hpp are written on these.
#pragma once
#include <utility>

#include "cunp/detail/cpu/sparse/arithmetic.hpp"
#include "cunp/detail/cpu/sparse/products.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/detail/sparse/merge.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// A sparse matrix as a product's operand: the CSR arrays of a stored rows x cols matrix and
/// whether the operand is their transpose (a CSC matrix is the transpose of the CSR matrix on
/// its arrays: no conversion, cuSPARSE's operation flag).
template <class T, class I> struct product_operand {
  index_t rows = 0, cols = 0;
  cs_arrays<T, I> a;
  bool transpose = false;

  /// The operand's own extents: (rows, cols), swapped when transposed.
  [[nodiscard]] index_t out_rows() const { return transpose ? cols : rows; }
  [[nodiscard]] index_t out_cols() const { return transpose ? rows : cols; }
  /// The transpose of the operand (the same arrays, the flag flipped).
  [[nodiscard]] product_operand transposed() const { return {rows, cols, a, !transpose}; }
};

/// y = op(A) x into y (1-d, contiguous, op(A)'s rows), x 1-d of op(A)'s cols.
template <class Backend, class T, class I>
void matvec_into(const product_operand<T, I>& p, const ndarray<T>& x, const ndarray<T>& y) {
  if (y.size() == 0) return;
  dispatch<Backend>(y.device(),
                    [&](auto be) { sparse_matvec(be, p.rows, p.cols, p.a, p.transpose, x, y); });
}

/// c = op(A) b into c (2-d, row- or column-major), b 2-d of any strides.
template <class Backend, class T, class I>
void matmat_into(const product_operand<T, I>& p, const ndarray<T>& b, const ndarray<T>& c) {
  if (c.size() == 0) return;
  dispatch<Backend>(c.device(),
                    [&](auto be) { sparse_matmat(be, p.rows, p.cols, p.a, p.transpose, b, c); });
}

/// The canonical CSR arrays of A B for canonical CSR arrays A (rows x inner) and B (inner x
/// cols), exact zero sums left out (scipy's csr_matmat). A GPU waits twice (the result's size,
/// its count of zero sums).
template <class Backend, class T, class I>
cs_arrays<T, I> sparse_product(index_t rows, index_t cols, const cs_arrays<T, I>& a,
                               const cs_arrays<T, I>& b) {
  return dispatch<Backend>(a.indptr.device(),
                           [&](auto be) { return sparse_matmat_sparse(be, rows, cols, a, b); });
}

/// The line by line merge of a and b (majors lines each, each line sorted, duplicates allowed)
/// under op, zero results dropped when drop_zeros; b may be empty arrays (op first). Canonical.
/// A GPU waits once (the result's size).
template <class Backend, class T, class I>
cs_arrays<T, I> merged(index_t majors, const cs_arrays<T, I>& a, const cs_arrays<T, I>& b,
                       merge_op op, bool drop_zeros) {
  return dispatch<Backend>(a.indptr.device(),
                           [&](auto be) { return sparse_merge(be, majors, a, b, op, drop_zeros); });
}

}  // namespace cunp::detail
