"""Ops that PyTorch 1.13 has no float16 CPU kernel for, imported in float16.

The importer runs every traced op on the example inputs (for shapes, dtypes
and constants); where PyTorch raises "not implemented for 'Half'" it runs
the op in float32 and rounds the result, and a trace that itself needs such
a kernel is retried on fake tensors. Each case is compiled with its VJP at
-O0 and -O3 and checked against PyTorch in float64 on the same values (to
2^-8 of the largest magnitude, a few f16 roundings), or must be refused
with a TadImportError that names the missing kernel.
"""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import tad  # noqa: E402


class Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


def close(what, got, want, failures):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    scale = max(1.0, float(np.abs(want).max()))
    err = float(np.abs(got - want).max())
    if not err <= 2.0 ** -8 * scale:
        failures.append(f"{what}: max error {err:.3g} (scale {scale:.3g})")


def case(name, fn, *xs):
    print(f"-- {name}")
    model = Fn(fn)
    xs = [x.half() for x in xs]
    text = tad.from_torch(model, xs)
    leaves = [x.double().requires_grad_() for x in xs]
    out = fn(*leaves)
    ct = torch.randn(out.shape, generator=torch.Generator().manual_seed(1)).half()
    grads = torch.autograd.grad(out, leaves, ct.double())
    failures = []
    for level in (0, 3):
        m = tad.compile(text, vjp="forward", opt_level=level)
        got = m.forward(*[x.numpy() for x in xs])
        close(f"-O{level} output", got, out.detach().numpy(), failures)
        vjp = m.forward_vjp(*[x.numpy() for x in xs], ct.numpy())
        for i, (g, w) in enumerate(zip(vjp[1:], grads)):
            close(f"-O{level} grad {i}", g, w.numpy(), failures)
    print("FAIL " + "; ".join(failures) if failures else "PASS float16 forward and VJP at -O0, -O3")
    return len(failures)


def refused(name, fn, *xs):
    print(f"-- {name}")
    try:
        tad.from_torch(Fn(fn), list(xs))
        print("FAIL: imported")
        return 1
    except tad.TadImportError as e:
        print("refused: " + str(e).splitlines()[0])
        return 0


try:  # what the cases rely on (PyTorch 1.13); a later PyTorch has it
    torch.zeros(1, dtype=torch.float16).floor()
    print("PyTorch has a float16 floor on the CPU")
except RuntimeError:
    print("PyTorch has no float16 floor on the CPU")

torch.manual_seed(0)
x = torch.randn(6, 7) * 4
y = torch.rand(6, 7) + 0.75
failed = 0
# decompositions into floor, log1p, ...: the traced ops have no f16 kernel
failed += case("div floor", lambda a, b: torch.div(a, b, rounding_mode="floor") * a, x, y)
failed += case("remainder", lambda a, b: torch.remainder(a, b), x, y)
failed += case("frac", lambda a: torch.frac(a) * a, x)
failed += case("xlog1py", lambda a, b: torch.special.xlog1py(a, b), x, y)
# the op itself has no f16 kernel and tracing on fake tensors fails too
failed += refused("embedding_bag", lambda w: torch.nn.functional.embedding_bag(
    torch.tensor([0, 2, 1, 3]), w, torch.tensor([0, 2])),
    torch.randn(4, 3).half().requires_grad_())
# constants and exp(x^2) that overflow float16: computed in float32
failed += case("erfcx", lambda a: torch.special.erfcx(a), torch.rand(6, 7) * 12 - 2)
failed += case("ndtri", lambda a: torch.special.ndtri(a), torch.rand(6, 7) * 0.98 + 0.01)
# PyTorch refuses 16-bit floats in its linalg and FFT functions by design
failed += refused("linalg.inv", lambda a: torch.linalg.inv(a),
                  (torch.eye(3) * 2 + 0.1).half().requires_grad_())
# stft's FFT kernel, reached without linalg's dtype check, fails on its
# complex output (a raw RuntimeError out of tad.from_torch once)
failed += refused("stft", lambda a: torch.view_as_real(torch.stft(a, n_fft=10, return_complex=True)),
                  torch.randn(100).bfloat16())
print("ALL PASSED" if not failed else f"{failed} FAILED")
sys.exit(1 if failed else 0)
