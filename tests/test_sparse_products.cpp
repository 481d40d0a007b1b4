// scipy.sparse's products and arithmetic (cunp/sparse_products.hpp) and the sparse norm
// (cunp/sparse_linalg.hpp) against scipy (golden/cases_sparse_products.py) on every backend:
// matmul with a dense vector or matrix on either side (C-ordered and transposed views) and with
// another sparse matrix, for every value type, both index types and every format (the transpose
// A.T() too); A + B, A - B, multiply (sparse and dense), A + dense, scalar products, division,
// negation, abs and norm for float64 and complex64 with both index types; canonical, unsorted
// and duplicated, explicitly zero, empty, 1 x 1, n x 1 and zero-extent matrices; every error
// scipy raises. The archive lists its calls (member `cases`), so one loop runs them all, one
// instantiation per value and index type. On a GPU: larger random matrices against the cpu.
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cunp/sparse_linalg.hpp"
#include "cunp/sparse_products.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
namespace sp = cunp::sparse;

// Named, not anonymous: each part instantiates run_line_for for some value types (below) and
// the golden test case, in another part, calls them all.
namespace sparse_products_test {

template <class T> using real_t = typename cunp::detail::complex_parts<T>::type;

/// Rounding's tolerance of these small problems in T, relative to the result's largest
/// magnitude (the GPU adds in other orders than scipy).
template <class T> double tolerance_of() { return std::is_same_v<real_t<T>, float> ? 2e-5 : 1e-12; }

template <class V> double scale_of(const ndarray<V>& a) {
  double m = 1e-300;
  for (const auto& v : a.to(cpu).to_vector())
    if (const double x = std::abs(as_complex(v)); std::isfinite(x)) m = std::max(m, x);
  return m;
}

template <class V> void require_values_near(const ndarray<V>& got, const ndarray<V>& want) {
  require_near(got.to(cpu), want, 0, tolerance_of<V>() * scale_of(want));
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

/// scipy's error `key`__error, when it raised: f must throw its cunp counterpart (Python's
/// ZeroDivisionError is value_error). Whether it did.
inline bool scipy_raised(archive& g, const std::string& key, fn_ref<void()> f) {
  if (!g.contains(key + "__error")) return false;
  const auto bytes = g.get<std::uint8_t>(key + "__error").to_vector();
  std::string text(bytes.begin(), bytes.end());
  if (text.rfind("ZeroDivisionError: ", 0) == 0) text = "ValueError: " + text.substr(19);
  require_numpy_error(f, text);
  return true;
}

/// A dense result against member `key`.
template <class V>
void check_dense(archive& g, const std::string& key, cunp::device dev, const ndarray<V>& got) {
  CHECK(got.device() == dev);
  require_values_near(got, g.get<V>(key));
}

template <class M> std::string format_name() {
  switch (M::format) {
    case sp::format::csr:
      return "csr";
    case sp::format::csc:
      return "csc";
    default:
      return "coo";
  }
}

/// A sparse result against the members `key`__*: its format and shape, and its entries: a COO
/// result as it is (scipy's order), a compressed one in canonical form (summed on a copy).
template <class M>
void check_sparse(archive& g, const std::string& key, cunp::device dev, const M& got) {
  using V = typename M::value_type;
  CHECK(got.device() == dev);
  const auto fmt = g.get<std::uint8_t>(key + "__format").to_vector();
  CHECK(format_name<M>() == std::string(fmt.begin(), fmt.end()));
  const auto shape = g.get<std::int64_t>(key + "__shape").to_vector();
  REQUIRE(got.shape() == shape_t(shape.begin(), shape.end()));
  if constexpr (M::format == sp::format::coo) {
    require_values_near(got.data(), g.get<V>(key + "__data"));
    require_equal(got.row().to(cpu).template astype<std::int64_t>(),
                  g.get<std::int64_t>(key + "__row"));
    require_equal(got.col().to(cpu).template astype<std::int64_t>(),
                  g.get<std::int64_t>(key + "__col"));
  } else {
    M c = got.copy();
    c.sum_duplicates();
    require_values_near(c.data(), g.get<V>(key + "__data"));
    require_equal(c.indices().to(cpu).template astype<std::int64_t>(),
                  g.get<std::int64_t>(key + "__indices"));
    require_equal(c.indptr().to(cpu).template astype<std::int64_t>(),
                  g.get<std::int64_t>(key + "__indptr"));
  }
}

/// f()'s result (dense or sparse) against member `key`, or scipy's error.
template <class F> void check(archive& g, const std::string& key, cunp::device dev, F&& f) {
  INFO(key);
  if (scipy_raised(g, key, [&] { (void)f(); })) return;
  const auto got = f();
  using G = std::decay_t<decltype(got)>;
  if constexpr (sp::issparse_v<G>)
    check_sparse(g, key, dev, got);
  else
    check_dense(g, key, dev, got);
}

/// The archive's matrices and dense operands of value type T and index type I on `dev`.
template <class T, class I> struct operands {
  archive& g;
  cunp::device dev;
  std::string prefix;

  operands(archive& a, cunp::device d)
      : g(a), dev(d), prefix("in_" + dname<T>() + "_" + dname<I>() + "_") {}

  [[nodiscard]] shape_t shape(const std::string& name) const {
    const auto s = g.get<std::int64_t>(prefix + name + "_shape").to_vector();
    return {s[0], s[1]};
  }
  template <class A> [[nodiscard]] ndarray<A> member(const std::string& name) const {
    return g.get<A>(prefix + name).to(dev);
  }
  /// Calls f with matrix `name` in format `fmt`, built from scipy's arrays (checked as scipy's
  /// constructor checks them).
  template <class F>
  void with_matrix(const std::string& fmt, const std::string& name, F&& f) const {
    const std::string p = name + "_" + fmt + "_";
    const auto data = member<T>(p + "data");
    if (fmt == "coo") {
      f(sp::coo_matrix<T, I>(data, member<I>(p + "row"), member<I>(p + "col"), shape(name)));
    } else if (fmt == "csr") {
      f(sp::csr_matrix<T, I>(data, member<I>(p + "indices"), member<I>(p + "indptr"), shape(name)));
    } else {
      REQUIRE(fmt == "csc");
      f(sp::csc_matrix<T, I>(data, member<I>(p + "indices"), member<I>(p + "indptr"), shape(name)));
    }
  }
  /// A dense operand: member dn_<T>_<name>, or its transpose for a name ending in ".T".
  [[nodiscard]] ndarray<T> dense(const std::string& name) const {
    const bool t = name.size() > 2 && name.substr(name.size() - 2) == ".T";
    const auto a =
        g.get<T>("dn_" + dname<T>() + "_" + (t ? name.substr(0, name.size() - 2) : name)).to(dev);
    return t ? a.T() : a;
  }
};

/// The products' lines: matvec, matmat (A @ x), rmatvec, rmatmat (x @ A), tmatmul (A.T() @ x),
/// spgemm (A @ B), tspgemm (A.T() @ B).
template <class T, class I>
void run_product(const operands<T, I>& in, const std::string& key,
                 const std::vector<std::string>& f) {
  archive& g = in.g;
  const std::string& fn = f[0];
  if (fn == "spgemm" || fn == "tspgemm") {
    in.with_matrix(f[3], f[4], [&](const auto& a) {
      in.with_matrix(f[5], f[6], [&](const auto& b) {
        if (fn == "spgemm")
          check(g, key, in.dev, [&] { return cunp::matmul(a, b); });
        else
          check(g, key, in.dev, [&] { return cunp::matmul(a.T(), b); });
      });
    });
    return;
  }
  const auto x = in.dense(f[5]);
  in.with_matrix(f[3], f[4], [&](const auto& a) {
    if (fn == "matvec" || fn == "matmat")
      check(g, key, in.dev, [&] { return cunp::matmul(a, x); });
    else if (fn == "rmatvec" || fn == "rmatmat")
      check(g, key, in.dev, [&] { return cunp::matmul(x, a); });
    else if (fn == "tmatmul")
      check(g, key, in.dev, [&] { return cunp::matmul(a.T(), x); });
    else
      FAIL("unknown function " << fn);
  });
}

/// Calls f with the scalar a line spells: a Python int (as int), float (double) or complex
/// (std::complex<double>), as C++ callers pass them.
template <class F> void with_scalar(const std::string& s, F&& f) {
  if (s.back() == 'j') {
    const auto sign = s.find_first_of("+-", 1);
    f(std::complex<double>(std::stod(s.substr(0, sign)),
                           std::stod(s.substr(sign, s.size() - sign - 1))));
  } else if (s.find_first_of(".e") != std::string::npos) {
    f(std::stod(s));
  } else {
    f(std::stoi(s));
  }
}

inline cunp::linalg::norm_ord ord_of(const std::string& f) {
  if (f == "None") return {};
  if (f == "inf") return cunp::linalg::inf;
  if (f == "-inf") return -cunp::linalg::inf;
  if (std::isalpha(static_cast<unsigned char>(f[0]))) return f;
  return std::stod(f);
}

/// The arithmetic's lines.
template <class T, class I>
void run_arithmetic(const operands<T, I>& in, const std::string& key,
                    const std::vector<std::string>& f) {
  archive& g = in.g;
  const std::string& fn = f[0];
  const cunp::device dev = in.dev;
  if (fn == "add" || fn == "sub" || fn == "mul") {
    in.with_matrix(f[3], f[4], [&](const auto& a) {
      in.with_matrix(f[5], f[6], [&](const auto& b) {
        if (fn == "add")
          check(g, key, dev, [&] { return a + b; });
        else if (fn == "sub")
          check(g, key, dev, [&] { return a - b; });
        else
          check(g, key, dev, [&] { return sp::multiply(a, b); });
      });
    });
    return;
  }
  in.with_matrix(f[3], f[4], [&](const auto& a) {
    if (fn == "muld") {
      const auto x = in.dense(f[5]);
      check(g, key, dev, [&] { return sp::multiply(a, x); });
    } else if (fn == "addd" || fn == "subd" || fn == "raddd" || fn == "rsubd") {
      const auto x = in.dense(f[5]);
      if (fn == "addd")
        check(g, key, dev, [&] { return a + x; });
      else if (fn == "subd")
        check(g, key, dev, [&] { return a - x; });
      else if (fn == "raddd")
        check(g, key, dev, [&] { return x + a; });
      else
        check(g, key, dev, [&] { return x - a; });
    } else if (fn == "scale" || fn == "rscale" || fn == "div") {
      with_scalar(f[5], [&](auto s) {
        if (fn == "scale")
          check(g, key, dev, [&] { return a * s; });
        else if (fn == "rscale")
          check(g, key, dev, [&] { return s * a; });
        else
          check(g, key, dev, [&] { return a / s; });
      });
    } else if (fn == "neg") {
      check(g, key, dev, [&] { return -a; });
    } else if (fn == "abs") {
      check(g, key, dev, [&] { return abs(a); });
    } else if (fn == "norm") {
      check(g, key, dev, [&] { return sp::linalg::norm(a, ord_of(f[5])); });
    } else {
      FAIL("unknown function " << fn);
    }
  });
}

template <class T, class I>
void run_line(archive& g, cunp::device dev, const std::string& key,
              const std::vector<std::string>& f) {
  const operands<T, I> in(g, dev);
  const std::string& fn = f[0];
  if (fn == "matvec" || fn == "matmat" || fn == "rmatvec" || fn == "rmatmat" || fn == "tmatmul" ||
      fn == "spgemm" || fn == "tspgemm") {
    run_product(in, key, f);
    return;
  }
  // The arithmetic's cases are float64 and complex64 (and float32's division, which scipy
  // computes in float64): the other types are not instantiated (compile time).
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::complex<float>>) {
    run_arithmetic(in, key, f);
  } else if constexpr (std::is_same_v<T, float>) {
    REQUIRE(fn == "div");
    in.with_matrix(f[3], f[4], [&](const auto& a) {
      with_scalar(f[5], [&](auto s) { check(g, key, dev, [&] { return a / s; }); });
    });
  } else {
    FAIL("no arithmetic case for " << dname<T>());
  }
}

template <class T>
void run_line_for(archive& g, cunp::device dev, const std::string& key,
                  const std::vector<std::string>& f) {
  if (f[2] == "int32")
    run_line<T, std::int32_t>(g, dev, key, f);
  else if (f[2] == "int64")
    run_line<T, std::int64_t>(g, dev, key, f);
  else
    FAIL("unknown index type " << f[2]);
}

}  // namespace sparse_products_test

// The golden lines of each value type compile in one part (compile time: every format, index
// type and operation is an instantiation), the test case that runs them all in a third.
#define CUNP_RUN_LINE(T)                                                                          \
  template void sparse_products_test::run_line_for<T>(archive&, cunp::device, const std::string&, \
                                                      const std::vector<std::string>&)
#if CUNP_IN_PART(0)
CUNP_RUN_LINE(float);
CUNP_RUN_LINE(double);
#else
extern CUNP_RUN_LINE(float);
extern CUNP_RUN_LINE(double);
#endif
#if CUNP_IN_PART(1)
CUNP_RUN_LINE(std::complex<float>);
CUNP_RUN_LINE(std::complex<double>);
#else
extern CUNP_RUN_LINE(std::complex<float>);
extern CUNP_RUN_LINE(std::complex<double>);
#endif
#undef CUNP_RUN_LINE

#if CUNP_IN_PART(2)
TEST_CASE("sparse products and arithmetic match scipy", "[sparse_products][golden]") {
  using sparse_products_test::run_line_for;
  using sparse_products_test::split;
  on_every_backend([](cunp::device dev) {
    archive g("sparse_products");
    const auto listing = g.get<std::uint8_t>("cases").to_vector();
    for (const auto& key : split(std::string(listing.begin(), listing.end()), '\n')) {
      const auto f = split(key, ';');
      if (f[1] == "float32")
        run_line_for<float>(g, dev, key, f);
      else if (f[1] == "float64")
        run_line_for<double>(g, dev, key, f);
      else if (f[1] == "complex64")
        run_line_for<std::complex<float>>(g, dev, key, f);
      else if (f[1] == "complex128")
        run_line_for<std::complex<double>>(g, dev, key, f);
      else
        FAIL("unknown dtype " << f[1]);
    }
    g.require_all_used();
  });
}
#endif

namespace {

using sparse_products_test::real_t;

/// A rows x cols CSR matrix on `dev` of about `per_row` random entries a row (uniform in [-1, 1)
/// and for complex T both parts), each row's columns drawn at random: unsorted, some twice.
template <class T, class I>
sp::csr_matrix<T, I> random_csr(index_t rows, index_t cols, int per_row, std::uint64_t seed,
                                cunp::device dev) {
  std::vector<I> indptr{0}, indices;
  std::vector<T> data;
  const auto uniform = [&] { return double(splitmix64(seed) >> 11) * 0x1p-52 - 1.0; };
  for (index_t i = 0; i < rows; ++i) {
    const int n = cols == 0 ? 0 : int(splitmix64(seed) % std::uint64_t(2 * per_row + 1));
    for (int k = 0; k < n; ++k) {
      indices.push_back(static_cast<I>(splitmix64(seed) % std::uint64_t(cols)));
      if constexpr (cunp::is_complex_v<T>)
        data.emplace_back(uniform(), uniform());
      else
        data.push_back(static_cast<T>(uniform()));
    }
    indptr.push_back(static_cast<I>(indices.size()));
  }
  const auto nnz = static_cast<index_t>(data.size());
  return sp::csr_matrix<T, I>(cunp::asarray(data, {nnz}, dev), cunp::asarray(indices, {nnz}, dev),
                              cunp::asarray(indptr, {rows + 1}, dev), {rows, cols});
}

template <class T> ndarray<T> random_dense(const shape_t& shape, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(cunp::detail::extent_product(shape).value_or(0)));
  for (auto& e : v) {
    const double re = double(splitmix64(seed) >> 11) * 0x1p-52 - 1.0;
    if constexpr (cunp::is_complex_v<T>)
      e = T(re, double(splitmix64(seed) >> 11) * 0x1p-52 - 1.0);
    else
      e = static_cast<T>(re);
  }
  return cunp::asarray(v, shape, cpu);
}

/// The GPU's products in T (float32 or complex128) against the cpu's on larger matrices: every
/// product form, the layouts cuSPARSE reads where they lie and those it is given a copy of.
template <class T> void products_against_cpu() {
  using I = std::int32_t;
  const double rtol = std::is_same_v<real_t<T>, float> ? 1e-4 : 1e-11;
  const double atol = std::is_same_v<real_t<T>, float> ? 1e-4 : 1e-11;
  const index_t m = 1500, n = 1100;
  const auto on = [](cunp::device dev) { return random_csr<T, I>(1500, 1100, 6, 1, dev); };
  const auto x = random_dense<T>({n}, 11), y = random_dense<T>({m}, 12);
  const auto X = random_dense<T>({n, 7}, 13), Xt = random_dense<T>({7, n}, 14);
  const auto W = random_dense<T>({2 * n, 10}, 15), Y = random_dense<T>({5, m}, 16);
  const auto same = [&](auto&& f) { same_on_every_backend(f, rtol, atol); };
  same([&](cunp::device d) { return cunp::matmul(on(d), x.to(d)); });
  // rows of 1, 2, 100 and 2000 terms on average; the last matrix is overfull (more stored
  // entries than places, 5 x 1100: duplicates), which cuSPARSE refuses as it is: every product
  // form is given it summed
  const std::pair<index_t, int> shapes[] = {{3000, 1}, {2000, 2}, {300, 100}, {5, 2000}};
  for (const auto& rows_terms : shapes) {
    same([&](cunp::device d) {
      return cunp::matmul(random_csr<T, I>(rows_terms.first, n, rows_terms.second, 3, d), x.to(d));
    });
  }
  const auto over = [&](cunp::device d) { return random_csr<T, I>(5, n, 2000, 3, d); };
  const auto W33 = random_dense<T>({n, 33}, 19), Y5 = random_dense<T>({4, 5}, 18);
  same([&](cunp::device d) { return cunp::matmul(over(d), X.to(d)); });
  same([&](cunp::device d) { return cunp::matmul(over(d), W33.to(d)); });
  same([&](cunp::device d) { return cunp::matmul(over(d).tocsc(), x.to(d)); });
  same([&](cunp::device d) { return cunp::matmul(Y5.to(d), over(d)); });
  same([&](cunp::device d) {  // a strided vector: copied
    return cunp::matmul(on(d), cunp::view(W.to(d), cunp::slice(cunp::none, n), 3));
  });
  same([&](cunp::device d) { return cunp::matmul(on(d), X.to(d)); });
  // every width cunp's row-major kernel takes (groups of 1 to 32 lanes a row) and the first it
  // leaves to cuSPARSE; 64-bit indices
  for (const index_t w : {1, 2, 3, 16, 17, 32, 33}) {
    const auto Z = random_dense<T>({n, w}, 20 + std::uint64_t(w));
    same([&](cunp::device d) { return cunp::matmul(on(d), Z.to(d)); });
  }
  same([&](cunp::device d) {
    return cunp::matmul(random_csr<T, std::int64_t>(1500, 1100, 6, 1, d), X.to(d));
  });
  same([&](cunp::device d) { return cunp::matmul(on(d), Xt.to(d).T()); });
  same([&](cunp::device d) {  // neither stride 1: copied
    return cunp::matmul(on(d), cunp::view(W.to(d), cunp::slice(cunp::none, cunp::none, 2),
                                          cunp::slice(cunp::none, cunp::none, 2)));
  });
  same([&](cunp::device d) { return cunp::matmul(on(d).T(), y.to(d)); });
  same([&](cunp::device d) { return cunp::matmul(on(d).tocsc(), X.to(d)); });
  same([&](cunp::device d) { return cunp::matmul(on(d).tocoo(), x.to(d)); });
  same([&](cunp::device d) { return cunp::matmul(y.to(d), on(d)); });
  same([&](cunp::device d) { return cunp::matmul(Y.to(d), on(d)); });
  same([&](cunp::device d) { return cunp::matmul(Y.to(d), on(d).tocsc()); });
  // sparse @ sparse (cuSPARSE adds in its own order: compared as dense arrays)
  const auto b_on = [](cunp::device dev) { return random_csr<T, I>(1100, 900, 5, 2, dev); };
  same([&](cunp::device d) { return cunp::matmul(on(d), b_on(d)).todense(); });
  same([&](cunp::device d) { return cunp::matmul(on(d).tocsc(), b_on(d)).todense(); });
  same([&](cunp::device d) { return cunp::matmul(on(d).T(), on(d)).todense(); });
}

/// The merges give the same entries on both backends, bit for bit.
template <class T> void arithmetic_against_cpu() {
  using I = std::int64_t;
  const auto a_on = [](cunp::device dev) { return random_csr<T, I>(900, 700, 6, 3, dev); };
  const auto b_on = [](cunp::device dev) { return random_csr<T, I>(900, 700, 6, 4, dev); };
  const auto d = random_dense<T>({900, 700}, 17);
  const auto exact = [&](auto&& f) { same_on_every_backend(f, 0, 0); };
  exact([&](cunp::device dev) { return (a_on(dev) + b_on(dev)).data(); });
  exact([&](cunp::device dev) { return (a_on(dev) - b_on(dev).tocsc()).indices(); });
  exact([&](cunp::device dev) { return (a_on(dev).tocsc() - b_on(dev)).data(); });
  exact([&](cunp::device dev) { return sp::multiply(a_on(dev), b_on(dev)).indptr(); });
  exact([&](cunp::device dev) { return sp::multiply(a_on(dev), b_on(dev)).data(); });
  exact([&](cunp::device dev) { return sp::multiply(a_on(dev), d.to(dev)).data(); });
  exact([&](cunp::device dev) { return abs(a_on(dev)).data(); });
  // todense adds a GPU's duplicates in any order
  same_on_every_backend([&](cunp::device dev) { return a_on(dev) + d.to(dev); }, 1e-6, 1e-6);
  same_on_every_backend([&](cunp::device dev) { return sp::linalg::norm(a_on(dev)); }, 1e-5, 0);
  same_on_every_backend([&](cunp::device dev) { return sp::linalg::norm(a_on(dev), 1); }, 1e-5, 0);
}

}  // namespace

#if CUNP_IN_PART(2)
TEST_CASE("sparse products on a GPU equal the cpu's", "[sparse_products][gpu]") {
  products_against_cpu<float>();
  products_against_cpu<std::complex<double>>();
  arithmetic_against_cpu<double>();
  arithmetic_against_cpu<std::complex<float>>();
}
#endif

#if CUNP_IN_PART(0)
TEST_CASE("sparse products promote as NumPy and leave their operands as they are",
          "[sparse_products]") {
  on_every_backend([](cunp::device dev) {
    const auto a = random_csr<float, std::int32_t>(40, 30, 3, 5, dev);
    const auto b = random_csr<double, std::int64_t>(40, 30, 3, 6, dev);
    const auto x = random_dense<double>({30}, 7).to(dev);
    // float32 matrix, float64 vector: float64, as scipy's upcast
    const ndarray<double> ax = cunp::matmul(a, x);
    require_close(ax.to(cpu), cunp::matmul(a.astype<double>(), x).to(cpu), 1e-14, 0);
    // a C++ scalar is weak: float32 stays float32, a complex scalar makes complex64
    static_assert(std::is_same_v<decltype(a * 2.0), sp::csr_matrix<float, std::int32_t>>);
    static_assert(std::is_same_v<decltype(a * std::complex<double>(1, 2)),
                                 sp::csr_matrix<std::complex<float>, std::int32_t>>);
    // scipy divides float32 in float64
    static_assert(std::is_same_v<decltype(a / 2), sp::csr_matrix<double, std::int32_t>>);
    // two matrices: NumPy's result_type of the values, the wider index type; A's format
    static_assert(std::is_same_v<decltype(a + b), sp::csr_matrix<double, std::int64_t>>);
    static_assert(std::is_same_v<decltype(a.tocsc() - b), sp::csc_matrix<double, std::int64_t>>);
    static_assert(
        std::is_same_v<decltype(cunp::matmul(a, b.T())), sp::csr_matrix<double, std::int64_t>>);
    static_assert(std::is_same_v<decltype(abs(a.astype<std::complex<float>>())),
                                 sp::csr_matrix<float, std::int32_t>>);
    const ndarray<double> sum = a.astype<double>().todense() + b.todense();
    require_close((a + b).todense().to(cpu), sum.to(cpu), 1e-15, 1e-15);
    // an expression operand is evaluated once; scipy's dot is matmul
    require_close(cunp::matmul(a, x * 2.0).to(cpu), ndarray<double>(ax * 2.0).to(cpu), 1e-14, 0);
    require_close(sp::dot(a, x).to(cpu), ax.to(cpu), 0, 0);
    // a dense factor of more than two dimensions: scipy's result would be dense
    CHECK_THROWS_AS(sp::multiply(a, cunp::ones<float>({2, 40, 30}, dev)), cunp::value_error);
    // a one-element dense factor gives COO (scipy: the matrix's own format)
    const auto s = sp::multiply(a, cunp::full<float>({1, 1}, 3.f, dev));
    static_assert(std::is_same_v<decltype(s), const sp::coo_matrix<float, std::int32_t>>);
    require_close(s.todense().to(cpu), (a * 3.f).todense().to(cpu), 0, 0);
    // operands unchanged, results share no array with them
    const auto before_i = a.indices().to_vector();
    const auto before_x = a.data().to_vector();
    const auto r = abs(-a) + a;
    const auto n = -a;
    CHECK(a.indices().to_vector() == before_i);
    CHECK(a.data().to_vector() == before_x);
    CHECK(n.indices().data() != a.indices().data());
    CHECK(n.indptr().data() != a.indptr().data());
    CHECK(r.nnz() <= a.nnz());
  });
}
#endif

#if CUNP_IN_PART(1)
TEST_CASE("sparse products: devices and waits", "[sparse_products][gpu]") {
  if (!CUNP_HAS_CUDA || !cunp::cuda_available()) return;
  const auto a = random_csr<double, std::int32_t>(50, 40, 3, 8, cunp::cuda(0));
  const auto x = random_dense<double>({40}, 9);
  CHECK_THROWS_AS(cunp::matmul(a, x), cunp::device_error);
  CHECK_THROWS_AS(a + a.to(cpu), cunp::device_error);
  const auto xg = x.to(cunp::cuda(0));
  (void)a.has_canonical_format();  // the facts known: no scan below
  cunp::allow_synchronize(false);
  // products with dense operands queue work and return: no wait
  CHECK_NOTHROW(cunp::matmul(a, xg));
  CHECK_NOTHROW(cunp::matmul(a.T(), cunp::matmul(a, xg)));
  // a sparse result's size is known after the device's work: a wait, refused
  CHECK_THROWS_AS(cunp::matmul(a, a.T()), cunp::device_error);
  cunp::allow_synchronize(true);
  cunp::synchronize(cunp::cuda(0));
}
#endif
