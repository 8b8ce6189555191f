"""The MLP example's gradient (examples/mlp/mlp.mlir, in float64) against
central differences, in both modes; and one SGD step of its compiled
training step against the same step done in NumPy with the tad gradient."""

import os
import sys

import numpy as np

from gradcheck import Case, run_cases
import tad

HERE = os.path.dirname(os.path.abspath(__file__))
MLP = open(os.path.join(HERE, "..", "..", "examples", "mlp", "mlp.mlir")).read()
MLP64 = MLP.replace("f32", "f64")

rng = np.random.default_rng(3)
x = rng.standard_normal((64, 8))
y = rng.standard_normal((64, 1))
params = [rng.standard_normal((8, 32)) / 3, rng.standard_normal(32) / 3,
          rng.standard_normal((32, 1)) / 6, rng.standard_normal(1)]

# Only the parameters are differentiable (x and y are tad.nondiff). The
# point has 64*8 inputs, so the finite differences cost ~1000 calls.
failures = run_cases([Case("mlp loss", MLP64, [x, y] + params,
                           diff=[2, 3, 4, 5], func="loss")])

module = tad.compile(MLP64, vjp=["loss"])
lr = np.array(0.05)
loss, *new = module.train_step(x, y, *params, lr)
_, *grads = module.loss_vjp(x, y, *params, np.array(1.0))
ok = np.isclose(loss, module.loss(x, y, *params), rtol=1e-12) and all(
    np.allclose(n, p - lr * g, rtol=1e-12, atol=1e-14)
    for n, p, g in zip(new, params, grads))
if not ok:
    failures += 1
print("%s train_step matches loss() and an SGD step with loss_vjp" % ("PASS" if ok else "FAIL"))
print("%d failed" % failures)
sys.exit(1 if failures else 0)
