"""Linear algebra on bfloat16 and float16 inputs, which PyTorch 1.13 has no
CPU kernels for (svd, geqrf, lu) or refuses: tad's decompositions
(runtime/python/tad/_linalg_decompositions.py) compute in float32 and round
their results, and the runtime kernels of inv, slogdet and cholesky extend
16-bit matrices to float32. Computed in the 16-bit dtype, the Jacobi
rotations of svdvals gave NaN and QR, the nuclear norm and cond were off by
several percent (the bfloat16 runs of test/Conformance).

Each case is compiled with its VJP at -O0 and -O3 and checked against
PyTorch in float64 on the same (rounded) values: to 2^-6 (bfloat16) or
2^-9 (float16) of the largest magnitude, a few roundings of the result.
"""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import tad  # noqa: E402

TOLERANCE = {torch.bfloat16: 2.0 ** -6, torch.float16: 2.0 ** -9}


class Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


def to_numpy(t):
    return t.view(torch.int16).numpy().view(np.uint16) if t.dtype == torch.bfloat16 \
        else t.numpy()


def as_float64(a, dtype):
    a = np.asarray(a)
    if dtype == torch.bfloat16:
        return tad.bf16_bits_to_float32(a.view(np.uint16)).astype(np.float64)
    return a.astype(np.float64)


def close(what, got, want, dtype, failures):
    got, want = as_float64(got, dtype), np.asarray(want, dtype=np.float64)
    scale = max(1.0, float(np.abs(want).max()))
    err = float(np.abs(got - want).max()) if got.shape == want.shape else float("inf")
    if not err <= TOLERANCE[dtype] * scale:
        failures.append(f"{what}: max error {err:.3g} (scale {scale:.3g})")


def case(name, fn, dtype, *xs):
    print(f"-- {name} {str(dtype)[6:]}")
    xs = [x.to(dtype) for x in xs]
    text = tad.from_torch(Fn(fn), xs)
    leaves = [x.double().requires_grad_() for x in xs]
    out = fn(*leaves)
    ct = torch.randn(out.shape, generator=torch.Generator().manual_seed(1)).to(dtype)
    grads = torch.autograd.grad(out, leaves, ct.double())
    failures = []
    for level in (0, 3):
        m = tad.compile(text, vjp="forward", opt_level=level)
        args = [to_numpy(x) for x in xs]
        close(f"-O{level} output", m.forward(*args), out.detach().numpy(), dtype, failures)
        vjp = m.forward_vjp(*args, to_numpy(ct))
        for i, (g, w) in enumerate(zip(vjp[1:], grads)):
            close(f"-O{level} grad {i}", g, w.numpy(), dtype, failures)
    print("FAIL " + "; ".join(failures) if failures else "PASS forward and VJP at -O0, -O3")
    return len(failures)


torch.manual_seed(0)
tall = torch.randn(4, 3)
square = torch.randn(3, 3) + 2 * torch.eye(3)
failed = 0
for dtype in (torch.bfloat16, torch.float16):
    failed += case("svdvals", torch.linalg.svdvals, dtype, tall)
    failed += case("qr R", lambda a: torch.linalg.qr(a).R, dtype, tall)
    failed += case("qr Q", lambda a: torch.linalg.qr(a).Q, dtype, tall)
    failed += case("det", torch.linalg.det, dtype, square)
    failed += case("solve", lambda a, b: torch.linalg.solve(a, b), dtype, square, tall[:3])
    failed += case("cholesky", lambda a: torch.linalg.cholesky(a @ a.mT + torch.eye(3, dtype=a.dtype)),
                   dtype, square)
print("ALL PASSED" if not failed else f"{failed} FAILED")
sys.exit(1 if failed else 0)
