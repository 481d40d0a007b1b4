// cunp/io.hpp: numpy.save / numpy.load (.npy) and numpy.savez / numpy.load (.npz).
#pragma once
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/detail/io/npy.hpp"
#include "cunp/detail/io/zip.hpp"
#include "cunp/ndarray.hpp"

namespace cunp {

namespace detail {
inline std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

/// np.save's file name: ".npy" appended unless the name already ends with it.
inline std::filesystem::path with_extension(std::filesystem::path p, const char* ext) {
  const std::string s = p.string();
  const std::string e(ext);
  if (s.size() < e.size() || s.compare(s.size() - e.size(), e.size(), e) != 0) p += e;
  return p;
}

template <class T>
ndarray<T> load_converted(npy::source& src, const npy::header& h, device dev) {
  return visit_dtype(h.type, [&](auto stored) -> ndarray<T> {
    using U = decltype(stored);
    const ndarray<U> raw = npy::read_data<U>(src, h, dev.is_cuda());
    if constexpr (std::is_same_v<T, U>) {
      return raw.to(dev);
    } else {
      ndarray<T> out(raw.shape(), cunp::cpu);
      cast_into(host_backend{}, out, raw);
      return out.to(dev);
    }
  });
}
}  // namespace detail

/// numpy.save: writes `a` (any device, any strides) as a C-ordered .npy file, byte for byte what
/// np.save writes; ".npy" is appended to the name unless it is there. bfloat16 is written with
/// descr '<V2', as np.save writes an ml_dtypes.bfloat16 array.
template <element_type T>
void save(const std::filesystem::path& path, const ndarray<T>& a) {
  const std::filesystem::path p = detail::with_extension(path, ".npy");
  const ndarray<T> h = detail::npy::host_c_order(a);
  const std::string head = detail::npy::make_header(dtype_of_v<T>, h.shape());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out) throw io_error(detail::quoted(p) + ": cannot open the file for writing");
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  out.write(reinterpret_cast<const char*>(h.data()), static_cast<std::streamsize>(h.nbytes()));
  out.close();
  if (!out) throw io_error(detail::quoted(p) + ": error while writing the file (disk full?)");
}

/// numpy.load of a .npy file, onto `dev` (read on the host, then moved). Reads format versions
/// 1.0, 2.0 and 3.0, either byte order and Fortran order (an F-strided array on the cpu, as
/// NumPy returns). A file of another dtype throws dtype_error (load_as<T> converts); a file that
/// is not a valid .npy of a supported dtype throws io_error naming the file and the problem.
template <element_type T>
[[nodiscard]] ndarray<T> load(const std::filesystem::path& path, device dev = default_device()) {
  detail::check_device(dev);
  detail::npy::input_file f(path);
  detail::npy::source src(f.stream, f.size, detail::quoted(path));
  const detail::npy::header h = detail::npy::read_header(src);
  detail::npy::require_dtype<T>(h, src.where(), "cunp::load", "cunp::load_as");
  return detail::npy::read_data<T>(src, h, dev.is_cuda()).to(dev);
}

/// numpy.load(path).astype(T): loads a .npy file of any supported dtype and converts it to T.
template <element_type T>
[[nodiscard]] ndarray<T> load_as(const std::filesystem::path& path, device dev = default_device()) {
  detail::check_device(dev);
  detail::npy::input_file f(path);
  detail::npy::source src(f.stream, f.size, detail::quoted(path));
  return detail::load_converted<T>(src, detail::npy::read_header(src), dev);
}

/// One keyword argument of numpy.savez (name=array): cunp::savez(path, cunp::named("x", a)).
template <element_type T>
struct named_array {
  std::string name;
  ndarray<T> array;
};
/// Names an array for savez; the archive member is name + ".npy".
template <element_type T>
[[nodiscard]] named_array<T> named(std::string name, ndarray<T> a) {
  return {std::move(name), std::move(a)};
}

namespace detail {
struct npz_item {
  std::string name;
  bool positional;
  std::function<void(zip::writer&, const std::string& member)> write;
};

template <class T>
npz_item make_npz_item(std::string name, bool positional, const ndarray<T>& a) {
  return {std::move(name), positional, [a](zip::writer& w, const std::string& member) {
            const ndarray<T> h = npy::host_c_order(a);
            w.add(member, npy::make_header(dtype_of_v<T>, h.shape()), h.data(), h.nbytes());
          }};
}
// numpy.savez names positional arrays arr_0, arr_1, ... in the order given.
template <class T>
npz_item npz_item_of(const ndarray<T>& a, std::size_t& positional) {
  return make_npz_item("arr_" + std::to_string(positional++), true, a);
}
template <class T>
npz_item npz_item_of(const named_array<T>& a, std::size_t&) {
  return make_npz_item(a.name, false, a.array);
}

template <class A>
inline constexpr bool is_npz_arg_v = false;
template <class T>
inline constexpr bool is_npz_arg_v<ndarray<T>> = true;
template <class T>
inline constexpr bool is_npz_arg_v<named_array<T>> = true;
template <class A>
concept npz_argument = is_npz_arg_v<A>;

/// Checks the names before the file is touched, then writes the archive. Tests lower
/// zip64_limit to exercise the zip64 records without writing 4 GiB.
inline void write_npz(const std::filesystem::path& path, const std::vector<npz_item>& items,
                      std::uint64_t zip64_limit = zip::max32) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].name.size() + 4 > zip::max16)
      throw value_error("savez: a name of " + std::to_string(items[i].name.size()) +
                        " bytes is too long for a zip member (at most 65531)");
    for (std::size_t j = 0; j < i; ++j)
      if (items[i].name == items[j].name)
        throw value_error(items[i].positional || items[j].positional
                              ? "Cannot use un-named variables and keyword " + items[i].name
                              : "savez: the name '" + items[i].name + "' is given twice");
  }
  zip::writer w(with_extension(path, ".npz").string(), zip64_limit);
  for (const npz_item& item : items) item.write(w, item.name + ".npy");
  w.finish();
}
}  // namespace detail

/// numpy.savez: an uncompressed .npz holding each array as "<name>.npy" (positional arrays are
/// named arr_0, arr_1, ...; named ones come from cunp::named). ".npz" is appended to the file
/// name unless it is there. Arrays may have different dtypes and live on any device.
template <detail::npz_argument... Arrays>
void savez(const std::filesystem::path& path, const Arrays&... arrays) {
  [[maybe_unused]] std::size_t positional = 0;  // unused when no array is given
  const std::vector<detail::npz_item> items{detail::npz_item_of(arrays, positional)...};
  detail::write_npz(path, items);
}

/// numpy.lib.npyio.NpzFile: the arrays of an .npz, read lazily one member at a time (each read
/// opens the file again). Arrays come to the device given to load_npz unless get names another.
class npz_file {
 public:
  npz_file(std::filesystem::path path, cunp::device dev) : path_(std::move(path)), dev_(dev) {
    detail::check_device(dev);
    detail::npy::input_file f(path_);
    members_ = detail::zip::read_directory(f.stream, f.size, detail::quoted(path_));
    for (const auto& m : members_) {
      const bool npy = m.name.size() >= 4 && m.name.compare(m.name.size() - 4, 4, ".npy") == 0;
      names_.push_back(npy ? m.name.substr(0, m.name.size() - 4) : m.name);
    }
  }

  /// NpzFile.files: the member names, ".npy" removed.
  [[nodiscard]] const std::vector<std::string>& names() const { return names_; }
  [[nodiscard]] bool contains(const std::string& name) const { return find(name) != nullptr; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] cunp::device device() const { return dev_; }

  /// The dtype of member `name` (reads its header only).
  [[nodiscard]] cunp::dtype dtype(const std::string& name) const {
    return read(name, false,
                [](detail::npy::source&, const detail::npy::header& h) { return h.type; });
  }
  /// The shape of member `name` (reads its header only).
  [[nodiscard]] shape_t shape(const std::string& name) const {
    return read(name, false,
                [](detail::npy::source&, const detail::npy::header& h) { return h.shape; });
  }

  /// npz[name] as ndarray<T> on `dev`; dtype_error when the member holds another dtype.
  template <element_type T>
  [[nodiscard]] ndarray<T> get(const std::string& name, cunp::device dev) const {
    detail::check_device(dev);
    return read(name, true, [&](detail::npy::source& src, const detail::npy::header& h) {
      detail::npy::require_dtype<T>(h, src.where(), "cunp::npz_file::get", "get_as");
      return detail::npy::read_data<T>(src, h, dev.is_cuda()).to(dev);
    });
  }
  template <element_type T>
  [[nodiscard]] ndarray<T> get(const std::string& name) const {
    return get<T>(name, dev_);
  }
  /// npz[name].astype(T) on `dev`.
  template <element_type T>
  [[nodiscard]] ndarray<T> get_as(const std::string& name, cunp::device dev) const {
    detail::check_device(dev);
    return read(name, true, [&](detail::npy::source& src, const detail::npy::header& h) {
      return detail::load_converted<T>(src, h, dev);
    });
  }
  template <element_type T>
  [[nodiscard]] ndarray<T> get_as(const std::string& name) const {
    return get_as<T>(name, dev_);
  }

 private:
  // NpzFile accepts a member's name with or without ".npy".
  [[nodiscard]] const detail::zip::member* find(const std::string& name) const {
    for (const auto& m : members_)
      if (m.name == name + ".npy") return &m;
    for (const auto& m : members_)
      if (m.name == name) return &m;
    return nullptr;
  }

  // Opens member `name` as a .npy and calls f(source, header); with `whole`, also reads the rest
  // of the member and checks its CRC-32.
  template <class F>
  std::invoke_result_t<F, detail::npy::source&, const detail::npy::header&> read(
      const std::string& name, bool whole, F&& f) const {
    const detail::zip::member* m = find(name);
    if (!m)
      throw value_error("'" + name + "' is not a file in the archive " + detail::quoted(path_));
    const std::string where = detail::quoted(path_) + " member '" + m->name + "'";
    if (m->flags & 1u) throw io_error(where + ": encrypted members are not supported");
    if (m->method == 8)
      throw io_error(where +
                     ": the member is compressed (np.savez_compressed); compression is "
                     "not supported, only uncompressed archives (np.savez) are");
    if (m->method != 0)
      throw io_error(where + ": compression method " + std::to_string(m->method) +
                     " is not supported, only uncompressed archives (np.savez) are");
    if (m->size != m->compressed_size)
      throw io_error(where + ": a stored member's sizes disagree (" + std::to_string(m->size) +
                     " and " + std::to_string(m->compressed_size) + ")");
    detail::npy::input_file file(path_);
    const std::uint64_t start = detail::zip::data_offset(file.stream, file.size, *m, where);
    file.stream.seekg(static_cast<std::streamoff>(start));
    detail::npy::source src(file.stream, m->size, where);
    std::uint32_t crc = 0;
    if (whole)
      src.on_read([&crc](const char* p, std::uint64_t n) { crc = detail::zip::crc32(crc, p, n); });
    auto result = f(src, detail::npy::read_header(src));
    if (whole) {
      char rest[4096];
      while (src.left() > 0)
        src.read(rest, std::min<std::uint64_t>(src.left(), sizeof rest), "the member");
      if (crc != m->crc) throw io_error(where + ": CRC-32 mismatch, the member is corrupt");
    }
    return result;
  }

  std::filesystem::path path_;
  cunp::device dev_;
  std::vector<detail::zip::member> members_;
  std::vector<std::string> names_;
};

/// numpy.load of an .npz file: its member table; arrays are read by get<T>(name) onto `dev`.
[[nodiscard]] inline npz_file load_npz(const std::filesystem::path& path,
                                       device dev = default_device()) {
  return npz_file(path, dev);
}

}  // namespace cunp
