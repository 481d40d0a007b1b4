"""NumPy's outputs for rearranging and tiling (tests/test_rearranging.cpp): flip, fliplr,
flipud, roll, rot90, diagonal, trace, tile, repeat.

rearrange_<dtype>.npz holds the inputs of cases_joining (same names and views) and the counts
arrays of repeat (COUNTS), and for each case of CASES member <case> (NumPy's result) or
<case>__error ("ExceptionType: message" as uint8 text) where NumPy raises. The test walks the
same table by name and requires every member to be checked.
"""
import numpy as np

from cases_joining import DTYPES, inputs, run_cases, storage, stored, view_sets

COUNTS = {"r4": np.array([2, 0, 1, 3], np.int8), "rb": np.array([True, False, True]),
          "r0d": np.array(2, np.int64), "r12": np.array([0, 1, 3, 2] * 3, np.uint8),
          "r_u64": np.array([1, 1, 1], np.uint64), "r_f64": np.array([1.0, 1.0, 1.0]),
          "r2d": np.array([[1, 1, 1]], np.int64)}


def trace_dtype(dtype):
    """The dtype= the trace case asks for: float64, or complex128 for complex inputs."""
    return np.complex128 if storage(dtype).kind == "c" else np.float64


def cases(s, dtype):
    """name -> function: the test's table, same names."""
    x0, x1, e1, x2, e2, x3, o3 = (s[k] for k in ["x0", "x1", "e1", "x2", "e2", "x3", "o3"])
    rev, t2, rev3 = s["rev"], s["t2"], s["rev3"]
    r = np.repeat
    return {
        "flip_all": lambda: np.flip(x2),
        "flip_a0": lambda: np.flip(x2, 0),
        "flip_am1": lambda: np.flip(x3, -1),
        "flip_axes": lambda: np.flip(x3, (0, 2)),
        "flip_axes_neg": lambda: np.flip(x3, (-1, 0)),
        "flip_rev": lambda: np.flip(rev, 1),
        "flip_t": lambda: np.flip(t2),
        "flip_0d": lambda: np.flip(x0),
        "flip_empty": lambda: np.flip(e2, 0),
        "flip_size1": lambda: np.flip(o3),
        "flip_err_axis": lambda: np.flip(x2, 2),
        "flip_err_repeat": lambda: np.flip(x2, (0, -2)),
        "flip_err_0d": lambda: np.flip(x0, 0),
        "fliplr_2d": lambda: np.fliplr(x2),
        "fliplr_3d": lambda: np.fliplr(rev3),
        "fliplr_err": lambda: np.fliplr(x1),
        "flipud_1d": lambda: np.flipud(x1),
        "flipud_2d": lambda: np.flipud(rev),
        "flipud_err": lambda: np.flipud(x0),
        "roll_flat": lambda: np.roll(x2, 5),
        "roll_flat_neg": lambda: np.roll(x2, -7),
        "roll_flat_view": lambda: np.roll(rev, 3),
        "roll_flat_list": lambda: np.roll(x2, [1, 2]),
        "roll_a1": lambda: np.roll(x2, 1, 1),
        "roll_am1": lambda: np.roll(x3, -5, -1),
        "roll_multi": lambda: np.roll(x3, (1, 2), (0, 2)),
        "roll_one_shift": lambda: np.roll(x3, 1, (0, 1, 2)),
        "roll_one_axis": lambda: np.roll(x1, (2, 4), 0),
        "roll_repeat_axes": lambda: np.roll(x2, (1, 2), (1, 1)),
        "roll_rev": lambda: np.roll(rev3, (1, -1), (1, 2)),
        "roll_big": lambda: np.roll(x1, 2**62 + 1),
        "roll_min": lambda: np.roll(x1, -2**63),
        "roll_zero": lambda: np.roll(x2, 0, 0),
        "roll_empty": lambda: np.roll(e2, 3, (0, 1)),
        "roll_0d": lambda: np.roll(x0, 3),
        "roll_size1": lambda: np.roll(o3, 1, 0),
        "roll_err_axis": lambda: np.roll(x2, 1, 2),
        "roll_err_0d": lambda: np.roll(x0, 1, 0),
        "roll_err_bcast": lambda: np.roll(x3, (1, 2, 3), (0, 1)),
        "rot_1": lambda: np.rot90(x2),
        "rot_2": lambda: np.rot90(x2, 2),
        "rot_3": lambda: np.rot90(x2, 3),
        "rot_m1": lambda: np.rot90(x2, -1),
        "rot_4": lambda: np.rot90(x2, 4),
        "rot_3d": lambda: np.rot90(x3, 1, (2, 0)),
        "rot_3d_neg": lambda: np.rot90(x3, -3, (-1, 1)),
        "rot_rev": lambda: np.rot90(rev),
        "rot_empty": lambda: np.rot90(e2, 1),
        "rot_err_1d": lambda: np.rot90(x1),
        "rot_err_0d": lambda: np.rot90(x0),
        "rot_err_same": lambda: np.rot90(x2, 1, (1, 1)),
        "rot_err_wrap": lambda: np.rot90(x2, 1, (0, -2)),
        "rot_err_range": lambda: np.rot90(x2, 1, (0, 3)),
        "rot_err_len": lambda: np.rot90(x2, 1, (0, 1, 2)),
        "diag_2d": lambda: np.diagonal(x2),
        "diag_k1": lambda: np.diagonal(x2, 1),
        "diag_km2": lambda: np.diagonal(x2, -2),
        "diag_far": lambda: np.diagonal(x2, 7),
        "diag_far_neg": lambda: np.diagonal(x2, -3),
        "diag_3d": lambda: np.diagonal(x3),
        "diag_3d_axes": lambda: np.diagonal(x3, 1, 2, 0),
        "diag_3d_neg": lambda: np.diagonal(x3, -1, -1, -2),
        "diag_rev": lambda: np.diagonal(rev, 1),
        "diag_t": lambda: np.diagonal(t2, -1),
        "diag_empty": lambda: np.diagonal(e2),
        "diag_err_1d": lambda: np.diagonal(x1),
        "diag_err_0d": lambda: np.diagonal(x0),
        "diag_err_same": lambda: np.diagonal(x3, 0, 1, -2),
        "diag_err_axis1": lambda: np.diagonal(x3, 0, 3, 1),
        "diag_err_axis2": lambda: np.diagonal(x3, 0, 0, -4),
        "trace_2d": lambda: np.trace(x2),
        "trace_k1": lambda: np.trace(x2, 1),
        "trace_3d": lambda: np.trace(x3, 0, 1, 2),
        "trace_3d_neg": lambda: np.trace(x3, -1, -1, 0),
        "trace_rev": lambda: np.trace(rev),
        "trace_empty": lambda: np.trace(e2),
        "trace_far": lambda: np.trace(x2, 10),
        "trace_dtype": lambda: np.trace(x2, dtype=trace_dtype(dtype)),
        "trace_err_1d": lambda: np.trace(x1),
        "trace_err_same": lambda: np.trace(x3, 0, 2, -1),
        "tile_1d": lambda: np.tile(x1, 2),
        "tile_2d": lambda: np.tile(x2, (2, 3)),
        "tile_pad_reps": lambda: np.tile(x2, 2),
        "tile_pad_a": lambda: np.tile(x1, (2, 1, 2)),
        "tile_0d": lambda: np.tile(x0, 3),
        "tile_0d_no_reps": lambda: np.tile(x0, ()),
        "tile_ones": lambda: np.tile(x2, (1, 1)),
        "tile_zero": lambda: np.tile(x2, (0, 2)),
        "tile_rev": lambda: np.tile(rev, (2, 1)),
        "tile_empty": lambda: np.tile(e2, (2, 2)),
        "tile_3d": lambda: np.tile(rev3, (1, 2, 1, 2)),
        "tile_err_neg": lambda: np.tile(x2, (2, -1)),
        "rep_flat": lambda: r(x2, 2),
        "rep_a0": lambda: r(x2, 2, 0),
        "rep_am1": lambda: r(x3, 3, -1),
        "rep_zero": lambda: r(x2, 0, 1),
        "rep_0d": lambda: r(x0, 3),
        "rep_0d_axis": lambda: r(x0, 2, 0),
        "rep_rev": lambda: r(rev, 2, 1),
        "rep_rev_flat": lambda: r(rev, 2),
        "rep_neg_empty": lambda: r(e1, -1),
        "rep_list_a0": lambda: r(x2, [1, 0, 2], 0),
        "rep_list_a1": lambda: r(x2, [2, 0, 1, 3], 1),
        "rep_list_am2": lambda: r(x3, [3, 1, 0], -2),
        "rep_list_flat": lambda: r(x1, [1, 2, 0, 3, 1]),
        "rep_list_rev": lambda: r(rev3, [0, 2, 1], 1),
        "rep_list_rev_flat": lambda: r(rev, [1, 0, 2, 3, 0, 1]),
        "rep_list_t": lambda: r(t2, [2, 1, 0, 1], 0),
        "rep_list_one": lambda: r(x2, [2], 1),
        "rep_list_empty": lambda: r(e2, [], 0),
        "rep_list_zeros": lambda: r(x2, [0, 0, 0], 0),
        "rep_list_0d": lambda: r(x0, [3]),
        "rep_arr_i8": lambda: r(x2, COUNTS["r4"], 1),
        "rep_arr_bool": lambda: r(x2, COUNTS["rb"], 0),
        "rep_arr_0d": lambda: r(x3, COUNTS["r0d"], 2),
        "rep_arr_flat": lambda: r(x2, COUNTS["r12"]),
        "rep_err_neg": lambda: r(x2, -1),
        "rep_err_neg_one": lambda: r(x2, [-1], 0),
        "rep_err_neg_list": lambda: r(x2, [1, -1, 2], 0),
        "rep_err_len": lambda: r(x2, [1, 2], 0),
        "rep_err_len_flat": lambda: r(x2, [1, 2]),
        "rep_err_axis": lambda: r(x2, 2, 2),
        "rep_err_0d_axis": lambda: r(x0, 2, 1),
        "rep_err_u64": lambda: r(x2, COUNTS["r_u64"], 0),
        "rep_err_f64": lambda: r(x2, COUNTS["r_f64"], 0),
        "rep_err_2d": lambda: r(x2, COUNTS["r2d"], 0),
    }


def generate(out):
    rng = np.random.default_rng(1920)
    for dtype in DTYPES:
        s = inputs(rng, dtype)
        members = run_cases(dtype, cases(view_sets(s), dtype))
        members.update({k: stored(dtype, v) for k, v in s.items()})
        members.update(COUNTS)
        np.savez(out / f"rearrange_{dtype}.npz", **members)
