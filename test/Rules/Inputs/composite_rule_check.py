"""Numeric check of a user rule for a kept composite and of a user
decomposition: @f's VJP and JVP against central differences (f64)."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Numeric"))
from gradcheck import Case, run_cases  # noqa: E402

rng = np.random.default_rng(5)
mlir = open(os.path.join(HERE, "linear-model.mlir")).read()
args = [rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal(5)]
rules, keep = sys.argv[1], sys.argv[2:]


import tad  # noqa: E402  (gradcheck put runtime/python on the path)

original = tad.compile


def compile_with_rules(source, **kw):
    extra = ["--rules=" + os.path.join(HERE, rules)] + ["--keep-ops=" + k for k in keep]
    return original(source, extra_args=extra, **kw)


tad.compile = compile_with_rules
failures = run_cases([Case("linear " + rules, mlir, args)])
print("%d passed, %d failed" % (2 - failures, failures))
sys.exit(1 if failures else 0)
