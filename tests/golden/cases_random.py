"""NumPy's streams for numpy.random.Generator (tests/test_random.cpp).

random.npz holds, for each seed of SEEDS and each call of CALLS made in order on
numpy.random.default_rng(seed), member <seed>_<call> (the result) and <seed>_<call>__state (the
generator's state after it: state high, state low, inc high, inc low, has_uint32, uinteger, as
uint64). Member seeding__<name> holds the state right after seeding (or after spawn, jumped,
advance) and seq42_state the words SeedSequence(42).generate_state(4, np.uint64). The same
calls on numpy.random.Generator(numpy.random.Philox(...)) for each case of PHILOX_SEEDS are
members philox_<seed>_<call> and their __state (counter, key, buffer, buffer_pos, has_uint32,
uinteger), with philox_seeding__<name> the states after seeding, spawn, jumped and advance. The
test walks the same tables by name and requires every member to be checked.

random_dists.npz holds what the distributions cunp draws with other numbers than NumPy's are
checked against: for each case of DISTS, <name>__x (the quantiles at 1/20 ... 19/20 of 10^6 of
NumPy's draws) and <name>__cdf (the fraction of those draws at or below each), which the test's
draws must match within a two-sample Kolmogorov-Smirnov bound; philox<i>__key, __counter and
__words (the first two blocks NumPy's Philox gives from key and counter: the counters counter
and counter + 1, NumPy stepping before each block); and <name>__error, NumPy's error for each
case of ERRORS.
"""
import numpy as np

from numpy_errors import error_text

SEEDS = {"s0": 0, "s12345": 12345, "list": [1, 2, 3], "big": 2**63 + 5, "wide": [2**40 + 5, 7]}
U64 = 2**64


def calls():
    """name -> f(generator): the test's CALLS table, same names and order."""
    i = np.iinfo
    return {
        "f64": lambda g: g.random(7),
        "f32": lambda g: g.random(5, dtype=np.float32),
        "i64_small": lambda g: g.integers(0, 1000, 9),
        "i8": lambda g: g.integers(-100, 27, 13, dtype=np.int8),
        "u16_full": lambda g: g.integers(0, 65535, 6, dtype=np.uint16, endpoint=True),
        "bool": lambda g: g.integers(0, 2, 70, dtype=bool),
        "i64_wide": lambda g: g.integers(-5, 2**40, 4),
        "u64_full": lambda g: g.integers(0, U64 - 1, 3, dtype=np.uint64, endpoint=True),
        "i64_all": lambda g: g.integers(i(np.int64).min, i(np.int64).max, 3),
        "i32_2d": lambda g: g.integers(-7, 9, (2, 3), dtype=np.int32),
        "uniform": lambda g: g.uniform(-2.5, 7.0, (3, 2)),
        "f32_one": lambda g: g.random(1, dtype=np.float32),
        "u8": lambda g: g.integers(3, 250, 33, dtype=np.uint8),
        "i16": lambda g: g.integers(-300, 301, 5, dtype=np.int16),
        "u32_full": lambda g: g.integers(0, 2**32 - 1, 4, dtype=np.uint32, endpoint=True),
        "i8_full": lambda g: g.integers(-128, 127, 7, dtype=np.int8, endpoint=True),
        "one_value": lambda g: g.integers(5, 5, 3, endpoint=True),
        "empty": lambda g: g.random((0, 3)),
        "scalar": lambda g: np.asarray(g.random()),
        "f16": lambda g: (np.floor(g.random(9, dtype=np.float32) * 2048) / 2048).astype(np.float16),
        "uniform_f32": lambda g: g.uniform(1.0, 3.0, 6).astype(np.float32),
        # Long enough for several GPU tiles and grid strides, and rejection-heavy ranges (about
        # half of the draws refused) that need more than one GPU round.
        "f32_long": lambda g: g.random(50001, dtype=np.float32),
        "f64_long": lambda g: g.random(30001),
        "i64_long": lambda g: g.integers(0, 1000, 40001),
        "u8_long": lambda g: g.integers(0, 200, 70001, dtype=np.uint8),
        "u32_half": lambda g: g.integers(0, 2**31 + 1, 20001, dtype=np.uint32),
        "u8_half": lambda g: g.integers(0, 129, 30001, dtype=np.uint8),
        "u64_half": lambda g: g.integers(0, 2**63 + 1, 9001, dtype=np.uint64),
        "bool_long": lambda g: g.integers(0, 2, 10001, dtype=bool),
        "i16_long": lambda g: g.integers(-1000, 1000, 20001, dtype=np.int16),
        # choice with replacement: integers(0, a), or the search of random() in p's cdf.
        "empty_range": lambda g: g.integers(5, 5, (2, 0)),  # nothing to draw: no bounds checked
        "choice_int": lambda g: g.choice(1000, 9),
        "choice_p": lambda g: g.choice(5, 7, p=[0.1, 0, 0.3, 0.6, 0]),
        "choice_p_2d": lambda g: g.choice(4, (2, 3), p=[0.25, 0.25, 0.4, 0.1]),
        "choice_axis": lambda g: g.choice(np.arange(12.0).reshape(3, 4), 5, axis=1),
        "choice_arr_p": lambda g: g.choice(np.arange(6.0), 4, p=[0, 0.5, 0, 0.25, 0.125, 0.125]),
    }


# name -> f(generator, size): the test's table of distributions, same names.
DISTS = {
    "gamma_0.3": lambda g, n: g.gamma(0.3, 2.0, n),
    "gamma_1": lambda g, n: g.gamma(1.0, 1.0, n),
    "gamma_2.5": lambda g, n: g.gamma(2.5, 0.5, n),
    "gamma_50": lambda g, n: g.gamma(50.0, 1.0, n),
    "gamma_0.01": lambda g, n: g.standard_gamma(0.01, n),
    "beta_0.5_0.5": lambda g, n: g.beta(0.5, 0.5, n),
    "beta_2_3": lambda g, n: g.beta(2.0, 3.0, n),
    "beta_0.2_5": lambda g, n: g.beta(0.2, 5.0, n),
    "beta_0.01_0.02": lambda g, n: g.beta(0.01, 0.02, n),
    "poisson_0.5": lambda g, n: g.poisson(0.5, n),
    "poisson_5": lambda g, n: g.poisson(5.0, n),
    "poisson_10": lambda g, n: g.poisson(10.0, n),
    "poisson_1000": lambda g, n: g.poisson(1000.0, n),
    "poisson_1e7": lambda g, n: g.poisson(1e7, n),
    "binomial_10_0.3": lambda g, n: g.binomial(10, 0.3, n),
    "binomial_100_0.9": lambda g, n: g.binomial(100, 0.9, n),
    "binomial_1000_0.5": lambda g, n: g.binomial(1000, 0.5, n),
    "binomial_1e9_1e-3": lambda g, n: g.binomial(10**9, 1e-3, n),
    "binomial_2e6_0.75": lambda g, n: g.binomial(2 * 10**6, 0.75, n),
}

ERRORS = {
    "gamma_shape": lambda g: g.gamma(-1.0, 1.0, 3),
    "gamma_scale": lambda g: g.gamma(1.0, -1.0, 3),
    "standard_gamma_shape": lambda g: g.standard_gamma(-0.5, 3),
    "beta_a": lambda g: g.beta(0.0, 1.0, 3),
    "beta_b": lambda g: g.beta(1.0, -2.0, 3),
    "poisson_negative": lambda g: g.poisson(-1.0, 3),
    "poisson_nan": lambda g: g.poisson(float("nan"), 3),
    "poisson_large": lambda g: g.poisson(1e19, 3),
    "binomial_n": lambda g: g.binomial(-1, 0.5, 3),
    "binomial_p": lambda g: g.binomial(5, 1.5, 3),
    "binomial_nan": lambda g: g.binomial(5, float("nan"), 3),
}

PHILOX = [([1, 2], [5, 0, 0, 0]), ([0, 0], [0, 0, 0, 0]),
          ([0x243F6A8885A308D3, 0x13198A2E03707344], [U64 - 1, U64 - 1, 7, 0])]


def dists(z):
    levels = np.arange(1, 20) / 20
    for name, f in DISTS.items():
        x = np.sort(f(np.random.default_rng(0), 10**6))
        q = np.quantile(x, levels, method="inverted_cdf")
        z[f"{name}__x"] = q.astype(np.float64)
        z[f"{name}__cdf"] = np.searchsorted(x, q, side="right") / x.size
    for name, f in ERRORS.items():
        try:
            f(np.random.default_rng(0))
        except Exception as e:  # noqa: BLE001 - NumPy's exception is the golden value
            z[f"{name}__error"] = error_text(e)
        else:
            raise AssertionError(f"{name}: NumPy raised nothing")
    for i, (key, counter) in enumerate(PHILOX):
        bg = np.random.Philox(key=np.array(key, np.uint64), counter=np.array(counter, np.uint64))
        c = sum(int(w) << (64 * j) for j, w in enumerate(counter)) + 1
        z[f"philox{i}__key"] = np.array(key, np.uint64)
        z[f"philox{i}__counter"] = np.array([(c >> (64 * j)) % U64 for j in range(4)], np.uint64)
        z[f"philox{i}__words"] = bg.random_raw(8)


# name -> Philox: seeds, a counter whose carry runs through all four words (and wraps), a key.
PHILOX_SEEDS = {
    "s0": lambda: np.random.Philox(0),
    "list": lambda: np.random.Philox([1, 2, 3]),
    "carry": lambda: np.random.Philox(7, counter=[U64 - 3, U64 - 1, U64 - 1, U64 - 1]),
    "key": lambda: np.random.Philox(key=[0x243F6A8885A308D3, 0x13198A2E03707344],
                                    counter=5 + ((U64 - 1) << 128)),  # words 5, 0, 2^64 - 1, 0
}


def philox_state_of(g):
    s = g.bit_generator.state
    words = list(s["state"]["counter"]) + list(s["state"]["key"]) + list(s["buffer"])
    return np.array(words + [s["buffer_pos"], s["has_uint32"], s["uinteger"]], np.uint64)


def philox_streams(z):
    for name, make in PHILOX_SEEDS.items():
        g = np.random.Generator(make())
        z[f"philox_seeding__{name}"] = philox_state_of(g)
        for call, f in calls().items():
            z[f"philox_{name}_{call}"] = np.asarray(f(g))
            z[f"philox_{name}_{call}__state"] = philox_state_of(g)
    g = np.random.Generator(np.random.Philox(42))
    kids = g.spawn(2)
    z["philox_seeding__spawn0"], z["philox_seeding__spawn1"] = map(philox_state_of, kids)
    h = np.random.Generator(np.random.Philox(42))
    h.random(3, dtype=np.float32)  # a kept half and a part-used buffer, which jumps drop
    z["philox_seeding__jumped"] = philox_state_of(np.random.Generator(h.bit_generator.jumped()))
    z["philox_seeding__jumped3"] = philox_state_of(np.random.Generator(h.bit_generator.jumped(3)))
    h.bit_generator.advance(1000)
    z["philox_seeding__advanced"] = philox_state_of(h)
    h.bit_generator.advance(U64 - 1)
    z["philox_seeding__advanced_carry"] = philox_state_of(h)


def state_of(g):
    s = g.bit_generator.state
    st, inc = s["state"]["state"], s["state"]["inc"]
    return np.array([st >> 64, st % U64, inc >> 64, inc % U64, s["has_uint32"], s["uinteger"]],
                    np.uint64)


def generate(out):
    z = {}
    for name, seed in SEEDS.items():
        g = np.random.default_rng(seed)
        z[f"seeding__{name}"] = state_of(g)
        for call, f in calls().items():
            z[f"{name}_{call}"] = np.asarray(f(g))
            z[f"{name}_{call}__state"] = state_of(g)
    g = np.random.default_rng(42)
    kids = g.spawn(2)
    z["seeding__spawn0"], z["seeding__spawn1"] = state_of(kids[0]), state_of(kids[1])
    z["seeding__spawn_again"] = state_of(g.spawn(1)[0])
    z["seeding__grandchild"] = state_of(kids[1].spawn(1)[0])
    h = np.random.default_rng(42)
    h.random(1, dtype=np.float32)
    z["seeding__jumped"] = state_of(np.random.Generator(h.bit_generator.jumped()))
    z["seeding__jumped3"] = state_of(np.random.Generator(h.bit_generator.jumped(3)))
    h.bit_generator.advance(1000)
    z["seeding__advanced"] = state_of(h)
    z["seq42_state"] = np.random.SeedSequence(42).generate_state(4, np.uint64)
    philox_streams(z)
    np.savez(out / "random.npz", **z)
    d = {}
    dists(d)
    np.savez(out / "random_dists.npz", **d)
