// cunp/detail/sparse/format.hpp: what the sparse classes share with both backends: the value and
// index types they accept, the arrays of a compressed matrix, the facts a scan of its indices
// finds (and scipy's check_format words for what it finds wrong), the index-type fit checks.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "cunp/errors.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/shape.hpp"

namespace cunp::sparse {

/// The storage formats cunp has (scipy's csr, csc, coo; no dia, lil, dok, bsr).
enum class format : std::uint8_t { csr, csc, coo };

}  // namespace cunp::sparse

namespace cunp::detail {

template <class T>
inline constexpr bool sparse_value_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
template <class I>
inline constexpr bool sparse_index_v =
    std::is_same_v<I, std::int32_t> || std::is_same_v<I, std::int64_t>;

/// The static_asserts every sparse class template makes, readable where the type is wrong.
template <class T, class I> constexpr void check_sparse_types() {
  static_assert(sparse_value_v<T>,
                "cunp::sparse matrices hold float, double, std::complex<float> or "
                "std::complex<double> values");
  static_assert(sparse_index_v<I>, "cunp::sparse matrices index with std::int32_t or std::int64_t");
}

/// The three arrays of a CSR or CSC matrix: the major axis is the rows of a CSR matrix and the
/// columns of a CSC one; `indices` are minor-axis indices, `indptr` has majors + 1 entries.
template <class T, class I> struct cs_arrays {
  ndarray<T> data;
  ndarray<I> indices;
  ndarray<I> indptr;
};

/// Whether nnz stored entries are more than a rows x cols matrix has places (duplicates only:
/// scipy allows them), which cuSPARSE refuses ("nnz > matrix size"); rows x cols not formed
/// where it would overflow.
inline bool overfull(index_t nnz, index_t rows, index_t cols) {
  return cols == 0 ? nnz > 0 : nnz / cols >= rows && nnz > rows * cols;
}

/// How entries given by coordinates become compressed lines: grouped by line, each line's
/// entries in their input order (scipy's coo_tocsr and csr_hstack); also sorted by minor index
/// within each line, ties in input order (a stable sort); or sorted with each run of equal
/// coordinates added into one entry in its order (scipy's tocsr of a COO matrix).
enum class compress_mode : std::uint8_t { group, sort, sum };

/// A fact about a matrix's index arrays that is known to hold, known not to, or not yet known
/// (scipy computes has_sorted_indices and has_canonical_format by a scan when first asked).
enum class tri : std::int8_t { unknown = -1, no = 0, yes = 1 };
inline tri tri_of(bool b) { return b ? tri::yes : tri::no; }

/// What a compressed matrix's index arrays are known to be. Matrices that share their index
/// arrays (copies of one object, a CSR matrix and its transpose) share one of these, so that an
/// in-place sort through one is seen by all; an operation that replaces the arrays makes a new
/// one.
struct index_facts {
  tri sorted = tri::unknown;     // indices increase within each major line, duplicates allowed
  tri canonical = tri::unknown;  // sorted and no duplicate (major, minor) pairs
};
inline std::shared_ptr<index_facts> make_facts(tri sorted, tri canonical) {
  return std::make_shared<index_facts>(index_facts{sorted, canonical});
}

/// What one scan of a compressed matrix's indptr and indices finds, for scipy's check_format
/// and the format flags. `last` is indptr[majors]; the index range and the order facts are those
/// of the entries before min(last, indices.size()) (scipy checks after pruning to indptr[-1]).
template <class I> struct compressed_report {
  I first = 0, last = 0;
  bool decreasing = false;  // some indptr[i + 1] < indptr[i]
  I min_index = 0, max_index = 0;
  bool unsorted = false;    // some line's indices decrease
  bool duplicates = false;  // some line holds an index twice next to each other
};

/// The smallest and largest row and column indices of a COO matrix (0 for no entries).
template <class I> struct coo_report { I row_min = 0, row_max = 0, col_min = 0, col_max = 0; };

/// Throws value_error saying to use int64 indices unless v fits I (scipy picks the index dtype
/// at run time; cunp fixes it in the type).
template <class I> void check_index_fits(index_t v, const char* what) {
  if (v > static_cast<index_t>(std::numeric_limits<I>::max()))
    throw value_error(std::string(what) + " " + std::to_string(v) +
                      " does not fit the matrix's int32 indices: use std::int64_t indices");
}

/// scipy's check_shape of a sparse matrix's (rows, cols), then the index-type fit of both.
template <class I> void check_sparse_shape(const shape_t& shape) {
  if (shape.size() != 2)
    throw value_error("expected a shape of 2 dimensions, got " + shape_str(shape));
  for (const index_t e : shape)
    if (e < 0) throw value_error("'shape' elements cannot be negative");
  check_index_fits<I>(shape[0], "a matrix dimension of");
  check_index_fits<I>(shape[1], "a matrix dimension of");
}

/// scipy's check_format (full_check=True) of a CSR (major = rows) or CSC matrix, in scipy's
/// order: the shapes of the three arrays and the report of their scan. Returns the number of
/// entries, indptr[-1]: the arrays are cut to it (scipy's prune). One difference: scipy skips
/// the indptr order check when indptr[-1] is 0; cunp makes it always (a decreasing indptr would
/// let a kernel read out of bounds).
template <class I>
index_t check_compressed(index_t majors, index_t minors, index_t data_size, index_t indices_size,
                         index_t indptr_size, const compressed_report<I>& r) {
  if (indptr_size != majors + 1)
    throw value_error("index pointer size " + std::to_string(indptr_size) + " should be " +
                      std::to_string(majors + 1));
  if (r.first != 0) throw value_error("index pointer should start with 0");
  if (indices_size != data_size) throw value_error("indices and data should have the same size");
  if (static_cast<index_t>(r.last) > indices_size)
    throw value_error(
        "Last value of index pointer should be less than the size of index and data arrays");
  const index_t nnz = r.last;
  if (nnz > 0) {
    if (static_cast<index_t>(r.max_index) >= minors)
      throw value_error("indices must be < " + std::to_string(minors));
    if (r.min_index < 0) throw value_error("indices must be >= 0");
  }
  if (r.decreasing) throw value_error("indptr must be a non-decreasing sequence");
  return nnz;
}

/// scipy's COO checks: the lengths of the three arrays, then each axis's index range.
template <class I> void check_coo(const shape_t& shape, index_t nnz, const coo_report<I>& r) {
  if (nnz == 0) return;
  const I maxs[2] = {r.row_max, r.col_max}, mins[2] = {r.row_min, r.col_min};
  for (int i = 0; i < 2; ++i) {
    if (static_cast<index_t>(maxs[i]) >= shape[i])
      throw value_error("axis " + std::to_string(i) + " index " + std::to_string(maxs[i]) +
                        " exceeds matrix dimension " + std::to_string(shape[i]));
    if (mins[i] < 0)
      throw value_error("negative axis " + std::to_string(i) +
                        " index: " + std::to_string(mins[i]));
  }
}

/// Throws value_error unless `a` is 1-d (the arrays of a sparse matrix).
template <class A> void check_one_d(const A& a, const char* what) {
  if (a.ndim() != 1) throw value_error(std::string(what));
}

/// a itself when it is C-contiguous, else a contiguous copy: kernels read the arrays of a
/// sparse matrix as plain vectors.
template <class T> ndarray<T> contiguous(const ndarray<T>& a) {
  return a.is_contiguous() ? a : a.copy();
}

/// The first n elements of a (a view: scipy's prune).
template <class T> ndarray<T> first_n(const ndarray<T>& a, index_t n) {
  if (n == a.size()) return a;
  return ndarray<T>(a.storage(), a.offset(), shape_t{n}, strides_t{1});
}

/// scipy.sparse's diagonal length: 0 when k is outside the matrix.
inline index_t diagonal_length(index_t rows, index_t cols, index_t k) {
  if (k <= -rows || k >= cols) return 0;
  return std::max<index_t>(
      0, std::min(rows + std::min<index_t>(k, 0), cols - std::max<index_t>(k, 0)));
}

}  // namespace cunp::detail
