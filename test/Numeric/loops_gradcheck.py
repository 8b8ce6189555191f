"""VJP and JVP through scf.for, scf.while and scf.if, in float64, against
central differences of the compiled forward function: loops of 0, 1 and
many iterations with static and dynamic bounds, scf.while with a
data-dependent count, loop-carried tensors with captured weights, nested
loops, a branch in a loop and a loop in a branch; forward over reverse (the
JVP of the VJP) and reverse over reverse (the VJP of the VJP) for some of
them; a sequence read and written one slice per iteration; a declared @f_vjp called by a training
step. Each case is compiled at -O0 and -O2, and the two must agree.

Usage: loops_gradcheck.py  (prints PASS/FAIL lines, exits non-zero on a
failure)."""
import sys

import numpy as np

from gradcheck import check_jvp, check_vjp
import tad

# h <- tanh(h * w + b), N times: h carried, w and b captured (b broadcast).
CARRIED = """
func.func @f(%x: tensor<2x3xf64>, %w: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  %c0 = arith.constant 0 : index
  %cn = arith.constant {N} : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %cn step %c1 iter_args(%h = %x) -> (tensor<2x3xf64>) {
    %m = tad.mul.Tensor %h, %w : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %a = tad.add.Tensor %m, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
    %t = tad.tanh %a : tensor<2x3xf64>
    scf.yield %t : tensor<2x3xf64>
  }
  return %r : tensor<2x3xf64>
}"""

# Bounds from an argument, lower bound 1 and step 2; two carried values, one
# of which the body reads only through the other; the iteration number (as a
# float) scales the update.
DYNAMIC = """
func.func @f(%x: tensor<3xf64>, %y: tensor<3xf64>, %w: tensor<3xf64>, %n: tensor<i64>) -> (tensor<3xf64>, tensor<3xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ni = tensor.extract %n[] : tensor<i64>
  %ub = arith.index_cast %ni : i64 to index
  %r:2 = scf.for %i = %c1 to %ub step %c2 iter_args(%a = %x, %s = %y) -> (tensor<3xf64>, tensor<3xf64>) {
    %i64 = arith.index_cast %i : index to i64
    %it = tensor.from_elements %i64 : tensor<1xi64>
    %k = tad._to_copy %it {dtype = f64} : (tensor<1xi64>) -> tensor<1xf64>
    %m = tad.mul.Tensor %a, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %sn = tad.sin %m : tensor<3xf64>
    %ks = tad.mul.Tensor %sn, %k : (tensor<3xf64>, tensor<1xf64>) -> tensor<3xf64>
    %a2 = tad.add.Tensor %a, %ks : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s2 = tad.mul.Tensor %s, %a2 : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.yield %a2, %s2 : tensor<3xf64>, tensor<3xf64>
  }
  return %r#0, %r#1 : tensor<3xf64>, tensor<3xf64>
}"""

# An outer loop of 3 around an inner loop of 4, both carrying h; the inner
# body reads the outer carried value g as a capture.
NESTED = """
func.func @f(%x: tensor<4xf64>, %w: tensor<4xf64>) -> tensor<4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%g = %x) -> (tensor<4xf64>) {
    %inner = scf.for %j = %c0 to %c4 step %c1 iter_args(%h = %g) -> (tensor<4xf64>) {
      %m = tad.mul.Tensor %h, %w : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      %s = tad.sin %m : tensor<4xf64>
      %p = tad.mul.Tensor %s, %g : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      scf.yield %p : tensor<4xf64>
    }
    %e = tad.tanh %inner : tensor<4xf64>
    %g2 = tad.add.Tensor %e, %g : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    scf.yield %g2 : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}"""

# A branch on the iteration's parity inside a loop of 5: even steps multiply
# by w, odd steps apply tanh and add b.
BRANCH_IN_LOOP = """
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>, %b: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %rem = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %n = scf.if %even -> (tensor<3xf64>) {
      %m = tad.mul.Tensor %h, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      scf.yield %m : tensor<3xf64>
    } else {
      %t = tad.tanh %h : tensor<3xf64>
      %a = tad.add.Tensor %t, %b : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      scf.yield %a : tensor<3xf64>
    }
    scf.yield %n : tensor<3xf64>
  }
  return %r : tensor<3xf64>
}"""

# A loop in a branch: the condition is a (non-differentiable) flag argument.
LOOP_IN_BRANCH = """
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>, %flag: tensor<i1>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %cond = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %cond -> (tensor<3xf64>) {
    %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
      %m = tad.mul.Tensor %h, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      %s = tad.sin %m : tensor<3xf64>
      scf.yield %s : tensor<3xf64>
    }
    scf.yield %l : tensor<3xf64>
  } else {
    %e = tad.exp %x : tensor<3xf64>
    scf.yield %e : tensor<3xf64>
  }
  return %r : tensor<3xf64>
}"""

# A data-dependent count: h <- h + 0.1 exp(h * w) while sum(h) < 20; the
# before region also scales what it forwards.
WHILE = """
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<3xf64> {
  %r = scf.while (%h = %x) : (tensor<3xf64>) -> tensor<3xf64> {
    %s = tad.sum %h : (tensor<3xf64>) -> tensor<f64>
    %lt = tad.lt.Scalar %s, 20.0 : (tensor<f64>) -> tensor<i1>
    %go = tensor.extract %lt[] : tensor<i1>
    %hw = tad.mul.Tensor %h, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.condition(%go) %hw : tensor<3xf64>
  } do {
  ^bb0(%g: tensor<3xf64>):
    %e = tad.exp %g : tensor<3xf64>
    %d = tad.mul.Scalar %e, 0.1 : tensor<3xf64>
    %n = tad.add.Tensor %g, %d : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.yield %n : tensor<3xf64>
  }
  return %r : tensor<3xf64>
}"""

# A data-dependent branch in a loop (on the sign of sum(h)), a weight
# computed before the loop (w * w, captured), an inactive carried tensor (a
# counter) beside the active one, and lower bound 2, step 3 (iterations 2,
# 5, 8).
DATA_BRANCH = """
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<3xf64> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %w2 = tad.mul.Tensor %w, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %zero = tad.constant dense<0.0> : tensor<3xf64>
  %r:2 = scf.for %i = %c2 to %c10 step %c3 iter_args(%h = %x, %k = %zero) -> (tensor<3xf64>, tensor<3xf64>) {
    %s = tad.sum %h : (tensor<3xf64>) -> tensor<f64>
    %pos = tad.gt.Scalar %s, 0.0 : (tensor<f64>) -> tensor<i1>
    %p = tensor.extract %pos[] : tensor<i1>
    %n = scf.if %p -> (tensor<3xf64>) {
      %m = tad.mul.Tensor %h, %w2 : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      %t = tad.tanh %m : tensor<3xf64>
      scf.yield %t : tensor<3xf64>
    } else {
      %e = tad.exp %h : tensor<3xf64>
      %a = tad.add.Tensor %e, %k : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
      scf.yield %a : tensor<3xf64>
    }
    %k2 = tad.add.Scalar %k, 1.0 : tensor<3xf64>
    scf.yield %n, %k2 : tensor<3xf64>, tensor<3xf64>
  }
  return %r#0 : tensor<3xf64>
}"""

# A sequence read and written one step per iteration: x_t is a slice of the
# input (its gradient lands in that slice), each h_t is written into an
# output stack carried by the loop (tensor.extract_slice/insert_slice).
SEQUENCE = """
func.func @f(%x: tensor<5x2x3xf64>, %w: tensor<3x3xf64>, %h0: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<5x2x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %ys0 = tad.constant dense<0.0> : tensor<5x2x3xf64>
  %r:2 = scf.for %t = %c0 to %c5 step %c1 iter_args(%h = %h0, %ys = %ys0) -> (tensor<2x3xf64>, tensor<5x2x3xf64>) {
    %xt = tensor.extract_slice %x[%t, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<5x2x3xf64> to tensor<2x3xf64>
    %a = tad.mm %h, %w : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<2x3xf64>
    %s = tad.add.Tensor %a, %xt : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %n = tad.tanh %s : tensor<2x3xf64>
    %ys2 = tensor.insert_slice %n into %ys[%t, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<2x3xf64> into tensor<5x2x3xf64>
    scf.yield %n, %ys2 : tensor<2x3xf64>, tensor<5x2x3xf64>
  }
  return %r#0, %r#1 : tensor<2x3xf64>, tensor<5x2x3xf64>
}"""

# A derivative asked for by declaring and calling it (as a training step
# does): one SGD step on w through the loop's declared VJP.
DECLARED = CARRIED.replace("{N}", "5") + """
func.func private @f_vjp(tensor<2x3xf64>, tensor<2x3xf64>, tensor<3xf64>, tensor<2x3xf64>)
    -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<3xf64>)
func.func @step(%x: tensor<2x3xf64>, %w: tensor<2x3xf64>, %b: tensor<3xf64>, %lr: tensor<f64>) -> tensor<2x3xf64> {
  %one = tad.constant dense<1.0> : tensor<2x3xf64>
  %r, %gx, %gw, %gb = func.call @f_vjp(%x, %w, %b, %one)
      : (tensor<2x3xf64>, tensor<2x3xf64>, tensor<3xf64>, tensor<2x3xf64>)
      -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<3xf64>)
  %s = tad.mul.Tensor %gw, %lr : (tensor<2x3xf64>, tensor<f64>) -> tensor<2x3xf64>
  %n = tad.sub.Tensor %w, %s : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %n : tensor<2x3xf64>
}"""


def cases():
    rng = np.random.default_rng(0)
    x23, w23 = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    b3 = rng.standard_normal(3)
    for n in (0, 1, 7):
        yield "carried %d iterations" % n, CARRIED.replace("{N}", str(n)), \
            [x23, w23, b3]
    x, y, w = (rng.standard_normal(3) * 0.5 for _ in range(3))
    # ub = 8: iterations 1, 3, 5, 7; ub = 2: one; ub = 1 and -3: none.
    for ub in (8, 2, 1, -3):
        yield "dynamic bounds ub=%d" % ub, DYNAMIC, \
            [x, y, w, np.array(ub, dtype=np.int64)]
    yield "nested loops", NESTED, [rng.standard_normal(4),
                                   rng.standard_normal(4) * 0.7]
    yield "branch in loop", BRANCH_IN_LOOP, [rng.standard_normal(3),
                                            rng.standard_normal(3),
                                            rng.standard_normal(3)]
    # sum(x) = 24 stops at once; from about 3, several iterations (the point
    # is far from a change of count under the finite differences' steps).
    w = np.array([1.0, 0.9, 1.1])
    for x in (np.array([8.0, 8.0, 8.0]), np.array([1.0, 0.7, 1.3])):
        yield "while sum(x)=%g" % x.sum(), WHILE, [x, w]
    for x in (np.array([0.5, -0.2, 0.4]), np.array([-1.5, 0.2, -0.4])):
        yield "data-dependent branch sum(x)=%g" % x.sum(), DATA_BRANCH, \
            [x, np.array([0.9, -1.1, 0.7])]
    for flag in (True, False):
        yield "loop in branch flag=%s" % flag, LOOP_IN_BRANCH, \
            [rng.standard_normal(3), rng.standard_normal(3),
             np.array(flag)]
    yield "sequence in and out", SEQUENCE, \
        [rng.standard_normal((5, 2, 3)), rng.standard_normal((3, 3)) * 0.6,
         rng.standard_normal((2, 3))]


def main():
    failures = 0

    def report(label, ok, why=""):
        nonlocal failures
        failures += not ok
        print(("PASS %s" % label) if ok else ("FAIL %s: %s" % (label, why)))

    for name, source, args in cases():
        args = [np.array(a, order="C") for a in args]
        diff = [i for i, a in enumerate(args)
                if np.issubdtype(a.dtype, np.floating)]
        outputs = {}
        for opt in (0, 2):
            label = "%s -O%d" % (name, opt)
            try:
                module = tad.compile(source, vjp=["f"], jvp=["f"],
                                     opt_level=opt)
            except tad.CompileError as e:
                report(label, False, "compile error\n%s" % e)
                continue
            for mode, check in (("vjp", check_vjp), ("jvp", check_jvp)):
                ok, why = check(module.f, getattr(module, "f_" + mode), args,
                                diff, np.random.default_rng(1))
                report("%s %s" % (label, mode), ok, why)
            seeds = np.random.default_rng(2)
            results = module.f(*args)
            results = results if isinstance(results, tuple) else (results,)
            cts = [seeds.standard_normal(np.shape(r)) for r in results]
            tangents = [seeds.standard_normal(args[i].shape) for i in diff]
            outputs[opt] = (module.f_vjp(*args, *cts),
                            module.f_jvp(*args, *tangents))
        if len(outputs) == 2:
            same = all(np.allclose(a, b, rtol=1e-12, atol=1e-14)
                       for a, b in zip(outputs[0][0] + outputs[0][1],
                                       outputs[2][0] + outputs[2][1]))
            report("%s -O0 and -O2 agree" % name, same)
    # Forward over reverse (Hessian-vector products): the JVP of f_vjp,
    # whose reverse loops read stacks, against central differences of
    # f_vjp.
    second = ("carried 7 iterations", "dynamic bounds ub=8", "nested loops",
              "data-dependent branch sum(x)=0.7",
              "branch in loop", "while sum(x)=3", "loop in branch flag=True",
              "sequence in and out")
    for name, source, args in cases():
        if name not in second:
            continue
        args = [np.array(a, order="C") for a in args]
        rng = np.random.default_rng(4)
        for opt in (0, 2):
            label = "%s -O%d jvp of vjp" % (name, opt)
            try:
                module = tad.compile(source, vjp=["f"], jvp=["f_vjp"],
                                     opt_level=opt)
            except tad.CompileError as e:
                report(label, False, "compile error\n%s" % e)
                continue
            results = module.f(*args)
            results = results if isinstance(results, tuple) else (results,)
            full = args + [rng.standard_normal(np.shape(r)) for r in results]
            diff = [i for i, a in enumerate(full)
                    if np.issubdtype(a.dtype, np.floating)]
            ok, why = check_jvp(module.f_vjp, module.f_vjp_jvp, full, diff, rng)
            report(label, ok, why)
            # Reverse over reverse: the VJP of f_vjp, through the reverse
            # loop's stacks (tensor.insert_slice/extract_slice).
            label = "%s -O%d vjp of vjp" % (name, opt)
            try:
                module = tad.compile(source, vjp=["f", "f_vjp"], opt_level=opt)
            except tad.CompileError as e:
                report(label, False, "compile error\n%s" % e)
                continue
            ok, why = check_vjp(module.f_vjp, module.f_vjp_vjp, full, diff, rng)
            report(label, ok, why)

    # The declared derivative, called from @step, against --vjp=f's.
    rng = np.random.default_rng(5)
    x, w, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 3)), \
        rng.standard_normal(3)
    for opt in (0, 2):
        try:
            step = tad.compile(DECLARED, opt_level=opt)
            named = tad.compile(CARRIED.replace("{N}", "5"), vjp=["f"],
                                opt_level=opt)
        except tad.CompileError as e:
            report("declared f_vjp -O%d" % opt, False, "compile error\n%s" % e)
            continue
        _, _, gw, _ = named.f_vjp(x, w, b, np.ones((2, 3)))
        got = step.step(x, w, b, np.array(0.1))
        report("declared f_vjp called by a step -O%d" % opt,
               np.allclose(got, w - 0.1 * gw, rtol=1e-12, atol=1e-14))
    print("%d failed" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
