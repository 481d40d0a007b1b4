// bench/bench_sparse.cpp: scipy.sparse on the GPU (issue 23's rows) against the raw cuSPARSE call
// on the same matrix in the same run; bench/cupy/cupy_sparse.py times CuPy on the same rows.
//
// Names are <op>/<impl>/<dtype>/<rows>, the keys bench/merge_results.py joins with
// cupy_sparse.py's output. Every row's matrix comes from bench_csr (below), and cupy_sparse.py's
// bench_csr builds the same one: rows x cols, `per_row` entries in every row, column k of the
// whole matrix splitmix64(seed_cols + (k + 1) * gamma) % cols (unsorted within a row, repeats
// possible), value k in [-1, 1) from 24 bits of a second stream, so both sides time one matrix.
//
// - csr_to_csc/<impl>/float32/4194304: CSR -> CSC of a 4M x 4M matrix with 16 entries a row
//   (64M entries). impl cunp: A.tocsc() (for float32 with 32-bit indices one radix sort of the
//   entries packed with their rows, its outputs fresh from the pool each call); raw: cusparseCsr2cscEx2 alone, its handle, work buffer and
//   outputs made outside the timing; cunp_sort: cunp's other transposition (a stable CUB radix
//   sort of the entries by column, the 64-bit indices' path) on the same matrix, for the choice
//   between the two. The target: cunp <= 0.5 x CuPy's time (CuPy 5.85 ms on the H200).
//   GB/s counts the bytes moved at least: the three arrays read once and written once.
// - spmv/<impl>/float32/4194304: A @ x of that matrix in canonical form (summed once before:
//   CuPy's spmv sums A in place on its first call), x random. impl cunp: cunp::matmul (cunp's
//   row kernel, 16 lanes a row here: deterministic); raw_alg1, raw_alg2: cusparseSpMV alone with
//   that algorithm, its descriptors, work buffer and output made outside the timing. Target: <=
//   CuPy 14.2's 0.598 ms. GB/s counts the byte floor: values, column indices, row pointers, x and y
//   each moved once (x's gathers move more: each reads a 32-byte sector for 4 bytes).
// - spmm8/<impl>/float32/4194304: A @ X with X 4M x 8, C-ordered (cunp: its narrow row kernel,
//   8 lanes a row, one a column; raw: cuSPARSE's row-major SpMM, CSR_ALG2, alone);
//   spmm8_colmajor/cunp: X a transposed view (column-major, as CuPy lays its operand out: copied
//   into the result's order first). Target: <= 0.33 x CuPy's 11.6 ms. GB/s:
//   A's arrays, X and the result once each.
// - spgemm/<impl>/float32/262144: A @ A for a canonical 256k x 256k matrix with 16 entries a
//   row. cunp: cunp::matmul (cuSPARSE SpGEMM, then the exact zeros scipy leaves out left out: a
//   count pass, nothing rewritten when there are none); raw: cuSPARSE's work estimation,
//   compute and copy alone, fresh buffers and result each call. Both wait for the device (the
//   result's size): the launch is not hidden. Target: <= CuPy's 9.7 ms. Counter nnz_out.
// - add/cunp/float32/4194304: A + B of two such 4M matrices (canonical), cunp's line merge
//   (count, scan, write; one wait for the size); no cuSPARSE peer (no generic sum).
// - eigsh6/<impl>/float64/65536: eigsh(S, 6, which="LA") of S = A + A^T, A bench_csr's
//   65536 x 65536 float64 matrix with 8 entries a row (cupy_sparse.py builds the same), cunp's
//   thick-restart Lanczos at scipy's Krylov dimension (ncv 20). Its largest eigenvalues are
//   spaced about n^(-2/3) of the spectrum apart; the 1-d Laplacian these rows used first (1e-9
//   apart) took neither scipy nor CuPy to the end in minutes. The anchor: CuPy 4701 ms
//   on its matrix. eigsh6_ncv38: the same with ncv = 38, CuPy's default Krylov dimension
//   (k + 32). Checked: max |S V - V diag(w)| <= 1e-8 max |w|.
// Results are checked before timing: cunp's and the sort's arrays equal the raw call's; the
// products' values equal the raw call's (max |difference| / max |value| <= 1e-5, the raw call
// adding in another order), SpGEMM's indices equal.
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cunp/sparse.hpp"

namespace {

using namespace cunp_bench;
using benchmark::State;

const cunp::device gpu0 = cunp::cuda(0);

/// The k-th output (k from 0) of the splitmix64 sequence that starts at `seed`: a counter-based
/// form, so that numpy computes the same numbers in one vectorised expression.
std::uint64_t splitmix_at(std::uint64_t seed, std::uint64_t k) {
  std::uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The benchmarks' one matrix builder (cupy_sparse.py's bench_csr builds the same): rows x cols,
/// per_row entries a row, on cuda(0).
template <class T, class I = std::int32_t>
cunp::sparse::csr_matrix<T, I> bench_csr(index_t rows, index_t cols, index_t per_row,
                                         std::uint64_t seed = 1) {
  const index_t nnz = rows * per_row;
  std::vector<T> data(static_cast<std::size_t>(nnz));
  std::vector<I> indices(static_cast<std::size_t>(nnz)), indptr(static_cast<std::size_t>(rows) + 1);
#pragma omp parallel for schedule(static)
  for (index_t k = 0; k < nnz; ++k) {
    indices[k] = static_cast<I>(splitmix_at(seed, k) % static_cast<std::uint64_t>(cols));
    data[k] = static_cast<T>(double(splitmix_at(seed + 1, k) >> 40) * 0x1p-23 - 1.0);
  }
  for (index_t r = 0; r <= rows; ++r) indptr[r] = static_cast<I>(r * per_row);
  return cunp::sparse::csr_matrix<T, I>(cunp::asarray(data, {nnz}, gpu0),
                                        cunp::asarray(indices, {nnz}, gpu0),
                                        cunp::asarray(indptr, {rows + 1}, gpu0), {rows, cols});
}

/// The bytes a CSR <-> CSC conversion moves at least: both matrices' arrays, once each.
template <class T, class I> double transpose_bytes(index_t rows, index_t cols, index_t nnz) {
  return double(nnz) * 2 * (sizeof(T) + sizeof(I)) + double(rows + cols + 2) * sizeof(I);
}

/// The shared matrix of the csr_to_csc rows (64M entries: built once).
const cunp::sparse::csr_matrix<float>& csr_4m() {
  static const auto a = bench_csr<float>(index_t(1) << 22, index_t(1) << 22, 16);
  return a;
}

/// Whether two matrices' arrays are equal (read back to the host).
template <class M1, class M2> bool same_arrays(const M1& a, const M2& b) {
  return a.data().to_vector() == b.data().to_vector() &&
         a.indices().to_vector() == b.indices().to_vector() &&
         a.indptr().to_vector() == b.indptr().to_vector();
}

/// cusparseCsr2cscEx2 on a's arrays into kept outputs: the handle, buffer and outputs made once.
struct raw_csr2csc {
  const cunp::sparse::csr_matrix<float>& a;
  cusparseHandle_t h = nullptr;
  ndarray<float> data;
  ndarray<std::int32_t> indices, indptr;
  ndarray<std::uint8_t> buffer;

  explicit raw_csr2csc(const cunp::sparse::csr_matrix<float>& m)
      : a(m), data({m.nnz()}, gpu0), indices({m.nnz()}, gpu0), indptr({m.shape()[1] + 1}, gpu0) {
    cusparseCreate(&h);
    cusparseSetStream(h, cunp::detail::cuda::current_stream(0));
    std::size_t bytes = 0;
    cusparseCsr2cscEx2_bufferSize(
        h, int(a.shape()[0]), int(a.shape()[1]), int(a.nnz()), a.data().data(), a.indptr().data(),
        a.indices().data(), data.data(), indptr.data(), indices.data(), CUDA_R_32F,
        CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes);
    buffer = ndarray<std::uint8_t>({index_t(bytes) + 1}, gpu0);
  }
  raw_csr2csc(const raw_csr2csc&) = delete;
  raw_csr2csc& operator=(const raw_csr2csc&) = delete;
  ~raw_csr2csc() { cusparseDestroy(h); }
  void operator()() const {
    cusparseCsr2cscEx2(h, int(a.shape()[0]), int(a.shape()[1]), int(a.nnz()), a.data().data(),
                       a.indptr().data(), a.indices().data(), data.data(), indptr.data(),
                       indices.data(), CUDA_R_32F, CUSPARSE_ACTION_NUMERIC,
                       CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buffer.data());
  }
};

void csr_to_csc_cunp(State& s) {
  const auto& a = csr_4m();
  raw_csr2csc raw(a);
  raw();
  if (!same_arrays(a.tocsc(), cunp::sparse::csc_matrix<float>(cunp::detail::unchecked,
                                                              {raw.data, raw.indices, raw.indptr},
                                                              a.shape(), nullptr))) {
    s.SkipWithError("tocsc differs from cusparseCsr2cscEx2");
    return;
  }
  gpu_loop(s,
           {transpose_bytes<float, std::int32_t>(a.shape()[0], a.shape()[1], a.nnz()),
            against::copy_ceiling, true},
           [&] { consume(a.tocsc().data()); });
}

void csr_to_csc_raw(State& s) {
  const auto& a = csr_4m();
  raw_csr2csc raw(a);
  gpu_loop(s,
           {transpose_bytes<float, std::int32_t>(a.shape()[0], a.shape()[1], a.nnz()),
            against::copy_ceiling, true},
           [&] { raw(); });
}

void csr_to_csc_sort(State& s) {
  const auto& a = csr_4m();
  const index_t rows = a.shape()[0], cols = a.shape()[1];
  cunp::sparse::csc_matrix<float> out(
      cunp::detail::unchecked,
      {ndarray<float>({a.nnz()}, gpu0), ndarray<std::int32_t>({a.nnz()}, gpu0),
       ndarray<std::int32_t>({cols + 1}, gpu0)},
      a.shape(), nullptr);
  const auto run = [&] {
    cunp::detail::cuda::transpose_by_sort(rows, cols, a.indptr(), a.indices(), a.data(),
                                          out.indptr(), out.indices(), out.data());
  };
  run();
  if (!same_arrays(out, a.tocsc())) {
    s.SkipWithError("the sort's transposition differs from tocsc");
    return;
  }
  gpu_loop(s,
           {transpose_bytes<float, std::int32_t>(rows, cols, a.nnz()), against::copy_ceiling, true},
           run);
}

// --- products (engineer B's rows)

/// The 4M matrix in canonical form (summed once, as CuPy's spmv and spgemm sum theirs in place).
const cunp::sparse::csr_matrix<float>& csr_4m_canonical() {
  static const auto a = [] {
    auto c = csr_4m().copy();
    c.sum_duplicates();
    return c;
  }();
  return a;
}

/// max |got - want| / max |want|: a products' check that tolerates another order of additions.
template <class T> double relative_difference(const ndarray<T>& got, const ndarray<T>& want) {
  const auto g = got.to_vector(), w = want.to_vector();
  if (g.size() != w.size()) return std::numeric_limits<double>::infinity();
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    diff = std::max(diff, double(std::abs(g[i] - w[i])));
    scale = std::max(scale, double(std::abs(w[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

/// Random values in [-1, 1) from 24 bits of the splitmix64 stream at `seed` (bench_csr's rule;
/// cupy_sparse.py's dense_operand makes the same).
ndarray<float> dense_operand(const shape_t& shape, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(cunp::shape_size(shape)));
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < v.size(); ++k)
    v[k] = static_cast<float>(double(splitmix_at(seed, k) >> 40) * 0x1p-23 - 1.0);
  return cunp::asarray(v, shape, cunp::cpu).to(gpu0);
}

/// The byte floor of op(A) times n dense columns: A's three arrays, the dense operand and the
/// result once each.
double product_bytes(const cunp::sparse::csr_matrix<float>& a, index_t n) {
  return double(a.nnz()) * 8 + double(a.shape()[0] + 1) * 4 +
         double(a.shape()[1] + a.shape()[0]) * 4 * double(n);
}

/// A cuSPARSE handle on the current stream of cuda(0), for the raw rows.
struct raw_handle {
  cusparseHandle_t h = nullptr;
  raw_handle() {
    cusparseCreate(&h);
    cusparseSetStream(h, cunp::detail::cuda::current_stream(0));
  }
  raw_handle(const raw_handle&) = delete;
  raw_handle& operator=(const raw_handle&) = delete;
  ~raw_handle() { cusparseDestroy(h); }
};

/// A's CSR descriptor (32-bit indices, float32 values) for the raw rows.
cusparseSpMatDescr_t raw_csr(const cunp::sparse::csr_matrix<float>& a) {
  cusparseSpMatDescr_t d = nullptr;
  cusparseCreateCsr(&d, a.shape()[0], a.shape()[1], a.nnz(), a.indptr().data(), a.indices().data(),
                    a.data().data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  return d;
}

/// cusparseSpMV with `alg` on A's arrays into a kept y: descriptors and buffer made once.
struct raw_spmv {
  raw_handle handle;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  cusparseSpMVAlg_t alg;
  ndarray<float> out;
  ndarray<std::uint8_t> buffer;
  float alpha = 1, beta = 0;

  raw_spmv(const cunp::sparse::csr_matrix<float>& m, const ndarray<float>& xv, cusparseSpMVAlg_t al)
      : a(raw_csr(m)), alg(al), out({m.shape()[0]}, gpu0) {
    cusparseCreateDnVec(&x, xv.size(), xv.data(), CUDA_R_32F);
    cusparseCreateDnVec(&y, out.size(), out.data(), CUDA_R_32F);
    std::size_t bytes = 0;
    cusparseSpMV_bufferSize(handle.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, x, &beta, y,
                            CUDA_R_32F, alg, &bytes);
    buffer = ndarray<std::uint8_t>({index_t(bytes) + 1}, gpu0);
  }
  raw_spmv(const raw_spmv&) = delete;
  raw_spmv& operator=(const raw_spmv&) = delete;
  ~raw_spmv() {
    cusparseDestroySpMat(a);
    cusparseDestroyDnVec(x);
    cusparseDestroyDnVec(y);
  }
  void operator()() {
    cusparseSpMV(handle.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, x, &beta, y, CUDA_R_32F,
                 alg, buffer.data());
  }
};

const ndarray<float>& x_4m() {
  static const auto x = dense_operand({index_t(1) << 22}, 3);
  return x;
}

void spmv_cunp(State& s) {
  const auto& a = csr_4m_canonical();
  const auto& x = x_4m();
  raw_spmv raw(a, x, CUSPARSE_SPMV_CSR_ALG1);
  raw();
  if (relative_difference(cunp::matmul(a, x), raw.out) > 1e-5) {
    s.SkipWithError("cunp's SpMV differs from cusparseSpMV");
    return;
  }
  gpu_loop(s, {product_bytes(a, 1), against::copy_ceiling, true},
           [&] { consume(cunp::matmul(a, x)); });
}

void spmv_raw(State& s, cusparseSpMVAlg_t alg) {
  const auto& a = csr_4m_canonical();
  raw_spmv raw(a, x_4m(), alg);
  gpu_loop(s, {product_bytes(a, 1), against::copy_ceiling, true}, [&] { raw(); });
}

const ndarray<float>& x_4m_by_8() {
  static const auto x = dense_operand({index_t(1) << 22, 8}, 4);
  return x;
}

/// cusparseSpMM with CSR_ALG2 on row-major X and C: descriptors and buffer made once.
struct raw_spmm {
  raw_handle handle;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnMatDescr_t b = nullptr, c = nullptr;
  ndarray<float> out;
  ndarray<std::uint8_t> buffer;
  float alpha = 1, beta = 0;

  raw_spmm(const cunp::sparse::csr_matrix<float>& m, const ndarray<float>& x)
      : a(raw_csr(m)), out({m.shape()[0], x.shape()[1]}, gpu0) {
    const index_t n = x.shape()[1];
    cusparseCreateDnMat(&b, x.shape()[0], n, n, x.data(), CUDA_R_32F, CUSPARSE_ORDER_ROW);
    cusparseCreateDnMat(&c, out.shape()[0], n, n, out.data(), CUDA_R_32F, CUSPARSE_ORDER_ROW);
    std::size_t bytes = 0;
    cusparseSpMM_bufferSize(handle.h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                            CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, b, &beta, c, CUDA_R_32F,
                            CUSPARSE_SPMM_CSR_ALG2, &bytes);
    buffer = ndarray<std::uint8_t>({index_t(bytes) + 1}, gpu0);
  }
  raw_spmm(const raw_spmm&) = delete;
  raw_spmm& operator=(const raw_spmm&) = delete;
  ~raw_spmm() {
    cusparseDestroySpMat(a);
    cusparseDestroyDnMat(b);
    cusparseDestroyDnMat(c);
  }
  void operator()() {
    cusparseSpMM(handle.h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                 &alpha, a, b, &beta, c, CUDA_R_32F, CUSPARSE_SPMM_CSR_ALG2, buffer.data());
  }
};

void spmm8_cunp(State& s, bool column_major) {
  const auto& a = csr_4m_canonical();
  const auto& xr = x_4m_by_8();
  // The column-major operand: the transpose of an 8 x 4M C-ordered copy.
  const ndarray<float> x = column_major ? cunp::ascontiguousarray(xr.T()).T() : xr;
  raw_spmm raw(a, xr);
  raw();
  if (relative_difference(cunp::matmul(a, x), raw.out) > 1e-5) {
    s.SkipWithError("cunp's SpMM differs from cusparseSpMM");
    return;
  }
  gpu_loop(s, {product_bytes(a, 8), against::copy_ceiling, true},
           [&] { consume(cunp::matmul(a, x)); });
}

void spmm8_raw(State& s) {
  const auto& a = csr_4m_canonical();
  raw_spmm raw(a, x_4m_by_8());
  gpu_loop(s, {product_bytes(a, 8), against::copy_ceiling, true}, [&] { raw(); });
}

const cunp::sparse::csr_matrix<float>& csr_256k_canonical() {
  static const auto a = [] {
    auto c = bench_csr<float>(index_t(1) << 18, index_t(1) << 18, 16, 5);
    c.sum_duplicates();
    return c;
  }();
  return a;
}

/// A @ A by cuSPARSE's SpGEMM alone (the default algorithm, as cunp's): fresh buffers and result
/// arrays each call, as the result's size is not known before.
cunp::sparse::csr_matrix<float> raw_spgemm(const cunp::sparse::csr_matrix<float>& m) {
  static raw_handle handle;
  const cusparseHandle_t h = handle.h;
  const index_t n = m.shape()[0];
  cusparseSpMatDescr_t a = raw_csr(m), c = nullptr;
  ndarray<std::int32_t> indptr({n + 1}, gpu0);
  cusparseCreateCsr(&c, n, n, 0, indptr.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseSpGEMMDescr_t d = nullptr;
  cusparseSpGEMM_createDescr(&d);
  const float alpha = 1, beta = 0;
  constexpr auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  std::size_t bytes1 = 0, bytes2 = 0;
  cusparseSpGEMM_workEstimation(h, op, op, &alpha, a, a, &beta, c, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &bytes1, nullptr);
  const ndarray<std::uint8_t> buf1({index_t(bytes1) + 1}, gpu0);
  cusparseSpGEMM_workEstimation(h, op, op, &alpha, a, a, &beta, c, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &bytes1, buf1.data());
  cusparseSpGEMM_compute(h, op, op, &alpha, a, a, &beta, c, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, d,
                         &bytes2, nullptr);
  const ndarray<std::uint8_t> buf2({index_t(bytes2) + 1}, gpu0);
  cusparseSpGEMM_compute(h, op, op, &alpha, a, a, &beta, c, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, d,
                         &bytes2, buf2.data());
  std::int64_t rows = 0, cols = 0, nnz = 0;
  cusparseSpMatGetSize(c, &rows, &cols, &nnz);
  ndarray<std::int32_t> indices({nnz}, gpu0);
  ndarray<float> data({nnz}, gpu0);
  cusparseCsrSetPointers(c, indptr.data(), indices.data(), data.data());
  cusparseSpGEMM_copy(h, op, op, &alpha, a, a, &beta, c, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, d);
  cusparseSpGEMM_destroyDescr(d);
  cusparseDestroySpMat(a);
  cusparseDestroySpMat(c);
  return {cunp::detail::unchecked, {data, indices, indptr}, {n, n}, nullptr};
}

void spgemm_cunp(State& s) {
  const auto& a = csr_256k_canonical();
  const auto raw = raw_spgemm(a);
  const auto got = cunp::matmul(a, a);
  if (got.indices().to_vector() != raw.indices().to_vector() ||
      got.indptr().to_vector() != raw.indptr().to_vector() ||
      relative_difference(got.data(), raw.data()) > 1e-5) {
    s.SkipWithError("cunp's SpGEMM differs from cuSPARSE's");
    return;
  }
  s.counters["nnz_out"] = double(got.nnz());
  gpu_loop(s, {}, [&] { consume(cunp::matmul(a, a).data()); });
}

void spgemm_raw(State& s) {
  const auto& a = csr_256k_canonical();
  s.counters["nnz_out"] = double(raw_spgemm(a).nnz());
  gpu_loop(s, {}, [&] { consume(raw_spgemm(a).data()); });
}

void add_cunp(State& s) {
  const auto& a = csr_4m_canonical();
  static const auto b = [] {
    auto c = bench_csr<float>(index_t(1) << 22, index_t(1) << 22, 16, 7);
    c.sum_duplicates();
    return c;
  }();
  const auto sum = a + b;
  const auto& x = x_4m();  // (A + B) x against A x + B x
  const ndarray<float> want = cunp::matmul(a, x) + cunp::matmul(b, x);
  if (relative_difference(cunp::matmul(sum, x), want) > 1e-5) {
    s.SkipWithError("(A + B) x differs from A x + B x");
    return;
  }
  gpu_loop(s,
           {double(a.nnz() + b.nnz() + sum.nnz()) * 8 + double(3 * (a.shape()[0] + 1)) * 4,
            against::copy_ceiling},
           [&] { consume((a + b).data()); });
}

/// eigsh's matrix: A + A^T of bench_csr's 65536 x 65536 matrix with 8 entries a row (about 16
/// a row), float64 (cupy_sparse.py's eigsh_matrix is the same).
cunp::sparse::csr_matrix<double> eigsh_matrix() {
  const auto a = bench_csr<double>(65536, 65536, 8);
  return a + a.T();
}

void eigsh6_cunp(State& s, index_t ncv) {
  const auto a = eigsh_matrix();
  const cunp::sparse::linalg::eigsh_options<double> opts{.which = "LA", .ncv = ncv};
  const auto r = cunp::sparse::linalg::eigsh(a, 6, opts);
  const double top = cunp::max(cunp::abs(r.eigenvalues)).item();
  const double resid =
      cunp::max(cunp::abs(cunp::matmul(a, r.eigenvectors) - r.eigenvectors * r.eigenvalues)).item();
  if (!(resid <= 1e-8 * top)) {
    s.SkipWithError("eigsh's eigenpairs leave a residual over 1e-8 of the largest eigenvalue");
    return;
  }
  // (seconds a call: the checked call above is the warm-up)
  gpu_loop(s, {.warmup = 0}, [&] { consume(cunp::sparse::linalg::eigsh(a, 6, opts).eigenvalues); });
}

// cg and gmres on diags(-1, 2, -1), 2^20 x 2^20 float64 (int32 indices), b = ones: 200
// iterations (rtol 1e-30: none converges), as CuPy's rows in cupy_sparse.py. The byte floor of a
// cg iteration is SpMV's 56 B a row (3 values 24, 3 indices 12, indptr 4, x 8, y 8) plus the
// vector steps' 96 B a row (r . r 8, p = r + beta p 24, p . q 16, x += alpha p and r -= alpha q
// 48): 152 B a row, 160 MB an iteration; the matrix and five vectors (80 MB) do not fit L2.
// gmres's iteration j adds 2 (j + 1) passes over the basis (Gram-Schmidt) to its SpMV.
cunp::sparse::csr_matrix<double> laplacian_1d(index_t n) {
  const auto ones = [&](double v) { return cunp::full<double>({n}, v, gpu0); };
  return cunp::sparse::diags(std::vector<ndarray<double>>{ones(-1), ones(2), ones(-1)}, {-1, 0, 1},
                             cunp::shape_t{n, n});
}

void cg200_cunp(State& s) {
  const index_t n = index_t(1) << 20;
  const auto a = laplacian_1d(n);
  const ndarray<double> b = cunp::ones<double>({n}, gpu0);
  if (cunp::sparse::linalg::cg(a, b, {.rtol = 1e-30, .maxiter = 200}).info != 200) {
    s.SkipWithError("cg converged before its 200 iterations");
    return;
  }
  gpu_loop(s, {200.0 * 152.0 * double(n), against::copy_ceiling},
           [&] { consume(cunp::sparse::linalg::cg(a, b, {.rtol = 1e-30, .maxiter = 200}).x); });
}

void gmres200_cunp(State& s) {
  const index_t n = index_t(1) << 20;
  const auto a = laplacian_1d(n);
  const ndarray<double> b = cunp::ones<double>({n}, gpu0);
  const cunp::sparse::linalg::gmres_options<double> o{.rtol = 1e-30, .restart = 20, .maxiter = 10};
  if (cunp::sparse::linalg::gmres(a, b, o).info != 10) {
    s.SkipWithError("gmres converged before its 10 cycles of 20");
    return;
  }
  // Per cycle of 20: 21 SpMVs (56 B a row) and Gram-Schmidt's 2 (j + 1) + 2 passes of 16-24 B.
  gpu_loop(s, {10.0 * (21.0 * 56.0 + 250.0 * 16.0) * double(n), against::copy_ceiling},
           [&] { consume(cunp::sparse::linalg::gmres(a, b, o).x); });
}

void register_benchmarks() {
  using benchmark::RegisterBenchmark;
  auto gpu = [](const std::string& name, auto fn) {
    gpu_timed(RegisterBenchmark(name.c_str(), fn));
  };
  gpu("csr_to_csc/cunp/float32/4194304", csr_to_csc_cunp);
  gpu("csr_to_csc/raw/float32/4194304", csr_to_csc_raw);
  gpu("csr_to_csc/cunp_sort/float32/4194304", csr_to_csc_sort);
  gpu("spmv/cunp/float32/4194304", spmv_cunp);
  gpu("spmv/raw_alg1/float32/4194304", [](State& s) { spmv_raw(s, CUSPARSE_SPMV_CSR_ALG1); });
  gpu("spmv/raw_alg2/float32/4194304", [](State& s) { spmv_raw(s, CUSPARSE_SPMV_CSR_ALG2); });
  gpu("spmm8/cunp/float32/4194304", [](State& s) { spmm8_cunp(s, false); });
  gpu("spmm8_colmajor/cunp/float32/4194304", [](State& s) { spmm8_cunp(s, true); });
  gpu("spmm8/raw/float32/4194304", spmm8_raw);
  gpu("spgemm/cunp/float32/262144", spgemm_cunp);
  gpu("spgemm/raw/float32/262144", spgemm_raw);
  gpu("add/cunp/float32/4194304", add_cunp);
  gpu("cg200/cunp/float64/1048576", cg200_cunp);
  gpu("gmres200/cunp/float64/1048576", gmres200_cunp);
  gpu("eigsh6/cunp/float64/65536", [](State& s) { eigsh6_cunp(s, -1); });
  gpu("eigsh6_ncv38/cunp/float64/65536", [](State& s) { eigsh6_cunp(s, 38); });
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return cunp_bench::run_main(argc, argv);
}
