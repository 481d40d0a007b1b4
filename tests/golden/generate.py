#!/usr/bin/env python3
"""Writes NumPy's outputs for the C++ tests: python3 generate.py OUT_DIR.

Each module cases_<area>.py beside this script defines generate(out), which saves .npy files
(inputs and NumPy's results) into the folder `out`. The C++ tests load them with cunp::load.
"""
import importlib
import pathlib
import sys

import numpy as np


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if int(np.__version__.split(".")[0]) < 2:
        print(f"NumPy 2 is required for golden data, found {np.__version__}")
        return 1
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    here = pathlib.Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    for mod_path in sorted(here.glob("cases_*.py")):
        importlib.import_module(mod_path.stem).generate(out)
        print(f"{mod_path.stem}: done")
    print(f"golden data for NumPy {np.__version__} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
