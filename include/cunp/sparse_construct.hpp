// cunp/sparse_construct.hpp: scipy.sparse's construction functions: eye, identity, diags, kron,
// hstack, vstack, tril, triu. Each builds its result's arrays with cunp's array operations and
// the family's conversions (sparse_matrix.hpp), so both backends run them. scipy's default
// formats are kept where cunp has them; where scipy gives DIA (eye, identity, diags) cunp gives
// CSR, and where it gives BSR (kron of a fairly dense B) COO. The template argument F picks
// another format, as scipy's format=.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/joining.hpp"
#include "cunp/sparse_matrix.hpp"
#include "cunp/view.hpp"

namespace cunp::sparse {

/// The matrix class of format F.
template <format F, class T, class I>
using matrix_t =
    std::conditional_t<F == format::csr, csr_matrix<T, I>,
                       std::conditional_t<F == format::csc, csc_matrix<T, I>, coo_matrix<T, I>>>;

}  // namespace cunp::sparse

namespace cunp::detail {

/// m in format F (scipy's asformat): m itself when it is in F already.
template <sparse::format F, class Backend, class M> auto as_format(const M& m) {
  if constexpr (F == sparse::format::csr)
    return m.template tocsr<Backend>();
  else if constexpr (F == sparse::format::csc)
    return m.template tocsc<Backend>();
  else
    return m.template tocoo<Backend>();
}

/// a * b for extents, or value_error saying to use int64 indices when it passes I's range.
template <class I> index_t sparse_extent_product(index_t a, index_t b, const char* what) {
  if (a != 0 && b > std::numeric_limits<I>::max() / a)
    throw value_error(std::string(what) + " " + std::to_string(a) + " x " + std::to_string(b) +
                      " does not fit the matrix's int32 indices: use std::int64_t indices");
  return a * b;
}

/// The length of diagonal `offset` in an m x n matrix as scipy's diags_array computes it
/// (negative: the offset is outside, or a dimension is negative).
inline index_t diags_length(index_t m, index_t n, index_t offset) {
  return std::min({m + offset, n - offset, std::min(m, n)});
}

/// The entries of diagonal k of length len from (max(-k, 0), max(k, 0)): rows and columns.
template <class Backend, class I>
std::pair<ndarray<I>, ndarray<I>> diagonal_coordinates(index_t k, index_t len, device dev) {
  const index_t r0 = std::max<index_t>(-k, 0), c0 = std::max<index_t>(k, 0);
  return {arange<I, Backend>(r0, r0 + len, index_t(1), dev),
          arange<I, Backend>(c0, c0 + len, index_t(1), dev)};
}

/// "{2, 3}": a Python set of extents as scipy's stack errors print it (small ints: ascending).
inline std::string python_set(const std::set<index_t>& s) {
  std::string out = "{";
  for (const index_t v : s) out += (out.size() > 1 ? ", " : "") + std::to_string(v);
  return out + "}";
}

/// Whether every matrix's facts say `what` (sorted or canonical) holds; unknown counts as no.
template <class M> bool all_known(const std::vector<M>& blocks, tri index_facts::*what) {
  return std::all_of(blocks.begin(), blocks.end(),
                     [&](const M& b) { return (*b.facts()).*what == tri::yes; });
}

/// hstack/vstack along the major axis of compressed matrices (CSR vstack, CSC hstack): the
/// arrays concatenated, each block's indptr shifted by the entries before it (scipy's
/// _compressed_sparse_stack).
template <class Backend, class M> M stack_major(const std::vector<M>& blocks, int axis) {
  using T = typename M::value_type;
  using I = typename M::index_type;
  const int other = 1 - axis;
  const index_t common = blocks[0].shape()[other];
  std::vector<ndarray<T>> data;
  std::vector<ndarray<I>> indices, indptr{view(blocks[0].indptr(), slice(0, 1))};
  index_t lines = 0, nnz = 0;
  for (const M& b : blocks) {
    if (b.shape()[other] != common)
      throw value_error("incompatible dimensions for axis " + std::to_string(other));
    data.push_back(b.data());
    indices.push_back(b.indices());
    indptr.push_back(eval<Backend>(view(b.indptr(), slice(1, none)) + nnz));
    lines += b.shape()[axis];
    nnz += b.nnz();
    check_index_fits<I>(nnz, "a number of stored entries of");
  }
  shape_t shape(2);
  shape[axis] = lines;
  shape[other] = common;
  check_sparse_shape<I>(shape);
  return M(unchecked, cs_arrays<T, I>{concatenate(data), concatenate(indices), concatenate(indptr)},
           shape,
           make_facts(all_known(blocks, &index_facts::sorted) ? tri::yes : tri::unknown,
                      all_known(blocks, &index_facts::canonical) ? tri::yes : tri::unknown));
}

/// hstack/vstack along the minor axis of compressed matrices (CSR hstack, CSC vstack): each
/// line holds the blocks' entries of that line, block after block, each in its order (scipy's
/// csr_hstack), by a stable grouping of all entries by line.
template <class Backend, class M> M stack_minor(const std::vector<M>& blocks, int axis) {
  using T = typename M::value_type;
  using I = typename M::index_type;
  const int other = 1 - axis;
  std::set<index_t> others;
  for (const M& b : blocks) others.insert(b.shape()[other]);
  if (others.size() > 1)
    throw value_error("Mismatching dimensions along axis " + std::to_string(other) + ": " +
                      python_set(others));
  const index_t majors = *others.begin();
  std::vector<ndarray<T>> data;
  std::vector<ndarray<I>> major, minor;
  index_t minors = 0, nnz = 0;
  for (const M& b : blocks) {
    data.push_back(b.data());
    major.push_back(expanded<Backend>(b.indptr(), b.nnz()));
    minor.push_back(eval<Backend>(b.indices() + minors));
    minors += b.shape()[axis];
    nnz += b.nnz();
    check_index_fits<I>(nnz, "a number of stored entries of");
    check_index_fits<I>(minors, "a matrix dimension of");
  }
  shape_t shape(2);
  shape[axis] = minors;
  shape[other] = majors;
  return M(unchecked,
           compressed_from<Backend>(majors, minors, concatenate(major), concatenate(minor),
                                    concatenate(data), compress_mode::group),
           shape,
           make_facts(all_known(blocks, &index_facts::sorted) ? tri::yes : tri::unknown,
                      all_known(blocks, &index_facts::canonical) ? tri::yes : tri::unknown));
}

/// hstack/vstack of COO matrices (scipy's _block for one row or column of blocks): each block's
/// coordinates shifted by the blocks before it, with scipy's check that the other extent agrees
/// (an extent of 0 there counts as not set yet, as in scipy).
template <class Backend, class T, class I>
sparse::coo_matrix<T, I> stack_coo(const std::vector<sparse::coo_matrix<T, I>>& blocks, int axis) {
  const int other = 1 - axis;
  index_t common = 0, along = 0, nnz = 0;
  std::vector<ndarray<T>> data;
  std::vector<ndarray<I>> coords[2];
  for (std::size_t j = 0; j < blocks.size(); ++j) {
    const auto& b = blocks[j];
    const index_t e = b.shape()[other];
    if (common == 0) {
      common = e;
    } else if (e != common) {
      const std::string at =
          axis == 1 ? "[0," + std::to_string(j) + "]" : "[" + std::to_string(j) + ",0]";
      throw value_error(std::string(axis == 1 ? "blocks[0,:] has incompatible row"
                                              : "blocks[:,0] has incompatible column") +
                        " dimensions. Got blocks" + at + ".shape[" + std::to_string(other) +
                        "] == " + std::to_string(e) + ", expected " + std::to_string(common) + ".");
    }
    data.push_back(b.data());
    const ndarray<I>& shifted = axis == 0 ? b.row() : b.col();
    coords[axis].push_back(eval<Backend>(shifted + along));
    coords[other].push_back(axis == 0 ? b.col() : b.row());
    along += b.shape()[axis];
    nnz += b.nnz();
    check_index_fits<I>(nnz, "a number of stored entries of");
    check_index_fits<I>(along, "a matrix dimension of");
  }
  shape_t shape(2);
  shape[axis] = along;
  shape[other] = common;
  return sparse::coo_matrix<T, I>(unchecked, concatenate(data), concatenate(coords[0]),
                                  concatenate(coords[1]), shape, false);
}

/// hstack (axis 1) or vstack (axis 0) of matrices of one class, scipy's fast paths' results.
template <class Backend, class M> M stacked(const std::vector<M>& blocks, int axis) {
  // scipy's errors for no blocks (1.18's words): vstack's object array is 1-d, hstack's row has
  // no column 0.
  if (blocks.empty()) {
    if (axis == 0) throw value_error("blocks must be 2-D, and some must be sparse");
    throw index_error("index 0 is out of bounds for axis 1 with size 0");
  }
  for (const M& b : blocks)
    check_same_device(blocks[0].device(), b.device(), axis == 0 ? "vstack" : "hstack");
  if constexpr (M::format == sparse::format::coo) {
    return stack_coo<Backend>(blocks, axis);
  } else {
    const bool major = (axis == 0) == (M::format == sparse::format::csr);
    return major ? stack_major<Backend>(blocks, axis) : stack_minor<Backend>(blocks, axis);
  }
}

/// The entries of a COO matrix whose (row, col) keep `keep(row, col)` (an expression of the two
/// int64 index arrays), in order (tril, triu). A GPU waits once (the count).
template <class Backend, class T, class I, class Keep>
sparse::coo_matrix<T, I> coo_where(const sparse::coo_matrix<T, I>& a, Keep&& keep) {
  const ndarray<std::int64_t> at =
      flatnonzero<Backend>(keep(astype<std::int64_t>(a.row()), astype<std::int64_t>(a.col())));
  return sparse::coo_matrix<T, I>(unchecked, take<Backend>(a.data(), at),
                                  take<Backend>(a.row(), at), take<Backend>(a.col(), at), a.shape(),
                                  false);
}

}  // namespace cunp::detail

namespace cunp::sparse {

/// scipy.sparse.eye(m, n=m, k=0): ones on diagonal k of an m x n matrix, in CSR (scipy: DIA;
/// F picks another format). scipy's error for a diagonal outside the matrix.
template <class T = double, class I = std::int32_t, format F = format::csr,
          class Backend = detail::compiled_backend>
[[nodiscard]] matrix_t<F, T, I> eye(index_t m, std::optional<index_t> n = std::nullopt,
                                    index_t k = 0, device dev = default_device()) {
  const index_t cols = n.value_or(m);
  const index_t len = detail::diags_length(m, cols, k);
  if (len < 0) throw value_error("Offset " + std::to_string(k) + " (index 0) out of bounds");
  detail::check_sparse_shape<I>({m, cols});
  // One entry in each row of [r0, r0 + len), so indptr is clip(r - r0, 0, len).
  const index_t r0 = std::max<index_t>(-k, 0);
  detail::cs_arrays<T, I> a{
      ones<T>({len}, dev), detail::diagonal_coordinates<Backend, I>(k, len, dev).second,
      eval<Backend>(clip(arange<I, Backend>(-r0, m + 1 - r0, index_t(1), dev), 0, len))};
  return detail::as_format<F, Backend>(
      csr_matrix<T, I>(detail::unchecked, std::move(a), {m, cols},
                       detail::make_facts(detail::tri::yes, detail::tri::yes)));
}

/// scipy.sparse.identity(n): eye(n).
template <class T = double, class I = std::int32_t, format F = format::csr,
          class Backend = detail::compiled_backend>
[[nodiscard]] matrix_t<F, T, I> identity(index_t n, device dev = default_device()) {
  return eye<T, I, F, Backend>(n, n, 0, dev);
}

/// scipy.sparse.diags(diagonals, offsets, shape): diagonals[j] on diagonal offsets[j], in CSR
/// (scipy: DIA; F picks another format), explicit zeros dropped as scipy's conversion from DIA
/// drops them. A diagonal of one element fills its whole diagonal; a longer one is cut to the
/// diagonal's length. shape defaults to the square matrix that holds the first diagonal. The
/// diagonals are 1-d (or 0-d) arrays on one device, where the result lives. Waits once on a
/// GPU (the zeros dropped).
template <class I = std::int32_t, format F = format::csr, class Backend = detail::compiled_backend,
          class T>
[[nodiscard]] matrix_t<F, T, I> diags(const std::vector<ndarray<T>>& diagonals,
                                      const std::vector<index_t>& offsets,
                                      std::optional<shape_t> shape = std::nullopt) {
  if (diagonals.size() != offsets.size())
    throw value_error("Different number of diagonals and offsets.");
  if (diagonals.empty()) {  // scipy's errors: diagonals[0] for the shape, then the dtype
    if (!shape) throw index_error("list index out of range");
    throw value_error("at least one array or dtype is required");
  }
  const device dev = diagonals[0].device();
  for (const ndarray<T>& d : diagonals) {
    detail::check_same_device(dev, d.device(), "diags");
    if (d.ndim() > 1) throw value_error("diags takes 1-d diagonals");
  }
  if (!shape) {
    const index_t side = diagonals[0].size() + std::abs(offsets[0]);
    shape = shape_t{side, side};
  }
  if (shape->size() != 2) throw value_error("expected a shape of 2 dimensions");
  const index_t m = (*shape)[0], n = (*shape)[1];
  std::vector<ndarray<T>> values;
  std::vector<ndarray<I>> rows, cols;
  for (std::size_t j = 0; j < diagonals.size(); ++j) {
    const index_t k = offsets[j], len = detail::diags_length(m, n, k);
    if (len < 0)
      throw value_error("Offset " + std::to_string(k) + " (index " + std::to_string(j) +
                        ") out of bounds");
    const ndarray<T> d = diagonals[j].reshape({-1});
    if (d.size() < len && d.size() != 1)
      throw value_error("Diagonal length (index " + std::to_string(j) + ": " +
                        std::to_string(d.size()) + " at offset " + std::to_string(k) +
                        ") does not agree with array size (" + std::to_string(m) + ", " +
                        std::to_string(n) + ").");
    if (len == 0) continue;
    values.push_back(d.size() < len ? broadcast_to(d, {len}) : view(d, slice(0, len)));
    auto [r, c] = detail::diagonal_coordinates<Backend, I>(k, len, dev);
    rows.push_back(std::move(r));
    cols.push_back(std::move(c));
  }
  if (std::set<index_t>(offsets.begin(), offsets.end()).size() != offsets.size())
    throw value_error("offset array contains duplicate values");
  detail::check_sparse_shape<I>(*shape);
  if (values.empty()) return detail::as_format<F, Backend>(csr_matrix<T, I>(*shape, dev));
  const ndarray<T> v = concatenate(values);
  const ndarray<std::int64_t> at = flatnonzero<Backend>(v != 0);
  auto a = detail::compressed_from<Backend>(m, n, take<Backend>(concatenate(rows), at),
                                            take<Backend>(concatenate(cols), at),
                                            take<Backend>(v, at), detail::compress_mode::sort);
  return detail::as_format<F, Backend>(
      csr_matrix<T, I>(detail::unchecked, std::move(a), *shape,
                       detail::make_facts(detail::tri::yes, detail::tri::yes)));
}
/// scipy.sparse.diags(diagonal, offset, shape): one diagonal.
template <class I = std::int32_t, format F = format::csr, class Backend = detail::compiled_backend,
          class T>
[[nodiscard]] matrix_t<F, T, I> diags(const ndarray<T>& diagonal, index_t offset = 0,
                                      std::optional<shape_t> shape = std::nullopt) {
  return diags<I, F, Backend>(std::vector<ndarray<T>>{diagonal}, {offset}, std::move(shape));
}

/// scipy.sparse.kron(A, B): the Kronecker product, block (i, j) being A[i, j] * B, in COO (scipy:
/// COO, or BSR when B is fairly dense; F picks another format). The entries are A's in order,
/// each followed through B's, as scipy's.
template <format F = format::coo, class Backend = detail::compiled_backend, class MA, class MB>
[[nodiscard]] auto kron(const MA& a, const MB& b) {
  using T = typename MA::value_type;
  using I = typename MA::index_type;
  static_assert(
      std::is_same_v<T, typename MB::value_type> && std::is_same_v<I, typename MB::index_type>,
      "sparse::kron takes two matrices of one value and index type");
  detail::check_same_device(a.device(), b.device(), "kron");
  const coo_matrix<T, I> x = a.template tocoo<Backend>(), y = b.template tocoo<Backend>();
  const index_t bm = y.shape()[0], bn = y.shape()[1];
  const shape_t shape{detail::sparse_extent_product<I>(x.shape()[0], bm, "a kron shape of"),
                      detail::sparse_extent_product<I>(x.shape()[1], bn, "a kron shape of")};
  const index_t nnz = detail::sparse_extent_product<I>(x.nnz(), y.nnz(), "a kron nnz of");
  const auto outer = [&](auto e) { return eval<Backend>(e).reshape({nnz}); };
  const coo_matrix<T, I> out(
      detail::unchecked, outer(view(x.data(), all, newaxis) * view(y.data(), newaxis, all)),
      outer(view(x.row(), all, newaxis) * bm + view(y.row(), newaxis, all)),
      outer(view(x.col(), all, newaxis) * bn + view(y.col(), newaxis, all)), shape, false);
  return detail::as_format<F, Backend>(out);
}

/// scipy.sparse.hstack(blocks): the matrices side by side, in their format (scipy's result for
/// blocks of one format: a CSR hstack keeps each row's entries block after block). Every block
/// has the same number of rows (scipy's error otherwise).
template <class Backend = detail::compiled_backend, class M>
[[nodiscard]] M hstack(const std::vector<M>& blocks) {
  return detail::stacked<Backend>(blocks, 1);
}
/// scipy.sparse.vstack(blocks): the matrices one above the other, in their format.
template <class Backend = detail::compiled_backend, class M>
[[nodiscard]] M vstack(const std::vector<M>& blocks) {
  return detail::stacked<Backend>(blocks, 0);
}

/// scipy.sparse.tril(A, k): the entries on and below diagonal k, in COO (scipy's default; F
/// picks another format). A GPU waits once (the count).
template <format F = format::coo, class Backend = detail::compiled_backend, class M>
[[nodiscard]] auto tril(const M& a, index_t k = 0) {
  const auto keep = [k](auto row, auto col) { return row + k >= col; };
  return detail::as_format<F, Backend>(
      detail::coo_where<Backend>(a.template tocoo<Backend>(), keep));
}
/// scipy.sparse.triu(A, k): the entries on and above diagonal k, in COO.
template <format F = format::coo, class Backend = detail::compiled_backend, class M>
[[nodiscard]] auto triu(const M& a, index_t k = 0) {
  const auto keep = [k](auto row, auto col) { return row + k <= col; };
  return detail::as_format<F, Backend>(
      detail::coo_where<Backend>(a.template tocoo<Backend>(), keep));
}

}  // namespace cunp::sparse
