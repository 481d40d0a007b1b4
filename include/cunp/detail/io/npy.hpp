// cunp/detail/io/npy.hpp: NumPy's .npy format (numpy.lib.format): descr strings, the header dict
// (a small, strict Python-literal parser), the header np.save writes, and reading the data.
#pragma once
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::detail::npy {

static_assert(std::endian::native == std::endian::little,
              "cunp's .npy reader and writer assume a little-endian host");

inline constexpr std::string_view magic_prefix{"\x93NUMPY", 6};
// numpy.lib.format.ARRAY_ALIGN and GROWTH_AXIS_MAX_DIGITS: the header pads the data to 64 bytes
// and leaves room for the growth axis to reach 21 digits, so files match np.save's bytes.
inline constexpr std::size_t array_align = 64;
inline constexpr std::size_t growth_axis_max_digits = 21;
// No supported header comes near this; it bounds what a corrupt length field can make us read.
inline constexpr std::uint64_t max_header_bytes = std::uint64_t{1} << 20;
// Bounds the nesting of tuples and lists in a header, so a hostile one cannot exhaust the stack.
inline constexpr int max_literal_depth = 32;

// The typestr codes of cunp's dtypes. bfloat16 is "V2": np.save writes an ml_dtypes.bfloat16
// array with descr '<V2' (NumPy has no bfloat16 type code).
inline constexpr std::pair<std::string_view, dtype> descr_codes[] = {
    {"b1", dtype::bool_},   {"i1", dtype::int8},      {"i2", dtype::int16},
    {"i4", dtype::int32},   {"i8", dtype::int64},     {"u1", dtype::uint8},
    {"u2", dtype::uint16},  {"u4", dtype::uint32},    {"u8", dtype::uint64},
    {"f2", dtype::float16}, {"V2", dtype::bfloat16},  {"f4", dtype::float32},
    {"f8", dtype::float64}, {"c8", dtype::complex64}, {"c16", dtype::complex128}};

/// The descr np.save writes for `d` on a little-endian host: '<f4', '|b1', '<c16', '<V2'.
inline std::string descr_of(dtype d) {
  for (const auto& [code, type] : descr_codes)
    if (type == d) return (itemsize(d) == 1 ? "|" : "<") + std::string(code);
  throw dtype_error("unknown dtype");
}

struct descr_info {
  dtype type;
  bool big_endian;
};

/// The dtype of a descr typestr ('<f4', '>i8', '|b1', '=u2'), or nothing when cunp has no such
/// dtype ('<U3', '|O', '<M8[ns]', '<f16').
inline std::optional<descr_info> parse_descr(std::string_view s) {
  if (s.size() < 3 || std::string_view("<>|=").find(s[0]) == std::string_view::npos)
    return std::nullopt;
  for (const auto& [code, type] : descr_codes)
    if (s.substr(1) == code) return descr_info{type, s[0] == '>'};
  return std::nullopt;
}

/// A Python literal as ast.literal_eval sees the header: str, int, bool, None, tuple, list, dict.
struct literal {
  enum class kind : std::uint8_t { str, integer, boolean, none, tuple, list, dict };
  kind k = kind::none;
  std::string text;               // str
  std::int64_t integer = 0;       // integer; boolean as 0/1
  std::vector<literal> items;     // tuple, list; dict values
  std::vector<std::string> keys;  // dict keys (strings only)
};

/// Parses a header's text. Throws io_error("<where>: Cannot parse header: ...") on anything that
/// is not a literal of the kinds above.
class literal_parser {
 public:
  literal_parser(std::string_view text, const std::string& where) : s_(text), where_(where) {}

  literal parse() {
    literal v = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the dict");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw io_error(where_ + ": Cannot parse header: " + why + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool eat_word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    const std::size_t end = pos_ + w.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_'))
      return false;
    pos_ = end;
    return true;
  }

  literal value(int depth) {
    if (depth > max_literal_depth) fail("nesting too deep");
    skip_space();
    if (pos_ == s_.size()) fail("unexpected end");
    literal v;
    const char c = s_[pos_];
    if (c == '\'' || c == '"') {
      v.k = literal::kind::str;
      v.text = string();
    } else if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
      v.k = literal::kind::integer;
      v.integer = integer();
    } else if (eat_word("True")) {
      v.k = literal::kind::boolean;
      v.integer = 1;
    } else if (eat_word("False")) {
      v.k = literal::kind::boolean;
    } else if (eat_word("None")) {
      v.k = literal::kind::none;
    } else if (c == '(' || c == '[') {
      ++pos_;
      const char close = c == '(' ? ')' : ']';
      v.k = c == '(' ? literal::kind::tuple : literal::kind::list;
      bool comma = false;
      while (!eat(close)) {
        if (!v.items.empty() && !comma) fail(std::string("expected ',' or '") + close + "'");
        v.items.push_back(value(depth + 1));
        comma = eat(',');
      }
      // Python: "(3)" is the int 3, "(3,)" a tuple.
      if (v.k == literal::kind::tuple && v.items.size() == 1 && !comma) return v.items[0];
    } else if (c == '{') {
      ++pos_;
      v.k = literal::kind::dict;
      bool comma = false;
      while (!eat('}')) {
        if (!v.keys.empty() && !comma) fail("expected ',' or '}'");
        skip_space();
        if (pos_ == s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) fail("expected a str key");
        std::string key = string();
        if (!eat(':')) fail("expected ':'");
        literal item = value(depth + 1);
        // Python keeps the last value of a repeated key.
        const auto it = std::find(v.keys.begin(), v.keys.end(), key);
        if (it != v.keys.end()) {
          v.items[static_cast<std::size_t>(it - v.keys.begin())] = std::move(item);
        } else {
          v.keys.push_back(std::move(key));
          v.items.push_back(std::move(item));
        }
        comma = eat(',');
      }
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  std::string string() {
    const char quote = s_[pos_++];
    const std::size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\' || s_[pos_] == '\n')
        fail("escapes and newlines in strings are not supported");
      ++pos_;
    }
    if (pos_ == s_.size()) fail("unterminated string");
    return std::string(s_.substr(start, pos_++ - start));
  }

  std::int64_t integer() {
    const bool negative = s_[pos_] == '-';
    if (s_[pos_] == '-' || s_[pos_] == '+') ++pos_;
    skip_space();
    const std::size_t start = pos_;
    std::uint64_t magnitude = 0;
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      const auto digit = static_cast<std::uint64_t>(s_[pos_] - '0');
      if (magnitude > (limit - digit) / 10) fail("integer does not fit in 64 bits");
      magnitude = magnitude * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) fail("expected digits");
    if (s_[start] == '0' && pos_ - start > 1) fail("leading zeros in an integer");
    if (pos_ < s_.size() &&
        (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' || s_[pos_] == '_'))
      fail("only decimal integers are supported");
    return negative ? static_cast<std::int64_t>(0 - magnitude)
                    : static_cast<std::int64_t>(magnitude);
  }

  std::string_view s_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

/// What a .npy header says about the array that follows it.
struct header {
  dtype type = dtype::float64;
  bool big_endian = false;
  bool fortran_order = false;
  shape_t shape;
  std::string descr;
  std::uint64_t data_bytes = 0;
};

/// Checks the header dict as numpy.lib.format does, plus sizes that overflow 64 bits.
inline header interpret_header(std::string_view text, const std::string& where) {
  const literal d = literal_parser(text, where).parse();
  if (d.k != literal::kind::dict)
    throw io_error(where + ": Header is not a dictionary: " + std::string(text.substr(0, 80)));
  std::vector<std::string> keys = d.keys;
  std::sort(keys.begin(), keys.end());
  if (keys != std::vector<std::string>{"descr", "fortran_order", "shape"}) {
    std::string got;
    for (const auto& k : keys) got += (got.empty() ? "'" : ", '") + k + "'";
    throw io_error(where +
                   ": Header does not contain the correct keys 'descr', "
                   "'fortran_order', 'shape': got " +
                   (got.empty() ? "none" : got));
  }
  auto field = [&](std::string_view key) -> const literal& {
    return d.items[static_cast<std::size_t>(std::find(d.keys.begin(), d.keys.end(), key) -
                                            d.keys.begin())];
  };
  header h;
  const literal& descr = field("descr");
  if (descr.k != literal::kind::str)
    throw io_error(where +
                   ": descr is not a dtype string cunp supports (structured dtypes are "
                   "not supported)");
  const auto info = parse_descr(descr.text);
  if (!info)
    throw io_error(where + ": descr '" + descr.text +
                   "' is not a dtype cunp supports (bool, "
                   "int8..int64, uint8..uint64, float16, bfloat16, float32, float64, "
                   "complex64, complex128)");
  h.type = info->type;
  h.big_endian = info->big_endian && itemsize(h.type) > 1;
  h.descr = descr.text;
  const literal& fortran = field("fortran_order");
  if (fortran.k != literal::kind::boolean)
    throw io_error(where + ": fortran_order is not a valid bool");
  h.fortran_order = fortran.integer != 0;
  const literal& shape = field("shape");
  if (shape.k != literal::kind::tuple) throw io_error(where + ": shape is not valid: not a tuple");
  for (const literal& e : shape.items) {
    if (e.k != literal::kind::integer) throw io_error(where + ": shape is not valid: not all ints");
    if (e.integer < 0)
      throw io_error(where + ": shape is not valid: negative dimension " +
                     std::to_string(e.integer));
    h.shape.push_back(e.integer);
  }
  // As NumPy, the nonzero extents times the item size must fit in an index, even when another
  // extent is 0: the array's own check (shape.hpp), reported as a bad file.
  const std::size_t item = itemsize(h.type);
  try {
    h.data_bytes = static_cast<std::uint64_t>(checked_size(h.shape, item)) * item;
  } catch (const value_error&) {
    throw io_error(where + ": shape " + shape_str(h.shape) + " of " +
                   std::string(dtype_name(h.type)) + " needs more bytes than 64 bits can count");
  }
  return h;
}

/// np.save's header for `d` and `shape`: magic, version, length, dict, padding, '\n'.
inline std::string make_header(dtype d, const shape_t& shape) {
  std::string dict = "{'descr': '" + descr_of(d) +
                     "', 'fortran_order': False, 'shape': " + shape_str(shape) + ", }";
  if (!shape.empty()) dict.append(growth_axis_max_digits - std::to_string(shape[0]).size(), ' ');
  for (const int major : {1, 2}) {
    const std::size_t len_bytes = major == 1 ? 2 : 4;
    const std::size_t hlen = dict.size() + 1;
    const std::size_t pad =
        array_align - (magic_prefix.size() + 2 + len_bytes + hlen) % array_align;
    const std::size_t total = hlen + pad;
    if (major == 1 && total > 0xffff) continue;
    std::string out(magic_prefix);
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((total >> (8 * i)) & 0xff);
    out += dict;
    out.append(pad, ' ');
    out += '\n';
    return out;
  }
  throw io_error("a .npy header of " + std::to_string(dict.size()) + " bytes is too large");
}

/// Reads a byte range of a file (a whole .npy, or one member of an .npz) and refuses to read past
/// it, so a corrupt size can never make cunp allocate or read more than the file holds.
class source {
 public:
  source(std::istream& in, std::uint64_t size, std::string where)
      : in_(in), left_(size), where_(std::move(where)) {}

  [[nodiscard]] const std::string& where() const { return where_; }
  [[nodiscard]] std::uint64_t left() const { return left_; }

  void read(void* dst, std::uint64_t n, const char* what) {
    if (n > left_)
      throw io_error(where_ + ": the file is truncated: " + what + " needs " + std::to_string(n) +
                     " bytes, only " + std::to_string(left_) + " remain");
    auto* p = static_cast<char*>(dst);
    for (std::uint64_t done = 0; done < n;) {
      const auto chunk = static_cast<std::streamsize>(std::min<std::uint64_t>(n - done, 1 << 30));
      in_.read(p + done, chunk);
      if (in_.gcount() != chunk)
        throw io_error(where_ + ": read error or unexpected end of file while reading " + what);
      done += static_cast<std::uint64_t>(chunk);
    }
    left_ -= n;
    if (on_read_) on_read_(p, n);
  }
  /// Sees every byte read (the .npz reader checks the member's CRC-32 with it).
  void on_read(std::function<void(const char*, std::uint64_t)> f) { on_read_ = std::move(f); }

 private:
  std::istream& in_;
  std::uint64_t left_;
  std::string where_;
  std::function<void(const char*, std::uint64_t)> on_read_;
};

/// Reads the magic string, version and header dict.
inline header read_header(source& src) {
  char pre[8];
  src.read(pre, 8, "the magic string and version");
  if (std::string_view(pre, 6) != magic_prefix)
    throw io_error(src.where() + ": the magic string is not correct; this is not a .npy file");
  const int major = static_cast<unsigned char>(pre[6]), minor = static_cast<unsigned char>(pre[7]);
  if (minor != 0 || major < 1 || major > 3)
    throw io_error(src.where() + ": we only support format version (1,0), (2,0), and (3,0), not (" +
                   std::to_string(major) + ", " + std::to_string(minor) + ")");
  unsigned char len[4] = {0, 0, 0, 0};
  src.read(len, major == 1 ? 2 : 4, "the header length");
  const std::uint64_t hlen = std::uint64_t{len[0]} | std::uint64_t{len[1]} << 8 |
                             std::uint64_t{len[2]} << 16 | std::uint64_t{len[3]} << 24;
  if (hlen > max_header_bytes)
    throw io_error(src.where() + ": header length " + std::to_string(hlen) + " is too large");
  std::string text(hlen, '\0');
  src.read(text.data(), hlen, "the header");
  return interpret_header(text, src.where());
}

/// Throws dtype_error unless the header's dtype is T; `fn` failed, `convert` would convert.
template <class T>
void require_dtype(const header& h, const std::string& where, const char* fn, const char* convert) {
  if (h.type == dtype_of_v<T>) return;
  const std::string t(dtype_name_v<T>);
  throw dtype_error(std::string(fn) + "<" + t + ">: " + where + " holds " +
                    std::string(dtype_name(h.type)) + " ('" + h.descr + "'), not " + t + "; use " +
                    convert + "<" + t + "> to convert");
}

/// Reads the data described by `h` into a fresh host array (page-locked when it is bound for a
/// GPU), byte-swapped to little endian; a Fortran-ordered file gives an F-strided array.
template <class T>
ndarray<T> read_data(source& src, const header& h, bool pinned) {
  if (h.data_bytes > src.left())
    throw io_error(src.where() + ": the file is truncated: shape " + shape_str(h.shape) + " of " +
                   std::string(dtype_name_v<T>) + " needs " + std::to_string(h.data_bytes) +
                   " bytes of data, only " + std::to_string(src.left()) + " remain");
  auto buf = pinned ? allocate_pinned(h.data_bytes) : allocate(cunp::cpu, h.data_bytes);
  if (h.data_bytes) src.read(buf->ptr, h.data_bytes, "the array data");
  auto* bytes = static_cast<unsigned char*>(buf->ptr);
  if (h.big_endian) {
    const std::size_t part = is_complex_v<T> ? sizeof(T) / 2 : sizeof(T);
    for (std::uint64_t i = 0; i < h.data_bytes; i += part)
      std::reverse(bytes + i, bytes + i + part);
  }
  if constexpr (std::is_same_v<T, bool>) {
    // Any byte other than 0 or 1 is not a valid C++ bool; NumPy reads nonzero as True.
    for (std::uint64_t i = 0; i < h.data_bytes; ++i) bytes[i] = bytes[i] != 0;
  }
  if (!h.fortran_order) return ndarray<T>(std::move(buf), 0, h.shape, c_strides(h.shape));
  const shape_t reversed(h.shape.rbegin(), h.shape.rend());
  return ndarray<T>(std::move(buf), 0, reversed, c_strides(reversed)).T();
}

/// An input file and its size; io_error naming the path when it cannot be opened.
struct input_file {
  std::ifstream stream;
  std::uint64_t size = 0;

  explicit input_file(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      throw io_error("'" + path.string() + "': is a directory, not a file");
    stream.open(path, std::ios::binary);
    if (!stream)
      throw io_error(
          "'" + path.string() + "': cannot open the file for reading: " +
          (std::filesystem::exists(path, ec) ? "permission denied or unreadable" : "no such file"));
    stream.seekg(0, std::ios::end);
    const auto end = stream.tellg();
    stream.seekg(0, std::ios::beg);
    if (end < 0 || !stream) throw io_error("'" + path.string() + "': cannot determine its size");
    size = static_cast<std::uint64_t>(end);
  }
};

/// A C-ordered host copy of `a` (the same handle when it already is one).
template <class T>
ndarray<T> host_c_order(const ndarray<T>& a) {
  ndarray<T> h = a.to(cunp::cpu);
  return h.is_contiguous() ? h : h.copy();
}

}  // namespace cunp::detail::npy
