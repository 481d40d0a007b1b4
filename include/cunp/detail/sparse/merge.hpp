// cunp/detail/sparse/merge.hpp: the row merge behind the element-wise arithmetic of two compressed
// matrices (scipy's csr_binop_csr: A + B, A - B, A.multiply(B)) and behind summing a matrix's
// duplicates (csr_sum_duplicates). One function merges one line; the cpu backend calls it in a
// loop, the CUDA backend in a kernel, twice each: once to count a line's entries, once to write
// them. Both backends therefore compute every entry alike.
#pragma once
#include <cstdint>

#include "cunp/config.hpp"
#include "cunp/detail/core/math.hpp"

namespace cunp::detail {

/// What a merge computes from the two sums at one position (an absent side counts as 0): scipy's
/// _plus_, _minus_, _elmul_, and `first` (a alone: summing duplicates).
enum class merge_op : std::uint8_t { plus, minus, times, first };

template <class M> CUNP_HD M merge_apply(merge_op op, const M& a, const M& b) {
  switch (op) {
    case merge_op::plus:
      return a + b;
    case merge_op::minus:
      return a - b;
    case merge_op::times:
      return a * b;
    default:
      return a;
  }
}

/// The merge of one line: the union of the minor indices of a (aj/ax over [a0, a1)) and b
/// (bj/bx over [b0, b1)), each sorted, duplicates allowed. At each index the run of a's equal
/// indices is summed (from its first value on, as csr_sum_duplicates adds), b's too, and op
/// applied to the two sums; with drop_zeros a result equal to zero is left out (scipy's binop
/// keeps `result != 0` only: NaN is kept). Writes the entries to out_j/out_x in index order
/// when out_j is not null; returns their number. M is the type loops compute in (math_t).
template <class M, class I>
CUNP_HD std::int64_t merge_line(merge_op op, bool drop_zeros, const I* aj, const M* ax,
                                std::int64_t a0, std::int64_t a1, const I* bj, const M* bx,
                                std::int64_t b0, std::int64_t b1, I* out_j, M* out_x) {
  std::int64_t n = 0;
  while (a0 < a1 || b0 < b1) {
    const bool take_a = a0 < a1 && (b0 >= b1 || aj[a0] <= bj[b0]);
    const bool take_b = b0 < b1 && (a0 >= a1 || bj[b0] <= aj[a0]);
    const I j = take_a ? aj[a0] : bj[b0];
    M va(0), vb(0);
    if (take_a) {
      va = ax[a0++];
      while (a0 < a1 && aj[a0] == j) va = va + ax[a0++];
    }
    if (take_b) {
      vb = bx[b0++];
      while (b0 < b1 && bj[b0] == j) vb = vb + bx[b0++];
    }
    const M r = merge_apply(op, va, vb);
    if (drop_zeros && r == M(0)) continue;
    if (out_j) {
      out_j[n] = j;
      out_x[n] = r;
    }
    ++n;
  }
  return n;
}

}  // namespace cunp::detail
