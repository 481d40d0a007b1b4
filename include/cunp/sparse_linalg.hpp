// cunp/sparse_linalg.hpp: scipy.sparse.linalg: the norm of a sparse matrix (the iterative
// solvers join this file later). Composed of the family's operations (abs, the sparse
// matrix-vector product for line sums) and cunp's reductions, so it runs on every backend.
#pragma once
#include <string>

#include "cunp/creation.hpp"
#include "cunp/linalg_norms.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sparse_products.hpp"

namespace cunp::sparse::linalg {

using cunp::linalg::inf;

/// scipy.sparse.linalg.norm(x, ord): the matrix norms of a sparse matrix, a 0-d array of its
/// real dtype. ord None, "fro", "f": the Frobenius norm of the canonical form's values (duplicates
/// summed first); inf / -inf: the largest / smallest row sum of |x|; 1 / -1: the largest /
/// smallest column sum of |x| (a matrix with no rows has no row sums: NumPy's error for max of
/// nothing, and so for no columns); 2 / -2: the largest / smallest singular value, of the dense
/// matrix (scipy: ARPACK's svds for 2, NotImplementedError for -2). Any other ord is scipy's
/// ValueError ("Invalid norm order for matrices."). scipy's axis= (vector norms) is not taken.
template <class Backend = detail::compiled_backend, sparse_matrix_type M,
          class P = typename detail::complex_parts<detail::sparse_value_t<M>>::type>
[[nodiscard]] ndarray<P> norm(const M& x, const cunp::linalg::norm_ord& ord = {}) {
  using T = detail::sparse_value_t<M>;
  if (ord.is_none() || ord.is_fro()) {
    // scipy: np.linalg.norm of the deduplicated values (their order does not matter).
    if constexpr (detail::is_coo_v<M>) {
      const M c =
          x.has_canonical_format() ? x : x.template tocsr<Backend>().template tocoo<Backend>();
      return cunp::linalg::norm<Backend>(c.data());
    } else {
      constexpr bool by_rows = !detail::is_csc_v<M>;
      using I = detail::sparse_index_t<M>;
      return cunp::linalg::norm<Backend>(detail::lines_of<by_rows, T, I, Backend>(x, true).data);
    }
  }
  if (ord.is(2) || ord.is(-2))
    return cunp::linalg::norm<Backend>(x.template todense<Backend>(), ord);
  const bool rows = ord.is(cunp::linalg::inf) || ord.is(-cunp::linalg::inf);
  if (!rows && !ord.is(1) && !ord.is(-1)) throw value_error("Invalid norm order for matrices.");
  // The line sums of |x| are |x| times ones (scipy's sum(axis) is that product too).
  const auto a = abs<Backend>(x);
  const index_t n = x.shape()[rows ? 1 : 0];
  const ndarray<P> ones = full<P>({n}, P(1), x.device());
  const ndarray<P> sums = rows ? cunp::matmul<Backend>(a, ones) : cunp::matmul<Backend>(ones, a);
  const bool largest = ord.is(cunp::linalg::inf) || ord.is(1);
  return largest ? cunp::max<Backend>(sums) : cunp::min<Backend>(sums);
}

}  // namespace cunp::sparse::linalg
