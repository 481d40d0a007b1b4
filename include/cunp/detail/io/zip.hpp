// cunp/detail/io/zip.hpp: the uncompressed ("stored") zip archives that np.savez writes: CRC-32, a
// writer (local headers, central directory, end record, zip64 records when sizes need them) and
// a reader of the central directory.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/errors.hpp"

namespace cunp::detail::zip {

// CRC-32 (zip's polynomial, reflected), eight bytes per step ("slicing by 8").
inline constexpr auto crc_tables = [] {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t i = 0; i < 256; ++i)
    for (std::size_t s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xffu];
  return t;
}();

/// Continues a CRC-32 (start from 0) over n more bytes.
inline std::uint32_t crc32(std::uint32_t crc, const void* data, std::uint64_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  const auto& t = crc_tables;
  crc = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    const std::uint32_t lo = crc ^ (std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 |
                                    std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24);
    crc = t[7][lo & 0xffu] ^ t[6][(lo >> 8) & 0xffu] ^ t[5][(lo >> 16) & 0xffu] ^ t[4][lo >> 24] ^
          t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
  }
  for (; n > 0; --n, ++p) crc = t[0][(crc ^ *p) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

inline constexpr std::uint32_t local_sig = 0x04034b50, central_sig = 0x02014b50,
                               end_sig = 0x06054b50, end64_sig = 0x06064b50,
                               locator64_sig = 0x07064b50;
inline constexpr std::uint16_t zip64_extra_id = 0x0001;
inline constexpr std::uint64_t max32 = 0xffffffffu;
inline constexpr std::uint64_t max16 = 0xffffu;
// 1980-01-01 00:00:00, the earliest DOS time, so that an archive's bytes depend on its arrays only.
inline constexpr std::uint16_t dos_date = (0 << 9) | (1 << 5) | 1, dos_time = 0;

/// One member as the central directory describes it.
struct member {
  std::string name;
  std::uint16_t flags = 0;
  std::uint16_t method = 0;
  std::uint32_t crc = 0;
  std::uint64_t compressed_size = 0;
  std::uint64_t size = 0;
  std::uint64_t header_offset = 0;
};

/// Little-endian field appends.
inline void put(std::string& s, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xffu);
}

/// Writes stored members one after the other, then the directory (finish). `zip64_limit` is the
/// size or offset from which zip64 fields are used; only tests lower it from 0xffffffff.
class writer {
 public:
  writer(const std::string& path, std::uint64_t zip64_limit = max32)
      : path_(path), limit_(zip64_limit), out_(path, std::ios::binary | std::ios::trunc) {
    if (!out_) throw io_error("'" + path + "': cannot open the file for writing");
  }

  /// Adds member `name` whose bytes are `head` followed by `n` bytes at `data`.
  void add(const std::string& name, std::string_view head, const void* data, std::uint64_t n) {
    member m;
    m.name = name;
    m.size = m.compressed_size = head.size() + n;
    m.crc = crc32(crc32(0, head.data(), head.size()), data, n);
    m.header_offset = offset_;
    m.flags = is_ascii(name) ? 0 : 0x800;  // bit 11: the name is UTF-8
    const bool big = m.size >= limit_;
    std::string h;
    put(h, local_sig, 4);
    put(h, big ? 45 : 20, 2);  // version needed: 4.5 for zip64
    put(h, m.flags, 2);
    put(h, 0, 2);  // stored
    put(h, dos_time, 2);
    put(h, dos_date, 2);
    put(h, m.crc, 4);
    put(h, big ? max32 : m.size, 4);
    put(h, big ? max32 : m.size, 4);
    put(h, name.size(), 2);
    put(h, big ? 20 : 0, 2);
    h += name;
    if (big) {
      put(h, zip64_extra_id, 2);
      put(h, 16, 2);
      put(h, m.size, 8);
      put(h, m.size, 8);
    }
    write(h);
    write(head);
    write(std::string_view(static_cast<const char*>(data), n));
    members_.push_back(std::move(m));
  }

  /// Writes the central directory and the end record(s), and closes the file.
  void finish() {
    const std::uint64_t cd_offset = offset_;
    for (const member& m : members_) {
      std::string extra;
      if (m.size >= limit_) put(extra, m.size, 8);
      if (m.compressed_size >= limit_) put(extra, m.compressed_size, 8);
      if (m.header_offset >= limit_) put(extra, m.header_offset, 8);
      std::string h;
      const std::uint64_t version = extra.empty() ? 20 : 45;  // zip 2.0, or 4.5 for zip64
      put(h, central_sig, 4);
      put(h, (3 << 8) | version, 2);  // made by Unix, as Python's zipfile on Linux
      put(h, version, 2);
      put(h, m.flags, 2);
      put(h, 0, 2);
      put(h, dos_time, 2);
      put(h, dos_date, 2);
      put(h, m.crc, 4);
      put(h, m.compressed_size >= limit_ ? max32 : m.compressed_size, 4);
      put(h, m.size >= limit_ ? max32 : m.size, 4);
      put(h, m.name.size(), 2);
      put(h, extra.empty() ? 0 : extra.size() + 4, 2);
      put(h, 0, 2);                             // comment
      put(h, 0, 2);                             // disk
      put(h, 0, 2);                             // internal attributes
      put(h, std::uint64_t{0100644} << 16, 4);  // a regular file, rw-r--r--
      put(h, m.header_offset >= limit_ ? max32 : m.header_offset, 4);
      h += m.name;
      if (!extra.empty()) {
        put(h, zip64_extra_id, 2);
        put(h, extra.size(), 2);
        h += extra;
      }
      write(h);
    }
    const std::uint64_t cd_size = offset_ - cd_offset, count = members_.size();
    const bool big = count >= max16 || cd_size >= limit_ || cd_offset >= limit_;
    std::string e;
    if (big) {
      const std::uint64_t end64_offset = offset_;
      put(e, end64_sig, 4);
      put(e, 44, 8);  // size of the rest of this record
      put(e, 45, 2);
      put(e, 45, 2);
      put(e, 0, 4);
      put(e, 0, 4);
      put(e, count, 8);
      put(e, count, 8);
      put(e, cd_size, 8);
      put(e, cd_offset, 8);
      put(e, locator64_sig, 4);
      put(e, 0, 4);
      put(e, end64_offset, 8);
      put(e, 1, 4);
    }
    put(e, end_sig, 4);
    put(e, 0, 2);
    put(e, 0, 2);
    // Fields too small for their value hold all ones; the zip64 record has the value.
    put(e, std::min(count, max16), 2);
    put(e, std::min(count, max16), 2);
    put(e, cd_size >= limit_ ? max32 : cd_size, 4);
    put(e, cd_offset >= limit_ ? max32 : cd_offset, 4);
    put(e, 0, 2);
    write(e);
    out_.close();
    if (!out_) throw io_error("'" + path_ + "': error while writing the file (disk full?)");
  }

 private:
  static bool is_ascii(const std::string& s) {
    for (const char c : s)
      if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
  }
  void write(std::string_view s) {
    for (std::size_t done = 0; done < s.size();) {
      const std::size_t chunk = std::min<std::size_t>(s.size() - done, std::size_t{1} << 30);
      out_.write(s.data() + done, static_cast<std::streamsize>(chunk));
      done += chunk;
    }
    if (!out_) throw io_error("'" + path_ + "': error while writing the file (disk full?)");
    offset_ += s.size();
  }

  std::string path_;
  std::uint64_t limit_;
  std::ofstream out_;
  std::uint64_t offset_ = 0;
  std::vector<member> members_;
};

/// Reads little-endian fields from a byte range, refusing to read past its end.
class fields {
 public:
  fields(std::string_view bytes, const std::string& where) : s_(bytes), where_(where) {}
  std::uint64_t get(int bytes) {
    need(static_cast<std::size_t>(bytes));
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
      v |= std::uint64_t{static_cast<unsigned char>(s_[pos_ + static_cast<std::size_t>(i)])}
           << (8 * i);
    pos_ += static_cast<std::size_t>(bytes);
    return v;
  }
  std::string_view take(std::size_t n) {
    need(n);
    pos_ += n;
    return s_.substr(pos_ - n, n);
  }
  [[nodiscard]] std::size_t pos() const { return pos_; }
  void seek(std::size_t p) { pos_ = p; }

 private:
  void need(std::size_t n) const {
    if (n > s_.size() - pos_)
      throw io_error(where_ + ": not a valid zip file: the central directory is truncated");
  }
  std::string_view s_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

inline std::string read_at(std::istream& in, std::uint64_t offset, std::uint64_t n,
                           const std::string& where) {
  std::string s(n, '\0');
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(s.data(), static_cast<std::streamsize>(n));
  if (!in || static_cast<std::uint64_t>(in.gcount()) != n)
    throw io_error(where + ": read error at offset " + std::to_string(offset));
  return s;
}

/// The members listed in the central directory of a zip file of `size` bytes.
inline std::vector<member> read_directory(std::istream& in, std::uint64_t size,
                                          const std::string& where) {
  const auto bad = [&](const std::string& why) {
    return io_error(where + ": not a valid .npz (zip) file: " + why);
  };
  // The end record is 22 bytes plus a comment of up to 65535 bytes, at the end of the file.
  const std::uint64_t tail_size = std::min<std::uint64_t>(size, 22 + max16);
  const std::string tail = read_at(in, size - tail_size, tail_size, where);
  std::size_t end_pos = std::string::npos;
  for (std::size_t i = tail.size() >= 22 ? tail.size() - 22 + 1 : 0; i-- > 0;) {
    fields f(std::string_view(tail).substr(i), where);
    if (f.get(4) != end_sig) continue;
    f.seek(20);
    if (i + 22 + f.get(2) <= tail.size()) {
      end_pos = i;
      break;
    }
  }
  if (end_pos == std::string::npos) throw bad("no end of central directory record");
  fields e(std::string_view(tail).substr(end_pos), where);
  e.get(4);
  const std::uint64_t disk = e.get(2), cd_disk = e.get(2);
  e.get(2);
  std::uint64_t count = e.get(2), cd_size = e.get(4), cd_offset = e.get(4);
  std::uint64_t cd_end = size - tail_size + end_pos;  // the directory must end before this
  if (end_pos >= 20) {
    fields loc(std::string_view(tail).substr(end_pos - 20), where);
    if (loc.get(4) == locator64_sig) {
      loc.get(4);
      const std::uint64_t end64 = loc.get(8);
      if (end64 > size || size - end64 < 56) throw bad("the zip64 end record is out of range");
      const std::string rec = read_at(in, end64, 56, where);
      fields z(rec, where);
      if (z.get(4) != end64_sig) throw bad("the zip64 end record is missing");
      z.seek(24);
      z.get(8);
      count = z.get(8);
      cd_size = z.get(8);
      cd_offset = z.get(8);
      cd_end = end64;
    }
  }
  if (disk != 0 || cd_disk != 0) throw bad("multi-disk archives are not supported");
  if (cd_offset > cd_end || cd_size > cd_end - cd_offset)
    throw bad("the central directory lies outside the file");
  if (count > cd_size / 46) throw bad("the central directory is too small for its entries");
  const std::string cd = read_at(in, cd_offset, cd_size, where);
  fields f(cd, where);
  std::vector<member> out;
  for (std::uint64_t k = 0; k < count; ++k) {
    if (f.get(4) != central_sig) throw bad("a central directory entry has a bad signature");
    f.get(4);
    member m;
    m.flags = static_cast<std::uint16_t>(f.get(2));
    m.method = static_cast<std::uint16_t>(f.get(2));
    f.get(4);
    m.crc = static_cast<std::uint32_t>(f.get(4));
    m.compressed_size = f.get(4);
    m.size = f.get(4);
    const std::size_t name_len = f.get(2), extra_len = f.get(2), comment_len = f.get(2);
    const std::uint64_t member_disk = f.get(2);
    f.get(6);
    m.header_offset = f.get(4);
    m.name = std::string(f.take(name_len));
    fields x(f.take(extra_len), where);
    while (x.pos() + 4 <= extra_len) {
      const std::uint64_t id = x.get(2), len = x.get(2);
      fields v(x.take(len), where);
      if (id != zip64_extra_id) continue;
      if (m.size == max32) m.size = v.get(8);
      if (m.compressed_size == max32) m.compressed_size = v.get(8);
      if (m.header_offset == max32) m.header_offset = v.get(8);
    }
    f.take(comment_len);
    if (member_disk != 0 && member_disk != max16)
      throw bad("multi-disk archives are not supported");
    out.push_back(std::move(m));
  }
  return out;
}

/// Where the data of member `m` starts (after its local header), checked against the file.
inline std::uint64_t data_offset(std::istream& in, std::uint64_t size, const member& m,
                                 const std::string& where) {
  if (m.header_offset > size || size - m.header_offset < 30)
    throw io_error(where + ": the local header lies outside the file");
  const std::string h = read_at(in, m.header_offset, 30, where);
  fields f(h, where);
  if (f.get(4) != local_sig) throw io_error(where + ": the local header has a bad signature");
  f.seek(26);
  const std::uint64_t start = m.header_offset + 30 + f.get(2) + f.get(2);
  if (start > size || size - start < m.compressed_size)
    throw io_error(where + ": the member's data runs past the end of the file");
  return start;
}

}  // namespace cunp::detail::zip
