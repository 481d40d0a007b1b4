// cunp/detail/linalg/gemm_problem.hpp: a batch of matrix products C[b] = A[b] @ B[b] as both
// backends receive it: the extents, every operand's element strides (rows, columns and the batch
// axes, 0 where an operand is broadcast), the batch axes merged where all three operands allow,
// and the float32 precision mode of the calling thread.
#pragma once
#include <cstddef>
#include <vector>

#include "cunp/ndarray.hpp"
#include "cunp/shape.hpp"

namespace cunp {

/// How float32 matrix products compute (cunp::set_matmul_precision): `highest`, the default, in
/// float32 arithmetic as NumPy does; `tf32`, on tensor cores with the inputs rounded to TF32 (10
/// explicit mantissa bits); `bf16x3`, each input split into two bfloat16 parts, hi + lo, and
/// the product summed from hi·hi + hi·lo + lo·hi in float32. Other dtypes ignore the mode.
enum class matmul_precision { highest, tf32, bf16x3 };

}  // namespace cunp

namespace cunp::detail {

/// One operand of a batched product: element (b, i, j) is at data[batch offset of b + i * rs +
/// j * cs], the batch offset being the sum over the batch axes of index * batch[d].
template <class T> struct gemm_operand {
  T* data = nullptr;
  index_t rs = 0, cs = 0;
  strides_t batch;
};

/// C[b] (m x n) = A[b] (m x k) @ B[b] (k x n) for every index b of `batch` (C-ordered), C's
/// elements never overlapping A's or B's. m, n, k may be 0 (k == 0: C is zeros). U, C's type, is
/// T but where the GPU splits float32 operands into bfloat16 parts (matmul_precision::bf16x3).
template <class T, class U = T> struct gemm_problem {
  index_t m = 0, n = 0, k = 0;
  shape_t batch;
  gemm_operand<const T> a, b;
  gemm_operand<U> c;
  matmul_precision precision = matmul_precision::highest;

  [[nodiscard]] index_t batch_count() const {
    index_t count = 1;
    for (const index_t e : batch) count *= e;
    return count;
  }
};

/// The element offset of matrix z (C order over `batch`) in an operand with batch strides `st`,
/// for loops that visit a batch one matrix at a time.
inline index_t batch_offset(const shape_t& batch, const strides_t& st, index_t z) {
  index_t off = 0;
  for (std::size_t d = batch.size(); d-- > 0;) {
    off += (z % batch[d]) * st[d];
    z /= batch[d];
  }
  return off;
}

/// The problem of c = a @ b, where a (batch..., m, k), b (batch..., k, n) and c (batch..., m, n)
/// have the same batch extents (a and b broadcast views). Batch axes of extent 1 are dropped and
/// neighbours merged where every operand's strides allow, so that a C-ordered batch is one axis.
template <class T, class U>
gemm_problem<T, U> make_gemm_problem(const ndarray<U>& c, const ndarray<T>& a, const ndarray<T>& b,
                                     matmul_precision precision) {
  gemm_problem<T, U> p;
  const int nb = c.ndim() - 2;
  p.m = c.shape()[nb];
  p.n = c.shape()[nb + 1];
  p.k = a.shape()[nb + 1];
  p.precision = precision;
  p.a = {a.data(), a.strides()[nb], a.strides()[nb + 1], {}};
  p.b = {b.data(), b.strides()[nb], b.strides()[nb + 1], {}};
  p.c = {c.data(), c.strides()[nb], c.strides()[nb + 1], {}};
  for (int d = 0; d < nb; ++d) {
    const index_t e = c.shape()[d];
    if (e == 1) continue;
    const index_t sa = a.strides()[d], sb = b.strides()[d], sc = c.strides()[d];
    // The previous kept axis absorbs this one when each operand steps by e of this axis's
    // strides there (a C-ordered pair of axes, or both broadcast).
    if (!p.batch.empty() && p.a.batch.back() == sa * e && p.b.batch.back() == sb * e &&
        p.c.batch.back() == sc * e) {
      p.batch.back() *= e;
      p.a.batch.back() = sa;
      p.b.batch.back() = sb;
      p.c.batch.back() = sc;
      continue;
    }
    p.batch.push_back(e);
    p.a.batch.push_back(sa);
    p.b.batch.push_back(sb);
    p.c.batch.push_back(sc);
  }
  return p;
}

}  // namespace cunp::detail
