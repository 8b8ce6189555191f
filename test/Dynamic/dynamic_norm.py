"""Batch norm and mean losses over a dynamic batch, f64: counts read at
run time (tad._shape_as_tensor in the rules, tensor.dim in the lowering,
the running variance's Bessel factor n/(n-1) in the importer).

1. An MLP with BatchNorm1d and a CNN with BatchNorm2d, each trained by
   tad.compile_train_step(..., dynamic_batch=True) with a loss written as
   ``((out - y) ** 2).mean()`` (the VJP of mean over the batch): SGD steps
   at the traced batch and others, against PyTorch (loss, every parameter
   and both running statistics after each step), -O0 and -O2.
2. mean, mean over the batch, var and std over a dynamic batch: VJP and
   JVP against central differences at batch 1, 2, 5."""
import sys

import numpy as np
import tad
import torch
import torch.nn as nn

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if not ok and detail else ""))
    failures += not ok


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.bn, self.fc2 = nn.Linear(6, 8), nn.BatchNorm1d(8), nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 5 * 5, 3)

    def forward(self, x):
        return self.fc(torch.tanh(self.bn(self.conv(x))).flatten(1))


def loss_fn(out, y):
    return ((out - y) ** 2).mean()


def close(a, b):
    return np.allclose(np.asarray(a), np.asarray(b), rtol=1e-9, atol=1e-11)


for name, make, shape in (("mlp", Mlp, (6,)), ("cnn", Cnn, (2, 5, 5))):
    for level in (0, 2):
        torch.manual_seed(0)
        model = make().double()
        reference = make().double()
        reference.load_state_dict(model.state_dict())
        x0 = torch.randn(4, *shape, dtype=torch.float64)
        y0 = torch.randn(4, 3, dtype=torch.float64)
        step = tad.compile_train_step(model, (x0,), (y0,), loss_fn=loss_fn,
                                      optimizer=tad.SGD(lr=0.1), dynamic_batch=True,
                                      opt_level=level)
        opt = torch.optim.SGD(reference.parameters(), lr=0.1)
        for n in (4, 2, 9, 3):
            x = torch.randn(n, *shape, dtype=torch.float64)
            y = torch.randn(n, 3, dtype=torch.float64)
            loss = step(x.numpy(), y.numpy())
            opt.zero_grad()
            expected = loss_fn(reference(x), y)
            expected.backward()
            opt.step()
            buffers = [b.detach().numpy() for _, b in reference.named_buffers()
                       if b.dtype == torch.float64]
            ok = (close(loss, expected.item()) and
                  all(close(p, q.detach().numpy())
                      for p, q in zip(step.params, reference.parameters())) and
                  len(step.buffers) == len(buffers) and
                  all(close(b, r) for b, r in zip(step.buffers, buffers)))
            check(f"{name} batch norm step -O{level} batch {n}", ok,
                  f"loss {float(np.asarray(loss))} vs {expected.item()}")

STATS = """
func.func @f(%x: tensor<?x3xf64>) -> (tensor<f64>, tensor<3xf64>, tensor<3xf64>, tensor<?xf64>) {
  %0 = tad.mean %x : (tensor<?x3xf64>) -> tensor<f64>
  %1 = tad.mean.dim %x {dim = array<i64: 0>, keepdim = false} : (tensor<?x3xf64>) -> tensor<3xf64>
  %2 = tad.var.correction %x {dim = array<i64: 0>, keepdim = false} : (tensor<?x3xf64>) -> tensor<3xf64>
  %3 = tad.std.correction %x {dim = array<i64: 1>, keepdim = false} : (tensor<?x3xf64>) -> tensor<?xf64>
  return %0, %1, %2, %3 : tensor<f64>, tensor<3xf64>, tensor<3xf64>, tensor<?xf64>
}
"""
stats = tad.compile(STATS, vjp="f", jvp="f")
rng = np.random.default_rng(1)
for n in (2, 5):
    x = rng.standard_normal((n, 3))
    eps = 1e-6
    t = rng.standard_normal(x.shape)
    fd = [(p - m) / (2 * eps) for p, m in zip(stats.f(x + eps * t), stats.f(x - eps * t))]
    jvp = stats.f_jvp(x, t)
    check(f"stats JVP batch {n}",
          all(np.allclose(j, d, rtol=1e-6, atol=1e-8) for j, d in zip(jvp[4:], fd)))
    cot = [rng.standard_normal(np.shape(o)) for o in stats.f(x)]
    grad = stats.f_vjp(x, *cot)[-1]
    # <grad, t> = <cot, J t> for every t.
    check(f"stats VJP batch {n}",
          np.isclose(np.sum(grad * t), sum(np.sum(c * d) for c, d in zip(cot, fd)),
                     rtol=1e-6))

print(f"{failures} failed")
sys.exit(1 if failures else 0)
