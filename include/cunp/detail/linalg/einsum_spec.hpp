// cunp/detail/linalg/einsum_spec.hpp: numpy.einsum's subscripts resolved against the operands'
// shapes: each operand's label per axis (letters, and the ellipsis's axes as labels of their
// own), the output's labels (NumPy's implicit rule: the letters seen once, sorted, after the
// ellipsis), and each label's extent (1 broadcasting against any other, as NumPy's iterator).
// NumPy's error texts throughout.
#pragma once
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cunp/errors.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {

/// A label: a letter's character code, or -1, -2, ... for the ellipsis's axes counted from the
/// right (so that the ellipses of operands of different ndim align as broadcasting does).
using einsum_label = int;

struct einsum_spec {
  std::vector<std::vector<einsum_label>> inputs;  ///< per operand, per axis
  std::vector<einsum_label> output;
  std::map<einsum_label, index_t> extent;
};

/// One term's letters and where its ellipsis stands (-1: none), spaces skipped.
struct einsum_term {
  std::string letters;
  int ellipsis = -1;
};

inline einsum_term parse_einsum_term(const std::string& s, std::size_t operand, bool output) {
  einsum_term t;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (t.ellipsis >= 0 || s.compare(i, 3, "...") != 0) {
        if (output)
          throw value_error("einstein sum subscripts string contains a '.' that is not part of "
                            "an ellipsis ('...') in the output");
        throw value_error("einstein sum subscripts string contains a '.' that is not part of an "
                          "ellipsis ('...') in operand " + std::to_string(operand));
      }
      t.ellipsis = static_cast<int>(t.letters.size());
      i += 2;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      t.letters += c;
    } else {
      throw value_error(std::string("invalid subscript '") + c +
                        "' in einstein sum subscripts string, subscripts must be letters");
    }
  }
  return t;
}

/// The labels of a term over `ndim` axes (the ellipsis taking what the letters leave).
inline std::vector<einsum_label> einsum_labels(const einsum_term& t, std::size_t ndim,
                                               std::size_t operand) {
  const std::size_t nl = t.letters.size();
  if (nl > ndim)
    throw value_error("einstein sum subscripts string contains too many subscripts for operand " +
                      std::to_string(operand));
  if (t.ellipsis < 0 && nl < ndim)
    throw value_error("operand has more dimensions than subscripts given in einstein sum, but "
                      "no '...' ellipsis provided to broadcast the extra dimensions.");
  std::vector<einsum_label> labels;
  const auto e = static_cast<std::size_t>(t.ellipsis < 0 ? nl : t.ellipsis);
  for (std::size_t i = 0; i < e; ++i) labels.push_back(t.letters[i]);
  const std::size_t ne = ndim - nl;
  for (std::size_t i = 0; i < ne; ++i) labels.push_back(-static_cast<int>(ne - i));
  for (std::size_t i = e; i < nl; ++i) labels.push_back(t.letters[i]);
  return labels;
}

inline einsum_spec make_einsum_spec(const std::string& subscripts,
                                    const std::vector<shape_t>& shapes) {
  const auto arrow = subscripts.find("->");
  const std::string lhs = subscripts.substr(0, arrow);
  std::vector<std::string> terms;
  for (std::size_t start = 0;;) {
    const auto comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  // NumPy's texts, whose "more" and "fewer" describe the subscripts' terms, not the operands.
  if (terms.size() > shapes.size())
    throw value_error("more operands provided to einstein sum function than specified in the "
                      "subscripts string");
  if (terms.size() < shapes.size())
    throw value_error("fewer operands provided to einstein sum function than specified in the "
                      "subscripts string");
  einsum_spec sp;
  std::map<einsum_label, int> count;
  int ellipsis_dims = 0;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const auto labels = einsum_labels(parse_einsum_term(terms[k], k, false), shapes[k].size(), k);
    for (std::size_t d = 0; d < labels.size(); ++d) {
      const einsum_label l = labels[d];
      const index_t e = shapes[k][d];
      if (l < 0) ellipsis_dims = std::max(ellipsis_dims, -l);
      // Repeated within an operand: its diagonal, whose extents must agree exactly.
      for (std::size_t p = 0; p < d; ++p)
        if (labels[p] == l && shapes[k][p] != e)
          throw value_error("dimensions in operand " + std::to_string(k) +
                            " for collapsing index '" + static_cast<char>(l) + "' don't match (" +
                            std::to_string(shapes[k][p]) + " != " + std::to_string(e) + ")");
      ++count[l];  // every occurrence: "ii" alone sums its diagonal
      auto [it, fresh] = sp.extent.emplace(l, e);
      if (!fresh && it->second != e) {
        if (it->second != 1 && e != 1)
          throw value_error(std::string("Size of label '") +
                            (l < 0 ? std::string("...") : std::string(1, static_cast<char>(l))) +
                            "' for operand " + std::to_string(k) + " (" + std::to_string(e) +
                            ") does not match previous terms (" + std::to_string(it->second) +
                            ").");
        it->second = std::max(it->second, e);
      }
    }
    sp.inputs.push_back(labels);
  }
  if (arrow == std::string::npos) {  // implicit: the ellipsis, then the letters seen once
    for (int i = ellipsis_dims; i > 0; --i) sp.output.push_back(-i);
    for (const auto& [l, c] : count)
      if (l > 0 && c == 1) sp.output.push_back(l);
    return sp;
  }
  const einsum_term out = parse_einsum_term(subscripts.substr(arrow + 2), 0, true);
  for (const char c : out.letters) {
    if (std::count(out.letters.begin(), out.letters.end(), c) > 1)
      throw value_error(std::string("einstein sum subscripts string includes output subscript '") +
                        c + "' multiple times");
    if (count.find(c) == count.end())
      throw value_error(std::string("einstein sum subscripts string included output subscript '") +
                        c + "' which never appeared in an input");
  }
  if (out.ellipsis < 0 && ellipsis_dims > 0)
    throw value_error("output has more dimensions than subscripts given in einstein sum, but no "
                      "'...' ellipsis provided to broadcast the extra dimensions.");
  const auto e = static_cast<std::size_t>(out.ellipsis < 0 ? out.letters.size() : out.ellipsis);
  for (std::size_t i = 0; i < e; ++i) sp.output.push_back(out.letters[i]);
  for (int i = ellipsis_dims; i > 0; --i) sp.output.push_back(-i);
  for (std::size_t i = e; i < out.letters.size(); ++i) sp.output.push_back(out.letters[i]);
  return sp;
}

}  // namespace cunp::detail
