"""The check shared by the convolution tests whose -O2+ lowering differs
from im2col (depthwise_conv.py, implicit_gemm_conv.py): for each case, the
forward and the three gradients of convolution_backward (output masks 111,
100, 011) compiled at -O3, against PyTorch in float64 and against -O1
(im2col), in float64 and float32. Prints a PASS/FAIL line per check and
"N failed"; returns N."""

import numpy as np
import torch
import torch.nn.functional as F

import tad


FORWARD = """
func.func @f(%x: tensor<{xs}>, %w: tensor<{ws}>{bias_arg}) -> tensor<{os}> {{
  %r = tad.convolution %x, %w{bias_use} {attrs} : (tensor<{xs}>, tensor<{ws}>{bias_ty}) -> tensor<{os}>
  return %r : tensor<{os}>
}}
"""
BACKWARD = """
func.func @f(%g: tensor<{os}>, %x: tensor<{xs}>, %w: tensor<{ws}>) -> (tensor<{xs}>, tensor<{ws}>, tensor<{bs}>) {{
  %r:3 = tad.convolution_backward %g, %x, %w {attrs} : (tensor<{os}>, tensor<{xs}>, tensor<{ws}>) -> (tensor<{xs}>, tensor<{ws}>, tensor<{bs}>)
  return %r#0, %r#1, %r#2 : tensor<{xs}>, tensor<{ws}>, tensor<{bs}>
}}
"""


def check(name, ok):
    print(("PASS " if ok else "FAIL ") + name, flush=True)
    return 0 if ok else 1


def ty(shape, dt):
    return "x".join(str(d) for d in shape) + "x" + dt


def arr(v):
    return "array<i64: %s>" % ", ".join(map(str, v))


def attrs(spatial, stride, padding, dilation, groups, mask=None):
    text = ("stride = %s, padding = %s, dilation = %s, transposed = false, "
            "output_padding = %s, groups = %d : i64" % (
                arr(stride), arr(padding), arr(dilation), arr([0] * spatial), groups))
    if mask is not None:
        text += ", output_mask = array<i1: %s>" % ", ".join(
            "true" if m else "false" for m in mask)
    return "{" + text + "}"


def rel_err(actual, expected):
    expected = np.asarray(expected, np.float64)
    return np.abs(np.asarray(actual, np.float64) - expected).max() / max(
        np.abs(expected).max(), 1.0)


CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}

def run(cases, extra_args=()):
    """cases: (input shape, weight shape, groups, stride, padding, dilation,
    bias) tuples; extra_args go to tadc at -O3."""
    rng = np.random.default_rng(0)
    failures = 0
    for dtype, dt, tol in ((np.float64, "f64", 1e-12), (np.float32, "f32", 3e-6)):
        for xs, ws, groups, stride, padding, dilation, has_bias in cases:
            kernel = ws[2:]
            S = len(kernel)
            x = rng.standard_normal(xs).astype(dtype)
            w = rng.standard_normal(ws).astype(dtype)
            b = rng.standard_normal(ws[:1]).astype(dtype)
            tx, tw, tb = (torch.tensor(v, dtype=torch.float64, requires_grad=True)
                          for v in (x, w, b))
            ref = CONV[S](tx, tw, tb if has_bias else None, stride, padding, dilation, groups)
            g = rng.standard_normal(tuple(ref.shape)).astype(dtype)
            ref.backward(torch.tensor(g, dtype=torch.float64))
            types = dict(xs=ty(xs, dt), ws=ty(ws, dt), bs=ty(ws[:1], dt),
                         os=ty(ref.shape, dt))
            name = "%s * %s stride %s pad %s dil %s %s" % (
                "x".join(map(str, xs)), "x".join(map(str, ws)), stride, padding, dilation, dt)
            fwd_src = FORWARD.format(
                attrs=attrs(S, stride, padding, dilation, groups),
                bias_arg=", %%b: tensor<%s>" % types["bs"] if has_bias else "",
                bias_use=" bias %b" if has_bias else "",
                bias_ty=", tensor<%s>" % types["bs"] if has_bias else "", **types)
            args = (x, w, b) if has_bias else (x, w)
            fast = tad.compile(fwd_src, opt_level=3, extra_args=extra_args).f(*args)
            im2col = tad.compile(fwd_src, opt_level=1).f(*args)
            failures += check("forward " + name, fast.shape == tuple(ref.shape) and
                              rel_err(fast, ref.detach().numpy()) < tol and
                              rel_err(fast, im2col) < tol)
            for mask in ((1, 1, 1), (1, 0, 0), (0, 1, 1)):
                src = BACKWARD.format(
                    attrs=attrs(S, stride, padding, dilation, groups, mask), **types)
                got = tad.compile(src, opt_level=3, extra_args=extra_args).f(g, x, w)
                low = tad.compile(src, opt_level=1).f(g, x, w)
                want = (tx.grad, tw.grad, torch.tensor(g, dtype=torch.float64).sum(
                    dim=[d for d in range(S + 2) if d != 1]))
                ok = True
                for m, a, lo, r in zip(mask, got, low, want):
                    r = r.numpy() if m else np.zeros(r.shape)
                    ok = ok and a.shape == r.shape and rel_err(a, r) < tol * 10 and \
                        rel_err(a, lo) < tol * 10
                failures += check("backward mask %s %s" % ("".join(map(str, mask)), name), ok)

    print("%d failed" % failures)
    return failures
