// save/load (.npy) and savez/load_npz (.npz) against the files NumPy writes (golden/cases_io.py):
// byte-for-byte output, every dtype and layout NumPy writes, and corrupt files.
#include <atomic>
#include <fstream>
#include <functional>
#include <random>

#include "cunp_test.hpp"

using namespace cunp_test;
using Catch::Matchers::Contains;
using cunp::cpu;
namespace fs = std::filesystem;

namespace {

#define CUNP_IO_NUMPY_TYPES                                                                 \
  bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, \
      std::uint32_t, std::uint64_t, cunp::float16, float, double, cunp::complex64,          \
      cunp::complex128

const std::vector<std::string> numpy_dtypes = {
    "bool",   "int8",   "int16",   "int32",   "int64",   "uint8",     "uint16",
    "uint32", "uint64", "float16", "float32", "float64", "complex64", "complex128"};

/// A folder of this process's own, removed at exit (cpu and gpu test programs run at once).
const fs::path& scratch() {
  struct folder {
    fs::path path;
    folder() {
      path = fs::temp_directory_path() / ("cunp_test_io_" + std::to_string(std::random_device{}()));
      fs::create_directories(path);
    }
    ~folder() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const folder f;
  return f.path;
}
fs::path tmp(const std::string& name) {
  static std::atomic<int> counter{0};
  return scratch() / (std::to_string(counter++) + "_" + name);
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}
fs::path golden_file(const std::string& name) { return golden_dir() / name; }

/// A .npy file of `header_dict` (padded as np.save pads it) followed by `data`.
std::string npy_with_header(const std::string& header_dict, const std::string& data,
                            int major = 1) {
  std::string dict = header_dict;
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  while ((10 + len_bytes - 2 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < len_bytes; ++i)
    out += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  return out + dict + data;
}

/// Lengths to cut a file of `size` bytes to: every length where the structure lives (the first
/// `head` and the last `tail` bytes), every 29th in between, where the cuts all fail alike.
std::vector<std::size_t> cut_lengths(std::size_t size, std::size_t head, std::size_t tail) {
  std::vector<std::size_t> out;
  for (std::size_t n = 0; n < size; n += (n < head || n + tail >= size) ? 1 : 29) out.push_back(n);
  return out;
}

/// Runs f(); passes when it returns or throws io_error/dtype_error whose text names `file`.
void require_clean_failure_or_success(fn_ref<void()> f, const fs::path& file) {
  try {
    f();
  } catch (const cunp::io_error& e) {
    REQUIRE_THAT(e.what(), Contains(file.string()));
  } catch (const cunp::dtype_error& e) {
    REQUIRE_THAT(e.what(), Contains(file.string()));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("save writes np.save's bytes, from every device", "[io]", CUNP_IO_NUMPY_TYPES) {
  const std::string name(cunp::dtype_name_v<TestType>);
  for (const std::string variant : {"plain", "0d", "empty"}) {
    INFO("io_" << name << "_" << variant);
    const fs::path ref = golden_file("io_" + name + "_" + variant + ".npy");
    const auto a = cunp::load<TestType>(ref, cpu);
    on_every_backend([&](cunp::device dev) {
      const fs::path out = tmp("save.npy");
      cunp::save(out, a.to(dev));
      REQUIRE(read_bytes(out) == read_bytes(ref));
    });
  }
}

TEMPLATE_TEST_CASE("load reads every layout NumPy writes", "[io]", CUNP_IO_NUMPY_TYPES) {
  const std::string name(cunp::dtype_name_v<TestType>);
  const auto plain = golden<TestType>("io_" + name + "_plain");
  REQUIRE(plain.shape() == shape_t{2, 3, 4});
  for (const std::string variant : {"be", "fortran", "be_fortran", "v2", "v3"}) {
    INFO("io_" << name << "_" << variant);
    const fs::path file = golden_file("io_" + name + "_" + variant + ".npy");
    on_every_backend([&](cunp::device dev) {
      const auto a = cunp::load<TestType>(file, dev);
      REQUIRE(a.device() == dev);
      require_equal(a.to(cpu), plain);
    });
    // NumPy returns a Fortran-ordered file as an F-strided array; so does cunp on the cpu.
    if (variant.find("fortran") != std::string::npos)
      REQUIRE(cunp::load<TestType>(file, cpu).strides() == cunp::strides_t{1, 2, 6});
  }
  const auto scalar = golden<TestType>("io_" + name + "_0d");
  REQUIRE(scalar.ndim() == 0);
  require_close(scalar.reshape({1}), cunp::view(plain.reshape({-1}), cunp::slice(7, 8)), 0, 0);
  REQUIRE(golden<TestType>("io_" + name + "_empty").shape() == shape_t{3, 0, 2});
}

TEMPLATE_TEST_CASE("load of another dtype throws dtype_error; load_as converts", "[io]",
                   CUNP_IO_NUMPY_TYPES) {
  const std::string name(cunp::dtype_name_v<TestType>);
  const fs::path file = golden_file("io_" + name + "_be_fortran.npy");
  const auto plain = golden<TestType>("io_" + name + "_plain");
  for (const std::string& other : numpy_dtypes) {
    if (other == name) continue;
    const fs::path wrong = golden_file("io_" + other + "_plain.npy");
    REQUIRE_THROWS_AS(cunp::load<TestType>(wrong, cpu), cunp::dtype_error);
    REQUIRE_THROWS_WITH(cunp::load<TestType>(wrong, cpu), Contains("holds " + other) &&
                                                              Contains("not " + name) &&
                                                              Contains(wrong.string()));
  }
  on_every_backend([&](cunp::device dev) {
    const auto as_double = cunp::load_as<double>(file, dev);
    REQUIRE(as_double.device() == dev);
    require_equal(as_double.to(cpu), plain.template astype<double>());
    require_equal(cunp::load_as<cunp::complex64>(file, dev).to(cpu),
                  plain.template astype<cunp::complex64>());
    require_equal(cunp::load_as<std::int16_t>(file, dev).to(cpu),
                  plain.template astype<std::int16_t>());
    require_equal(cunp::load_as<bool>(file, dev).to(cpu), plain.template astype<bool>());
    require_equal(cunp::load_as<TestType>(file, dev).to(cpu), plain);
  });
}

TEST_CASE("a truncated .npy throws io_error at every length", "[io]") {
  // Every cut inside the header of each layout; cuts of each dtype's data.
  std::vector<std::pair<std::string, std::size_t>> files;
  for (const std::string variant : {"plain", "be_fortran", "v2", "v3", "0d", "empty"})
    files.emplace_back("io_float32_" + variant, 140);
  for (const std::string& name : numpy_dtypes) files.emplace_back("io_" + name + "_plain", 12);
  files.emplace_back("io_bfloat16_void", 12);
  const fs::path cut = tmp("cut.npy");
  for (const auto& [name, head] : files) {
    const std::string bytes = read_bytes(golden_file(name + ".npy"));
    for (const std::size_t n : cut_lengths(bytes.size(), head, 8)) {
      INFO(name << " truncated to " << n << " of " << bytes.size() << " bytes");
      write_bytes(cut, bytes.substr(0, n));
      REQUIRE_THROWS_AS(cunp::load_as<double>(cut, cpu), cunp::io_error);
      REQUIRE_THROWS_WITH(cunp::load<float>(cut, cpu), Contains(cut.string()));
    }
  }
}

TEST_CASE("save writes C order from views: reversed, transposed, 0-d, empty, many axes", "[io]") {
  on_every_backend([](cunp::device dev) {
    const auto check = [&](const auto& a, const std::string& ref) {
      INFO(ref);
      const fs::path out = tmp("view.npy");
      cunp::save(out, a);
      REQUIRE(read_bytes(out) == read_bytes(golden_file(ref)));
    };
    check(cunp::arange<float>(0, 12, 1, dev).reshape({3, 4}), "io_arange_f32.npy");
    check(cunp::view(cunp::arange<std::int32_t>(0, 10, 1, dev),
                     cunp::slice(cunp::none, cunp::none, -1)),
          "io_arange_i32_reversed.npy");
    check(cunp::arange<double>(0, 6, 1, dev).reshape({2, 3}).T(), "io_arange_f64_transposed.npy");
    check(cunp::full<double>({}, 3.5, dev), "io_scalar_f64.npy");
    check(cunp::zeros<float>({0, 3}, dev), "io_empty_f32.npy");
    check(cunp::zeros<std::int64_t>({0}, dev), "io_empty_1d_i64.npy");
    check(cunp::zeros<float>({1'000'000'000'000'000, 0}, dev), "io_long_axis_f32.npy");
    shape_t many(60, 1);
    many.push_back(2);
    check(cunp::ones<std::uint8_t>(many, dev), "io_many_axes_u8.npy");
  });
}

TEST_CASE("save appends .npy as np.save does, and round-trips NaN and inf on every device",
          "[io]") {
  on_every_backend([](cunp::device dev) {
    const auto a = golden<cunp::complex128>("io_complex128_plain").to(dev);
    const fs::path stem = tmp("no_extension");
    cunp::save(stem, cunp::view(a, cunp::all, cunp::slice(cunp::none, cunp::none, -2)));
    REQUIRE_FALSE(fs::exists(stem));
    const auto back = cunp::load<cunp::complex128>(fs::path(stem.string() + ".npy"), dev);
    REQUIRE(back.device() == dev);
    REQUIRE(back.shape() == shape_t{2, 2, 4});
    require_equal(back.to(cpu),
                  cunp::view(a, cunp::all, cunp::slice(cunp::none, cunp::none, -2)).to(cpu).copy());
  });
}

TEST_CASE("a header too long for format 1.0 is written as 2.0", "[io]") {
  const shape_t shape(23000, 1);  // "1, " per axis: more than 65535 header bytes
  const auto a = cunp::full<std::int16_t>(shape, std::int16_t(-7), cpu);
  const fs::path out = tmp("v2.npy");
  cunp::save(out, a);
  const std::string bytes = read_bytes(out);
  REQUIRE(bytes[6] == 2);
  REQUIRE(bytes.size() % 64 == 2);  // header padded to 64 bytes, then one int16
  const auto back = cunp::load<std::int16_t>(out, cpu);
  REQUIRE(back.shape() == shape);
  REQUIRE(back.item() == -7);
}

TEST_CASE("bfloat16 is '<V2', as np.save writes ml_dtypes.bfloat16", "[io]") {
  const auto bits = golden<std::uint16_t>("io_bfloat16_bits").to_vector();
  const auto bits_of = [](const cunp::ndarray<cunp::bfloat16>& a) {
    std::vector<std::uint16_t> out;
    for (const auto v : a.to_vector()) out.push_back(v.bits);
    return out;
  };
  REQUIRE(bits_of(golden<cunp::bfloat16>("io_bfloat16_void")) == bits);
  on_every_backend([&](cunp::device dev) {
    const auto a = cunp::load<cunp::bfloat16>(golden_file("io_bfloat16_void.npy"), dev);
    const fs::path out = tmp("bf16.npy");
    cunp::save(out, a);
    REQUIRE(read_bytes(out).substr(10, 14) == "{'descr': '<V2");
    REQUIRE(bits_of(cunp::load<cunp::bfloat16>(out, dev)) == bits);
    if (fs::exists(golden_file("io_bfloat16_plain.npy"))) {
      REQUIRE(read_bytes(out) == read_bytes(golden_file("io_bfloat16_plain.npy")));
      REQUIRE(bits_of(cunp::load<cunp::bfloat16>(golden_file("io_bfloat16_fortran.npy"), dev)) ==
              bits);
    } else {
      WARN("ml_dtypes is not installed: np.save's bytes for bfloat16 were not compared");
    }
  });
  REQUIRE_THROWS_AS(cunp::load<std::uint16_t>(golden_file("io_bfloat16_void.npy"), cpu),
                    cunp::dtype_error);
  REQUIRE(cunp::load_as<float>(golden_file("io_bfloat16_void.npy"), cpu).to_vector()[0] == 1.5f);
}

TEST_CASE("valid .npy files of dtypes cunp lacks throw io_error naming the descr", "[io]") {
  for (const auto& [file, descr] : std::vector<std::pair<std::string, std::string>>{
           {"io_unsupported_U3.npy", "'<U3'"},
           {"io_unsupported_O.npy", "'|O'"},
           {"io_unsupported_M8.npy", "'<M8[ns]'"},
           {"io_unsupported_f16.npy", "'<f16'"},
           {"io_unsupported_struct.npy", "structured"}}) {
    INFO(file);
    REQUIRE_THROWS_AS(cunp::load<float>(golden_file(file), cpu), cunp::io_error);
    REQUIRE_THROWS_WITH(cunp::load_as<double>(golden_file(file), cpu),
                        Contains(descr) && Contains(golden_file(file).string()));
  }
}

TEST_CASE("malformed .npy headers throw io_error naming the file and the problem", "[io]") {
  const std::string f4x3(12, '\0');
  const auto header = [](const std::string& shape, const std::string& descr = "'<f4'",
                         const std::string& fortran = "False") {
    return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {std::string("\x93NUMPZ\x01\x00", 8) + std::string(120, ' '), "magic string is not correct"},
      {"PK\x03\x04 not a npy file at all, long enough to hold a header ....", "magic string"},
      {npy_with_header(header("(3,)"), f4x3, 4),
       "format version (1,0), (2,0), and (3,0), not (4, 0)"},
      {npy_with_header("[('descr', '<f4')]", f4x3), "Header is not a dictionary"},
      {npy_with_header("{'descr': '<f4', 'shape': (3,), }", f4x3), "correct keys"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", f4x3),
       "correct keys"},
      {npy_with_header(header("(3, 'a')"), f4x3), "shape is not valid"},
      {npy_with_header(header("(3, 1.5)"), f4x3), "Cannot parse header"},
      {npy_with_header(header("(-3,)"), f4x3), "negative dimension -3"},
      {npy_with_header(header("(3)"), f4x3), "shape is not valid: not a tuple"},
      {npy_with_header(header("[3]"), f4x3), "shape is not valid: not a tuple"},
      {npy_with_header(header("(3,)", "'<f4'", "0"), f4x3), "fortran_order is not a valid bool"},
      {npy_with_header(header("(3,)", "'<U3'"), f4x3), "descr '<U3' is not a dtype cunp supports"},
      {npy_with_header(header("(3,)", "'float32'"), f4x3), "descr 'float32'"},
      {npy_with_header(header("(3,)", "3"), f4x3), "descr is not a dtype string"},
      {npy_with_header(header("(4294967296, 4294967296)"), f4x3), "more bytes than 64 bits"},
      {npy_with_header(header("(4294967296, 0, 4294967296)"), f4x3), "more bytes than 64 bits"},
      {npy_with_header(header("(1000000000000000000,)"), f4x3),
       "needs 4000000000000000000 bytes of data, only 12 remain"},
      {npy_with_header(header("(99999999999999999999,)"), f4x3), "does not fit in 64 bits"},
      {npy_with_header(header(std::string(500, '(') + "3," + std::string(500, ')')), f4x3),
       "nesting too deep"},
      {npy_with_header("{'descr': '<f4, 'fortran_order': False, 'shape': (3,)}", f4x3),
       "Cannot parse header"},
      {npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)", f4x3),
       "Cannot parse header"},
      {npy_with_header(header("(3,)") + " junk", f4x3), "unexpected text after the dict"},
      {npy_with_header(header("(4,)"), f4x3), "truncated: shape (4,) of float32 needs 16 bytes"},
      {std::string("\x93NUMPY\x01\x00\xff\x7f{}", 12), "the header needs 32767 bytes"},
      {std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14),
       "header length 4294967295 is too large"},
  };
  for (const auto& [bytes, message] : cases) {
    INFO(message);
    const fs::path file = tmp("bad.npy");
    write_bytes(file, bytes);
    REQUIRE_THROWS_AS(cunp::load<float>(file, cpu), cunp::io_error);
    REQUIRE_THROWS_WITH(cunp::load<float>(file, cpu), Contains(message) && Contains(file.string()));
  }
}

TEST_CASE("headers are read as Python literals, as np.load reads them", "[io]") {
  const std::string data("\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40", 16);
  for (const std::string dict :
       {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
        "{\"shape\": (2,2), \"fortran_order\": False, \"descr\": \"<f4\"}",
        "{ 'descr' : '<f4' ,\n 'fortran_order':False,'shape':( 2 , +2 , ) }",
        "{'descr': '<f8', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)}"}) {
    INFO(dict);
    const fs::path file = tmp("literal.npy");
    write_bytes(file, npy_with_header(dict, data));
    require_values<float>(cunp::load<float>(file, cpu), {1, 2, 3, 4}, {2, 2});
  }
  const fs::path huge_empty = tmp("huge_empty.npy");
  write_bytes(
      huge_empty,
      npy_with_header("{'descr': '|u1', 'fortran_order': False, 'shape': (9223372036854775807, 0)}",
                      ""));
  REQUIRE(cunp::load<std::uint8_t>(huge_empty, cpu).shape() == shape_t{9223372036854775807, 0});
  const fs::path file = tmp("fortran.npy");
  write_bytes(file,
              npy_with_header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2)}", data));
  require_values<float>(cunp::load<float>(file, cpu), {1, 3, 2, 4}, {2, 2});
  // Any nonzero byte is True, as NumPy reads it; trailing bytes after the data are ignored.
  write_bytes(file, npy_with_header("{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
                                    std::string("\x00\x02\xff\x07", 4)));
  require_values<bool>(cunp::load<bool>(file, cpu), {false, true, true}, {3});
}

TEST_CASE("flipped header bits never crash: io_error, dtype_error or a valid array", "[io]") {
  for (const std::string name : {"io_float32_plain", "io_int64_be_fortran", "io_complex64_v2"}) {
    const std::string bytes = read_bytes(golden_file(name + ".npy"));
    const fs::path file = tmp("flip.npy");
    std::size_t failures = 0, total = 0;
    for (std::size_t pos = 0; pos < 128; ++pos) {
      for (const unsigned char bit : {0x01, 0x20, 0x80}) {
        std::string flipped = bytes;
        flipped[pos] = static_cast<char>(flipped[pos] ^ bit);
        write_bytes(file, flipped);
        INFO(name << ": byte " << pos << " ^ " << int(bit));
        ++total;
        bool ok = false;
        require_clean_failure_or_success(
            [&] {
              const auto a = cunp::load_as<cunp::complex128>(file, cpu);
              REQUIRE(a.size() <= 24);
              ok = true;
            },
            file);
        failures += !ok;
      }
    }
    // Only flips that leave a valid header (a smaller shape, '<' to '>', ...) may load.
    REQUIRE(failures > total * 9 / 10);
  }
}

TEST_CASE("a missing file, a folder or an unwritable path throws io_error naming it", "[io]") {
  const fs::path missing = scratch() / "no_such_folder" / "x.npy";
  REQUIRE_THROWS_WITH(cunp::load<float>(missing, cpu),
                      Contains(missing.string()) && Contains("no such file"));
  REQUIRE_THROWS_AS(cunp::load_as<float>(missing, cpu), cunp::io_error);
  REQUIRE_THROWS_WITH(cunp::load_npz(missing, cpu), Contains(missing.string()));
  REQUIRE_THROWS_WITH(cunp::load<float>(scratch(), cpu), Contains("is a directory"));
  REQUIRE_THROWS_WITH(cunp::save(missing, cunp::zeros<float>({2}, cpu)),
                      Contains(missing.string()) && Contains("cannot open the file for writing"));
  REQUIRE_THROWS_AS(
      cunp::savez(scratch() / "no_such_folder" / "x.npz", cunp::zeros<float>({2}, cpu)),
      cunp::io_error);
}

TEST_CASE("load_npz reads np.savez archives (zip64 local headers) lazily, by name", "[io][npz]") {
  on_every_backend([](cunp::device dev) {
    const fs::path file = golden_file("io_numpy.npz");
    const auto z = cunp::load_npz(file, dev);
    // np.savez stores the keyword arrays first, then arr_0, arr_1, ...
    REQUIRE(z.names() ==
            std::vector<std::string>{"x", "flags", "scalar", "big", "empty", "arr_0", "arr_1"});
    REQUIRE(z.device() == dev);
    REQUIRE(z.contains("x"));
    REQUIRE(z.contains("x.npy"));
    REQUIRE_FALSE(z.contains("y"));
    REQUIRE(z.dtype("arr_1") == cunp::dtype::complex64);
    REQUIRE(z.shape("empty") == shape_t{0, 4});
    const auto i16 = z.get<std::int16_t>("arr_0");
    REQUIRE(i16.device() == dev);
    require_equal(i16.to(cpu), golden<std::int16_t>("io_int16_plain"));
    require_equal(z.get<cunp::complex64>("arr_1").to(cpu),
                  golden<cunp::complex64>("io_complex64_plain"));
    require_equal(z.get<double>("x.npy").to(cpu),
                  cunp::view(golden<double>("io_float64_plain"), 0).copy());
    require_equal(z.get<bool>("flags").to(cpu), golden<bool>("io_bool_plain"));
    REQUIRE(z.get<std::uint32_t>("scalar").item() == 7u);
    require_equal(z.get<std::int32_t>("big", cpu), golden<std::int32_t>("io_int32_plain"));
    REQUIRE(z.get<cunp::float16>("empty").shape() == shape_t{0, 4});
    require_equal(z.get_as<float>("arr_0").to(cpu),
                  golden<std::int16_t>("io_int16_plain").astype<float>());
    REQUIRE_THROWS_AS(z.get<float>("x"), cunp::dtype_error);
    REQUIRE_THROWS_WITH(z.get<float>("x"), Contains("'x.npy'") && Contains("holds float64"));
    REQUIRE_THROWS_WITH(z.get<float>("y"), Contains("'y' is not a file in the archive"));
    REQUIRE(cunp::load_npz(golden_file("io_numpy_empty.npz"), dev).names().empty());
  });
}

TEST_CASE("a compressed .npz member throws io_error", "[io][npz]") {
  const auto z = cunp::load_npz(golden_file("io_numpy_compressed.npz"), cpu);
  REQUIRE(z.names() == std::vector<std::string>{"x"});
  REQUIRE_THROWS_AS(z.get<double>("x"), cunp::io_error);
  REQUIRE_THROWS_WITH(z.get_as<float>("x"),
                      Contains("compression is not supported") && Contains("np.savez_compressed"));
}

TEST_CASE("savez writes the archive np.load reads, from every device", "[io][npz]") {
  on_every_backend([](cunp::device dev) {
    const fs::path out = tmp("layout.npz");
    cunp::savez(out, golden<float>("io_float32_plain").to(dev),
                cunp::named("i", golden<std::int16_t>("io_int16_plain").to(dev)),
                cunp::named("s", cunp::full<double>({}, 3.5, dev)),
                cunp::named("e", cunp::zeros<std::uint8_t>({0, 2}, dev)));
    REQUIRE(read_bytes(out) == read_bytes(golden_file("io_layout.npz")));

    const fs::path stem = tmp("round_trip");
    const auto c = golden<cunp::complex128>("io_complex128_plain").to(dev);
    const auto b = golden<cunp::bfloat16>("io_bfloat16_void").to(dev);
    cunp::savez(stem, cunp::named("c", c.T()), cunp::named("naïve", b), c);
    const auto z = cunp::load_npz(fs::path(stem.string() + ".npz"), dev);
    REQUIRE(z.names() == std::vector<std::string>{"c", "naïve", "arr_0"});
    require_equal(z.get<cunp::complex128>("c").to(cpu), c.T().to(cpu).copy());
    require_equal(z.get<cunp::bfloat16>("naïve").to(cpu), b.to(cpu));
    require_equal(z.get<cunp::complex128>("arr_0").to(cpu), c.to(cpu));
  });
}

TEST_CASE("savez names: positional arr_N, clashes throw value_error before writing", "[io][npz]") {
  const auto a = cunp::zeros<float>({2}, cpu);
  const fs::path out = tmp("clash.npz");
  REQUIRE_THROWS_AS(cunp::savez(out, a, cunp::named("arr_0", a)), cunp::value_error);
  REQUIRE_THROWS_WITH(cunp::savez(out, cunp::named("arr_1", a), a, a),
                      "Cannot use un-named variables and keyword arr_1");
  REQUIRE_THROWS_WITH(cunp::savez(out, cunp::named("x", a), cunp::named("x", a)),
                      Contains("'x' is given twice"));
  REQUIRE_THROWS_WITH(cunp::savez(out, cunp::named(std::string(70000, 'n'), a)),
                      Contains("too long for a zip member"));
  REQUIRE_FALSE(fs::exists(out));
  cunp::savez(out);
  REQUIRE(cunp::load_npz(out, cpu).names().empty());
}

TEST_CASE("zip64 records are written and read when sizes need them", "[io][npz]") {
  // A lowered threshold puts every zip64 field (sizes, offsets, end records) into a small file.
  const auto a = golden<double>("io_float64_plain");
  const auto b = golden<std::int8_t>("io_int8_plain");
  const fs::path out = tmp("zip64.npz");
  cunp::detail::write_npz(
      out, {cunp::detail::make_npz_item("a", false, a), cunp::detail::make_npz_item("b", false, b)},
      100);
  const std::string bytes = read_bytes(out);
  REQUIRE(bytes.find(std::string("PK\x06\x06", 4)) != std::string::npos);
  REQUIRE(bytes.find(std::string("PK\x06\x07", 4)) != std::string::npos);
  const auto z = cunp::load_npz(out, cpu);
  require_equal(z.get<double>("a"), a);
  require_equal(z.get<std::int8_t>("b"), b);
}

TEST_CASE("corrupt .npz files throw io_error: truncated, bad CRC, foreign members", "[io][npz]") {
  for (const std::string name : {"io_layout.npz", "io_numpy.npz"}) {
    const std::string bytes = read_bytes(golden_file(name));
    const fs::path cut = tmp("cut.npz");
    for (const std::size_t n : cut_lengths(bytes.size(), 64, 480)) {
      INFO(name << " truncated to " << n << " of " << bytes.size() << " bytes");
      write_bytes(cut, bytes.substr(0, n));
      REQUIRE_THROWS_AS(cunp::load_npz(cut, cpu), cunp::io_error);
    }
    // Flipped bytes anywhere: every failure is io_error/dtype_error naming the file.
    const fs::path flip = tmp("flip.npz");
    for (std::size_t pos = 0; pos < bytes.size(); pos += 11) {
      std::string flipped = bytes;
      flipped[pos] = static_cast<char>(flipped[pos] ^ 0x10);
      write_bytes(flip, flipped);
      INFO(name << ": byte " << pos << " flipped");
      require_clean_failure_or_success(
          [&] {
            const auto z = cunp::load_npz(flip, cpu);
            for (const auto& member : z.names()) (void)z.get_as<cunp::complex128>(member);
          },
          flip);
    }
  }
  // A flipped data byte keeps the structure valid; the CRC-32 catches it.
  std::string bytes = read_bytes(golden_file("io_layout.npz"));
  bytes[200] = static_cast<char>(bytes[200] ^ 1);
  const fs::path bad_crc = tmp("crc.npz");
  write_bytes(bad_crc, bytes);
  REQUIRE_THROWS_WITH(cunp::load_npz(bad_crc, cpu).get<float>("arr_0"),
                      Contains("CRC-32 mismatch"));
  // A member that is not a .npy keeps its name and throws when read as one.
  const fs::path foreign = tmp("foreign.npz");
  {
    cunp::detail::zip::writer w(foreign.string());
    const std::string text = "hello, this is not an array";
    w.add("readme.txt", "", text.data(), text.size());
    w.finish();
  }
  const auto z = cunp::load_npz(foreign, cpu);
  REQUIRE(z.names() == std::vector<std::string>{"readme.txt"});
  REQUIRE_THROWS_WITH(z.get<float>("readme.txt"), Contains("magic string is not correct"));
  write_bytes(foreign, "PK\x05\x06 but nothing else");
  REQUIRE_THROWS_WITH(cunp::load_npz(foreign, cpu), Contains("not a valid .npz (zip) file"));
}
