"""Numeric derivative checks for tad-compiled functions.

Compiles a tad program with its VJP and JVP, then compares them with central
finite differences of the compiled forward function in float64, the approach
of torch.autograd.gradcheck and jax.test_util.check_grads:

  VJP:  <ct, f(x + h e_i) - f(x - h e_i)> / 2h  == (f_vjp(x, ct))_i
  JVP:  (f(x + h t) - f(x - h t)) / 2h         == f_jvp(x, t)

Every check prints one line, `PASS <label>` or `FAIL <label>: <why>`, and
run_cases() returns the number of failures so a driver can exit non-zero.
With TAD_RESULTS_DIR set (lit sets it), each check is also recorded as a
JSON line (case, mode, derivative order, the tad ops of the case, result) in
a file named after the running script and its arguments; the coverage table
of docs/ops.md is generated from these (scripts/gen-ops-doc.py).
"""

import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "runtime", "python"))
import tad  # noqa: E402

STEP = 1e-6
RTOL = 1e-6
ATOL = 1e-8


def _close(actual, expected, rtol=RTOL, atol=ATOL):
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        return False, "shape %s != %s" % (actual.shape, expected.shape)
    err = np.abs(actual - expected)
    bound = atol + rtol * np.abs(expected)
    if np.all(err <= bound):
        return True, ""
    worst = np.unravel_index(np.argmax(err - bound), err.shape)
    return False, "max error %.3g at %s (got %.10g, expected %.10g)" % (
        err[worst], worst, actual[worst], expected[worst])


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


class Case:
    """One function to check.

    name:    label printed in the results
    mlir:    module text defining @f (float64 tensors)
    args:    list of numpy arrays (the primal point)
    diff:    indices of the differentiable arguments (default: float args)
    """

    def __init__(self, name, mlir, args, diff=None, func="f", first=()):
        self.name = name
        # Functions whose VJP must be generated before `func` exists
        # (second order: func="f_vjp", first=["f"]).
        self.first = list(first)
        self.mlir = mlir
        # np.ascontiguousarray would turn a 0-d array into 1-d.
        self.args = [np.array(a, order="C") for a in args]
        self.func = func
        if diff is None:
            diff = [i for i, a in enumerate(self.args)
                    if np.issubdtype(a.dtype, np.floating)]
        self.diff = diff


def _forward(fn, args):
    return [np.asarray(r, dtype=np.float64) for r in _as_tuple(fn(*args))]


def check_vjp(fn, vjp, args, diff, rng):
    results = _forward(fn, args)
    cts = [rng.standard_normal(r.shape) for r in results]
    out = _as_tuple(vjp(*args, *cts))
    grads = out[len(results):]
    if len(grads) != len(diff):
        return False, "vjp returned %d gradients, expected %d" % (
            len(grads), len(diff))
    for grad, index in zip(grads, diff):
        expected = np.zeros(args[index].shape)
        for pos in np.ndindex(*args[index].shape):
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[index][pos] += STEP
            minus[index][pos] -= STEP
            fp, fm = _forward(fn, plus), _forward(fn, minus)
            expected[pos] = sum(np.sum(ct * (p - m))
                                for ct, p, m in zip(cts, fp, fm)) / (2 * STEP)
        ok, why = _close(grad, expected)
        if not ok:
            return False, "gradient of argument %d: %s" % (index, why)
    return True, ""


def check_jvp(fn, jvp, args, diff, rng):
    results = _forward(fn, args)
    tangents = [rng.standard_normal(args[i].shape) for i in diff]
    out = _as_tuple(jvp(*args, *tangents))
    got = out[len(results):]
    plus = [a.copy() for a in args]
    minus = [a.copy() for a in args]
    for t, i in zip(tangents, diff):
        plus[i] = plus[i] + STEP * t
        minus[i] = minus[i] - STEP * t
    fp, fm = _forward(fn, plus), _forward(fn, minus)
    for k, (g, p, m) in enumerate(zip(got, fp, fm)):
        ok, why = _close(g, (p - m) / (2 * STEP))
        if not ok:
            return False, "tangent of result %d: %s" % (k, why)
    return True, ""


class _Recorder:
    """Appends one JSON line per check to $TAD_RESULTS_DIR/<script>[-args].jsonl
    (truncated when the script starts, so a rerun replaces its results)."""

    def __init__(self):
        self.path = None
        directory = os.environ.get("TAD_RESULTS_DIR")
        if directory:
            script = os.path.splitext(os.path.basename(sys.argv[0]))[0]
            tag = "-".join([script] + [re.sub(r"\W", "_", a) for a in sys.argv[1:]])
            os.makedirs(directory, exist_ok=True)
            self.path = os.path.join(directory, tag + ".jsonl")
            open(self.path, "w").close()

    def record(self, case, mode, ok):
        if not self.path:
            return
        line = {"case": case.name, "mode": mode, "order": 2 if case.first else 1,
                "target": "cpu",
                "ops": sorted(set(re.findall(r"tad\.([A-Za-z0-9_.]+?)\s", case.mlir))),
                "ok": bool(ok)}
        with open(self.path, "a") as f:
            f.write(json.dumps(line) + "\n")


_recorder = None


def _record(case, mode, ok):
    global _recorder
    if _recorder is None:
        _recorder = _Recorder()
    _recorder.record(case, mode, ok)


def run_cases(cases, modes=("vjp", "jvp"), seed=0, out=sys.stdout):
    """Compiles and checks every case; returns the number of failures."""
    failures = 0
    all_modes = modes
    for case in cases:
        rng = np.random.default_rng(seed)
        # A case may restrict its modes (`case.modes`), e.g. while an op its
        # JVP rule needs is missing.
        modes = [m for m in all_modes if m in getattr(case, "modes", all_modes)]
        try:
            vjp = case.first + ([case.func] if "vjp" in modes else [])
            jvp = [case.func] if "jvp" in modes else []
            module = tad.compile(case.mlir, vjp=vjp, jvp=jvp)
        except tad.CompileError as e:
            for mode in modes:
                print("FAIL %s %s: compile error\n%s" % (case.name, mode, e),
                      file=out)
                _record(case, mode, False)
            failures += len(modes)
            continue
        fn = getattr(module, case.func)
        for mode in modes:
            derivative = getattr(module, case.func + "_" + mode)
            check = check_vjp if mode == "vjp" else check_jvp
            ok, why = check(fn, derivative, case.args, case.diff, rng)
            failures += not ok
            _record(case, mode, ok)
            print(("PASS %s %s" % (case.name, mode)) if ok else
                  ("FAIL %s %s: %s" % (case.name, mode, why)), file=out)
    return failures
