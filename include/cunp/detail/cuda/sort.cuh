// cunp/detail/cuda/sort.cuh: the CUDA backend of cunp/sort.hpp. Sorts are CUB's: radix sorts
// over whole arrays or lane by lane for few long lanes, segmented sorts for many lanes, a stable
// merge sort for complex numbers; then the kernels of the order statistics, searchsorted,
// unique, bincount and histogram. Temporary storage comes from cunp's pool, on the array's
// device and the calling thread's current stream.
#pragma once
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>

#include "cunp/detail/cuda/launch.cuh"
#include "cunp/sort.hpp"

namespace cunp::detail {

namespace cuda {

/// The type CUB sorts T's bits as: T itself, cunp's 16-bit floats as CUDA's (whose radix keys
/// CUB orders with -0.0 equal to 0.0, as for float and double), bool as a byte.
template <class T>
struct cub_key {
  using type = T;
};
template <>
struct cub_key<bool> {
  using type = std::uint8_t;
};
template <>
struct cub_key<float16> {
  using type = __half;
};
template <>
struct cub_key<bfloat16> {
  using type = __nv_bfloat16;
};
static_assert(::cuda::is_floating_point_v<__half> && ::cuda::is_floating_point_v<__nv_bfloat16>,
              "CUB must order -0.0 and 0.0 of the 16-bit floats as equal keys");

/// The bits a radix sort of T's keys must look at (one for bool).
template <class T>
inline constexpr int key_bits = std::is_same_v<T, bool> ? 1 : int(8 * sizeof(T));

/// Device scratch from the pool, returned to it in stream order when the handle goes.
inline ndarray<std::uint8_t> scratch(int dev, std::size_t bytes) {
  return ndarray<std::uint8_t>({static_cast<index_t>(std::max<std::size_t>(bytes, 1))},
                               device(device::kind::cuda, dev));
}

/// Lane l of a (lanes, n) array starts at element l * n: CUB's segment offsets.
struct lane_start {
  std::int64_t n;
  __host__ __device__ std::int64_t operator()(std::int64_t l) const { return l * n; }
};
inline auto lane_offsets(std::int64_t n) {
  return thrust::make_transform_iterator(thrust::make_counting_iterator<std::int64_t>(0),
                                         lane_start{n});
}

/// Few long lanes: one device-wide radix sort per lane keeps every SM busy, where a segmented
/// sort would give each lane to one thread block.
inline bool sort_lane_by_lane(int dev, std::int64_t lanes, std::int64_t n) {
  return lanes == 1 || n > std::numeric_limits<int>::max() ||
         (n >= (1 << 16) && lanes < sm_count(dev));
}

/// Sorts each of `lanes` contiguous lanes of n keys from `in` into `out` (stable). The segmented
/// sort orders short lanes with `<`, which misplaces NaNs: floating keys take sort_float_lanes.
template <class K, int Bits>
void sort_keys(int dev, cudaStream_t st, const K* in, K* out, std::int64_t lanes, std::int64_t n) {
  std::size_t bytes = 0;
  if (::cuda::is_floating_point_v<K> || sort_lane_by_lane(dev, lanes, n)) {
    check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n, 0, Bits, st),
          "cub::DeviceRadixSort::SortKeys");
    const auto tmp = scratch(dev, bytes);
    for (std::int64_t l = 0; l < lanes; ++l)
      check(cub::DeviceRadixSort::SortKeys(tmp.data(), bytes, in + l * n, out + l * n, n, 0, Bits,
                                           st),
            "cub::DeviceRadixSort::SortKeys");
  } else if constexpr (!::cuda::is_floating_point_v<K>) {
    const auto off = lane_offsets(n);
    check(cub::DeviceSegmentedSort::StableSortKeys(nullptr, bytes, in, out, lanes * n, lanes, off,
                                                   off + 1, st),
          "cub::DeviceSegmentedSort::StableSortKeys");
    const auto tmp = scratch(dev, bytes);
    check(cub::DeviceSegmentedSort::StableSortKeys(tmp.data(), bytes, in, out, lanes * n, lanes,
                                                   off, off + 1, st),
          "cub::DeviceSegmentedSort::StableSortKeys");
  }
}

/// How sort_pairs sorts lanes: as sort_lane_by_lane says, or always one way (when the caller
/// knows, so that the other way is not compiled).
enum class lanes_by : std::uint8_t { choice, segments, device_sorts };

/// Sorts (key, value) pairs lane by lane, stably; the results are in keys/values.Current().
template <class K, int Bits, class V, lanes_by How = lanes_by::choice>
void sort_pairs(int dev, cudaStream_t st, cub::DoubleBuffer<K>& keys, cub::DoubleBuffer<V>& values,
                std::int64_t lanes, std::int64_t n) {
  std::size_t bytes = 0;
  if constexpr (How == lanes_by::choice) {
    if (!sort_lane_by_lane(dev, lanes, n))
      return sort_pairs<K, Bits, V, lanes_by::segments>(dev, st, keys, values, lanes, n);
  }
  if constexpr (How != lanes_by::segments) {
    check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, 0, Bits, st),
          "cub::DeviceRadixSort::SortPairs");
    const auto tmp = scratch(dev, bytes);
    int selector = 0;
    for (std::int64_t l = 0; l < lanes; ++l) {  // every lane takes the same passes
      cub::DoubleBuffer<K> k(keys.Current() + l * n, keys.Alternate() + l * n);
      cub::DoubleBuffer<V> v(values.Current() + l * n, values.Alternate() + l * n);
      check(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, k, v, n, 0, Bits, st),
            "cub::DeviceRadixSort::SortPairs");
      selector = v.selector;
    }
    if (selector) {
      keys.selector ^= 1;
      values.selector ^= 1;
    }
  } else {
    const auto off = lane_offsets(n);
    check(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, keys, values, lanes * n, lanes,
                                                    off, off + 1, st),
          "cub::DeviceSegmentedSort::StableSortPairs");
    const auto tmp = scratch(dev, bytes);
    check(cub::DeviceSegmentedSort::StableSortPairs(tmp.data(), bytes, keys, values, lanes * n,
                                                    lanes, off, off + 1, st),
          "cub::DeviceSegmentedSort::StableSortPairs");
  }
}

template <class T>
__device__ __forceinline__ bool negative_nan(const T& v) {
  if constexpr (is_16bit_float_v<T>)
    return order_isnan(v) && (v.bits & 0x8000u);
  else
    return order_isnan(v) && ::signbit(v);
}

/// How many NaNs with the sign bit set lead the sorted lane s of n elements. Almost every lane
/// has none: one load then, not the binary search's ~log2(n) dependent ones (~15 us on 2^26).
template <class T>
__device__ std::int64_t leading_negative_nans(const T* s, std::int64_t n) {
  std::int64_t lo = 0, hi = negative_nan(s[0]) ? n : 0;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (negative_nan(s[mid]))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// One step of rotating each lane left by k[l] in place, over the whole grid: reverse [0, k)
/// and [k, n) (whole = false), then the whole lane (whole = true). Lanes with k[l] = 0 are left
/// alone.
template <class T>
__device__ void reverse_lanes(T* data, std::int64_t lanes, std::int64_t n, const std::int64_t* k,
                              bool whole) {
  const std::int64_t total = lanes * n, step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total; i += step) {
    const std::int64_t l = i / n, j = i - l * n, kk = k[l];
    if (kk == 0) continue;
    std::int64_t lo = 0, len = n;
    if (!whole) {
      lo = j < kk ? 0 : kk;
      len = j < kk ? kk : n - kk;
    }
    const std::int64_t p = lo + len - 1 - (j - lo);
    if (j < p) {
      T* lane = data + l * n;
      const T t = lane[j];
      lane[j] = lane[p];
      lane[p] = t;
    }
  }
}

/// Moves the NaNs with the sign bit set from the front of each sorted lane (CUB's radix order
/// puts them before -inf) to its end (NumPy's order puts them after +inf): a rotation of the lane
/// by their count k[l], as one cooperative grid. Every block first reads every lane's first
/// element; nothing is written before the first grid barrier, so all blocks see the same
/// elements and, almost always, all leave at once. (A kernel for the count and one for each
/// reversal cost ~8 us a sort: 0.5% of a sort of 2^26 float32, 10% of one of 2^20.)
template <class T>
CUNP_KERNEL void negative_nans_last_kernel(T* data, std::int64_t lanes, std::int64_t n,
                                           std::int64_t* k) {
  bool any = false;
  for (std::int64_t l = threadIdx.x; l < lanes; l += blockDim.x)
    any = any || negative_nan(data[l * n]);
  if (!__syncthreads_or(any)) return;
  const auto grid = cooperative_groups::this_grid();
  for (std::int64_t l = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; l < lanes;
       l += std::int64_t(gridDim.x) * blockDim.x)
    k[l] = leading_negative_nans(data + l * n, n);
  grid.sync();
  reverse_lanes(data, lanes, n, k, false);
  grid.sync();
  reverse_lanes(data, lanes, n, k, true);
}

/// negative_nans_last_kernel on a grid of at most one block per SM, which a cooperative launch
/// needs to fit on the device at once.
template <class T>
void negative_nans_last(int dev, cudaStream_t st, T* data, std::int64_t lanes, std::int64_t n) {
  ndarray<std::int64_t> k({lanes}, device(device::kind::cuda, dev));
  std::int64_t* kp = k.data();
  const unsigned grid = std::min(grid_for(dev, lanes * n), unsigned(sm_count(dev)));
  void* args[] = {&data, &lanes, &n, &kp};
  CUNP_CUDA_CHECK(cudaLaunchCooperativeKernel(
      reinterpret_cast<const void*>(negative_nans_last_kernel<T>), grid, block_threads, args, 0,
      st));
}

// ---- complex numbers: a stable merge sort of (lane, value) keys with NumPy's comparison

template <class R>
struct lane_complex {
  std::int64_t lane;
  R re, im;
};
template <class R>
struct lane_complex_less {
  __device__ bool operator()(const lane_complex<R>& a, const lane_complex<R>& b) const {
    if (a.lane != b.lane) return a.lane < b.lane;
    return complex_order_less(a.re, a.im, b.re, b.im);
  }
};

template <class R, class I>
CUNP_KERNEL void complex_prepare(strided_shape shape, strided_operand src, lane_complex<R>* keys,
                                 std::int64_t* idx, I total, I n) {
  const R* s = static_cast<const R*>(src.data);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
    const R* v = s + 2 * offset_of(i, shape, src.strides);
    const I l = i / n;
    keys[i] = {std::int64_t(l), v[0], v[1]};
    idx[i] = i - l * n;
  }
}

template <class R>
CUNP_KERNEL void complex_values(const lane_complex<R>* keys, R* out, std::int64_t total) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total; i += step) {
    out[2 * i] = keys[i].re;
    out[2 * i + 1] = keys[i].im;
  }
}

/// Sorts the lanes of complex src (any strides) stably: their indices into idx (contiguous) and,
/// when `values` is given, the sorted numbers into it (contiguous).
template <class R>
void complex_sort_lanes(int dev, cudaStream_t st, const ndarray<std::complex<R>>& src,
                        std::int64_t* idx, std::complex<R>* values) {
  const std::int64_t n = src.shape().back(), total = src.size();
  ndarray<std::uint8_t> keys_buf = scratch(dev, std::size_t(total) * sizeof(lane_complex<R>));
  auto* keys = reinterpret_cast<lane_complex<R>*>(keys_buf.data());
  const auto l = make_loop_layout<1>(src.shape(), {&src.strides()});
  const strided_operand op = operand(src.data(), l, 0);
  if (total < (std::int64_t(1) << 31))
    complex_prepare<R, std::int32_t><<<grid_for(dev, total), block_threads, 0, st>>>(
        l.shape, op, keys, idx, std::int32_t(total), std::int32_t(n));
  else
    complex_prepare<R, std::int64_t>
        <<<grid_for(dev, total), block_threads, 0, st>>>(l.shape, op, keys, idx, total, n);
  CUNP_CUDA_CHECK_LAUNCH("complex_prepare");
  std::size_t bytes = 0;
  check(cub::DeviceMergeSort::StableSortPairs(nullptr, bytes, keys, idx, total,
                                              lane_complex_less<R>{}, st),
        "cub::DeviceMergeSort::StableSortPairs");
  const auto tmp = scratch(dev, bytes);
  check(cub::DeviceMergeSort::StableSortPairs(tmp.data(), bytes, keys, idx, total,
                                              lane_complex_less<R>{}, st),
        "cub::DeviceMergeSort::StableSortPairs");
  if (values) {
    complex_values<<<grid_for(dev, total), block_threads, 0, st>>>(
        keys, reinterpret_cast<R*>(values), total);
    CUNP_CUDA_CHECK_LAUNCH("complex_values");
  }
}

// ---- argsort of radix keys

/// keys[i] = the radix key of element i of src, idx[i] = its position i % n in its lane. With
/// `quads` (src contiguous, every array aligned to four elements) a thread moves four elements
/// at once: one 4-byte element a thread keeps too few bytes in flight to stream.
template <class T, class I, class V>
CUNP_KERNEL void argsort_prepare(strided_shape shape, strided_operand src, sort_key_t<T>* keys,
                                 V* idx, I total, I n, bool quads) {
  using K = sort_key_t<T>;
  const T* s = static_cast<const T*>(src.data);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  const I first = blockIdx.x * blockDim.x + threadIdx.x;
  const I done = quads ? total / 4 * 4 : 0;
  for (I q = first; q < done / 4; q += step) {
    const vec<T, 4> x = reinterpret_cast<const vec<T, 4>*>(s)[q];
    vec<K, 4> k;
    vec<V, 4> p;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      k.v[j] = sort_key(x.v[j]);
      p.v[j] = static_cast<V>((4 * q + j) % n);
    }
    reinterpret_cast<vec<K, 4>*>(keys)[q] = k;
    reinterpret_cast<vec<V, 4>*>(idx)[q] = p;
  }
  for (I i = done + first; i < total; i += step) {
    keys[i] = sort_key(s[offset_of(i, shape, src.strides)]);
    idx[i] = static_cast<V>(i % n);
  }
}

/// out[i] = in[i], four a thread at once with `quads` (both aligned to four elements).
template <class I>
CUNP_KERNEL void widen_positions(const std::uint32_t* in, std::int64_t* out, I total, bool quads) {
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  const I first = blockIdx.x * blockDim.x + threadIdx.x;
  const I done = quads ? total / 4 * 4 : 0;
  for (I q = first; q < done / 4; q += step) {
    const vec<std::uint32_t, 4> x = reinterpret_cast<const vec<std::uint32_t, 4>*>(in)[q];
    vec<std::int64_t, 4> y;
#pragma unroll
    for (int j = 0; j < 4; ++j) y.v[j] = x.v[j];
    reinterpret_cast<vec<std::int64_t, 4>*>(out)[q] = y;
  }
  for (I i = done + first; i < total; i += step) out[i] = in[i];
}

/// keys[i] = NumPy's order of element i, bits[i] = its bits (floating T).
template <class T, class I>
CUNP_KERNEL void float_key_prepare(strided_shape shape, strided_operand src, sort_key_t<T>* keys,
                                   sort_key_t<T>* bits, I total) {
  const T* s = static_cast<const T*>(src.data);
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
    const T v = s[offset_of(i, shape, src.strides)];
    keys[i] = sort_key(v);
    if constexpr (is_16bit_float_v<T>)
      bits[i] = v.bits;
    else
      bits[i] = std::bit_cast<sort_key_t<T>>(v);
  }
}

/// Sorts many lanes of floating src (any strides) into out (contiguous) with the segmented sort:
/// the elements' bits ride as values on keys whose unsigned order is NumPy's, so NaNs go last
/// and equal keys (both zeros, all NaNs) keep their order.
template <class T>
void sort_float_lanes(int dev, cudaStream_t st, const ndarray<T>& src, T* out, std::int64_t lanes,
                      std::int64_t n) {
  using K = sort_key_t<T>;
  const std::int64_t total = src.size();
  const device d(device::kind::cuda, dev);
  ndarray<K> keys({total}, d), keys_alt({total}, d), bits_alt({total}, d);
  K* bits = reinterpret_cast<K*>(out);
  const auto l = make_loop_layout<1>(src.shape(), {&src.strides()});
  const strided_operand op = operand(src.data(), l, 0);
  if (total < (std::int64_t(1) << 31))
    float_key_prepare<T, std::int32_t><<<grid_for(dev, total), block_threads, 0, st>>>(
        l.shape, op, keys.data(), bits, std::int32_t(total));
  else
    float_key_prepare<T, std::int64_t>
        <<<grid_for(dev, total), block_threads, 0, st>>>(l.shape, op, keys.data(), bits, total);
  CUNP_CUDA_CHECK_LAUNCH("float_key_prepare");
  cub::DoubleBuffer<K> kb(keys.data(), keys_alt.data());
  cub::DoubleBuffer<K> vb(bits, bits_alt.data());
  sort_pairs<K, key_bits<T>, K, lanes_by::segments>(dev, st, kb, vb, lanes, n);
  if (vb.Current() != bits)
    CUNP_CUDA_CHECK(cudaMemcpyAsync(bits, vb.Current(), std::size_t(total) * sizeof(K),
                                    cudaMemcpyDeviceToDevice, st));
}

// ---- order statistics, searching, unique

template <class T, class R>
CUNP_KERNEL void quantile_kernel(const T* sorted, std::int64_t lanes, std::int64_t n,
                                 const double* q, std::int64_t nq, order_stat stat, R* out) {
  const std::int64_t total = lanes * nq, step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total; i += step) {
    const std::int64_t qi = i / lanes, l = i - qi * lanes;
    out[i] = order_statistic_of_sorted<T, R>(sorted + l * n, n, q[qi], stat);
  }
}

template <class T, class V>
CUNP_KERNEL void searchsorted_kernel(const T* a, std::int64_t n, std::int64_t sa,
                                     strided_shape shape, strided_operand out, strided_operand v,
                                     std::int64_t total, bool right) {
  const V* vp = static_cast<const V*>(v.data);
  std::int64_t* op = static_cast<std::int64_t*>(out.data);
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total; i += step) {
    const V x = vp[offset_of(i, shape, v.strides)];
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const T& y = a[mid * sa];
      if (right ? !order_less_mixed(x, y) : order_less_mixed(y, x))
        lo = mid + 1;
      else
        hi = mid;
    }
    op[offset_of(i, shape, out.strides)] = lo;
  }
}

template <class T>
CUNP_KERNEL void take_kernel(const T* src, std::int64_t stride, const std::int64_t* idx, T* out,
                             std::int64_t n) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += step)
    out[i] = src[idx[i] * stride];
}

template <class T>
CUNP_KERNEL void group_starts(const T* s, std::int64_t n, bool equal_nan, std::int64_t* flag) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += step)
    flag[i] = i == 0 || !order_equal(s[i - 1], s[i], equal_nan);
}

template <class T>
CUNP_KERNEL void unique_scatter(const T* s, const std::int64_t* gid, const std::int64_t* perm,
                                std::int64_t n, T* values, std::int64_t* starts,
                                std::int64_t* indices, std::int64_t* inverse) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += step) {
    const std::int64_t k = gid[i] - 1;
    if (i == 0 || gid[i - 1] != gid[i]) {
      values[k] = s[i];
      if (starts) starts[k] = i;
      if (indices) indices[k] = perm[i];
    }
    if (inverse) inverse[perm[i]] = k;
  }
}

template <int = 0>
CUNP_KERNEL void group_counts(const std::int64_t* starts, std::int64_t groups, std::int64_t n,
                              std::int64_t* counts) {
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t g = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; g < groups; g += step)
    counts[g] = (g + 1 < groups ? starts[g + 1] : n) - starts[g];
}

/// NumPy's equality of neighbours in unique (NaNs equal under equal_nan).
template <class T>
struct unique_equal {
  bool equal_nan;
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return order_equal(a, b, equal_nan);
  }
};

// ---- min/max, bincount, histogram

template <class T>
struct value_pair {
  T lo, hi;
};
template <class T>
struct pair_of {
  __host__ __device__ value_pair<T> operator()(const T& v) const { return {v, v}; }
};
/// The largest (high) or the smallest value of T: the identity of widen_pair's low or high.
template <class T>
T widest(bool high) {
  if constexpr (std::is_same_v<T, float16>)
    return float16::from_bits(high ? 0x7c00u : 0xfc00u);
  else if constexpr (std::is_same_v<T, bfloat16>)
    return bfloat16::from_bits(high ? 0x7f80u : 0xff80u);
  else if constexpr (std::is_floating_point_v<T>)
    return high ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  else
    return high ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
}
/// Keeps the smaller low and the larger high; a NaN takes over both (NumPy's min and max).
template <class T>
struct widen_pair {
  __host__ __device__ value_pair<T> operator()(const value_pair<T>& a,
                                               const value_pair<T>& b) const {
    if (order_isnan(a.lo)) return a;
    if (order_isnan(b.lo)) return b;
    return {order_less(b.lo, a.lo) ? b.lo : a.lo, order_less(a.hi, b.hi) ? b.hi : a.hi};
  }
};

__device__ __forceinline__ void add_to(std::int64_t* p, std::int64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void add_to(double* p, double v) { atomicAdd(p, v); }

/// Bins that fit a block's shared memory are counted there first, so that a few popular bins
/// do not serialise every thread of the GPU on the same global atomics.
inline constexpr std::int64_t shared_bins = 4096;

template <class T, class W, class R, bool Shared>
CUNP_KERNEL void bincount_kernel(const T* x, std::int64_t sx, const W* w, std::int64_t sw,
                                 std::int64_t n, R* out, std::int64_t nb) {
  extern __shared__ __align__(16) unsigned char smem[];
  R* bins = Shared ? reinterpret_cast<R*>(smem) : out;
  if constexpr (Shared) {
    for (std::int64_t b = threadIdx.x; b < nb; b += blockDim.x) bins[b] = R(0);
    __syncthreads();
  }
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += step)
    add_to(&bins[static_cast<std::int64_t>(x[i * sx])], w ? convert<R>(w[i * sw]) : R(1));
  if constexpr (Shared) {
    __syncthreads();
    for (std::int64_t b = threadIdx.x; b < nb; b += blockDim.x)
      if (bins[b] != R(0)) add_to(&out[b], bins[b]);
  }
}

template <class T, class C, bool Shared>
CUNP_KERNEL void histogram_kernel(strided_shape shape, strided_operand a, std::int64_t total,
                                  const C* edges, std::int64_t nb, std::int64_t* out) {
  extern __shared__ __align__(16) unsigned char smem[];
  std::int64_t* bins = Shared ? reinterpret_cast<std::int64_t*>(smem) : out;
  if constexpr (Shared) {
    for (std::int64_t b = threadIdx.x; b < nb; b += blockDim.x) bins[b] = 0;
    __syncthreads();
  }
  const T* p = static_cast<const T*>(a.data);
  const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total; i += step) {
    const std::int64_t b = histogram_bin(convert<C>(p[offset_of(i, shape, a.strides)]), edges, nb);
    if (b >= 0) add_to(&bins[b], 1);
  }
  if constexpr (Shared) {
    __syncthreads();
    for (std::int64_t b = threadIdx.x; b < nb; b += blockDim.x)
      if (bins[b] != 0) add_to(&out[b], bins[b]);
  }
}

/// The calling thread's stream on the array's device, with that device current.
struct on_device {
  int dev;
  device_scope scope;
  cudaStream_t stream;
  explicit on_device(cunp::device d)
      : dev(d.index()), scope(d.index()), stream(current_stream(d.index())) {}
};

}  // namespace cuda

template <class T>
void sort_lanes(cuda_backend, const ndarray<T>& src, const ndarray<T>& dst) {
  if (src.device().is_cpu()) return sort_lanes(host_backend{}, src, dst);
  check_same_device(src.device(), dst.device(), "sort");
  if (src.size() == 0) return;
  const cuda::on_device on(src.device());
  const std::int64_t n = src.shape().back(), lanes = src.size() / n;
  if (n == 1) return copy_same(dst, src);
  const ndarray<T> out = dst.is_contiguous() ? dst : ndarray<T>(dst.shape(), dst.device());
  if constexpr (is_complex_v<T>) {
    ndarray<std::int64_t> idx({src.size()}, src.device());
    cuda::complex_sort_lanes(on.dev, on.stream, src, idx.data(), out.data());
  } else if (is_floating_v<T> && !cuda::sort_lane_by_lane(on.dev, lanes, n)) {
    if constexpr (is_floating_v<T>)
      cuda::sort_float_lanes(on.dev, on.stream, src, out.data(), lanes, n);
  } else {
    // Device-wide radix sorts of T itself: the fastest, and exactly CUB's. CUB's radix order
    // puts NaNs with the sign bit set first; they are moved last afterwards.
    using K = typename cuda::cub_key<T>::type;
    const ndarray<T> in = src.is_contiguous() ? src : src.copy();
    cuda::sort_keys<K, cuda::key_bits<T>>(on.dev, on.stream, reinterpret_cast<const K*>(in.data()),
                                          reinterpret_cast<K*>(out.data()), lanes, n);
    if constexpr (is_floating_v<T>)
      cuda::negative_nans_last(on.dev, on.stream, out.data(), lanes, n);
  }
  if (!dst.is_contiguous()) copy_same(dst, out);
}

template <class T>
void argsort_lanes(cuda_backend, const ndarray<T>& src, const ndarray<std::int64_t>& dst) {
  if (src.device().is_cpu()) return argsort_lanes(host_backend{}, src, dst);
  check_same_device(src.device(), dst.device(), "argsort");
  if (src.size() == 0) return;
  const cuda::on_device on(src.device());
  const std::int64_t n = src.shape().back(), lanes = src.size() / n, total = src.size();
  if (n == 1) return dst.fill(0);
  const ndarray<std::int64_t> idx =
      dst.is_contiguous() ? dst : ndarray<std::int64_t>(dst.shape(), dst.device());
  if constexpr (is_complex_v<T>) {
    cuda::complex_sort_lanes<typename complex_parts<T>::type>(on.dev, on.stream, src, idx.data(),
                                                              nullptr);
  } else {
    using K = sort_key_t<T>;
    const device d = src.device();
    ndarray<K> keys({total}, d), keys_alt({total}, d);
    cub::DoubleBuffer<K> kb(keys.data(), keys_alt.data());
    const auto l = make_loop_layout<1>(src.shape(), {&src.strides()});
    const strided_operand op = operand(src.data(), l, 0);
    const unsigned grid = cuda::grid_for(on.dev, total);
    const bool small = total < (std::int64_t(1) << 31);
    // Four elements a thread where src is contiguous and every array starts on four elements;
    // for elements of up to 4 bytes (H200, argsort of 2^26: float32 2668 -> 2642 us, int64
    // 5777 -> 5890 us with 32-byte vectors).
    const auto on4 = [](const void* p, std::size_t size) {
      return reinterpret_cast<std::uintptr_t>(p) % (4 * size) == 0;
    };
    const bool quads_in = sizeof(T) <= 4 && src.is_contiguous() && on4(src.data(), sizeof(T)) &&
                          on4(keys.data(), sizeof(K));
    if (n <= std::numeric_limits<std::int32_t>::max()) {
      // Positions within a lane fit 32 bits: every radix pass moves 4 bytes less per element,
      // and one pass widens them to int64 at the end.
      ndarray<std::uint32_t> pos({total}, d), pos_alt({total}, d);
      const bool quads = quads_in && on4(pos.data(), sizeof(std::uint32_t));
      if (small)
        cuda::argsort_prepare<T, std::int32_t, std::uint32_t>
            <<<grid, cuda::block_threads, 0, on.stream>>>(
                l.shape, op, keys.data(), pos.data(), std::int32_t(total), std::int32_t(n), quads);
      else
        cuda::argsort_prepare<T, std::int64_t, std::uint32_t>
            <<<grid, cuda::block_threads, 0, on.stream>>>(l.shape, op, keys.data(), pos.data(),
                                                          total, n, quads);
      CUNP_CUDA_CHECK_LAUNCH("argsort_prepare");
      cub::DoubleBuffer<std::uint32_t> vb(pos.data(), pos_alt.data());
      cuda::sort_pairs<K, cuda::key_bits<T>>(on.dev, on.stream, kb, vb, lanes, n);
      const bool wide_quads =
          on4(vb.Current(), sizeof(std::uint32_t)) && on4(idx.data(), sizeof(std::int64_t));
      if (small)
        cuda::widen_positions<<<grid, cuda::block_threads, 0, on.stream>>>(
            vb.Current(), idx.data(), std::int32_t(total), wide_quads);
      else
        cuda::widen_positions<<<grid, cuda::block_threads, 0, on.stream>>>(
            vb.Current(), idx.data(), total, wide_quads);
      CUNP_CUDA_CHECK_LAUNCH("widen_positions");
    } else {  // lanes this long are sorted one by one
      ndarray<std::int64_t> idx_alt({total}, d);
      cuda::argsort_prepare<T, std::int64_t, std::int64_t><<<grid, cuda::block_threads, 0,
                                                             on.stream>>>(
          l.shape, op, keys.data(), idx.data(), total, n,
          quads_in && on4(idx.data(), sizeof(std::int64_t)));
      CUNP_CUDA_CHECK_LAUNCH("argsort_prepare");
      cub::DoubleBuffer<std::int64_t> vb(idx.data(), idx_alt.data());
      cuda::sort_pairs<K, cuda::key_bits<T>, std::int64_t, cuda::lanes_by::device_sorts>(
          on.dev, on.stream, kb, vb, lanes, n);
      if (vb.Current() != idx.data())
        CUNP_CUDA_CHECK(cudaMemcpyAsync(idx.data(), vb.Current(),
                                        std::size_t(total) * sizeof(std::int64_t),
                                        cudaMemcpyDeviceToDevice, on.stream));
    }
  }
  if (!dst.is_contiguous()) copy_same(dst, idx);
}

template <class T>
void take_flat(cuda_backend, const ndarray<T>& src, const ndarray<std::int64_t>& idx,
               const ndarray<T>& out) {
  if (src.device().is_cpu()) return take_flat(host_backend{}, src, idx, out);
  if (out.size() == 0) return;
  const cuda::on_device on(src.device());
  cuda::take_kernel<<<cuda::grid_for(on.dev, out.size()), cuda::block_threads, 0, on.stream>>>(
      src.data(), src.strides()[0], idx.data(), out.data(), out.size());
  CUNP_CUDA_CHECK_LAUNCH("take_kernel");
}

/// Integers are sorted for unique on the bits where their minimum and maximum differ (found
/// first; unique waits for the device anyway): values in [0, 1000) take two radix passes, not 8.
template <class T>
void unique_sort(cuda_backend, const ndarray<T>& flat, const ndarray<T>& sorted) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (flat.device().is_cuda() && flat.size() > 0) {
      const auto [lo, hi] = value_range(cuda_backend{}, flat);
      const int bits = std::bit_width(static_cast<std::uint64_t>(sort_key(lo) ^ sort_key(hi)));
      if (bits == 0) return copy_same(sorted, flat);  // one value
      const cuda::on_device on(flat.device());
      const ndarray<T> in = flat.is_contiguous() ? flat : flat.copy();
      std::size_t bytes = 0;
      cuda::check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in.data(), sorted.data(),
                                                 in.size(), 0, bits, on.stream),
                  "cub::DeviceRadixSort::SortKeys");
      const auto tmp = cuda::scratch(on.dev, bytes);
      cuda::check(cub::DeviceRadixSort::SortKeys(tmp.data(), bytes, in.data(), sorted.data(),
                                                 in.size(), 0, bits, on.stream),
                  "cub::DeviceRadixSort::SortKeys");
      return;
    }
  }
  sort_lanes(cuda_backend{}, flat, sorted);
}

template <class T>
ndarray<T> unique_sorted_values(cuda_backend, const ndarray<T>& sorted, bool equal_nan) {
  if (sorted.device().is_cpu()) return unique_sorted_values(host_backend{}, sorted, equal_nan);
  const cuda::on_device on(sorted.device());
  const std::int64_t n = sorted.size();
  ndarray<T> firsts({n}, sorted.device());
  ndarray<std::int64_t> count({}, sorted.device());
  const auto index = thrust::make_counting_iterator<std::int64_t>(0);
  const auto nowhere = thrust::make_discard_iterator();
  std::size_t bytes = 0;
  cuda::check(
      cub::DeviceSelect::UniqueByKey(nullptr, bytes, sorted.data(), index, firsts.data(), nowhere,
                                     count.data(), n, cuda::unique_equal<T>{equal_nan}, on.stream),
      "cub::DeviceSelect::UniqueByKey");
  const auto tmp = cuda::scratch(on.dev, bytes);
  cuda::check(cub::DeviceSelect::UniqueByKey(tmp.data(), bytes, sorted.data(), index, firsts.data(),
                                             nowhere, count.data(), n,
                                             cuda::unique_equal<T>{equal_nan}, on.stream),
              "cub::DeviceSelect::UniqueByKey");
  return ndarray<T>(firsts.storage(), 0, {count.item()}, {1}).copy();
}

template <class T>
index_t unique_groups(cuda_backend, const ndarray<T>& sorted, bool equal_nan,
                      const ndarray<std::int64_t>& gid) {
  if (sorted.device().is_cpu()) return unique_groups(host_backend{}, sorted, equal_nan, gid);
  const cuda::on_device on(sorted.device());
  const std::int64_t n = sorted.size();
  cuda::group_starts<<<cuda::grid_for(on.dev, n), cuda::block_threads, 0, on.stream>>>(
      sorted.data(), n, equal_nan, gid.data());
  CUNP_CUDA_CHECK_LAUNCH("group_starts");
  std::size_t bytes = 0;
  cuda::check(cub::DeviceScan::InclusiveSum(nullptr, bytes, gid.data(), gid.data(), n, on.stream),
              "cub::DeviceScan::InclusiveSum");
  const auto tmp = cuda::scratch(on.dev, bytes);
  cuda::check(
      cub::DeviceScan::InclusiveSum(tmp.data(), bytes, gid.data(), gid.data(), n, on.stream),
      "cub::DeviceScan::InclusiveSum");
  return ndarray<std::int64_t>(gid.storage(), gid.offset() + n - 1, {}, {}).item();
}

template <class T>
void unique_fill(cuda_backend, const ndarray<T>& sorted, const ndarray<std::int64_t>& gid,
                 const ndarray<std::int64_t>* perm, const ndarray<T>& values,
                 const ndarray<std::int64_t>* counts, const ndarray<std::int64_t>* indices,
                 const ndarray<std::int64_t>* inverse) {
  if (sorted.device().is_cpu())
    return unique_fill(host_backend{}, sorted, gid, perm, values, counts, indices, inverse);
  const cuda::on_device on(sorted.device());
  const std::int64_t n = sorted.size(), groups = values.size();
  ndarray<std::int64_t> starts({counts ? groups : 0}, sorted.device());
  cuda::unique_scatter<<<cuda::grid_for(on.dev, n), cuda::block_threads, 0, on.stream>>>(
      sorted.data(), gid.data(), perm ? perm->data() : nullptr, n, values.data(),
      counts ? starts.data() : nullptr, indices ? indices->data() : nullptr,
      inverse ? inverse->data() : nullptr);
  CUNP_CUDA_CHECK_LAUNCH("unique_scatter");
  if (counts) {
    cuda::group_counts<<<cuda::grid_for(on.dev, groups), cuda::block_threads, 0, on.stream>>>(
        starts.data(), groups, n, counts->data());
    CUNP_CUDA_CHECK_LAUNCH("group_counts");
  }
}

template <class T, class R>
void quantile_lanes(cuda_backend, const ndarray<T>& sorted, const std::vector<double>& qs,
                    order_stat stat, const ndarray<R>& out) {
  if (sorted.device().is_cpu()) return quantile_lanes(host_backend{}, sorted, qs, stat, out);
  const cuda::on_device on(sorted.device());
  const std::int64_t lanes = sorted.shape()[0], n = sorted.shape()[1], nq = std::int64_t(qs.size());
  const ndarray<double> q = asarray(qs, {nq}, sorted.device());
  cuda::quantile_kernel<<<cuda::grid_for(on.dev, lanes * nq), cuda::block_threads, 0, on.stream>>>(
      sorted.data(), lanes, n, q.data(), nq, stat, out.data());
  CUNP_CUDA_CHECK_LAUNCH("quantile_kernel");
}

template <class T, class V>
void searchsorted_into(cuda_backend, const ndarray<T>& a, const ndarray<V>& v,
                       const ndarray<std::int64_t>& out, bool right) {
  if (a.device().is_cpu()) return searchsorted_into(host_backend{}, a, v, out, right);
  const cuda::on_device on(a.device());
  const auto l = pair_layout(out, v);
  cuda::searchsorted_kernel<T, V>
      <<<cuda::grid_for(on.dev, l.size), cuda::block_threads, 0, on.stream>>>(
          a.data(), a.shape()[0], a.strides()[0], l.shape, operand(out.data(), l, 0),
          operand(v.data(), l, 1), l.size, right);
  CUNP_CUDA_CHECK_LAUNCH("searchsorted_kernel");
}

template <class T>
std::pair<T, T> value_range(cuda_backend, const ndarray<T>& a) {
  if (a.device().is_cpu()) return value_range(host_backend{}, a);
  const cuda::on_device on(a.device());
  const ndarray<T> c = a.is_contiguous() ? a : a.copy();
  const auto in = thrust::make_transform_iterator(c.data(), cuda::pair_of<T>{});
  const auto result = cuda::scratch(on.dev, sizeof(cuda::value_pair<T>));
  auto* out = reinterpret_cast<cuda::value_pair<T>*>(result.data());
  const cuda::value_pair<T> none{cuda::widest<T>(true), cuda::widest<T>(false)};
  std::size_t bytes = 0;
  cuda::check(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, c.size(), cuda::widen_pair<T>{},
                                        none, on.stream),
              "cub::DeviceReduce::Reduce");
  const auto tmp = cuda::scratch(on.dev, bytes);
  cuda::check(cub::DeviceReduce::Reduce(tmp.data(), bytes, in, out, c.size(), cuda::widen_pair<T>{},
                                        none, on.stream),
              "cub::DeviceReduce::Reduce");
  check_synchronize_allowed("bincount/histogram (their sizes depend on the values)");
  cuda::value_pair<T> r{};
  CUNP_CUDA_CHECK(cudaMemcpyAsync(&r, out, sizeof(r), cudaMemcpyDeviceToHost, on.stream));
  CUNP_CUDA_CHECK(cudaStreamSynchronize(on.stream));
  return {r.lo, r.hi};
}

template <class T, class W, class R>
void bincount_count(cuda_backend, const ndarray<T>& x, const ndarray<W>* weights,
                    const ndarray<R>& out) {
  if (x.device().is_cpu()) return bincount_count(host_backend{}, x, weights, out);
  const cuda::on_device on(x.device());
  const std::int64_t nb = out.size(), n = x.size();
  CUNP_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, out.nbytes(), on.stream));
  if (n == 0) return;
  const W* w = weights ? weights->data() : nullptr;
  const std::int64_t sw = weights ? weights->strides()[0] : 0;
  const unsigned grid = cuda::grid_for(on.dev, n, 4);
  if (nb <= cuda::shared_bins)
    cuda::bincount_kernel<T, W, R, true>
        <<<grid, cuda::block_threads, std::size_t(nb) * sizeof(R), on.stream>>>(
            x.data(), x.strides()[0], w, sw, n, out.data(), nb);
  else
    cuda::bincount_kernel<T, W, R, false><<<grid, cuda::block_threads, 0, on.stream>>>(
        x.data(), x.strides()[0], w, sw, n, out.data(), nb);
  CUNP_CUDA_CHECK_LAUNCH("bincount_kernel");
}

template <class T, class E>
void histogram_count(cuda_backend, const ndarray<T>& a, const ndarray<E>& edges,
                     const ndarray<std::int64_t>& hist) {
  if (a.device().is_cpu()) return histogram_count(host_backend{}, a, edges, hist);
  using C = result_type_t<T, E>;
  const cuda::on_device on(a.device());
  const std::int64_t nb = hist.size();
  const ndarray<C> e = edges.template astype<C, cuda_backend>();
  CUNP_CUDA_CHECK(cudaMemsetAsync(hist.data(), 0, hist.nbytes(), on.stream));
  const auto l = make_loop_layout<1>(a.shape(), {&a.strides()});
  if (l.size == 0) return;
  const unsigned grid = cuda::grid_for(on.dev, l.size, 4);
  const strided_operand op = operand(a.data(), l, 0);
  if (nb <= cuda::shared_bins)
    cuda::histogram_kernel<T, C, true>
        <<<grid, cuda::block_threads, std::size_t(nb) * sizeof(std::int64_t), on.stream>>>(
            l.shape, op, l.size, e.data(), nb, hist.data());
  else
    cuda::histogram_kernel<T, C, false><<<grid, cuda::block_threads, 0, on.stream>>>(
        l.shape, op, l.size, e.data(), nb, hist.data());
  CUNP_CUDA_CHECK_LAUNCH("histogram_kernel");
}

}  // namespace cunp::detail
