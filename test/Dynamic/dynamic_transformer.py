"""The ops of a transformer block with a dynamic batch -- layer norm, GELU,
chunk/split and its backward (cat), slices, softmax, bmm -- checked two ways
in f64, at -O0 and -O2:

1. A hand-written program (layer norm, GELU, split, cat, slice, stack):
   forward, VJP and JVP at batch 1, 2, 7 and 32 against the same program
   compiled statically for each batch.
2. The examples/transformer block (pre-LayerNorm, causal attention, GELU
   FFN) as tad.compile_train_step(..., dynamic_batch=True): SGD steps at
   batch 2 (traced), 1, 7, 3 and 2 against PyTorch's (loss and every
   parameter after each step).

Each also at -O2 with tiny blocks for the ops over the dynamic batch
(--dynamic-blocks=2,8,64), so that every kind of block runs: large and
small matmul blocks, the zero-padded rest, the ladders of the other ops
and their dynamic rest."""
import importlib.util
import os
import sys

import numpy as np
import tad
import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location(
    "transformer_model", os.path.join(ROOT, "examples", "transformer", "model.py"))
transformer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(transformer)

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if not ok and detail else ""))
    failures += not ok


def program(batch):
    """`B` is the batch: `?` for the dynamic program."""
    b = batch
    return f"""
func.func @f(%x: tensor<{b}x3x8xf64>, %w: tensor<8xf64>, %bias: tensor<8xf64>)
    -> (tensor<{b}x3x8xf64>, tensor<{b}x3x1xf64>, tensor<{b}x3x4xf64>, tensor<{b}x2x3x4xf64>) {{
  %y, %mean, %rstd = tad.native_layer_norm %x weight %w bias %bias {{normalized_shape = array<i64: 8>, eps = 1.0e-5 : f64}} : (tensor<{b}x3x8xf64>, tensor<8xf64>, tensor<8xf64>) -> (tensor<{b}x3x8xf64>, tensor<{b}x3x1xf64>, tensor<{b}x3x1xf64>)
  %g = tad.gelu %y {{approximate = "none"}} : tensor<{b}x3x8xf64>
  %h = tad.gelu %g {{approximate = "tanh"}} : tensor<{b}x3x8xf64>
  %p:2 = tad.split.Tensor %h {{split_size = 4 : i64, dim = 2 : i64}} : (tensor<{b}x3x8xf64>) -> (tensor<{b}x3x4xf64>, tensor<{b}x3x4xf64>)
  %q = tad.mul.Tensor %p#0, %p#1 : (tensor<{b}x3x4xf64>, tensor<{b}x3x4xf64>) -> tensor<{b}x3x4xf64>
  %c = tad.cat %q, %p#1 {{dim = 2 : i64}} : (tensor<{b}x3x4xf64>, tensor<{b}x3x4xf64>) -> tensor<{b}x3x8xf64>
  %s = tad.slice.Tensor %c {{dim = 2 : i64, start = 2 : i64, end = 6 : i64, step = 1 : i64}} : (tensor<{b}x3x8xf64>) -> tensor<{b}x3x4xf64>
  %st = tad.stack %s, %q {{dim = 1 : i64}} : (tensor<{b}x3x4xf64>, tensor<{b}x3x4xf64>) -> tensor<{b}x2x3x4xf64>
  return %c, %mean, %s, %st : tensor<{b}x3x8xf64>, tensor<{b}x3x1xf64>, tensor<{b}x3x4xf64>, tensor<{b}x2x3x4xf64>
}}
"""


def close(a, b):
    return all(np.allclose(x, y, rtol=1e-12, atol=1e-13) for x, y in zip(a, b))


rng = np.random.default_rng(0)
w, bias = rng.standard_normal(8), rng.standard_normal(8)
# name: (opt_level, extra tadc arguments)
LEVELS = {"-O0": (0, []), "-O2": (2, []),
          "-O2 small blocks": (2, ["--dynamic-blocks=2,8,64"])}
dynamic = {name: tad.compile(program("?"), vjp="f", jvp="f", opt_level=level,
                             extra_args=extra)
           for name, (level, extra) in LEVELS.items()}
for n in (1, 2, 7, 32):
    static = tad.compile(program(n), vjp="f", jvp="f", opt_level=0)
    x = rng.standard_normal((n, 3, 8))
    cts = [rng.standard_normal(s) for s in ((n, 3, 8), (n, 3, 1), (n, 3, 4), (n, 2, 3, 4))]
    tangents = [rng.standard_normal((n, 3, 8)), rng.standard_normal(8), rng.standard_normal(8)]
    want = static.f(x, w, bias)
    want_vjp = static.f_vjp(x, w, bias, *cts)
    want_jvp = static.f_jvp(x, w, bias, *tangents)
    for level, m in dynamic.items():
        check(f"ops batch {n} {level} forward", close(m.f(x, w, bias), want))
        check(f"ops batch {n} {level} VJP", close(m.f_vjp(x, w, bias, *cts), want_vjp))
        check(f"ops batch {n} {level} JVP", close(m.f_jvp(x, w, bias, *tangents), want_jvp))

for name, (level, extra) in LEVELS.items():
    model, (x0,), (y0,), loss_fn = transformer.build(torch.float64, batch=2)
    reference = transformer.build(torch.float64, batch=2)[0]
    reference.load_state_dict(model.state_dict())
    step = tad.compile_train_step(model, (x0,), (y0,), loss_fn=loss_fn,
                                  optimizer=tad.SGD(lr=0.05), dynamic_batch=True,
                                  opt_level=level, extra_args=extra)
    opt = torch.optim.SGD(reference.parameters(), lr=0.05)
    for n in (2, 1, 7, 3, 2):
        x = torch.randn(n, 8, 32, dtype=torch.float64)
        y = torch.randn(n, 8, 32, dtype=torch.float64)
        loss = step(x.numpy(), y.numpy())
        opt.zero_grad()
        expected = loss_fn(reference(x), y)
        expected.backward()
        opt.step()
        params = [p.detach().numpy() for p in reference.parameters()]
        mine = [np.asarray(p) for p in step.params]
        same = len(mine) == len(params) and all(
            np.allclose(a, b, rtol=1e-10, atol=1e-12) for a, b in zip(mine, params))
        check(f"transformer step {name} batch {n}",
              np.isclose(loss, expected.item(), rtol=1e-12) and same,
              f"loss {loss} vs {expected.item()}")

print(f"{failures} failed")
sys.exit(1 if failures else 0)
