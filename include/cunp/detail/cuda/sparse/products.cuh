// cunp/detail/cuda/sparse/products.cuh: the CUDA backend of the sparse products on cuSPARSE's
// generic API, and by a kernel of cunp's own (narrow_product.cuh) where that is faster: SpMV (a
// compressed matrix times a vector), SpMM (times a dense matrix, row- or column-major, the
// dense operand read in the result's order; cunp's for row-major blocks of up to 32 vectors),
// both with the sparse operand's transpose as cuSPARSE's operation flag, and SpGEMM (times
// another compressed matrix, in its two-phase work estimation / compute / copy). Workspaces come
// from the stream-ordered pool; descriptors are made per call (descriptors.cuh says why).
//
// cuSPARSE reads CSR with unsorted column indices and, in SpMV and SpMM, duplicates (each entry
// is a term of its own); SpGEMM is given canonical operands (sparse_products.hpp sees to it).
#pragma once
#include <cusparse.h>

#include <cstdint>

#include "cunp/detail/cuda/core/cusparse.cuh"
#include "cunp/detail/cuda/core/read_back.cuh"
#include "cunp/detail/cuda/core/workspace.cuh"
#include "cunp/detail/cuda/sparse/arithmetic.cuh"
#include "cunp/detail/cuda/sparse/descriptors.cuh"
#include "cunp/detail/cuda/sparse/narrow_product.cuh"
#include "cunp/detail/sparse/format.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/reduce.hpp"

namespace cunp::detail {

namespace cuda {

inline cusparseOperation_t sparse_op(bool transpose) {
  return transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
}

/// SpMV's algorithm. CSR_ALG2 gives the same bits on every run (ALG1 may not: it splits long
/// rows between blocks); for op(A) = A^T both run alike, so the transpose takes ALG1. A
/// configuration an algorithm does not take falls back to the default (sparse_matvec).
/// bench_sparse's raw rows time ALG1 and ALG2 on the same matrix.
inline cusparseSpMVAlg_t spmv_algorithm(bool transpose) {
  return transpose ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
}

/// SpMM's algorithm for C = op(A) op(B) with C of `order`. CSR_ALG2 is cuSPARSE's row-major
/// kernel (deterministic, fast for the few columns a block of vectors has); the default picks
/// for every other case. A configuration an algorithm does not take falls back to the default
/// (sparse_matmat).
inline cusparseSpMMAlg_t spmm_algorithm(bool transpose, cusparseOrder_t order) {
  return !transpose && order == CUSPARSE_ORDER_ROW ? CUSPARSE_SPMM_CSR_ALG2
                                                   : CUSPARSE_SPMM_ALG_DEFAULT;
}

}  // namespace cuda

/// y = op(A) x on cuSPARSE (the cpu backend, detail/cpu/sparse/products.hpp, says what each
/// argument is); x of any stride (a strided one is copied: a dense vector descriptor has none).
template <class T, class I>
void sparse_matvec(cuda_backend, index_t rows, index_t cols, const cs_arrays<T, I>& a,
                   bool transpose, const ndarray<T>& x, const ndarray<T>& y) {
  if (y.size() == 0) return;
  if (a.data.size() == 0 || x.size() == 0) {  // no terms (cuSPARSE takes no empty matrix)
    y.fill(T(0));
    return;
  }
  const cuda::on_device on(y.device());
  const cusparseHandle_t h = cuda::cusparse_handle(on.dev);
  const ndarray<T> xc = contiguous(x);
  const cuda::const_csr_descr A(rows, cols, a);
  const cuda::dn_vec_descr<true> X(xc);
  const cuda::dn_vec_descr<false> Y(y);
  const T alpha(1), beta(0);
  const cusparseOperation_t op = cuda::sparse_op(transpose);
  cusparseSpMVAlg_t alg = cuda::spmv_algorithm(transpose);
  constexpr cudaDataType_t type = cuda::sparse_data_type<T>();
  std::size_t bytes = 0;
  cusparseStatus_t s = cusparseSpMV_bufferSize(h, op, &alpha, A, X, &beta, Y, type, alg, &bytes);
  if (s == CUSPARSE_STATUS_NOT_SUPPORTED && alg != CUSPARSE_SPMV_ALG_DEFAULT) {
    alg = CUSPARSE_SPMV_ALG_DEFAULT;
    s = cusparseSpMV_bufferSize(h, op, &alpha, A, X, &beta, Y, type, alg, &bytes);
  }
  cuda::check_cusparse(s, "cusparseSpMV_bufferSize");
  const cuda::workspace work(on.dev, bytes);
  // No cusparseSpMV_preprocess: its analysis belongs to the matrix's arrays, and nothing here
  // outlives the call to keep it for the next one with the same matrix.
  CUNP_CUSPARSE_CHECK(cusparseSpMV(h, op, &alpha, A, X, &beta, Y, type, alg, work.data()));
}

/// c = op(A) b: b (op(A)'s cols x n) of any strides, read where it lies when it lies in c's order
/// (row- or column-major), else copied into c's order first; c (op(A)'s rows x n) row- or
/// column-major. A row-major product of up to narrow_product_columns columns with A itself is
/// cunp's kernel (narrow_product.cuh says why), every other one cuSPARSE's SpMM. The copy moves
/// k x n values where the product reads n per stored entry, and cuSPARSE's products with
/// op(B) = B^T ran 2.4 times slower than a copy and the row-major kernel (bench_sparse's
/// spmm8_colmajor row, RESULTS.md). An algorithm that does not take the configuration falls
/// back to the default one.
template <class T, class I>
void sparse_matmat(cuda_backend, index_t rows, index_t cols, const cs_arrays<T, I>& a,
                   bool transpose, const ndarray<T>& b, const ndarray<T>& c) {
  const index_t m = c.shape()[0], n = c.shape()[1], k = b.shape()[0];
  if (c.size() == 0) return;
  if (a.data.size() == 0 || k == 0) {
    c.fill(T(0));
    return;
  }
  const cuda::dense_layout lc = cuda::dense_layout_of(m, n, c.strides()[0], c.strides()[1]);
  if (!lc.fits) throw value_error("sparse_matmat: the result must be row- or column-major");
  // b read in c's order (a 1 x n or k x 1 b is both orders at once, each with its own ld)
  const auto in_c_order = [&](const ndarray<T>& x) {
    return cuda::dense_layout_in(lc.order, k, n, x.strides()[0], x.strides()[1]);
  };
  const bool as_is = in_c_order(b).fits;
  const ndarray<T> bb = as_is                            ? b
                        : lc.order == CUSPARSE_ORDER_ROW ? b.copy()
                                                         : b.T().copy().T();
  const cuda::dense_layout lb = in_c_order(bb);
  const cuda::on_device on(c.device());
  if (!transpose && lc.order == CUSPARSE_ORDER_ROW && n <= cuda::narrow_product_columns) {
    cuda::narrow_product(rows, a, static_cast<const T*>(bb.data()), lb.ld, n, c.data(), lc.ld,
                         on.dev);
    return;
  }
  const cusparseHandle_t h = cuda::cusparse_handle(on.dev);
  const cuda::const_csr_descr A(rows, cols, a);
  const cuda::dn_mat_descr<true> B(k, n, lb, static_cast<const T*>(bb.data()));
  const cuda::dn_mat_descr<false> C(m, n, lc, c.data());
  const T alpha(1), beta(0);
  const cusparseOperation_t op_a = cuda::sparse_op(transpose);
  constexpr cusparseOperation_t op_b = CUSPARSE_OPERATION_NON_TRANSPOSE;
  constexpr cudaDataType_t type = cuda::sparse_data_type<T>();
  cusparseSpMMAlg_t alg = cuda::spmm_algorithm(transpose, lc.order);
  std::size_t bytes = 0;
  cusparseStatus_t s =
      cusparseSpMM_bufferSize(h, op_a, op_b, &alpha, A, B, &beta, C, type, alg, &bytes);
  if (s == CUSPARSE_STATUS_NOT_SUPPORTED && alg != CUSPARSE_SPMM_ALG_DEFAULT) {
    alg = CUSPARSE_SPMM_ALG_DEFAULT;
    s = cusparseSpMM_bufferSize(h, op_a, op_b, &alpha, A, B, &beta, C, type, alg, &bytes);
  }
  cuda::check_cusparse(s, "cusparseSpMM_bufferSize");
  const cuda::workspace work(on.dev, bytes);
  CUNP_CUSPARSE_CHECK(cusparseSpMM(h, op_a, op_b, &alpha, A, B, &beta, C, type, alg, work.data()));
}

/// The product of A (rows x inner) and B (inner x cols), canonical compressed arrays, as
/// canonical CSR arrays, by cuSPARSE's SpGEMM: work estimation, compute (both with their buffers
/// from the pool, kept to the end), the result's size (cuSPARSE knows it on the host, so the
/// call waits for the device), copy. Exact zero sums are then left out, as scipy's csr_matmat
/// leaves them (cuSPARSE keeps every structural entry): a second wait, to count them.
template <class T, class I>
cs_arrays<T, I> sparse_matmat_sparse(cuda_backend be, index_t rows, index_t cols,
                                     const cs_arrays<T, I>& a, const cs_arrays<T, I>& b) {
  const cunp::device dev = a.indptr.device();
  const index_t inner = b.indptr.size() - 1;
  if (a.data.size() == 0 || b.data.size() == 0 || cols == 0) {
    cs_arrays<T, I> empty{ndarray<T>({0}, dev), ndarray<I>({0}, dev), ndarray<I>({rows + 1}, dev)};
    empty.indptr.fill(I(0));
    return empty;
  }
  check_synchronize_allowed("a sparse matrix product (its size is known after the device's work)");
  const cuda::on_device on(dev);
  const cusparseHandle_t h = cuda::cusparse_handle(on.dev);
  cs_arrays<T, I> c;
  c.indptr = ndarray<I>({rows + 1}, dev);
  const cuda::const_csr_descr A(rows, inner, a), B(inner, cols, b);
  const cuda::csr_descr C(rows, cols, c.indptr.data(), static_cast<T*>(nullptr));
  const cuda::spgemm_descr d;
  const T alpha(1), beta(0);
  constexpr cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  constexpr cudaDataType_t type = cuda::sparse_data_type<T>();
  constexpr cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  std::size_t bytes1 = 0, bytes2 = 0;
  CUNP_CUSPARSE_CHECK(cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, B, &beta, C, type, alg, d,
                                                    &bytes1, nullptr));
  const cuda::workspace work1(on.dev, bytes1);
  CUNP_CUSPARSE_CHECK(cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, B, &beta, C, type, alg, d,
                                                    &bytes1, work1.data()));
  CUNP_CUSPARSE_CHECK(
      cusparseSpGEMM_compute(h, op, op, &alpha, A, B, &beta, C, type, alg, d, &bytes2, nullptr));
  const cuda::workspace work2(on.dev, bytes2);
  CUNP_CUSPARSE_CHECK(cusparseSpGEMM_compute(h, op, op, &alpha, A, B, &beta, C, type, alg, d,
                                             &bytes2, work2.data()));
  std::int64_t c_rows = 0, c_cols = 0, nnz = 0;
  CUNP_CUSPARSE_CHECK(cusparseSpMatGetSize(C, &c_rows, &c_cols, &nnz));
  check_index_fits<I>(nnz, "the product's number of stored entries,");
  c.indices = ndarray<I>({nnz}, dev);
  c.data = ndarray<T>({nnz}, dev);
  CUNP_CUSPARSE_CHECK(cusparseCsrSetPointers(C, c.indptr.data(), c.indices.data(), c.data.data()));
  CUNP_CUSPARSE_CHECK(cusparseSpGEMM_copy(h, op, op, &alpha, A, B, &beta, C, type, alg, d));
  // Exact zero sums are rare: counted first (a reduction and a second wait), the entries are
  // copied without them only when there are some (the merge's pass, a thread a row, cost a
  // third of cuSPARSE's time on bench_sparse's spgemm row).
  if (cunp::count_nonzero<cuda_backend>(c.data).item() == nnz) return c;
  return sparse_merge(be, rows, c, cs_arrays<T, I>{}, merge_op::first, true, true);
}

}  // namespace cunp::detail
