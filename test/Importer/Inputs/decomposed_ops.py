"""Importer decompositions of ops tad has no op for (tad/_decompositions_*.py)
at the edges that the OpInfo samples of test/Conformance do not reach:
ties (sort, topk, median, mode, cummax, scatter_reduce amax), zeros (prod,
cumprod), NaN (sort, median), the tails of erfinv/ndtri and the branches
of erfcx/log_ndtr and the Bessel functions. Each is imported with tad.from_torch, compiled with its
VJP and checked against torch.autograd in float64.
"""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import numpy as np  # noqa: E402
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


def given(name, fn, *values):
    """``fn`` on the given float64 inputs (lists) or random ones (shapes)."""
    def build(dtype):
        torch.manual_seed(0)
        xs = [torch.tensor(v, dtype=dtype) if isinstance(v, list) else torch.randn(*v, dtype=dtype)
              for v in values]
        return Fn(fn), tuple(xs), (), None
    print(f"-- {name}")
    try:
        return check_forward(build, torch.float64)
    except (tad.TadImportError, tad.CompileError) as e:
        print(f"FAIL {name}: {type(e).__name__}: {str(e).splitlines()[0]}")
        return 1


def at_singularity(name, fn, values):
    """``fn``'s value and gradient (cotangent 1) where they are infinite,
    in float64 and float32: the same infinities as torch.autograd in
    float64 on the same values (not NaN), the finite elements within 1e-6
    (float64) or 1e-5 (float32: near a pole PyTorch's own float32 formula
    is further off)."""
    print(f"-- {name}")
    problems = []
    for dtype, rtol in ((torch.float64, 1e-6), (torch.float32, 1e-5)):
        x = torch.tensor(values, dtype=dtype)
        x64 = x.clone().double().requires_grad_()
        want = fn(x64)
        (grad,) = torch.autograd.grad(want, x64, torch.ones_like(want))
        m = tad.compile(tad.from_torch(Fn(fn), [x.clone()]), vjp="forward")
        got = m.forward_vjp(x.numpy(), torch.ones(x.shape, dtype=dtype).numpy())
        for what, g, w in (("value", got[0], want), ("gradient", got[1], grad)):
            w = w.detach().numpy()
            if not np.allclose(g, w, rtol=rtol, atol=0.0, equal_nan=True):
                problems.append(f"{dtype} {what} {g} vs {w}")
    print("FAIL " + "; ".join(problems) if problems else "PASS float64 and float32")
    return len(problems)


TIES = [[3.0, 1.0, 3.0, 2.0, 1.0], [0.5, 0.5, 0.5, -1.0, 2.0]]
ZEROS = [[2.0, 0.0, 3.0, -1.5, 0.5], [0.0, 1.5, 0.0, 2.0, 3.0], [1.0, 2.0, 0.5, -1.0, 4.0]]
IDX = torch.tensor([[0, 1, 0, 2, 1], [2, 2, 0, 0, 1]])


def main():
    failed = 0
    failed += given("sort ties, descending", lambda x: torch.sort(x, 1, descending=True)[0], TIES)
    failed += given("sort with NaN (last)", lambda x: torch.sort(x, 0)[0][:3],
                    [2.0, float("nan"), -1.0, 0.5])
    # ties outside the selection (which of equal values PyTorch's topk and
    # kthvalue kernels pick, and in which order, is theirs: docs/rules.md)
    edge = [[3.0, 1.0, 1.0, 2.0, 0.0, 4.0], [0.5, 0.5, -1.0, 2.0, 0.7, 0.6]]
    failed += given("topk ties", lambda x: torch.topk(x, 3, 1)[0], edge)
    failed += given("kthvalue ties", lambda x: torch.kthvalue(x, 4, 1)[0], edge)
    failed += given("median ties (evenly distributed)", torch.median, TIES)
    failed += given("nanmedian with NaN", torch.nanmedian, [3.0, float("nan"), 1.0, 2.0, 5.0])
    failed += given("median.dim ties", lambda x: torch.median(x, 1)[0], TIES)
    failed += given("mode ties", lambda x: torch.mode(x, 1)[0], TIES)
    failed += given("cummax ties", lambda x: torch.cummax(x, 1)[0], TIES)
    failed += given("cummin ties", lambda x: torch.cummin(x, 1)[0], TIES)
    failed += given("prod with zeros", lambda x: torch.prod(x, 1), ZEROS)
    failed += given("prod all", torch.prod, [[2.0, 0.0, 3.0], [1.5, -1.0, 2.0]])
    failed += given("cumprod with zeros", lambda x: torch.cumprod(x, 1), ZEROS)
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            failed += given(f"scatter_reduce {reduce} include_self={include_self}",
                            lambda x, s, r=reduce, i=include_self: x.scatter_reduce(
                                1, IDX, s, r, include_self=i),
                            [[1.0, 3.0, 0.0, 2.0], [3.0, 3.0, 1.0, 0.0]], TIES)
    for reduce in ("sum", "mean", "min", "prod"):
        failed += given(f"segment_reduce {reduce} initial=0.5",
                        lambda x, r=reduce: torch.segment_reduce(
                            x, r, lengths=torch.tensor([2, 0, 3, 1]), initial=0.5),
                        [1.0, 0.0, -2.0, 0.5, 3.0, 4.0])
    bag_index = torch.tensor([1, 4, 1, 0, 2, 3, 4])
    failed += given("embedding_bag mean padding_idx", lambda w: F.embedding_bag(
        bag_index, w, torch.tensor([0, 2, 2, 5]), mode="mean", padding_idx=4), (5, 3))
    failed += given("embedding_bag max include_last_offset", lambda w: F.embedding_bag(
        bag_index, w, torch.tensor([0, 3, 3, 7]), mode="max", include_last_offset=True), (5, 3))
    failed += given("index_reduce amax", lambda x, s: x.index_reduce(
        0, torch.tensor([1, 0, 1]), s, "amax"), (2, 3), (3, 3))
    failed += given("index_copy", lambda x, s: x.index_copy(1, torch.tensor([2, 0]), s),
                    (3, 4), (3, 2))
    failed += given("put accumulate", lambda x, s: x.put(torch.tensor([0, -1, 0]), s, True),
                    (2, 3), (3,))
    failed += given("diagonal_scatter offset -1", lambda x, s: torch.diagonal_scatter(
        x, s, -1, 1, 2), (2, 4, 3), (2, 3))
    failed += given("max_unpool2d", lambda x: F.max_unpool2d(
        *F.max_pool2d(x, 2, return_indices=True), 2), (1, 2, 4, 6))
    failed += given("max_pool3d ceil_mode", lambda x: F.max_pool3d(
        x, 2, 2, padding=1, ceil_mode=True), (1, 2, 3, 4, 5))
    failed += given("avg_pool3d count_include_pad=False", lambda x: F.avg_pool3d(
        x, 3, 2, padding=1, ceil_mode=True, count_include_pad=False), (1, 2, 4, 5, 6))
    failed += given("adaptive_max_pool2d", lambda x: F.adaptive_max_pool2d(x, (3, 2)),
                    (2, 5, 7))
    failed += given("interpolate linear align_corners", lambda x: F.interpolate(
        x, size=7, mode="linear", align_corners=True), (2, 3, 4))
    failed += given("interpolate trilinear scale", lambda x: F.interpolate(
        x, scale_factor=1.5, mode="trilinear"), (1, 1, 2, 3, 4))
    failed += given("erfinv tails", torch.erfinv, [-0.999999, -0.3, 1e-12, 0.5, 0.9999])
    failed += given("ndtri tails", torch.special.ndtri, [1e-30, 1e-5, 0.3, 0.5, 0.75, 0.999999])
    failed += given("erfcx both branches", torch.special.erfcx, [-5.0, -0.5, 0.0, 7.9, 8.0, 30.0])
    failed += given("log_ndtr both branches", torch.special.log_ndtr,
                    [-40.0, -3.0, -1.0, 0.0, 2.0, 9.0])
    bessel = [-30.0, -8.0, -7.99, -1e-3, 0.0, 0.5, 7.99, 8.0, 8.01, 50.0]
    failed += given("i0 both branches", torch.i0, bessel)
    failed += given("i0e both branches", torch.special.i0e, bessel)
    failed += given("i1 both branches", torch.special.i1, bessel)
    failed += given("i1e both branches", torch.special.i1e, bessel)
    failed += given("frexp mantissa", lambda x: torch.frexp(x)[0],
                    [0.0, 8.0, -0.75, 3.0e-5, 1.0e300])
    failed += given("renorm", lambda x: torch.renorm(x, 1.5, 0, 1.0), (3, 4))
    failed += given("multilabel_margin_loss", lambda x: F.multilabel_margin_loss(
        x, torch.tensor([[2, 0, -1, 1], [3, -1, 0, 0]])), (2, 4))
    # the derivative at a branch point: inf, as PyTorch's (a product rule
    # that multiplies an infinite derivative by 0 would give NaN)
    failed += at_singularity("acosh at 1", torch.acosh, [1.0, 1.0 + 2.0 ** -20, 1.5, 30.0])
    failed += at_singularity("atanh at +-1", torch.atanh, [-1.0, -0.5, 0.0, 0.999, 1.0])
    print(f"{failed} failed")


if __name__ == "__main__":
    main()
