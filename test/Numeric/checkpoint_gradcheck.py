"""Checkpointed reverse sweeps of loops (tadc --checkpoint, the
`tad.checkpoint` loop attribute): the gradients of every scheme ("sqrt",
segment lengths 2, 3 and 4, three levels of segments "levels:3", binomial
checkpointing with 1, 2, 3 and 6 snapshots "revolve:S") must
equal those of storing every iteration
("store"), and the store gradients match central differences
(loops_gradcheck.py checks that too). Covers static trip counts with and
without a remainder, dynamic bounds (run-time segment lengths for "sqrt" and "levels:3"),
scf.while (its counted replay loop is checkpointed), nested loops (segments
inside segments), branches in loops, per-loop attributes overriding the
global scheme, and forward over reverse (the JVP of the checkpointed VJP).
Each checkpointed case is compiled at -O0 and -O2.

Usage: checkpoint_gradcheck.py [SCHEME ...]  (all schemes by default; prints PASS/FAIL lines, exits non-zero on a
failure)."""
import sys

import numpy as np

from gradcheck import check_jvp, check_vjp
import loops_gradcheck
import tad

# Nested loops long enough that both levels are segmented: an outer loop of
# 6 around an inner loop of 5, the inner body reading the outer carried g.
NESTED_LONG = loops_gradcheck.NESTED.replace(
    "%c3 = arith.constant 3", "%c3 = arith.constant 6").replace(
    "%c4 = arith.constant 4", "%c4 = arith.constant 5")

# The attribute overrides the option: the first loop is stored even under a
# global "sqrt", the second is segmented every 4 iterations and the third
# reversed from 2 snapshots even under "store".
ATTRIBUTES = """
func.func @f(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c13 = arith.constant 13 : index
  %a = scf.for %i = %c0 to %c9 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %m = tad.mul.Tensor %h, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s = tad.sin %m : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  } {tad.checkpoint = "store"}
  %b = scf.for %i = %c0 to %c13 step %c1 iter_args(%h = %a) -> (tensor<3xf64>) {
    %m = tad.mul.Tensor %h, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %t = tad.tanh %m : tensor<3xf64>
    %e = tad.add.Tensor %t, %h : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    scf.yield %e : tensor<3xf64>
  } {tad.checkpoint = 4 : i64}
  %c = scf.for %i = %c0 to %c13 step %c1 iter_args(%h = %b) -> (tensor<3xf64>) {
    %m = tad.mul.Tensor %h, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %s = tad.sin %m : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  } {tad.checkpoint = "revolve:2"}
  return %c : tensor<3xf64>
}"""

# Induction variables of type i64 and i32 with run-time bounds (the "sqrt"
# segment length is computed in i64 and converted back).
INTEGER_IVS = """
func.func @f(%x: tensor<3xf64>, %nt: tensor<i64>, %mt: tensor<i32>) -> tensor<3xf64> {
  %n = tensor.extract %nt[] : tensor<i64>
  %m = tensor.extract %mt[] : tensor<i32>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<3xf64>) : i64 {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  }
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 2 : i32
  %r2 = scf.for %i = %d0 to %m step %d1 iter_args(%h = %r) -> (tensor<3xf64>) : i32 {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  }
  return %r2 : tensor<3xf64>
}
"""

SCHEMES = ("sqrt", "2", "3", "4", "levels:3", "revolve:1", "revolve:2",
           "revolve:3", "revolve:6")
# Schemes whose checkpointed VJP is differentiated again (forward over
# reverse) in the cases that ask for it.
SECOND_ORDER = ("sqrt", "levels:3", "revolve:3")


def cases():
    """(name, source, arguments, whether to check the JVP of the VJP)."""
    rng = np.random.default_rng(0)
    x23, w23 = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    b3 = rng.standard_normal(3)
    for n in (1, 7, 16, 37):
        yield ("carried %d iterations" % n,
               loops_gradcheck.CARRIED.replace("{N}", str(n)),
               [x23, w23, b3], n == 37)
    x, y, w = (rng.standard_normal(3) * 0.5 for _ in range(3))
    for ub in (14, 9, 2, -3):
        yield ("dynamic bounds ub=%d" % ub, loops_gradcheck.DYNAMIC,
               [x, y, w, np.array(ub, dtype=np.int64)], ub == 14)
    yield ("nested loops 6x5", NESTED_LONG,
           [rng.standard_normal(4), rng.standard_normal(4) * 0.5], True)
    yield ("branch in loop", loops_gradcheck.BRANCH_IN_LOOP,
           [rng.standard_normal(3), rng.standard_normal(3),
            rng.standard_normal(3)], True)
    yield ("data-dependent branch", loops_gradcheck.DATA_BRANCH,
           [np.array([0.5, -0.2, 0.4]), np.array([0.9, -1.1, 0.7])], False)
    for flag in (True, False):
        yield ("loop of 9 in a branch flag=%s" % flag,
               loops_gradcheck.LOOP_IN_BRANCH.replace(
                   "%c3 = arith.constant 3", "%c3 = arith.constant 9"),
               [rng.standard_normal(3), rng.standard_normal(3), np.array(flag)],
               flag)
    yield ("while", loops_gradcheck.WHILE,
           [np.array([1.0, 0.7, 1.3]), np.array([1.0, 0.9, 1.1])], True)
    yield ("i64 and i32 induction variables", INTEGER_IVS,
           [rng.standard_normal(3), np.array(17, dtype=np.int64),
            np.array(30, dtype=np.int32)], True)
    yield ("attributes", ATTRIBUTES,
           [rng.standard_normal(3), rng.standard_normal(3) * 0.8], False)


def main():
    failures = 0

    def report(label, ok, why=""):
        nonlocal failures
        failures += not ok
        print(("PASS %s" % label) if ok else ("FAIL %s: %s" % (label, why)))

    schemes = sys.argv[1:] or SCHEMES
    for name, source, args, second in cases():
        args = [np.array(a, order="C") for a in args]
        diff = [i for i, a in enumerate(args)
                if np.issubdtype(a.dtype, np.floating)]
        seeds = np.random.default_rng(2)
        reference = tad.compile(source, vjp=["f"], checkpoint="store")
        results = reference.f(*args)
        results = results if isinstance(results, tuple) else (results,)
        cts = [seeds.standard_normal(np.shape(r)) for r in results]
        expected = reference.f_vjp(*args, *cts)
        ok, why = check_vjp(reference.f, reference.f_vjp, args, diff,
                            np.random.default_rng(1))
        report("%s store vjp" % name, ok, why)
        for scheme in schemes:
            for opt in (0, 2):
                label = "%s checkpoint=%s -O%d" % (name, scheme, opt)
                try:
                    module = tad.compile(
                        source, vjp=["f"],
                        jvp=["f_vjp"] if second and scheme in SECOND_ORDER else [],
                        opt_level=opt, checkpoint=scheme)
                except tad.CompileError as e:
                    report(label, False, "compile error\n%s" % e)
                    continue
                got = module.f_vjp(*args, *cts)
                same = all(np.allclose(a, b, rtol=1e-12, atol=1e-14)
                           for a, b in zip(got, expected))
                report("%s equals store" % label, same,
                       "max difference %g" % max(
                           float(np.max(np.abs(np.asarray(a) - b), initial=0))
                           for a, b in zip(got, expected)))
                if second and scheme in SECOND_ORDER:
                    full = args + cts
                    fdiff = [i for i, a in enumerate(full)
                             if np.issubdtype(a.dtype, np.floating)]
                    ok, why = check_jvp(module.f_vjp, module.f_vjp_jvp, full,
                                        fdiff, np.random.default_rng(4))
                    report("%s jvp of vjp" % label, ok, why)
    print("%d failed" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
