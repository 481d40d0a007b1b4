// cunp/detail/random/seed_sequence.hpp: numpy.random.SeedSequence's hashing (O'Neill's
// seed_seq design as NumPy implements it): entropy words mixed into a pool of 4 32-bit words,
// and the pool hashed into as many state words as a bit generator asks for.
#pragma once
#include <cstdint>
#include <vector>

namespace cunp::detail {

namespace seed_hash {
inline constexpr std::uint32_t init_a = 0x43b0d7e5, mult_a = 0x931e8875;
inline constexpr std::uint32_t init_b = 0x8b51f9dd, mult_b = 0x58f38ded;
inline constexpr std::uint32_t mix_mult_l = 0xca01f9dd, mix_mult_r = 0x4973f715;
inline constexpr int xshift = 16, pool_size = 4;
}  // namespace seed_hash

/// NumPy's _coerce_to_uint32_array for one non-negative integer: its 32-bit words, least
/// significant first ([0] for 0).
inline void append_words(std::vector<std::uint32_t>& words, std::uint64_t v) {
  words.push_back(static_cast<std::uint32_t>(v));
  if (v >> 32) words.push_back(static_cast<std::uint32_t>(v >> 32));
}

/// The pool of SeedSequence(entropy, spawn_key): the entropy words, padded with zeros to the pool
/// size when a spawn key follows, then the spawn key's words, mixed as NumPy's mix_entropy does.
inline std::vector<std::uint32_t> seed_pool(const std::vector<std::uint64_t>& entropy,
                                            const std::vector<std::uint64_t>& spawn_key) {
  using namespace seed_hash;
  std::vector<std::uint32_t> words;
  for (std::uint64_t e : entropy) append_words(words, e);
  if (!spawn_key.empty() && words.size() < std::size_t(pool_size)) words.resize(pool_size, 0);
  for (std::uint64_t k : spawn_key) append_words(words, k);
  std::uint32_t hash_const = init_a;
  const auto hashmix = [&](std::uint32_t v) {
    v ^= hash_const;
    hash_const *= mult_a;
    v *= hash_const;
    return v ^ (v >> xshift);
  };
  const auto mix = [](std::uint32_t x, std::uint32_t y) {
    std::uint32_t r = mix_mult_l * x - mix_mult_r * y;
    return r ^ (r >> xshift);
  };
  std::vector<std::uint32_t> pool(pool_size);
  for (int i = 0; i < pool_size; ++i) pool[i] = hashmix(std::size_t(i) < words.size() ? words[i] : 0);
  for (int src = 0; src < pool_size; ++src)
    for (int dst = 0; dst < pool_size; ++dst)
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
  for (std::size_t src = pool_size; src < words.size(); ++src)
    for (int dst = 0; dst < pool_size; ++dst) pool[dst] = mix(pool[dst], hashmix(words[src]));
  return pool;
}

/// SeedSequence.generate_state(n_words, np.uint64): pairs of hashed 32-bit words, low first.
inline std::vector<std::uint64_t> seed_state(const std::vector<std::uint32_t>& pool, int n_words) {
  using namespace seed_hash;
  std::vector<std::uint64_t> out(std::size_t(n_words), 0);
  std::uint32_t hash_const = init_b;
  for (int i = 0; i < 2 * n_words; ++i) {
    std::uint32_t v = pool[std::size_t(i % pool_size)] ^ hash_const;
    hash_const *= mult_b;
    v *= hash_const;
    v ^= v >> xshift;
    out[std::size_t(i / 2)] |= std::uint64_t(v) << (32 * (i % 2));
  }
  return out;
}

}  // namespace cunp::detail
