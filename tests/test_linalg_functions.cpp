// numpy.linalg's norm, matrix_norm, vector_norm, cond, matrix_rank (cunp/linalg_norms.hpp), pinv,
// lstsq, tensorsolve and tensorinv (cunp/linalg_lstsq.hpp) against NumPy
// (golden/cases_linalg_functions.py) on every backend: float32, float64, complex64, complex128 and
// int32 (computed in float64); every ord with every axis form and keepdims, batches, empty
// inputs, 0-d and 1-d ones, rank-deficient and Hermitian matrices, residuals present and absent,
// and every error NumPy raises. The archive lists its calls (member `cases`), so one loop runs
// them all, one instantiation per dtype. On a GPU: larger shapes against the cpu.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "cunp/linalg_lstsq.hpp"
#include "cunp/linalg_norms.hpp"
#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
namespace L = cunp::linalg;

namespace {

template <class T> using real_t = typename cunp::detail::complex_parts<T>::type;

/// Rounding's tolerance for these well-conditioned problems of T, relative to the largest
/// magnitude of the result.
template <class T> double tolerance_of() { return std::is_same_v<real_t<T>, float> ? 3e-4 : 1e-11; }

/// The largest finite magnitude of a, at least 1.
template <class T> double scale_of(const ndarray<T>& a) {
  double m = 1;
  for (const auto& v : a.to(cpu).to_vector())
    if (const double x = std::abs(as_complex(v)); std::isfinite(x)) m = std::max(m, x);
  return m;
}

template <class V> void require_result(const ndarray<V>& got, const ndarray<V>& want, double tol) {
  if constexpr (std::is_integral_v<V>)
    require_equal(got.to(cpu), want);
  else
    require_near(got.to(cpu), want, 0, tol * scale_of(want));
}

/// NumPy's error `key`__error, when it raised: f must throw its cunp counterpart (eagerly on a
/// GPU). Whether it did.
bool numpy_raised(archive& g, const std::string& key, fn_ref<void()> f) {
  if (!g.contains(key + "__error")) return false;
  const auto bytes = g.get<std::uint8_t>(key + "__error").to_vector();
  cunp::index_checking_guard eager(cunp::index_checking::eager);
  require_numpy_error(f, std::string(bytes.begin(), bytes.end()));
  return true;
}

/// f() against member `key`, or NumPy's error.
template <class V>
void check(archive& g, const std::string& key, double tol, cunp::device dev,
           fn_ref<ndarray<V>()> f) {
  if (numpy_raised(g, key, [&] { (void)f(); })) return;
  const auto got = f();
  CHECK(got.device() == dev);
  require_result(got, g.get<V>(key), tol);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

/// The generator's spellings of NumPy's arguments.
std::optional<double> number_of(const std::string& f) {
  if (f == "None") return std::nullopt;
  if (f == "inf" || f == "-inf") return f[0] == '-' ? -L::inf : L::inf;
  if (f == "nan") return std::numeric_limits<double>::quiet_NaN();
  return std::stod(f);
}
L::norm_ord ord_of(const std::string& f) {
  if (f == "None") return {};
  if (std::isalpha(static_cast<unsigned char>(f[0])) && f != "inf" && f != "nan") return f;
  return *number_of(f);
}
std::vector<index_t> ints_of(std::string f) {
  f.erase(std::remove_if(f.begin(), f.end(), [](char c) { return c == '(' || c == ')'; }), f.end());
  std::vector<index_t> out;
  for (const auto& p : split(f, ','))
    if (!p.empty()) out.push_back(std::stoll(p));
  return out;
}
L::norm_axis axis_of(const std::string& f) {
  if (f == "None") return {};
  if (f.find_first_of("(,") == std::string::npos) return std::stoll(f);  // an int
  return ints_of(f);
}
L::pinv_rtol rtol_of(const std::string& f) {
  if (f == "novalue") return {};
  if (f == "None") return std::nullopt;
  return *number_of(f);
}

/// One line of the archive's `cases`: the call it names, on dev, for inputs of dtype T.
template <class T>
void run_line(archive& g, cunp::device dev, const std::string& key,
              const std::vector<std::string>& f) {
  using R = cunp::detail::linalg_t<T>;
  using P = real_t<R>;
  const double tol = tolerance_of<R>();
  const auto in = [&](const std::string& name) {
    return g.get<T>("in_" + f[1] + "_" + name).to(dev);
  };
  const std::string& fn = f[0];
  const auto a = in(f[2]);
  if (fn == "norm") {
    check<P>(g, key, tol, dev,
             [&] { return L::norm(a, ord_of(f[3]), axis_of(f[4]), f[5] == "1"); });
  } else if (fn == "matrix_norm") {
    check<P>(g, key, tol, dev, [&] { return L::matrix_norm(a, f[4] == "1", ord_of(f[3])); });
  } else if (fn == "vector_norm") {
    check<P>(g, key, tol, dev,
             [&] { return L::vector_norm(a, axis_of(f[4]), f[5] == "1", ord_of(f[3])); });
  } else if (fn == "cond") {
    check<P>(g, key, tol, dev, [&] { return L::cond(a, ord_of(f[3])); });
  } else if (fn == "matrix_rank") {
    check<std::int64_t>(g, key, tol, dev, [&] {
      return L::matrix_rank(a, number_of(f[3]), f[5] == "1", number_of(f[4]));
    });
  } else if (fn == "pinv") {
    check<R>(g, key, tol, dev,
             [&] { return L::pinv(a, number_of(f[3]), f[5] == "1", rtol_of(f[4])); });
  } else if (fn == "tensorsolve") {
    const auto b = in(f[3]);
    check<R>(g, key, tol, dev, [&] {
      return f[4] == "None" ? L::tensorsolve(a, b) : L::tensorsolve(a, b, ints_of(f[4]));
    });
  } else if (fn == "tensorinv") {
    check<R>(g, key, tol, dev, [&] { return L::tensorinv(a, std::stoll(f[3])); });
  } else if (fn == "lstsq") {
    const auto b = in(f[3]);
    const auto solve = [&] { return L::lstsq(a, b, number_of(f[4])); };
    if (numpy_raised(g, key, [&] { (void)solve(); })) return;
    const auto r = solve();
    CHECK(r.x.device() == dev);
    require_result(r.x, g.get<R>(key + "__x"), tol);
    require_result(r.residuals, g.get<P>(key + "__residuals"), tol);
    CHECK(r.rank == g.get<std::int64_t>(key + "__rank").item());
    require_result(r.s, g.get<P>(key + "__s"), tol);
  } else {
    FAIL("unknown function " << fn);
  }
}

}  // namespace

TEST_CASE("norms, cond, matrix_rank, pinv, lstsq, tensorsolve, tensorinv match NumPy",
          "[linalg_functions][golden]") {
  on_every_backend([](cunp::device dev) {
    archive g("linalg_functions");
    const auto listing = g.get<std::uint8_t>("cases").to_vector();
    for (const auto& key : split(std::string(listing.begin(), listing.end()), '\n')) {
      INFO(key);
      const auto f = split(key, ';');
      if (f[1] == "float32")
        run_line<float>(g, dev, key, f);
      else if (f[1] == "float64")
        run_line<double>(g, dev, key, f);
      else if (f[1] == "complex64")
        run_line<std::complex<float>>(g, dev, key, f);
      else if (f[1] == "complex128")
        run_line<std::complex<double>>(g, dev, key, f);
      else if (f[1] == "int32")
        run_line<std::int32_t>(g, dev, key, f);
      else
        FAIL("unknown dtype " << f[1]);
    }
    g.require_all_used();
  });
}

TEST_CASE("norm's argument spellings; cond of a singular matrix", "[linalg_functions]") {
  on_every_backend([](cunp::device dev) {
    const auto x = cunp::eval(cunp::reshape(cunp::arange<double>(-5, 7, 1, dev), {3, 4}));
    const auto ref = L::norm(x, "fro").item();
    CHECK(L::norm(x).item() == ref);
    CHECK(L::norm(x, cunp::none, cunp::none).item() == ref);
    CHECK(L::norm(x, std::nullopt, std::pair<index_t, index_t>{0, 1}).item() == ref);
    CHECK(L::norm(x, std::string("fro"), {-1, -2}).item() == ref);
    CHECK(std::abs(L::norm(x * 1.0, 2, {1, 0}).item() - L::norm(x.T(), 2).item()) < 1e-12);
    CHECK(L::norm(x, 1).item() == 10);       // the largest column sum of |x|
    CHECK(L::norm(x, -L::inf).item() == 4);  // the smallest row sum
    require_equal(L::norm(x, 0, 1), cunp::asarray(std::vector<double>{4, 3, 4}, {3}, cpu));
    require_equal(L::vector_norm(x, std::vector<index_t>{0, 1}, true, L::inf),
                  cunp::asarray(std::vector<double>{6}, {1, 1}, cpu));
    // NumPy's inv of a singular matrix is NaN and cond inf; cunp's inv raises (eagerly here)
    const auto singular = cunp::asarray(std::vector<double>{1, 2, 2, 4}, {2, 2}, dev);
    cunp::index_checking_guard eager(cunp::index_checking::eager);
    CHECK_THROWS_AS(L::cond(singular, 1), cunp::linalg_error);
  });
}

TEST_CASE("GPU norms, pinv and lstsq equal the cpu's", "[linalg_functions][gpu]") {
  const auto random = [](cunp::shape_t shape, std::uint64_t seed) -> ndarray<double> {
    std::vector<double> v(
        static_cast<std::size_t>(cunp::detail::extent_product(shape).value_or(0)));
    for (auto& e : v) e = double(splitmix64(seed) >> 11) * 0x1p-53 - 0.5;
    return cunp::asarray(v, shape, cpu);
  };
  const auto t = random({3, 40, 50}, 1);
  for (const auto& ord : {L::norm_ord{}, L::norm_ord{"nuc"}, L::norm_ord{2}, L::norm_ord{-2},
                          L::norm_ord{1}, L::norm_ord{-L::inf}}) {
    same_on_every_backend(
        [&](cunp::device dev) {
          return L::norm(t.to(dev), ord, {1, 2});
        },
        1e-10, 1e-10);
    if (!ord.is_name())
      same_on_every_backend([&](cunp::device dev) { return L::norm(t.to(dev), ord, 0); }, 1e-10,
                            1e-10);
  }
  same_on_every_backend([&](cunp::device dev) { return L::cond(t.to(dev)); }, 1e-8, 0);
  same_on_every_backend([&](cunp::device dev) { return L::matrix_rank(t.to(dev)); });
  const auto a = random({80, 30}, 2), b = random({80, 3}, 3);
  same_on_every_backend([&](cunp::device dev) { return L::pinv(a.to(dev)); }, 1e-9, 1e-9);
  same_on_every_backend([&](cunp::device dev) { return L::lstsq(a.to(dev), b.to(dev)).x; }, 1e-9,
                        1e-9);
  same_on_every_backend([&](cunp::device dev) { return L::lstsq(a.to(dev), b.to(dev)).residuals; },
                        1e-9, 1e-9);
}
