// cunp/random.hpp: numpy.random's Generator with NumPy's own streams. default_rng(seed) is
// PCG64 seeded through SeedSequence exactly as numpy.random.default_rng(seed) is (Philox, NumPy's
// counter-based bit generator, is the other one), and random, uniform and integers give NumPy's
// numbers bit for bit, and leave the generator in NumPy's state, on the cpu and on a GPU alike;
// normal and exponential draw by transformation (the same numbers on both backends, not NumPy's)
// (the cpu backend: detail/cpu/random/fill.hpp; the GPU's: detail/cuda/random/fill.cuh; what
// each element is made of: detail/random/draws.hpp).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/detail/cpu/random/fill.hpp"
#include "cunp/detail/cpu/random/per_element.hpp"
#include "cunp/detail/cpu/random/permutation.hpp"
#include "cunp/detail/random/draws.hpp"
#include "cunp/detail/random/pcg64.hpp"
#include "cunp/detail/random/philox.hpp"
#include "cunp/detail/random/seed_sequence.hpp"
#include "cunp/indexing.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/sort.hpp"
#include "cunp/view.hpp"

namespace cunp::detail {
template <class T>
inline constexpr bool random_float_v =
    std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, float16>;

/// NumPy's text for a bound outside T's range.
template <class T> void check_bound(__int128 v, const char* which) {
  if (v < __int128(std::numeric_limits<T>::min()) || v > __int128(std::numeric_limits<T>::max()))
    throw value_error(std::string(which) + " is out of bounds for " + std::string(dtype_name_v<T>));
}

/// NumPy's kahan_sum of choice's p (the sum its check compares with 1).
inline double kahan_sum(const std::vector<double>& p) {
  if (p.empty()) return 0.0;
  double sum = p[0], c = 0.0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    const double y = p[i] - c, t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  return sum;
}

/// Generator.choice's checks of the population and of p, in NumPy's order and words.
inline void check_choice(index_t pop, bool from_array, index_t samples,
                         const std::vector<double>& p) {
  if (pop <= 0 && samples != 0)
    throw value_error(from_array ? "a cannot be empty unless no samples are taken"
                                 : "a must be a positive integer unless no samples are taken");
  if (p.empty()) return;
  if (index_t(p.size()) != pop) throw value_error("a and p must have same size");
  const double sum = kahan_sum(p);
  if (std::isnan(sum)) throw value_error("Probabilities contain NaN");
  for (double x : p)
    if (x < 0) throw value_error("Probabilities are not non-negative");
  if (std::abs(sum - 1.0) > std::sqrt(std::numeric_limits<double>::epsilon()))
    throw value_error("Probabilities do not sum to 1. See Notes section of docstring for more "
                      "information.");
}

/// The number of int64 samples of `shape`: negative dimensions refused with choice's words
/// (no shape after them), too many for int64 bytes as NumPy's "array is too big".
inline index_t sample_count(const shape_t& shape) {
  for (index_t d : shape)
    if (d < 0) throw value_error("negative dimensions are not allowed");
  return checked_size(shape, sizeof(std::int64_t));
}
}  // namespace cunp::detail

namespace cunp::random {

/// numpy.random.SeedSequence: entropy (non-negative integers, each taken as its 32-bit words)
/// and a spawn key, hashed into the words that seed a bit generator.
class SeedSequence {
 public:
  /// Fresh entropy from the operating system (128 bits, as NumPy draws).
  SeedSequence() {
    std::random_device rd;
    for (int i = 0; i < 2; ++i)
      entropy_.push_back((std::uint64_t(rd()) << 32) | std::uint64_t(rd()));
  }
  /// SeedSequence(seed); a negative seed is value_error("expected non-negative integer").
  template <std::integral I> explicit SeedSequence(I seed) : entropy_{checked(seed)} {}
  /// SeedSequence([e0, e1, ...], spawn_key=(...)).
  explicit SeedSequence(std::vector<std::uint64_t> entropy,
                        std::vector<std::uint64_t> spawn_key = {})
      : entropy_(std::move(entropy)), spawn_key_(std::move(spawn_key)) {}

  [[nodiscard]] const std::vector<std::uint64_t>& entropy() const { return entropy_; }
  [[nodiscard]] const std::vector<std::uint64_t>& spawn_key() const { return spawn_key_; }
  [[nodiscard]] std::uint64_t n_children_spawned() const { return children_; }

  /// generate_state(n_words, np.uint64).
  [[nodiscard]] std::vector<std::uint64_t> generate_state(int n_words) const {
    if (n_words < 0) throw value_error("negative dimensions are not allowed");
    return detail::seed_state(detail::seed_pool(entropy_, spawn_key_), n_words);
  }

  /// spawn(n): children whose spawn keys extend this one's by the count spawned before.
  [[nodiscard]] std::vector<SeedSequence> spawn(int n) {
    if (n < 0) throw value_error("negative dimensions are not allowed");
    std::vector<SeedSequence> kids;
    for (int i = 0; i < n; ++i) {
      std::vector<std::uint64_t> key = spawn_key_;
      key.push_back(children_++);
      kids.emplace_back(entropy_, std::move(key));
    }
    return kids;
  }

 private:
  template <std::integral I> static std::uint64_t checked(I seed) {
    if constexpr (std::is_signed_v<I>)
      if (seed < 0) throw value_error("expected non-negative integer");
    return static_cast<std::uint64_t>(seed);
  }

  std::vector<std::uint64_t> entropy_, spawn_key_;
  std::uint64_t children_ = 0;
};

/// numpy.random.PCG64: the 128-bit LCG with the XSL-RR output, seeded from a SeedSequence.
class PCG64 {
 public:
  /// NumPy's bit_generator.state: {'state': {'state', 'inc'}, 'has_uint32', 'uinteger'}, the
  /// 128-bit values as their upper and lower 64 bits.
  struct state_type {
    std::uint64_t state_high = 0, state_low = 0, inc_high = 0, inc_low = 1;
    bool has_uint32 = false;
    std::uint32_t uinteger = 0;
    bool operator==(const state_type&) const = default;
  };

  PCG64() : PCG64(SeedSequence()) {}
  template <std::integral I> explicit PCG64(I seed) : PCG64(SeedSequence(seed)) {}
  explicit PCG64(SeedSequence seq) : seq_(std::move(seq)) {
    const auto w = seq_.generate_state(4);
    s_ = detail::pcg64_seeded(detail::u128(w[0]) << 64 | w[1], detail::u128(w[2]) << 64 | w[3]);
  }

  [[nodiscard]] state_type state() const {
    return {std::uint64_t(s_.state >> 64), std::uint64_t(s_.state), std::uint64_t(s_.inc >> 64),
            std::uint64_t(s_.inc), s_.has_uint32, s_.uinteger};
  }
  /// Sets the state (the increment must be odd, as every PCG64 increment is).
  void set_state(const state_type& st) {
    if ((st.inc_low & 1) == 0) throw value_error("PCG64's increment must be odd");
    s_.state = detail::u128(st.state_high) << 64 | st.state_low;
    s_.inc = detail::u128(st.inc_high) << 64 | st.inc_low;
    s_.has_uint32 = st.has_uint32;
    s_.uinteger = st.uinteger;
  }

  /// advance(delta): the state delta steps on (mod 2^128), the buffered half dropped.
  PCG64& advance(std::uint64_t delta) {
    s_.advance(delta);
    return *this;
  }
  /// jumped(jumps): a copy advanced by jumps * NumPy's jump size (2^128 times the golden ratio's
  /// fraction), for streams that do not overlap.
  [[nodiscard]] PCG64 jumped(std::uint64_t jumps = 1) const {
    PCG64 j = *this;
    j.s_.advance(detail::pcg64_jump_size * jumps);
    return j;
  }
  /// random_raw(): the next 64-bit output.
  std::uint64_t random_raw() { return s_.next_uint64(); }

  [[nodiscard]] const SeedSequence& seed_seq() const { return seq_; }
  /// spawn(n): bit generators seeded from seed_seq().spawn(n).
  [[nodiscard]] std::vector<PCG64> spawn(int n) {
    std::vector<PCG64> kids;
    for (SeedSequence& s : seq_.spawn(n)) kids.emplace_back(std::move(s));
    return kids;
  }

  /// The engine itself, for the fills.
  [[nodiscard]] detail::pcg64_state& engine() { return s_; }

 private:
  SeedSequence seq_;
  detail::pcg64_state s_;
};

/// numpy.random.Philox: the counter-based Philox4x64-10, its 128-bit key two words of a
/// SeedSequence (or given outright), its 256-bit counter stepped before each block of four
/// 64-bit draws, which NumPy buffers.
class Philox {
 public:
  using words4 = std::array<std::uint64_t, 4>;
  /// NumPy's bit_generator.state: {'state': {'counter', 'key'}, 'buffer', 'buffer_pos',
  /// 'has_uint32', 'uinteger'}, the counter lowest word first.
  struct state_type {
    words4 counter{};
    std::array<std::uint64_t, 2> key{};
    words4 buffer{};
    int buffer_pos = 4;
    bool has_uint32 = false;
    std::uint32_t uinteger = 0;
    bool operator==(const state_type&) const = default;
  };

  Philox() : Philox(SeedSequence()) {}
  /// Philox(seed, counter=counter).
  template <std::integral I>
  explicit Philox(I seed, const words4& counter = {}) : Philox(SeedSequence(seed), counter) {}
  explicit Philox(SeedSequence seq, const words4& counter = {}) : seq_(std::move(seq)) {
    const auto k = seq_->generate_state(2);
    s_.key[0] = k[0], s_.key[1] = k[1];
    set_counter(counter);
  }
  /// Philox(key=key, counter=counter): the key as given and no SeedSequence, so that spawn
  /// refuses, as NumPy's does.
  [[nodiscard]] static Philox from_key(const std::array<std::uint64_t, 2>& key,
                                       const words4& counter = {}) {
    Philox p{keyed{}};
    p.s_.key[0] = key[0], p.s_.key[1] = key[1];
    p.set_counter(counter);
    return p;
  }

  [[nodiscard]] state_type state() const {
    state_type st;
    for (int i = 0; i < 4; ++i) st.counter[i] = s_.ctr.w[i], st.buffer[i] = s_.buffer.w[i];
    st.key = {s_.key[0], s_.key[1]};
    st.buffer_pos = s_.buffer_pos;
    st.has_uint32 = s_.has_uint32;
    st.uinteger = s_.uinteger;
    return st;
  }
  /// Sets the state; buffer_pos outside [0, 4] is value_error.
  void set_state(const state_type& st) {
    if (st.buffer_pos < 0 || st.buffer_pos > 4)
      throw value_error("Philox's buffer_pos must be between 0 and 4, got " +
                        std::to_string(st.buffer_pos));
    set_counter(st.counter);
    for (int i = 0; i < 4; ++i) s_.buffer.w[i] = st.buffer[i];
    s_.key[0] = st.key[0], s_.key[1] = st.key[1];
    s_.buffer_pos = st.buffer_pos;
    s_.has_uint32 = st.has_uint32;
    s_.uinteger = st.uinteger;
  }

  /// advance(delta): the counter delta blocks on (mod 2^256; NumPy's "as-if delta draws" counts
  /// the counter's steps), the buffer and the kept half dropped.
  Philox& advance(std::uint64_t delta) { return advance(words4{delta, 0, 0, 0}); }
  Philox& advance(const words4& delta) {
    s_.advance(detail::philox_block{{delta[0], delta[1], delta[2], delta[3]}});
    return *this;
  }
  /// jumped(jumps): a copy advanced by jumps * 2^128, as NumPy's.
  [[nodiscard]] Philox jumped(std::uint64_t jumps = 1) const {
    Philox j = *this;
    j.advance(words4{0, 0, jumps, 0});
    return j;
  }
  /// random_raw(): the next 64-bit output.
  std::uint64_t random_raw() { return s_.next_uint64(); }

  /// The SeedSequence it was seeded from; value_error for one made from a key.
  [[nodiscard]] const SeedSequence& seed_seq() const {
    if (!seq_) throw value_error("this Philox was made from a key and has no SeedSequence");
    return *seq_;
  }
  /// spawn(n): bit generators seeded from seed_seq().spawn(n) (counter 0).
  [[nodiscard]] std::vector<Philox> spawn(int n) {
    if (!seq_) throw value_error("The underlying SeedSequence does not implement spawning.");
    std::vector<Philox> kids;
    for (SeedSequence& s : seq_->spawn(n)) kids.emplace_back(std::move(s));
    return kids;
  }

  /// The engine itself, for the fills.
  [[nodiscard]] detail::philox_state& engine() { return s_; }

 private:
  struct keyed {};
  explicit Philox(keyed) {}
  void set_counter(const words4& c) {
    for (int i = 0; i < 4; ++i) s_.ctr.w[i] = c[i];
  }

  std::optional<SeedSequence> seq_;
  detail::philox_state s_;
};

/// numpy.random.Generator over a bit generator, PCG64 (default_rng's) or Philox:
/// `Generator g(Philox(7))`. Every method takes the same draws of either, as NumPy's do.
template <class BitGenerator = PCG64> class Generator {
  static_assert(std::is_same_v<BitGenerator, PCG64> || std::is_same_v<BitGenerator, Philox>,
                "cunp::random::Generator: the bit generator is PCG64 or Philox");

 public:
  explicit Generator(BitGenerator bit_generator) : bg_(std::move(bit_generator)) {}

  [[nodiscard]] BitGenerator& bit_generator() { return bg_; }
  [[nodiscard]] const BitGenerator& bit_generator() const { return bg_; }
  /// spawn(n): generators on bit_generator().spawn(n).
  [[nodiscard]] std::vector<Generator> spawn(int n) {
    std::vector<Generator> kids;
    for (BitGenerator& b : bg_.spawn(n)) kids.emplace_back(std::move(b));
    return kids;
  }

  /// random(shape, dtype): floats in [0, 1). float64 and float32 as NumPy; float16 (NumPy has
  /// none) from the top 11 bits of a 32-bit draw.
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> random(const shape_t& shape = {}, device dev = default_device()) {
    ndarray<T> out(shape, dev);
    random<T, Backend>(out);
    return out;
  }
  /// random(out=out): out must be C-contiguous, as NumPy requires.
  template <class T, class Backend = cunp::detail::compiled_backend>
  void random(const ndarray<T>& out) {
    static_assert(cunp::detail::random_float_v<T>,
                  "Generator.random: unsupported dtype (float64, float32 or float16)");
    if constexpr (std::is_same_v<T, double>) fill<Backend>(out, cunp::detail::unit_double_rule{});
    else fill<Backend>(out, cunp::detail::unit_float_rule<T>{});
  }

  /// uniform(low, high, shape): low + (high - low) * random() in float64, as NumPy, rounded to
  /// T for float32 and float16. value_error ("high - low < 0", "high - low range exceeds valid
  /// bounds") where NumPy raises ValueError or OverflowError.
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> uniform(double low = 0.0, double high = 1.0, const shape_t& shape = {},
                                   device dev = default_device()) {
    static_assert(cunp::detail::random_float_v<T>,
                  "Generator.uniform: unsupported dtype (float64, float32 or float16)");
    const double range = high - low;
    if (!std::isfinite(range)) throw value_error("high - low range exceeds valid bounds");
    if (range < 0) throw value_error("high - low < 0");
    ndarray<T> out(shape, dev);
    fill<Backend>(out, cunp::detail::uniform_rule<T>{low, range});
    return out;
  }

  /// integers(low, high, shape, dtype, endpoint): integers in [low, high) ([low, high] with
  /// endpoint), by NumPy's algorithm (Lemire's rejection on 8, 16, 32 or 64-bit draws). Bounds
  /// outside T, or an empty range, are value_error with NumPy's text (unchecked, as NumPy's, for
  /// a result without elements).
  template <class T = std::int64_t, class Backend = cunp::detail::compiled_backend,
            std::integral L, std::integral H>
  [[nodiscard]] ndarray<T> integers(L low, H high, const shape_t& shape = {},
                                    device dev = default_device(), bool endpoint = false) {
    static_assert(std::is_integral_v<T>, "Generator.integers: dtype must be an integer or bool");
    // NumPy checks no bounds when there is nothing to draw (a negative extent still throws).
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return ndarray<T>(shape, dev);
    const __int128 lo = low, hi = __int128(high) - (endpoint ? 0 : 1);
    if (!endpoint && __int128(high) <= lo) throw value_error("low >= high");
    if (endpoint && __int128(high) < lo) throw value_error("low > high");
    cunp::detail::check_bound<T>(lo, "low");
    cunp::detail::check_bound<T>(hi, "high");
    ndarray<T> out(shape, dev);
    using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>>;
    const auto off = static_cast<std::uint64_t>(static_cast<U>(lo));
    const auto rng = static_cast<std::uint64_t>(static_cast<U>(hi - lo));
    if (rng == 0) {  // no draw: NumPy leaves the generator as it was
      out.fill(static_cast<T>(off));
    } else if constexpr (std::is_same_v<T, bool>) {
      fill<Backend>(out, cunp::detail::bit_rule{});
    } else if constexpr (sizeof(T) == 8) {
      if (rng <= 0xFFFFFFFFull) fill<Backend>(out, cunp::detail::lemire_rule<T, 32>(off, std::uint32_t(rng)));
      else if (rng == ~0ull) fill<Backend>(out, cunp::detail::full_range_rule<T, 64>{off});
      else fill<Backend>(out, cunp::detail::lemire_rule<T, 64>(off, rng));
    } else {
      constexpr int w = 8 * int(sizeof(T));
      if (rng == std::numeric_limits<U>::max()) fill<Backend>(out, cunp::detail::full_range_rule<T, w>{off});
      else fill<Backend>(out, cunp::detail::lemire_rule<T, w>(off, cunp::detail::draw_t<w>(rng)));
    }
    return out;
  }

  /// standard_normal(shape, dtype) and normal(loc, scale, shape): float64 by Box-Muller,
  /// float32 by the normal quantile of each 32-bit draw (not NumPy's ziggurat: the numbers
  /// differ from NumPy's, and are the same on the cpu and a GPU; docs/differences.md).
  /// scale < 0 is value_error("scale < 0").
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> standard_normal(const shape_t& shape = {},
                                           device dev = default_device()) {
    return normal<T, Backend>(0.0, 1.0, shape, dev);
  }
  template <class T, class Backend = cunp::detail::compiled_backend>
  void standard_normal(const ndarray<T>& out) {
    pairs<Backend>(out, cunp::detail::normal_pair_rule<T>{0.0, 1.0});
  }
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> normal(double loc = 0.0, double scale = 1.0, const shape_t& shape = {},
                                  device dev = default_device()) {
    if (scale < 0) throw value_error("scale < 0");
    ndarray<T> out(shape, dev);
    pairs<Backend>(out, cunp::detail::normal_pair_rule<T>{loc, scale});
    return out;
  }

  /// standard_exponential(shape, dtype) and exponential(scale, shape): -log(1 - random()),
  /// float64 or float32 (NumPy's default is its ziggurat: other numbers; the same on the cpu
  /// and a GPU). scale < 0 is value_error("scale < 0").
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> standard_exponential(const shape_t& shape = {},
                                                device dev = default_device()) {
    return exponential<T, Backend>(1.0, shape, dev);
  }
  template <class T, class Backend = cunp::detail::compiled_backend>
  void standard_exponential(const ndarray<T>& out) {
    static_assert(real_float<T>, "Generator.standard_exponential: dtype must be float64 or float32");
    fill<Backend>(out, cunp::detail::exponential_rule<T>{1.0});
  }
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> exponential(double scale = 1.0, const shape_t& shape = {},
                                       device dev = default_device()) {
    static_assert(real_float<T>, "Generator.exponential: dtype must be float64 or float32");
    if (scale < 0) throw value_error("scale < 0");
    ndarray<T> out(shape, dev);
    fill<Backend>(out, cunp::detail::exponential_rule<T>{scale});
    return out;
  }

  /// standard_gamma(shape, size, dtype) and gamma(shape, scale, size): float64 or float32, by
  /// Marsaglia and Tsang's method (boosted below shape 1), each element from a stream of its own
  /// (detail/random/per_element.hpp: not NumPy's numbers, the same on the cpu and a GPU; a call
  /// takes two 64-bit draws from the generator, none for an empty result). shape < 0 or
  /// scale < 0 is value_error with NumPy's text.
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> standard_gamma(double shape, const shape_t& size = {},
                                          device dev = default_device()) {
    return gamma<T, Backend>(shape, 1.0, size, dev);
  }
  template <class T, class Backend = cunp::detail::compiled_backend>
  void standard_gamma(double shape, const ndarray<T>& out) {
    if (shape < 0) throw value_error("shape < 0");
    each<Backend>(out, cunp::detail::standard_gamma_rule<T>{shape, 1.0});
  }
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> gamma(double shape, double scale = 1.0, const shape_t& size = {},
                                 device dev = default_device()) {
    if (shape < 0) throw value_error("shape < 0");
    if (scale < 0) throw value_error("scale < 0");
    ndarray<T> out(size, dev);
    each<Backend>(out, cunp::detail::standard_gamma_rule<T>{shape, scale});
    return out;
  }

  /// beta(a, b, size): float64 (or float32), by Johnk's method for a, b <= 1, else the ratio of
  /// two gammas, each element from a stream of its own as gamma's. a <= 0 or b <= 0 is
  /// value_error.
  template <class T = double, class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<T> beta(double a, double b, const shape_t& size = {},
                                device dev = default_device()) {
    if (a <= 0) throw value_error("a <= 0");
    if (b <= 0) throw value_error("b <= 0");
    ndarray<T> out(size, dev);
    each<Backend>(out, cunp::detail::beta_rule<T>{a, b});
    return out;
  }

  /// poisson(lam, size): int64 counts, by multiplying uniforms below lam 10 and by Hormann's
  /// PTRS from there (NumPy's methods; each element from a stream of its own as gamma's). lam
  /// negative or NaN, or above NumPy's limit (int64's largest less ten of its square roots), is
  /// value_error with NumPy's text.
  template <class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<std::int64_t> poisson(double lam = 1.0, const shape_t& size = {},
                                              device dev = default_device()) {
    constexpr double int64_max = 9223372036854775807.0;
    if (lam > int64_max - std::sqrt(int64_max) * 10) throw value_error("lam value too large");
    if (!(lam >= 0)) throw value_error("lam < 0 or lam is NaN");
    ndarray<std::int64_t> out(size, dev);
    each<Backend>(out, cunp::detail::poisson_rule::make(lam));
    return out;
  }

  /// binomial(n, p, size): int64 counts, by inversion (NumPy's) while n min(p, 1 - p) <= 30 and
  /// by Devroye's halving of n with betas above (NumPy uses BTPE there), each element from a
  /// stream of its own as gamma's. n < 0, or p outside [0, 1] or NaN, is value_error with
  /// NumPy's text.
  template <class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<std::int64_t> binomial(std::int64_t n, double p, const shape_t& size = {},
                                               device dev = default_device()) {
    if (n < 0) throw value_error("n < 0");
    if (!(p >= 0 && p <= 1)) throw value_error("p < 0, p > 1 or p is NaN");
    ndarray<std::int64_t> out(size, dev);
    each<Backend>(out, cunp::detail::binomial_rule{n, p});
    return out;
  }

  /// permutation(n): a random permutation of 0..n-1 (int64; empty for n <= 0), the stable
  /// argsort of the next n 64-bit draws, the same on the cpu and a GPU (NumPy's Fisher-Yates
  /// gives another order: docs/differences.md).
  template <class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<std::int64_t> permutation(index_t n, device dev = default_device()) {
    ndarray<std::int64_t> out({std::max<index_t>(n, 0)}, dev);
    if (n > 0)
      cunp::detail::dispatch<Backend>(dev, [&](auto be) {
        random_permutation(be, out, bg_.engine());
      });
    return out;
  }
  /// permutation(x, axis=0): a copy of x with its slices along `axis` in the order of
  /// permutation(x.shape[axis]), on x's device.
  template <class Backend = cunp::detail::compiled_backend, class T>
  [[nodiscard]] ndarray<T> permutation(const ndarray<T>& x, index_t axis = 0) {
    const int ax = normalize_axis(axis, std::size_t(x.ndim()));
    return cunp::take<Backend>(x, permutation<Backend>(x.shape()[std::size_t(ax)], x.device()),
                               index_t(ax), index_mode::clip);
  }
  /// shuffle(x, axis=0): x's slices along `axis` reordered in place, as permutation(x, axis)
  /// orders them (x may be any view: its elements are written where they are).
  template <class Backend = cunp::detail::compiled_backend, class T>
  void shuffle(const ndarray<T>& x, index_t axis = 0) {
    copyto(x, permutation<Backend>(x, axis));
  }

  /// choice(a, size, replace, p): int64 samples of 0..a-1 in shape `size`, on `dev`. With
  /// replacement NumPy's numbers: integers(0, a) without p, the search of random() in p's
  /// normalised cumulative sum with it. Without replacement (not NumPy's numbers, the same on the
  /// cpu and a GPU): the first samples of permutation(a), or with p the samples whose
  /// exponential draws divided by p are smallest (the order of sampling one after another, as
  /// NumPy's loop does; shuffle=false keeps that order). p empty means no p.
  template <class Backend = cunp::detail::compiled_backend>
  [[nodiscard]] ndarray<std::int64_t> choice(index_t a, const shape_t& size = {},
                                             bool replace = true,
                                             const std::vector<double>& p = {},
                                             device dev = default_device()) {
    return choose<Backend>(a, false, size, replace, p, dev);
  }
  /// choice(a, size, replace, p, axis=0): slices of the array a along `axis`, picked as
  /// choice(a.shape[axis], ...) picks indices, on a's device.
  template <class Backend = cunp::detail::compiled_backend, class T>
  [[nodiscard]] ndarray<T> choice(const ndarray<T>& a, const shape_t& size = {},
                                  bool replace = true, const std::vector<double>& p = {},
                                  index_t axis = 0) {
    const int ax = normalize_axis(axis, std::size_t(a.ndim()));
    const auto idx = choose<Backend>(a.shape()[std::size_t(ax)], true, size, replace, p, a.device());
    return cunp::take<Backend>(a, idx, index_t(ax), index_mode::clip);
  }

 private:
  template <class T>
  static constexpr bool real_float = std::is_same_v<T, double> || std::is_same_v<T, float>;

  template <class Backend>
  ndarray<std::int64_t> choose(index_t pop, bool from_array, const shape_t& shape, bool replace,
                               const std::vector<double>& p, device dev) {
    const index_t n = cunp::detail::sample_count(shape);
    cunp::detail::check_choice(pop, from_array, n, p);
    if (replace) {
      if (p.empty()) return integers<std::int64_t, Backend>(0, pop, shape, dev);
      std::vector<double> cdf(p.size());
      double run = 0;
      for (std::size_t i = 0; i < p.size(); ++i) cdf[i] = run += p[i];  // NumPy's cumsum
      for (double& c : cdf) c /= run;
      const auto u = random<double, Backend>(shape, dev);
      return cunp::searchsorted<Backend>(asarray(cdf, {index_t(cdf.size())}, dev), u, "right");
    }
    if (n > pop)
      throw value_error("Cannot take a larger sample than population when replace is False");
    if (!p.empty() && index_t(std::count_if(p.begin(), p.end(), [](double x) { return x > 0; })) < n)
      throw value_error("Fewer non-zero entries in p than size");
    if (n == 0) return ndarray<std::int64_t>(shape, dev);
    ndarray<std::int64_t> order;
    if (p.empty()) {
      order = permutation<Backend>(pop, dev);
    } else {
      auto keys = exponential<double, Backend>(1.0, {pop}, dev);
      divide<Backend>(keys, asarray(p, {pop}, dev), keys);
      order = cunp::argsort<Backend>(keys);
    }
    return view(order, slice(0, n)).copy().reshape(shape);
  }

  template <class Backend, class T, class Rule> void pairs(const ndarray<T>& out, const Rule& rule) {
    static_assert(real_float<T>, "Generator.standard_normal: dtype must be float64 or float32");
    require_fillable(out);
    if (out.size() == 0) return;
    cunp::detail::dispatch<Backend>(out.device(), [&](auto be) {
      random_pairs(be, out, bg_.engine(), rule);
    });
  }

  /// NumPy's refusal of an out= it cannot fill in place.
  template <class T> static void require_fillable(const ndarray<T>& out) {
    if (!out.is_contiguous())
      throw value_error("Supplied output array is not contiguous, writable or aligned.");
  }

  /// A per-element fill: the streams' key from the generator's next two 64-bit draws.
  template <class Backend, class T, class Rule> void each(const ndarray<T>& out, const Rule& rule) {
    static_assert(real_float<T> || std::is_same_v<T, std::int64_t>,
                  "Generator: dtype must be float64 or float32 (int64 for the counts)");
    require_fillable(out);
    if (out.size() == 0) return;
    const std::uint64_t k0 = bg_.engine().next_uint64(), k1 = bg_.engine().next_uint64();
    cunp::detail::dispatch<Backend>(out.device(), [&](auto be) {
      random_each(be, out, k0, k1, rule);
    });
  }

  template <class Backend, class T, class Rule> void fill(const ndarray<T>& out, const Rule& rule) {
    require_fillable(out);
    if (out.size() == 0) return;
    cunp::detail::dispatch<Backend>(out.device(), [&](auto be) {
      random_fill(be, out, bg_.engine(), rule);
    });
  }

  BitGenerator bg_;
};

/// numpy.random.default_rng(): a Generator on PCG64 with fresh entropy; default_rng(seed), with
/// an integer, a list of integers or a SeedSequence, gives NumPy's stream for that seed.
[[nodiscard]] inline Generator<> default_rng() { return Generator(PCG64()); }
template <std::integral I> [[nodiscard]] Generator<> default_rng(I seed) {
  return Generator(PCG64(seed));
}
[[nodiscard]] inline Generator<> default_rng(std::vector<std::uint64_t> entropy) {
  return Generator(PCG64(SeedSequence(std::move(entropy))));
}
[[nodiscard]] inline Generator<> default_rng(SeedSequence seq) {
  return Generator(PCG64(std::move(seq)));
}

}  // namespace cunp::random

// The CUDA backend of this header, for nvcc TUs (cunp.hpp includes every one).
#if defined(__CUDACC__)
#include "cunp/detail/cuda/random/fill.cuh"
#include "cunp/detail/cuda/random/per_element.cuh"
#include "cunp/detail/cuda/random/permutation.cuh"
#endif
