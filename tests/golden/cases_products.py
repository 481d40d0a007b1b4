"""NumPy's outputs for the matrix and tensor products (tests/test_products.cpp): three archives,
products_matmul.npz (matmul of every dtype), products_family.npz (dot, vdot, inner, outer,
tensordot, kron, vecdot) and products_misc.npz (promotion, wrap-around, NaN, multi_dot, the
precision modes, the errors). Inputs are members named in_<name>, results and errors
(<name>__error) the others. matmul runs
over every dtype with one shape set (2-d, 1-d on either side, batches that broadcast, transposed
and negative-stride views, k = 0); the rest of the family on float64, int32 and complex128; the
float32 precision modes compare with the float64 product of the same float32 values.
"""
import numpy as np

from numpy_errors import error_text, record

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"]


def values(rng, shape, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind == "i":
        return rng.integers(-3, 4, shape).astype(dt)
    if dt.kind == "u":
        return rng.integers(0, 4, shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def generate(out):
    rng = np.random.default_rng(20261205)
    files = {"matmul": {}, "family": {}, "misc": {}, "einsum": {}}
    m = files["matmul"]

    def inp(name, a):
        m[f"in_{name}"] = np.asarray(a)
        return np.asarray(a)

    def res(name, f):
        record(m, name, f)

    for dt in DTYPES:
        a = inp(f"{dt}_a", values(rng, (5, 7), dt))
        b = inp(f"{dt}_b", values(rng, (7, 3), dt))
        v = inp(f"{dt}_v", values(rng, (7,), dt))
        p = inp(f"{dt}_p", values(rng, (2, 1, 5, 7), dt))
        q = inp(f"{dt}_q", values(rng, (4, 7, 3), dt))
        big_a = inp(f"{dt}_big_a", values(rng, (33, 65), dt))
        big_b = inp(f"{dt}_big_b", values(rng, (65, 17), dt))
        res(f"mm_{dt}_2d", lambda: a @ b)
        res(f"mm_{dt}_1d2d", lambda: v @ b)
        res(f"mm_{dt}_2d1d", lambda: a @ v)
        res(f"mm_{dt}_1d1d", lambda: v @ v)
        res(f"mm_{dt}_batch", lambda: p @ q)          # (2, 1) and (4,) broadcast to (2, 4)
        res(f"mm_{dt}_batch1d", lambda: p @ v)
        res(f"mm_{dt}_bT_aT", lambda: b.T @ a.T)      # both transposed views
        res(f"mm_{dt}_neg", lambda: a[::-1, ::-2] @ b[::2])
        res(f"mm_{dt}_big", lambda: big_a @ big_b)
        res(f"mm_{dt}_bigT", lambda: big_b.T @ big_a.T)
        res(f"mm_{dt}_k0", lambda: np.zeros((3, 0), dt) @ np.zeros((0, 4), dt))

    # NumPy 2's promotion of mixed operands.
    mm = m
    m = files["misc"]
    for x, y in [("int8", "uint8"), ("float32", "float64"), ("int32", "float32"), ("bool", "int8"),
                 ("float16", "float32"), ("complex64", "float64")]:
        res(f"mix_{x}_{y}", lambda: mm[f"in_{x}_a"] @ mm[f"in_{y}_b"])

    # Wrap-around: 100 * 1 + 100 * 1 overflows int8 (-56), 200 + 200 uint8 (144).
    w8 = inp("wrap_i8", np.full((2, 2), 100, np.int8))
    res("wrap_i8", lambda: w8 @ np.ones((2, 2), np.int8))
    wu = inp("wrap_u8", np.full((2, 2), 200, np.uint8))
    res("wrap_u8", lambda: wu @ np.ones((2, 2), np.uint8))

    # A NaN reaches its row and column, an inf its products (not skipped for zeros).
    nan_a = np.arange(12.0).reshape(3, 4)
    nan_a[1, 2] = np.nan
    nan_a[2, 0] = np.inf
    inp("nan_a", nan_a)
    inp("nan_b", np.zeros((4, 2)))
    res("nan", lambda: nan_a @ np.zeros((4, 2)))

    # The family, on three dtypes.
    misc = m
    m = files["family"]
    for dt in ["float64", "int32", "complex128"]:
        x3 = inp(f"{dt}_x3", values(rng, (2, 3, 4), dt))
        y3 = inp(f"{dt}_y3", values(rng, (5, 4, 6), dt))
        x2 = inp(f"{dt}_x2", values(rng, (2, 3), dt))
        v4 = inp(f"{dt}_v4", values(rng, (4,), dt))
        w4 = inp(f"{dt}_w4", values(rng, (4,), dt))
        z3 = inp(f"{dt}_z3", values(rng, (3, 4, 5), dt))
        u3 = inp(f"{dt}_u3", values(rng, (4, 3, 2), dt))
        t3 = inp(f"{dt}_t3", values(rng, (4, 5, 2), dt))
        s0 = inp(f"{dt}_s0", values(rng, (), dt))
        res(f"dot_{dt}_nd", lambda: np.dot(x3, y3))
        res(f"dot_{dt}_1d_nd", lambda: np.dot(v4, y3))
        res(f"dot_{dt}_nd_1d", lambda: np.dot(x3, v4))
        res(f"dot_{dt}_1d_1d", lambda: np.dot(v4, w4))
        res(f"dot_{dt}_0d", lambda: np.dot(s0, x3))
        res(f"dot_{dt}_2d", lambda: np.dot(x2, x2.T))
        res(f"vdot_{dt}", lambda: np.vdot(x3, np.moveaxis(x3, 0, 2)))
        res(f"inner_{dt}", lambda: np.inner(x3, y3[0].T))     # (2, 3, 4) . (6, 4)
        res(f"inner_{dt}_1d", lambda: np.inner(v4, w4))
        res(f"inner_{dt}_0d", lambda: np.inner(x2, s0))
        res(f"outer_{dt}", lambda: np.outer(x2, v4))
        res(f"td_{dt}_pairs", lambda: np.tensordot(z3, u3, ([1, 0], [0, 1])))
        res(f"td_{dt}_n2", lambda: np.tensordot(z3, t3, 2))
        res(f"td_{dt}_n0", lambda: np.tensordot(x2, v4, 0))
        res(f"td_{dt}_neg", lambda: np.tensordot(z3, u3, ([-3], [-2])))
        res(f"kron_{dt}", lambda: np.kron(x2, x3[0]))
        res(f"kron_{dt}_nd", lambda: np.kron(v4, x3))
        res(f"kron_{dt}_0d", lambda: np.kron(s0, x2))
        res(f"vecdot_{dt}", lambda: np.linalg.vecdot(x3, x3[0]))
        res(f"vecdot_{dt}_axis", lambda: np.linalg.vecdot(x3, x3[1], axis=-2))
        res(f"lin_outer_{dt}", lambda: np.linalg.outer(v4, w4))

    m = misc
    c = [inp(f"chain_{i}", rng.standard_normal(s)) for i, s in
         enumerate([(10,), (10, 20), (20, 5), (5, 30), (30,), (3, 4)])]
    res("multi_dot_vv", lambda: np.linalg.multi_dot(c[0:5]))
    res("multi_dot_mm", lambda: np.linalg.multi_dot(c[1:4]))
    res("multi_dot_v", lambda: np.linalg.multi_dot(c[0:4]))
    res("multi_dot_two", lambda: np.linalg.multi_dot(c[1:3]))

    # The float32 precision modes against the float64 product of the same values.
    pa = inp("prec_a", rng.uniform(-1, 1, (64, 256)).astype(np.float32))
    pb = inp("prec_b", rng.uniform(-1, 1, (256, 48)).astype(np.float32))
    res("prec_exact", lambda: pa.astype(np.float64) @ pb.astype(np.float64))

    # Errors: each call with the shapes named.
    one = np.ones
    res("err_mm_core", lambda: np.matmul(one((2, 3)), one((2, 3))))
    res("err_mm_0d_a", lambda: np.matmul(one(()), one(3)))
    res("err_mm_0d_b", lambda: np.matmul(one(3), one(())))
    res("err_mm_batch", lambda: np.matmul(one((2, 3, 4)), one((3, 4, 5))))
    res("err_mm_batch_nd", lambda: np.matmul(one((2, 3, 4)), one((5, 3, 4, 5))))
    res("err_mm_out_core", lambda: np.matmul(one((2, 3)), one((3, 4)), out=one((2, 5))))
    res("err_dot", lambda: np.dot(one((2, 3)), one((2, 3))))
    res("err_dot_nd", lambda: np.dot(one((2, 3)), one((4, 2, 5))))
    res("err_dot_1d", lambda: np.dot(one(3), one(4)))
    res("err_inner", lambda: np.inner(one((2, 3)), one(4)))
    res("err_vdot", lambda: np.vdot(one(3), one(4)))
    res("err_td_mismatch", lambda: np.tensordot(one((2, 3)), one((2, 3)), ([0, 1], [1, 0])))
    res("err_td_lengths", lambda: np.tensordot(one((2, 3)), one((2, 3)), ([0], [0, 1])))
    res("err_td_index", lambda: np.tensordot(one((2, 3)), one((3, 2)), ([0], [5])))
    res("err_td_n", lambda: np.tensordot(one((2, 3)), one((2, 3)), 1))
    res("err_matrix_transpose", lambda: np.linalg.matrix_transpose(one(3)))
    res("err_vecdot", lambda: np.linalg.vecdot(one(3), one(4)))
    res("err_vecdot_batch", lambda: np.linalg.vecdot(one((2, 3)), one((3, 3))))
    res("err_lin_outer", lambda: np.linalg.outer(one(()), one(2)))
    res("err_multi_dot_one", lambda: np.linalg.multi_dot([one((2, 2))]))
    res("err_multi_dot_3d", lambda: np.linalg.multi_dot([one(3), one((3, 3, 3)), one(3)]))
    # einsum: numpy.einsum's documented examples and the paths cunp takes (a matrix product
    # through matmul, the general product-and-sum), on four dtypes.
    m = files["einsum"]
    for dt in ["float64", "float32", "complex128", "int64", "bool"]:
        a = values(rng, (5, 5), dt)
        b = values(rng, (5,), dt)
        c = values(rng, (2, 3), dt)
        t = values(rng, (3, 4, 5), dt)
        u = values(rng, (4, 3, 2), dt)
        p = values(rng, (2, 3, 4), dt)
        q = values(rng, (2, 4, 5), dt)
        s0 = values(rng, (), dt)
        for i, (sub, ops) in enumerate([
                ("ii", [a]), ("ii->i", [a]), ("ij->i", [a]), ("...j->...", [a]), ("ji", [c]),
                ("ij->ji", [c]), ("ij,j", [a, b]), ("...j,j", [a, b]), ("i,i", [b, b]),
                ("i,j", [b, b]), ("i,i->i", [b, b]), (",ij", [s0, c]), ("ij,jk", [c, a[:3]]),
                ("ijk,jil->kl", [t, u]), ("bij,bjk->bik", [p, q]), ("bij,bjk", [p, q]),
                ("ki,jk->ij", [a, a[:2, :]]), ("ij,kj->ik", [c, c]),
                ("ijk->kji", [t]), ("iij->ij", [np.stack([a[:2, :2]] * 3, -1)]),
                ("ij,ij,ij->i", [c, c, c]), ("i...,i...", [a, a]), ("Ba,ab", [c, a[:3]]),
                ("ij,jk->", [c, a[:3]]), ("ij,j->j", [a, b])]):
            m[f"esub_{i}"] = np.frombuffer(sub.encode(), np.uint8)
            for j, op in enumerate(ops):
                inp(f"{dt}_e{i}_{j}", op)
            res(f"einsum_{dt}_{i}", lambda: np.einsum(sub, *ops))
    for i, (sub, shapes) in enumerate([
            ("ij,jk->ik", [(2, 3)]), ("ij->ik", [(2, 3)]),
            ("ii", [(2, 3)]), ("i+j", [(2, 3)]), ("ij->ii", [(2, 2)]), ("ijk", [(2, 3)]),
            ("i->", [()]), ("i.j", [(2, 3)]), ("ij", [(2, 3, 4)]), ("...i->i", [(2, 3)]),
            ("ij,jk", [(2, 3)])]):
        m[f"err_sub_{i}"] = np.frombuffer(sub.encode(), np.uint8)
        for j, sh in enumerate(shapes):
            m[f"err_shape_{i}_{j}"] = np.array(sh, np.int64)
        res(f"err_einsum_{i}", lambda: np.einsum(sub, *[np.ones(sh) for sh in shapes]))

    for name, members in files.items():
        np.savez(out / f"products_{name}.npz", **members)
