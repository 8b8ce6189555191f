"""Zero-size tensors inside a function are valid (as in PyTorch): a
function that computes one compiles at every -O level, runs, and has the
usual values and derivatives (a sum over nothing is 0, a product with an
empty inner dimension is zeros). They cross the C boundary too, empty in
any dimension: as arguments (never read), as results (never written), and
as their gradients and tangents; the runtime still checks their shapes."""
import sys

import numpy as np
import tad

NARROW = '{dim = 1 : i64, start = 1 : i64, length = 0 : i64}'
CONV = ('{stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, '
        'transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64}')

CASES = {
    # f(x, w) = sum(x) + sum(x[:, 1:1] @ w[1:1, :]) = sum(x)
    "mm with k = 0": (f"""
func.func @f(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<f32> {{
  %a = tad.narrow %x {NARROW} : (tensor<2x3xf32>) -> tensor<2x0xf32>
  %b = tad.narrow %w {{dim = 0 : i64, start = 1 : i64, length = 0 : i64}} : (tensor<3x2xf32>) -> tensor<0x2xf32>
  %h = tad.mm %a, %b : (tensor<2x0xf32>, tensor<0x2xf32>) -> tensor<2x2xf32>
  %s = tad.sum.dim_IntList %h : (tensor<2x2xf32>) -> tensor<f32>
  %t = tad.sum.dim_IntList %x : (tensor<2x3xf32>) -> tensor<f32>
  %r = tad.add.Tensor %s, %t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}}""", [(2, 3), (3, 2)], lambda x, w: x.sum(), lambda x, w: [np.ones_like(x), np.zeros_like(w)]),
    # f(x) = sum(tanh(x[:, 1:1])) * 3 + sum(x * x) = sum(x * x)
    "sum of an empty tanh": (f"""
func.func @f(%x: tensor<4x3xf32>) -> tensor<f32> {{
  %a = tad.narrow %x {NARROW} : (tensor<4x3xf32>) -> tensor<4x0xf32>
  %t = tad.tanh %a : tensor<4x0xf32>
  %s = tad.sum.dim_IntList %t : (tensor<4x0xf32>) -> tensor<f32>
  %s3 = tad.mul.Scalar %s, 3.0 : tensor<f32>
  %q = tad.mul.Tensor %x, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %u = tad.sum.dim_IntList %q : (tensor<4x3xf32>) -> tensor<f32>
  %r = tad.add.Tensor %s3, %u : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}}""", [(4, 3)], lambda x: (x * x).sum(), lambda x: [2 * x]),
    # A convolution with no filters inside; f = sum(x) + sum(conv(x, w[0:0]))
    "convolution with no filters": (f"""
func.func @f(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<f32> {{
  %w0 = tad.narrow %w {{dim = 0 : i64, start = 0 : i64, length = 0 : i64}} : (tensor<3x2x3x3xf32>) -> tensor<0x2x3x3xf32>
  %c = tad.convolution %x, %w0 {CONV} : (tensor<1x2x5x5xf32>, tensor<0x2x3x3xf32>) -> tensor<1x0x5x5xf32>
  %s = tad.sum.dim_IntList %c : (tensor<1x0x5x5xf32>) -> tensor<f32>
  %t = tad.sum.dim_IntList %x : (tensor<1x2x5x5xf32>) -> tensor<f32>
  %r = tad.add.Tensor %s, %t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}}""", [(1, 2, 5, 5), (3, 2, 3, 3)], lambda x, w: x.sum(),
        lambda x, w: [np.ones_like(x), np.zeros_like(w)]),
}

BOUNDARY = """
func.func @f(%x: tensor<2x0xf32>, %w: tensor<0x2xf32>) -> (tensor<2x2xf32>, tensor<2x0xf32>) {
  %h = tad.mm %x, %w : (tensor<2x0xf32>, tensor<0x2xf32>) -> tensor<2x2xf32>
  %t = tad.tanh %x : tensor<2x0xf32>
  return %h, %t : tensor<2x2xf32>, tensor<2x0xf32>
}"""

# Only the result is empty: f(x) = x[:, 1:1] (and the gradient of x is 0).
EMPTY_RESULT = f"""
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x0xf64> {{
  %a = tad.narrow %x {NARROW} : (tensor<3x4xf64>) -> tensor<3x0xf64>
  %e = tad.exp %a : tensor<3x0xf64>
  return %e : tensor<3x0xf64>
}}"""


def check_boundary(rng):
    """Arguments and results empty in a dimension after the first: values
    of the right (empty) shapes, mm over k = 0 gives zeros, and the
    gradients and tangents are empty or zero; a wrong shape is refused."""
    problems = []
    x = np.zeros((2, 0), np.float32)
    w = np.zeros((0, 2), np.float32)
    for opt in (0, 2):
        m = tad.compile(BOUNDARY, vjp=["f"], jvp=["f"], opt_level=opt)
        h, t = m.f(x, w)
        if h.shape != (2, 2) or np.any(h != 0) or t.shape != (2, 0):
            problems.append(f"-O{opt} forward {h!r} {t!r}")
        out = m.f_vjp(x, w, rng.standard_normal((2, 2)).astype(np.float32),
                      np.zeros((2, 0), np.float32))
        if [g.shape for g in out[2:]] != [(2, 0), (0, 2)]:
            problems.append(f"-O{opt} gradients {out[2:]!r}")
        out = m.f_jvp(x, w, x, w)
        if out[2].shape != (2, 2) or np.any(out[2] != 0) or out[3].shape != (2, 0):
            problems.append(f"-O{opt} tangents {out[2:]!r}")
        try:
            m.f(np.zeros((2, 1), np.float32), w)
            problems.append(f"-O{opt} a (2, 1) argument was accepted for (2, 0)")
        except Exception as e:  # the runtime's shape check
            if "shape" not in str(e):
                problems.append(f"-O{opt} wrong error for a (2, 1) argument: {e}")

        m = tad.compile(EMPTY_RESULT, vjp=["f"], jvp=["f"], opt_level=opt)
        x3 = rng.standard_normal((3, 4))
        y = m.f(x3)
        _, g = m.f_vjp(x3, np.zeros((3, 0)))
        _, t = m.f_jvp(x3, np.ones((3, 4)))
        if y.shape != (3, 0) or g.shape != (3, 4) or np.any(g != 0) or t.shape != (3, 0):
            problems.append(f"-O{opt} empty result: {y!r} {g!r} {t!r}")
    return problems


EMPTY_BATCH = """
func.func @f(%x: tensor<0x3xf32>, %w: tensor<3x2xf32>) -> (tensor<0x2xf32>, tensor<f32>) {
  %h = tad.mm %x, %w : (tensor<0x3xf32>, tensor<3x2xf32>) -> tensor<0x2xf32>
  %t = tad.tanh %h : tensor<0x2xf32>
  %s = tad.sum.dim_IntList %t : (tensor<0x2xf32>) -> tensor<f32>
  return %t, %s : tensor<0x2xf32>, tensor<f32>
}"""


def check_empty_batch(rng):
    """An empty batch crosses the boundary: results of the right (empty)
    shapes, a sum of 0, zero gradients and tangents."""
    problems = []
    x = np.zeros((0, 3), np.float32)
    w = rng.standard_normal((3, 2)).astype(np.float32)
    for opt in (0, 2):
        m = tad.compile(EMPTY_BATCH, vjp=["f"], jvp=["f"], opt_level=opt)
        t, s = m.f(x, w)
        if t.shape != (0, 2) or s != 0:
            problems.append(f"-O{opt} forward {t!r} {s!r}")
        out = m.f_vjp(x, w, np.zeros((0, 2), np.float32), np.ones((), np.float32))
        if out[2].shape != (0, 3) or out[3].shape != (3, 2) or np.any(out[3] != 0):
            problems.append(f"-O{opt} gradients {out[2:]!r}")
        out = m.f_jvp(x, w, x, np.ones_like(w))
        if out[2].shape != (0, 2) or out[3] != 0:
            problems.append(f"-O{opt} tangents {out[2:]!r}")
    return problems


def main():
    rng = np.random.default_rng(0)
    failures = 0
    for name, (text, shapes, value, gradients) in CASES.items():
        problems = []
        for opt in (0, 2):
            try:
                m = tad.compile(text, vjp=["f"], jvp=["f"], opt_level=opt)
            except tad.CompileError as e:
                problems.append(f"-O{opt} does not compile: {e}")
                continue
            args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
            if not np.allclose(m.f(*args), value(*args), rtol=1e-5):
                problems.append(f"-O{opt} value {m.f(*args)} != {value(*args)}")
            out = m.f_vjp(*args, np.ones((), np.float32))
            for g, want in zip(out[1:], gradients(*args)):
                if g.shape != want.shape or not np.allclose(g, want, rtol=1e-5):
                    problems.append(f"-O{opt} gradient {g!r} != {want!r}")
            tangents = [rng.standard_normal(s).astype(np.float32) for s in shapes]
            out = m.f_jvp(*args, *tangents)
            want = sum((g * t).sum() for g, t in zip(gradients(*args), tangents))
            if not np.allclose(out[1], want, rtol=1e-4, atol=1e-5):
                problems.append(f"-O{opt} tangent {out[1]} != {want}")
        failures += bool(problems)
        print(f"{'FAIL' if problems else 'PASS'}: {name}" +
              "".join("\n  " + p for p in problems))
    problems = check_empty_batch(rng)
    failures += bool(problems)
    print(f"{'FAIL' if problems else 'PASS'}: empty batch at the boundary" +
          "".join("\n  " + p for p in problems))
    problems = check_boundary(rng)
    failures += bool(problems)
    print(f"{'FAIL' if problems else 'PASS'}: zero-size arguments and results at the boundary" +
          "".join("\n  " + p for p in problems))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
