"""The direct convolution kernels (tad-vectorize-convolutions) against NumPy
in float64 and float32: the forward and the weight gradient of convolutions
with a short reduction (C*KH*KW <= 32), with padding, output widths that the
vectors do not divide, filter counts that need a last shorter block, the
OpenMP-parallel path (large enough to be parallelized) and the
single-thread one. Compiled at -O3 (where tad-to-linalg computes these
convolutions directly) and checked against -O1 (im2col and matmuls) for
the input gradient, which keeps col2im."""

import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import tad

ATTRS = ("{{stride = array<i64: 1, 1>, padding = array<i64: {ph}, {pw}>, "
         "dilation = array<i64: 1, 1>, transposed = false, "
         "output_padding = array<i64: 0, 0>, groups = 1 : i64{extra}}}")
FORWARD = """
func.func @f(%x: tensor<{xs}>, %w: tensor<{ws}>, %b: tensor<{bs}>) -> tensor<{os}> {{
  %r = tad.convolution %x, %w bias %b {attrs} : (tensor<{xs}>, tensor<{ws}>, tensor<{bs}>) -> tensor<{os}>
  return %r : tensor<{os}>
}}
"""
BACKWARD = """
func.func @f(%g: tensor<{os}>, %x: tensor<{xs}>, %w: tensor<{ws}>) -> (tensor<{xs}>, tensor<{ws}>, tensor<{bs}>) {{
  %r:3 = tad.convolution_backward %g, %x, %w {attrs} : (tensor<{os}>, tensor<{xs}>, tensor<{ws}>) -> (tensor<{xs}>, tensor<{ws}>, tensor<{bs}>)
  return %r#0, %r#1, %r#2 : tensor<{xs}>, tensor<{ws}>, tensor<{bs}>
}}
"""

rng = np.random.default_rng(0)
failures = 0


def check(name, ok):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + name, flush=True)


def ty(shape, dt):
    return "x".join(str(d) for d in shape) + "x" + dt


def windows(x, kernel, padding):
    ph, pw = padding
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    return sliding_window_view(xp, kernel, axis=(2, 3))  # [N, C, OH, OW, KH, KW]


def rel_err(actual, expected):
    return np.abs(actual - expected).max() / max(np.abs(expected).max(), 1.0)


CASES = [  # (input shape, weight shape, padding)
    ((2, 1, 6, 21), (13, 1, 3, 4), (1, 0)),   # 3 filter blocks, a short last vector
    ((1, 2, 5, 9), (3, 2, 2, 3), (0, 1)),     # two input channels, OW < one vector
    ((3, 3, 9, 40), (4, 3, 3, 3), (1, 1)),    # OW = 40: full two-vector column blocks
    ((8, 1, 32, 32), (6, 1, 5, 5), (0, 0)),   # LeNet's first layer: parallel
]

for dtype, dt, tol in ((np.float64, "f64", 1e-12), (np.float32, "f32", 2e-5)):
    for xs, ws, padding in CASES:
        x = rng.standard_normal(xs).astype(dtype)
        w = rng.standard_normal(ws).astype(dtype)
        b = rng.standard_normal(ws[:1]).astype(dtype)
        win = windows(x.astype(np.float64), ws[2:], padding)
        ref = np.einsum("ncijhw,fchw->nfij", win, w.astype(np.float64)) + \
            b.astype(np.float64)[None, :, None, None]
        os_ = ref.shape
        g = rng.standard_normal(os_).astype(dtype)
        ref_gw = np.einsum("nfij,ncijhw->fchw", g.astype(np.float64), win)
        types = dict(xs=ty(xs, dt), ws=ty(ws, dt), bs=ty(ws[:1], dt), os=ty(os_, dt))
        name = f"{'x'.join(map(str, xs))} * {'x'.join(map(str, ws))} pad {padding} {dt}"
        for extra in [[], ["--parallel=false"]]:
            label = f"{name} {' '.join(extra)}".strip()
            fwd = tad.compile(FORWARD.format(
                attrs=ATTRS.format(ph=padding[0], pw=padding[1], extra=""), **types),
                opt_level=3, extra_args=extra)
            out = fwd.f(x, w, b)
            check("forward " + label, out.shape == os_ and rel_err(out, ref) < tol)
            attrs = ATTRS.format(ph=padding[0], pw=padding[1],
                                 extra=", output_mask = array<i1: true, true, true>")
            bwd = tad.compile(BACKWARD.format(attrs=attrs, **types), opt_level=3,
                              extra_args=extra)
            gx, gw, gb = bwd.f(g, x, w)
            check("weight gradient " + label,
                  gw.shape == ws and rel_err(gw, ref_gw) < tol * 10)
            check("bias gradient " + label,
                  rel_err(gb, g.astype(np.float64).sum(axis=(0, 2, 3))) < tol * 10)
            im2col = tad.compile(BACKWARD.format(attrs=attrs, **types), opt_level=1)
            check("input gradient " + label, rel_err(gx, im2col.f(g, x, w)[0]) < tol * 10)

print("%d failed" % failures)
sys.exit(1 if failures else 0)
