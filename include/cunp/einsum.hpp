// cunp/einsum.hpp: numpy.einsum. The subscripts are resolved once (detail/linalg/einsum_spec.hpp);
// each operand becomes a view over its labels, a label repeated within it being its diagonal (the
// axes' strides summed: no copy). Two operands of a floating or complex dtype whose contraction
// is a (batched) matrix product go to matmul, so to cuBLAS on a GPU: their batch, free and
// contracted labels grouped by a permuted view and a reshape, labels of one operand alone summed
// first. Everything else (one operand, three or more, integer and bool dtypes) is the general
// path: the product of the views over every label as one lazy expression, reduced over the
// contracted labels in one fused pass.
#pragma once
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "cunp/detail/linalg/einsum_spec.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/products.hpp"
#include "cunp/reduce.hpp"

namespace cunp::detail {

template <class V, class... Vs> struct promoted_all { using type = V; };
template <class V, class W, class... Vs> struct promoted_all<V, W, Vs...> {
  using type = typename promoted_all<result_type_t<V, W>, Vs...>::type;
};

/// x as a view over the labels `order`: each label's axis the diagonal of x's axes that carry
/// it (their strides summed), extent 1 and stride 0 where x has none.
template <class T>
ndarray<T> einsum_view(const ndarray<T>& x, const std::vector<einsum_label>& labels,
                       const std::vector<einsum_label>& order) {
  shape_t shape;
  strides_t strides;
  for (const einsum_label l : order) {
    index_t e = 1, s = 0;
    for (std::size_t d = 0; d < labels.size(); ++d)
      if (labels[d] == l) {
        e = x.shape()[d];
        s += x.strides()[d];
      }
    shape.push_back(e);
    strides.push_back(s);
  }
  return ndarray<T>(x.storage(), x.offset(), shape, strides);
}

inline bool has_label(const std::vector<einsum_label>& v, einsum_label l) {
  return std::find(v.begin(), v.end(), l) != v.end();
}
/// The distinct labels of v in order of first appearance.
inline std::vector<einsum_label> distinct(const std::vector<einsum_label>& v) {
  std::vector<einsum_label> out;
  for (const einsum_label l : v)
    if (!has_label(out, l)) out.push_back(l);
  return out;
}

/// The extents of `labels` in the spec (broadcast), and their product.
inline shape_t extents_of(const einsum_spec& sp, const std::vector<einsum_label>& labels) {
  shape_t s;
  for (const einsum_label l : labels) s.push_back(sp.extent.at(l));
  return s;
}
inline index_t product_of(const shape_t& s) {
  index_t p = 1;
  for (const index_t e : s) p *= e;
  return p;
}

/// One operand of the matrix-product path: its view over its distinct labels with those that
/// neither the other operand nor the output has summed away.
template <class Backend, class R>
std::pair<ndarray<R>, std::vector<einsum_label>> contracted_alone(
    const ndarray<R>& x, const std::vector<einsum_label>& labels,
    const std::vector<einsum_label>& other, const std::vector<einsum_label>& output) {
  std::vector<einsum_label> kept, alone;
  std::vector<index_t> axes;
  const auto mine = distinct(labels);
  for (std::size_t d = 0; d < mine.size(); ++d) {
    if (has_label(other, mine[d]) || has_label(output, mine[d])) {
      kept.push_back(mine[d]);
    } else {
      axes.push_back(static_cast<index_t>(d));
    }
  }
  const ndarray<R> v = einsum_view(x, labels, mine);
  if (axes.empty()) return {v, kept};
  return {sum<R, Backend>(v, axis_arg(axes)), kept};
}

/// a and b contracted as batched matmul: (batch, free a, contracted) @ (batch, contracted, free
/// b), the result permuted to the output's labels.
template <class Backend, class R>
ndarray<R> einsum_matmul(const einsum_spec& sp, const ndarray<R>& a, const ndarray<R>& b) {
  const auto& out = sp.output;
  const auto [av, la] = contracted_alone<Backend>(a, sp.inputs[0], sp.inputs[1], out);
  const auto [bv, lb] = contracted_alone<Backend>(b, sp.inputs[1], sp.inputs[0], out);
  std::vector<einsum_label> batch, free_a, free_b, summed;
  for (const einsum_label l : out) {
    if (has_label(la, l) && has_label(lb, l)) batch.push_back(l);
    else if (has_label(la, l)) free_a.push_back(l);
    else free_b.push_back(l);
  }
  for (const einsum_label l : la)
    if (has_label(lb, l) && !has_label(out, l)) summed.push_back(l);
  const auto cat = [](std::vector<einsum_label> x, const std::vector<einsum_label>& y) {
    x.insert(x.end(), y.begin(), y.end());
    return x;
  };
  const auto oa = cat(cat(batch, free_a), summed), ob = cat(cat(batch, summed), free_b);
  const shape_t be = extents_of(sp, batch);
  const index_t m = product_of(extents_of(sp, free_a)), n = product_of(extents_of(sp, free_b)),
                k = product_of(extents_of(sp, summed));
  const auto matrices = [&](const ndarray<R>& v, const std::vector<einsum_label>& lv,
                            const std::vector<einsum_label>& order, index_t rows, index_t cols) {
    shape_t s = be;
    s.insert(s.end(), {rows, cols});
    return broadcast_to(einsum_view(v, lv, order), extents_of(sp, order)).reshape(s);
  };
  const ndarray<R> r = matmul_arrays<Backend, R>(matrices(av, la, oa, m, k),
                                                 matrices(bv, lb, ob, k, n), std::nullopt);
  const auto order = cat(cat(batch, free_a), free_b);
  return einsum_view(r.reshape(extents_of(sp, order)), order, out).copy();
}

/// The general path: the product of every view over the output's labels then the contracted
/// ones, summed over the latter.
template <class Backend, class R, std::size_t N>
ndarray<R> einsum_product(const einsum_spec& sp, const std::array<ndarray<R>, N>& x) {
  std::vector<einsum_label> full = sp.output;
  for (const auto& in : sp.inputs)
    for (const einsum_label l : in)
      if (!has_label(full, l)) full.push_back(l);
  std::array<ndarray<R>, N> v;
  for (std::size_t i = 0; i < N; ++i) v[i] = einsum_view(x[i], sp.inputs[i], full);
  std::vector<index_t> axes;
  for (std::size_t d = sp.output.size(); d < full.size(); ++d) axes.push_back(static_cast<index_t>(d));
  return [&]<std::size_t... I>(std::index_sequence<I...>) -> ndarray<R> {
    if constexpr (N == 1) {
      if (axes.empty()) return v[0].copy();  // a permutation or a diagonal: a new array
      return sum<R, Backend>(v[0], axis_arg(axes));
    } else {
      if (axes.empty()) return eval<Backend>((v[I] * ...));
      return sum<R, Backend>((v[I] * ...), axis_arg(axes));
    }
  }(std::make_index_sequence<N>{});
}

}  // namespace cunp::detail

namespace cunp {

/// numpy.einsum(subscripts, *operands): NumPy's subscripts (letters, "..." for broadcast axes, a
/// label repeated within an operand for its diagonal; implicit output, the letters seen once in
/// alphabetical order, or explicit after "->"); the result's dtype is the operands' promotion.
/// A new array always (NumPy returns a view for a pure transposition). Expression operands are
/// evaluated once.
template <class Backend = detail::compiled_backend, array_like... A,
          class R = typename detail::promoted_all<detail::input_t<A>...>::type>
  requires(sizeof...(A) > 0)
[[nodiscard]] ndarray<R> einsum(const std::string& subscripts, const A&... operands) {
  const std::array<ndarray<R>, sizeof...(A)> x{detail::array_of<R, Backend>(operands)...};
  for (const auto& xi : x) detail::check_same_device(xi.device(), x[0].device(), "einsum");
  std::vector<shape_t> shapes;
  for (const auto& xi : x) shapes.push_back(xi.shape());
  const detail::einsum_spec sp = detail::make_einsum_spec(subscripts, shapes);
  if constexpr (sizeof...(A) == 2 && (is_floating_v<R> || is_complex_v<R>)) {
    // A contraction over nothing is an outer product: the general path's one element-wise pass.
    bool contracts = false;
    for (const auto l : detail::distinct(sp.inputs[0]))
      contracts = contracts || (detail::has_label(sp.inputs[1], l) && !detail::has_label(sp.output, l));
    if (contracts) return detail::einsum_matmul<Backend, R>(sp, x[0], x[1]);
  }
  return detail::einsum_product<Backend, R>(sp, x);
}

}  // namespace cunp
