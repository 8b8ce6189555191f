"""Importer regressions found by the conformance harness (test/Conformance):
each model is imported with tad.from_torch, compiled with its VJP and
checked against torch.autograd in float64 (tad.testing.check_forward), or
must be refused with a TadImportError that names what it cannot import.
"""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tad  # noqa: E402
from tad.testing import check_forward  # noqa: E402


class Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


def case(name, model_fn, *shapes, positive=False):
    def build(dtype):
        torch.manual_seed(0)
        model = model_fn().to(dtype)
        xs = [torch.randn(*s, dtype=dtype) for s in shapes]
        if positive:
            xs = [x.abs() + 0.5 for x in xs]
        return model, tuple(xs), (), None
    print(f"-- {name}")
    try:
        return check_forward(build, torch.float64)
    except (tad.TadImportError, tad.CompileError) as e:
        print(f"FAIL {name}: {type(e).__name__}: {str(e).splitlines()[0]}")
        return 1


class Sequence(torch.nn.Module):
    def __init__(self, cls, **kwargs):
        super().__init__()
        self.rnn = cls(3, 4, **kwargs)

    def forward(self, x):
        out = self.rnn(x)
        flat = [t for t in torch.utils._pytree.tree_flatten(out)[0]]
        return sum(t.sum() for t in flat)


def supported():
    failed = 0
    # torch 1.13 passes var's/std's correction as an int; tad's schema has a Scalar
    failed += case("var correction=0", lambda: Fn(lambda x: torch.var(x, 1, correction=0)), (3, 5))
    failed += case("std correction=2 keepdim", lambda: Fn(
        lambda x: torch.std(x, dim=0, correction=2, keepdim=True)), (4, 3))
    failed += case("var_mean unbiased", lambda: Fn(
        lambda x: torch.stack(torch.var_mean(x, dim=1, unbiased=True))), (3, 4))
    # aten.unsafe_split (LSTM/GRU gates) is split with value semantics
    failed += case("LSTM 2 layers", lambda: Sequence(torch.nn.LSTM, num_layers=2), (5, 2, 3))
    failed += case("GRU bidirectional", lambda: Sequence(torch.nn.GRU, bidirectional=True),
                   (4, 2, 3))
    failed += case("GRUCell", lambda: Sequence(torch.nn.GRUCell), (2, 3))
    # PyTorch's decompositions of ops tad has no op for: rsub.Tensor, xlogy
    failed += case("rsub.Tensor", lambda: Fn(lambda x, y: torch.rsub(x, y, alpha=2.)),
                   (3, 4), (3, 4))
    failed += case("xlogy", lambda: Fn(torch.xlogy), (3, 4), (3, 4), positive=True)
    # empty_like (binary_cross_entropy_with_logits with pos_weight)
    failed += case("binary_cross_entropy_with_logits", lambda: Fn(
        lambda x, y: F.binary_cross_entropy_with_logits(
            x, torch.sigmoid(y), pos_weight=torch.full((4,), 2., dtype=x.dtype))),
        (3, 4), (3, 4))
    # advanced indexing after a full slice (None in index.Tensor's indices)
    failed += case("x[:, i, :, j]", lambda: Fn(
        lambda x: x[:, torch.tensor([[0, 2], [1, -1]]), :, torch.tensor([1, 3])]), (2, 3, 4, 5))
    failed += case("x[..., i]", lambda: Fn(lambda x: x[..., torch.tensor([3, 0, 0])]), (2, 4))
    # a slice with a step: torch traces end = 2^63 - 1, clamped on import
    failed += case("x[1:3, ::2]", lambda: Fn(lambda x: x[1:3, ::2] * 2), (4, 5))
    failed += case("x[-3:, 1::3]", lambda: Fn(lambda x: x[-3:, 1::3].exp()), (4, 7))
    # a bool read from a tensor (an input check) is evaluated on the example
    failed += case("GaussianNLLLoss", lambda: Fn(
        lambda x, y, v: torch.nn.GaussianNLLLoss()(x, y, v)), (4, 3), (4, 3), (4, 3),
        positive=True)
    print(f"{failed} failed")


def norm_at_zero():
    """The subgradient 0 where the norm (or std) is 0, as PyTorch."""
    failed = 0
    for label, fn in [("linalg.vector_norm", lambda x: torch.linalg.vector_norm(x, dim=1)),
                      ("norm p=3", lambda x: torch.norm(x, p=3, dim=1)),
                      ("std", lambda x: torch.std(x, dim=1))]:
        x = torch.tensor([[0., 0., 0.], [1., -2., 2.]], dtype=torch.float64)
        m = tad.compile(tad.from_torch(Fn(fn), (x,)), vjp="forward", jvp="forward")
        leaf = x.clone().requires_grad_(True)
        ref = torch.autograd.grad(fn(leaf).sum(), leaf)[0]
        out = m.forward_vjp(x.numpy(), torch.ones(2, dtype=torch.float64).numpy())
        got = torch.from_numpy(out[1])
        tangent = m.forward_jvp(x.numpy(), torch.ones_like(x).numpy())[1]
        ok = torch.allclose(got, ref, atol=1e-12) and bool(torch.isfinite(
            torch.from_numpy(tangent)).all()) and float(tangent[0]) == 0.0
        print(f"{'PASS' if ok else 'FAIL'} {label} at 0: gradient {got[0].tolist()}, "
              f"tangent {float(tangent[0])}")
        failed += not ok
    print(f"{failed} failed")


def refused():
    def attempt(label, model, *xs):
        try:
            tad.from_torch(model, xs)
            print(f"{label}: imported")
        except tad.TadImportError as e:
            print(f"{label}: TadImportError: {str(e).splitlines()[0]}")
        except Exception as e:  # noqa: BLE001 (a raw exception is the bug)
            print(f"{label}: {type(e).__name__}: {e}")

    x = torch.randn(4, 3, dtype=torch.float64)
    attempt("number read with .item()", Fn(lambda x: x / x.abs().max().item()), x)
    attempt("complex input", Fn(lambda z: torch.view_as_real(z)),
            torch.randn(3, dtype=torch.complex128))
    attempt("complex scalar", Fn(lambda x: torch.view_as_real(x * 1j)), x)


if __name__ == "__main__":
    {"supported": supported, "norm_at_zero": norm_at_zero, "refused": refused}[sys.argv[1]]()
