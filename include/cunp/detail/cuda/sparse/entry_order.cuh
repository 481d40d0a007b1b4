// cunp/detail/cuda/sparse/entry_order.cuh: the order of a sparse matrix's entries and the lines
// they form, on a GPU: the stable order by (major, minor) index that every sort, sum of
// duplicates and conversion from coordinates uses (CUB's radix sort of one composite key, or
// two stable passes when the two indices need more than 64 bits), gathers by that order, and the
// two directions between a line's index pointer and each entry's line (expandptr, and indptr
// from sorted line indices).
#pragma once
#include <cstdint>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"
#include "cunp/detail/cuda/sort/radix_sort.cuh"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

inline constexpr int warp_lanes = 32;

/// The bits that hold every index in [0, extent): at least 1 (CUB sorts on a bit range).
inline int index_bits(index_t extent) {
  int b = 1;
  while (b < 63 && (index_t(1) << b) < extent) ++b;
  return b;
}

/// The global thread id and the grid's thread count, as 64-bit numbers.
__device__ __forceinline__ index_t thread_id() {
  return static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ index_t thread_count() {
  return static_cast<index_t>(gridDim.x) * blockDim.x;
}

/// out[j] = i for every entry j of line i: a warp per line, its lanes along the line.
template <class I> CUNP_KERNEL void expand_indptr_kernel(const I* indptr, I* out, index_t majors) {
  const int lane = threadIdx.x % warp_lanes;
  const index_t warps = thread_count() / warp_lanes;
  for (index_t i = thread_id() / warp_lanes; i < majors; i += warps)
    for (index_t j = indptr[i] + lane; j < indptr[i + 1]; j += warp_lanes) out[j] = I(i);
}

/// indptr (majors + 1 entries) of n > 0 entries whose line indices `line` are sorted: each
/// entry writes the pointers of the lines that start at it, the last one those after it.
template <class K, class I>
CUNP_KERNEL void indptr_of_sorted_kernel(const K* line, index_t n, I* indptr, index_t majors) {
  for (index_t k = thread_id(); k < n; k += thread_count()) {
    const index_t m = static_cast<index_t>(line[k]);
    const index_t prev = k == 0 ? -1 : static_cast<index_t>(line[k - 1]);
    for (index_t r = prev + 1; r <= m; ++r) indptr[r] = I(k);
    if (k == n - 1)
      for (index_t r = m + 1; r <= majors; ++r) indptr[r] = I(n);
  }
}

/// out[k] = in[order[k]], elements moved as bytes of their size (U).
template <class U, class I>
CUNP_KERNEL void entries_gather_kernel(const U* in, const I* order, U* out, index_t n) {
  for (index_t k = thread_id(); k < n; k += thread_count()) out[k] = in[order[k]];
}

/// The composite keys major << minor_bits | minor, and 0, 1, ... n - 1 beside them.
template <class K, class I>
CUNP_KERNEL void composite_keys_kernel(const I* major, const I* minor, int minor_bits, K* keys,
                                       I* iota, index_t n) {
  for (index_t k = thread_id(); k < n; k += thread_count()) {
    keys[k] = (static_cast<K>(major[k]) << minor_bits) | static_cast<K>(minor[k]);
    iota[k] = I(k);
  }
}

/// keys[k] = index[order[k]] (order null: index[k]) as unsigned keys; iota as above when asked.
template <class K, class I>
CUNP_KERNEL void index_keys_kernel(const I* index, const I* order, K* keys, I* iota, index_t n) {
  for (index_t k = thread_id(); k < n; k += thread_count()) {
    keys[k] = static_cast<K>(index[order ? order[k] : k]);
    if (iota) iota[k] = I(k);
  }
}

/// Launches `kernel` (a grid-stride loop over n items) on stream st of dev, and checks the
/// launch; `name` names it in the error.
template <class... P, class... A>
void launch_over(int dev, cudaStream_t st, index_t n, void (*kernel)(P...), const char* name,
                 A... args) {
  kernel<<<grid_for(dev, n), block_threads, 0, st>>>(static_cast<P>(args)...);
  check(cudaGetLastError(), name);
}

/// in[order[k]] for k < order.size(), a new array.
template <class T, class I> ndarray<T> gathered_by(const ndarray<T>& in, const ndarray<I>& order) {
  const ndarray<T> out({order.size()}, in.device());
  if (order.size() == 0) return out;
  using U = typename item_of<sizeof(T)>::type;
  const int dev = in.device().index();
  launch_over(dev, current_stream(dev), order.size(), &entries_gather_kernel<U, I>,
              "entries_gather_kernel", reinterpret_cast<const U*>(in.data()), order.data(),
              reinterpret_cast<U*>(out.data()), order.size());
  return out;
}

/// The stable order of n entries by the key `K keys_in` (bits [0, bits)) with 0..n-1 as
/// values: the permutation, and the sorted keys in keys_out.
template <class K, class I>
ndarray<I> stable_order(int dev, cudaStream_t st, const K* keys_in, K* keys_out, const I* iota,
                        index_t n, int bits, device d) {
  ndarray<I> order({n}, d);
  radix_sort<K, I>(dev, st, keys_in, keys_out, iota, order.data(), n, bits);
  return order;
}

/// The permutation that orders n entries by (major, minor) index, ties in their order (a stable
/// sort): majors x minors lines and indices, both in range.
template <class I>
ndarray<I> entry_order(device d, index_t majors, index_t minors, const ndarray<I>& major,
                       const ndarray<I>& minor) {
  const index_t n = major.size();
  const int dev = d.index();
  const cudaStream_t st = current_stream(dev);
  const int mb = index_bits(majors), nb = index_bits(minors);
  const ndarray<I> iota({n}, d);
  const auto by_key = [&](auto key) {
    using K = decltype(key);
    const ndarray<K> keys({2, n}, d);
    launch_over(dev, st, n, &composite_keys_kernel<K, I>, "composite_keys_kernel", major.data(),
                minor.data(), nb, keys.data(), iota.data(), n);
    return stable_order<K, I>(dev, st, keys.data(), keys.data() + n, iota.data(), n, mb + nb, d);
  };
  if (mb + nb <= 32) return by_key(std::uint32_t{});
  if (mb + nb <= 64) return by_key(std::uint64_t{});
  // Two stable passes, least significant first: by minor, then by major in that order.
  using K = std::uint64_t;
  const ndarray<K> keys({2, n}, d);
  launch_over(dev, st, n, &index_keys_kernel<K, I>, "index_keys_kernel", minor.data(), nullptr,
              keys.data(), iota.data(), n);
  const ndarray<I> first =
      stable_order<K, I>(dev, st, keys.data(), keys.data() + n, iota.data(), n, nb, d);
  launch_over(dev, st, n, &index_keys_kernel<K, I>, "index_keys_kernel", major.data(), first.data(),
              keys.data(), static_cast<I*>(nullptr), n);
  return stable_order<K, I>(dev, st, keys.data(), keys.data() + n, first.data(), n, mb, d);
}

/// The index pointer (majors + 1 entries) of entries whose line indices `line` (n of them) are
/// sorted.
template <class K, class I>
void indptr_of_sorted(const K* line, index_t n, const ndarray<I>& indptr) {
  const int dev = indptr.device().index();
  const cudaStream_t st = current_stream(dev);
  const index_t majors = indptr.size() - 1;
  if (n == 0) {
    CUNP_CUDA_CHECK(cudaMemsetAsync(indptr.data(), 0, indptr.nbytes(), st));
    return;
  }
  launch_over(dev, st, n, &indptr_of_sorted_kernel<K, I>, "indptr_of_sorted_kernel", line, n,
              indptr.data(), majors);
}

/// The permutation that orders n entries by major index alone, ties in their order (scipy's
/// coo_tocsr, a counting sort there); given `indptr` (majors + 1 entries), also the index
/// pointer of the entries in that order, from the sorted keys.
template <class I>
ndarray<I> line_order(device d, index_t majors, const ndarray<I>& major,
                      const ndarray<I>* indptr = nullptr) {
  const index_t n = major.size();
  const int dev = d.index();
  const cudaStream_t st = current_stream(dev);
  const ndarray<I> iota({n}, d);
  const auto by_key = [&](auto key) {
    using K = decltype(key);
    const ndarray<K> keys({2, n}, d);
    launch_over(dev, st, n, &index_keys_kernel<K, I>, "index_keys_kernel", major.data(),
                static_cast<const I*>(nullptr), keys.data(), iota.data(), n);
    const ndarray<I> order = stable_order<K, I>(dev, st, keys.data(), keys.data() + n,
                                                iota.data(), n, index_bits(majors), d);
    if (indptr) indptr_of_sorted<K, I>(keys.data() + n, n, *indptr);
    return order;
  };
  return index_bits(majors) <= 32 ? by_key(std::uint32_t{}) : by_key(std::uint64_t{});
}

}  // namespace cunp::detail::cuda

namespace cunp::detail {

/// The major index of each entry (scipy's expandptr): a warp per line.
template <class I>
void sparse_expand_indptr(cuda_backend, const ndarray<I>& indptr, const ndarray<I>& out) {
  const index_t majors = indptr.size() - 1;
  if (majors == 0 || out.size() == 0) return;
  const cuda::on_device on(out.device());
  cuda::launch_over(on.dev, on.stream, majors * cuda::warp_lanes, &cuda::expand_indptr_kernel<I>,
                    "expand_indptr_kernel", indptr.data(), out.data(), majors);
}

}  // namespace cunp::detail
