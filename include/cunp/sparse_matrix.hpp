// cunp/sparse_matrix.hpp: scipy.sparse's csr_matrix, csc_matrix and coo_matrix: construction
// (validated as scipy's check_format), conversions, the canonical-form operations (sort_indices,
// sum_duplicates, eliminate_zeros), todense, diagonal, sum, copy, astype, to. Every operation is
// written on detail/sparse/arrays.hpp's array operations, which run the cpu reference
// (detail/cpu/sparse/) or cuSPARSE and cunp's kernels (detail/cuda/sparse/, nvcc only).
//
// The value type T is float, double, std::complex<float> or std::complex<double>; the index type
// I is std::int32_t (default) or std::int64_t. scipy picks the index dtype at run time; cunp
// fixes it in the type, and a matrix whose extents or entries do not fit I is refused with a
// value_error saying to use int64 indices.
//
// The arrays are shared handles, as ndarray's: a copy of a matrix object aliases its arrays (as
// `B = A` in Python), copy() is a deep copy, T() of a CSR matrix is the CSC matrix on the same
// arrays. Operations that change the number of entries (sum_duplicates, eliminate_zeros) give
// the matrix new arrays: other matrices that shared the old ones keep them unchanged.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "cunp/detail/sparse/arrays.hpp"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/reduce.hpp"

namespace cunp::sparse {

template <class T, class I = std::int32_t> class csr_matrix;
template <class T, class I = std::int32_t> class csc_matrix;
template <class T, class I = std::int32_t> class coo_matrix;

}  // namespace cunp::sparse

namespace cunp::detail {

/// Tags the constructors that take arrays already known to be valid (results of cunp's own
/// operations): no check, no scan, no wait. The caller vouches for scipy's format rules and
/// for the facts it passes.
struct unchecked_t {
  explicit unchecked_t() = default;
};
inline constexpr unchecked_t unchecked{};

/// scipy's sum(axis) of a sparse array: axis in [-2, 2), normalised.
inline int sparse_axis(index_t axis) {
  if (axis < -2 || axis >= 2) throw value_error("axis out of range for ndim");
  return static_cast<int>(axis < 0 ? axis + 2 : axis);
}

/// What csr_matrix (ByRows: a line is a row) and csc_matrix (a line is a column) share. Self is
/// the derived class, which the operations that keep the format return.
template <class Self, class T, class I, bool ByRows> class compressed_matrix {
 public:
  using value_type = T;
  using index_type = I;
  static constexpr sparse::format format = ByRows ? sparse::format::csr : sparse::format::csc;

  /// The stored values (scipy's .data): 1-d, contiguous, nnz entries.
  [[nodiscard]] const ndarray<T>& data() const { return a_.data; }
  /// The minor-axis index of each entry (column indices of a CSR matrix, row indices of a CSC).
  [[nodiscard]] const ndarray<I>& indices() const { return a_.indices; }
  /// Where each line's entries start (rows + 1 entries for CSR, cols + 1 for CSC).
  [[nodiscard]] const ndarray<I>& indptr() const { return a_.indptr; }
  /// (rows, cols).
  [[nodiscard]] const shape_t& shape() const { return shape_; }
  [[nodiscard]] static constexpr int ndim() { return 2; }
  /// The stored entries, duplicates and explicit zeros counted (scipy's nnz).
  [[nodiscard]] index_t nnz() const { return a_.data.size(); }
  [[nodiscard]] cunp::device device() const { return a_.data.device(); }
  /// The three arrays together (what the family's array operations take).
  [[nodiscard]] const cs_arrays<T, I>& arrays() const { return a_; }
  /// What is known of the index arrays' order, without a scan (for operations that derive their
  /// result's facts; shared by every matrix on these arrays).
  [[nodiscard]] const std::shared_ptr<index_facts>& facts() const { return facts_; }

  /// scipy's has_sorted_indices: every line's indices increase (ties allowed). Known from the
  /// construction's check or an operation; otherwise found by a scan (a GPU waits once).
  template <class Backend = compiled_backend> [[nodiscard]] bool has_sorted_indices() const {
    learn_facts<Backend>();
    return facts_->sorted == tri::yes;
  }
  /// scipy's has_canonical_format: sorted indices and no duplicate entries.
  template <class Backend = compiled_backend> [[nodiscard]] bool has_canonical_format() const {
    learn_facts<Backend>();
    return facts_->canonical == tri::yes;
  }

  /// scipy's sort_indices: each line's entries by index, in place (the arrays are rewritten;
  /// duplicates keep their order). Seen by every matrix that shares the arrays.
  template <class Backend = compiled_backend> void sort_indices() {
    if (has_sorted_indices<Backend>()) return;
    const cs_arrays<T, I> s =
        compressed_from<Backend>(majors(), minors(), expanded<Backend>(a_.indptr, nnz()),
                                 a_.indices, a_.data, compress_mode::sort);
    copyto<Backend>(a_.indices, s.indices);
    copyto<Backend>(a_.data, s.data);
    facts_->sorted = tri::yes;
  }
  /// scipy's sum_duplicates: entries with the same (row, col) added into one (in their order),
  /// indices sorted. The matrix gets new arrays. A GPU waits once for the new nnz (and once
  /// before, for has_canonical_format's scan, when no operation has said).
  template <class Backend = compiled_backend> void sum_duplicates() {
    if (has_canonical_format<Backend>()) return;
    a_ = compressed_from<Backend>(majors(), minors(), expanded<Backend>(a_.indptr, nnz()),
                                  a_.indices, a_.data, compress_mode::sum);
    facts_ = make_facts(tri::yes, tri::yes);
  }
  /// scipy's eliminate_zeros: stored zeros removed, the rest in order. The matrix gets new
  /// arrays. A GPU waits once (the new nnz).
  template <class Backend = compiled_backend> void eliminate_zeros() {
    a_ = kept_entries<Backend>(a_, a_.data != 0);
    // A subset of sorted (canonical) lines is sorted (canonical); anything else may have become so.
    facts_ = make_facts(facts_->sorted == tri::yes ? tri::yes : tri::unknown,
                        facts_->canonical == tri::yes ? tri::yes : tri::unknown);
  }

  /// scipy's todense(): a C-ordered (rows, cols) ndarray, duplicates added.
  template <class Backend = compiled_backend> [[nodiscard]] ndarray<T> todense() const {
    return dense_of<Backend>(shape_, ByRows, a_);
  }
  /// scipy's toarray(): todense().
  template <class Backend = compiled_backend> [[nodiscard]] ndarray<T> toarray() const {
    return todense<Backend>();
  }

  /// scipy's tocoo(): the entries as coordinates, in storage order (new arrays).
  template <class Backend = compiled_backend> [[nodiscard]] sparse::coo_matrix<T, I> tocoo() const {
    ndarray<I> major = expanded<Backend>(a_.indptr, nnz()), minor = a_.indices.copy();
    // A canonical CSR matrix is in COO's canonical (row-major) order; a CSC matrix is not.
    // Known facts only: a scan here would be a hidden wait.
    const bool canonical = ByRows && facts_->canonical == tri::yes;
    if (ByRows)
      return sparse::coo_matrix<T, I>(unchecked, a_.data.copy(), std::move(major), std::move(minor),
                                      shape_, canonical);
    return sparse::coo_matrix<T, I>(unchecked, a_.data.copy(), std::move(minor), std::move(major),
                                    shape_, canonical);
  }

  /// scipy's diagonal(k): the k-th diagonal (above the main one for k > 0), duplicates added;
  /// empty when k is outside the matrix.
  template <class Backend = compiled_backend>
  [[nodiscard]] ndarray<T> diagonal(index_t k = 0) const {
    return diagonal_of<Backend>(shape_, ByRows, k, a_);
  }

  /// scipy's sum(): every entry added, a 0-d array.
  template <class Backend = compiled_backend> [[nodiscard]] ndarray<T> sum() const {
    return cunp::sum<void, Backend>(a_.data);
  }
  /// scipy's sum(axis) of a sparse array (csr_array): a 1-d array of cols entries (axis 0) or
  /// rows entries (axis 1), in T (scipy's sum dtype of these types). Negative axes count back.
  template <class Backend = compiled_backend> [[nodiscard]] ndarray<T> sum(index_t axis) const {
    const bool along_lines = (sparse_axis(axis) == 1) == ByRows;
    if (along_lines) return line_sums<Backend>(a_);
    return line_sums<Backend>(transposed<Backend>(majors(), minors(), a_));
  }

  /// scipy's copy(): a deep copy (new arrays) on the same device.
  [[nodiscard]] Self copy() const {
    return Self(unchecked, {a_.data.copy(), a_.indices.copy(), a_.indptr.copy()}, shape_,
                make_facts(facts_->sorted, facts_->canonical));
  }
  /// scipy's astype(U): the values converted (new arrays; the index type kept).
  template <class U, class Backend = compiled_backend> [[nodiscard]] auto astype() const {
    using Out = std::conditional_t<ByRows, sparse::csr_matrix<U, I>, sparse::csc_matrix<U, I>>;
    return Out(unchecked,
               {a_.data.template astype<U, Backend>(), a_.indices.copy(), a_.indptr.copy()}, shape_,
               make_facts(facts_->sorted, facts_->canonical));
  }
  /// The matrix on `dev` (ndarray::to's rules: this same matrix when it is already there).
  [[nodiscard]] Self to(cunp::device dev) const {
    if (dev == device()) return static_cast<const Self&>(*this);
    return Self(unchecked, {a_.data.to(dev), a_.indices.to(dev), a_.indptr.to(dev)}, shape_,
                make_facts(facts_->sorted, facts_->canonical));
  }

 protected:
  compressed_matrix()
      : a_{ndarray<T>({0}, cpu), ndarray<I>({0}, cpu), zeros<I>({1}, cpu)},
        shape_{0, 0},
        facts_(make_facts(tri::yes, tri::yes)) {}
  compressed_matrix(unchecked_t, cs_arrays<T, I> a, shape_t shape,
                    std::shared_ptr<index_facts> facts)
      : a_(std::move(a)),
        shape_(std::move(shape)),
        facts_(facts ? std::move(facts) : make_facts(tri::unknown, tri::unknown)) {}

  /// scipy's constructor from (data, indices, indptr) and shape: check_format(full_check=True).
  template <class Backend>
  compressed_matrix(const ndarray<T>& data, const ndarray<I>& indices, const ndarray<I>& indptr,
                    const shape_t& shape, Backend) {
    check_sparse_shape<I>(shape);
    shape_ = shape;
    a_ = checked_compressed<Backend>(data, indices, indptr, majors(), minors(), facts_);
  }
  /// An empty matrix of `shape` (scipy's csr_matrix((M, N))).
  compressed_matrix(const shape_t& shape, cunp::device dev)
      : a_{ndarray<T>({0}, dev), ndarray<I>({0}, dev), ndarray<I>({1}, dev)},
        shape_(shape),
        facts_(make_facts(tri::yes, tri::yes)) {
    check_sparse_shape<I>(shape);
    a_.indptr = zeros<I>({majors() + 1}, dev);
  }
  /// scipy's constructor from a dense 2-d array: its nonzero elements (a GPU waits once: nnz).
  template <class Backend> compressed_matrix(const ndarray<T>& dense, Backend) {
    if (dense.ndim() != 2)
      throw value_error("expected a 2-d dense array, got " + std::to_string(dense.ndim()) + "-d");
    check_sparse_shape<I>(dense.shape());
    shape_ = dense.shape();
    a_ = compressed_from_dense<Backend, I>(dense, ByRows);
    facts_ = make_facts(tri::yes, tri::yes);
  }

  [[nodiscard]] index_t majors() const { return ByRows ? shape_[0] : shape_[1]; }
  [[nodiscard]] index_t minors() const { return ByRows ? shape_[1] : shape_[0]; }
  /// The facts of a transposition's result: sorted lines, duplicates as in this matrix.
  [[nodiscard]] std::shared_ptr<index_facts> transposed_facts() const {
    const tri canonical = facts_->canonical == tri::yes ? tri::yes
                          : facts_->sorted == tri::yes && facts_->canonical == tri::no
                              ? tri::no
                              : tri::unknown;
    return make_facts(tri::yes, canonical);
  }

  cs_arrays<T, I> a_;
  shape_t shape_;
  std::shared_ptr<index_facts> facts_;

 private:
  template <class Backend> void learn_facts() const {
    if (facts_->sorted != tri::unknown && facts_->canonical != tri::unknown) return;
    const compressed_report<I> r = inspect_compressed<Backend>(a_.indptr, a_.indices);
    facts_->sorted = tri_of(!r.unsorted);
    facts_->canonical = tri_of(!r.unsorted && !r.duplicates);
  }
};

}  // namespace cunp::detail

namespace cunp::sparse {

/// scipy.sparse.csr_matrix: compressed sparse rows.
template <class V, class I>
class csr_matrix : public detail::compressed_matrix<csr_matrix<V, I>, V, I, true> {
  using base = detail::compressed_matrix<csr_matrix<V, I>, V, I, true>;

 public:
  static_assert((detail::check_sparse_types<V, I>(), true));

  /// An empty 0 x 0 matrix on the cpu.
  csr_matrix() = default;
  /// scipy's csr_matrix((data, indices, indptr), shape): the arrays checked as scipy's
  /// check_format(full_check=True) and used as they are (shared, not copied; a non-contiguous
  /// one is copied). A GPU waits once, for the check's scan.
  template <class Backend = detail::compiled_backend>
  csr_matrix(const ndarray<V>& data, const ndarray<I>& indices, const ndarray<I>& indptr,
             const shape_t& shape)
      : base(data, indices, indptr, shape, Backend{}) {}
  /// scipy's csr_matrix((M, N)): an empty matrix of that shape.
  explicit csr_matrix(const shape_t& shape, device dev = default_device()) : base(shape, dev) {}
  /// scipy's csr_matrix(dense): the nonzero elements of a 2-d array (a GPU waits once: nnz).
  template <class Backend = detail::compiled_backend>
  explicit csr_matrix(const ndarray<V>& dense) : base(dense, Backend{}) {}
  /// scipy's csr_matrix(csc): the same matrix in CSR form.
  template <class Backend = detail::compiled_backend>
  explicit csr_matrix(const csc_matrix<V, I>& m) : csr_matrix(m.template tocsr<Backend>()) {}
  /// scipy's csr_matrix(coo): duplicates summed (a GPU waits once: nnz).
  template <class Backend = detail::compiled_backend>
  explicit csr_matrix(const coo_matrix<V, I>& m) : csr_matrix(m.template tocsr<Backend>()) {}
  /// Arrays known to be valid (see detail::unchecked_t); null facts: unknown.
  csr_matrix(detail::unchecked_t, detail::cs_arrays<V, I> a, shape_t shape,
             std::shared_ptr<detail::index_facts> facts)
      : base(detail::unchecked, std::move(a), std::move(shape), std::move(facts)) {}

  /// scipy's tocsr(): this matrix (no copy).
  template <class Backend = detail::compiled_backend> [[nodiscard]] csr_matrix tocsr() const {
    return *this;
  }
  /// scipy's tocsc(): the transpose's arrays (cuSPARSE's csr2csc on a GPU), each column's rows
  /// in order; duplicates kept.
  template <class Backend = detail::compiled_backend> [[nodiscard]] csc_matrix<V, I> tocsc() const {
    return csc_matrix<V, I>(detail::unchecked,
                            detail::transposed<Backend>(this->majors(), this->minors(), this->a_),
                            this->shape_, this->transposed_facts());
  }
  /// scipy's .T: the CSC matrix on the same arrays, shape swapped (no copy).
  [[nodiscard]] csc_matrix<V, I> T() const {
    return csc_matrix<V, I>(detail::unchecked, this->a_, {this->shape_[1], this->shape_[0]},
                            this->facts_);
  }
};

/// scipy.sparse.csc_matrix: compressed sparse columns.
template <class V, class I>
class csc_matrix : public detail::compressed_matrix<csc_matrix<V, I>, V, I, false> {
  using base = detail::compressed_matrix<csc_matrix<V, I>, V, I, false>;

 public:
  static_assert((detail::check_sparse_types<V, I>(), true));

  /// An empty 0 x 0 matrix on the cpu.
  csc_matrix() = default;
  /// scipy's csc_matrix((data, indices, indptr), shape): indices are row indices, indptr has
  /// cols + 1 entries; checked as csr_matrix's.
  template <class Backend = detail::compiled_backend>
  csc_matrix(const ndarray<V>& data, const ndarray<I>& indices, const ndarray<I>& indptr,
             const shape_t& shape)
      : base(data, indices, indptr, shape, Backend{}) {}
  /// scipy's csc_matrix((M, N)): an empty matrix of that shape.
  explicit csc_matrix(const shape_t& shape, device dev = default_device()) : base(shape, dev) {}
  /// scipy's csc_matrix(dense): the nonzero elements of a 2-d array (a GPU waits once: nnz).
  template <class Backend = detail::compiled_backend>
  explicit csc_matrix(const ndarray<V>& dense) : base(dense, Backend{}) {}
  /// scipy's csc_matrix(csr).
  template <class Backend = detail::compiled_backend>
  explicit csc_matrix(const csr_matrix<V, I>& m) : csc_matrix(m.template tocsc<Backend>()) {}
  /// scipy's csc_matrix(coo): duplicates summed (a GPU waits once: nnz).
  template <class Backend = detail::compiled_backend>
  explicit csc_matrix(const coo_matrix<V, I>& m) : csc_matrix(m.template tocsc<Backend>()) {}
  /// Arrays known to be valid (see detail::unchecked_t); null facts: unknown.
  csc_matrix(detail::unchecked_t, detail::cs_arrays<V, I> a, shape_t shape,
             std::shared_ptr<detail::index_facts> facts)
      : base(detail::unchecked, std::move(a), std::move(shape), std::move(facts)) {}

  /// scipy's tocsr(): the transpose's arrays (cuSPARSE's csr2csc on a GPU).
  template <class Backend = detail::compiled_backend> [[nodiscard]] csr_matrix<V, I> tocsr() const {
    return csr_matrix<V, I>(detail::unchecked,
                            detail::transposed<Backend>(this->majors(), this->minors(), this->a_),
                            this->shape_, this->transposed_facts());
  }
  /// scipy's tocsc(): this matrix (no copy).
  template <class Backend = detail::compiled_backend> [[nodiscard]] csc_matrix tocsc() const {
    return *this;
  }
  /// scipy's .T: the CSR matrix on the same arrays, shape swapped (no copy).
  [[nodiscard]] csr_matrix<V, I> T() const {
    return csr_matrix<V, I>(detail::unchecked, this->a_, {this->shape_[1], this->shape_[0]},
                            this->facts_);
  }
};

/// scipy.sparse.coo_matrix: entries as (row, col, value) triplets, in any order, duplicates
/// allowed (added by every conversion and by todense).
template <class V, class I> class coo_matrix {
 public:
  static_assert((detail::check_sparse_types<V, I>(), true));
  using value_type = V;
  using index_type = I;
  static constexpr sparse::format format = sparse::format::coo;

  /// An empty 0 x 0 matrix on the cpu.
  coo_matrix() : data_({0}, cpu), row_({0}, cpu), col_({0}, cpu), shape_{0, 0}, canonical_(true) {}
  /// scipy's coo_matrix((data, (row, col)), shape): the indices checked against the shape
  /// (a GPU waits once: their ranges); the arrays used as they are (shared, not copied).
  template <class Backend = detail::compiled_backend>
  coo_matrix(const ndarray<V>& data, const ndarray<I>& row, const ndarray<I>& col,
             const shape_t& shape) {
    init<Backend>(data, row, col, shape);
  }
  /// scipy's coo_matrix((data, (row, col))): the shape inferred, each index's maximum + 1.
  template <class Backend = detail::compiled_backend>
  coo_matrix(const ndarray<V>& data, const ndarray<I>& row, const ndarray<I>& col) {
    init<Backend>(data, row, col, std::nullopt);
  }
  /// scipy's coo_matrix((M, N)): an empty matrix of that shape.
  explicit coo_matrix(const shape_t& shape, device dev = default_device())
      : data_({0}, dev), row_({0}, dev), col_({0}, dev), shape_(shape), canonical_(true) {
    detail::check_sparse_shape<I>(shape);
  }
  /// scipy's coo_matrix(dense): the nonzero elements of a 2-d array in C order (a GPU waits
  /// once: nnz).
  template <class Backend = detail::compiled_backend>
  explicit coo_matrix(const ndarray<V>& dense) : coo_matrix(csr_matrix<V, I>(dense).tocoo()) {}
  /// scipy's coo_matrix(csr).
  template <class Backend = detail::compiled_backend>
  explicit coo_matrix(const csr_matrix<V, I>& m) : coo_matrix(m.template tocoo<Backend>()) {}
  /// scipy's coo_matrix(csc).
  template <class Backend = detail::compiled_backend>
  explicit coo_matrix(const csc_matrix<V, I>& m) : coo_matrix(m.template tocoo<Backend>()) {}
  /// Arrays known to be valid (see detail::unchecked_t); `canonical`: known to be sorted by
  /// (row, col) without duplicates.
  coo_matrix(detail::unchecked_t, ndarray<V> data, ndarray<I> row, ndarray<I> col, shape_t shape,
             bool canonical)
      : data_(std::move(data)),
        row_(std::move(row)),
        col_(std::move(col)),
        shape_(std::move(shape)),
        canonical_(canonical) {}

  /// The stored values (scipy's .data).
  [[nodiscard]] const ndarray<V>& data() const { return data_; }
  /// The row index of each entry.
  [[nodiscard]] const ndarray<I>& row() const { return row_; }
  /// The column index of each entry.
  [[nodiscard]] const ndarray<I>& col() const { return col_; }
  [[nodiscard]] const shape_t& shape() const { return shape_; }
  [[nodiscard]] static constexpr int ndim() { return 2; }
  [[nodiscard]] index_t nnz() const { return data_.size(); }
  [[nodiscard]] cunp::device device() const { return data_.device(); }
  /// scipy's coo has_canonical_format: known to be sorted by (row, col) with no duplicates
  /// (set by sum_duplicates and by the conversions that give it; not found by a scan, as
  /// scipy's attribute).
  [[nodiscard]] bool has_canonical_format() const { return canonical_; }

  /// scipy's sum_duplicates: entries sorted by (row, col), duplicates added (in their order).
  /// The matrix gets new arrays. A GPU waits once (the new nnz).
  template <class Backend = detail::compiled_backend> void sum_duplicates() {
    if (canonical_) return;
    *this = tocsr<Backend>().template tocoo<Backend>();
  }
  /// scipy's eliminate_zeros: stored zeros removed (new arrays; a GPU waits once).
  template <class Backend = detail::compiled_backend> void eliminate_zeros() {
    const ndarray<std::int64_t> at = flatnonzero<Backend>(data_ != 0);
    data_ = take<Backend>(data_, at);
    row_ = take<Backend>(row_, at);
    col_ = take<Backend>(col_, at);
  }

  /// scipy's todense(): a C-ordered (rows, cols) ndarray, duplicates added.
  template <class Backend = detail::compiled_backend> [[nodiscard]] ndarray<V> todense() const {
    return detail::dense_of_coo<Backend>(shape_, row_, col_, data_);
  }
  /// scipy's toarray(): todense().
  template <class Backend = detail::compiled_backend> [[nodiscard]] ndarray<V> toarray() const {
    return todense<Backend>();
  }
  /// scipy's tocsr(): canonical (sorted, duplicates added in order). A GPU waits once for the
  /// number of distinct entries unless the matrix is known canonical.
  template <class Backend = detail::compiled_backend> [[nodiscard]] csr_matrix<V, I> tocsr() const {
    return csr_matrix<V, I>(
        detail::unchecked,
        detail::compressed_from<Backend>(shape_[0], shape_[1], row_, col_, data_, add_mode()),
        shape_, detail::make_facts(detail::tri::yes, detail::tri::yes));
  }
  /// scipy's tocsc(): canonical, as tocsr.
  template <class Backend = detail::compiled_backend> [[nodiscard]] csc_matrix<V, I> tocsc() const {
    // Canonical COO order is by rows: a CSC matrix may still hold no duplicates to add, but the
    // sort by columns is needed either way, and summing finds none.
    return csc_matrix<V, I>(
        detail::unchecked,
        detail::compressed_from<Backend>(shape_[1], shape_[0], col_, row_, data_, add_mode()),
        shape_, detail::make_facts(detail::tri::yes, detail::tri::yes));
  }
  /// scipy's tocoo(): this matrix (no copy).
  template <class Backend = detail::compiled_backend> [[nodiscard]] coo_matrix tocoo() const {
    return *this;
  }
  /// scipy's .T: rows and columns swapped, on the same arrays (no copy).
  [[nodiscard]] coo_matrix T() const {
    return coo_matrix(detail::unchecked, data_, col_, row_, {shape_[1], shape_[0]}, false);
  }

  /// scipy's diagonal(k), duplicates added.
  template <class Backend = detail::compiled_backend>
  [[nodiscard]] ndarray<V> diagonal(index_t k = 0) const {
    return tocsr<Backend>().template diagonal<Backend>(k);
  }
  /// scipy's sum(): every entry added, a 0-d array.
  template <class Backend = detail::compiled_backend> [[nodiscard]] ndarray<V> sum() const {
    return cunp::sum<void, Backend>(data_);
  }
  /// scipy's sum(axis) of a coo_array: 1-d, as csr_matrix's.
  template <class Backend = detail::compiled_backend>
  [[nodiscard]] ndarray<V> sum(index_t axis) const {
    detail::sparse_axis(axis);
    return tocsr<Backend>().template sum<Backend>(axis);
  }

  /// scipy's copy(): new arrays on the same device.
  [[nodiscard]] coo_matrix copy() const {
    return coo_matrix(detail::unchecked, data_.copy(), row_.copy(), col_.copy(), shape_,
                      canonical_);
  }
  /// scipy's astype(U): the values converted (new arrays; the index type kept).
  template <class U, class Backend = detail::compiled_backend>
  [[nodiscard]] coo_matrix<U, I> astype() const {
    return coo_matrix<U, I>(detail::unchecked, data_.template astype<U, Backend>(), row_.copy(),
                            col_.copy(), shape_, canonical_);
  }
  /// The matrix on `dev` (this same matrix when it is already there).
  [[nodiscard]] coo_matrix to(cunp::device dev) const {
    if (dev == device()) return *this;
    return coo_matrix(detail::unchecked, data_.to(dev), row_.to(dev), col_.to(dev), shape_,
                      canonical_);
  }

 private:
  // Conversions add duplicates, a sort that a known canonical matrix can do without.
  [[nodiscard]] detail::compress_mode add_mode() const {
    return canonical_ ? detail::compress_mode::sort : detail::compress_mode::sum;
  }

  template <class Backend>
  void init(const ndarray<V>& data, const ndarray<I>& row, const ndarray<I>& col,
            std::optional<shape_t> shape) {
    if (data.ndim() != 1 || row.ndim() != 1 || col.ndim() != 1)
      throw value_error("row, column, and data arrays must be 1-D");
    detail::check_same_device(data.device(), row.device(), "a sparse matrix");
    detail::check_same_device(data.device(), col.device(), "a sparse matrix");
    row_ = detail::contiguous(row);
    col_ = detail::contiguous(col);
    data_ = detail::contiguous(data);
    const bool empty = row.size() == 0 || col.size() == 0;
    if (!shape && empty) throw value_error("cannot infer dimensions from zero sized index arrays");
    // The ranges are read when a shape is inferred or entries must be checked against one.
    detail::coo_report<I> r;
    if (!empty) r = detail::inspect_coo<Backend>(row_, col_);
    if (!shape) shape = shape_t{index_t(r.row_max) + 1, index_t(r.col_max) + 1};
    detail::check_sparse_shape<I>(*shape);
    shape_ = *shape;
    if (row.size() != data.size() || col.size() != data.size())
      throw value_error("all index and data arrays must have the same length");
    detail::check_index_fits<I>(data.size(), "a number of stored entries of");
    detail::check_coo(shape_, data.size(), r);
    canonical_ = false;
  }

  ndarray<V> data_;
  ndarray<I> row_, col_;
  shape_t shape_;
  bool canonical_ = false;
};

}  // namespace cunp::sparse

// The CUDA backend of the family, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/sparse/convert.cuh"
#include "cunp/detail/cuda/sparse/inspect.cuh"
#include "cunp/detail/cuda/sparse/reduce.cuh"
#endif
