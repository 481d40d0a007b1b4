"""NumPy's exception as golden data: "Type: message" as uint8 bytes, which the C++ tests read
with require_numpy_error (tests/harness/golden_archive.hpp). Shared by the cases_*.py modules."""
import numpy as np


def error_text(e):
    return np.frombuffer(f"{type(e).__name__}: {e}".encode(), dtype=np.uint8)
