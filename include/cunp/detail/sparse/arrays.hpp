// cunp/detail/sparse/arrays.hpp: the sparse family's operations on raw arrays, each checked and
// allocated here and run by one backend call (detail/cpu/sparse/, detail/cuda/sparse/): the
// validation of a matrix's arrays, conversions, sums, filters. The classes (sparse_matrix.hpp)
// and the construction functions (sparse_construct.hpp) are written on these.
#pragma once
#include <cstdint>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/sparse/convert.hpp"
#include "cunp/detail/cpu/sparse/inspect.hpp"
#include "cunp/detail/cpu/sparse/reduce.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/indexing.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/selection.hpp"
#include "cunp/sort.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::detail {

/// One scan of a compressed matrix's index arrays (on a GPU: one wait, for its small report).
template <class Backend, class I>
compressed_report<I> inspect_compressed(const ndarray<I>& indptr, const ndarray<I>& indices) {
  return dispatch<Backend>(indptr.device(),
                           [&](auto be) { return sparse_inspect(be, indptr, indices); });
}

/// The facts a report establishes about the entries it scanned.
template <class I> std::shared_ptr<index_facts> facts_of(const compressed_report<I>& r) {
  return make_facts(tri_of(!r.unsorted), tri_of(!r.unsorted && !r.duplicates));
}

/// A compressed matrix's arrays checked as scipy's check_format (full_check=True) and cut to
/// indptr[-1] (scipy's prune), contiguous, with the facts the check's scan found. majors,
/// minors: (rows, cols) for CSR, (cols, rows) for CSC. Waits once on a GPU (the scan's report).
template <class Backend, class T, class I>
cs_arrays<T, I> checked_compressed(const ndarray<T>& data, const ndarray<I>& indices,
                                   const ndarray<I>& indptr, index_t majors, index_t minors,
                                   std::shared_ptr<index_facts>& facts) {
  if (data.ndim() != 1 || indices.ndim() != 1 || indptr.ndim() != 1)
    throw value_error("data, indices, and indptr should be 1-D");
  check_same_device(data.device(), indices.device(), "a sparse matrix");
  check_same_device(data.device(), indptr.device(), "a sparse matrix");
  if (indptr.size() != majors + 1)
    throw value_error("index pointer size " + std::to_string(indptr.size()) + " should be " +
                      std::to_string(majors + 1));
  check_index_fits<I>(data.size(), "a number of stored entries of");
  cs_arrays<T, I> a{contiguous(data), contiguous(indices), contiguous(indptr)};
  const compressed_report<I> r = inspect_compressed<Backend>(a.indptr, a.indices);
  const index_t nnz =
      check_compressed(majors, minors, data.size(), indices.size(), indptr.size(), r);
  a.data = first_n(a.data, nnz);
  a.indices = first_n(a.indices, nnz);
  facts = facts_of(r);
  return a;
}

/// The index ranges of a COO matrix's row and col (on a GPU: one wait).
template <class Backend, class I>
coo_report<I> inspect_coo(const ndarray<I>& row, const ndarray<I>& col) {
  return dispatch<Backend>(row.device(), [&](auto be) { return coo_inspect(be, row, col); });
}

/// The transpose of a compressed matrix: CSR (majors x minors) -> CSC, CSC -> CSR. scipy's
/// csr_tocsc: each output line in input major order, so sorted.
template <class Backend, class T, class I>
cs_arrays<T, I> transposed(index_t majors, index_t minors, const cs_arrays<T, I>& a) {
  const device dev = a.data.device();
  cs_arrays<T, I> out{ndarray<T>({a.data.size()}, dev), ndarray<I>({a.data.size()}, dev),
                      ndarray<I>({minors + 1}, dev)};
  dispatch<Backend>(dev, [&](auto be) {
    sparse_transpose(be, majors, minors, a.indptr, a.indices, a.data, out.indptr, out.indices,
                     out.data);
  });
  return out;
}

/// The major index of each entry of a compressed matrix (scipy's expandptr).
template <class Backend, class I> ndarray<I> expanded(const ndarray<I>& indptr, index_t nnz) {
  const ndarray<I> out({nnz}, indptr.device());
  if (nnz > 0)
    dispatch<Backend>(indptr.device(), [&](auto be) { sparse_expand_indptr(be, indptr, out); });
  return out;
}

/// Entries by coordinates into compressed form as `mode` says (grouped by line, sorted stably,
/// or sorted with duplicates summed: a GPU then waits once, for the number of distinct entries).
template <class Backend, class T, class I>
cs_arrays<T, I> compressed_from(index_t majors, index_t minors, const ndarray<I>& major,
                                const ndarray<I>& minor, const ndarray<T>& data,
                                compress_mode mode) {
  return dispatch<Backend>(data.device(), [&](auto be) {
    return sparse_compress(be, majors, minors, major, minor, data, mode);
  });
}

/// The compressed form of a 2-d dense array, explicit zeros dropped (a GPU waits once: nnz).
template <class Backend, class I, class T>
cs_arrays<T, I> compressed_from_dense(const ndarray<T>& dense, bool by_rows) {
  return dispatch<Backend>(dense.device(),
                           [&](auto be) { return sparse_from_dense<T, I>(be, dense, by_rows); });
}

/// A compressed matrix as a C-ordered dense array, duplicates added.
template <class Backend, class T, class I>
ndarray<T> dense_of(const shape_t& shape, bool by_rows, const cs_arrays<T, I>& a) {
  const ndarray<T> out(shape, a.data.device());
  if (out.size() > 0)
    dispatch<Backend>(out.device(), [&](auto be) {
      sparse_to_dense(be, by_rows, a.indptr, a.indices, a.data, out);
    });
  return out;
}

/// A COO matrix as a C-ordered dense array, duplicates added.
template <class Backend, class T, class I>
ndarray<T> dense_of_coo(const shape_t& shape, const ndarray<I>& row, const ndarray<I>& col,
                        const ndarray<T>& data) {
  const ndarray<T> out(shape, data.device());
  if (out.size() > 0)
    dispatch<Backend>(out.device(), [&](auto be) { coo_to_dense(be, row, col, data, out); });
  return out;
}

/// Diagonal k of a compressed matrix of `shape` (scipy's length rule), duplicates added.
template <class Backend, class T, class I>
ndarray<T> diagonal_of(const shape_t& shape, bool by_rows, index_t k, const cs_arrays<T, I>& a) {
  const ndarray<T> out({diagonal_length(shape[0], shape[1], k)}, a.data.device());
  if (out.size() > 0)
    dispatch<Backend>(out.device(), [&](auto be) {
      sparse_diagonal(be, by_rows, k, a.indptr, a.indices, a.data, out);
    });
  return out;
}

/// The sum of each major line of a compressed matrix.
template <class Backend, class T, class I> ndarray<T> line_sums(const cs_arrays<T, I>& a) {
  const ndarray<T> out({a.indptr.size() - 1}, a.data.device());
  if (out.size() > 0)
    dispatch<Backend>(out.device(), [&](auto be) { sparse_line_sums(be, a.indptr, a.data, out); });
  return out;
}

/// The entries of a compressed matrix whose `keep` (a bool array or expression, one element an
/// entry) is true, in order: indptr recounted. Waits once on a GPU (the count).
template <class Backend, class T, class I, class M>
cs_arrays<T, I> kept_entries(const cs_arrays<T, I>& a, const M& keep) {
  const ndarray<std::int64_t> at = flatnonzero<Backend>(keep);
  cs_arrays<T, I> out;
  out.data = take<Backend>(a.data, at);
  out.indices = take<Backend>(a.indices, at);
  // Entries kept before line i's first: where indptr[i] falls among the kept positions.
  out.indptr = searchsorted<Backend>(at, a.indptr).template astype<I, Backend>();
  return out;
}

}  // namespace cunp::detail
