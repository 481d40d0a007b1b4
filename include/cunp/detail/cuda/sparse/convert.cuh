// cunp/detail/cuda/sparse/convert.cuh: the CUDA backend of the sparse conversions (the cpu's
// detail/cpu/sparse/convert.hpp is the reference, and the order of entries and of additions is
// the same, so both give the same arrays):
// - CSR <-> CSC: 4-byte values with 32-bit indices by one stable CUB radix sort of the entries
//   by minor index, each entry's value and major index packed into the 8 bytes the sort moves;
//   other 32-bit indices by cuSPARSE's csr2csc (cusparseCsr2cscEx2); 64-bit indices by the
//   sort of the entries' positions, then gathers;
// - coordinates -> compressed: the stable (major, minor) order of entry_order.cuh, then either a
//   gather (sorted, duplicates kept) or one thread per run of equal coordinates adding the run
//   in order (duplicates summed; the number of runs is read back: one wait);
// - dense -> compressed: a warp per line counts its nonzeros, a scan, one wait for nnz, then a
//   warp per line writes them in order (ballots place each lane's);
// - compressed -> dense: a thread per line adds its entries in order; COO -> dense: the stable
//   order, then a thread per run of equal coordinates (no atomics, so no order left to chance).
#pragma once
#include <cusparse.h>

#include <cstdint>
#include <cub/device/device_scan.cuh>

#include "cunp/creation.hpp"
#include "cunp/detail/core/math.hpp"
#include "cunp/detail/cpu/sparse/convert.hpp"
#include "cunp/detail/cuda/core/cusparse.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/sparse/descriptors.cuh"
#include "cunp/detail/cuda/sparse/entry_order.cuh"

namespace cunp::detail::cuda {

/// Whether entry k of the sorted coordinates starts a run of equal ones.
template <class I>
__device__ __forceinline__ bool starts_run(const I* major, const I* minor, index_t k) {
  return k == 0 || major[k] != major[k - 1] || minor[k] != minor[k - 1];
}

/// run[k] = 1 where entry k starts a run of equal coordinates, else 0 (scanned into run ids).
template <class I>
CUNP_KERNEL void run_starts_kernel(const I* major, const I* minor, I* run, index_t n) {
  for (index_t k = thread_id(); k < n; k += thread_count()) run[k] = starts_run(major, minor, k);
}

/// For each run of equal coordinates (run ids scanned 1, 2, ... in `run`): its values added in
/// order from the first (scipy's csr_sum_duplicates), written as entry run - 1 with its indices.
template <class M, class I>
CUNP_KERNEL void sum_runs_kernel(const I* major, const I* minor, const I* run, const I* order,
                                 const M* x, index_t n, M* y, I* out_major, I* out_minor) {
  for (index_t k = thread_id(); k < n; k += thread_count()) {
    if (!starts_run(major, minor, k)) continue;
    M s = x[order[k]];
    for (index_t j = k + 1; j < n && run[j] == run[k]; ++j) s = s + x[order[j]];
    const index_t at = run[k] - 1;
    y[at] = s;
    out_major[at] = major[k];
    out_minor[at] = minor[k];
  }
}

/// Each run of equal (row, col) added in order from zero into the C-ordered y (scipy's
/// coo_todense adds into the zeroed array in storage order: the same additions).
template <class M, class I>
CUNP_KERNEL void scatter_runs_kernel(const I* row, const I* col, const I* order, const M* x,
                                     index_t n, M* y, index_t cols) {
  for (index_t k = thread_id(); k < n; k += thread_count()) {
    if (!starts_run(row, col, k)) continue;
    M s = M(0);
    for (index_t j = k; j < n && (j == k || !starts_run(row, col, j)); ++j) s = s + x[order[j]];
    y[static_cast<index_t>(row[k]) * cols + col[k]] = s;
  }
}

/// Each line's entries added in order into the zeroed dense y: element (line i, index m) at
/// i * ms + m * ns.
template <class M, class I>
CUNP_KERNEL void lines_to_dense_kernel(const I* indptr, const I* ix, const M* x, index_t majors,
                                       M* y, index_t ms, index_t ns) {
  for (index_t i = thread_id(); i < majors; i += thread_count())
    for (index_t j = indptr[i]; j < indptr[i + 1]; ++j) {
      M& e = y[i * ms + static_cast<index_t>(ix[j]) * ns];
      e = e + x[j];
    }
}

/// count[i] = the nonzero elements of dense line i (minors elements, a[i * ms + m * ns]): a
/// warp per line.
template <class M>
CUNP_KERNEL void count_nonzero_kernel(const M* a, index_t majors, index_t minors, index_t ms,
                                      index_t ns, index_t* count) {
  const int lane = threadIdx.x % warp_lanes;
  const index_t warps = thread_count() / warp_lanes;
  for (index_t i = thread_id() / warp_lanes; i < majors; i += warps) {
    index_t c = 0;
    for (index_t m = lane; m < minors; m += warp_lanes) c += a[i * ms + m * ns] != M(0);
    for (int d = warp_lanes / 2; d > 0; d /= 2) c += __shfl_down_sync(0xffffffffu, c, d);
    if (lane == 0) count[i] = c;
  }
}

/// indptr[0] = 0, indptr[i + 1] = the inclusive sums of the counts.
template <class I>
CUNP_KERNEL void indptr_of_sums_kernel(const index_t* sums, I* indptr, index_t majors) {
  for (index_t i = thread_id(); i <= majors; i += thread_count())
    indptr[i] = i == 0 ? I(0) : static_cast<I>(sums[i - 1]);
}

/// The nonzero elements of each dense line in order, from indptr[i]: a warp per line, each
/// 32-element step placed by a ballot.
template <class M, class I>
CUNP_KERNEL void fill_nonzero_kernel(const M* a, index_t majors, index_t minors, index_t ms,
                                     index_t ns, const I* indptr, I* ix, M* y) {
  const int lane = threadIdx.x % warp_lanes;
  const index_t warps = thread_count() / warp_lanes;
  const unsigned below = (1u << lane) - 1u;
  for (index_t i = thread_id() / warp_lanes; i < majors; i += warps) {
    index_t at = indptr[i];
    for (index_t m0 = 0; m0 < minors; m0 += warp_lanes) {
      const index_t m = m0 + lane;
      M v(0);
      if (m < minors) v = a[i * ms + m * ns];
      const bool nz = m < minors && v != M(0);
      const unsigned mask = __ballot_sync(0xffffffffu, nz);
      if (nz) {
        const index_t k = at + __popc(mask & below);
        ix[k] = static_cast<I>(m);
        y[k] = v;
      }
      at += __popc(mask);
    }
  }
}

/// Entries a lane of pack_entries_kernel loads before it stores (memory-level parallelism).
inline constexpr int pack_unroll = 4;

/// packed[j] = the bits of data[j] << 32 | i for every entry j of line i: an entry's value and
/// major index as one 8-byte item that a sort moves whole. A warp takes 32 lines (a lane holds
/// one's start) and walks their entries 32 at a time, so that loads and stores are whole
/// segments however short the lines; an entry's line is the last of the 32 that starts at or
/// before it (a binary search over the lanes' starts by shuffles; empty lines never win it).
/// (A warp a line left half its lanes idle on lines of 16 entries and waited for each line's
/// bounds before its entries: bench/RESULTS.md, sparse.)
template <class I>
CUNP_KERNEL void pack_entries_kernel(const I* indptr, const std::uint32_t* data,
                                     std::uint64_t* packed, index_t majors) {
  constexpr unsigned full = 0xffffffffu;
  const int lane = threadIdx.x % warp_lanes;
  const index_t warps = thread_count() / warp_lanes;
  for (index_t first_line = thread_id() / warp_lanes * warp_lanes; first_line < majors;
       first_line += warps * warp_lanes) {
    const index_t line = first_line + lane;
    // Lanes past the last line start at the end: no entry is before them.
    const index_t start = static_cast<index_t>(indptr[line < majors ? line : majors]);
    const index_t begin = __shfl_sync(full, start, 0);
    const index_t end = static_cast<index_t>(
        indptr[first_line + warp_lanes < majors ? first_line + warp_lanes : majors]);
    for (index_t j0 = begin; j0 < end; j0 += warp_lanes * pack_unroll) {
      std::uint32_t v[pack_unroll];
#pragma unroll
      for (int u = 0; u < pack_unroll; ++u) {
        const index_t j = j0 + u * warp_lanes + lane;
        if (j < end) v[u] = data[j];
      }
#pragma unroll
      for (int u = 0; u < pack_unroll; ++u) {
        const index_t j = j0 + u * warp_lanes + lane;
        int owner = 0;  // every lane searches (the shuffles need the whole warp)
#pragma unroll
        for (int step = warp_lanes / 2; step > 0; step /= 2)
          if (__shfl_sync(full, start, owner + step) <= j) owner += step;
        if (j < end)
          packed[j] = std::uint64_t(v[u]) << 32 | static_cast<std::uint32_t>(first_line + owner);
      }
    }
  }
}

/// The halves of packed entries: the major index to ix, the value's bits to data.
template <class I>
CUNP_KERNEL void unpack_entries_kernel(const std::uint64_t* packed, I* ix, std::uint32_t* data,
                                       index_t n) {
  for (index_t k = thread_id(); k < n; k += thread_count()) {
    const std::uint64_t p = packed[k];
    ix[k] = static_cast<I>(static_cast<std::uint32_t>(p));
    data[k] = static_cast<std::uint32_t>(p >> 32);
  }
}

/// CSR -> CSC of 4-byte values with 32-bit indices: one stable radix sort of (minor index;
/// value and major index packed), so that each pass moves an entry whole and no gather by the
/// sorted order follows (transpose_by_sort's gathers read a 32-byte sector for each 4-byte
/// item, and cuSPARSE's csr2csc ran at the same speed as that). The columns' entries come out
/// in row order, as csr2csc's.
template <class T, class I>
void transpose_by_packed_sort(index_t majors, index_t minors, const ndarray<I>& indptr,
                              const ndarray<I>& indices, const ndarray<T>& data,
                              const ndarray<I>& out_indptr, const ndarray<I>& out_indices,
                              const ndarray<T>& out_data) {
  static_assert(sizeof(T) == 4 && sizeof(I) == 4, "an entry packs into 8 bytes");
  const device d = data.device();
  const index_t n = data.size();
  const int dev = d.index();
  const cudaStream_t st = current_stream(dev);
  const ndarray<std::uint64_t> packed({2, n}, d);  // the entries, then the sorted entries
  const ndarray<std::uint32_t> keys({n}, d);       // the sorted minor indices
  launch_over(dev, st, majors, &pack_entries_kernel<I>, "pack_entries_kernel",
              indptr.data(), reinterpret_cast<const std::uint32_t*>(data.data()), packed.data(),
              majors);
  // Indices are in [0, minors): as unsigned keys they sort in the same order.
  radix_sort<std::uint32_t, std::uint64_t>(
      dev, st, reinterpret_cast<const std::uint32_t*>(indices.data()), keys.data(), packed.data(),
      packed.data() + n, n, index_bits(minors));
  launch_over(dev, st, n, &unpack_entries_kernel<I>, "unpack_entries_kernel", packed.data() + n,
              out_indices.data(), reinterpret_cast<std::uint32_t*>(out_data.data()), n);
  indptr_of_sorted<std::uint32_t, I>(keys.data(), n, out_indptr);
}

/// CSR -> CSC by a stable radix sort of the entries by minor index: the columns' entries in
/// row order, as csr2csc. Any index type; the 64-bit indices' path, and the sort that the
/// benchmarks time beside cuSPARSE's.
template <class T, class I>
void transpose_by_sort(index_t majors, index_t minors, const ndarray<I>& indptr,
                       const ndarray<I>& indices, const ndarray<T>& data,
                       const ndarray<I>& out_indptr, const ndarray<I>& out_indices,
                       const ndarray<T>& out_data) {
  const device d = data.device();
  const index_t n = data.size();
  const int dev = d.index();
  const cudaStream_t st = current_stream(dev);
  const ndarray<I> order = line_order(d, minors, indices, &out_indptr);
  const ndarray<I> major({n}, d);
  launch_over(dev, st, majors * warp_lanes, &expand_indptr_kernel<I>, "expand_indptr_kernel",
              indptr.data(), major.data(), majors);
  using U = typename item_of<sizeof(T)>::type;
  launch_over(dev, st, n, &entries_gather_kernel<I, I>, "entries_gather_kernel", major.data(),
              order.data(), out_indices.data(), n);
  launch_over(dev, st, n, &entries_gather_kernel<U, I>, "entries_gather_kernel",
              reinterpret_cast<const U*>(data.data()), order.data(),
              reinterpret_cast<U*>(out_data.data()), n);
}

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// The GPU's CSR <-> CSC (the cpu's sparse_transpose): the packed sort for 4-byte values with
/// 32-bit indices, cusparseCsr2cscEx2 (its algorithm 1, deterministic) for other values with
/// 32-bit indices, the stable radix sort of positions for 64-bit ones and overfull arrays.
template <class T, class I>
void sparse_transpose(cuda_backend, index_t majors, index_t minors, const ndarray<I>& indptr,
                      const ndarray<I>& indices, const ndarray<T>& data,
                      const ndarray<I>& out_indptr, const ndarray<I>& out_indices,
                      const ndarray<T>& out_data) {
  const cuda::on_device on(data.device());
  const index_t nnz = data.size();
  if (nnz == 0) {
    CUNP_CUDA_CHECK(cudaMemsetAsync(out_indptr.data(), 0, out_indptr.nbytes(), on.stream));
    return;
  }
  if constexpr (sizeof(I) == 4 && sizeof(T) == 4) {
    cuda::transpose_by_packed_sort(majors, minors, indptr, indices, data, out_indptr, out_indices,
                                   out_data);
    return;
  }
  // csr2csc takes 32-bit indices, and is not given more entries than places (duplicates can
  // make more; cuSPARSE's descriptors refuse that).
  if constexpr (sizeof(I) == 4) {
    if (!overfull(nnz, majors, minors)) {
      const cusparseHandle_t h = cuda::cusparse_handle(on.dev);
      const int m = static_cast<int>(majors), n = static_cast<int>(minors);
      const int z = static_cast<int>(nnz);
      const cudaDataType_t type = cuda::sparse_data_type<T>();
      std::size_t bytes = 0;
      CUNP_CUSPARSE_CHECK(cusparseCsr2cscEx2_bufferSize(
          h, m, n, z, data.data(), indptr.data(), indices.data(), out_data.data(),
          out_indptr.data(), out_indices.data(), type, CUSPARSE_ACTION_NUMERIC,
          CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes));
      const cuda::workspace buffer(on.dev, bytes);
      CUNP_CUSPARSE_CHECK(cusparseCsr2cscEx2(
          h, m, n, z, data.data(), indptr.data(), indices.data(), out_data.data(),
          out_indptr.data(), out_indices.data(), type, CUSPARSE_ACTION_NUMERIC,
          CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buffer.data()));
      return;
    }
  }
  cuda::transpose_by_sort(majors, minors, indptr, indices, data, out_indptr, out_indices, out_data);
}

/// The GPU's coordinates -> compressed (the cpu's sparse_compress). Summing waits once: the
/// number of distinct entries sizes the result.
template <class T, class I>
cs_arrays<T, I> sparse_compress(cuda_backend, index_t majors, index_t minors,
                                const ndarray<I>& major, const ndarray<I>& minor,
                                const ndarray<T>& data, compress_mode mode) {
  const device d = data.device();
  const index_t n = data.size();
  cs_arrays<T, I> out{ndarray<T>({0}, d), ndarray<I>({0}, d), ndarray<I>({majors + 1}, d)};
  if (n == 0) {
    out.indptr = zeros<I>({majors + 1}, d);
    return out;
  }
  const cuda::on_device on(d);
  const ndarray<I> order = mode == compress_mode::group
                               ? cuda::line_order(d, majors, major)
                               : cuda::entry_order(d, majors, minors, major, minor);
  const ndarray<I> smajor = cuda::gathered_by(major, order),
                   sminor = cuda::gathered_by(minor, order);
  if (mode != compress_mode::sum) {
    out.indices = sminor;
    out.data = cuda::gathered_by(data, order);
    cuda::indptr_of_sorted<I, I>(smajor.data(), n, out.indptr);
    return out;
  }
  const ndarray<I> run({n}, d);
  cuda::launch_over(on.dev, on.stream, n, &cuda::run_starts_kernel<I>, "run_starts_kernel",
                    smajor.data(), sminor.data(), run.data(), n);
  cuda::cub_call(on.dev, "cub::DeviceScan::InclusiveSum", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, run.data(), run.data(), n, on.stream);
  });
  I runs = 0;
  cuda::read_back(on, &runs, run.data() + n - 1, sizeof runs,
                  "sum_duplicates (the number of distinct entries sizes its result)");
  const index_t kept = runs;
  out.data = ndarray<T>({kept}, d);
  out.indices = ndarray<I>({kept}, d);
  const ndarray<I> kmajor({kept}, d);
  using M = math_t<T>;
  cuda::launch_over(on.dev, on.stream, n, &cuda::sum_runs_kernel<M, I>, "sum_runs_kernel",
                    smajor.data(), sminor.data(), run.data(), order.data(),
                    reinterpret_cast<const M*>(data.data()), n,
                    reinterpret_cast<M*>(out.data.data()), kmajor.data(), out.indices.data());
  cuda::indptr_of_sorted<I, I>(kmajor.data(), kept, out.indptr);
  return out;
}

/// The GPU's dense -> compressed (the cpu's sparse_from_dense). One wait: nnz sizes the result.
template <class T, class I>
cs_arrays<T, I> sparse_from_dense(cuda_backend, const ndarray<T>& dense, bool by_rows) {
  const device d = dense.device();
  const int ax = by_rows ? 0 : 1;
  const index_t majors = dense.shape()[ax], minors = dense.shape()[1 - ax];
  const index_t ms = dense.strides()[ax], ns = dense.strides()[1 - ax];
  cs_arrays<T, I> out{ndarray<T>({0}, d), ndarray<I>({0}, d), zeros<I>({majors + 1}, d)};
  if (majors == 0 || minors == 0) return out;
  const cuda::on_device on(d);
  using M = math_t<T>;
  const auto* a = reinterpret_cast<const M*>(dense.data());
  const ndarray<index_t> count({majors}, d);
  cuda::launch_over(on.dev, on.stream, majors * cuda::warp_lanes, &cuda::count_nonzero_kernel<M>,
                    "count_nonzero_kernel", a, majors, minors, ms, ns, count.data());
  cuda::cub_call(on.dev, "cub::DeviceScan::InclusiveSum", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, count.data(), count.data(), majors,
                                         on.stream);
  });
  index_t nnz = 0;
  cuda::read_back(on, &nnz, count.data() + majors - 1, sizeof nnz,
                  "a sparse matrix from a dense array (its nonzeros size the result)");
  check_index_fits<I>(nnz, "a number of stored entries of");
  cuda::launch_over(on.dev, on.stream, majors + 1, &cuda::indptr_of_sums_kernel<I>,
                    "indptr_of_sums_kernel", count.data(), out.indptr.data(), majors);
  out.data = ndarray<T>({nnz}, d);
  out.indices = ndarray<I>({nnz}, d);
  if (nnz > 0)
    cuda::launch_over(on.dev, on.stream, majors * cuda::warp_lanes,
                      &cuda::fill_nonzero_kernel<M, I>, "fill_nonzero_kernel", a, majors, minors,
                      ms, ns, out.indptr.data(), out.indices.data(),
                      reinterpret_cast<M*>(out.data.data()));
  return out;
}

/// The GPU's compressed -> dense (the cpu's sparse_to_dense): a thread per line.
template <class T, class I>
void sparse_to_dense(cuda_backend, bool by_rows, const ndarray<I>& indptr,
                     const ndarray<I>& indices, const ndarray<T>& data, const ndarray<T>& out) {
  const cuda::on_device on(out.device());
  CUNP_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, out.nbytes(), on.stream));
  const index_t majors = indptr.size() - 1, cols = out.shape()[1];
  if (data.size() == 0 || majors == 0) return;
  using M = math_t<T>;
  cuda::launch_over(
      on.dev, on.stream, majors, &cuda::lines_to_dense_kernel<M, I>, "lines_to_dense_kernel",
      indptr.data(), indices.data(), reinterpret_cast<const M*>(data.data()), majors,
      reinterpret_cast<M*>(out.data()), by_rows ? cols : index_t(1), by_rows ? index_t(1) : cols);
}

/// The GPU's COO -> dense (the cpu's coo_to_dense): the stable (row, col) order, then a thread
/// per run of equal coordinates. No wait.
template <class T, class I>
void coo_to_dense(cuda_backend, const ndarray<I>& row, const ndarray<I>& col,
                  const ndarray<T>& data, const ndarray<T>& out) {
  const device d = out.device();
  const cuda::on_device on(d);
  CUNP_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, out.nbytes(), on.stream));
  const index_t n = data.size(), rows = out.shape()[0], cols = out.shape()[1];
  if (n == 0) return;
  const ndarray<I> order = cuda::entry_order(d, rows, cols, row, col);
  const ndarray<I> srow = cuda::gathered_by(row, order), scol = cuda::gathered_by(col, order);
  using M = math_t<T>;
  cuda::launch_over(on.dev, on.stream, n, &cuda::scatter_runs_kernel<M, I>, "scatter_runs_kernel",
                    srow.data(), scol.data(), order.data(), reinterpret_cast<const M*>(data.data()),
                    n, reinterpret_cast<M*>(out.data()), cols);
}

}  // namespace cunp::detail
