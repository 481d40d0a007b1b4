// cunp/detail/cuda/sparse/descriptors.cuh: cuSPARSE's generic-API descriptors of cunp's arrays
// (RAII): a CSR matrix, a dense vector, a dense matrix (row- or column-major, from its strides),
// an SpGEMM computation; and cuSPARSE's names for cunp's value and index types.
//
// Descriptors are made for each call, not cached: they hold the arrays' addresses, and a cache
// keyed by addresses would hand a descriptor to a later array that reuses freed memory. Making
// one costs a host-side allocation, no device work.
#pragma once
#include <cusparse.h>

#include <complex>
#include <cstdint>
#include <type_traits>

#include "cunp/detail/cuda/core/cusparse.cuh"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::detail::cuda {

/// cuSPARSE's data type of T (also the compute type: products of T compute in T).
template <class T> constexpr cudaDataType_t sparse_data_type() {
  using V = std::remove_const_t<T>;
  static_assert(sparse_value_v<V>, "cuSPARSE's products take float, double and their complex");
  if constexpr (std::is_same_v<V, float>)
    return CUDA_R_32F;
  else if constexpr (std::is_same_v<V, double>)
    return CUDA_R_64F;
  else if constexpr (std::is_same_v<V, std::complex<float>>)
    return CUDA_C_32F;
  else
    return CUDA_C_64F;
}

/// cuSPARSE's index type of I (std::int32_t or std::int64_t).
template <class I> constexpr cusparseIndexType_t sparse_index_type() {
  return sizeof(I) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
}

/// A read-only CSR descriptor over the compressed arrays of a rows x cols matrix.
class const_csr_descr {
 public:
  template <class T, class I>
  const_csr_descr(index_t rows, index_t cols, const cs_arrays<T, I>& a) {
    CUNP_CUSPARSE_CHECK(cusparseCreateConstCsr(&d_, rows, cols, a.data.size(), a.indptr.data(),
                                               a.indices.data(), a.data.data(),
                                               sparse_index_type<I>(), sparse_index_type<I>(),
                                               CUSPARSE_INDEX_BASE_ZERO, sparse_data_type<T>()));
  }
  const_csr_descr(const const_csr_descr&) = delete;
  const_csr_descr& operator=(const const_csr_descr&) = delete;
  ~const_csr_descr() { cusparseDestroySpMat(d_); }
  operator cusparseConstSpMatDescr_t() const { return d_; }  // NOLINT: passed to cuSPARSE calls

 private:
  cusparseConstSpMatDescr_t d_ = nullptr;
};

/// A writable CSR descriptor of a rows x cols matrix whose arrays are set later (SpGEMM's
/// result: its indptr first, its indices and values once their size is known).
class csr_descr {
 public:
  template <class T, class I> csr_descr(index_t rows, index_t cols, I* indptr, T*) {
    CUNP_CUSPARSE_CHECK(cusparseCreateCsr(&d_, rows, cols, 0, indptr, nullptr, nullptr,
                                          sparse_index_type<I>(), sparse_index_type<I>(),
                                          CUSPARSE_INDEX_BASE_ZERO, sparse_data_type<T>()));
  }
  csr_descr(const csr_descr&) = delete;
  csr_descr& operator=(const csr_descr&) = delete;
  ~csr_descr() { cusparseDestroySpMat(d_); }
  operator cusparseSpMatDescr_t() const { return d_; }  // NOLINT

 private:
  cusparseSpMatDescr_t d_ = nullptr;
};

/// A dense vector descriptor over a contiguous 1-d array (read-only, or written when !Const).
template <bool Const> class dn_vec_descr {
 public:
  using handle = std::conditional_t<Const, cusparseConstDnVecDescr_t, cusparseDnVecDescr_t>;
  template <class T> explicit dn_vec_descr(const ndarray<T>& v) {
    if constexpr (Const)
      CUNP_CUSPARSE_CHECK(cusparseCreateConstDnVec(&d_, v.size(), v.data(), sparse_data_type<T>()));
    else
      CUNP_CUSPARSE_CHECK(cusparseCreateDnVec(&d_, v.size(), v.data(), sparse_data_type<T>()));
  }
  dn_vec_descr(const dn_vec_descr&) = delete;
  dn_vec_descr& operator=(const dn_vec_descr&) = delete;
  ~dn_vec_descr() { cusparseDestroyDnVec(d_); }
  operator handle() const { return d_; }  // NOLINT

 private:
  handle d_ = nullptr;
};

/// How a 2-d array (rows x cols, element (i, j) at i * rs + j * cs) lies for cuSPARSE: row-major
/// (order ROW, leading dimension ld between rows) or column-major (order COL, ld between
/// columns); fits is false when it is neither (no unit stride, or a leading dimension that
/// cuSPARSE does not take: smaller than the extent, negative, zero).
struct dense_layout {
  cusparseOrder_t order = CUSPARSE_ORDER_ROW;
  std::int64_t ld = 1;
  bool fits = false;
};
/// The array's layout in `order` (fits false when it cannot be read that way).
inline dense_layout dense_layout_in(cusparseOrder_t order, index_t rows, index_t cols, index_t rs,
                                    index_t cs) {
  const index_t r1 = rows > 1 ? rows : 1, c1 = cols > 1 ? cols : 1;
  if (order == CUSPARSE_ORDER_ROW && (cs == 1 || cols == 1)) {
    const index_t ld = rows == 1 ? c1 : rs;
    if (ld >= c1) return {CUSPARSE_ORDER_ROW, ld, true};
  }
  if (order == CUSPARSE_ORDER_COL && (rs == 1 || rows == 1)) {
    const index_t ld = cols == 1 ? r1 : cs;
    if (ld >= r1) return {CUSPARSE_ORDER_COL, ld, true};
  }
  return {};
}
/// The array's layout, row-major where both orders read it.
inline dense_layout dense_layout_of(index_t rows, index_t cols, index_t rs, index_t cs) {
  const dense_layout row = dense_layout_in(CUSPARSE_ORDER_ROW, rows, cols, rs, cs);
  return row.fits ? row : dense_layout_in(CUSPARSE_ORDER_COL, rows, cols, rs, cs);
}

/// A dense matrix descriptor of a rows x cols matrix laid out as `l` (read-only, or written when
/// !Const).
template <bool Const> class dn_mat_descr {
 public:
  using handle = std::conditional_t<Const, cusparseConstDnMatDescr_t, cusparseDnMatDescr_t>;
  template <class T> dn_mat_descr(index_t rows, index_t cols, const dense_layout& l, T* values) {
    if constexpr (Const)
      CUNP_CUSPARSE_CHECK(
          cusparseCreateConstDnMat(&d_, rows, cols, l.ld, values, sparse_data_type<T>(), l.order));
    else
      CUNP_CUSPARSE_CHECK(
          cusparseCreateDnMat(&d_, rows, cols, l.ld, values, sparse_data_type<T>(), l.order));
  }
  dn_mat_descr(const dn_mat_descr&) = delete;
  dn_mat_descr& operator=(const dn_mat_descr&) = delete;
  ~dn_mat_descr() { cusparseDestroyDnMat(d_); }
  operator handle() const { return d_; }  // NOLINT

 private:
  handle d_ = nullptr;
};

/// The state of one SpGEMM computation (work estimation, compute, copy).
class spgemm_descr {
 public:
  spgemm_descr() { CUNP_CUSPARSE_CHECK(cusparseSpGEMM_createDescr(&d_)); }
  spgemm_descr(const spgemm_descr&) = delete;
  spgemm_descr& operator=(const spgemm_descr&) = delete;
  ~spgemm_descr() { cusparseSpGEMM_destroyDescr(d_); }
  operator cusparseSpGEMMDescr_t() const { return d_; }  // NOLINT

 private:
  cusparseSpGEMMDescr_t d_ = nullptr;
};

}  // namespace cunp::detail::cuda
