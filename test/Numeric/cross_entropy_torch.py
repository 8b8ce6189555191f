"""tad.cross_entropy_loss (decomposed by tadc) against
torch.nn.functional.cross_entropy in f64: reductions, ignore_index, class
weights, K-dimensional inputs and label smoothing."""
import sys

import numpy as np
import torch
import torch.nn.functional as F

import gradcheck  # noqa: F401  (puts runtime/python on the path)
import tad

rng = np.random.default_rng(3)
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def t(shape, elem="f64"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def check(name, x, y, reduction, smoothing=0.0, weight=None, ignore=-100):
    out_shape = list(y.shape) if reduction == "none" else []
    args = f"%x: {t(x.shape)}, %y: {t(y.shape, 'i64')}"
    operands, types = "%x, %y", f"{t(x.shape)}, {t(y.shape, 'i64')}"
    if weight is not None:
        args += f", %w: {t(weight.shape)}"
        operands += " weight %w"
        types += f", {t(weight.shape)}"
    mlir = f"""
func.func @f({args}) -> {t(out_shape)} {{
  %r = tad.cross_entropy_loss {operands} {{reduction = {REDUCTIONS[reduction]} : i64, ignore_index = {ignore} : i64, label_smoothing = {smoothing} : f64}} : ({types}) -> {t(out_shape)}
  return %r : {t(out_shape)}
}}"""
    inputs = [x, y] + ([weight] if weight is not None else [])
    got = tad.compile(mlir).f(*inputs)
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(y),
                           weight=None if weight is None else torch.from_numpy(weight),
                           reduction=reduction, ignore_index=ignore,
                           label_smoothing=smoothing).numpy()
    err = float(np.max(np.abs(got - want)))
    ok = err <= 1e-12 * max(1.0, float(np.max(np.abs(want))))
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else f": max abs error {err:.3g}"))
    return 0 if ok else 1


x2, y2 = rng.standard_normal((6, 5)), rng.integers(0, 5, 6)
y2[2] = 1
x4, y4 = rng.standard_normal((2, 3, 2, 2)), rng.integers(0, 3, (2, 2, 2))
w = rng.uniform(0.5, 1.5, 5)
failed = 0
for red in REDUCTIONS:
    failed += check(f"{red}", x2, y2, red)
    failed += check(f"{red} ignore_index", x2, y2, red, ignore=1)
    failed += check(f"{red} weight ignore_index", x2, y2, red, weight=w, ignore=1)
    failed += check(f"{red} label_smoothing", x2, y2, red, smoothing=0.2)
    failed += check(f"{red} label_smoothing ignore_index", x2, y2, red, smoothing=0.2, ignore=1)
    failed += check(f"{red} 4-d label_smoothing", x4, y4, red, smoothing=0.1)
print(f"{failed} failed")
sys.exit(1 if failed else 0)
