// scipy.sparse's csr_matrix, csc_matrix and coo_matrix (cunp/sparse_matrix.hpp) and construction
// functions (cunp/sparse_construct.hpp) against scipy (golden/cases_sparse.py) on every backend:
// matrices built from scipy's own arrays (empty rows and columns, 0 nnz, 0 x 0, 1 x 1, n x 1,
// 1 x n, unsorted and duplicate indices, explicit zeros, an indptr that prunes), conversions over
// every value type with int32 and int64 indices, the rest over float64 and complex64, scipy's
// errors word for word. On a GPU: 10^4 x 10^4 random matrices through every conversion and
// canonical operation, the same arrays as the cpu's.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cunp/sparse.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
namespace sp = cunp::sparse;

// A named namespace: nvcc's host stubs cannot name types from an anonymous namespace that holds
// Catch2's own anonymous namespaces (the full, not compile-only, CUDA build fails).
namespace sparse_test {

using cunp::device;
using c64 = std::complex<float>;
using c128 = std::complex<double>;
using i32 = std::int32_t;
using i64 = std::int64_t;

const std::vector<std::string> csr_names{"basic",    "unsorted",  "dups",  "empty_lines",
                                         "zero_nnz", "empty_0x0", "one",   "col",
                                         "row",      "zeros",     "pruned"};
const std::vector<std::string> coo_names{"coo_dups", "coo_canon", "coo_empty", "coo_inferred",
                                         "coo_one"};
const std::vector<std::string> dense_names{"d_mixed", "d_zeros", "d_empty", "d_one", "d_tall"};
const std::vector<index_t> diagonals{-2, -1, 0, 1, 2, 5, -7};

/// Rounding's allowance for sums of a few entries of T.
template <class T> double rtol_of() { return 16 * eps<T>(); }

template <class I> ndarray<I> index_array(archive& g, const std::string& name, device dev) {
  return g.get<i64>(name).astype<I>().to(dev);
}
shape_t shape_of(archive& g, const std::string& name) {
  const auto v = g.get<i64>(name).to_vector();
  return shape_t(v.begin(), v.end());
}

/// The CSR input `name` of the archive, values of T, indices of I, on dev.
template <class T, class I>
sp::csr_matrix<T, I> csr_input(archive& g, const std::string& name, device dev) {
  return sp::csr_matrix<T, I>(
      g.get<T>(name + "__data_" + dname<T>()).to(dev), index_array<I>(g, name + "__indices", dev),
      index_array<I>(g, name + "__indptr", dev), shape_of(g, name + "__shape"));
}

template <class T> void check_values(const ndarray<T>& got, archive& g, const std::string& name) {
  INFO(name);
  require_near(got.to(cpu), g.get<T>(name), rtol_of<T>());
}
template <class I> void check_index(const ndarray<I>& got, archive& g, const std::string& name) {
  INFO(name);
  require_equal(got.to(cpu).template astype<i64>(), g.get<i64>(name));
}

/// A CSR or CSC matrix's three arrays against scipy's <prefix>__data, __indices, __indptr.
template <class M> void check_compressed(const M& m, archive& g, const std::string& prefix) {
  check_values(m.data(), g, prefix + "__data");
  check_index(m.indices(), g, prefix + "__indices");
  check_index(m.indptr(), g, prefix + "__indptr");
}
/// A COO matrix's arrays against scipy's <prefix>__data, __row, __col.
template <class M> void check_coo(const M& m, archive& g, const std::string& prefix) {
  check_values(m.data(), g, prefix + "__data");
  check_index(m.row(), g, prefix + "__row");
  check_index(m.col(), g, prefix + "__col");
}

/// f() throws scipy's error stored as <name>__error.
template <class F> void check_error(archive& g, const std::string& name, F&& f) {
  INFO(name);
  const auto bytes = g.get<std::uint8_t>(name + "__error").to_vector();
  require_numpy_error([&] { (void)f(); }, std::string(bytes.begin(), bytes.end()));
}

// ---------------------------------------------------------------------------------------------
// conversions

template <class T, class I> void conversion_cases(archive& g, device dev) {
  INFO(dname<T>() << " values, " << dname<I>() << " indices");
  for (const std::string& name : csr_names) {
    const std::string t = name + "_" + dname<T>();
    INFO(t);
    const auto a = csr_input<T, I>(g, name, dev);
    CHECK(a.device() == dev);
    CHECK(a.nnz() == g.get<i64>(t + "__nnz").item());
    const ndarray<T> dense = g.get<T>(t + "__dense");
    require_near(a.todense(), dense, 0);
    require_near(a.toarray(), dense, 0);
    require_near(a.T().todense(), cunp::transpose(dense).copy(), 0);
    const auto c = a.tocsc();
    CHECK(c.device() == dev);
    check_compressed(c, g, t + "__csc");
    CHECK(c.has_sorted_indices());
    require_near(c.todense(), dense, 0);
    require_near(c.T().todense(), cunp::transpose(dense).copy(), 0);
    check_coo(a.tocoo(), g, t + "__coo");
    check_compressed(c.tocsr(), g, t + "__cscsr");
    // scipy's CSC arrays as a CSC matrix's input, and back
    const sp::csc_matrix<T, I> c2(g.get<T>(t + "__csc__data").to(dev),
                                  index_array<I>(g, t + "__csc__indices", dev),
                                  index_array<I>(g, t + "__csc__indptr", dev), a.shape());
    check_compressed(sp::csr_matrix<T, I>(c2), g, t + "__cscsr");
    require_near(sp::coo_matrix<T, I>(c2).todense(), dense, 0);
  }
}

TEST_CASE("Sparse conversions match scipy for every value and index type", "[sparse][golden]") {
  on_every_backend([](device dev) {
    archive g("sparse_convert");
    conversion_cases<float, i32>(g, dev);
    conversion_cases<double, i32>(g, dev);
    conversion_cases<c64, i32>(g, dev);
    conversion_cases<c128, i32>(g, dev);
    conversion_cases<float, i64>(g, dev);
    conversion_cases<double, i64>(g, dev);
    conversion_cases<c64, i64>(g, dev);
    conversion_cases<c128, i64>(g, dev);
    g.require_all_used();
  });
}

// ---------------------------------------------------------------------------------------------
// canonical form

template <class T, class I> void canonical_cases(archive& g, device dev) {
  for (const std::string& name : csr_names) {
    const std::string t = name + "_" + dname<T>();
    INFO(t);
    const auto flags = g.get<std::uint8_t>(t + "__flags").to_vector();
    const auto a = csr_input<T, I>(g, name, dev);
    CHECK(a.has_sorted_indices() == bool(flags[0]));
    CHECK(a.has_canonical_format() == bool(flags[1]));
    const auto csc_flags = g.get<std::uint8_t>(t + "__csc_flags").to_vector();
    const auto c = a.tocsc();
    CHECK(c.has_sorted_indices() == bool(csc_flags[0]));
    CHECK(c.has_canonical_format() == bool(csc_flags[1]));

    // sort_indices: in place, seen through every matrix on the same arrays
    auto s = a.copy();
    const auto alias = s;
    const auto transposed = s.T();
    s.sort_indices();
    CHECK(s.has_sorted_indices());
    CHECK(alias.has_sorted_indices());
    check_index(s.indices(), g, t + "__sorted__indices");
    check_index(s.indptr(), g, t + "__sorted__indptr");
    check_index(alias.indices(), g, t + "__sorted__indices");
    require_near(s.todense(), a.todense().to(cpu), 0);
    require_near(transposed.todense(), cunp::transpose(a.todense().to(cpu)).copy(), 0);
    // duplicates keep their order (a stable sort): scipy's order is unspecified, so the values
    // are compared where no index repeats
    if (s.has_canonical_format())
      check_values(s.data(), g, t + "__sorted__data");
    else
      (void)g.get<T>(t + "__sorted__data");

    // sum_duplicates: new arrays; the matrices that shared the old ones keep them
    auto d = a.copy();
    const auto before = d;
    d.sum_duplicates();
    CHECK(d.has_canonical_format());
    check_compressed(d, g, t + "__canonical");
    CHECK(before.nnz() == a.nnz());
    require_near(before.todense(), a.todense().to(cpu), 0);

    auto z = a.copy();
    z.eliminate_zeros();
    check_compressed(z, g, t + "__nonzero");
    CHECK(a.nnz() == csr_input<T, I>(g, name, dev).nnz());  // the original is untouched
  }
}

TEST_CASE("sort_indices, sum_duplicates, eliminate_zeros and the format flags match scipy",
          "[sparse][golden]") {
  on_every_backend([](device dev) {
    archive g("sparse_canonical");
    canonical_cases<double, i32>(g, dev);
    canonical_cases<c64, i64>(g, dev);
    g.require_all_used();
  });
}

// ---------------------------------------------------------------------------------------------
// diagonal and sum

template <class T, class I> void reduce_cases(archive& g, device dev) {
  for (const std::string& name : csr_names) {
    const std::string t = name + "_" + dname<T>();
    INFO(t);
    const auto a = csr_input<T, I>(g, name, dev);
    const auto c = a.tocsc();
    for (const index_t k : diagonals) {
      check_values(a.diagonal(k), g, t + "__diagonal_" + std::to_string(k));
      check_values(c.diagonal(k), g, t + "__csc_diagonal_" + std::to_string(k));
    }
    CHECK(a.sum().ndim() == 0);
    check_values(a.sum(), g, t + "__sum");
    for (const index_t axis : {0, 1}) {
      const std::string s = std::to_string(axis);
      check_values(a.sum(axis), g, t + "__sum_" + s);
      check_values(a.sum(axis - 2), g, t + "__sum_" + s);
      check_values(c.sum(axis), g, t + "__csc_sum_" + s);
    }
    CHECK(a.sum(0).device() == dev);
  }
  const auto e = csr_input<T, I>(g, "basic", dev);
  check_error(g, "sum_axis", [&] { return e.sum(2); });
  check_error(g, "sum_axis", [&] { return e.tocsc().sum(-3); });
  check_error(g, "sum_axis", [&] { return e.tocoo().sum(2); });
}

TEST_CASE("diagonal and sum match scipy", "[sparse][golden]") {
  on_every_backend([](device dev) {
    archive g("sparse_reduce");
    reduce_cases<double, i32>(g, dev);
    reduce_cases<c64, i64>(g, dev);
    g.require_all_used();
  });
}

// ---------------------------------------------------------------------------------------------
// COO

template <class T, class I> void coo_cases(archive& g, device dev) {
  for (const std::string& name : coo_names) {
    const std::string t = name + "_" + dname<T>();
    INFO(t);
    const auto data = g.get<T>(name + "__data_" + dname<T>()).to(dev);
    const auto row = index_array<I>(g, name + "__row", dev);
    const auto col = index_array<I>(g, name + "__col", dev);
    const sp::coo_matrix<T, I> a =
        g.contains(name + "__shape")
            ? sp::coo_matrix<T, I>(data, row, col, shape_of(g, name + "__shape"))
            : sp::coo_matrix<T, I>(data, row, col);
    CHECK(a.shape() == shape_of(g, t + "__shape"));
    CHECK(!a.has_canonical_format());
    const ndarray<T> dense = g.get<T>(t + "__dense");
    require_near(a.todense(), dense, rtol_of<T>());
    require_near(a.T().todense(), cunp::transpose(dense).copy(), rtol_of<T>());
    const auto r = a.tocsr();
    CHECK(r.has_canonical_format());
    check_compressed(r, g, t + "__csr");
    check_compressed(a.tocsc(), g, t + "__csc");
    check_compressed(sp::csr_matrix<T, I>(a), g, t + "__csr");
    auto s = a.copy();
    s.sum_duplicates();
    CHECK(s.has_canonical_format());
    check_coo(s, g, t + "__canonical");
    require_near(s.todense(), dense, rtol_of<T>());
    auto z = a.copy();
    z.eliminate_zeros();
    check_coo(z, g, t + "__nonzero");
    for (const index_t k : diagonals)
      check_values(a.diagonal(k), g, t + "__diagonal_" + std::to_string(k));
    check_values(a.sum(), g, t + "__sum");
    check_values(a.sum(0), g, t + "__sum_0");
    check_values(a.sum(1), g, t + "__sum_1");
    // a canonical COO matrix converts without summing, to the same arrays
    check_compressed(s.tocsr(), g, t + "__csr");
    check_coo(r.tocoo(), g, t + "__canonical");
    CHECK(r.tocoo().has_canonical_format());
  }
}

TEST_CASE("coo_matrix matches scipy", "[sparse][golden]") {
  on_every_backend([](device dev) {
    archive g("sparse_coo");
    coo_cases<double, i32>(g, dev);
    coo_cases<c64, i64>(g, dev);
    g.require_all_used();
  });
}

// ---------------------------------------------------------------------------------------------
// from dense

template <class T, class I> void dense_cases(archive& g, device dev) {
  for (const std::string& name : dense_names) {
    const auto x = g.get<T>(name + "__dense_" + dname<T>()).to(dev);
    for (const bool transposed : {false, true}) {
      const std::string t = name + (transposed ? "_T_" : "_") + dname<T>();
      INFO(t);
      const ndarray<T> y = transposed ? cunp::transpose(x) : x;  // a non-contiguous view
      const sp::csr_matrix<T, I> r(y);
      CHECK(r.shape() == y.shape());
      CHECK(r.has_canonical_format());
      check_compressed(r, g, t + "__csr");
      check_compressed(sp::csc_matrix<T, I>(y), g, t + "__csc");
      check_coo(sp::coo_matrix<T, I>(y), g, t + "__coo");
      require_near(r.todense(), y.to(cpu).copy(), 0);
    }
  }
}

TEST_CASE("Sparse matrices from dense arrays match scipy", "[sparse][golden]") {
  on_every_backend([](device dev) {
    archive g("sparse_dense");
    dense_cases<double, i32>(g, dev);
    dense_cases<c64, i64>(g, dev);
    g.require_all_used();
  });
}

// ---------------------------------------------------------------------------------------------
// errors

TEST_CASE("Construction errors are scipy's", "[sparse][golden]") {
  on_every_backend([](device dev) {
    archive g("sparse_errors");
    for (const std::string name : {"indptr_size", "indptr_start", "indices_size", "indptr_last",
                                   "index_high", "index_negative", "indptr_decreasing"}) {
      const auto data = g.get<double>(name + "__data").to(dev);
      const auto indices = index_array<i32>(g, name + "__indices", dev);
      const auto indptr = index_array<i32>(g, name + "__indptr", dev);
      const shape_t shape = shape_of(g, name + "__shape");
      check_error(g, name, [&] { return sp::csr_matrix<double>(data, indices, indptr, shape); });
      check_error(g, "csc_" + name, [&] {
        return sp::csc_matrix<double>(data, indices, indptr, {shape[1], shape[0]});
      });
      // the arrays are left as they were
      require_equal(indices.to(cpu), index_array<i32>(g, name + "__indices", cpu));
    }
    for (const std::string name : {"coo_length", "coo_row_high", "coo_col_high", "coo_row_negative",
                                   "coo_col_negative", "coo_infer_empty"}) {
      const auto data = g.get<double>(name + "__data").to(dev);
      const auto row = index_array<i64>(g, name + "__row", dev);
      const auto col = index_array<i64>(g, name + "__col", dev);
      check_error(g, name, [&] {
        return g.contains(name + "__shape")
                   ? sp::coo_matrix<double, i64>(data, row, col, shape_of(g, name + "__shape"))
                   : sp::coo_matrix<double, i64>(data, row, col);
      });
    }
    g.require_all_used();
  });
}

TEST_CASE("Sparse errors of cunp's own: index type, shape, devices", "[sparse]") {
  on_every_backend([](device dev) {
    const auto data = cunp::asarray<double>({1, 2}, {2}, dev);
    const auto ix = cunp::asarray<i32>({0, 1}, {2}, dev);
    const auto ptr = cunp::asarray<i32>({0, 1, 2}, {3}, dev);
    const auto int32_refused = [](const auto& f) {
      try {
        f();
        FAIL("no exception");
      } catch (const cunp::value_error& e) {
        CHECK(std::string(e.what()).find("use std::int64_t indices") != std::string::npos);
      }
    };
    // extents beyond int32: refused with int32 indices, taken with int64 ones
    int32_refused([&] { return sp::csr_matrix<double>(data, ix, ptr, {2, index_t(1) << 31}); });
    int32_refused([&] { return sp::csr_matrix<double>(shape_t{index_t(1) << 31, 1}, dev); });
    int32_refused([&] { return sp::coo_matrix<double>(shape_t{3, index_t(1) << 32}, dev); });
    const sp::csr_matrix<double, i64> big(data, ix.astype<i64>(), ptr.astype<i64>(),
                                          {2, index_t(1) << 31});
    CHECK(big.shape()[1] == index_t(1) << 31);
    int32_refused([&] {
      return sp::kron(sp::eye<double>(1 << 16, 1 << 16, 0, dev),
                      sp::eye<double>(1 << 16, 1 << 16, 0, dev));
    });
    CHECK_THROWS_AS(sp::csr_matrix<double>(data.reshape({1, 2}), ix, ptr, {2, 2}),
                    cunp::value_error);
    CHECK_THROWS_AS(sp::csr_matrix<double>(cunp::zeros<double>({2, 2, 2}, dev)), cunp::value_error);
    CHECK_THROWS_AS(sp::csr_matrix<double>(data, ix, ptr, {2, 2, 2}), cunp::value_error);
    CHECK_THROWS_AS(sp::csr_matrix<double>(data, ix, ptr, {-2, 2}), cunp::value_error);
    if (dev.is_cuda()) {
      CHECK_THROWS_AS(sp::csr_matrix<double>(data.to(cpu), ix, ptr, {2, 2}), cunp::device_error);
      CHECK_THROWS_AS(
          sp::hstack(std::vector{sp::eye<double>(2, 2, 0, dev), sp::eye<double>(2, 2, 0, cpu)}),
          cunp::device_error);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// construction functions

template <class T, class I> void construct_cases(archive& g, device dev) {
  const std::string d = dname<T>();
  for (int i = 0; g.contains("eye_" + std::to_string(i) + "__args"); ++i) {
    const std::string e = "eye_" + std::to_string(i);
    INFO(e);
    const auto args = g.get<i64>(e + "__args").to_vector();
    const auto cols = args[1] < 0 ? std::nullopt : std::optional<index_t>(args[1]);
    if (g.contains(e + "__error")) {
      check_error(g, e, [&] { return sp::eye<T, I>(args[0], cols, args[2], dev); });
      continue;
    }
    const auto m = sp::eye<T, I>(args[0], cols, args[2], dev);
    CHECK(m.device() == dev);
    CHECK(m.has_canonical_format());
    CHECK(m.nnz() == g.get<i64>(e + "_" + d + "__nnz").item());
    require_near(m.todense(), g.get<T>(e + "_" + d + "__dense"), 0);
    require_near(sp::eye<T, I, sp::format::csc>(args[0], cols, args[2], dev).todense(),
                 g.get<T>(e + "_" + d + "__dense"), 0);
  }
  for (const index_t n : {0, 1, 3}) {
    const auto want = g.get<double>("identity_" + std::to_string(n) + "__dense");
    require_near(sp::identity<T, I>(n, dev).todense(), want.astype<T>(), 0);
    require_near(sp::identity<T, I, sp::format::coo>(n, dev).todense(), want.astype<T>(), 0);
  }

  for (int i = 0; g.contains("diags_" + std::to_string(i) + "__offsets"); ++i) {
    const std::string c = "diags_" + std::to_string(i);
    INFO(c);
    std::vector<ndarray<T>> ds;
    for (index_t j = 0; j < g.get<i64>(c + "__count").item(); ++j)
      ds.push_back(g.get<T>(c + "_" + d + "__d" + std::to_string(j)).to(dev));
    const auto offsets = g.get<i64>(c + "__offsets").to_vector();
    const std::vector<index_t> off(offsets.begin(), offsets.end());
    const auto shape =
        g.contains(c + "__shape") ? std::optional(shape_of(g, c + "__shape")) : std::nullopt;
    if (g.contains(c + "__error")) {
      check_error(g, c, [&] { return sp::diags<I>(ds, off, shape); });
      continue;
    }
    const auto m = sp::diags<I>(ds, off, shape);
    CHECK(m.shape() == shape_of(g, c + "_" + d + "__shape"));
    check_compressed(m, g, c + "_" + d + "__csr");
    if (ds.size() == 1)
      check_compressed(sp::diags<I>(ds[0], off[0], shape), g, c + "_" + d + "__csr");
  }

  const auto mat = [&](const std::string& name) { return csr_input<T, I>(g, name, dev); };
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {"basic", "col"}, {"row", "dups"}, {"zero_nnz", "basic"}, {"one", "one"}}) {
    const std::string k = "kron_" + a + "_" + b + "_" + d;
    INFO(k);
    const auto m = sp::kron(mat(a), mat(b));
    CHECK(m.shape() == shape_of(g, k + "__shape"));
    check_coo(m, g, k);
    // a CSC operand's entries come column by column (scipy's order too): the same matrix
    require_near(sp::kron(mat(a).tocsc(), mat(b).tocoo()).todense(), m.todense().to(cpu), 0);
    CHECK(sp::kron<sp::format::csr>(mat(a), mat(b)).has_canonical_format());
  }

  const std::vector<std::string> blocks{"basic", "unsorted", "dups"};
  const auto check_stacks = [&](const std::string& fmt, const auto& one) {
    using M = std::decay_t<decltype(one("basic"))>;
    std::vector<M> ms;
    for (const auto& b : blocks) ms.push_back(one(b));
    for (const std::string how : {"h", "v"}) {
      const std::string t = how + "stack_" + fmt + "_" + d;
      INFO(t);
      const M r = how == "h" ? sp::hstack(ms) : sp::vstack(ms);
      CHECK(r.shape() == shape_of(g, t + "__shape"));
      if constexpr (M::format == sp::format::coo)
        check_coo(r, g, t);
      else
        check_compressed(r, g, t);
      const std::vector<M> bad{one("basic"), one("col")};
      check_error(g, how + "stack_" + fmt + "_mismatch",
                  [&] { return how == "h" ? sp::hstack(bad) : sp::vstack(bad); });
    }
    check_error(g, "hstack_empty", [&] { return sp::hstack(std::vector<M>{}); });
    check_error(g, "vstack_empty", [&] { return sp::vstack(std::vector<M>{}); });
  };
  check_stacks("csr", mat);
  check_stacks("csc", [&](const std::string& n) { return mat(n).tocsc(); });
  check_stacks("coo", [&](const std::string& n) { return mat(n).tocoo(); });

  for (const std::string& name : csr_names) {
    const std::string t = name + "_" + d;
    INFO(t);
    const auto a = mat(name);
    for (const index_t k : {-1, 0, 2}) {
      const std::string s = std::to_string(k);
      check_coo(sp::tril(a, k), g, t + "__tril_" + s);
      check_coo(sp::triu(a, k), g, t + "__triu_" + s);
      require_near(sp::tril<sp::format::csr>(a.tocsc(), k).todense(),
                   sp::tril(a, k).todense().to(cpu), rtol_of<T>());
    }
  }
}

TEST_CASE("eye, identity, diags, kron, hstack, vstack, tril and triu match scipy",
          "[sparse][golden]") {
  on_every_backend([](device dev) {
    archive g("sparse_construct");
    construct_cases<double, i32>(g, dev);
    construct_cases<c64, i64>(g, dev);
    g.require_all_used();
  });
}

// ---------------------------------------------------------------------------------------------
// copy, astype, to

TEST_CASE("copy, astype and to: handles and deep copies", "[sparse]") {
  on_every_backend([](device dev) {
    const auto a = sp::csr_matrix<double>(cunp::asarray<double>({1, 0, 2, 3, 0, 4}, {2, 3}, dev));
    const auto alias = a;
    CHECK(alias.data().data() == a.data().data());
    const auto c = a.copy();
    CHECK(c.data().data() != a.data().data());
    CHECK(c.indices().data() != a.indices().data());
    require_equal(c.todense().to(cpu), a.todense().to(cpu));
    const auto t = a.T();
    CHECK(t.data().data() == a.data().data());  // no copy, as scipy's .T
    CHECK(t.shape() == shape_t{3, 2});
    const auto z = a.astype<c64>();
    CHECK(z.device() == dev);
    require_equal(z.todense().to(cpu), a.todense().to(cpu).astype<c64>());
    CHECK(z.indices().data() != a.indices().data());
    CHECK(a.to(dev).data().data() == a.data().data());  // already there: the same arrays
    const auto h = a.to(cpu);
    CHECK(h.device() == cpu);
    require_equal(h.todense(), a.todense().to(cpu));
    const auto o = a.tocoo();
    CHECK(o.to(dev).data().data() == o.data().data());
    require_equal(o.astype<float>().todense().to(cpu), a.todense().to(cpu).astype<float>());
    require_equal(o.copy().todense().to(cpu), a.todense().to(cpu));
    const sp::csr_matrix<double> e(shape_t{3, 4}, dev);
    CHECK(e.nnz() == 0);
    CHECK(e.indptr().size() == 4);
    require_equal(e.todense().to(cpu), cunp::zeros<double>({3, 4}, cpu));
    const sp::csc_matrix<float, i64> ec(shape_t{3, 4}, dev);
    CHECK(ec.indptr().size() == 5);
    const sp::coo_matrix<double> eo(shape_t{2, 2}, dev);
    CHECK(eo.tocsr().nnz() == 0);
    const sp::csr_matrix<double> none;
    CHECK(none.shape() == shape_t{0, 0});
    CHECK(none.todense().size() == 0);
  });
}

// ---------------------------------------------------------------------------------------------
// GPU against cpu on large random matrices

/// A random rows x cols CSR matrix's host arrays, about `per_row` entries a row: unsorted
/// column indices with duplicates (when dups), some explicit zeros.
template <class T, class I>
sp::csr_matrix<T, I> random_csr(index_t rows, index_t cols, int per_row, bool dups, device dev,
                                std::uint64_t seed) {
  std::vector<T> data;
  std::vector<I> indices, indptr{0};
  std::uint64_t s = seed;
  for (index_t r = 0; r < rows; ++r) {
    const int n = static_cast<int>(splitmix64(s) % (2 * per_row + 1));
    for (int j = 0; j < n; ++j) {
      const std::uint64_t u = splitmix64(s);
      index_t c = static_cast<index_t>(u % cols);
      if (dups && j > 0 && u % 7 == 0) c = indices.back();  // a repeated entry
      indices.push_back(static_cast<I>(c));
      const double v = u % 13 == 0 ? 0.0 : double(splitmix64(s) >> 11) * 0x1p-53 - 0.5;
      if constexpr (cunp::is_complex_v<T>)
        data.push_back(T(static_cast<typename T::value_type>(v),
                         static_cast<typename T::value_type>(v * 0.5 + 0.25)));
      else
        data.push_back(static_cast<T>(v));
    }
    indptr.push_back(static_cast<I>(indices.size()));
  }
  const auto n = static_cast<index_t>(data.size());
  return sp::csr_matrix<T, I>(cunp::asarray(data, {n}, dev), cunp::asarray(indices, {n}, dev),
                              cunp::asarray(indptr, {rows + 1}, dev), {rows, cols});
}

template <class T, class I> void large_cases(index_t rows, index_t cols, int per_row) {
  INFO(dname<T>() << " values, " << dname<I>() << " indices, " << rows << " x " << cols);
  const auto make = [&](device dev) { return random_csr<T, I>(rows, cols, per_row, true, dev, 7); };
  const auto same = [&](auto f) {
    same_on_every_backend([&](device dev) { return f(make(dev)); }, 0, 0);
  };
  // Values through csr2csc of a matrix with duplicates: on a GPU with 32-bit indices the
  // duplicates' order within a column is cuSPARSE's, so their sums may round differently.
  const auto near = [&](auto f) {
    same_on_every_backend([&](device dev) { return f(make(dev)); }, rtol_of<T>(), 0);
  };
  same([](const auto& a) { return a.data(); });
  same([](const auto& a) {
    return cunp::asarray<std::uint8_t>({a.has_sorted_indices(), a.has_canonical_format()}, {2},
                                       a.device());
  });
  // canonical: every array the same, bit for bit
  same([](const auto& a) {
    auto c = a.copy();
    c.sum_duplicates();
    return c.data();
  });
  same([](const auto& a) {
    auto c = a.copy();
    c.sum_duplicates();
    return c.indices();
  });
  same([](const auto& a) {
    auto c = a.copy();
    c.sum_duplicates();
    return c.indptr();
  });
  same([](const auto& a) {
    auto c = a.copy();
    c.sort_indices();
    return c.indices();
  });
  same([](const auto& a) {
    auto c = a.copy();
    c.sort_indices();
    return c.data();
  });
  same([](const auto& a) {
    auto c = a.copy();
    c.eliminate_zeros();
    return c.data();
  });
  same([](const auto& a) {
    auto c = a.copy();
    c.eliminate_zeros();
    return c.indptr();
  });
  // conversions
  same([](const auto& a) { return a.tocsc().indices(); });
  same([](const auto& a) { return a.tocsc().indptr(); });
  same([](const auto& a) { return a.tocoo().row(); });
  same([](const auto& a) { return a.tocoo().tocsr().data(); });
  same([](const auto& a) { return a.tocoo().tocsc().indices(); });
  same([](const auto& a) { return a.tocoo().tocsc().data(); });
  same([](const auto& a) {
    auto c = a.copy();
    c.sum_duplicates();
    return c.tocsc().data();
  });
  same([](const auto& a) { return a.tocsc().tocsr().indices(); });
  same([](const auto& a) { return sp::hstack(std::vector{a, a}).indices(); });
  same([](const auto& a) { return sp::vstack(std::vector{a.tocsc(), a.tocsc()}).indices(); });
  same([](const auto& a) { return sp::tril(a, 3).col(); });
  near([](const auto& a) {
    auto c = a.tocsc();
    c.sum_duplicates();
    return c.data();
  });
  // reductions
  near([](const auto& a) { return a.sum(0); });
  same([](const auto& a) { return a.sum(1); });
  near([](const auto& a) { return a.tocsc().sum(1); });
  near([](const auto& a) { return a.tocsc().sum(0); });
  same([](const auto& a) { return a.diagonal(3); });
  near([](const auto& a) { return a.tocsc().diagonal(-2); });
  same_on_every_backend([&](device dev) { return make(dev).sum(); }, rtol_of<T>() * 64, 0);
}

template <class T, class I> void dense_round_trip(index_t rows, index_t cols) {
  const auto make = [&](device dev) { return random_csr<T, I>(rows, cols, 6, true, dev, 11); };
  same_on_every_backend([&](device dev) { return make(dev).todense(); }, 0, 0);
  same_on_every_backend([&](device dev) { return make(dev).tocsc().todense(); }, rtol_of<T>(), 0);
  same_on_every_backend([&](device dev) { return make(dev).tocoo().todense(); }, 0, 0);
  same_on_every_backend(
      [&](device dev) { return sp::csr_matrix<T, I>(make(dev).todense()).indices(); }, 0, 0);
  same_on_every_backend(
      [&](device dev) { return sp::csc_matrix<T, I>(make(dev).todense()).data(); }, 0, 0);
}

TEST_CASE("GPU sparse conversions and canonical operations equal the cpu's", "[sparse][gpu]") {
  large_cases<double, i32>(10000, 10000, 10);
  large_cases<c64, i64>(10000, 10000, 10);
  large_cases<float, i32>(3, 200000, 20000);  // long rows
  large_cases<c128, i64>(200000, 2, 1);       // short rows, many empty, many duplicates
  dense_round_trip<double, i32>(2000, 3000);
  dense_round_trip<c64, i64>(1500, 700);
}

}  // namespace sparse_test
