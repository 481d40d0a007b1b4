// Session 34 probe (issue 22): where sqrt_exact (branch normal-tables' fast sqrt.rn steps without
// the slow path) differs from __fsqrt_rn. Session 33's probe counted 1,831,424 differences over
// all normal floats; the normal rule takes sqrt(-2 log u) <= 33.3. Prints the count below 64 and
// below 2^126, and the smallest and largest differing input.
// Build: nvcc -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -O3 -I<tree>/include sqrt_domain.cu
#include <cunp/cunp.hpp>
#include <cstdio>

__global__ void check(unsigned long long* out) {
  // out: [0] all, [1] below 64, [2] below 2^126, [3] smallest bits, [4] largest bits
  for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < 0x7f800000ull; i += gridDim.x * 256ull) {
    const unsigned b = unsigned(i);
    if (b != 0 && b < 0x00800000u) continue;
    const float x = __uint_as_float(b);
    if (__float_as_uint(cunp::detail::sqrt_exact(x)) == __float_as_uint(__fsqrt_rn(x))) continue;
    atomicAdd(&out[0], 1ull);
    if (x < 64.0f) atomicAdd(&out[1], 1ull);
    if (x < 0x1p126f) atomicAdd(&out[2], 1ull);
    atomicMin(&out[3], (unsigned long long)b);
    atomicMax(&out[4], (unsigned long long)b);
  }
}

int main() {
  unsigned long long* o;
  cudaMallocManaged(&o, 5 * 8);
  o[0] = o[1] = o[2] = o[4] = 0;
  o[3] = ~0ull;
  check<<<132 * 8, 256>>>(o);
  cudaDeviceSynchronize();
  unsigned lo = unsigned(o[3]), hi = unsigned(o[4]);
  float flo, fhi;
  memcpy(&flo, &lo, 4);
  memcpy(&fhi, &hi, 4);
  std::printf("sqrt_exact != sqrt.rn: %llu of all normal floats, %llu below 64, %llu below 2^126; "
              "smallest %a (0x%08x), largest %a (0x%08x)\n", o[0], o[1], o[2], flo, lo, fhi, hi);
}
