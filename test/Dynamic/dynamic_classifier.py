"""A classifier with a dynamic batch: log_softmax and nll_loss (the
cross-entropy that PyTorch's importer emits), forward and VJP at several
batch sizes against torch.autograd in f64, at -O0 and -O2."""
import sys

import numpy as np
import tad
import torch

PROGRAM = """
func.func @f(%x: tensor<?x6xf64> {tad.dim_names = ["N", ""]},
             %w: tensor<5x6xf64>, %b: tensor<5xf64>,
             %t: tensor<?xi64> {tad.dim_names = ["N"], tad.nondiff})
    -> (tensor<?x5xf64>, tensor<f64>) {
  %wt = tad.t %w : (tensor<5x6xf64>) -> tensor<6x5xf64>
  %z = tad.addmm %b, %x, %wt : (tensor<5xf64>, tensor<?x6xf64>, tensor<6x5xf64>) -> tensor<?x5xf64>
  %p = tad._softmax %z {dim = 1 : i64, half_to_float = false} : tensor<?x5xf64>
  %l = tad._log_softmax %z {dim = 1 : i64, half_to_float = false} : tensor<?x5xf64>
  %loss, %total = tad.nll_loss_forward %l, %t {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<?x5xf64>, tensor<?xi64>) -> (tensor<f64>, tensor<f64>)
  return %p, %loss : tensor<?x5xf64>, tensor<f64>
}
"""

failures = 0


def check(name, ok):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name)
    failures += not ok


rng = np.random.default_rng(1)
w, b = rng.standard_normal((5, 6)), rng.standard_normal(5)
modules = {level: tad.compile(PROGRAM, vjp="f", opt_level=level) for level in (0, 2)}
for n in (1, 3, 7, 32, 64, 128, 1000):
    x = rng.standard_normal((n, 6))
    t = rng.integers(0, 5, n)
    if n == 3:
        t[1] = -100  # ignored
    xt, wt, bt = (torch.tensor(v, requires_grad=True) for v in (x, w, b))
    z = xt @ wt.T + bt
    p = torch.softmax(z, 1)
    loss = torch.nn.functional.cross_entropy(z, torch.tensor(t), ignore_index=-100)
    ct_p = rng.standard_normal((n, 5))
    (p * torch.tensor(ct_p)).sum().add(loss).backward()
    for level, m in modules.items():
        out_p, out_loss = m.f(x, w, b, t)
        check(f"N={n} -O{level} forward",
              np.allclose(out_p, p.detach().numpy(), rtol=1e-12, atol=1e-14) and
              np.isclose(out_loss, loss.item(), rtol=1e-12))
        grads = m.f_vjp(x, w, b, t, ct_p, np.float64(1.0))[2:]
        check(f"N={n} -O{level} VJP vs torch.autograd",
              all(np.allclose(g, r.grad.numpy(), rtol=1e-10, atol=1e-12)
                  for g, r in zip(grads, (xt, wt, bt))))
try:
    modules[2].f(rng.standard_normal((4, 6)), w, b, np.zeros(3, np.int64))
    check("batch mismatch rejected", False)
except tad.TadError as e:
    check("batch mismatch rejected", e.status == 5)
try:
    modules[2].f(rng.standard_normal((2, 6)), w, b, np.array([0, 7]))
    check("class index checked", False)
except tad.TadError as e:
    check("class index checked", e.status == 8)
print(f"{failures} failed")
sys.exit(1 if failures else 0)
