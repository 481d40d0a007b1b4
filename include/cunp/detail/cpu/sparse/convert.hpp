// cunp/detail/cpu/sparse/convert.hpp: the cpu backend of the sparse conversions (the reference;
// detail/cuda/sparse/convert.cuh is the CUDA one): CSR <-> CSC, indptr -> major indices,
// coordinates -> compressed (stably sorted, duplicates summed or kept), dense <-> sparse.
//
// Both backends order entries alike, so that they give the same arrays: a compressed result
// holds each line's entries by minor index, ties in their input order (a stable sort), and a
// sum of duplicates adds them in that order, starting from the first (scipy's
// csr_sum_duplicates). scipy's own sort is not stable, so only the order of duplicates may
// differ from scipy's.
#pragma once
#include <algorithm>
#include <numeric>
#include <vector>

#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

namespace host_sparse {
/// Whether a loop of `work` steps is worth OpenMP threads.
inline bool worth_threads(index_t work) { return work >= (index_t(1) << 15); }

/// Nonzero as numpy.nonzero reads it (NaN is nonzero; -0.0 is zero).
template <class T> bool is_nonzero(const T& v) { return v != T(0); }
}  // namespace host_sparse

/// scipy's csr_tocsc: the transpose of the compressed matrix (majors lines over minors) into
/// out_indptr (minors + 1), out_indices, out_data (nnz), a counting sort by minor index that
/// keeps the major order within each output line. CSR -> CSC and CSC -> CSR alike.
template <class T, class I>
void sparse_transpose(host_backend, index_t majors, index_t minors, const ndarray<I>& indptr,
                      const ndarray<I>& indices, const ndarray<T>& data,
                      const ndarray<I>& out_indptr, const ndarray<I>& out_indices,
                      const ndarray<T>& out_data) {
  require_cpu_for(indptr.device(), "a sparse conversion");
  const I* p = indptr.data();
  const I* ix = indices.data();
  const T* x = data.data();
  I* q = out_indptr.data();
  I* ox = out_indices.data();
  T* y = out_data.data();
  const index_t nnz = p[majors];
  std::fill(q, q + minors + 1, I(0));
  for (index_t j = 0; j < nnz; ++j) ++q[ix[j] + 1];
  std::partial_sum(q, q + minors + 1, q);
  std::vector<I> next(q, q + minors);
  for (index_t i = 0; i < majors; ++i)
    for (index_t j = p[i]; j < p[i + 1]; ++j) {
      const I at = next[ix[j]]++;
      ox[at] = static_cast<I>(i);
      y[at] = x[j];
    }
}

/// The major index of each entry (scipy's expandptr): out[j] = i for j in [indptr[i],
/// indptr[i + 1]).
template <class I>
void sparse_expand_indptr(host_backend, const ndarray<I>& indptr, const ndarray<I>& out) {
  require_cpu_for(indptr.device(), "a sparse conversion");
  const I* p = indptr.data();
  I* o = out.data();
  const index_t majors = indptr.size() - 1;
#pragma omp parallel for schedule(dynamic, 1024) if (host_sparse::worth_threads(out.size()))
  for (index_t i = 0; i < majors; ++i) std::fill(o + p[i], o + p[i + 1], static_cast<I>(i));
}

/// The compressed form (majors lines over minors) of entries given by coordinates (n of each,
/// in range), as `mode` says: scipy's coo -> csr (a stable counting sort by major index), then
/// (sort, sum) each line stably sorted by minor index, then (sum) each run of equal coordinates
/// made one entry, the run's values added in order (scipy's sum_duplicates).
template <class T, class I>
cs_arrays<T, I> sparse_compress(host_backend, index_t majors, index_t /*minors*/,
                                const ndarray<I>& major, const ndarray<I>& minor,
                                const ndarray<T>& data, compress_mode mode) {
  require_cpu_for(major.device(), "a sparse conversion");
  const bool sum = mode == compress_mode::sum;
  const index_t n = major.size();
  const I* mj = major.data();
  const I* mn = minor.data();
  const T* x = data.data();
  std::vector<I> ptr(static_cast<std::size_t>(majors) + 1, I(0));
  for (index_t j = 0; j < n; ++j) ++ptr[mj[j] + 1];
  std::partial_sum(ptr.begin(), ptr.end(), ptr.begin());
  // The entries of each line, in input order (a stable counting sort by major index).
  std::vector<I> order(static_cast<std::size_t>(n));
  {
    std::vector<I> next(ptr.begin(), ptr.end() - 1);
    for (index_t j = 0; j < n; ++j) order[next[mj[j]]++] = static_cast<I>(j);
  }
  // Each line by minor index, ties kept in order; then its runs counted.
  std::vector<I> kept(static_cast<std::size_t>(majors), I(0));
#pragma omp parallel for schedule(dynamic, 256) if (host_sparse::worth_threads(n))
  for (index_t i = 0; i < majors; ++i) {
    const auto b = order.begin() + ptr[i], e = order.begin() + ptr[i + 1];
    if (mode != compress_mode::group)
      std::stable_sort(b, e, [&](I u, I v) { return mn[u] < mn[v]; });
    I runs = 0;
    for (auto it = b; it != e; ++it)
      if (!sum || it == b || mn[*it] != mn[*(it - 1)]) ++runs;
    kept[i] = runs;
  }
  cs_arrays<T, I> out;
  out.indptr = ndarray<I>({majors + 1}, cpu);
  I* q = out.indptr.data();
  q[0] = 0;
  for (index_t i = 0; i < majors; ++i) q[i + 1] = q[i] + kept[i];
  out.indices = ndarray<I>({static_cast<index_t>(q[majors])}, cpu);
  out.data = ndarray<T>({static_cast<index_t>(q[majors])}, cpu);
  I* ox = out.indices.data();
  T* y = out.data.data();
#pragma omp parallel for schedule(dynamic, 256) if (host_sparse::worth_threads(n))
  for (index_t i = 0; i < majors; ++i) {
    I at = q[i] - 1;
    for (index_t j = ptr[i]; j < ptr[i + 1]; ++j) {
      const I e = order[j];
      if (!sum || j == ptr[i] || mn[e] != mn[order[j - 1]]) {
        ++at;
        ox[at] = mn[e];
        y[at] = x[e];
      } else {
        y[at] += x[e];
      }
    }
  }
  return out;
}

/// The compressed form of the 2-d `dense` (any strides): lines along axis 0 (CSR) or axis 1
/// (CSC), the nonzero elements of each in order (numpy.nonzero's rule).
template <class T, class I>
cs_arrays<T, I> sparse_from_dense(host_backend, const ndarray<T>& dense, bool by_rows) {
  require_cpu_for(dense.device(), "a sparse matrix from a dense one");
  const int ax = by_rows ? 0 : 1;
  const index_t majors = dense.shape()[ax], minors = dense.shape()[1 - ax];
  const index_t ms = dense.strides()[ax], ns = dense.strides()[1 - ax];
  const T* a = dense.data();
  // Counted in 64 bits: the array may hold more elements than I counts, its nonzeros not.
  std::vector<index_t> count(static_cast<std::size_t>(majors) + 1, 0);
#pragma omp parallel for schedule(static) if (host_sparse::worth_threads(dense.size()))
  for (index_t i = 0; i < majors; ++i) {
    index_t c = 0;
    for (index_t j = 0; j < minors; ++j) c += host_sparse::is_nonzero(a[i * ms + j * ns]);
    count[i + 1] = c;
  }
  std::partial_sum(count.begin(), count.end(), count.begin());
  check_index_fits<I>(count[majors], "a number of stored entries of");
  cs_arrays<T, I> out;
  out.indptr = ndarray<I>({majors + 1}, cpu);
  I* q = out.indptr.data();
  std::copy(count.begin(), count.end(), q);
  out.indices = ndarray<I>({static_cast<index_t>(q[majors])}, cpu);
  out.data = ndarray<T>({static_cast<index_t>(q[majors])}, cpu);
  I* ox = out.indices.data();
  T* y = out.data.data();
#pragma omp parallel for schedule(static) if (host_sparse::worth_threads(dense.size()))
  for (index_t i = 0; i < majors; ++i) {
    I at = q[i];
    for (index_t j = 0; j < minors; ++j) {
      const T v = a[i * ms + j * ns];
      if (host_sparse::is_nonzero(v)) {
        ox[at] = static_cast<I>(j);
        y[at++] = v;
      }
    }
  }
  return out;
}

/// scipy's csr_todense into the C-ordered `out` (rows x cols), zeroed first: each line's entries
/// added in order (duplicates summed). by_rows: CSR, else CSC.
template <class T, class I>
void sparse_to_dense(host_backend, bool by_rows, const ndarray<I>& indptr,
                     const ndarray<I>& indices, const ndarray<T>& data, const ndarray<T>& out) {
  require_cpu_for(out.device(), "a sparse matrix's todense");
  const index_t cols = out.shape()[1];
  const index_t ms = by_rows ? cols : 1, ns = by_rows ? 1 : cols;
  const I* p = indptr.data();
  const I* ix = indices.data();
  const T* x = data.data();
  T* y = out.data();
  std::fill(y, y + out.size(), T(0));
  const index_t majors = indptr.size() - 1;
#pragma omp parallel for schedule(dynamic, 256) if (host_sparse::worth_threads(data.size()))
  for (index_t i = 0; i < majors; ++i)
    for (index_t j = p[i]; j < p[i + 1]; ++j) y[i * ms + ix[j] * ns] += x[j];
}

/// scipy's coo_todense into the C-ordered `out`, zeroed first: entries added in storage order.
template <class T, class I>
void coo_to_dense(host_backend, const ndarray<I>& row, const ndarray<I>& col,
                  const ndarray<T>& data, const ndarray<T>& out) {
  require_cpu_for(out.device(), "a sparse matrix's todense");
  const index_t cols = out.shape()[1];
  T* y = out.data();
  std::fill(y, y + out.size(), T(0));
  const I* r = row.data();
  const I* c = col.data();
  const T* x = data.data();
  for (index_t j = 0; j < data.size(); ++j) y[r[j] * cols + c[j]] += x[j];
}

}  // namespace cunp::detail
