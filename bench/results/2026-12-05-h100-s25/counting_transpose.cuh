// bench/results/2026-12-05-h100-s25/counting_transpose.cuh: an experiment, kept for the record
// and not part of the library. A counting transposition (CSR -> CSC) written as
// include/cunp/detail/cuda/sparse/transpose.cuh and called by sparse_transpose for every index
// type, measured on the H100 80GB (2026-12-05, bench_sparse's csr_to_csc row, 4M x 4M, 64M
// float32 entries): 10.15 ms against cusparseCsr2cscEx2's 6.78 ms, so cuSPARSE's csr2csc stays.
// ncu per kernel (call3_ncu_counting_transpose.log): count 0.78 ms, scan 0.02, scatter 6.58
// (its random 8-byte writes cost partial-sector fills: DRAM read 3.33 GB and write 3.35 GB for
// 0.5 GB of keys), short columns 2.72 (the random value gathers read 4.79 GB), long columns 0.02.
// The scatter needs locality (a radix-like partition that writes runs from each tile) to beat
// the sort, and a sort is what csr2csc is. It passed test_sparse_gpu (with columns of 33 to 2048
// entries and over 2048 added) and memcheck.
//
// What it did: each column's entries in row order, ties (repeated columns in a row) in storage
// order, the same arrays as the cpu's sparse_transpose:
//   1. count each column's entries (atomics on the counts, which sit in L2) and scan them into
//      the output's index pointer;
//   2. scatter each entry's key (its row and its position in storage) into its column's span
//      through an atomic cursor a column: within a column the keys land in any order;
//   3. order each column's keys and write the row indices and the values they name: a warp a
//      column of up to 32 entries (each lane's rank counted over the others' keys), a block a
//      longer column (a bitonic network, in shared memory up to long_tile entries, in place in
//      the key array beyond).
// Keys are unique (the storage position), so the result is the same whatever order the atomics
// gave. No wait for the host.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>

#include "cunp/creation.hpp"
#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/sparse/entry_order.cuh"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// An entry's key: its row and its position in storage, ordered by position (rows ascend with
/// it). 32-bit indices pack both in one word (one 8-byte write a scattered entry).
template <class I> struct entry_key;
template <> struct entry_key<std::int32_t> {
  std::uint64_t bits;
  entry_key() = default;
  __device__ entry_key(index_t row, index_t at)
      : bits(static_cast<std::uint64_t>(row) << 32 | static_cast<std::uint32_t>(at)) {}
  __device__ std::int32_t row() const { return static_cast<std::int32_t>(bits >> 32); }
  __device__ index_t at() const { return static_cast<std::uint32_t>(bits); }
  __device__ bool operator<(const entry_key& o) const { return bits < o.bits; }
};
template <> struct alignas(16) entry_key<std::int64_t> {
  std::int64_t r, k;
  entry_key() = default;
  __device__ entry_key(index_t row, index_t at) : r(row), k(at) {}
  __device__ std::int64_t row() const { return r; }
  __device__ index_t at() const { return k; }
  __device__ bool operator<(const entry_key& o) const { return k < o.k; }
};

/// Columns of more entries than this are ordered in shared memory by one block; longer ones in
/// place in the key array.
inline constexpr int long_tile = 2048;
/// Threads of the block that orders one long column.
inline constexpr int long_column_threads = 512;

/// atomicAdd on an index of either width (two's complement: the same bits as unsigned).
__device__ __forceinline__ std::int32_t atomic_add_index(std::int32_t* p, std::int32_t v) {
  return atomicAdd(p, v);
}
__device__ __forceinline__ std::int64_t atomic_add_index(std::int64_t* p, std::int64_t v) {
  return static_cast<std::int64_t>(
      atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}

/// counts[c + 1] += 1 for every entry of column c (counts zeroed; scanned into the indptr).
template <class I> CUNP_KERNEL void count_columns_kernel(const I* indices, index_t nnz, I* counts) {
  for (index_t k = thread_id(); k < nnz; k += thread_count())
    atomic_add_index(counts + indices[k] + 1, I(1));
}

/// Each entry's key at its column's next free place (cursor: each column's start): a warp a row.
template <class I>
CUNP_KERNEL void scatter_keys_kernel(const I* indptr, const I* indices, index_t rows, I* cursor,
                                     entry_key<I>* keys) {
  const int lane = threadIdx.x % warp_lanes;
  const index_t warps = thread_count() / warp_lanes;
  for (index_t i = thread_id() / warp_lanes; i < rows; i += warps)
    for (index_t k = indptr[i] + lane; k < indptr[i + 1]; k += warp_lanes)
      keys[atomic_add_index(cursor + indices[k], I(1))] = entry_key<I>(i, k);
}

/// The row index and value of key `key` written at place p of the result.
template <class U, class I>
__device__ __forceinline__ void emit_entry(const entry_key<I>& key, index_t p, const U* data,
                                           I* out_indices, U* out_data) {
  out_indices[p] = static_cast<I>(key.row());
  out_data[p] = data[key.at()];
}

/// A warp a column: a column of up to 32 keys ordered by each lane's rank among them and
/// written; a longer one listed (long_columns, long_count) for long_columns_kernel.
template <class U, class I>
CUNP_KERNEL void short_columns_kernel(const I* out_indptr, index_t cols, const entry_key<I>* keys,
                                      const U* data, I* out_indices, U* out_data, I* long_columns,
                                      I* long_count) {
  const int lane = threadIdx.x % warp_lanes;
  const index_t warps = thread_count() / warp_lanes;
  for (index_t c = thread_id() / warp_lanes; c < cols; c += warps) {
    const index_t b = out_indptr[c], n = out_indptr[c + 1] - b;
    if (n > warp_lanes) {
      if (lane == 0) long_columns[atomic_add_index(long_count, I(1))] = static_cast<I>(c);
      continue;
    }
    entry_key<I> mine{};
    if (lane < n) mine = keys[b + lane];
    int rank = 0;
    for (int s = 0; s < n; ++s) {  // n is the warp's: every lane takes part in each shuffle
      entry_key<I> other;
      if constexpr (sizeof(entry_key<I>) == 8) {
        other.bits = __shfl_sync(0xffffffffu, mine.bits, s);
      } else {
        other.r = __shfl_sync(0xffffffffu, mine.r, s);
        other.k = __shfl_sync(0xffffffffu, mine.k, s);
      }
      rank += other < mine;
    }
    if (lane < n) emit_entry(mine, b + rank, data, out_indices, out_data);
  }
}

/// A block a listed column: its keys ordered by a bitonic network whose comparators all put the
/// smaller key first (the first step of each merge compares mirrored places), so the places
/// past the column's end act as +infinity and are never touched; then written.
template <class U, class I>
CUNP_KERNEL void long_columns_kernel(const I* out_indptr, const I* long_columns,
                                     const I* long_count, entry_key<I>* keys, const U* data,
                                     I* out_indices, U* out_data) {
  __shared__ entry_key<I> tile[long_tile];
  const index_t listed = *long_count;
  for (index_t t = blockIdx.x; t < listed; t += gridDim.x) {
    const index_t c = long_columns[t];
    const index_t b = out_indptr[c], n = out_indptr[c + 1] - b;
    entry_key<I>* s = n <= long_tile ? tile : keys + b;
    if (n <= long_tile)
      for (index_t i = threadIdx.x; i < n; i += blockDim.x) tile[i] = keys[b + i];
    __syncthreads();
    index_t span = 2;
    while (span < n) span *= 2;
    for (index_t k = 2; k <= span; k *= 2)
      for (index_t j = k / 2; j > 0; j /= 2) {
        for (index_t i = threadIdx.x; i < n; i += blockDim.x) {
          const index_t l = j == k / 2 ? (i ^ (k - 1)) : (i ^ j);
          if (l > i && l < n && s[l] < s[i]) {
            const entry_key<I> x = s[i];
            s[i] = s[l];
            s[l] = x;
          }
        }
        __syncthreads();
      }
    for (index_t i = threadIdx.x; i < n; i += blockDim.x)
      emit_entry(s[i], b + i, data, out_indices, out_data);
    __syncthreads();  // the tile is the next column's
  }
}

/// CSR (rows x cols, nnz > 0 entries) -> CSC arrays, or CSC -> CSR with the roles swapped: the
/// three steps above on the current stream of the data's device.
template <class T, class I>
void counting_transpose(index_t rows, index_t cols, const ndarray<I>& indptr,
                        const ndarray<I>& indices, const ndarray<T>& data,
                        const ndarray<I>& out_indptr, const ndarray<I>& out_indices,
                        const ndarray<T>& out_data) {
  const device d = data.device();
  const index_t nnz = data.size();
  const int dev = d.index();
  const cudaStream_t st = current_stream(dev);
  // 1. The counts, scanned in place into the index pointer.
  CUNP_CUDA_CHECK(cudaMemsetAsync(out_indptr.data(), 0, out_indptr.nbytes(), st));
  launch_over(dev, st, nnz, &count_columns_kernel<I>, "count_columns_kernel", indices.data(), nnz,
              out_indptr.data());
  cub_call(dev, "cub::DeviceScan::InclusiveSum", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, out_indptr.data(), out_indptr.data(),
                                         cols + 1, st);
  });
  // 2. The keys, scattered through a cursor a column.
  const ndarray<I> cursor({cols}, d);
  CUNP_CUDA_CHECK(cudaMemcpyAsync(cursor.data(), out_indptr.data(), cursor.nbytes(),
                                  cudaMemcpyDeviceToDevice, st));
  const workspace key_space(dev, nnz * sizeof(entry_key<I>));
  auto* keys = static_cast<entry_key<I>*>(key_space.data());
  launch_over(dev, st, rows * warp_lanes, &scatter_keys_kernel<I>, "scatter_keys_kernel",
              indptr.data(), indices.data(), rows, cursor.data(), keys);
  // 3. Each column ordered and written; the long ones listed (at most nnz / 33 of them).
  const ndarray<I> long_count = zeros<I>({1}, d);
  const ndarray<I> long_columns({std::min(cols, nnz / (warp_lanes + 1) + 1)}, d);
  using U = typename item_of<sizeof(T)>::type;
  const auto* x = reinterpret_cast<const U*>(data.data());
  auto* y = reinterpret_cast<U*>(out_data.data());
  launch_over(dev, st, cols * warp_lanes, &short_columns_kernel<U, I>, "short_columns_kernel",
              out_indptr.data(), cols, keys, x, out_indices.data(), y, long_columns.data(),
              long_count.data());
  long_columns_kernel<U, I><<<sm_count(dev) * 2, long_column_threads, 0, st>>>(
      out_indptr.data(), long_columns.data(), long_count.data(), keys, x, out_indices.data(), y);
  check(cudaGetLastError(), "long_columns_kernel");
}

}  // namespace cunp::detail::cuda
