// numpy.pad (cunp/padding.hpp) against NumPy's outputs (golden/cases_padding.py, whose table of
// cases this test reads back from the archives), on every backend; the forms of its arguments,
// the places where cunp's rules are its own, every dtype, and the errors with NumPy's texts.
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cunp_test.hpp"
#include "golden_archive.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::pad_mode;
using cunp::slice;

namespace {

std::string text_of(archive& g, const std::string& name) {
  const auto bytes = g.get<std::uint8_t>(name).to_vector();
  return {bytes.begin(), bytes.end()};
}

/// A keyword member of the archive in NumPy's form: shape () one value, (2,) a pair, (n, 2) a
/// table of pairs.
template <class Out, class Pair, class V> Out decode(const ndarray<V>& a) {
  const std::vector<V> v = a.to_vector();
  if (a.ndim() == 0) return Out(static_cast<V>(v[0]));
  if (a.ndim() == 1) return Out(static_cast<V>(v[0]), static_cast<V>(v[1]));
  std::vector<Pair> pairs;
  for (std::size_t i = 0; i + 1 < v.size(); i += 2)
    pairs.emplace_back(static_cast<V>(v[i]), static_cast<V>(v[i + 1]));
  return Out(pairs);
}
cunp::pad_values values_of(archive& g, const cunp::npz_file& z, const std::string& name) {
  using pair = std::pair<cunp::pad_value, cunp::pad_value>;
  switch (z.dtype(name)) {
    case cunp::dtype::bool_: return decode<cunp::pad_values, pair>(g.get<bool>(name));
    case cunp::dtype::int64: return decode<cunp::pad_values, pair>(g.get<std::int64_t>(name));
    case cunp::dtype::uint64: return decode<cunp::pad_values, pair>(g.get<std::uint64_t>(name));
    case cunp::dtype::float64: return decode<cunp::pad_values, pair>(g.get<double>(name));
    case cunp::dtype::complex128:
      return decode<cunp::pad_values, pair>(g.get<cunp::complex128>(name));
    default: break;
  }
  FAIL("unexpected dtype of " << name);
  return {};
}
using index_pair = std::pair<index_t, index_t>;

/// Rounding units of NumPy's result a mode may differ by: the statistics sum in another order,
/// and linear_ramp's float16 results come from float64 through float32.
double ulps_of(const std::string& mode) {
  if (mode == "mean" || mode == "median") return 4;
  return mode == "linear_ramp" ? 2 : 0;
}

template <class T> void sweep(cunp::device dev) {
  const std::string d(cunp::dtype_name_v<T>);
  archive g("pad_" + d);
  const cunp::npz_file z = cunp::load_npz(golden_dir() / ("pad_" + d + ".npz"), cpu);
  std::map<std::string, ndarray<T>> in;
  for (const auto& n : z.names())
    if (n.rfind("in_", 0) == 0) in[n.substr(3)] = g.get<T>(n).to(dev);
  const std::map<std::string, ndarray<T>> originals = in;
  in["x2_rev"] = cunp::view(in.at("x2"), slice(none, none, -1), slice(none, none, -2));
  in["x3_t"] = cunp::transpose(in.at("x3"), {2, 0, 1});
  in["x3_step"] = cunp::view(in.at("x3"), cunp::all, slice(none, none, 2), slice(1, none));
  int cases = 0;
  for (const auto& n : z.names()) {
    const auto at = n.find("__mode");
    if (at == std::string::npos) continue;
    const std::string c = n.substr(0, at), mode = text_of(g, n);
    const auto key = [&](const char* k) { return c + "__" + k; };
    const auto width = decode<cunp::pad_widths, index_pair>(g.get<std::int64_t>(key("width")));
    cunp::pad_options o;
    if (z.contains(key("cv"))) o.constant_values = values_of(g, z, key("cv"));
    if (z.contains(key("ev"))) o.end_values = values_of(g, z, key("ev"));
    if (z.contains(key("sl")))
      o.stat_length = decode<cunp::stat_lengths, index_pair>(g.get<std::int64_t>(key("sl")));
    if (z.contains(key("slnone"))) {
      (void)text_of(g, key("slnone"));
      o.stat_length = none;
    }
    if (z.contains(key("rt")))
      o.reflect_type = text_of(g, key("rt")) == "odd" ? cunp::reflect_type::odd
                                                      : cunp::reflect_type::even;
    const ndarray<T> a = in.at(text_of(g, key("in")));
    INFO("case " << c << " (" << mode << ")");
    g.check(c, [&] {
      const ndarray<T> r = cunp::pad(a, width, mode, o);
      REQUIRE(r.device() == dev);
      REQUIRE(r.is_contiguous());
      REQUIRE((r.size() == 0 || r.data() != a.data()));
      return r;
    }, ulps_of(mode));
    ++cases;
  }
  CHECK(cases > 150);
  for (const auto& [name, a] : originals) {  // no call changed its input, those that threw too
    INFO("input " << name);
    require_equal(a.to(cpu), g.get<T>("in_" + name));
  }
  g.require_all_used();
}

}  // namespace

#if CUNP_IN_PART(0)
TEMPLATE_TEST_CASE("pad matches NumPy in every mode", "[padding][golden]", bool, std::int8_t,
                   std::uint16_t) {
  on_every_backend([](cunp::device dev) { sweep<TestType>(dev); });
}
#endif
#if CUNP_IN_PART(1)
TEMPLATE_TEST_CASE("pad matches NumPy in every mode", "[padding][golden]", std::int64_t,
                   cunp::float16, float) {
  on_every_backend([](cunp::device dev) { sweep<TestType>(dev); });
}
#endif
#if CUNP_IN_PART(2)
TEMPLATE_TEST_CASE("pad matches NumPy in every mode", "[padding][golden]", double,
                   cunp::complex64, cunp::complex128) {
  on_every_backend([](cunp::device dev) { sweep<TestType>(dev); });
}
#endif

namespace {
/// pad of the values of `base` as T against pad of them as R, then cast to T: the same values
/// when the modes only move, compare or (integers) round them.
template <class T, class R>
void same_as_wider(cunp::device dev, const std::vector<pad_mode>& modes) {
  const auto base = cunp::asarray<double>({3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8}, {3, 4}, cpu);
  const auto a = base.template astype<T>().to(dev);
  const auto wide = base.template astype<R>().to(dev);
  const cunp::pad_widths w{{2, 7}, {5, 1}};
  for (const pad_mode m : modes) {
    INFO("mode " << cunp::detail::padding::mode_name(m) << ", dtype " << cunp::dtype_name_v<T>);
    cunp::pad_options o;
    if (m == pad_mode::constant) o.constant_values = {{7, 2}, {1, 0}};
    if (m == pad_mode::linear_ramp) o.end_values = {10, 3};
    if (m == pad_mode::mean || m == pad_mode::maximum) o.stat_length = {1, 3};
    require_equal(cunp::pad(a, w, m, o).to(cpu),
                  cunp::pad(wide, w, m, o).to(cpu).template astype<T>());
  }
}
const std::vector<pad_mode> moving = {pad_mode::constant, pad_mode::edge,    pad_mode::reflect,
                                      pad_mode::symmetric, pad_mode::wrap,   pad_mode::maximum,
                                      pad_mode::minimum};
}  // namespace

#if CUNP_IN_PART(0)
TEST_CASE("pad: every other dtype", "[padding]") {
  on_every_backend([](cunp::device dev) {
    std::vector<pad_mode> integral = moving;
    integral.insert(integral.end(), {pad_mode::linear_ramp, pad_mode::mean, pad_mode::median});
    same_as_wider<std::uint8_t, std::int64_t>(dev, integral);
    same_as_wider<std::int16_t, std::int64_t>(dev, integral);
    same_as_wider<std::int32_t, std::int64_t>(dev, integral);
    same_as_wider<std::uint32_t, std::int64_t>(dev, integral);
    same_as_wider<std::uint64_t, std::int64_t>(dev, integral);
    same_as_wider<cunp::bfloat16, float>(dev, moving);
    // odd reflection of signed values: 2 * edge - x in the array's own dtype
    same_as_wider<std::int16_t, std::int64_t>(dev, {pad_mode::reflect});
    const auto a = cunp::asarray<std::int32_t>({1, 5, 2}, {3}, dev);
    require_values(cunp::pad(a, 2, pad_mode::reflect, {.reflect_type = cunp::reflect_type::odd}),
                   {0, -3, 1, 5, 2, -1, 3}, {7});
  });
}
#endif

#if CUNP_IN_PART(1)
TEST_CASE("pad: the argument forms", "[padding]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::asarray<double>({1, 2, 3, 4, 5}, {5}, dev);
    require_values(cunp::pad(a, 2), {0, 0, 1, 2, 3, 4, 5, 0, 0}, {9});
    require_values(cunp::pad(a, {1, 3}, pad_mode::edge), {1, 1, 2, 3, 4, 5, 5, 5, 5}, {9});
    require_values(cunp::pad(a, {{2, 0}}, "wrap"), {4, 5, 1, 2, 3, 4, 5}, {7});
    require_values(cunp::pad(a, std::vector<index_pair>{{0, 1}}, "symmetric"),
                   {1, 2, 3, 4, 5, 5}, {6});
    require_values(cunp::pad(a, 3, pad_mode::mean, {.stat_length = {2, 1}}),
                   {1.5, 1.5, 1.5, 1, 2, 3, 4, 5, 5, 5, 5}, {11});
    require_values(cunp::pad(a, 2, pad_mode::maximum, {.stat_length = none}),
                   {5, 5, 1, 2, 3, 4, 5, 5, 5}, {9});
    require_values(cunp::pad(a, 4, pad_mode::linear_ramp, {.end_values = 5}),
                   {5, 4, 3, 2, 1, 2, 3, 4, 5, 5, 5, 5, 5}, {13});
    require_values(cunp::pad(a, 1, pad_mode::constant, {.constant_values = {-1, 2.5}}),
                   {-1, 1, 2, 3, 4, 5, 2.5}, {7});
    require_values(cunp::pad(a, 1, pad_mode::constant, {.constant_values = cunp::float16(0.5)}),
                   {0.5, 1, 2, 3, 4, 5, 0.5}, {7});
    const auto b = cunp::asarray<std::int64_t>({1, 2, 3, 4, 5, 6}, {2, 3}, dev);
    require_values(
        cunp::pad(b, {{1, 0}, {0, 2}}, "constant", {.constant_values = {{9, 8}, {7, 6}}}),
                   {9, 9, 9, 6, 6, 1, 2, 3, 6, 6, 4, 5, 6, 6, 6}, {3, 5});
    const std::vector<std::pair<cunp::pad_value, cunp::pad_value>> per_axis = {{9, 8}, {7, 6}};
    require_equal(cunp::pad(b, 1, "constant", {.constant_values = per_axis}).to(cpu),
                  cunp::pad(b, 1, "constant", {.constant_values = {{9, 8}, {7, 6}}}).to(cpu));
    require_values(cunp::pad(b, {{0, 0}, {1, 2}}, pad_mode::reflect,
                             {.reflect_type = cunp::reflect_type::odd}),
                   {0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8}, {2, 6});
    // mode empty: the shape and the centre; the pad areas hold whatever the memory held
    const auto e = cunp::pad(b, {{1, 2}, {3, 0}}, pad_mode::empty);
    REQUIRE(e.shape() == shape_t{5, 6});
    require_equal(cunp::view(e, slice(1, 3), slice(3, none)).to(cpu), b.to(cpu));
    // a 0-d array: a copy, whatever one pair pads it with
    const auto s = cunp::full<float>({}, 2.5f, dev);
    const auto ps = cunp::pad(s, {{4, 1}}, pad_mode::linear_ramp);
    REQUIRE(ps.ndim() == 0);
    REQUIRE(ps.data() != s.data());
    REQUIRE(ps.item() == 2.5f);
  });
}

TEST_CASE("pad: large pads repeat in chunks, on every backend alike", "[padding]") {
  // Widths far past the axes (reflect, symmetric and wrap double their chunks) and large enough
  // inputs that every kernel takes its general path.
  std::uint64_t seed = 7;
  std::vector<float> v(97 * 130);
  for (auto& x : v) x = float(splitmix64(seed) % 1000) / 8;
  const auto host = cunp::asarray(v, {97, 130}, cpu);
  const auto at = [&](cunp::device dev) {
    return cunp::view(host.to(dev), slice(none, none, -1), slice(3, none, 2));
  };
  for (const auto& [mode, o] : std::vector<std::pair<std::string, cunp::pad_options>>{
           {"reflect", {}},
           {"symmetric", {.reflect_type = cunp::reflect_type::odd}},
           {"wrap", {}},
           {"linear_ramp", {.end_values = {{1, -2}, {3.5, 0}}}},
           {"mean", {.stat_length = {{5, 1}, {30, 7}}}},
           {"median", {.stat_length = 9}},
           {"edge", {}}}) {
    INFO("mode " << mode);
    same_on_every_backend([&](cunp::device dev) {
      return cunp::pad(at(dev), {{301, 8}, {2, 500}}, mode, o);
    });
  }
}
#endif

#if CUNP_IN_PART(2)
TEST_CASE("pad: values are stored as Python scalars", "[padding]") {
  on_every_backend([](cunp::device dev) {
    const auto u8 = cunp::zeros<std::uint8_t>({2}, dev);
    const auto f = cunp::zeros<double>({2}, dev);
    const auto i64 = cunp::zeros<std::int64_t>({2}, dev);
    // NumPy's one-value forms go through NumPy scalars, which wrap (300 -> 44) and drop the
    // imaginary part; cunp raises as NumPy does for a table of values (docs/differences.md).
    require_numpy_error([&] { return cunp::pad(u8, 1, "constant", {.constant_values = 300}); },
                        "OverflowError: Python integer 300 out of bounds for uint8");
    require_numpy_error(
        [&] { return cunp::pad(u8, 1, "constant", {.constant_values = {1, -1}}); },
        "OverflowError: Python integer -1 out of bounds for uint8");
    require_numpy_error(
        [&] { return cunp::pad(f, 1, "constant", {.constant_values = cunp::complex128(0, 1)}); },
        "TypeError: float() argument must be a string or a real number, not 'complex'");
    // One kind for all values, as np.array makes it: with a float beside it, 300 is 300.0.
    require_numpy_error(
        [&] { return cunp::pad(u8, 1, "constant", {.constant_values = {300, 0.5}}); },
        "OverflowError: Python integer 300 out of bounds for uint8");
    require_values(cunp::pad(i64, 1, "constant",
                             {.constant_values = {(std::int64_t(1) << 62) + 1, 0.5}}),
                   {std::int64_t(1) << 62, 0, 0, 0}, {4});
    require_values(
        cunp::pad(i64, 1, "constant", {.constant_values = {(std::int64_t(1) << 62) + 1, 1}}),
                   {(std::int64_t(1) << 62) + 1, 0, 0, 1}, {4});
    const auto u64 = cunp::zeros<std::uint64_t>({1}, dev);
    const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    require_values(cunp::pad(u64, 1, "constant", {.constant_values = top}), {top, 0, top}, {3});
    require_numpy_error([&] { return cunp::pad(i64, 1, "constant", {.constant_values = top}); },
                        "OverflowError: Python int too large to convert to C long");
    require_numpy_error([&] { return cunp::pad(u8, 1, "constant", {.constant_values = 1e300}); },
                        "OverflowError: Python int too large to convert to C long");
    require_values(cunp::pad(u8, 1, "constant", {.constant_values = 2.9}), {2, 0, 0, 2}, {4});
    const auto b = cunp::zeros<bool>({1}, dev);
    require_values(cunp::pad(b, 1, "constant", {.constant_values = {0.0, 0.5}}),
                   {false, false, true}, {3});
    require_values(u8, {0, 0}, {2});  // the calls that threw changed nothing
  });
}

TEST_CASE("pad: errors", "[padding]") {
  on_every_backend([](cunp::device dev) {
    const auto a = cunp::ones<float>({2, 3}, dev);
    const index_t big = std::numeric_limits<index_t>::max();
    require_numpy_error([&] { return cunp::pad(a, big); },
                        "ValueError: array is too big; `arr.size * arr.dtype.itemsize` is larger "
                        "than the maximum possible size.");
    require_numpy_error([&] { return cunp::pad(a, {index_t(1) << 61, 0}); },
                        "ValueError: array is too big; `arr.size * arr.dtype.itemsize` is larger "
                        "than the maximum possible size.");
    require_numpy_error([&] { return cunp::pad(a, std::vector<index_pair>{}); },
                        "ValueError: zero-size array to reduction operation minimum which has no "
                        "identity");
    require_numpy_error(
        [&] { return cunp::pad(a, 1, "edge", {.constant_values = 1, .stat_length = 2}); },
        "ValueError: unsupported keyword arguments for mode 'edge': {'constant_values', "
        "'stat_length'}");
    require_numpy_error(
        [&] {
          const std::vector<std::pair<cunp::pad_value, cunp::pad_value>> no_pairs;
          return cunp::pad(a, 1, "constant", {.constant_values = no_pairs});
        },
        "ValueError: operands could not be broadcast together with remapped shapes "
        "[original->remapped]: (0,2)  and requested shape (2,2)");
    require_numpy_error(
        [&] { return cunp::pad(a, 1, pad_mode::maximum, {.stat_length = {{0, 1}}}); },
        "ValueError: stat_length of 0 yields no value for padding");
    require_values(a, std::vector<float>(6, 1.f), {2, 3});
  });
}
#endif
