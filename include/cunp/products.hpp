// cunp/products.hpp: NumPy's matrix and tensor products: matmul (the one batched product every
// other routes to: cuBLAS on a GPU, detail/cpu/linalg/ on the cpu), dot, vdot, inner, outer,
// tensordot, kron, and numpy.linalg's matmul, vecdot, matrix_transpose, outer, tensordot and
// multi_dot; the float32 precision setting (set_matmul_precision). Products whose result is a
// single number per output element in a memory-bound pass (vdot, vecdot, integer inner products
// on a GPU) are fused reductions, not matrix products.
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/detail/cpu/linalg/matmul.hpp"
#include "cunp/detail/linalg/gemm_problem.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/promotion.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "cunp/view.hpp"

namespace cunp {

namespace detail {
/// The calling thread's float32 matmul precision (set_matmul_precision).
inline matmul_precision& thread_matmul_precision() {
  thread_local matmul_precision p = matmul_precision::highest;
  return p;
}
}  // namespace detail

/// How this thread's float32 matrix products compute from now on (matmul_precision's modes;
/// `highest`, float32 arithmetic, is the default). Per thread, as PyTorch's
/// set_float32_matmul_precision is per process: a thread's setting never changes another's.
inline void set_matmul_precision(matmul_precision p) { detail::thread_matmul_precision() = p; }
/// This thread's float32 matmul precision.
[[nodiscard]] inline matmul_precision get_matmul_precision() {
  return detail::thread_matmul_precision();
}

/// Sets this thread's float32 matmul precision for a scope and restores the previous one.
class matmul_precision_guard {
 public:
  explicit matmul_precision_guard(matmul_precision p) : saved_(get_matmul_precision()) {
    set_matmul_precision(p);
  }
  ~matmul_precision_guard() { set_matmul_precision(saved_); }
  matmul_precision_guard(const matmul_precision_guard&) = delete;
  matmul_precision_guard& operator=(const matmul_precision_guard&) = delete;

 private:
  matmul_precision saved_;
};

namespace detail {

/// The dtype NumPy 2 computes a product of A's and B's elements in (their promotion).
template <class A, class B> using product_t = result_type_t<input_t<A>, input_t<B>>;

/// a as an array of R: the same handle when it is one, else one evaluation (a cast fused in).
template <class R, class Backend, class A> ndarray<R> array_of(const A& a) {
  if constexpr (std::is_same_v<input_t<A>, R>) return eval<Backend>(a);
  else return eval<Backend>(astype<R>(a));
}

inline std::string shape_list(const shape_t& s, std::size_t from, std::size_t to) {
  std::string r;
  for (std::size_t d = from; d < to; ++d) r += (r.empty() ? "" : ",") + std::to_string(s[d]);
  return r;
}

/// matmul's gufunc signature, as NumPy's messages quote it.
inline constexpr const char* matmul_signature = "(n?,k),(k,m?)->(n?,m?)";

/// NumPy's text for batch extents that do not broadcast: each input (its shape and how many of
/// its axes are core axes) with its loop axes and, when it has any, a newaxis per core axis of
/// the result (an output as it is), then the result's core shape.
inline std::string remapped_error(const std::vector<std::pair<shape_t, int>>& inputs,
                                  const std::optional<shape_t>& out, const shape_t& core) {
  std::string msg = "operands could not be broadcast together with remapped shapes "
                    "[original->remapped]: ";
  for (const auto& [shape, ncore] : inputs) {
    const std::size_t nb = shape.size() - static_cast<std::size_t>(ncore);
    std::string r = shape_list(shape, 0, nb);
    if (nb > 0)
      for (std::size_t c = 0; c < core.size(); ++c) r += ",newaxis";
    if (nb == 1 && core.empty()) r += ",";  // Python's 1-tuple
    msg += shape_str_compact(shape) + "->(" + r + ") ";
  }
  if (out) msg += shape_str_compact(*out) + "->" + shape_str_compact(*out) + " ";
  return msg + " and requested shape " + shape_str_compact(core);
}

/// The broadcast of the batch extents (leading ndim - 2) of x and y, and of out's where given.
inline shape_t matmul_batch(const shape_t& x, const shape_t& y, const std::optional<shape_t>& out,
                            const shape_t& xs, const shape_t& ys, const shape_t& core) {
  shape_t xb(x.begin(), x.end() - 2), yb(y.begin(), y.end() - 2), batch;
  const auto fail = [&] {
    return shape_error(remapped_error({{xs, xs.size() == 1 ? 1 : 2}, {ys, ys.size() == 1 ? 1 : 2}},
                                      out, core));
  };
  try {
    batch = broadcast_shapes(xb, yb);
    if (out) batch = broadcast_shapes(batch, shape_t(out->begin(), out->end() - core.size()));
  } catch (const shape_error&) {
    throw fail();
  }
  if (out && shape_t(out->begin(), out->end() - core.size()) != batch)
    throw shape_error("non-broadcastable output operand with shape " + shape_str(*out) +
                      " doesn't match the broadcast shape " + shape_str([&] {
                        shape_t s = batch;
                        s.insert(s.end(), core.begin(), core.end());
                        return s;
                      }()));
  return batch;
}

/// Where an integer product on a GPU is a reduction rather than a matrix kernel (run_matmul).
inline constexpr index_t few_products = 4096, long_sum = 512;

/// c = a @ b for a (batch, m, k), b (batch, k, n) (broadcast views) into c (batch, m, n),
/// C-ordered and apart from a and b: zeros when k is 0, one backend call otherwise.
template <class Backend, class T>
void run_matmul(const ndarray<T>& c, const ndarray<T>& a, const ndarray<T>& b) {
  if (c.size() == 0) return;
  if (a.shape().back() == 0) {
    c.fill(T{});
    return;
  }
  // Integer products on a GPU run on a tiled kernel of cunp's own, which gives each block a
  // tile of the result: a few results over a long k would keep most SMs idle, where the fused
  // reduction of a[..., :, None, :] * b^T[..., None, :, :] over k spreads k over all of them.
  if constexpr (!is_floating_v<T> && !is_complex_v<T>) {
    if (c.device().is_cuda() && c.size() <= few_products && a.shape().back() >= long_sum) {
      const int nd = c.ndim();
      sum<T, Backend>(expand_dims(a, nd - 1) * expand_dims(swapaxes(b, -1, -2), nd - 2), -1, {},
                      c);
      return;
    }
  }
  const matmul_precision p = get_matmul_precision();
  dispatch<Backend>(c.device(), [&](auto be) { matmul_run(be, c, a, b, p); });
}

/// numpy.matmul of arrays of R.
template <class Backend, class R>
ndarray<R> matmul_arrays(const ndarray<R>& x, const ndarray<R>& y,
                         const std::optional<ndarray<R>>& out) {
  detail::check_same_device(x.device(), y.device(), "matmul");
  for (int i = 0; i < 2; ++i)
    if ((i == 0 ? x : y).ndim() == 0)
      throw value_error("matmul: Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature " +
                        matmul_signature + " requires 1)");
  const ndarray<R> xm = x.ndim() == 1 ? x.reshape({1, x.shape()[0]}) : x;
  const ndarray<R> ym = y.ndim() == 1 ? y.reshape({y.shape()[0], 1}) : y;
  const index_t m = xm.shape()[xm.ndim() - 2], k = xm.shape().back();
  const index_t k2 = ym.shape()[ym.ndim() - 2], n = ym.shape().back();
  if (k != k2)
    throw value_error(std::string("matmul: Input operand 1 has a mismatch in its core dimension "
                                  "0, with gufunc signature ") +
                      matmul_signature + " (size " + std::to_string(k2) + " is different from " +
                      std::to_string(k) + ")");
  shape_t core;
  if (x.ndim() > 1) core.push_back(m);
  if (y.ndim() > 1) core.push_back(n);
  std::optional<shape_t> out_shape;
  if (out) {
    check_same_device(out->device(), x.device(), "matmul");
    out_shape = out->shape();
    if (out->ndim() < static_cast<int>(core.size()))
      throw value_error("matmul: Output operand 0 does not have enough dimensions (has " +
                        std::to_string(out->ndim()) + ", gufunc core with signature " +
                        matmul_signature + " requires " + std::to_string(core.size()) + ")");
    for (std::size_t c = 0; c < core.size(); ++c) {
      const index_t got = out->shape()[out->shape().size() - core.size() + c];
      if (got != core[c])
        throw value_error("matmul: Output operand 0 has a mismatch in its core dimension " +
                          std::to_string(c) + ", with gufunc signature " + matmul_signature +
                          " (size " + std::to_string(got) + " is different from " +
                          std::to_string(core[c]) + ")");
    }
    check_writeable(*out);
  }
  const shape_t batch = matmul_batch(xm.shape(), ym.shape(), out_shape, x.shape(), y.shape(), core);
  shape_t full = batch, shape = batch;
  full.insert(full.end(), {m, n});
  shape.insert(shape.end(), core.begin(), core.end());
  auto with = [&](index_t r, index_t c) {
    shape_t s = batch;
    s.insert(s.end(), {r, c});
    return s;
  };
  const ndarray<R> a = broadcast_to(xm, with(m, k)), b = broadcast_to(ym, with(k, n));
  const bool direct = out && out->is_contiguous() && !may_share_memory(*out, x) &&
                      !may_share_memory(*out, y);
  const ndarray<R> result = direct ? *out : ndarray<R>(shape, x.device());
  run_matmul<Backend>(result.reshape(full), a, b);
  if (out && !direct) {
    copyto<Backend>(*out, result);
    return *out;
  }
  return result;
}

/// sum(x * y) over the last axis of equal-shaped x and y, in R (an inner product as one fused
/// reduction).
template <class Backend, class R, class X, class Y> ndarray<R> summed_product(const X& x, const Y& y) {
  return sum<R, Backend>(x * y, -1);
}

/// numpy.tensordot of arrays of R over axes_a of a and axes_b of b.
template <class Backend, class R>
ndarray<R> tensordot_arrays(const ndarray<R>& a, const ndarray<R>& b,
                            const std::vector<index_t>& axes_a, const std::vector<index_t>& axes_b) {
  if (axes_a.size() != axes_b.size()) throw value_error("shape-mismatch for sum");
  std::vector<int> sa, sb;
  // NumPy indexes the shapes with the axes as given: one out of range is IndexError's.
  const auto axis_of = [](index_t ax, int ndim) {
    if (ax < -ndim || ax >= ndim) throw index_error("tuple index out of range");
    return static_cast<int>(ax < 0 ? ax + ndim : ax);
  };
  for (std::size_t i = 0; i < axes_a.size(); ++i) {
    sa.push_back(axis_of(axes_a[i], a.ndim()));
    sb.push_back(axis_of(axes_b[i], b.ndim()));
    if (a.shape()[sa.back()] != b.shape()[sb.back()]) throw value_error("shape-mismatch for sum");
  }
  std::vector<int> order_a, order_b = sb;
  shape_t free_shape;
  index_t free_a = 1, free_b = 1, summed = 1;
  for (int d = 0; d < a.ndim(); ++d)
    if (std::find(sa.begin(), sa.end(), d) == sa.end()) {
      order_a.push_back(d);
      free_shape.push_back(a.shape()[d]);
      free_a *= a.shape()[d];
    }
  for (const int d : sa) summed *= a.shape()[d];
  order_a.insert(order_a.end(), sa.begin(), sa.end());
  for (int d = 0; d < b.ndim(); ++d)
    if (std::find(sb.begin(), sb.end(), d) == sb.end()) {
      order_b.push_back(d);
      free_shape.push_back(b.shape()[d]);
      free_b *= b.shape()[d];
    }
  const ndarray<R> am = permuted(a, order_a).reshape({free_a, summed});
  const ndarray<R> bm = permuted(b, order_b).reshape({summed, free_b});
  ndarray<R> r({free_a, free_b}, a.device());
  run_matmul<Backend>(r, am, bm);
  return r.reshape(free_shape);
}

/// NumPy's "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)".
inline void check_aligned(const shape_t& a, int da, const shape_t& b, int db) {
  if (a[da] != b[db])
    throw value_error("shapes " + shape_str_compact(a) + " and " + shape_str_compact(b) +
                      " not aligned: " + std::to_string(a[da]) + " (dim " + std::to_string(da) +
                      ") != " + std::to_string(b[db]) + " (dim " + std::to_string(db) + ")");
}

/// multi_dot's order: NumPy's _multi_dot_matrix_chain_order (the cheapest parenthesisation by
/// dynamic programming over the chain's extents); split[i][j] is where the product of i..j splits.
inline std::vector<std::vector<std::size_t>> chain_order(const std::vector<index_t>& p) {
  const std::size_t n = p.size() - 1;
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0));
  std::vector<std::vector<std::size_t>> split(n, std::vector<std::size_t>(n, 0));
  for (std::size_t len = 1; len < n; ++len)
    for (std::size_t i = 0; i + len < n; ++i) {
      const std::size_t j = i + len;
      cost[i][j] = -1;
      for (std::size_t s = i; s < j; ++s) {
        const double c = cost[i][s] + cost[s + 1][j] +
                         static_cast<double>(p[i]) * static_cast<double>(p[s + 1]) *
                             static_cast<double>(p[j + 1]);
        if (cost[i][j] < 0 || c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = s;
        }
      }
    }
  return split;
}

template <class Backend, class R>
ndarray<R> chain_product(const std::vector<ndarray<R>>& m,
                         const std::vector<std::vector<std::size_t>>& split, std::size_t i,
                         std::size_t j) {
  if (i == j) return m[i];
  const std::size_t s = split[i][j];
  return matmul_arrays<Backend, R>(chain_product<Backend>(m, split, i, s),
                                   chain_product<Backend>(m, split, s + 1, j), std::nullopt);
}

}  // namespace detail

/// numpy.matmul(a, b, out): the matrix product with NumPy's rules: a 1-d operand is a row (a) or
/// a column (b) whose added axis the result drops; the leading axes broadcast as batch axes
/// (out's too); the dtype is NumPy 2's promotion of the two (bool: OR of ANDs; integers wrap
/// around). float32 computes in float32 unless set_matmul_precision asks otherwise; float16 and
/// bfloat16 accumulate in float32. An expression operand is evaluated once.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
ndarray<R> matmul(const A& a, const B& b, const std::optional<ndarray<std::type_identity_t<R>>>& out =
                                              std::nullopt) {
  return detail::matmul_arrays<Backend>(detail::array_of<R, Backend>(a),
                                        detail::array_of<R, Backend>(b), out);
}

/// numpy.dot(a, b): the product of a 0-d operand is multiply's; of 1-d and 2-d operands matmul's;
/// of an N-d a and an M-d b (M >= 2) the sum over a's last axis and b's second-to-last,
/// dot(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, :, m]) (no broadcasting).
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> dot(const A& a, const B& b) {
  const auto x = detail::array_of<R, Backend>(a);
  const auto y = detail::array_of<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "dot");
  if (x.ndim() == 0 || y.ndim() == 0) return eval<Backend>(x * y);
  const int dy = y.ndim() == 1 ? 0 : y.ndim() - 2;
  detail::check_aligned(x.shape(), x.ndim() - 1, y.shape(), dy);
  if (y.ndim() == 1 || (x.ndim() <= 2 && y.ndim() == 2))
    return detail::matmul_arrays<Backend, R>(x, y, std::nullopt);
  return detail::tensordot_arrays<Backend, R>(x, y, {x.ndim() - 1}, {dy});
}

/// numpy.vdot(a, b): sum(conj(a.ravel()) * b.ravel()), a 0-d array (a and b of equal sizes).
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> vdot(const A& a, const B& b) {
  const auto x = detail::array_of<R, Backend>(a);
  const auto y = detail::array_of<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "vdot");
  if (x.size() != y.size())
    throw value_error("cannot reshape array of size " + std::to_string(y.size()) +
                      " into shape (" + std::to_string(x.size()) + ",)");
  const auto xf = ravel(x), yf = ravel(y);
  if constexpr (is_complex_v<R>) return detail::summed_product<Backend, R>(conjugate(xf), yf);
  else return detail::summed_product<Backend, R>(xf, yf);
}

/// numpy.inner(a, b): the sum over the last axes of a and b (a 0-d operand: multiply's),
/// inner(a, b)[i, j] = sum(a[i, :] * b[j, :]).
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> inner(const A& a, const B& b) {
  const auto x = detail::array_of<R, Backend>(a);
  const auto y = detail::array_of<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "inner");
  if (x.ndim() == 0 || y.ndim() == 0) return eval<Backend>(x * y);
  detail::check_aligned(x.shape(), x.ndim() - 1, y.shape(), y.ndim() - 1);
  if (y.ndim() == 1) return detail::matmul_arrays<Backend, R>(x, y, std::nullopt);
  return detail::tensordot_arrays<Backend, R>(x, y, {-1}, {-1});
}

/// numpy.outer(a, b): out[i, j] = a.ravel()[i] * b.ravel()[j].
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> outer(const A& a, const B& b) {
  const auto x = ravel(detail::array_of<R, Backend>(a));
  const auto y = ravel(detail::array_of<R, Backend>(b));
  detail::check_same_device(x.device(), y.device(), "outer");
  return eval<Backend>(x.reshape({x.size(), 1}) * y.reshape({1, y.size()}));
}

/// numpy.tensordot(a, b, (axes_a, axes_b)): the sum of products over axes_a of a and axes_b of b
/// (pairwise, of equal extents); the result's axes are a's others, then b's.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> tensordot(const A& a, const B& b, const std::vector<index_t>& axes_a,
                                   const std::vector<index_t>& axes_b) {
  const auto x = detail::array_of<R, Backend>(a);
  const auto y = detail::array_of<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "tensordot");
  return detail::tensordot_arrays<Backend, R>(x, y, axes_a, axes_b);
}
/// numpy.tensordot(a, b, n): the sum over the last n axes of a and the first n of b (n = 2 by
/// default; 0: the outer product).
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> tensordot(const A& a, const B& b, index_t n = 2) {
  std::vector<index_t> axes_a, axes_b;
  // NumPy's range(-n, 0) and range(0, n): a negative n sums over nothing.
  for (index_t i = -n; i < 0; ++i) axes_a.push_back(i);
  for (index_t i = 0; i < n; ++i) axes_b.push_back(i);
  return tensordot<Backend, A, B, R>(a, b, axes_a, axes_b);
}

/// numpy.kron(a, b): the Kronecker product, kron(a, b)[i * b.shape[0] + k, ...] = a[i, ...] *
/// b[k, ...], the shorter shape padded with leading 1s (a 0-d operand: multiply's).
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> kron(const A& a, const B& b) {
  const auto x = detail::array_of<R, Backend>(a);
  const auto y = detail::array_of<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "kron");
  if (x.ndim() == 0 || y.ndim() == 0) return eval<Backend>(x * y);
  const std::size_t nd = std::max(x.shape().size(), y.shape().size());
  shape_t xs(nd - x.shape().size(), 1), ys(nd - y.shape().size(), 1);
  xs.insert(xs.end(), x.shape().begin(), x.shape().end());
  ys.insert(ys.end(), y.shape().begin(), y.shape().end());
  // x as (x0, 1, x1, 1, ...) and y as (1, y0, 1, y1, ...): their product is (x0, y0, x1, y1,
  // ...), C-ordered, which reshapes to (x0 y0, x1 y1, ...) without a copy.
  shape_t xi, yi, shape;
  for (std::size_t d = 0; d < nd; ++d) {
    xi.insert(xi.end(), {xs[d], 1});
    yi.insert(yi.end(), {1, ys[d]});
    shape.push_back(xs[d] * ys[d]);
  }
  return eval<Backend>(x.reshape(xi) * y.reshape(yi)).reshape(shape);
}

namespace linalg {

/// numpy.linalg.matmul(x1, x2): numpy.matmul without out=.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> matmul(const A& a, const B& b) {
  return cunp::matmul<Backend, A, B, R>(a, b);
}

/// numpy.linalg.matrix_transpose(x): the last two axes swapped, a view.
template <element_type T> [[nodiscard]] ndarray<T> matrix_transpose(const ndarray<T>& x) {
  if (x.ndim() < 2)
    throw value_error("Input array must be at least 2-dimensional, but it is " +
                      std::to_string(x.ndim()));
  return swapaxes(x, -1, -2);
}

/// numpy.linalg.vecdot(x1, x2, axis): sum(conj(x1) * x2) along `axis` of each operand (of equal
/// extents), the other axes broadcast; one fused reduction.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> vecdot(const A& a, const B& b, index_t axis = -1) {
  const auto x = detail::array_of<R, Backend>(a);
  const auto y = detail::array_of<R, Backend>(b);
  detail::check_same_device(x.device(), y.device(), "vecdot");
  for (int i = 0; i < 2; ++i)
    if ((i == 0 ? x : y).ndim() == 0)
      throw value_error("vecdot: Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature "
                        "(n),(n)->() requires 1)");
  const auto xm = moveaxis(x, normalize_axis(axis, x.shape().size()), -1);
  const auto ym = moveaxis(y, normalize_axis(axis, y.shape().size()), -1);
  const index_t n = xm.shape().back(), n2 = ym.shape().back();
  if (n != n2)
    throw value_error("vecdot: Input operand 1 has a mismatch in its core dimension 0, with "
                      "gufunc signature (n),(n)->() (size " +
                      std::to_string(n2) + " is different from " + std::to_string(n) + ")");
  try {
    broadcast_shapes(shape_t(xm.shape().begin(), xm.shape().end() - 1),
                     shape_t(ym.shape().begin(), ym.shape().end() - 1));
  } catch (const shape_error&) {
    throw shape_error(detail::remapped_error({{x.shape(), 1}, {y.shape(), 1}}, std::nullopt, {}));
  }
  if constexpr (is_complex_v<R>) return detail::summed_product<Backend, R>(conjugate(xm), ym);
  else return detail::summed_product<Backend, R>(xm, ym);
}

/// numpy.linalg.outer(x1, x2): numpy.outer of two 1-d arrays.
template <class Backend = detail::compiled_backend, array_like A, array_like B,
          class R = detail::product_t<A, B>>
[[nodiscard]] ndarray<R> outer(const A& a, const B& b) {
  const auto x = detail::array_of<R, Backend>(a);
  const auto y = detail::array_of<R, Backend>(b);
  if (x.ndim() != 1 || y.ndim() != 1)
    throw value_error("Input arrays must be one-dimensional, but they are x1.ndim=" +
                      std::to_string(x.ndim()) + " and x2.ndim=" + std::to_string(y.ndim()) + ".");
  return cunp::outer<Backend>(x, y);
}

/// numpy.linalg.tensordot: numpy.tensordot.
using cunp::tensordot;

/// numpy.linalg.multi_dot(arrays): the product of a chain in the cheapest order (NumPy's
/// matrix-chain order); the first may be 1-d (a row) and the last 1-d (a column), the others
/// 2-d; the result drops the axes the 1-d ends added.
template <class Backend = detail::compiled_backend, element_type T>
[[nodiscard]] ndarray<T> multi_dot(const std::vector<ndarray<T>>& arrays) {
  const std::size_t n = arrays.size();
  if (n < 2) throw value_error("Expecting at least two arrays.");
  if (n == 2) return cunp::dot<Backend>(arrays[0], arrays[1]);
  std::vector<ndarray<T>> m = arrays;
  const bool row = m.front().ndim() == 1, column = m.back().ndim() == 1;
  if (row) m.front() = m.front().reshape({1, m.front().size()});
  if (column) m.back() = m.back().reshape({m.back().size(), 1});
  for (const auto& x : m) {
    detail::check_same_device(x.device(), m[0].device(), "multi_dot");
    if (x.ndim() != 2)
      throw linalg_error(std::to_string(x.ndim()) +
                         "-dimensional array given. Array must be two-dimensional");
  }
  std::vector<index_t> extents{m[0].shape()[0]};
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) detail::check_aligned(m[i - 1].shape(), 1, m[i].shape(), 0);
    extents.push_back(m[i].shape()[1]);
  }
  ndarray<T> r = detail::chain_product<Backend>(m, detail::chain_order(extents), 0, n - 1);
  if (row && column) return r.reshape({});
  if (row) return r.reshape({r.shape()[1]});
  if (column) return r.reshape({r.shape()[0]});
  return r;
}

}  // namespace linalg
}  // namespace cunp

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/linalg/matmul.cuh"
#endif
