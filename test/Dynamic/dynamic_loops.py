"""Loops over a dynamic batch in both modes, f64, at -O0 and -O2 and batch
1, 3, 7: per-step inputs read with slices of the batch (two arguments of
one named size), and a branch in a checkpointed loop (both ways). The JVP
against central differences, the VJP against the JVP (<ct, J t> = <J^T ct,
t>). Second order (the JVP of the VJP) of a loop with a captured weight
against differences of the VJP at batch 1, 4 and 0."""
import sys

import numpy as np
import tad

failures = 0


def check(name, ok):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name)
    failures += not ok


SLICES = """
// per-step inputs read with a slice of the dynamic batch
func.func @f(%xs: tensor<4x?x2xf64> {tad.dim_names = ["", "B", ""]}, %h0: tensor<?x2xf64> {tad.dim_names = ["B", ""]}) -> tensor<?x2xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = tensor.dim %xs, %c1 : tensor<4x?x2xf64>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %h0) -> (tensor<?x2xf64>) {
    %x = tensor.extract_slice %xs[%i, 0, 0] [1, %b, 2] [1, 1, 1] : tensor<4x?x2xf64> to tensor<?x2xf64>
    %p = tad.mul.Tensor %x, %h : (tensor<?x2xf64>, tensor<?x2xf64>) -> tensor<?x2xf64>
    %e = tad.sin %p : tensor<?x2xf64>
    scf.yield %e : tensor<?x2xf64>
  }
  return %r : tensor<?x2xf64>
}
"""

BRANCH = """
// a branch in a loop over a dynamic batch, checkpointed
func.func @f(%x: tensor<?x4xf64>, %c: tensor<i1>) -> tensor<?x4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %cond = tensor.extract %c[] : tensor<i1>
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%h = %x) -> (tensor<?x4xf64>) {
    %n = scf.if %cond -> (tensor<?x4xf64>) {
      %t = tad.tanh %h : tensor<?x4xf64>
      scf.yield %t : tensor<?x4xf64>
    } else {
      %s = tad.sigmoid %h : tensor<?x4xf64>
      scf.yield %s : tensor<?x4xf64>
    }
    %q = tad.mul.Tensor %n, %h : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
    scf.yield %q : tensor<?x4xf64>
  } {tad.checkpoint = 2 : i64}
  return %r : tensor<?x4xf64>
}
"""

rng = np.random.default_rng(0)


def gradcheck(name, text, make_args, diff):
    for level in (0, 2):
        m = tad.compile(text, vjp="f", jvp="f", opt_level=level)
        for n in (1, 3, 7):
            args = make_args(n)
            out = m.f(*args)
            ct = rng.standard_normal(out.shape)
            vjp = m.f_vjp(*args, ct)
            tangents = [rng.standard_normal(args[i].shape) for i in diff]
            jvp = m.f_jvp(*args, *tangents)
            eps = 1e-6

            def shifted(sign):
                moved = list(args)
                for i, t in zip(diff, tangents):
                    moved[i] = moved[i] + sign * eps * t
                return m.f(*moved)
            fd = (shifted(1) - shifted(-1)) / (2 * eps)
            lhs = (ct * fd).sum()
            rhs = sum((vjp[1 + k] * t).sum() for k, t in enumerate(tangents))
            check(f"{name} -O{level} batch {n}",
                  out.shape[0] == n and np.allclose(jvp[1], fd, rtol=1e-6, atol=1e-8)
                  and abs(lhs - rhs) < 1e-6 * max(1.0, abs(lhs)))


gradcheck("slices of the batch", SLICES,
          lambda n: [rng.standard_normal((4, n, 2)), rng.standard_normal((n, 2))], [0, 1])
for cond in (True, False):
    gradcheck(f"branch ({cond}) in a checkpointed loop", BRANCH,
              lambda n: [rng.standard_normal((n, 4)), np.array(cond)], [0])

# Second order: forward over reverse (the JVP of the VJP) of a loop over a
# dynamic batch against differences of the VJP, batch 0 included.
CARRIED = """
// carried state over a dynamic batch, captured weight
func.func @f(%x: tensor<?x3xf64>, %w: tensor<3x3xf64>) -> tensor<?x3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%h = %x) -> (tensor<?x3xf64>) {
    %m = tad.mm %h, %w : (tensor<?x3xf64>, tensor<3x3xf64>) -> tensor<?x3xf64>
    %t = tad.tanh %m : tensor<?x3xf64>
    %s = tad.add.Tensor %t, %h : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
    scf.yield %s : tensor<?x3xf64>
  }
  return %r : tensor<?x3xf64>
}
"""
hvp = tad.compile(CARRIED, vjp="f", jvp="f_vjp")
for n in (1, 4, 0):
    args = [rng.standard_normal((n, 3)), 0.5 * rng.standard_normal((3, 3)),
            rng.standard_normal((n, 3))]
    tangents = [rng.standard_normal(a.shape) for a in args]
    eps = 1e-6
    plus = hvp.f_vjp(*[a + eps * t for a, t in zip(args, tangents)])
    minus = hvp.f_vjp(*[a - eps * t for a, t in zip(args, tangents)])
    jvp = hvp.f_vjp_jvp(*args, *tangents)[len(plus):]
    check(f"second order through the loop batch {n}",
          all(np.allclose(j, (p - m) / (2 * eps), rtol=1e-5, atol=1e-7)
              for j, p, m in zip(jvp, plus, minus)))

print(f"{failures} failed")
sys.exit(1 if failures else 0)
