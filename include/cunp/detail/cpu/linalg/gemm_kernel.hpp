// cunp/detail/cpu/linalg/gemm_kernel.hpp: the inner kernel of the cpu backend's matrix product
// (gemm.hpp packs and tiles around it). A block of C, cut into MR x NR tiles, gains the product of
// a packed panel of A (micro-panels of MR rows, k-major) and one of B (micro-panels of NR columns,
// k-major). For float and double (float16 and bfloat16 accumulate in float) a tile stays in
// registers through the whole panel of k, one rank-1 update per k, so that the loop is bound by
// multiply-adds rather than by loads and stores of C: GCC/Clang vector extensions, compiled for
// the baseline ISA (the library is built without -march) and, on x86-64, for AVX2 + FMA and for
// AVX-512, picked at run time. The other accumulator types (integers, bool, complex parts), and
// compilers without vector extensions, stream rows of C's tile through L1 instead, a loop along
// contiguous rows that the compiler vectorises.
#pragma once
#include <cstring>
#include <type_traits>

#include "cunp/shape.hpp"

// The micro-kernel's loops must be unrolled for its tile to live in registers. nvcc's front end
// passes `#pragma GCC unroll` on to the host compiler but warns that it does not know it.
#if defined(__NVCC__)
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1675
#endif
#if defined(__GNUC__)
#define CUNP_GEMM_VECTORS 1
#define CUNP_GEMM_INLINE __attribute__((always_inline)) inline
#else
#define CUNP_GEMM_VECTORS 0
#define CUNP_GEMM_INLINE inline
#endif
#if CUNP_GEMM_VECTORS && defined(__x86_64__)
#define CUNP_GEMM_X86 1
#else
#define CUNP_GEMM_X86 0
#endif

namespace cunp::detail::cpu_linalg {

/// A complex accumulator as two reals: the multiply-add written out, which vectorises (BLAS's
/// arithmetic; std::complex's operator* also handles inf and NaN specially, and slowly).
template <class R> struct parts {
  R re, im;
};

template <class A> inline void multiply_add(A& c, A a, A b) { c = static_cast<A>(c + a * b); }
inline void multiply_add(bool& c, bool a, bool b) { c = c || (a && b); }
template <class R> inline void multiply_add(parts<R>& c, parts<R> a, parts<R> b) {
  c.re += a.re * b.re - a.im * b.im;
  c.im += a.re * b.im + a.im * b.re;
}

/// The vector of `Bytes` bytes of A's the kernel runs on (void: scalars).
template <class A, int Bytes> struct simd_of { using type = void; };
#if CUNP_GEMM_VECTORS
typedef float gemm_f32x4 __attribute__((vector_size(16)));
typedef float gemm_f32x8 __attribute__((vector_size(32)));
typedef float gemm_f32x16 __attribute__((vector_size(64)));
typedef double gemm_f64x2 __attribute__((vector_size(16)));
typedef double gemm_f64x4 __attribute__((vector_size(32)));
typedef double gemm_f64x8 __attribute__((vector_size(64)));
template <> struct simd_of<float, 16> { using type = gemm_f32x4; };
template <> struct simd_of<float, 32> { using type = gemm_f32x8; };
template <> struct simd_of<float, 64> { using type = gemm_f32x16; };
template <> struct simd_of<double, 16> { using type = gemm_f64x2; };
template <> struct simd_of<double, 32> { using type = gemm_f64x4; };
template <> struct simd_of<double, 64> { using type = gemm_f64x8; };
#endif
template <class A, int Bytes> using simd_t = typename simd_of<A, Bytes>::type;

/// c (MR x NR, row stride ldc) += a (kr x MR) b (kr x NR), a and b k-major micro-panels; V the
/// vector type (NR a multiple of its lanes), or void for the row-streaming loop.
template <class A, class V, index_t MR, index_t NR>
CUNP_GEMM_INLINE void micro_kernel(const A* a, const A* b, A* c, index_t ldc, index_t kr) {
  if constexpr (std::is_void_v<V>) {
    for (index_t i = 0; i < MR; ++i) {
      A* ci = c + i * ldc;
      for (index_t l = 0; l < kr; ++l) {
        const A ail = a[l * MR + i];
        const A* bl = b + l * NR;
#pragma omp simd
        for (index_t j = 0; j < NR; ++j) multiply_add(ci[j], ail, bl[j]);
      }
    }
  } else {
    constexpr index_t L = sizeof(V) / sizeof(A), NV = NR / L;
    // memcpy: the packed buffers and C's tile need not be aligned to the vector.
    V t[MR][NV];
#pragma GCC unroll 16
    for (index_t i = 0; i < MR; ++i)
#pragma GCC unroll 16
      for (index_t v = 0; v < NV; ++v) std::memcpy(&t[i][v], c + i * ldc + v * L, sizeof(V));
    for (index_t l = 0; l < kr; ++l, a += MR, b += NR) {
      V bv[NV];
#pragma GCC unroll 16
      for (index_t v = 0; v < NV; ++v) std::memcpy(&bv[v], b + v * L, sizeof(V));
#pragma GCC unroll 16
      for (index_t i = 0; i < MR; ++i)
#pragma GCC unroll 16
        for (index_t v = 0; v < NV; ++v) t[i][v] += a[i] * bv[v];
    }
#pragma GCC unroll 16
    for (index_t i = 0; i < MR; ++i)
#pragma GCC unroll 16
      for (index_t v = 0; v < NV; ++v) std::memcpy(c + i * ldc + v * L, &t[i][v], sizeof(V));
  }
}

/// c (mr x nr, row stride ldc) += a (mr x kr) b (kr x nr) from packed panels, mr and nr
/// multiples of the micro-tile. A micro-panel of B (NR x kr) stays in L1 while all of a's pass.
template <class A, class V, index_t MR, index_t NR>
CUNP_GEMM_INLINE void block_product(const A* a, const A* b, A* c, index_t ldc, index_t mr,
                                    index_t nr, index_t kr) {
  for (index_t j = 0; j < nr; j += NR)
    for (index_t i = 0; i < mr; i += MR)
      micro_kernel<A, V, MR, NR>(a + i * kr, b + j * kr, c + i * ldc + j, ldc, kr);
}

#define CUNP_GEMM_BLOCK_ARGS \
  const A *a, const A *b, A *c, index_t ldc, index_t mr, index_t nr, index_t kr
template <class A, class V, index_t MR, index_t NR> void block_baseline(CUNP_GEMM_BLOCK_ARGS) {
  block_product<A, V, MR, NR>(a, b, c, ldc, mr, nr, kr);
}
#if CUNP_GEMM_X86
// The same loop compiled for wider registers and fused multiply-adds (contracted from
// c += a * b), for processors that have them.
template <class A, class V, index_t MR, index_t NR>
__attribute__((target("avx2,fma"))) void block_avx2(CUNP_GEMM_BLOCK_ARGS) {
  block_product<A, V, MR, NR>(a, b, c, ldc, mr, nr, kr);
}
template <class A, class V, index_t MR, index_t NR>
__attribute__((target("avx512f,avx2,fma"))) void block_avx512(CUNP_GEMM_BLOCK_ARGS) {
  block_product<A, V, MR, NR>(a, b, c, ldc, mr, nr, kr);
}
#endif

/// A block kernel (block_product for one instruction set) and its register tile, mr x nr, which
/// the packed panels are laid out for.
template <class A> struct gemm_kernel {
  index_t mr, nr;
  void (*run)(CUNP_GEMM_BLOCK_ARGS);
};
#undef CUNP_GEMM_BLOCK_ARGS

/// The kernel for this processor, chosen once. Vector kernels keep a tile of MR rows of two
/// vectors, which with B's two vectors and a broadcast element of A fill most of the registers:
/// 15 of SSE2's or AVX2's 16, 27 of AVX-512's 32. The row-streaming loop's rows are long enough to
/// vectorise.
template <class A> const gemm_kernel<A>& best_kernel() {
  static const gemm_kernel<A> kernel = [] {
    using V16 = simd_t<A, 16>;
    if constexpr (std::is_void_v<V16>) {
      return gemm_kernel<A>{4, 128, block_baseline<A, void, 4, 128>};
    } else {
      constexpr index_t w = 16 / sizeof(A);  // A's per 16 bytes
#if CUNP_GEMM_X86
      __builtin_cpu_init();
      if (__builtin_cpu_supports("avx512f"))
        return gemm_kernel<A>{12, 8 * w, block_avx512<A, simd_t<A, 64>, 12, 8 * w>};
      if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return gemm_kernel<A>{6, 4 * w, block_avx2<A, simd_t<A, 32>, 6, 4 * w>};
#endif
      return gemm_kernel<A>{6, 2 * w, block_baseline<A, V16, 6, 2 * w>};
    }
  }();
  return kernel;
}

}  // namespace cunp::detail::cpu_linalg

#undef CUNP_GEMM_VECTORS
#undef CUNP_GEMM_INLINE
#undef CUNP_GEMM_X86
#if defined(__NVCC__)
#pragma nv_diagnostic pop
#endif
