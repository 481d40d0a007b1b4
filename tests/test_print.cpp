// Printing: array_repr and operator<< against NumPy's repr() (golden cases), on every backend.
#include <climits>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;

namespace {

struct print_case {
  std::string name;
  cunp::dtype type;
  std::string transform;
};

cunp::dtype dtype_named(const std::string& name) {
  for (int k = 0; k <= int(cunp::dtype::complex128); ++k)
    if (cunp::dtype_name(cunp::dtype(k)) == name) return cunp::dtype(k);
  FAIL("print_cases.txt names an unknown dtype " << name);
  return cunp::dtype::bool_;
}

std::vector<print_case> read_cases() {
  std::ifstream in(golden_dir() / "print_cases.txt");
  REQUIRE(in);
  std::vector<print_case> out;
  for (std::string name, type, how; in >> name >> type >> how;)
    out.push_back({name, dtype_named(type), how});
  return out;
}

std::string read_text(const std::string& name) {
  std::ifstream in(golden_dir() / ("print_" + name + ".txt"), std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The case's base array on the cpu; bfloat16 bases are stored as their bits.
template <class T>
ndarray<T> load_base(const std::string& name) {
  if constexpr (std::is_same_v<T, cunp::bfloat16>) {
    const auto bits = golden<std::uint16_t>("print_" + name);
    std::vector<cunp::bfloat16> values;
    for (std::uint16_t b : bits.to_vector()) values.push_back(cunp::bfloat16::from_bits(b));
    return cunp::asarray(values, bits.shape(), cpu);
  } else {
    return golden<T>("print_" + name);
  }
}

/// The strided views of cases_print.py's transform(): T, x[::-1], x[..., ::-2].
template <class T>
ndarray<T> apply_transform(const ndarray<T>& a, const std::string& how) {
  if (how == "T") return a.T();
  cunp::strides_t st = a.strides();
  shape_t sh = a.shape();
  if (how == "flip0") {
    st[0] = -st[0];
    return ndarray<T>(a.storage(), a.offset() + (sh[0] - 1) * a.strides()[0], sh, st);
  }
  if (how == "rev2last") {
    const std::size_t d = sh.size() - 1;
    const index_t start = sh[d] - 1;
    sh[d] = (sh[d] + 1) / 2;
    st[d] = -2 * st[d];
    return ndarray<T>(a.storage(), a.offset() + start * a.strides()[d], sh, st);
  }
  REQUIRE(how == "none");
  return a;
}

template <class T>
std::string streamed(const ndarray<T>& a) {
  std::ostringstream os;
  os << a;
  return os.str();
}

}  // namespace

TEST_CASE("repr matches NumPy's on every golden case", "[print]") {
  const auto cases = read_cases();
  bool have_bfloat16 = false;
  for (const auto& c : cases) have_bfloat16 = have_bfloat16 || c.type == cunp::dtype::bfloat16;
  if (!have_bfloat16) WARN("ml_dtypes was not installed for the golden data: no bfloat16 cases");
  REQUIRE(cases.size() > 300);
  on_every_backend([&](cunp::device dev) {
    for (const auto& c : cases) {
      INFO("case print_" << c.name << " (" << cunp::dtype_name(c.type) << ", " << c.transform
                         << ")");
      cunp::visit_dtype(c.type, [&](auto v) {
        using T = decltype(v);
        const auto a = apply_transform(load_base<T>(c.name).to(dev), c.transform);
        REQUIRE(a.device() == dev);
        CHECK(cunp::array_repr(a) == read_text(c.name));
      });
    }
  });
}

TEST_CASE("repr of small arrays of every dtype", "[print]") {
  on_every_backend([](cunp::device dev) {
    CHECK(cunp::array_repr(cunp::asarray<float>({1.f, 2.f}, dev)) ==
          "array([1., 2.], dtype=float32)");
    CHECK(cunp::array_repr(cunp::asarray<std::int64_t>({1, 2, 3}, dev)) == "array([1, 2, 3])");
    CHECK(cunp::array_repr(cunp::asarray<double>({0.5, -1.25}, dev)) == "array([ 0.5 , -1.25])");
    CHECK(cunp::array_repr(cunp::asarray<bool>({true, false}, dev)) == "array([ True, False])");
    CHECK(cunp::array_repr(cunp::asarray<cunp::complex128>({{1, 2}, {0, -1}}, dev)) ==
          "array([1.+2.j, 0.-1.j])");
    CHECK(cunp::array_repr(cunp::asarray<cunp::complex64>({{1, 2}}, dev)) ==
          "array([1.+2.j], dtype=complex64)");
    CHECK(cunp::array_repr(cunp::asarray<std::uint8_t>({0, 255}, dev)) ==
          "array([  0, 255], dtype=uint8)");
    CHECK(cunp::array_repr(cunp::asarray<cunp::float16>({0.1f, 0.2f, 0.3f}, dev)) ==
          "array([0.1, 0.2, 0.3], dtype=float16)");
    CHECK(cunp::array_repr(cunp::asarray<cunp::bfloat16>({1.5f, 2.f, 3.14159f, 1e10f}, dev)) ==
          "array([1.5, 2, 3.14062, 9.99922e+09], dtype=bfloat16)");
    CHECK(cunp::array_repr(cunp::asarray<float>({NAN, INFINITY, -INFINITY}, dev)) ==
          "array([ nan,  inf, -inf], dtype=float32)");
    CHECK(cunp::array_repr(cunp::asarray<double>({1e-5, 1.0, 1e5}, dev)) ==
          "array([1.e-05, 1.e+00, 1.e+05])");
    CHECK(cunp::array_repr(cunp::array<std::int32_t>({{1, 2}, {3, 4}}, dev)) ==
          "array([[1, 2],\n       [3, 4]], dtype=int32)");
  });
}

TEST_CASE("repr of 0-d and empty arrays", "[print]") {
  on_every_backend([](cunp::device dev) {
    CHECK(cunp::array_repr(cunp::full<double>({}, 3.5, dev)) == "array(3.5)");
    CHECK(cunp::array_repr(cunp::full<std::int8_t>({}, 1, dev)) == "array(1, dtype=int8)");
    CHECK(cunp::array_repr(cunp::full<bool>({}, true, dev)) == "array(True)");
    CHECK(cunp::array_repr(cunp::full<cunp::bfloat16>({}, 0.1f, dev)) ==
          "array(0.100098, dtype=bfloat16)");
    CHECK(cunp::array_repr(cunp::zeros<float>({0}, dev)) == "array([], dtype=float32)");
    CHECK(cunp::array_repr(cunp::zeros<std::int64_t>({0, 3}, dev)) ==
          "array([], shape=(0, 3), dtype=int64)");
    CHECK(cunp::array_repr(cunp::zeros<double>({2, 0, 1}, dev)) ==
          "array([], shape=(2, 0, 1), dtype=float64)");
  });
}

TEST_CASE("large arrays print their corners with ... and their shape", "[print]") {
  on_every_backend([](cunp::device dev) {
    CHECK(cunp::array_repr(cunp::arange<std::int64_t>(0, 2000, 1, dev)) ==
          "array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))");
    CHECK(cunp::array_repr(cunp::arange<float>(0, 1001, 1, dev)) ==
          "array([   0.,    1.,    2., ...,  998.,  999., 1000.],\n      shape=(1001,), "
          "dtype=float32)");
    CHECK(cunp::array_repr(cunp::arange<std::int32_t>(0, 1600, 1, dev).reshape({40, 40}).T()) ==
          "array([[   0,   40,   80, ..., 1480, 1520, 1560],\n"
          "       [   1,   41,   81, ..., 1481, 1521, 1561],\n"
          "       [   2,   42,   82, ..., 1482, 1522, 1562],\n"
          "       ...,\n"
          "       [  37,   77,  117, ..., 1517, 1557, 1597],\n"
          "       [  38,   78,  118, ..., 1518, 1558, 1598],\n"
          "       [  39,   79,  119, ..., 1519, 1559, 1599]],\n"
          "      shape=(40, 40), dtype=int32)");
  });
}

// NumPy's FloatingFormat refuses a negative precision (integer, bool and empty arrays never
// build one) and takes any int: past its 16384-digit buffer more precision changes nothing.
TEST_CASE("array_repr checks precision as NumPy does", "[print][errors]") {
  on_every_backend([](cunp::device dev) {
    const auto f = cunp::asarray<double>({1.5}, dev);
    REQUIRE_THROWS_WITH(cunp::array_repr(f, -1), "precision must be >= 0");
    REQUIRE_THROWS_AS(cunp::array_repr(f, -1), cunp::value_error);
    REQUIRE_THROWS_WITH(cunp::array_repr(cunp::full<double>({}, 1.5, dev), INT_MIN),
                        "precision must be >= 0");
    REQUIRE_THROWS_WITH(cunp::array_repr(cunp::asarray<cunp::complex64>({{1, 1}}, dev), -1),
                        "precision must be >= 0");
    REQUIRE_THROWS_WITH(cunp::array_repr(cunp::asarray<cunp::float16>({NAN}, dev), -1),
                        "precision must be >= 0");
    CHECK(cunp::array_repr(cunp::asarray<std::int64_t>({1, 2}, dev), -1) == "array([1, 2])");
    CHECK(cunp::array_repr(cunp::asarray<bool>({true}, dev), -1) == "array([ True])");
    CHECK(cunp::array_repr(cunp::zeros<double>({0, 3}, dev), -1) ==
          "array([], shape=(0, 3), dtype=float64)");
    CHECK(cunp::array_repr(f, 0) == "array([2.])");
    for (int p : {INT_MAX, INT_MAX - 1, 1 << 20}) {
      INFO("precision " << p);
      CHECK(cunp::array_repr(f, p) == "array([1.5])");
      CHECK(cunp::array_repr(cunp::asarray<double>({5e-324, 1.0}, dev), p) ==
            "array([5.e-324, 1.e+000])");
      CHECK(cunp::array_repr(cunp::asarray<double>({1e-5, 1.0, 1e5}, dev), p) ==
            "array([1.e-05, 1.e+00, 1.e+05])");
      CHECK(cunp::array_repr(cunp::asarray<float>({0.1f}, dev), p) == "array([0.1], dtype=float32)");
      CHECK(cunp::array_repr(cunp::asarray<cunp::complex128>({{1.0 / 3, 2}}, dev), p) ==
            "array([0.3333333333333333+2.j])");
      CHECK(cunp::array_repr(cunp::full<double>({}, 3.141592653589793, dev), p) == "array(3.141592653589793)");
      CHECK(cunp::array_repr(cunp::asarray<cunp::float16>({NAN, 1.0f / 3}, dev), p) ==
            "array([   nan, 0.3333], dtype=float16)");
    }
  });
}

TEST_CASE("operator<< prints the repr, also for views", "[print]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::arange<double>(0, 6, 1, dev).reshape({2, 3});
    CHECK(streamed(a) == "array([[0., 1., 2.],\n       [3., 4., 5.]])");
    CHECK(streamed(a.T()) == "array([[0., 3.],\n       [1., 4.],\n       [2., 5.]])");
    const auto flipped = ndarray<double>(a.storage(), a.offset() + 5, {6}, {-1});
    CHECK(streamed(flipped) == "array([5., 4., 3., 2., 1., 0.])");
    const auto zero_stride = ndarray<double>(a.storage(), a.offset() + 4, {3}, {0});
    CHECK(streamed(zero_stride) == "array([4., 4., 4.])");
    CHECK(streamed(a) == cunp::array_repr(a));
  });
}
