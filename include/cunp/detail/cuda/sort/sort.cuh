// cunp/detail/cuda/sort/sort.cuh: the CUDA backend of cunp/sort.hpp. Sorts are CUB's: radix sorts
// (radix_sort.cuh) over whole arrays or lane by lane for few long lanes, segmented sorts for many
// lanes, a stable merge sort for complex numbers; then the kernels of the order statistics,
// searchsorted, unique, bincount and histogram. Temporary storage comes from cunp's pool, on the
// array's device and the calling thread's current stream.
#pragma once
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>

#include "cunp/detail/cuda/core/launch.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/sort/radix_sort.cuh"
#include "cunp/sort.hpp"

namespace cunp::detail {

namespace cuda {

/// CUDA's type of cunp's floating T (whose radix traits CUB has).
template <class T>
struct cuda_float {
  using type = T;
};
template <>
struct cuda_float<float16> {
  using type = __half;
};
template <>
struct cuda_float<bfloat16> {
  using type = __nv_bfloat16;
};

/// The bits of one floating T as a key that CUB sorts in NumPy's order: by value, -0.0 equal to
/// 0.0, NaNs last. CUB's radix sorts twiddle the bits by `twiddle` and rank the result by `rank`
/// (cub::NumericTraits and cub::BaseDigitExtractor below: the hooks through which CUB makes -0.0
/// equal to 0.0 for its own float keys); its merge sorts of short segments compare by the same
/// rank.
/// - !Keeps (argsort's keys, read straight from the elements; the sorted keys are thrown away):
///   twiddled to sort_key, every NaN one key, so that a stable sort keeps NaNs in input order;
///   what the passes write back is one element of each key, which twiddles to it again.
/// - Keeps (sort's keys in segmented sorts; see sort_lanes for its device-wide ones): every
///   element's bits are written back. The twiddle is the usual one (a positive number's sign bit
///   flipped, a negative one's every bit) less the count of NaNs with the sign bit set, which so
///   wrap round to the top: -inf is 0, the values follow in order, -0.0 just below 0.0 (ranked
///   as it), then the NaNs in the order of their bits.
template <class T, bool Keeps>
struct float_radix_key {
  using bits_type = sort_key_t<T>;
  bits_type bits;

  static constexpr bits_type sign = bits_type(bits_type(1) << (8 * sizeof(bits_type) - 1));
  static constexpr bits_type negative_nans = Keeps ? bits_type(~(inf_bits<T> | sign)) : 0;
  static constexpr bits_type minus_zero = bits_type(bits_type(~sign) - negative_nans);

  static CUNP_HD constexpr bits_type twiddle(bits_type u) {
    if constexpr (!Keeps) return sort_key(std::bit_cast<T>(u));
    const bits_type mask = (u & sign) ? bits_type(~bits_type(0)) : sign;
    return bits_type((u ^ mask) - negative_nans);
  }
  static CUNP_HD constexpr bits_type untwiddle(bits_type k) {
    k = bits_type(k + negative_nans);
    const bits_type mask = (k & sign) ? sign : bits_type(~bits_type(0));
    return bits_type(k ^ mask);
  }
  static CUNP_HD constexpr bits_type rank(bits_type k) {
    if constexpr (!Keeps) return k;
    return k == minus_zero ? bits_type(minus_zero + 1) : k;
  }

  friend CUNP_HD bool operator<(float_radix_key a, float_radix_key b) {
    return rank(twiddle(a.bits)) < rank(twiddle(b.bits));
  }
  friend CUNP_HD bool operator==(float_radix_key a, float_radix_key b) {
    return rank(twiddle(a.bits)) == rank(twiddle(b.bits));
  }
};

/// The type CUB sorts T's bits as: T itself for integers, bool as a byte, floats in NumPy's
/// order, their bits kept where `Keeps`.
template <class T, bool Keeps>
struct radix_key {
  using type = T;
};
template <bool Keeps>
struct radix_key<bool, Keeps> {
  using type = std::uint8_t;
};
template <class T, bool Keeps>
requires is_floating_v<T>
struct radix_key<T, Keeps> {
  using type = float_radix_key<T, Keeps>;
};
template <class T, bool Keeps = true>
using radix_key_t = typename radix_key<T, Keeps>::type;

}  // namespace cuda

}  // namespace cunp::detail

CUB_NAMESPACE_BEGIN
template <class T, bool Keeps>
struct NumericTraits<cunp::detail::cuda::float_radix_key<T, Keeps>>
    : NumericTraits<typename cunp::detail::cuda::cuda_float<T>::type> {
  using key = cunp::detail::cuda::float_radix_key<T, Keeps>;
  using UnsignedBits =
      typename NumericTraits<typename cunp::detail::cuda::cuda_float<T>::type>::UnsignedBits;
  static constexpr UnsignedBits LOWEST_KEY = key::untwiddle(0);
  // Padding of partial tiles: ranked last in every digit, as CUB needs.
  static constexpr UnsignedBits MAX_KEY = key::untwiddle(UnsignedBits(~UnsignedBits(0)));
  static _CCCL_HOST_DEVICE _CCCL_FORCEINLINE UnsignedBits TwiddleIn(UnsignedBits u) {
    return key::twiddle(u);
  }
  static _CCCL_HOST_DEVICE _CCCL_FORCEINLINE UnsignedBits TwiddleOut(UnsignedBits k) {
    return key::untwiddle(k);
  }
};
template <class T, bool Keeps>
struct BaseDigitExtractor<cunp::detail::cuda::float_radix_key<T, Keeps>, false> {
  using key = cunp::detail::cuda::float_radix_key<T, Keeps>;
  using UnsignedBits = typename Traits<key>::UnsignedBits;
  static _CCCL_HOST_DEVICE _CCCL_FORCEINLINE UnsignedBits ProcessFloatMinusZero(UnsignedBits k) {
    return key::rank(k);
  }
};
CUB_NAMESPACE_END

namespace cunp::detail {

namespace cuda {

/// The bits a radix sort of T's keys must look at (one for bool).
template <class T>
inline constexpr int key_bits = std::is_same_v<T, bool> ? 1 : int(8 * sizeof(T));

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

/// How lanes are sorted: as sort_lane_by_lane says, or always one way (when the caller knows, so
/// that the other way is not compiled).
enum class lanes_by : std::uint8_t { choice, segments, device_sorts };

/// Sorts each of `lanes` contiguous lanes of n keys from `in` into `out` (stable).
template <class K, int Bits, lanes_by How = lanes_by::choice>
void sort_keys(int dev, cudaStream_t st, const K* in, K* out, std::int64_t lanes, std::int64_t n) {
  if constexpr (How == lanes_by::choice) {
    if (!sort_lane_by_lane(dev, lanes, n))
      return sort_keys<K, Bits, lanes_by::segments>(dev, st, in, out, lanes, n);
  }
  if constexpr (How != lanes_by::segments) {
    for (std::int64_t l = 0; l < lanes; ++l)
      radix_sort(dev, st, in + l * n, out + l * n, n, Bits);
  } else {
    const auto off = lane_offsets(n);
    cub_call(dev, "cub::DeviceSegmentedSort::StableSortKeys", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::StableSortKeys(temp, bytes, in, out, lanes * n, lanes, off,
                                                      off + 1, st);
    });
  }
}

/// Sorts the (key, value) pairs of each of `lanes` contiguous lanes of n, stably, from the inputs
/// into the outputs.
template <class K, int Bits, class V, lanes_by How = lanes_by::choice>
void sort_pairs(int dev, cudaStream_t st, const K* keys_in, K* keys_out, const V* values_in,
                V* values_out, std::int64_t lanes, std::int64_t n) {
  if constexpr (How == lanes_by::choice) {
    if (!sort_lane_by_lane(dev, lanes, n))
      return sort_pairs<K, Bits, V, lanes_by::segments>(dev, st, keys_in, keys_out, values_in,
                                                        values_out, lanes, n);
  }
  if constexpr (How != lanes_by::segments) {
    for (std::int64_t l = 0; l < lanes; ++l)
      radix_sort(dev, st, keys_in + l * n, keys_out + l * n, values_in + l * n, values_out + l * n,
                 n, Bits);
  } else {
    const auto off = lane_offsets(n);
    cub_call(dev, "cub::DeviceSegmentedSort::StableSortPairs", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, keys_in, keys_out, values_in,
                                                       values_out, lanes * n, lanes, off, off + 1,
                                                       st);
    });
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
/// has none: one load then, not the binary search's ~log2(n) dependent ones.
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
/// elements and, almost always, all leave at once (one launch where a kernel for the count and
/// one for each reversal cost three).
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
  const workspace keys_buf(dev, std::size_t(total) * sizeof(lane_complex<R>));
  auto* keys = static_cast<lane_complex<R>*>(keys_buf.data());
  const auto l = make_loop_layout<1>(src.shape(), {&src.strides()});
  const strided_operand op = operand(src.data(), l, 0);
  if (total < (std::int64_t(1) << 31))
    complex_prepare<R, std::int32_t><<<grid_for(dev, total), block_threads, 0, st>>>(
        l.shape, op, keys, idx, std::int32_t(total), std::int32_t(n));
  else
    complex_prepare<R, std::int64_t>
        <<<grid_for(dev, total), block_threads, 0, st>>>(l.shape, op, keys, idx, total, n);
  CUNP_CUDA_CHECK_LAUNCH("complex_prepare");
  cub_call(dev, "cub::DeviceMergeSort::StableSortPairs", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceMergeSort::StableSortPairs(temp, bytes, keys, idx, total,
                                                 lane_complex_less<R>{}, st);
  });
  if (values) {
    complex_values<<<grid_for(dev, total), block_threads, 0, st>>>(
        keys, reinterpret_cast<R*>(values), total);
    CUNP_CUDA_CHECK_LAUNCH("complex_values");
  }
}

// ---- argsort of radix keys

/// pos[i] = i % n, the position of element i in its lane of n; four a thread with `quads` (pos
/// aligned to four elements): one 4-byte element a thread keeps too few bytes in flight.
template <class I, class V>
CUNP_KERNEL void lane_positions(V* pos, I total, I n, bool quads) {
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  const I first = blockIdx.x * blockDim.x + threadIdx.x;
  const I done = quads ? total / 4 * 4 : 0;
  for (I q = first; q < done / 4; q += step) {
    vec<V, 4> p;
    I r = 4 * q % n;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      p.v[j] = static_cast<V>(r);
      r = r + 1 == n ? 0 : r + 1;
    }
    reinterpret_cast<vec<V, 4>*>(pos)[q] = p;
  }
  for (I i = done + first; i < total; i += step) pos[i] = static_cast<V>(i % n);
}

template <class V>
void lane_positions(int dev, cudaStream_t st, V* pos, std::int64_t total, std::int64_t n) {
  const bool quads = vec_aligned<V, 4>(pos);
  if (total < (std::int64_t(1) << 31))
    lane_positions<<<grid_for(dev, total), block_threads, 0, st>>>(pos, std::int32_t(total),
                                                                    std::int32_t(n), quads);
  else
    lane_positions<<<grid_for(dev, total), block_threads, 0, st>>>(pos, total, n, quads);
  CUNP_CUDA_CHECK_LAUNCH("lane_positions");
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

inline void widen_positions(int dev, cudaStream_t st, const std::uint32_t* in, std::int64_t* out,
                            std::int64_t total) {
  const bool quads = vec_aligned<std::uint32_t, 4>(in) && vec_aligned<std::int64_t, 4>(out);
  if (total < (std::int64_t(1) << 31))
    widen_positions<<<grid_for(dev, total), block_threads, 0, st>>>(in, out, std::int32_t(total),
                                                                     quads);
  else
    widen_positions<<<grid_for(dev, total), block_threads, 0, st>>>(in, out, total, quads);
  CUNP_CUDA_CHECK_LAUNCH("widen_positions");
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

}  // namespace cuda

template <class T>
void sort_lanes(cuda_backend, const ndarray<T>& src, const ndarray<T>& dst) {
  check_same_device(src.device(), dst.device(), "sort");
  if (src.size() == 0) return;
  const cuda::on_device on(src.device());
  const std::int64_t n = src.shape().back(), lanes = src.size() / n;
  if (n == 1) return copy_same(dst, src);
  const ndarray<T> out = dst.is_contiguous() ? dst : ndarray<T>(dst.shape(), dst.device());
  if constexpr (is_complex_v<T>) {
    ndarray<std::int64_t> idx({src.size()}, src.device());
    cuda::complex_sort_lanes(on.dev, on.stream, src, idx.data(), out.data());
  } else {
    const ndarray<T> in = src.is_contiguous() ? src : src.copy();
    using K = cuda::radix_key_t<T>;
    const auto* keys = reinterpret_cast<const K*>(in.data());
    auto* sorted = reinterpret_cast<K*>(out.data());
    if constexpr (!is_floating_v<T>) {
      cuda::sort_keys<K, cuda::key_bits<T>>(on.dev, on.stream, keys, sorted, lanes, n);
    } else if (cuda::sort_lane_by_lane(on.dev, lanes, n)) {
      // CUB's own float keys, whose radix order puts NaNs with the sign bit set first: they are
      // moved last afterwards, one launch. Radix keys of our own that put them last cost each
      // pass integer operations a key more, which measured slower (bench/RESULTS.md).
      using F = typename cuda::cuda_float<T>::type;
      cuda::sort_keys<F, cuda::key_bits<T>, cuda::lanes_by::device_sorts>(
          on.dev, on.stream, reinterpret_cast<const F*>(keys), reinterpret_cast<F*>(sorted), lanes,
          n);
      cuda::negative_nans_last(on.dev, on.stream, out.data(), lanes, n);
    } else {
      cuda::sort_keys<K, cuda::key_bits<T>, cuda::lanes_by::segments>(on.dev, on.stream, keys,
                                                                      sorted, lanes, n);
    }
  }
  if (!dst.is_contiguous()) copy_same(dst, out);
}

template <class T>
void argsort_lanes(cuda_backend, const ndarray<T>& src, const ndarray<std::int64_t>& dst) {
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
    // The keys are the elements themselves, read by the sort's first pass; the sorted keys are
    // thrown away.
    using K = cuda::radix_key_t<T, false>;
    const device d = src.device();
    const ndarray<T> in = src.is_contiguous() ? src : src.copy();
    const K* keys = reinterpret_cast<const K*>(in.data());
    const ndarray<T> sorted({total}, d);
    K* sorted_keys = reinterpret_cast<K*>(sorted.data());
    if (n <= std::numeric_limits<std::int32_t>::max()) {
      // Positions within a lane fit 32 bits: every radix pass moves 4 bytes less per element,
      // and one pass widens them to int64 at the end.
      ndarray<std::uint32_t> pos({total}, d), sorted_pos({total}, d);
      cuda::lane_positions(on.dev, on.stream, pos.data(), total, n);
      cuda::sort_pairs<K, cuda::key_bits<T>>(on.dev, on.stream, keys, sorted_keys,
                                             pos.data(), sorted_pos.data(), lanes, n);
      cuda::widen_positions(on.dev, on.stream, sorted_pos.data(), idx.data(), total);
    } else {  // lanes this long are sorted one by one
      ndarray<std::int64_t> pos({total}, d);
      cuda::lane_positions(on.dev, on.stream, pos.data(), total, n);
      cuda::sort_pairs<K, cuda::key_bits<T>, std::int64_t, cuda::lanes_by::device_sorts>(
          on.dev, on.stream, keys, sorted_keys, pos.data(), idx.data(), lanes, n);
    }
  }
  if (!dst.is_contiguous()) copy_same(dst, idx);
}

template <class T>
void take_flat(cuda_backend, const ndarray<T>& src, const ndarray<std::int64_t>& idx,
               const ndarray<T>& out) {
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
    if (flat.size() > 0) {
      const auto [lo, hi] = value_range(cuda_backend{}, flat);
      const int bits = std::bit_width(static_cast<std::uint64_t>(sort_key(lo) ^ sort_key(hi)));
      if (bits == 0) return copy_same(sorted, flat);  // one value
      const cuda::on_device on(flat.device());
      const ndarray<T> in = flat.is_contiguous() ? flat : flat.copy();
      return cuda::radix_sort(on.dev, on.stream, in.data(), sorted.data(), in.size(), bits);
    }
  }
  sort_lanes(cuda_backend{}, flat, sorted);
}

template <class T>
ndarray<T> unique_sorted_values(cuda_backend, const ndarray<T>& sorted, bool equal_nan) {
  const cuda::on_device on(sorted.device());
  const std::int64_t n = sorted.size();
  ndarray<T> firsts({n}, sorted.device());
  ndarray<std::int64_t> count({}, sorted.device());
  const auto index = thrust::make_counting_iterator<std::int64_t>(0);
  const auto nowhere = thrust::make_discard_iterator();
  cuda::cub_call(on.dev, "cub::DeviceSelect::UniqueByKey", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSelect::UniqueByKey(temp, bytes, sorted.data(), index, firsts.data(),
                                          nowhere, count.data(), n,
                                          cuda::unique_equal<T>{equal_nan}, on.stream);
  });
  return ndarray<T>(firsts.storage(), 0, {count.item()}, {1}).copy();
}

template <class T>
index_t unique_groups(cuda_backend, const ndarray<T>& sorted, bool equal_nan,
                      const ndarray<std::int64_t>& gid) {
  const cuda::on_device on(sorted.device());
  const std::int64_t n = sorted.size();
  cuda::group_starts<<<cuda::grid_for(on.dev, n), cuda::block_threads, 0, on.stream>>>(
      sorted.data(), n, equal_nan, gid.data());
  CUNP_CUDA_CHECK_LAUNCH("group_starts");
  cuda::cub_call(on.dev, "cub::DeviceScan::InclusiveSum", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, gid.data(), gid.data(), n, on.stream);
  });
  return ndarray<std::int64_t>(gid.storage(), gid.offset() + n - 1, {}, {}).item();
}

template <class T>
void unique_fill(cuda_backend, const ndarray<T>& sorted, const ndarray<std::int64_t>& gid,
                 const ndarray<std::int64_t>* perm, const ndarray<T>& values,
                 const ndarray<std::int64_t>* counts, const ndarray<std::int64_t>* indices,
                 const ndarray<std::int64_t>* inverse) {
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
  const cuda::on_device on(a.device());
  const ndarray<T> c = a.is_contiguous() ? a : a.copy();
  const auto in = thrust::make_transform_iterator(c.data(), cuda::pair_of<T>{});
  const cuda::workspace result(on.dev, sizeof(cuda::value_pair<T>));
  auto* out = static_cast<cuda::value_pair<T>*>(result.data());
  const cuda::value_pair<T> none{cuda::widest<T>(true), cuda::widest<T>(false)};
  cuda::cub_call(on.dev, "cub::DeviceReduce::Reduce", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceReduce::Reduce(temp, bytes, in, out, c.size(), cuda::widen_pair<T>{}, none,
                                     on.stream);
  });
  cuda::value_pair<T> r{};
  cuda::read_back(on, &r, out, sizeof(r), "bincount/histogram (their sizes depend on the values)");
  return {r.lo, r.hi};
}

template <class T, class W, class R>
void bincount_count(cuda_backend, const ndarray<T>& x, const ndarray<W>* weights,
                    const ndarray<R>& out) {
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
