#!/usr/bin/env python3
"""Checks examples/NAME/model.py against torch.autograd: forward and VJP,
loss gradient, and compiled SGD and Adam training steps, in float64 and
float32 (tad.testing; tolerances are stated there). Prints PASS/FAIL lines
and 'N failed'; an op tad does not have yet is reported as a FAIL naming it.

usage: check_example.py NAME [f64] [f32]
"""

import importlib.util
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import torch  # noqa: E402

import tad  # noqa: E402
from tad.testing import check_forward, check_training  # noqa: E402


def main():
    name = sys.argv[1]
    dtypes = [{"f64": torch.float64, "f32": torch.float32}[d] for d in sys.argv[2:]] \
        or [torch.float64, torch.float32]
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(ROOT, "examples", name, "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed = 0
    for dtype in dtypes:
        for check in (check_forward, check_training):
            try:
                failed += check(module.build, dtype)
            except tad.TadImportError as e:
                print(f"FAIL {name} {dtype}: {e}")
                failed += 1
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
