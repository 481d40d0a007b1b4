// cunp/detail/io/format.hpp: NumPy's array printing (numpy/_core/arrayprint.py and dragon4.c) under
// the default print options, on host values: element formatters and the line layout.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/dtype.hpp"
#include "cunp/shape.hpp"

namespace cunp::detail {

// numpy.get_printoptions() defaults; floatmode 'maxprec', suppress False, legacy False.
inline constexpr int print_precision = 8;
inline constexpr index_t print_threshold = 1000;
inline constexpr index_t print_edgeitems = 3;
inline constexpr int print_linewidth = 75;

/// The precision past which more prints nothing more: Dragon4 stops at NumPy's 16384-character
/// digit buffer, about 330 digits from the decimal point for any float64. float_format clamps to
/// it, so that no arithmetic on a precision up to INT_MAX overflows an int.
inline constexpr int print_precision_max = 1 << 20;

/// NumPy's FloatingFormat check, for the dtypes that it formats (the floats and complex numbers;
/// bfloat16 prints per element and takes no precision): precision must be >= 0.
template <class T> void check_print_precision(int precision) {
  constexpr bool floating = is_complex_v<T> || (is_floating_v<T> && !std::is_same_v<T, bfloat16>);
  if (floating && precision < 0) throw value_error("precision must be >= 0");
}

/// An unsigned integer of any size, only as much arithmetic as Dragon4 needs.
class big_uint {
 public:
  explicit big_uint(std::uint64_t v = 0) {
    if (v) blocks_.push_back(static_cast<std::uint32_t>(v));
    if (v >> 32) blocks_.push_back(static_cast<std::uint32_t>(v >> 32));
  }
  static big_uint pow2(int e) {
    big_uint r(1);
    r.shift_left(e);
    return r;
  }
  [[nodiscard]] bool is_zero() const { return blocks_.empty(); }
  void shift_left(int n) {
    if (is_zero() || n == 0) return;
    const int words = n / 32, bits = n % 32;
    blocks_.insert(blocks_.begin(), static_cast<std::size_t>(words), 0u);
    if (bits) {
      std::uint32_t carry = 0;
      for (std::size_t i = static_cast<std::size_t>(words); i < blocks_.size(); ++i) {
        const std::uint32_t next = blocks_[i] >> (32 - bits);
        blocks_[i] = (blocks_[i] << bits) | carry;
        carry = next;
      }
      if (carry) blocks_.push_back(carry);
    }
  }
  void multiply(std::uint32_t m) {
    std::uint64_t carry = 0;
    for (auto& b : blocks_) {
      const std::uint64_t p = std::uint64_t(b) * m + carry;
      b = static_cast<std::uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) blocks_.push_back(static_cast<std::uint32_t>(carry));
  }
  void multiply_pow10(int n) {
    for (; n >= 9; n -= 9) multiply(1000000000u);
    for (; n > 0; --n) multiply(10u);
  }
  void add(const big_uint& o) {
    if (o.blocks_.size() > blocks_.size()) blocks_.resize(o.blocks_.size(), 0u);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      const std::uint64_t s =
          std::uint64_t(blocks_[i]) + (i < o.blocks_.size() ? o.blocks_[i] : 0u) + carry;
      blocks_[i] = static_cast<std::uint32_t>(s);
      carry = s >> 32;
    }
    if (carry) blocks_.push_back(static_cast<std::uint32_t>(carry));
  }
  /// *this -= o, for o <= *this.
  void subtract(const big_uint& o) {
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      std::int64_t d =
          std::int64_t(blocks_[i]) - (i < o.blocks_.size() ? o.blocks_[i] : 0u) - borrow;
      borrow = d < 0;
      blocks_[i] = static_cast<std::uint32_t>(d + (borrow << 32));
    }
    while (!blocks_.empty() && blocks_.back() == 0) blocks_.pop_back();
  }
  friend int compare(const big_uint& a, const big_uint& b) {
    if (a.blocks_.size() != b.blocks_.size()) return a.blocks_.size() < b.blocks_.size() ? -1 : 1;
    for (std::size_t i = a.blocks_.size(); i-- > 0;)
      if (a.blocks_[i] != b.blocks_[i]) return a.blocks_[i] < b.blocks_[i] ? -1 : 1;
    return 0;
  }

 private:
  std::vector<std::uint32_t> blocks_;  // little-endian, no leading zero block
};

/// A finite binary float as mantissa * 2^exponent, with what Dragon4 needs about its neighbours.
struct float_parts {
  bool negative = false, nan = false, inf = false;
  std::uint64_t mantissa = 0;
  int exponent = 0;
  int mantissa_bit = 0;          // index of the highest set bit of mantissa
  bool unequal_margins = false;  // the gap below is half the gap above (a power of two)
};

template <int MantissaBits, int ExponentBits>
float_parts decompose_bits(std::uint64_t bits) {
  constexpr std::uint64_t exp_mask = (std::uint64_t(1) << ExponentBits) - 1;
  constexpr int bias = int(exp_mask >> 1);
  const std::uint64_t frac = bits & ((std::uint64_t(1) << MantissaBits) - 1);
  const std::uint64_t e = (bits >> MantissaBits) & exp_mask;
  float_parts p;
  p.negative = (bits >> (MantissaBits + ExponentBits)) & 1;
  if (e == exp_mask) {
    (frac ? p.nan : p.inf) = true;
  } else if (e != 0) {
    p.mantissa = (std::uint64_t(1) << MantissaBits) | frac;
    p.exponent = int(e) - bias - MantissaBits;
    p.mantissa_bit = MantissaBits;
    p.unequal_margins = e != 1 && frac == 0;
  } else {
    p.mantissa = frac;
    p.exponent = 1 - bias - MantissaBits;
    p.mantissa_bit = frac ? std::bit_width(frac) - 1 : 0;
  }
  return p;
}

inline float_parts decompose(float16 v) { return decompose_bits<10, 5>(v.bits); }
inline float_parts decompose(float v) {
  return decompose_bits<23, 8>(std::bit_cast<std::uint32_t>(v));
}
inline float_parts decompose(double v) {
  return decompose_bits<52, 11>(std::bit_cast<std::uint64_t>(v));
}

/// Decimal digits d1 d2 ... of a value, d1 standing for d1 * 10^exponent.
struct decimal_digits {
  std::string digits;
  int exponent = 0;
};

/// Dragon4 in NumPy's unique mode (Burger & Dybvig with IEEE unbiased rounding): the shortest
/// digits that read back as the value, but at least down to the 10^cutoff_min place, and never
/// past the 10^cutoff_max place, where the last digit is rounded half to even. `fraction` says
/// the cutoffs count digits after the decimal point (else significant digits); -1: no cutoff.
inline decimal_digits dragon4(const float_parts& p, bool fraction, int cutoff_max, int cutoff_min) {
  decimal_digits out;
  if (p.mantissa == 0) {
    out.digits = "0";
    return out;
  }
  const bool even = (p.mantissa & 1) == 0;
  // value = scaled_value / scale; margin_low/high = half the distance to the neighbours.
  big_uint scaled_value(p.mantissa), scale, margin_low;
  const int extra = p.unequal_margins ? 2 : 1;
  if (p.exponent > 0) {
    scaled_value.shift_left(p.exponent + extra);
    scale = big_uint(std::uint64_t(1) << extra);
    margin_low = big_uint::pow2(p.exponent);
  } else {
    scaled_value.shift_left(extra);
    scale = big_uint::pow2(-p.exponent + extra);
    margin_low = big_uint(1);
  }
  const auto margin_high = [&] {
    big_uint h = margin_low;
    if (p.unequal_margins) h.shift_left(1);
    return h;
  };
  // NumPy's estimate of floor(log10(value)) + 1, correct or one too low; kept as NumPy computes
  // it because the fraction cutoff below clamps the estimate, not the true exponent.
  int digit_exponent = static_cast<int>(
      std::ceil(double(p.mantissa_bit + p.exponent) * 0.30102999566398119521373889472449 - 0.69));
  if (cutoff_max >= 0 && fraction && digit_exponent <= -cutoff_max)
    digit_exponent = -cutoff_max + 1;
  if (digit_exponent > 0) {
    scale.multiply_pow10(digit_exponent);
  } else if (digit_exponent < 0) {
    scaled_value.multiply_pow10(-digit_exponent);
    margin_low.multiply_pow10(-digit_exponent);
  }
  if (compare(scaled_value, scale) >= 0) {
    ++digit_exponent;
  } else {
    scaled_value.multiply(10);
    margin_low.multiply(10);
  }
  // NumPy's print buffer (16384 characters) bounds the digits when there is no cutoff.
  int cutoff_max_exponent = digit_exponent - 16384;
  if (cutoff_max >= 0)
    cutoff_max_exponent =
        std::max(cutoff_max_exponent, fraction ? -cutoff_max : digit_exponent - cutoff_max);
  int cutoff_min_exponent = digit_exponent;
  if (cutoff_min >= 0)
    cutoff_min_exponent =
        std::min(cutoff_min_exponent, fraction ? -cutoff_min : digit_exponent - cutoff_min);
  out.exponent = digit_exponent - 1;

  int digit = 0;
  bool low = false, high = false;
  for (;;) {
    --digit_exponent;
    digit = 0;
    while (compare(scaled_value, scale) >= 0) {
      scaled_value.subtract(scale);
      ++digit;
    }
    big_uint value_high = scaled_value;
    value_high.add(margin_high());
    const int cl = compare(scaled_value, margin_low), ch = compare(value_high, scale);
    low = even ? cl <= 0 : cl < 0;
    high = even ? ch >= 0 : ch > 0;
    if (((low || high) && digit_exponent <= cutoff_min_exponent) ||
        digit_exponent == cutoff_max_exponent)
      break;
    out.digits += char('0' + digit);
    scaled_value.multiply(10);
    margin_low.multiply(10);
  }
  bool round_down = low;
  if (low == high) {  // both roundings are legal (or neither): take the closer, ties to even
    scaled_value.multiply(2);
    const int c = compare(scaled_value, scale);
    round_down = c < 0 || (c == 0 && (digit & 1) == 0);
  }
  if (round_down) {
    out.digits += char('0' + digit);
  } else if (digit < 9) {
    out.digits += char('0' + digit + 1);
  } else {  // carry through the nines; trailing zeros are implied
    while (!out.digits.empty() && out.digits.back() == '9') out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits = "1";
      ++out.exponent;
    } else {
      ++out.digits.back();
    }
  }
  return out;
}

/// numpy.format_float_positional(x, precision, unique=True, fractional=True, trim='.', sign,
/// pad_left, pad_right, min_digits) for a finite x.
inline std::string format_positional(const float_parts& p, int precision, int min_digits, bool sign,
                                     int pad_left, int pad_right) {
  std::string s;
  if (p.negative)
    s = "-";
  else if (sign)
    s = "+";
  const int has_sign = int(s.size());
  const decimal_digits d = dragon4(p, true, precision, min_digits);
  const int n = int(d.digits.size());
  int whole = 1, frac = 0;
  if (d.exponent >= 0) {
    whole = d.exponent + 1;
    if (n <= whole) {
      s += d.digits + std::string(std::size_t(whole - n), '0') + '.';
    } else {
      frac = n - whole;
      s += d.digits.substr(0, std::size_t(whole)) + '.' + d.digits.substr(std::size_t(whole));
    }
  } else {
    const int zeros = -(d.exponent + 1);
    s += "0." + std::string(std::size_t(zeros), '0') + d.digits;
    frac = n + zeros;
  }
  for (; frac > 0 && s.back() == '0'; --frac) s.pop_back();
  if (pad_right >= frac) s.append(std::size_t(pad_right - frac), ' ');
  if (pad_left > whole + has_sign) s.insert(0, std::size_t(pad_left - whole - has_sign), ' ');
  return s;
}

/// numpy.format_float_scientific(x, precision, unique=True, trim, sign, pad_left, exp_digits,
/// min_digits) for a finite x; trim_zeros: trim '.' (else 'k').
inline std::string format_scientific(const float_parts& p, int precision, int min_digits,
                                     bool trim_zeros, bool sign, int pad_left, int exp_digits) {
  std::string s;
  const int left = 1 + (p.negative || sign);
  if (pad_left > left) s.append(std::size_t(pad_left - left), ' ');
  if (p.negative)
    s += '-';
  else if (sign)
    s += '+';
  const decimal_digits d =
      dragon4(p, false, precision < 0 ? -1 : precision + 1, min_digits < 0 ? -1 : min_digits + 1);
  s += d.digits[0];
  s += '.';
  s += d.digits.substr(1);
  int frac = int(d.digits.size()) - 1;
  if (!trim_zeros) {
    const int wanted = std::max(min_digits, 0);
    if (wanted > frac) s.append(std::size_t(wanted - frac), '0');
  } else {
    for (; frac > 0 && s.back() == '0'; --frac) s.pop_back();
  }
  int e = d.exponent;
  s += e < 0 ? "e-" : "e+";
  e = std::abs(e);
  std::string exp_str = std::to_string(e);
  const int width = std::min(exp_digits < 0 ? 2 : exp_digits, 5);
  if (int(exp_str.size()) < width) exp_str.insert(0, std::size_t(width - int(exp_str.size())), '0');
  return s + exp_str;
}

// numpy.finfo(F).precision, which sets where NumPy 2.3+ switches to scientific notation.
template <class F>
inline constexpr int finfo_precision = 15;
template <>
inline constexpr int finfo_precision<float> = 6;
template <>
inline constexpr int finfo_precision<float16> = 3;

/// numpy's FloatingFormat (floatmode 'maxprec'): positional or scientific notation chosen from
/// all the printed values, with common padding. F is float16, float or double.
template <class F>
class float_format {
 public:
  float_format(const std::vector<F>& data, bool sign, int precision = print_precision)
      : sign_(sign), precision_(std::min(precision, print_precision_max)) {
    std::vector<F> finite;
    bool neg_inf = false;
    for (const F& v : data) {
      const float_parts p = decompose(v);
      if (!p.nan && !p.inf) finite.push_back(v);
      neg_inf = neg_inf || (p.inf && p.negative);
    }
    // NumPy decides in F's own arithmetic (NEP 50 makes 1e-4 a weak float of type F).
    bool any_nonzero = false;
    F max_val{}, min_val{};
    for (const F& v : finite) {
      const double a = std::abs(double(v));
      if (a == 0) continue;
      if (!any_nonzero || a > double(max_val)) max_val = F(a);
      if (!any_nonzero || a < double(min_val)) min_val = F(a);
      any_nonzero = true;
    }
    if (any_nonzero) {
      const double cutoff = std::pow(10.0, std::min(8, finfo_precision<F>));
      using W = std::conditional_t<std::is_same_v<F, double>, double, float>;
      const F ratio = F(static_cast<W>(max_val) / static_cast<W>(min_val));
      exp_format_ = double(max_val) >= cutoff || double(min_val) < double(F(0.0001)) ||
                    double(ratio) > 1000.0;
    }
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
    } else if (exp_format_) {
      std::size_t int_len = 0, frac_len = 0, exp_len = 0;
      for (const F& v : finite) {
        const std::string s =
            format_scientific(decompose(v), precision_, -1, true, sign_, -1, -1);
        const std::size_t dot = s.find('.'), e = s.find('e');
        int_len = std::max(int_len, dot);
        frac_len = std::max(frac_len, e - dot - 1);
        exp_len = std::max(exp_len, s.size() - e - 1);
      }
      exp_size_ = int(exp_len) - 1;
      precision_ = min_digits_ = int(frac_len);
      pad_left_ = int(int_len);
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      std::size_t int_len = 0, frac_len = 0;
      for (const F& v : finite) {
        const std::string s = format_positional(decompose(v), precision_, -1, sign_, -1, -1);
        const std::size_t dot = s.find('.');
        int_len = std::max(int_len, dot);
        frac_len = std::max(frac_len, s.size() - dot - 1);
      }
      pad_left_ = int(int_len);
      pad_right_ = int(frac_len);
      min_digits_ = 0;
    }
    if (finite.size() != data.size()) {
      const int offset = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + int(sign_ || neg_inf) - offset});
    }
  }

  std::string operator()(F x) const {
    const float_parts p = decompose(x);
    if (p.nan || p.inf) {
      std::string r = p.inf && p.negative ? "-" : sign_ ? "+" : "";
      r += p.nan ? "nan" : "inf";
      const int width = pad_left_ + pad_right_ + 1;
      if (width > int(r.size())) r.insert(0, std::size_t(width - int(r.size())), ' ');
      return r;
    }
    if (exp_format_)
      return format_scientific(p, precision_, min_digits_, false, sign_, pad_left_, exp_size_);
    return format_positional(p, precision_, min_digits_, sign_, pad_left_, pad_right_);
  }

 private:
  bool sign_;
  bool exp_format_ = false;
  int precision_;
  int min_digits_ = -1;
  int pad_left_ = 0, pad_right_ = 0, exp_size_ = -1;
};

/// The printed form of every value, as NumPy formats the elements of one array. zero_d: the
/// array is 0-d (bool then drops its alignment space); precision: numpy's print option.
template <class T>
std::vector<std::string> format_elements(const std::vector<T>& values, bool zero_d,
                                         int precision = print_precision) {
  std::vector<std::string> out;
  out.reserve(values.size());
  if constexpr (std::is_same_v<T, bool>) {
    for (bool v : values) out.emplace_back(v ? (zero_d ? "True" : " True") : "False");
  } else if constexpr (std::is_integral_v<T>) {
    std::size_t width = 0;
    for (T v : values) {
      out.push_back(std::is_signed_v<T> ? std::to_string(static_cast<long long>(v))
                                        : std::to_string(static_cast<unsigned long long>(v)));
      width = std::max(width, out.back().size());
    }
    for (auto& s : out) s.insert(0, width - s.size(), ' ');
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    // ml_dtypes prints no dtype-wide format: each element is its scalar repr, which streams the
    // float32 value through std::ostream (printf's %g), NaN without its sign.
    for (bfloat16 v : values) {
      const float f = v;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", double(std::isnan(f) ? std::abs(f) : f));
      out.emplace_back(buf);
    }
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    std::vector<R> re, im;
    for (const T& v : values) {
      re.push_back(v.real());
      im.push_back(v.imag());
    }
    const float_format<R> fr(re, false, precision), fi(im, true, precision);
    for (std::size_t k = 0; k < values.size(); ++k) {
      std::string i = fi(im[k]);
      i.insert(i.find_last_not_of(' ') + 1, "j");  // the 'j' goes before the padding
      out.push_back(fr(re[k]) + i);
    }
  } else {
    const float_format<T> f(values, false, precision);
    for (const T& v : values) out.push_back(f(v));
  }
  return out;
}

/// numpy's _formatArray: nests the formatted elements of a C-ordered block of `shape` in brackets,
/// wrapping rows at `width`. Along an axis with `summarized[axis]`, the block holds only the first
/// and last print_edgeitems entries, and "..." stands between them.
class array_layout {
 public:
  array_layout(const std::vector<std::string>& words, const shape_t& shape,
               const std::vector<bool>& summarized)
      : words_(words), shape_(shape), strides_(c_strides(shape)), summarized_(summarized) {}

  [[nodiscard]] std::string format(const std::string& hanging, int width) const {
    return recurse(0, 0, hanging, width);
  }

 private:
  static void extend_line(std::string& s, std::string& line, const std::string& word, int width,
                          const std::string& hanging) {
    if (int(line.size() + word.size()) > width && line.size() > hanging.size()) {
      s += line.substr(0, line.find_last_not_of(' ') + 1) + '\n';
      line = hanging;
    }
    line += word;
  }

  std::string recurse(index_t offset, std::size_t axis, const std::string& hanging,
                      int width) const {
    if (axis == shape_.size()) return words_[std::size_t(offset)];
    const std::string next_hanging = hanging + ' ';
    const int next_width = width - 1;
    const index_t n = shape_[axis], step = strides_[axis];
    const bool summary = summarized_[axis];
    const index_t leading = summary ? print_edgeitems : 0;
    const index_t trailing = summary ? print_edgeitems : n;
    const auto item = [&](index_t i) {
      return recurse(offset + i * step, axis + 1, next_hanging, next_width);
    };
    std::string s;
    if (axis + 1 == shape_.size()) {
      const int elem_width = width - 1;  // room for the ',' or ']' that follows
      std::string line = hanging;
      for (index_t i = 0; i < leading; ++i) {
        extend_line(s, line, item(i), elem_width, hanging);
        line += ", ";
      }
      if (summary) {
        extend_line(s, line, "...", elem_width, hanging);
        line += ", ";
      }
      for (index_t i = trailing; i > 1; --i) {
        extend_line(s, line, item(n - i), elem_width, hanging);
        line += ", ";
      }
      extend_line(s, line, item(n - 1), elem_width, hanging);
      s += line;
    } else {
      const std::string line_sep = "," + std::string(shape_.size() - axis - 1, '\n');
      for (index_t i = 0; i < leading; ++i) s += hanging + item(i) + line_sep;
      if (summary) s += hanging + "..." + line_sep;
      for (index_t i = trailing; i > 1; --i) s += hanging + item(n - i) + line_sep;
      s += hanging + item(n - 1);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

  const std::vector<std::string>& words_;
  shape_t shape_;
  strides_t strides_;
  std::vector<bool> summarized_;
};

/// numpy's dtype_is_implied: the dtypes repr() leaves out (the defaults of Python's values).
template <class T>
inline constexpr bool dtype_is_implied_v =
    std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<double>>;

}  // namespace cunp::detail
