// Session 33 probe (issue 22): standard_normal float32 of 2^28 through cunp's API, built against
// two trees and run in one device call (H200, 2026-12-06 20:2x UTC; call1_probe.txt):
//   sn_old     main at e9e7a17: Box-Muller with a division-based float32 log and Taylor sin/cos
//   sn_b5/6/8  branch normal-tables, first form: log from a 128-entry table (glibc logf's
//              reduction in float32, no division), sin/cos by integer quarter turns and
//              near-minimax cubics, PCG64's rotate by funnel shifts, the loop over whole pairs;
//              -DCUNP_PAIR_MIN_BLOCKS=5/6/8: __launch_bounds__(256, N) and a grid of N blocks an SM
// call2_ncu.txt: ncu on sn_b5's pair_fill_kernel. The branch's later forms (sin/cos from a
// 256-arc table, a counted loop, sqrt.rn's fast path without its branch: sqrt_check below, built
// with -DCUNP_FAST_SQRT) were built but not run: no device machine started again that session.
// Build: nvcc -std=c++20 --expt-relaxed-constexpr --extended-lambda -arch=sm_90 -O3 \
//   -I<tree>/include probe.cu -lcublas -lcusolver -lcufft -lcusparse -lcurand
// Each row: median of 15 timed calls after 3 warm-ups, host wall clock around a synchronised call.
#include <cunp/cunp.hpp>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
template <class F> double med(F f) {
  for (int i = 0; i < 3; ++i) f();
  cudaDeviceSynchronize();
  std::vector<double> t;
  for (int i = 0; i < 15; ++i) {
    auto a = std::chrono::steady_clock::now();
    f();
    cudaDeviceSynchronize();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[7];
}
#ifdef CUNP_FAST_SQRT
__global__ void sqrt_check(unsigned long long* bad) {
  // every normal float (and 0): the fast sqrt against sqrt.rn
  for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < 0x7f800000ull; i += gridDim.x * 256ull) {
    unsigned b = unsigned(i);
    if (b != 0 && b < 0x00800000u) continue;
    float x = __uint_as_float(b);
    if (__float_as_uint(cunp::detail::sqrt_exact(x)) != __float_as_uint(__fsqrt_rn(x))) atomicAdd(bad, 1ull);
  }
}
#endif
int main(int argc, char** argv) {
#ifdef CUNP_FAST_SQRT
  unsigned long long* bad; cudaMallocManaged(&bad, 8); *bad = 0;
  sqrt_check<<<132 * 8, 256>>>(bad); cudaDeviceSynchronize();
  std::printf("%s sqrt_exact mismatches over all normal floats: %llu\n", argv[0], *bad);
#endif
  const cunp::index_t n = cunp::index_t(1) << 28;
  auto g = cunp::random::default_rng(1);
  auto f32 = cunp::empty<float>({n}, cunp::cuda(0));
  auto f64 = cunp::empty<double>({n}, cunp::cuda(0));
  std::printf("%s normal_f32 %.1f us\n", argv[0], med([&] { g.standard_normal(f32); }));
  std::printf("%s normal_f64 %.1f us\n", argv[0], med([&] { g.standard_normal(f64); }));
  std::printf("%s expon_f32 %.1f us\n", argv[0], med([&] { g.standard_exponential(f32); }));
  std::printf("%s random_f32 %.1f us\n", argv[0], med([&] { g.random(f32); }));
  std::printf("%s normal_f32 %.1f us (again)\n", argv[0], med([&] { g.standard_normal(f32); }));
}
