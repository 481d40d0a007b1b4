// bench/bench_memory.cpp: transfers, device copies, pool allocation and small-array creation,
// each against the raw CUDA call and the copy ceiling measured in the same run; and the cuBLAS
// gemm rows, the reference for matmul, against the gemm ceiling.
//
// Names are <op>/<impl>/<arg> (arg: bytes, or elements for zeros_small), or
// gemm/<impl>/<dtype>/<n> (n x n matrices), the keys that bench/merge_results.py joins with
// bench/cupy/cupy_memory.py's output. impl: cunp (the public API, or cunp's own transfer path
// where the API has no such call), cunp_cpu (the cpu backend), raw (the CUDA runtime or cuBLAS
// call). GPU times come from CUDA events on the current stream; for the device copies and gemm,
// which only enqueue work, a hold kernel keeps the launch latency out of them (host_us says what
// the call costs the host). Transfers wait for the stream and are timed as is.
#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include "bench_util.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;

constexpr std::int64_t KiB = 1024, MiB = KiB * KiB, GiB = MiB * KiB;
const cunp::device gpu0 = cunp::cuda(0);

std::int64_t elems(std::int64_t bytes) { return bytes / std::int64_t(sizeof(float)); }
cudaStream_t stream() { return cunp::detail::cuda::current_stream(0); }

// Inputs and outputs live for the whole run: Google Benchmark calls each function several times
// per size (to size the loop, then once per repetition), and a 1 GiB pinned allocation or random
// fill is slow. Leaked on purpose: freeing after the CUDA runtime has shut down is pointless.
using fixture_cache = std::map<std::pair<std::string, std::int64_t>, ndarray<float>>;
fixture_cache& fixtures() {
  static auto* cache = new fixture_cache();
  return *cache;
}
template <class Make> const ndarray<float>& kept(const char* what, std::int64_t bytes, Make make) {
  auto& cache = fixtures();
  auto it = cache.find({what, bytes});
  if (it == cache.end()) it = cache.emplace(std::make_pair(std::string(what), bytes), make()).first;
  return it->second;
}
const ndarray<float>& host_random(std::int64_t bytes) {
  return kept("host", bytes, [&] { return random_array<float>({elems(bytes)}, cunp::cpu); });
}
const ndarray<float>& pinned_random(std::int64_t bytes) {
  return kept("pinned", bytes, [&] {
    auto p = pinned_empty<float>({elems(bytes)});
    const auto v = random_values<float>(static_cast<std::size_t>(elems(bytes)));
    std::copy(v.begin(), v.end(), p.data());
    return p;
  });
}
const ndarray<float>& device_random(std::int64_t bytes) {
  return kept("device", bytes, [&] { return host_random(bytes).to(gpu0); });
}
// Pre-touched destinations, so that first-touch page faults are not timed.
const ndarray<float>& host_out(std::int64_t bytes) {
  return kept("host_out", bytes, [&] { return cunp::full<float>({elems(bytes)}, 1.f, cunp::cpu); });
}
const ndarray<float>& pinned_out(std::int64_t bytes) {
  return kept("pinned_out", bytes, [&] {
    auto p = pinned_empty<float>({elems(bytes)});
    std::fill(p.data(), p.data() + p.size(), 1.f);
    return p;
  });
}
const ndarray<float>& device_out(std::int64_t bytes) {
  return kept("device_out", bytes, [&] { return cunp::full<float>({elems(bytes)}, 1.f, gpu0); });
}

// ---- host -> device -----------------------------------------------------------------------

void h2d_pageable_cunp(State& s) {  // ndarray::to: pinned staging above 1 MiB
  const auto& h = host_random(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::h2d_ceiling}, [&] { consume(h.to(gpu0)); });
}
void h2d_pageable_raw(State& s) {  // cudaMemcpy from pageable memory (the driver's staging)
  const auto& h = host_random(s.range(0));
  const auto& d = device_out(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::h2d_ceiling}, [&] {
    check(cudaMemcpyAsync(d.data(), h.data(), s.range(0), cudaMemcpyHostToDevice, stream()), "H2D");
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  });
}
void h2d_pinned_cunp(State& s) {
  const auto& h = pinned_random(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::h2d_ceiling}, [&] { consume(h.to(gpu0)); });
}
void h2d_pinned_raw(State& s) {
  const auto& h = pinned_random(s.range(0));
  const auto& d = device_out(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::h2d_ceiling}, [&] {
    check(cudaMemcpyAsync(d.data(), h.data(), s.range(0), cudaMemcpyHostToDevice, stream()), "H2D");
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  });
}

// ---- device -> host -----------------------------------------------------------------------

// ndarray::to(cpu) returns a fresh host array: its first-touch page faults are part of the cost
// (as for cupy's .get()). The *_into variants copy into memory that was touched before.
void d2h_pageable_cunp(State& s) {
  const auto& d = device_random(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::d2h_ceiling}, [&] { consume(d.to(cunp::cpu)); });
}
void d2h_pageable_into_cunp(State& s) {  // the staging path of ndarray::to, without allocating
  const auto& d = device_random(s.range(0));
  const auto& h = host_out(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::d2h_ceiling}, [&] {
    cunp::detail::gpu()->copy_to_host(0, h.data(), d.data(), s.range(0), false);
  });
}
void d2h_pageable_into_raw(State& s) {
  const auto& d = device_random(s.range(0));
  const auto& h = host_out(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::d2h_ceiling}, [&] {
    check(cudaMemcpyAsync(h.data(), d.data(), s.range(0), cudaMemcpyDeviceToHost, stream()), "D2H");
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  });
}
void d2h_pinned_into_cunp(State& s) {
  const auto& d = device_random(s.range(0));
  const auto& h = pinned_out(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::d2h_ceiling}, [&] {
    cunp::detail::gpu()->copy_to_host(0, h.data(), d.data(), s.range(0), true);
  });
}
void d2h_pinned_into_raw(State& s) {
  const auto& d = device_random(s.range(0));
  const auto& h = pinned_out(s.range(0));
  gpu_loop(s, {double(s.range(0)), against::d2h_ceiling}, [&] {
    check(cudaMemcpyAsync(h.data(), d.data(), s.range(0), cudaMemcpyDeviceToHost, stream()), "D2H");
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  });
}

// ---- device copies (read + write counted) -------------------------------------------------

l2_flush* flush_for(bool cold) {
  static l2_flush* f = nullptr;
  if (cold && !f) f = new l2_flush(0);
  return cold ? f : nullptr;
}

void copy_cunp(State& s, bool cold) {
  const auto& a = device_random(s.range(0));
  gpu_loop(s, {2.0 * s.range(0), against::copy_ceiling, true, flush_for(cold)},
           [&] { consume(a.copy()); });
}
void copy_raw(State& s, bool cold) {
  const auto& a = device_random(s.range(0));
  const auto& d = device_out(s.range(0));
  gpu_loop(s, {2.0 * s.range(0), against::copy_ceiling, true, flush_for(cold)}, [&] {
    check(cudaMemcpyAsync(d.data(), a.data(), s.range(0), cudaMemcpyDeviceToDevice, stream()),
          "D2D");
  });
}
void copy_reversed_cunp(State& s, bool cold) {  // a[::-1].copy()
  const auto& a = device_random(s.range(0));
  const index_t n = a.size();
  const ndarray<float> r(a.storage(), a.offset() + n - 1, {n}, {-1});
  gpu_loop(s, {2.0 * s.range(0), against::copy_ceiling, true, flush_for(cold)},
           [&] { consume(r.copy()); });
}
/// (rows, cols) of a 2-d float32 array of `bytes`: as square as a power of two allows.
std::pair<index_t, index_t> matrix_of(std::int64_t bytes) {
  int k = 0;
  while ((std::int64_t(1) << (k + 1)) <= elems(bytes)) ++k;
  return {index_t(1) << ((k + 1) / 2), index_t(1) << (k / 2)};
}
void transpose_copy_cunp(State& s) {  // a.T.copy() of a C-ordered matrix
  const auto [rows, cols] = matrix_of(s.range(0));
  const ndarray<float> a = device_random(s.range(0)).reshape({rows, cols});
  s.SetLabel(std::to_string(rows) + "x" + std::to_string(cols) + ".T");
  gpu_loop(s, {2.0 * s.range(0), against::copy_ceiling, true}, [&] { consume(a.T().copy()); });
}

// ---- gemm: cuBLAS, the rate a matmul is set beside (2 n^3 flops) ----------------------------

// Kept for the run, as the fixtures above (cuBLAS on random n x n matrices outside cunp's pool).
template <class T> const gemm_operands<T>& gemm_inputs(int n) {
  static auto* cache = new std::map<int, std::unique_ptr<gemm_operands<T>>>();
  auto& g = (*cache)[n];
  if (!g) g = std::make_unique<gemm_operands<T>>(0, n);
  return *g;
}
template <class T> void gemm_raw(State& s) {  // cublasSgemm / cublasDgemm, default math
  const auto& g = gemm_inputs<T>(static_cast<int>(s.range(0)));
  const std::string side = std::to_string(g.n()) + "x" + std::to_string(g.n());
  s.SetLabel(side + " @ " + side);
  const against dtype_ceiling =
      sizeof(T) == 4 ? against::gemm_ceiling_f32 : against::gemm_ceiling_f64;
  gpu_loop(s, {.ceiling = dtype_ceiling, .hide_launch = true, .flops = g.flops()}, [&] { g(); });
}

// ---- allocation and small arrays: host time per call --------------------------------------

void alloc_cunp(State& s) {  // stream-ordered pool: no driver allocation after warm-up
  const index_t n = elems(s.range(0));
  host_per_call(s, gpu0, [&] { consume(cunp::empty<float>({n}, gpu0)); });
}
void alloc_raw(State& s) {  // cudaMalloc + cudaFree (cudaFree waits for the device)
  host_per_call(s, gpu0, [&] {
    void* p = nullptr;
    check(cudaMalloc(&p, s.range(0)), "cudaMalloc");
    benchmark::DoNotOptimize(p);
    check(cudaFree(p), "cudaFree");
  });
}
void zeros_small(State& s, cunp::device dev) {  // zeros<float>({n}): the launch-bound cost
  const index_t n = s.range(0);
  host_per_call(s, dev, [&] { consume(cunp::zeros<float>({n}, dev)); });
}

void register_benchmarks() {
  using benchmark::RegisterBenchmark;
  const auto all = sizes(4 * KiB, GiB, 8);        // 4 KiB, 32 KiB, ..., 1 GiB
  const auto cold = sizes(4 * KiB, 128 * MiB, 8);  // where the 60 MB L2 can hold the data
  auto gpu = [](const char* name, auto fn, const std::vector<std::int64_t>& args) {
    auto* b = gpu_timed(RegisterBenchmark(name, fn));
    for (auto a : args) b->Arg(a);
  };
  auto host = [](const char* name, auto fn, const std::vector<std::int64_t>& args) {
    auto* b = host_timed(RegisterBenchmark(name, fn));
    for (auto a : args) b->Arg(a);
  };
  gpu("h2d_pageable/cunp", h2d_pageable_cunp, all);
  gpu("h2d_pageable/raw", h2d_pageable_raw, all);
  gpu("h2d_pinned/cunp", h2d_pinned_cunp, all);
  gpu("h2d_pinned/raw", h2d_pinned_raw, all);
  gpu("d2h_pageable/cunp", d2h_pageable_cunp, all);
  gpu("d2h_pageable_into/cunp", d2h_pageable_into_cunp, all);
  gpu("d2h_pageable_into/raw", d2h_pageable_into_raw, all);
  gpu("d2h_pinned_into/cunp", d2h_pinned_into_cunp, all);
  gpu("d2h_pinned_into/raw", d2h_pinned_into_raw, all);
  gpu("copy/cunp", [](State& s) { copy_cunp(s, false); }, all);
  gpu("copy/raw", [](State& s) { copy_raw(s, false); }, all);
  gpu("copy_cold/cunp", [](State& s) { copy_cunp(s, true); }, cold);
  gpu("copy_cold/raw", [](State& s) { copy_raw(s, true); }, cold);
  gpu("copy_reversed/cunp", [](State& s) { copy_reversed_cunp(s, false); }, all);
  gpu("copy_reversed_cold/cunp", [](State& s) { copy_reversed_cunp(s, true); }, cold);
  gpu("transpose_copy/cunp", transpose_copy_cunp, all);
  // 8192 is the gemm ceiling's own shape; 4096 shows how the rate depends on the size.
  gpu("gemm/raw/float32", gemm_raw<float>, {4096, 8192});
  gpu("gemm/raw/float64", gemm_raw<double>, {4096, 8192});
  const auto alloc_sizes = sizes(4 * KiB, GiB, 64);  // 4 KiB, 256 KiB, 16 MiB, 1 GiB
  host("alloc/cunp", alloc_cunp, alloc_sizes);
  host("alloc/raw", alloc_raw, alloc_sizes);
  host("zeros_small/cunp", [](State& s) { zeros_small(s, gpu0); }, {1000});
  host("zeros_small/cunp_cpu", [](State& s) { zeros_small(s, cunp::cpu); }, {1000});
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return cunp_bench::run_main(argc, argv);
}
