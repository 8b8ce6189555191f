"""cat, flip and slices along a dynamic dimension in both modes, f64, at
-O0 and -O2: pieces
whose sizes along the joined dimension are known at run time only (each its
own, empty ones included), mixed with a static piece, and a join along a
static dimension of pieces with a dynamic batch. The VJP splits the
gradient at offsets summed at run time (Binder: cat_tensors_backward); the
JVP joins the tangents. flip of a dynamic dimension reads n - 1 - i at run
time; slices of it (x[1:], x[:-1], x[::2]) clamp their bounds at run time
and their VJP places the gradient at those bounds. Both against central
differences and each other (<ct, J t> = <J^T
ct, t>). Then a PyTorch model that joins its batch with its flipped self,
imported with a dynamic batch: its training step's loss equals PyTorch's at
three batch sizes."""
import sys

import numpy as np
import tad

failures = 0


def check(name, ok):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name)
    failures += not ok


TWO = """
// two pieces of their own dynamic sizes, joined along them
// (summed over the join: the C ABI takes result sizes from argument sizes)
func.func @f(%x: tensor<?x3xf64>, %y: tensor<?x3xf64>) -> tensor<3xf64> {
  %c = tad.cat %x, %y {dim = 0 : i64} : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  %s = tad.sin %c : tensor<?x3xf64>
  %p = tad.mul.Tensor %s, %c : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  %r = tad.sum.dim_IntList %p {dim = array<i64: 0>, keepdim = false} : (tensor<?x3xf64>) -> tensor<3xf64>
  return %r : tensor<3xf64>
}
"""

MIXED = """
// a static piece between two dynamic ones, joined along dimension 1
func.func @f(%x: tensor<2x?xf64>, %w: tensor<2x3xf64>, %y: tensor<2x?xf64>) -> tensor<2xf64> {
  %c = tad.cat %x, %w, %y {dim = 1 : i64} : (tensor<2x?xf64>, tensor<2x3xf64>, tensor<2x?xf64>) -> tensor<2x?xf64>
  %t = tad.tanh %c : tensor<2x?xf64>
  %q = tad.mul.Tensor %t, %t : (tensor<2x?xf64>, tensor<2x?xf64>) -> tensor<2x?xf64>
  %r = tad.sum.dim_IntList %q {dim = array<i64: 1>, keepdim = false} : (tensor<2x?xf64>) -> tensor<2xf64>
  return %r : tensor<2xf64>
}
"""

STATIC_DIM = """
// pieces with a dynamic batch, joined along their static features
func.func @f(%x: tensor<?x2xf64> {tad.dim_names = ["B", ""]}, %y: tensor<?x3xf64> {tad.dim_names = ["B", ""]}) -> tensor<?x5xf64> {
  %c = tad.cat %x, %y {dim = 1 : i64} : (tensor<?x2xf64>, tensor<?x3xf64>) -> tensor<?x5xf64>
  %e = tad.exp %c : tensor<?x5xf64>
  return %e : tensor<?x5xf64>
}
"""

FLIP = """
// flipped along the dynamic batch and a static dimension, then joined
func.func @f(%x: tensor<?x3xf64> {tad.dim_names = ["B", ""]}) -> tensor<?x3xf64> {
  %f = tad.flip %x {dims = array<i64: 0, 1>} : tensor<?x3xf64>
  %g = tad.flip %x {dims = array<i64: 0>} : tensor<?x3xf64>
  %p = tad.mul.Tensor %f, %x : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  %s = tad.sin %g : tensor<?x3xf64>
  %r = tad.add.Tensor %p, %s : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  return %r : tensor<?x3xf64>
}
"""

SLICES = """
// x[1:] - x[:-1] and x[::2] of a dynamic batch, PyTorch's bounds
func.func @f(%x: tensor<?x3xf64>) -> tensor<3xf64> {
  %a = tad.slice.Tensor %x {dim = 0 : i64, start = 1 : i64, end = 9223372036854775807 : i64} : (tensor<?x3xf64>) -> tensor<?x3xf64>
  %b = tad.slice.Tensor %x {dim = 0 : i64, start = 0 : i64, end = -1 : i64} : (tensor<?x3xf64>) -> tensor<?x3xf64>
  %c = tad.slice.Tensor %x {dim = 0 : i64, start = 0 : i64, step = 2 : i64} : (tensor<?x3xf64>) -> tensor<?x3xf64>
  %d = tad.sub.Tensor %a, %b : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  %e = tad.sin %d : tensor<?x3xf64>
  %s = tad.sum.dim_IntList %e {dim = array<i64: 0>, keepdim = false} : (tensor<?x3xf64>) -> tensor<3xf64>
  %t = tad.tanh %c : tensor<?x3xf64>
  %u = tad.sum.dim_IntList %t {dim = array<i64: 0>, keepdim = false} : (tensor<?x3xf64>) -> tensor<3xf64>
  %r = tad.add.Tensor %s, %u : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %r : tensor<3xf64>
}
"""

rng = np.random.default_rng(0)


def gradcheck(name, text, shapes, expected_shape):
    for level in (0, 2):
        m = tad.compile(text, vjp="f", jvp="f", opt_level=level)
        for sizes in shapes:
            args = [rng.standard_normal(s) for s in sizes]
            out = m.f(*args)
            ct = rng.standard_normal(out.shape)
            vjp = m.f_vjp(*args, ct)
            tangents = [rng.standard_normal(a.shape) for a in args]
            jvp = m.f_jvp(*args, *tangents)
            eps = 1e-6
            plus = m.f(*[a + eps * t for a, t in zip(args, tangents)])
            minus = m.f(*[a - eps * t for a, t in zip(args, tangents)])
            fd = (plus - minus) / (2 * eps)
            lhs = (ct * fd).sum()
            rhs = sum((g * t).sum() for g, t in zip(vjp[1:], tangents))
            check(f"{name} -O{level} sizes {sizes}",
                  out.shape == expected_shape(sizes)
                  and all(g.shape == a.shape for g, a in zip(vjp[1:], args))
                  and np.allclose(jvp[1], fd, rtol=1e-6, atol=1e-8)
                  and abs(lhs - rhs) < 1e-6 * max(1.0, abs(lhs)))


gradcheck("two dynamic pieces", TWO,
          [[(1, 3), (1, 3)], [(3, 3), (0, 3)], [(0, 3), (4, 3)], [(5, 3), (2, 3)]],
          lambda s: (3,))
gradcheck("static piece between dynamic ones", MIXED,
          [[(2, 1), (2, 3), (2, 4)], [(2, 0), (2, 3), (2, 2)], [(2, 6), (2, 3), (2, 0)]],
          lambda s: (2,))
gradcheck("dynamic batch, static joined dimension", STATIC_DIM,
          [[(1, 2), (1, 3)], [(7, 2), (7, 3)]],
          lambda s: (s[0][0], 5))

gradcheck("flip of a dynamic dimension", FLIP, [[(1, 3)], [(4, 3)], [(7, 3)]],
          lambda s: s[0])
gradcheck("slices of a dynamic dimension", SLICES, [[(1, 3)], [(2, 3)], [(5, 3)], [(8, 3)]],
          lambda s: (3,))
m = tad.compile(SLICES)
x = rng.standard_normal((6, 3))
check("slice values", np.allclose(m.f(x), np.sin(x[1:] - x[:-1]).sum(0) + np.tanh(x[::2]).sum(0)))
m = tad.compile(FLIP)
x = rng.standard_normal((5, 3))
check("flip values", np.allclose(m.f(x), x[::-1, ::-1] * x + np.sin(x[::-1])))

# Pieces that disagree in another size fail at the boundary of the call.
m = tad.compile(TWO, vjp="f")
try:
    m.f(np.zeros((2, 3)), np.zeros((2, 4)))
    check("mismatched pieces are refused", False)
except (tad.TadError, ValueError) as e:
    check("mismatched pieces are refused (%s)" % str(e).splitlines()[0], True)

# Imported: torch.cat([x, 2 * x.flip(0)]) over a dynamic batch, trained.
try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    torch = None
if torch is not None:
    class JoinFlipped(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            z = torch.cat([x, 2 * x.flip(0)], 0)
            return self.fc(z).tanh().reshape(2, x.shape[0], 3).sum(0)

    torch.manual_seed(0)
    model = JoinFlipped().double()
    example = (torch.randn(5, 4, dtype=torch.float64), torch.randn(5, 3, dtype=torch.float64))
    for b in (1, 2, 7):
        xb, yb = torch.randn(b, 4, dtype=torch.float64), torch.randn(b, 3, dtype=torch.float64)
        step = tad.compile_train_step(model, example[:1], example[1:], F.mse_loss,
                                      tad.SGD(lr=0.1), dynamic_batch=True)
        loss = float(np.asarray(step(xb.numpy(), yb.numpy())).reshape(-1)[0])
        expected = float(F.mse_loss(model(xb), yb))
        check(f"imported cat of the flipped batch, batch {b}",
              abs(loss - expected) < 1e-12 * max(1.0, abs(expected)))

print(f"{failures} failed")
sys.exit(1 if failures else 0)
