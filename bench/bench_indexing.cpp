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
  gpu("pad_reflect/cunp/float32", pad_reflect_cunp, {8192});
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return cunp_bench::run_main(argc, argv);
}
