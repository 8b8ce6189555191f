"""One module for every batch size: an MLP with a dynamic batch dimension,
its forward pass, VJP and JVP, compiled once and run at several batch sizes
against NumPy (f64) and against the same program compiled for each batch
size statically; -O0 against -O2; wrong sizes give TAD_ERROR_SHAPE with the
dimensions named. Prints one line per check; exits non-zero on a failure."""
import sys

import numpy as np
import tad

DYNAMIC = """
func.func @f(%x: tensor<BATCHx8xf64> {tad.dim_names = ["B", ""]},
             %w1: tensor<16x8xf64>, %b1: tensor<16xf64>,
             %w2: tensor<4x16xf64>, %b2: tensor<4xf64>,
             %y: tensor<BATCHx4xf64> {tad.dim_names = ["B", ""]})
    -> (tensor<BATCHx4xf64>, tensor<f64>) {
  %w1t = tad.t %w1 : (tensor<16x8xf64>) -> tensor<8x16xf64>
  %h = tad.addmm %b1, %x, %w1t : (tensor<16xf64>, tensor<BATCHx8xf64>, tensor<8x16xf64>) -> tensor<BATCHx16xf64>
  %a = tad.tanh %h : tensor<BATCHx16xf64>
  %w2t = tad.t %w2 : (tensor<4x16xf64>) -> tensor<16x4xf64>
  %o = tad.addmm %b2, %a, %w2t : (tensor<4xf64>, tensor<BATCHx16xf64>, tensor<16x4xf64>) -> tensor<BATCHx4xf64>
  %loss = tad.mse_loss %o, %y {reduction = 1 : i64} : (tensor<BATCHx4xf64>, tensor<BATCHx4xf64>) -> tensor<f64>
  return %o, %loss : tensor<BATCHx4xf64>, tensor<f64>
}
"""

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if detail and not ok else ""))
    failures += not ok


def reference(x, w1, b1, w2, b2, y):
    a = np.tanh(x @ w1.T + b1)
    o = a @ w2.T + b2
    loss = np.mean((o - y) ** 2)
    # Gradients of the loss (cotangent 1 for it, 0 for o).
    do = 2 * (o - y) / o.size
    dw2 = do.T @ a
    db2 = do.sum(0)
    da = do @ w2
    dh = da * (1 - a * a)
    dw1 = dh.T @ x
    db1 = dh.sum(0)
    dx = dh @ w1
    return o, loss, (dx, dw1, db1, dw2, db2)


rng = np.random.default_rng(0)
params = [rng.standard_normal((16, 8)), rng.standard_normal(16),
          rng.standard_normal((4, 16)), rng.standard_normal(4)]

modules = {level: tad.compile(DYNAMIC.replace("BATCH", "?"), vjp="f",
                              jvp="f", opt_level=level)
           for level in (0, 2)}
# "2s": -O2 with tiny blocks over the dynamic batch, so that every kind of
# block of tad-block-dynamic-rows runs at these batch sizes.
modules["2s"] = tad.compile(DYNAMIC.replace("BATCH", "?"), vjp="f", jvp="f",
                            opt_level=2, extra_args=["--dynamic-blocks=2,8,16"])
m = modules[2]
print("signature:", m.f.signature)
check("symbols shared by x and y", m.f.signature.args[0].symbols ==
      m.f.signature.args[5].symbols == (0, None))

for batch in (1, 7, 32, 128, 1000):
    x = rng.standard_normal((batch, 8))
    y = rng.standard_normal((batch, 4))
    o_ref, loss_ref, grads_ref = reference(x, *params, y)
    outs = {}
    for level, module in modules.items():
        o, loss = module.f(x, *params, y)
        check(f"B={batch} -O{level} forward shape", o.shape == (batch, 4))
        check(f"B={batch} -O{level} forward vs NumPy",
              np.allclose(o, o_ref, rtol=1e-12, atol=1e-12) and
              np.isclose(loss, loss_ref, rtol=1e-12))
        vjp = module.f_vjp(x, *params, y, np.zeros((batch, 4)), np.float64(1.0))
        grads = vjp[2:7]
        check(f"B={batch} -O{level} VJP vs NumPy",
              all(g.shape == r.shape and np.allclose(g, r, rtol=1e-10, atol=1e-12)
                  for g, r in zip(grads, grads_ref)))
        outs[level] = (o, loss, grads)
        # Forward mode against central differences of the forward pass.
        args = [x, *params, y]
        tangents = [rng.standard_normal(a.shape) for a in args]
        eps = 1e-6

        def shifted(sign):
            return [a + sign * eps * t for a, t in zip(args, tangents)]
        jvp = module.f_jvp(*args, *tangents)
        fd = [(p - m) / (2 * eps) for p, m in
              zip(module.f(*shifted(1)), module.f(*shifted(-1)))]
        check(f"B={batch} -O{level} JVP vs differences",
              all(np.allclose(j, d, rtol=1e-6, atol=1e-7) for j, d in zip(jvp[2:], fd)))
    for level in (2, "2s"):
        check(f"B={batch} -O0 and -O{level} agree",
              np.allclose(outs[0][0], outs[level][0], rtol=1e-13, atol=1e-13) and
              all(np.allclose(a, b, rtol=1e-12, atol=1e-13)
                  for a, b in zip(outs[0][2], outs[level][2])))
    if batch in (7, 32):
        static = tad.compile(DYNAMIC.replace("BATCH", str(batch)), vjp="f")
        o, loss = static.f(x, *params, y)
        vjp = static.f_vjp(x, *params, y, np.zeros((batch, 4)), np.float64(1.0))
        check(f"B={batch} dynamic = static module",
              np.allclose(o, outs[2][0], rtol=1e-13, atol=1e-13) and
              all(np.allclose(a, b, rtol=1e-12, atol=1e-13)
                  for a, b in zip(vjp[2:7], outs[2][2])))

# Forward over reverse: mse_loss's second derivative divides by the
# element count, a number known at run time only (read through
# tad._shape_as_tensor), against central differences of the VJP.
hvp = tad.compile(DYNAMIC.replace("BATCH", "?"), vjp="f", jvp="f_vjp")
for batch in (5, 1):
    args = [rng.standard_normal((batch, 8)), *params,
            rng.standard_normal((batch, 4)), rng.standard_normal((batch, 4)),
            np.float64(0.7)]
    tangents = [rng.standard_normal(np.shape(a)) for a in args]
    eps = 1e-6
    count = len(hvp.f_vjp(*args))
    jvp = hvp.f_vjp_jvp(*args, *tangents)
    plus = hvp.f_vjp(*[a + eps * t for a, t in zip(args, tangents)])
    minus = hvp.f_vjp(*[a - eps * t for a, t in zip(args, tangents)])
    fd = [(p - m) / (2 * eps) for p, m in zip(plus, minus)]
    check(f"B={batch} second order (JVP of the VJP) vs differences",
          len(jvp) == 2 * count and
          all(np.allclose(j, d, rtol=1e-6, atol=1e-7) for j, d in zip(jvp[count:], fd)))

# Sizes that disagree: at the boundary (x and y share B) and inside (none
# here: every symbol is checked at the boundary).
x = rng.standard_normal((5, 8))
try:
    m.f(x, *params, rng.standard_normal((6, 4)))
    check("mismatched batch rejected", False, "no error")
except tad.TadError as e:
    print("error:", e)
    check("mismatched batch rejected", e.status == 5 and
          "argument 5 has size 6 in dimension 0, but argument 0 has size 5" in str(e))
try:
    m.f(rng.standard_normal((5, 9)), *params, rng.standard_normal((5, 4)))
    check("static dimension checked", False, "no error")
except tad.TadError as e:
    check("static dimension checked", e.status == 5 and "expected [?, 8]" in str(e))

# Two sizes that only the program relates (two symbols): checked where the
# program needs them equal, inside the call.
INDEPENDENT = """
func.func @g(%a: tensor<?x3xf64>, %b: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = tad.add.Tensor %a, %b : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}
"""
g = tad.compile(INDEPENDENT)
check("two symbols", g.g.signature.args[1].symbols == (1, None))
a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
check("two symbols equal at run time", np.array_equal(g.g(a, b), a + b))
try:
    g.g(a, rng.standard_normal((5, 3)))
    check("two symbols unequal at run time", False, "no error")
except tad.TadError as e:
    print("error:", e)
    check("two symbols unequal at run time", e.status == 5 and
          "operand 1 has size 5 in dimension 0, expected 4 in tad.add.Tensor at" in str(e))

# A product whose inner size is dynamic in one operand only: a's gradient,
# [?, ?] by inference, takes its operand's type [?, 3], and b's, [3, 4],
# takes [?, 4], through expand_as (checked at run time; a slice of all of
# the static gradient, so the C ABI reads b's size for the result).
INNER = """
func.func @h(%a: tensor<?x3xf64>, %b: tensor<?x4xf64>) -> tensor<?x4xf64> {
  %0 = tad.mm %a, %b : (tensor<?x3xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  return %0 : tensor<?x4xf64>
}
"""
inner = tad.compile(INNER, vjp="h")
a, b = rng.standard_normal((5, 3)), rng.standard_normal((3, 4))
g = rng.standard_normal((5, 4))
grads = inner.h_vjp(a, b, g)
check("inner dynamic size: VJP", np.allclose(grads[1], g @ b.T) and
      np.allclose(grads[2], a.T @ g) and grads[2].shape == (3, 4))
try:
    inner.h_vjp(a, rng.standard_normal((2, 4)), g)
    check("inner dynamic size: mismatch rejected", False, "no error")
except tad.TadError as e:
    check("inner dynamic size: mismatch rejected", e.status == 5)

# A size 1 against the dynamic batch broadcasts: its gradient is a sum.
BROADCAST = """
func.func @k(%a: tensor<1x3xf64>, %b: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = tad.mul.Tensor %a, %b : (tensor<1x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}
"""
broadcast = tad.compile(BROADCAST, vjp="k")
a, b, g = rng.standard_normal((1, 3)), rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
grads = broadcast.k_vjp(a, b, g)
check("size 1 against the batch: VJP", np.allclose(grads[1], (g * b).sum(0, keepdims=True))
      and np.allclose(grads[2], g * a))

# Dropout over a dynamic batch: the mask is a function of the key and the
# row-major element index, so it equals the static module's at each size;
# the gradient reuses it.
DROPOUT = """
func.func @d(%x: tensor<{n}x5xf64>, %key: tensor<i64>) -> tensor<{n}x5xf64> {{
  %y, %m = tad.native_dropout.key %x, %key {{p = 0.4 : f64}} : (tensor<{n}x5xf64>, tensor<i64>) -> (tensor<{n}x5xf64>, tensor<{n}x5xi1>)
  return %y : tensor<{n}x5xf64>
}}
"""
dropout = tad.compile(DROPOUT.format(n="?"), vjp="d")
key = np.array(7, dtype=np.int64)
for n in (1, 3, 6):
    x, g = rng.standard_normal((n, 5)) + 2, rng.standard_normal((n, 5))
    static = tad.compile(DROPOUT.format(n=n), vjp="d")
    y, dx = dropout.d_vjp(x, key, g)
    check(f"dropout B={n} equals the static module's",
          np.array_equal(dropout.d(x, key), static.d(x, key)) and
          np.array_equal(dx, static.d_vjp(x, key, g)[1]) and
          np.array_equal(dx != 0, y != 0) and (y == 0).any() and (y != 0).any())

# Empty batch: zero-size results, a NaN mean (0/0, as PyTorch).
o, loss = m.f(np.zeros((0, 8)), *params, np.zeros((0, 4)))
check("B=0", o.shape == (0, 4) and np.isnan(loss))

print(f"{failures} failed")
sys.exit(1 if failures else 0)
