// Copies of every layout: each kernel of the GPU's strided copy (rows, reversed rows, tiles for
// permutations with and without batch dimensions, edge tiles, widened items, single elements)
// and astype through the same paths, checked element by element against an independent model:
// the source's values read through its own offset and strides.
#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

#include "cunp_test.hpp"

using namespace cunp_test;
using cunp::cpu;
using cunp::none;
using cunp::slice;

namespace {

/// Distinct values of T for positions 0, 1, 2, ... (bool alternates).
template <class T> ndarray<T> numbered(const shape_t& shape, cunp::device dev) {
  index_t n = 1;
  for (const auto e : shape) n *= e;
  std::vector<T> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, bool>) v[std::size_t(i)] = (i * 7 + i / 3) % 2 != 0;
    else v[std::size_t(i)] = cunp::detail::convert<T>(static_cast<double>((i * 37) % 2039));
  }
  return cunp::asarray(v, shape, dev);
}

/// The values of view v of `base` in C order, read from base's elements through v's offset and
/// strides: what any copy of v must hold.
template <class T> std::vector<T> model(const ndarray<T>& v, const ndarray<T>& base) {
  const auto all_values = base.to_vector();
  std::vector<T> out;
  const auto& shape = v.shape();
  const auto& strides = v.strides();
  std::vector<index_t> idx(shape.size(), 0);
  if (v.size() == 0) return out;
  for (;;) {
    index_t pos = v.offset() - base.offset();
    for (std::size_t d = 0; d < shape.size(); ++d) pos += idx[d] * strides[d];
    out.push_back(all_values[std::size_t(pos)]);
    std::size_t d = shape.size();
    while (d > 0 && ++idx[d - 1] == shape[d - 1]) idx[--d] = 0;
    if (d == 0) return out;
  }
}

/// A view of a base of `shape`, made by `of` (so that the same view can be taken of another base).
template <class T> struct layout_case {
  const char* name;
  shape_t shape;
  std::function<ndarray<T>(const ndarray<T>&)> of;
};

/// Views of every kind the copy kernels tell apart.
template <class T> std::vector<layout_case<T>> layouts() {
  using A = const ndarray<T>&;
  const shape_t m{300, 257};    // rows >= one block, odd: edge tiles
  const shape_t s{37, 1000};    // few long rows
  const shape_t even{264, 300};  // strides that 1- and 2-byte items can move 4 bytes at a time
  const shape_t t3{6, 40, 33};
  const shape_t t3e{4, 64, 72};
  const shape_t t4{3, 5, 40, 36};
  const shape_t thin{1000, 7};  // too short for tiles or rows
  const shape_t v{5000};
  const shape_t rows16{16, 4096};  // rows that every item size moves 16 bytes at a time
  const auto rev = slice(none, none, -1);
  return {
      {"transpose", m, [](A a) { return cunp::transpose(a); }},
      {"transpose_wide", s, [](A a) { return cunp::transpose(a); }},
      {"transpose_of_slice", m,
       [](A a) { return cunp::transpose(cunp::view(a, slice(3, 290), slice(1, 250))); }},
      {"transpose_even", even, [](A a) { return cunp::transpose(a); }},
      {"transpose_even_offset", even,
       [](A a) { return cunp::transpose(cunp::view(a, slice(1, none), slice(1, none))); }},
      {"permute_even_201", t3e, [](A a) { return cunp::transpose(a, {2, 0, 1}); }},
      {"permute_201", t3, [](A a) { return cunp::transpose(a, {2, 0, 1}); }},
      {"permute_120", t3, [](A a) { return cunp::transpose(a, {1, 2, 0}); }},
      {"permute_021", t3, [](A a) { return cunp::transpose(a, {0, 2, 1}); }},
      {"permute_210", t3, [](A a) { return cunp::transpose(a, {2, 1, 0}); }},
      {"permute_4d_batch", t4, [](A a) { return cunp::transpose(a, {1, 0, 3, 2}); }},
      {"permute_4d_3021", t4, [](A a) { return cunp::transpose(a, {3, 0, 2, 1}); }},
      {"flip_rows", m, [rev](A a) { return cunp::view(a, cunp::all, rev); }},
      {"flip_rows_even", even, [rev](A a) { return cunp::view(a, cunp::all, rev); }},
      {"flip_rows_wide", rows16, [rev](A a) { return cunp::view(a, cunp::all, rev); }},
      {"flip_rows_short", s, [rev](A a) { return cunp::view(a, slice(1, none), rev); }},
      {"flip_both", m, [rev](A a) { return cunp::view(a, rev, rev); }},
      {"flip_1d", v, [rev](A a) { return cunp::view(a, rev); }},
      {"flip_transpose", m,
       [rev](A a) { return cunp::transpose(cunp::view(a, rev, cunp::all)); }},
      {"columns_offset", m, [](A a) { return cunp::view(a, cunp::all, slice(1, 256)); }},
      {"columns_aligned", s, [](A a) { return cunp::view(a, cunp::all, slice(8, 1000)); }},
      {"every_other", m,
       [](A a) { return cunp::view(a, slice(none, none, 2), slice(none, none, 2)); }},
      {"thin_transpose", thin, [](A a) { return cunp::transpose(a); }},
      {"strided_1d", v, [](A a) { return cunp::view(a, slice(1, none, 3)); }},
  };
}

}  // namespace

TEMPLATE_TEST_CASE("a copy of any layout holds the view's elements", "[copy][layouts]", bool,
                   std::int8_t, std::int16_t, cunp::float16, float, double, std::complex<float>,
                   std::complex<double>) {
  using T = TestType;
  on_every_backend([](cunp::device dev) {
    for (const auto& c : layouts<T>()) {
      INFO("layout " << c.name);
      const auto base = numbered<T>(c.shape, dev);
      const auto view = c.of(base);
      const auto expect = model(view, base);
      const auto copied = cunp::ascontiguousarray(view);
      REQUIRE(copied.device() == dev);
      REQUIRE(copied.shape() == view.shape());
      require_values(copied, expect, view.shape());
      // The same layout as the destination: a contiguous array written into the view.
      const auto target = cunp::zeros<T>(c.shape, dev);
      cunp::copyto(c.of(target), cunp::asarray(expect, view.shape(), dev));
      require_values(cunp::ascontiguousarray(c.of(target)), expect, view.shape());
    }
  });
}

TEST_CASE("astype of permuted and reversed views converts every element", "[copy][layouts]") {
  on_every_backend([](cunp::device dev) {
    for (const auto& c : layouts<float>()) {
      INFO("layout " << c.name);
      const auto base = numbered<float>(c.shape, dev);
      const auto view = c.of(base);
      const auto expect = model(view, base);
      std::vector<double> as_double(expect.begin(), expect.end());
      std::vector<cunp::float16> as_half;
      for (const float x : expect) as_half.push_back(cunp::float16(x));
      require_values(view.astype<double>(), as_double, view.shape());
      require_values(view.astype<cunp::float16>(), as_half, view.shape());
    }
  });
}
