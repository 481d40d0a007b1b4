// cunp/detail/cpu/sparse/inspect.hpp: the cpu backend's scans of a sparse matrix's index arrays
// (detail/cuda/sparse/inspect.cuh is the CUDA one): what check_format and the format flags read.
#pragma once
#include <algorithm>

#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// One pass over indptr (majors + 1 entries, at least 1) and the first min(indptr[-1],
/// indices.size()) indices: everything scipy's check_format and the sorted/canonical flags ask.
/// Line ranges are clamped to that prefix, so that a bad indptr reads nothing out of bounds.
template <class I>
compressed_report<I> sparse_inspect(host_backend, const ndarray<I>& indptr,
                                    const ndarray<I>& indices) {
  require_cpu_for(indptr.device(), "a sparse matrix's check");
  const I* p = indptr.data();
  const I* ix = indices.data();
  const index_t majors = indptr.size() - 1;
  compressed_report<I> r;
  r.first = p[0];
  r.last = p[majors];
  const index_t nnz = std::clamp<index_t>(r.last, 0, indices.size());
  if (nnz > 0) {
    r.min_index = *std::min_element(ix, ix + nnz);
    r.max_index = *std::max_element(ix, ix + nnz);
  }
  for (index_t i = 0; i < majors; ++i) {
    if (p[i + 1] < p[i]) r.decreasing = true;
    const index_t b = std::clamp<index_t>(p[i], 0, nnz), e = std::clamp<index_t>(p[i + 1], b, nnz);
    for (index_t j = b + 1; j < e; ++j) {
      if (ix[j] < ix[j - 1]) r.unsorted = true;
      if (ix[j] == ix[j - 1]) r.duplicates = true;
    }
  }
  return r;
}

/// The index ranges of a COO matrix's row and col (each over its own length: scipy infers a
/// shape before it compares the lengths).
template <class I>
coo_report<I> coo_inspect(host_backend, const ndarray<I>& row, const ndarray<I>& col) {
  require_cpu_for(row.device(), "a sparse matrix's check");
  coo_report<I> r;
  if (row.size() > 0) {
    const auto [lo, hi] = std::minmax_element(row.data(), row.data() + row.size());
    r.row_min = *lo;
    r.row_max = *hi;
  }
  if (col.size() > 0) {
    const auto [lo, hi] = std::minmax_element(col.data(), col.data() + col.size());
    r.col_min = *lo;
    r.col_max = *hi;
  }
  return r;
}

}  // namespace cunp::detail
