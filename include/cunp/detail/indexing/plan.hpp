// cunp/detail/indexing/plan.hpp: the geometry of the index operations, shared by every backend.
//
// Each operation walks one iteration space in C order (take's result, the indices of put, the
// broadcast shape of take_along_axis ...). At each position i a loop operand holds the index
// array's element, which picks the indexed array's element at base(i) + k * stride (k: the index
// normalised to [0, n)), base(i) being another loop operand. Positions i are counted in that C
// order, which is also the order of the index array's own elements (an index array that
// broadcasts repeats its elements in place), so "the first bad index" means the same on the cpu,
// which checks the index array before it writes anything, and in a GPU kernel, which reports
// the smallest bad position i.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cunp/detail/core/layout.hpp"
#include "cunp/detail/indexing/fault.hpp"
#include "cunp/detail/indexing/normalize.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {

/// Where index k (normalised to [0, n)) takes its element: base + k * stride, base being a loop
/// operand; cstride is the same step in the indexed array's C order (put's winner table).
struct index_target {
  std::int64_t n = 0;
  std::int64_t stride = 0;
  std::int64_t cstride = 0;
};

/// What a call checks in mode raise, and how its error reads.
struct index_check {
  index_op op = index_op::take;
  int axis = 0;              ///< the axis the error names
  bool enabled = false;      ///< whether NumPy checks the indices of this call at all
  loop_layout<1> indices{};  ///< the index array over its own shape, C order
};

/// take, take_along_axis: out(i) = source[base(i) + k(i) * stride] over the result's shape.
struct gather_plan {
  loop_layout<3> layout;  ///< operands: 0 out, 1 the index array, 2 the source's base offset
  index_target target;
};
inline constexpr std::size_t gather_out = 0, gather_index = 1, gather_base = 2;

/// put, put_along_axis, the add_at family: target[base(i) + k(i) * stride] is written, or updated
/// with v(i), over the shape that the indices address.
struct scatter_plan {
  loop_layout<4> layout;  ///< operands: 0 the index array, 1 v, 2 the target's base offset, 3
                          ///< the base's C-order position in the target
  index_target target;
  std::int64_t cycle = 0;  ///< put: v[i % cycle] for v shorter than the indices; 0: operand 1
};
inline constexpr std::size_t scatter_index = 0, scatter_value = 1, scatter_base = 2,
                             scatter_cbase = 3;

/// choose: out(i) = choices[k(i)](i). The choices broadcast differently, so their strides are
/// kept per choice over the broadcast shape, less its extents of 1 (no dimensions merged).
inline constexpr int max_choices = 63;  ///< NumPy: at most 64 arrays, the index array included
struct choose_plan {
  strided_shape shape{};
  std::int64_t size = 0;
  std::int64_t out[max_dims]{};
  std::int64_t index[max_dims]{};
  std::int32_t count = 0;
  const void* data[max_choices]{};
  std::int64_t strides[max_choices][max_dims]{};
};

/// Operand k of a layout alone, over the same shape.
template <std::size_t N>
loop_layout<1> operand_layout(const loop_layout<N>& l, std::size_t k) {
  loop_layout<1> one;
  one.shape = l.shape;
  one.strides[0] = l.strides[k];
  one.size = l.size;
  return one;
}

/// "(2,1)": the way NumPy's fancy-indexing errors print a shape (no spaces).
inline std::string compact_shape_str(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

/// The strides that read an array of shape `sh` broadcast to `to` (NumPy's assignment rule:
/// leading extents of 1 beyond to's rank are dropped), or nullopt when it does not broadcast.
inline std::optional<strides_t> assigned_strides(const shape_t& sh, const strides_t& st,
                                                  const shape_t& to) {
  std::size_t lead = 0;
  while (sh.size() - lead > to.size()) {
    if (sh[lead] != 1) return std::nullopt;
    ++lead;
  }
  strides_t out(to.size(), 0);
  const std::size_t skip = to.size() - (sh.size() - lead);
  for (std::size_t d = skip; d < to.size(); ++d) {
    const index_t e = sh[lead + d - skip];
    if (e == to[d])
      out[d] = st[lead + d - skip];
    else if (e != 1)
      return std::nullopt;
  }
  return out;
}

/// take(a, idx, axis): the result is a.shape[:axis] + idx.shape + a.shape[axis+1:], read at
/// a's offset of the outer and inner position plus k * a.strides[axis].
inline gather_plan take_plan(const shape_t& ash, const strides_t& ast, int ax, const shape_t& ish,
                             const strides_t& ist, const strides_t& ost) {
  shape_t s(ash.begin(), ash.begin() + ax);
  strides_t si(s.size(), 0), sb(ast.begin(), ast.begin() + ax);
  s.insert(s.end(), ish.begin(), ish.end());
  si.insert(si.end(), ist.begin(), ist.end());
  sb.resize(s.size(), 0);
  s.insert(s.end(), ash.begin() + ax + 1, ash.end());
  si.resize(s.size(), 0);
  sb.insert(sb.end(), ast.begin() + ax + 1, ast.end());
  return {make_loop_layout<3>(s, {&ost, &si, &sb}), {ash[ax], ast[ax], 0}};
}

/// The shape take_along_axis reads and put_along_axis writes: idx broadcast against a in every
/// dimension but `ax`, where idx's extent counts. A mismatch is NumPy's IndexError for the fancy
/// index it builds (the aranges of a's other axes and idx).
inline shape_t along_axis_shape(const shape_t& ash, int ax, const shape_t& ish) {
  shape_t s(ash.size());
  for (std::size_t d = 0; d < ash.size(); ++d) {
    if (int(d) == ax || ash[d] == ish[d] || ash[d] == 1) {
      s[d] = ish[d];
    } else if (ish[d] == 1) {
      s[d] = ash[d];
    } else {
      std::string msg =
          "shape mismatch: indexing arrays could not be broadcast together with "
          "shapes ";
      for (std::size_t k = 0; k < ash.size(); ++k) {
        shape_t ones(ash.size(), 1);
        if (int(k) == ax)
          ones = ish;
        else
          ones[k] = ash[k];
        msg += compact_shape_str(ones) + " ";
      }
      throw index_error(msg);
    }
  }
  return s;
}

/// A's strides over the along-axis shape s: 0 on `ax` (the index steps there) and where a's
/// extent 1 is broadcast.
inline strides_t along_axis_base(const shape_t& ash, const strides_t& ast, int ax,
                                 const shape_t& s) {
  strides_t b(ash.size(), 0);
  for (std::size_t d = 0; d < ash.size(); ++d)
    if (int(d) != ax && ash[d] == s[d]) b[d] = ast[d];
  return b;
}
/// idx's strides over the along-axis shape s (0 where its extent 1 is broadcast).
inline strides_t along_axis_index(const shape_t& ish, const strides_t& ist, const shape_t& s) {
  strides_t b(ish.size(), 0);
  for (std::size_t d = 0; d < ish.size(); ++d)
    if (ish[d] == s[d]) b[d] = ist[d];
  return b;
}

/// take_along_axis(a, idx, axis) over the along-axis shape s.
inline gather_plan take_along_plan(const shape_t& ash, const strides_t& ast, int ax,
                                   const shape_t& ish, const strides_t& ist, const shape_t& s,
                                   const strides_t& ost) {
  const strides_t si = along_axis_index(ish, ist, s), sb = along_axis_base(ash, ast, ax, s);
  return {make_loop_layout<3>(s, {&ost, &si, &sb}), {ash[ax], ast[ax], 0}};
}

/// put_along_axis(a, idx, v, axis) over the along-axis shape s, v read with strides sv.
inline scatter_plan put_along_plan(const shape_t& ash, const strides_t& ast, int ax,
                                   const shape_t& ish, const strides_t& ist, const shape_t& s,
                                   const strides_t& sv) {
  const strides_t ac = c_strides(ash);
  const strides_t si = along_axis_index(ish, ist, s), sb = along_axis_base(ash, ast, ax, s),
                  sc = along_axis_base(ash, ac, ax, s);
  return {make_loop_layout<4>(s, {&si, &sv, &sb, &sc}), {ash[ax], ast[ax], ac[ax]}, 0};
}

/// put(a, idx, v) into a flattened a of n elements `stride` apart, v flat and contiguous (nv
/// elements, cycled when fewer than the indices).
inline scatter_plan put_plan(index_t n, index_t stride, const shape_t& ish, const strides_t& ist,
                             index_t nv) {
  const index_t ni = shape_size(ish);
  const strides_t sv = nv >= ni ? c_strides(ish) : strides_t(ish.size(), 0);
  const strides_t zero(ish.size(), 0);
  return {make_loop_layout<4>(ish, {&ist, &sv, &zero, &zero}), {n, stride, 1}, nv >= ni ? 0 : nv};
}

/// The shape the add_at family updates: a[idx], that is idx.shape + a.shape[1:].
inline shape_t at_shape(const shape_t& ash, const shape_t& ish) {
  shape_t s = ish;
  s.insert(s.end(), ash.begin() + 1, ash.end());
  return s;
}

/// add_at(a, idx, v) and the rest of the family: a[idx[j], ...] op= v over at_shape, v read with
/// strides sv.
inline scatter_plan at_plan(const shape_t& ash, const strides_t& ast, const shape_t& ish,
                            const strides_t& ist, const strides_t& sv) {
  const shape_t s = at_shape(ash, ish);
  strides_t si = ist, sb(ish.size(), 0);
  si.resize(s.size(), 0);
  sb.insert(sb.end(), ast.begin() + 1, ast.end());
  const strides_t zero(s.size(), 0);
  return {make_loop_layout<4>(s, {&si, &sv, &sb, &zero}), {ash[0], ast[0], 0}, 0};
}

/// choose over the broadcast shape s: out and the index array read with strides so and si, each
/// choice at data[c] with strides sc[c] (all already broadcast to s).
inline choose_plan make_choose_plan(const shape_t& s, const strides_t& so, const strides_t& si,
                                    const std::vector<const void*>& data,
                                    const std::vector<strides_t>& sc) {
  choose_plan p;
  p.size = shape_size(s);
  p.count = static_cast<std::int32_t>(data.size());
  for (std::size_t c = 0; c < data.size(); ++c) p.data[c] = data[c];
  int nd = 0;
  for (std::size_t d = 0; d < s.size(); ++d) {
    if (s[d] == 1) continue;
    if (nd == max_dims)
      throw value_error("cunp supports at most " + std::to_string(max_dims) +
                        " dimensions that cannot be merged; this array has more");
    p.shape.extent[nd] = s[d];
    p.out[nd] = so[d];
    p.index[nd] = si[d];
    for (std::size_t c = 0; c < data.size(); ++c) p.strides[c][nd] = sc[c][d];
    ++nd;
  }
  p.shape.ndim = nd;
  return p;
}

/// The check of a call: enabled when NumPy checks its indices, over the index array itself.
inline index_check make_check(index_op op, int axis, bool enabled, const shape_t& ish,
                              const strides_t& ist) {
  return {op, axis, enabled, make_loop_layout<1>(ish, {&ist})};
}

}  // namespace cunp::detail
