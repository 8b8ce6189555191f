"""Convolutions and pooling over a dynamic batch (tad-split-dynamic-batch),
f64:

1. A model of conv (padded, strided, grouped), max_pool2d, avg_pool2d and
   adaptive_avg_pool2d imported with a dynamic batch: forward, VJP and
   JVP at batch 1, 3, 8 (one full block of 8) and 11 (a block and three
   single samples) against the model imported and compiled for each batch
   statically, at -O0 and -O2.
2. The examples/cnn LeNet as tad.compile_train_step(..., dynamic_batch=True):
   SGD steps at batch 4 (traced), 1, 9, 3 and 4 against PyTorch's SGD (loss
   and every parameter after each step), -O0 and -O2."""
import importlib.util
import os
import sys

import numpy as np
import tad
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location(
    "cnn_model", os.path.join(ROOT, "examples", "cnn", "model.py"))
cnn = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cnn)

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if not ok and detail else ""))
    failures += not ok


class Pools(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 6, 3, padding=1, stride=2, groups=2)

    def forward(self, x):
        y = torch.tanh(self.conv(x))
        a = F.max_pool2d(y, 2)
        b = F.avg_pool2d(y, 3, stride=1, padding=1)
        c = F.adaptive_avg_pool2d(b, (2, 3))
        return a, c


torch.manual_seed(0)
pools = Pools().double()
params = [p.detach().numpy() for p in pools.parameters()]


def compile_pools(batch, dynamic, level):
    example = (torch.randn(batch, 4, 9, 10, dtype=torch.float64),)
    text = tad.from_torch(pools, example,
                          dynamic_shapes={"x": {0: "batch"}} if dynamic else None)
    return tad.compile(text, vjp="forward", jvp="forward", opt_level=level)


def close(a, b):
    return len(a) == len(b) and all(
        np.shape(x) == np.shape(y) and np.allclose(x, y, rtol=1e-12, atol=1e-13)
        for x, y in zip(a, b))


rng = np.random.default_rng(0)
dynamic = {level: compile_pools(2, True, level) for level in (0, 2)}
for n in (1, 3, 8, 11):
    static = compile_pools(n, False, 0)
    x = rng.standard_normal((n, 4, 9, 10))
    cts = [rng.standard_normal(np.shape(r)) for r in static.forward(x, *params)]
    tangents = [rng.standard_normal(np.shape(a)) for a in (x, *params)]
    want = static.forward(x, *params)
    want_vjp = static.forward_vjp(x, *params, *cts)
    want_jvp = static.forward_jvp(x, *params, *tangents)
    for level, m in dynamic.items():
        check(f"pools batch {n} -O{level} forward", close(m.forward(x, *params), want))
        check(f"pools batch {n} -O{level} VJP",
              close(m.forward_vjp(x, *params, *cts), want_vjp))
        check(f"pools batch {n} -O{level} JVP",
              close(m.forward_jvp(x, *params, *tangents), want_jvp))

for level in (0, 2):
    model, (x0,), (y0,), loss_fn = cnn.build(torch.float64, batch=4)
    reference = cnn.build(torch.float64, batch=4)[0]
    reference.load_state_dict(model.state_dict())
    step = tad.compile_train_step(model, (x0,), (y0,), loss_fn=loss_fn,
                                  optimizer=tad.SGD(lr=0.05), dynamic_batch=True,
                                  opt_level=level)
    opt = torch.optim.SGD(reference.parameters(), lr=0.05)
    for n in (4, 1, 9, 3, 4):
        x = torch.randn(n, 1, 28, 28, dtype=torch.float64)
        y = torch.randint(0, 10, (n,))
        loss = step(x.numpy(), y.numpy())
        opt.zero_grad()
        expected = loss_fn(reference(x), y)
        expected.backward()
        opt.step()
        same = all(np.allclose(p, q.detach().numpy(), rtol=1e-10, atol=1e-12)
                   for p, q in zip(step.params, reference.parameters()))
        check(f"LeNet step -O{level} batch {n}",
              np.isclose(loss, expected.item(), rtol=1e-12) and same,
              f"loss {loss} vs {expected.item()}")

print(f"{failures} failed")
sys.exit(1 if failures else 0)
