// cunp/detail/cpu/sparse/arithmetic.hpp: the cpu backend of the line merge (detail/sparse/
// merge.hpp), the kernel of the element-wise arithmetic of two compressed matrices and of summing
// duplicates (detail/cuda/sparse/arithmetic.cuh is the CUDA one): count each line's entries,
// scan the counts into indptr, write each line.
#pragma once
#include <cstdint>
#include <vector>

#include "cunp/detail/cpu/sparse/convert.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/detail/sparse/merge.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail {

/// The merge of a and b line by line (majors lines each; each line's indices sorted,
/// duplicates allowed) under op; b may have no arrays at all (an empty indptr), for op first.
/// The result is canonical: sorted, one entry per index. Its entry count must fit I. With
/// reuse_unchanged, a merge that keeps every entry of a (no b, op first: a was canonical and,
/// with drop_zeros, had no zero) returns a's own arrays: for temporaries only.
template <class T, class I>
cs_arrays<T, I> sparse_merge(host_backend, index_t majors, const cs_arrays<T, I>& a,
                             const cs_arrays<T, I>& b, merge_op op, bool drop_zeros,
                             bool reuse_unchanged = false) {
  require_cpu_for(a.indptr.device(), "sparse arithmetic");
  using M = math_t<T>;
  const bool has_b = b.indptr.size() > 0;
  const I* ap = a.indptr.data();
  const I* aj = a.indices.data();
  const auto* ax = reinterpret_cast<const M*>(a.data.data());
  const I* bp = has_b ? b.indptr.data() : nullptr;
  const I* bj = has_b ? b.indices.data() : nullptr;
  const auto* bx = has_b ? reinterpret_cast<const M*>(b.data.data()) : nullptr;
  const auto line = [&](index_t i, I* oj, M* ox) {
    return merge_line<M, I>(op, drop_zeros, aj, ax, ap[i], ap[i + 1], bj, bx, has_b ? bp[i] : 0,
                            has_b ? bp[i + 1] : 0, oj, ox);
  };
  const index_t work = a.data.size() + (has_b ? b.data.size() : 0);
  std::vector<std::int64_t> start(static_cast<std::size_t>(majors) + 1, 0);
#pragma omp parallel for schedule(dynamic, 256) if (host_sparse::worth_threads(work))
  for (index_t i = 0; i < majors; ++i) start[i + 1] = line(i, nullptr, nullptr);
  for (index_t i = 0; i < majors; ++i) start[i + 1] += start[i];
  const index_t nnz = start[majors];
  if (reuse_unchanged && !has_b && op == merge_op::first && nnz == a.data.size()) return a;
  check_index_fits<I>(nnz, "the result's number of stored entries,");
  cs_arrays<T, I> out{ndarray<T>({nnz}, cpu), ndarray<I>({nnz}, cpu),
                      ndarray<I>({majors + 1}, cpu)};
  I* ptr = out.indptr.data();
  for (index_t i = 0; i <= majors; ++i) ptr[i] = static_cast<I>(start[i]);
  I* oj = out.indices.data();
  auto* ox = reinterpret_cast<M*>(out.data.data());
#pragma omp parallel for schedule(dynamic, 256) if (host_sparse::worth_threads(work))
  for (index_t i = 0; i < majors; ++i) line(i, oj + start[i], ox + start[i]);
  return out;
}

}  // namespace cunp::detail
