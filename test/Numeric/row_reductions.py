"""Reductions along short rows (tad-vectorize-row-reductions: rows of one
to 16 vector registers, vectorized along the row) against torch.autograd in
float64 and float32: softmax, log_softmax, layer norm, sum, a sum through a
boolean mask, amax, var, logsumexp and a causally masked softmax, at row lengths on both sides of
the pass's bounds (16 to 257 with AVX-512; 8 with AVX2) and row counts that
run serial and on all cores; forward and VJP, at -O0 and -O3."""
import sys

import numpy as np
import torch
import torch.nn.functional as F

import gradcheck  # noqa: F401  (puts runtime/python on the path)
import tad

failed = 0


class Fn(torch.nn.Module):
    def __init__(self, fn, features=None):
        super().__init__()
        self.fn = fn
        self.norm = torch.nn.LayerNorm(features) if features else None

    def forward(self, x):
        return self.fn(self, x)


def causal_softmax(_, x):
    t = x.shape[-1]
    mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
    return torch.softmax(x.masked_fill(mask, float("-inf")), dim=-1)


MASK = torch.rand(257, generator=torch.Generator().manual_seed(2)) > 0.5


OPS = {
    "masked sum": lambda _, x: torch.where(MASK[:x.shape[-1]], x, 0.0).sum(-1),
    "softmax": lambda _, x: torch.softmax(x * 1.5, dim=-1),
    "log_softmax": lambda _, x: F.log_softmax(x, dim=-1),
    "layer_norm": lambda m, x: m.norm(x),
    "sum": lambda _, x: (x * x).sum(-1),
    "amax": lambda _, x: torch.amax(x * 2.0, -1),
    "var": lambda _, x: torch.var(x, -1),
    "logsumexp": lambda _, x: torch.logsumexp(x, -1),
}
SHAPES = [(3, 16), (2048, 64), (5, 100), (1024, 256), (7, 257), (3, 8), (4, 10)]
TOLERANCE = {torch.float64: 1e-11, torch.float32: 2e-5}


def check(name, model, x, dtype, opt_level):
    global failed
    model = model.to(dtype)
    x = x.to(dtype)
    params = [p.detach().numpy() for p in model.parameters()]
    try:
        m = tad.compile(tad.from_torch(model, [x]), vjp="forward", opt_level=opt_level)
    except (tad.TadImportError, tad.CompileError) as e:
        failed += 1
        print(f"FAIL {name}: {str(e).splitlines()[0]}")
        return
    leaf = x.clone().requires_grad_()
    out = model(leaf)
    ct = torch.randn(out.shape, generator=torch.Generator().manual_seed(1), dtype=dtype)
    grads = torch.autograd.grad(out, [leaf] + list(model.parameters()), ct)
    got = m.forward_vjp(x.numpy(), *params, ct.numpy())
    want = [out.detach()] + list(grads)
    errors = []
    for g, w in zip(got, want):
        w = w.numpy()
        scale = max(float(np.abs(w).max()), 1.0)
        errors.append(float(np.abs(np.asarray(g) - w).max()) / scale)
    ok = len(got) == len(want) and max(errors) <= TOLERANCE[dtype]
    failed += not ok
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else f": errors {errors}"))


torch.manual_seed(0)
for opt_level in (0, 3):
    for dtype in (torch.float64, torch.float32):
        d = str(dtype).replace("torch.", "")
        for op, fn in OPS.items():
            for rows, n in SHAPES:
                x = torch.randn(rows, n, dtype=torch.float64)
                model = Fn(fn, n if op == "layer_norm" else None)
                if model.norm is not None:
                    with torch.no_grad():
                        model.norm.weight.uniform_(0.5, 1.5)
                        model.norm.bias.uniform_(-0.5, 0.5)
                check(f"{op} {rows}x{n} {d} -O{opt_level}", model, x, dtype, opt_level)
        x = torch.randn(4, 2, 64, 64, dtype=torch.float64)
        check(f"causal softmax 4x2x64x64 {d} -O{opt_level}", Fn(causal_softmax), x,
              dtype, opt_level)
print(f"{failed} failed")
sys.exit(1 if failed else 0)
