"""NumPy's exception as golden data: "Type: message" as uint8 bytes, which the C++ tests read
with require_numpy_error (tests/harness/golden_archive.hpp). Shared by the cases_*.py modules."""
import numpy as np


def error_text(e):
    return np.frombuffer(f"{type(e).__name__}: {e}".encode(), dtype=np.uint8)


def record(m, name, f):
    """m[name] = f()'s result as an array, or m[name + "__error"] = NumPy's error when f raises."""
    try:
        m[name] = np.asarray(f())
    except Exception as e:  # NumPy's error is the expected result
        m[f"{name}__error"] = error_text(e)
