# Ad-hoc peers of mm_bench.cu: CuPy and PyTorch matmul (events, median of 20 after 3 warm-ups).
import time
import cupy as cp
import numpy as np
def med(f, reps=20):
    for _ in range(3): f()
    s, e, t = cp.cuda.Event(), cp.cuda.Event(), []
    for _ in range(reps):
        s.record(); f(); e.record(); e.synchronize(); t.append(cp.cuda.get_elapsed_time(s, e))
    return sorted(t)[len(t)//2]
for n in (1024, 4096, 8192):
    for dt, fl in (("float16", 2), ("float32", 2), ("float64", 2), ("complex64", 8)):
        a = cp.ones((n, n), dt); c = cp.empty((n, n), dt)
        ms = med(lambda: cp.matmul(a, a, out=c)); print(f"cupy {dt:9s} n={n:5d} {ms:9.3f} ms {fl*n**3/ms/1e9:7.1f} TFLOP/s")
a = cp.ones((512, 256, 256), "float32"); print(f"cupy float32 512x256^3 {med(lambda: cp.matmul(a, a)):.3f} ms")
a = cp.ones((64, 64), "float32")
for _ in range(100): cp.matmul(a, a)
cp.cuda.Device().synchronize(); t = time.perf_counter()
for _ in range(1000): cp.matmul(a, a)
print(f"cupy host time 64x64: {(time.perf_counter() - t) * 1e3:.2f} us"); cp.cuda.Device().synchronize()
try:
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    def tmed(f, reps=20):
        for _ in range(3): f()
        s, e, t = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True), []
        for _ in range(reps):
            s.record(); f(); e.record(); e.synchronize(); t.append(s.elapsed_time(e))
        return sorted(t)[len(t)//2]
    for n in (4096, 8192):
        for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
            a = torch.ones((n, n), dtype=dt, device="cuda"); c = torch.empty_like(a)
            ms = tmed(lambda: torch.matmul(a, a, out=c)); print(f"torch {str(dt):15s} n={n:5d} {ms:9.3f} ms {2*n**3/ms/1e9:7.1f} TFLOP/s")
    for n in (1024, 4096):
        a = torch.eye(n, dtype=torch.float64, device="cuda") * n + 1; b = torch.ones((n, 1), dtype=torch.float64, device="cuda")
        print(f"torch float64 n={n} solve {tmed(lambda: torch.linalg.solve(a, b), 5):.3f} ms inv {tmed(lambda: torch.linalg.inv(a), 5):.3f} ms det {tmed(lambda: torch.linalg.det(a), 5):.3f} ms")
except ImportError:
    print("no torch")
for n in (1024, 4096):
    a = cp.eye(n) * n + 1; b = cp.ones((n, 1))
    print(f"cupy float64 n={n} solve {med(lambda: cp.linalg.solve(a, b), 5):.3f} ms inv {med(lambda: cp.linalg.inv(a), 5):.3f} ms det {med(lambda: cp.linalg.det(a), 5):.3f} ms")
a = cp.eye(32, dtype="float32") * 32 + cp.ones((4096, 32, 32), "float32"); b = cp.ones((4096, 32, 1), "float32")
print(f"cupy float32 4096x32^2 solve {med(lambda: cp.linalg.solve(a, b), 10):.3f} ms inv {med(lambda: cp.linalg.inv(a), 10):.3f} ms")
