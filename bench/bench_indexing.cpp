// bench/bench_indexing.cpp: copies of any layout (transposes, permutations, flips), joining,
// rolling and padding, boolean selection, gathers and scatters: issue 19's rows, each against
// the copy ceiling measured in the same run (fewest bytes the operation must move: every input
// byte read once, every output byte written once) and, where one exists, the raw CUDA or cuBLAS
// call that does the same.
//
// Names are <op>/<impl>/<dtype>/<arg>, the keys bench/merge_results.py joins with
// bench/cupy/cupy_indexing.py's output; impl: cunp (the public API) or raw. GPU times come from
// CUDA events on the current stream behind a hold kernel (host_us says what the call costs the
// host); operations whose size depends on the data wait for the device once inside the timing.
#include <cublas_v2.h>

#include <cub/device/device_select.cuh>

#include <map>
#include <memory>
#include <string>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;

const cunp::device gpu0 = cunp::cuda(0);
cudaStream_t stream() { return cunp::detail::cuda::current_stream(0); }

/// Random arrays kept for the run (Google Benchmark calls each function several times).
template <class T> const ndarray<T>& kept(const std::string& what, const shape_t& shape) {
  static auto* cache = new std::map<std::pair<std::string, shape_t>, ndarray<T>>();
  auto it = cache->find({what, shape});
  if (it == cache->end())
    it = cache->emplace(std::make_pair(what, shape), random_array<T>(shape, gpu0)).first;
  return it->second;
}

template <class T> double bytes_of(const ndarray<T>& a) { return double(a.nbytes()); }

/// n int64 indices drawn uniformly from [0, range) (splitmix64, as cupy_indexing.py makes them),
/// kept for the run.
const ndarray<std::int64_t>& kept_indices(index_t n, index_t range) {
  static auto* cache = new std::map<std::pair<index_t, index_t>, ndarray<std::int64_t>>();
  auto it = cache->find({n, range});
  if (it == cache->end()) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(n));
    splitmix64 g{7};
    for (auto& x : v) x = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(range));
    it = cache->emplace(std::make_pair(n, range), cunp::asarray(v, {n}, cunp::cpu).to(gpu0)).first;
  }
  return it->second;
}

/// The mask a > 0 of the kept random array: 50% of the elements, at random places.
const ndarray<bool>& kept_mask(index_t n) {
  static const ndarray<bool> m = cunp::eval(kept<float>("flat", {n}) > 0.0f);
  return m;
}

// ---- copies of any layout ------------------------------------------------------------------

template <class T> void transpose_cunp(State& s) {  // ascontiguousarray(a.T), n x n
  const index_t n = s.range(0);
  const auto& a = kept<T>("square", {n, n});
  gpu_loop(s, {2 * bytes_of(a), against::copy_ceiling, true},
           [&] { consume(cunp::ascontiguousarray(a.T())); });
}

/// cuBLAS's out-of-place transpose (geam with beta = 0): the vendor's own transposed copy.
template <class T> void transpose_raw(State& s) {
  const index_t n = s.range(0);
  const auto& a = kept<T>("square", {n, n});
  auto out = cunp::empty<T>({n, n}, gpu0);
  static cublasHandle_t h = [] {
    cublasHandle_t x;
    cublasCreate(&x);
    return x;
  }();
  cublasSetStream(h, stream());
  const T one = 1, zero = 0;
  const int ni = static_cast<int>(n);
  gpu_loop(s, {2 * bytes_of(a), against::copy_ceiling, true}, [&] {
    if constexpr (std::is_same_v<T, float>)
      cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, ni, ni, &one, a.data(), ni, &zero, out.data(), ni,
                  out.data(), ni);
    else
      cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, ni, ni, &one, a.data(), ni, &zero, out.data(), ni,
                  out.data(), ni);
  });
}

void permute_cunp(State& s) {  // (256, 256, 4096) float32 -> axes (2, 0, 1), C-ordered
  const auto& a = kept<float>("cube", {256, 256, 4096});
  s.SetLabel("(256,256,4096).transpose(2,0,1)");
  gpu_loop(s, {2 * bytes_of(a), against::copy_ceiling, true},
           [&] { consume(cunp::ascontiguousarray(cunp::transpose(a, {2, 0, 1}))); });
}

void flip_cunp(State& s) {  // a[:, ::-1] copied, n x n float32
  const index_t n = s.range(0);
  const auto& a = kept<float>("square", {n, n});
  const auto r = cunp::view(a, cunp::all, cunp::slice(cunp::none, cunp::none, -1));
  gpu_loop(s, {2 * bytes_of(a), against::copy_ceiling, true},
           [&] { consume(cunp::ascontiguousarray(r)); });
}

// ---- joining and rolling ------------------------------------------------------------------

/// concatenate((a, b), axis) of two 1 GiB float32 arrays of shape (n, n).
void concatenate_cunp(State& s) {
  const index_t n = 16384;
  const auto& a = kept<float>("square", {n, n});
  const auto& b = kept<float>("square2", {n, n});
  const auto axis = s.range(0);
  gpu_loop(s, {4 * bytes_of(a), against::copy_ceiling, true},
           [&] { consume(cunp::concatenate({a, b}, axis)); });
}

/// The same with the CUDA runtime's copies: one cudaMemcpyAsync per input along axis 0, one
/// cudaMemcpy2DAsync per input along axis 1.
void concatenate_raw(State& s) {
  const index_t n = 16384;
  const auto& a = kept<float>("square", {n, n});
  const auto& b = kept<float>("square2", {n, n});
  auto out = cunp::empty<float>({2 * n, n}, gpu0);
  const std::size_t row = n * sizeof(float);
  gpu_loop(s, {4 * bytes_of(a), against::copy_ceiling, true}, [&] {
    if (s.range(0) == 0) {
      cudaMemcpyAsync(out.data(), a.data(), a.nbytes(), cudaMemcpyDeviceToDevice, stream());
      cudaMemcpyAsync(out.data() + a.size(), b.data(), b.nbytes(), cudaMemcpyDeviceToDevice,
                      stream());
    } else {
      cudaMemcpy2DAsync(out.data(), 2 * row, a.data(), row, row, n, cudaMemcpyDeviceToDevice,
                        stream());
      cudaMemcpy2DAsync(out.data() + n, 2 * row, b.data(), row, row, n, cudaMemcpyDeviceToDevice,
                        stream());
    }
  });
}

void roll_cunp(State& s) {  // np.roll(a, 12345) of 2^28 float32
  const auto& a = kept<float>("flat", {index_t(1) << 28});
  gpu_loop(s, {2 * bytes_of(a), against::copy_ceiling, true},
           [&] { consume(cunp::roll(a, 12345)); });
}

// ---- selection and integer indexing ---------------------------------------------------------

/// a[a > 0] of 2^28 float32 (the mask made beforehand): reads a and m, writes the half selected.
/// Waits for the device once (the result's size), inside the timing.
void mask_cunp(State& s) {
  const index_t n = index_t(1) << 28;
  const auto& a = kept<float>("flat", {n});
  const auto& m = kept_mask(n);
  const double bytes = bytes_of(a) + bytes_of(m) + 4.0 * double(cunp::count_nonzero(m).item());
  gpu_loop(s, {bytes, against::copy_ceiling, false}, [&] { consume(cunp::mask(a, m)); });
}

/// CUB's DeviceSelect::Flagged on the same a and m, its count read back as mask's is.
void mask_raw(State& s) {
  const index_t n = index_t(1) << 28;
  const auto& a = kept<float>("flat", {n});
  const auto& m = kept_mask(n);
  const double bytes = bytes_of(a) + bytes_of(m) + 4.0 * double(cunp::count_nonzero(m).item());
  auto out = cunp::empty<float>({n}, gpu0);
  auto count = cunp::empty<std::int64_t>({1}, gpu0);
  std::size_t temp_bytes = 0;
  cub::DeviceSelect::Flagged(nullptr, temp_bytes, a.data(), m.data(), out.data(), count.data(),
                             n, stream());
  auto temp = cunp::empty<std::uint8_t>({index_t(temp_bytes)}, gpu0);
  std::int64_t host = 0;
  gpu_loop(s, {bytes, against::copy_ceiling, false}, [&] {
    cub::DeviceSelect::Flagged(temp.data(), temp_bytes, a.data(), m.data(), out.data(),
                               count.data(), n, stream());
    cudaMemcpyAsync(&host, count.data(), sizeof host, cudaMemcpyDeviceToHost, stream());
    cudaStreamSynchronize(stream());
  });
}

/// nonzero of 2^28 bool at 50%: reads m, writes the int64 positions. Waits once.
void nonzero_cunp(State& s) {
  const index_t n = index_t(1) << 28;
  const auto& m = kept_mask(n);
  const double bytes = bytes_of(m) + 8.0 * double(cunp::count_nonzero(m).item());
  gpu_loop(s, {bytes, against::copy_ceiling, false}, [&] { consume(cunp::nonzero(m)[0]); });
}

/// take(a, idx) of 2^26 random int64 indices from 2^28 float32: reads idx, writes the result
/// (the gathered elements are counted once each; random reads move more than that).
void take_cunp(State& s) {
  const index_t n = index_t(1) << 28, k = index_t(1) << 26;
  const auto& a = kept<float>("flat", {n});
  const auto& idx = kept_indices(k, n);
  gpu_loop(s, {bytes_of(idx) + 2.0 * 4 * double(k), against::copy_ceiling, true},
           [&] { consume(cunp::take(a, idx)); });
}

/// The plain gather CuPy's take runs (one position a thread, k threads, no bounds check, no
/// negative indices): what take's checks and index normalisation cost, on the same data.
__global__ void take_raw_kernel(const float* a, const std::int64_t* idx, float* out,
                                std::int64_t k) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < k;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = a[idx[i]];
}

void take_raw(State& s) {
  const index_t n = index_t(1) << 28, k = index_t(1) << 26;
  const auto& a = kept<float>("flat", {n});
  const auto& idx = kept_indices(k, n);
  auto out = cunp::empty<float>({k}, gpu0);
  gpu_loop(s, {bytes_of(idx) + 2.0 * 4 * double(k), against::copy_ceiling, true}, [&] {
    take_raw_kernel<<<unsigned(k / 256), 256, 0, stream()>>>(a.data(), idx.data(), out.data(),
                                                             k);
  });
}

/// take's floor: its k random 4-byte reads from 1 GiB alone (places drawn inside the kernel by
/// a 64-bit mix, nothing read but a, one word written a thread only if its sum is -1), four
/// independent loads a thread in flight. Bytes are counted as 32 a read, the sector DRAM sends:
/// frac_copy compares the random-sector rate with the sequential copy's.
__global__ void random_reads_kernel(const float* a, std::uint64_t mask, std::int64_t k,
                                    float* sink) {
  const std::int64_t threads = std::int64_t(gridDim.x) * blockDim.x;
  float sum = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < k;
       i += 4 * threads) {
    float v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      std::uint64_t z = std::uint64_t(i + u * threads) * 0x9e3779b97f4a7c15ull;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z ^= z >> 31;
      v[u] = i + u * threads < k ? a[z & mask] : 0.0f;
    }
    sum += (v[0] + v[1]) + (v[2] + v[3]);
  }
  if (sum == -1.0f) *sink = sum;
}

void random_reads_raw(State& s) {
  const index_t n = index_t(1) << 28, k = index_t(1) << 26;
  const auto& a = kept<float>("flat", {n});
  auto sink = cunp::empty<float>({1}, gpu0);
  s.SetLabel("2^26 random 4-byte reads of 1 GiB, 32 bytes counted a read");
  gpu_loop(s, {32.0 * double(k), against::copy_ceiling, true}, [&] {
    random_reads_kernel<<<unsigned(k / 1024), 256, 0, stream()>>>(a.data(),
                                                                  std::uint64_t(n - 1), k,
                                                                  sink.data());
  });
}

/// add_at(bins, idx, v): 2^26 float32 values into 2^20 bins (repeated indices accumulate).
void add_at_cunp(State& s) {
  const index_t bins = index_t(1) << 20, k = index_t(1) << 26;
  auto out = cunp::zeros<float>({bins}, gpu0);
  const auto& idx = kept_indices(k, bins);
  const auto& v = kept<float>("values", {k});
  gpu_loop(s, {bytes_of(idx) + bytes_of(v) + 2 * bytes_of(out), against::copy_ceiling, true},
           [&] { cunp::add_at(out, idx, v); });
}

/// The plain scatter CuPy's add.at runs: one atomicAdd a value, no bounds check.
__global__ void add_at_raw_kernel(float* bins, const std::int64_t* idx, const float* v,
                                  std::int64_t k) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < k;
       i += std::int64_t(gridDim.x) * blockDim.x)
    atomicAdd(bins + idx[i], v[i]);
}

void add_at_raw(State& s) {
  const index_t bins = index_t(1) << 20, k = index_t(1) << 26;
  auto out = cunp::zeros<float>({bins}, gpu0);
  const auto& idx = kept_indices(k, bins);
  const auto& v = kept<float>("values", {k});
  const double bytes = bytes_of(idx) + bytes_of(v) + 2 * bytes_of(out);
  gpu_loop(s, {bytes, against::copy_ceiling, true}, [&] {
    add_at_raw_kernel<<<unsigned(k / 256), 256, 0, stream()>>>(out.data(), idx.data(), v.data(), k);
  });
}

// ---- padding --------------------------------------------------------------------------------

void pad_reflect_cunp(State& s) {  // np.pad(a, 8, 'reflect'), n x n float32: reads a, writes out
  const index_t n = s.range(0);
  const auto& a = kept<float>("square", {n, n});
  const double bytes = bytes_of(a) + double((n + 16) * (n + 16)) * sizeof(float);
  gpu_loop(s, {bytes, against::copy_ceiling, true},
           [&] { consume(cunp::pad(a, 8, cunp::pad_mode::reflect)); });
}

void register_benchmarks() {
  using benchmark::RegisterBenchmark;
  auto gpu = [](const std::string& name, auto fn, std::vector<std::int64_t> args) {
    auto* b = gpu_timed(RegisterBenchmark(name.c_str(), fn));
    for (auto a : args) b->Arg(a);
  };
  gpu("transpose/cunp/float32", transpose_cunp<float>, {16384});
  gpu("transpose/raw/float32", transpose_raw<float>, {16384});
  gpu("transpose/cunp/float64", transpose_cunp<double>, {16384});
  gpu("transpose/raw/float64", transpose_raw<double>, {16384});
  gpu("transpose/cunp/float16", transpose_cunp<cunp::float16>, {16384});
  gpu("transpose/cunp/int8", transpose_cunp<std::int8_t>, {16384});
  gpu("permute/cunp/float32", permute_cunp, {0});
  gpu("flip_axis1/cunp/float32", flip_cunp, {16384});
  gpu("concatenate/cunp/float32", concatenate_cunp, {0, 1});
  gpu("concatenate/raw/float32", concatenate_raw, {0, 1});
  gpu("roll/cunp/float32", roll_cunp, {1 << 28});
  gpu("pad_reflect/cunp/float32", pad_reflect_cunp, {8192});
  gpu("mask/cunp/float32", mask_cunp, {1 << 28});
  gpu("mask/raw/float32", mask_raw, {1 << 28});
  gpu("nonzero/cunp/bool", nonzero_cunp, {1 << 28});
  gpu("take/cunp/float32", take_cunp, {1 << 26});
  gpu("take/raw/float32", take_raw, {1 << 26});
  gpu("random_reads/raw/float32", random_reads_raw, {1 << 26});
  gpu("add_at/cunp/float32", add_at_cunp, {1 << 26});
  gpu("add_at/raw/float32", add_at_raw, {1 << 26});
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return cunp_bench::run_main(argc, argv);
}
