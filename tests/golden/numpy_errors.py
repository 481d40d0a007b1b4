"""NumPy's exception as golden data: "Type: message" as uint8 bytes, which the C++ tests read
with require_numpy_error (tests/harness/golden_archive.hpp). Shared by the cases_*.py modules."""
import re

import numpy as np


# Messages that NumPy or SciPy reworded, older text -> the newest (cunp's): the archives then
# hold one text whichever release generates them (CI's and the GPU machine's differ).
REWORDED = [
    # NumPy 2.5's finfo of a non-inexact dtype (pinv's default rtol)
    (re.compile(r"data type <class 'numpy\.(\w+)'> not inexact"),
     r"data type dtype('\1') not compatible with finfo"),
    # SciPy 1.18's bmat/vstack of no blocks
    (re.compile(r"^blocks must be 2-D$"), "blocks must be 2-D, and some must be sparse"),
]


def error_text(e):
    text = str(e)
    for old, new in REWORDED:
        text = old.sub(new, text)
    return np.frombuffer(f"{type(e).__name__}: {text}".encode(), dtype=np.uint8)


def record(m, name, f):
    """m[name] = f()'s result as an array, or m[name + "__error"] = NumPy's error when f raises."""
    try:
        m[name] = np.asarray(f())
    except Exception as e:  # NumPy's error is the expected result
        m[f"{name}__error"] = error_text(e)
