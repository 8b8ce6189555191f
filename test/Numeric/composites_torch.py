"""Composite ops without a torch.nn.functional test elsewhere against
PyTorch in f64: glu and log_sigmoid_forward (output and ATen's CPU buffer)."""
import sys

import numpy as np
import torch
import torch.nn.functional as F

import gradcheck  # noqa: F401  (puts runtime/python on the path)
import tad

rng = np.random.default_rng(4)
failed = 0


def report(name, got, want):
    global failed
    err = max(float(np.max(np.abs(g - w))) for g, w in zip(got, want))
    ok = err <= 1e-13
    failed += not ok
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else f": max abs error {err:.3g}"))


x = rng.standard_normal((4, 6)) * 4
module = tad.compile("""
func.func @glu(%x: tensor<4x6xf64>) -> tensor<4x3xf64> {
  %0 = tad.glu %x : (tensor<4x6xf64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}
func.func @glu0(%x: tensor<4x6xf64>) -> tensor<2x6xf64> {
  %0 = tad.glu %x {dim = 0 : i64} : (tensor<4x6xf64>) -> tensor<2x6xf64>
  return %0 : tensor<2x6xf64>
}
func.func @logsig(%x: tensor<4x6xf64>) -> (tensor<4x6xf64>, tensor<4x6xf64>) {
  %0:2 = tad.log_sigmoid_forward %x : tensor<4x6xf64>
  return %0#0, %0#1 : tensor<4x6xf64>, tensor<4x6xf64>
}""")
tx = torch.from_numpy(x)
report("glu", [module.glu(x)], [F.glu(tx).numpy()])
report("glu dim 0", [module.glu0(x)], [F.glu(tx, 0).numpy()])
report("log_sigmoid_forward", module.logsig(x),
       [v.numpy() for v in torch.ops.aten.log_sigmoid_forward(tx)])
print(f"{failed} failed")
sys.exit(1 if failed else 0)
