"""The numeric check of the docs/rules.md tutorial: tanh with a user rule,
VJP and JVP against central differences in float64."""
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "test", "Numeric"))
import gradcheck  # noqa: E402
import tad  # noqa: E402

SRC = """func.func @f(%x: tensor<5xf64>) -> tensor<5xf64> {
  %0 = tad.tanh %x : tensor<5xf64>
  return %0 : tensor<5xf64>
}"""

m = tad.compile(SRC, vjp="f", jvp="f", rules=sys.argv[1:])
x = [np.linspace(-2, 2, 5)]
rng = np.random.default_rng(0)
print("vjp", gradcheck.check_vjp(m.f, m.f_vjp, x, [0], rng))
print("jvp", gradcheck.check_jvp(m.f, m.f_jvp, x, [0], rng))
