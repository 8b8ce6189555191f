"""The numeric matrix on a GPU: every case of test/Numeric/cases_*.py,
compiled with `--target=cuda` and with `--target=cpu`, run at the same
points (arguments, cotangents, tangents), results compared.

  f64 cases as they are:      |gpu - cpu| <= 1e-12 + 1e-9 * |cpu|
  f32 copies of the cases:    |gpu - cpu| <= 1e-5  + 1e-4 * |cpu|

(The CPU results themselves are checked against finite differences by
test/Numeric; the GPU differs from them only by libdevice against libm and
by fused multiply-adds, hence tolerances far above rounding but far below
any wrong derivative.)

Without a usable GPU (no libcuda.so.1, no device) it prints one line
starting with "SKIP:" and exits 0: nothing was checked. Exits 1 on any
mismatch or GPU compile/run failure.

--emulate compiles with `tadc --target=cuda --gpu-emulate` instead: the GPU
pipeline's device buffers, copies, tiling, block/thread mapping and guards,
with the kernels run as loops on the CPU (no PTX, no GPU). It checks the
placement and mapping on any machine, not the NVPTX code or the runtime.

  gpu_numeric.py [FAMILY...] [--dtype=f64,f32] [--gpu-arch=sm_90] [--emulate]
                 [--gpu-kernels=naive|tiled]
"""

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Numeric"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime", "python"))

import tad  # noqa: E402
from op_matrix import FAMILIES  # noqa: E402
from ptx_matrix import XFAIL, to_f32  # noqa: E402

NOT_APPLICABLE = "n/a"

TOLERANCES = {"f64": (1e-9, 1e-12), "f32": (1e-4, 1e-5)}

PROBE = """
func.func @probe(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tad.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


KERNELS = ["naive"]  # --gpu-kernels


def gpu_flags(arch, emulate):
    return (["--gpu-arch=" + arch, "--gpu-kernels=" + KERNELS[0]] +
            (["--gpu-emulate"] if emulate else []))


def gpu_available(arch, emulate):
    """None if a GPU runs the probe correctly, else why not."""
    try:
        m = tad.compile(PROBE, target="cuda", extra_args=gpu_flags(arch, emulate))
    except tad.CompileError as e:
        return "cannot compile for the GPU: %s" % e
    x = np.arange(4, dtype=np.float32)
    try:
        y = m.probe(x)
    except tad.TadError as e:
        return str(e)
    if not np.array_equal(y, -x):
        return "the probe kernel computed %s, expected %s" % (y, -x)
    return None


def outputs(module, case, modes, args, cts, tangents):
    """Results of f, f_vjp, f_jvp at the given point."""
    def run(name, *a):
        r = getattr(module, name)(*a)
        return [np.asarray(v) for v in (r if isinstance(r, tuple) else (r,))]
    out = {"f": run(case.func, *args)}
    if "vjp" in modes:
        out["vjp"] = run(case.func + "_vjp", *args, *cts)
    if "jvp" in modes:
        out["jvp"] = run(case.func + "_jvp", *args, *tangents)
    return out


def check_case(case, dtype, arch, emulate, rng):
    modes = getattr(case, "modes", ("vjp", "jvp"))
    text = case.mlir if dtype == "f64" else to_f32(case.mlir)
    cast = np.float64 if dtype == "f64" else np.float32
    args = [a.astype(cast) if np.issubdtype(a.dtype, np.floating) else a
            for a in case.args]
    vjp = list(case.first) + ([case.func] if "vjp" in modes else [])
    jvp = [case.func] if "jvp" in modes else []
    try:
        cpu = tad.compile(text, vjp=vjp, jvp=jvp, target="cpu")
    except tad.CompileError as e:
        if dtype != "f64":
            # The case's program does not survive the f64 -> f32 rewrite
            # (e.g. a dtype attribute): not applicable.
            return NOT_APPLICABLE
        return "cpu compile: %s" % str(e).splitlines()[-1]
    try:
        gpu = tad.compile(text, vjp=vjp, jvp=jvp, target="cuda",
                          extra_args=gpu_flags(arch, emulate))
    except tad.CompileError as e:
        return "gpu compile: %s" % str(e).splitlines()[-1]
    results = getattr(cpu, case.func)(*args)
    results = results if isinstance(results, tuple) else (results,)
    cts = [rng.standard_normal(np.shape(r)).astype(np.asarray(r).dtype)
           for r in results]
    tangents = [rng.standard_normal(args[i].shape).astype(args[i].dtype)
                for i in case.diff]
    try:
        want = outputs(cpu, case, modes, args, cts, tangents)
        got = outputs(gpu, case, modes, args, cts, tangents)
    except tad.TadError as e:
        return "run: %s" % e
    rtol, atol = TOLERANCES[dtype]
    for key in want:
        for i, (w, g) in enumerate(zip(want[key], got[key])):
            if w.shape != g.shape or w.dtype != g.dtype:
                return "%s result %d: %s %s on the GPU, %s %s on the CPU" % (
                    key, i, g.dtype, g.shape, w.dtype, w.shape)
            if not np.issubdtype(w.dtype, np.floating):
                if not np.array_equal(w, g):
                    return "%s result %d differs" % (key, i)
                continue
            err = np.abs(g.astype(np.float64) - w.astype(np.float64))
            bound = atol + rtol * np.abs(w.astype(np.float64))
            bad = ~(err <= bound) & ~(np.isnan(w) & np.isnan(g))
            if np.any(bad):
                at = np.unravel_index(np.argmax(np.where(bad, err, -1)), err.shape)
                return "%s result %d: max error %.3g at %s (gpu %.10g, cpu %.10g)" % (
                    key, i, err[at], at, g[at], w[at])
    return None


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("families", nargs="*")
    parser.add_argument("--dtype", default="f64,f32")
    parser.add_argument("--gpu-arch", default="sm_90")
    parser.add_argument("--emulate", action="store_true")
    parser.add_argument("--gpu-kernels", default="naive", choices=("naive", "tiled"))
    args = parser.parse_args(argv)
    KERNELS[0] = args.gpu_kernels
    why = gpu_available(args.gpu_arch, args.emulate)
    if why is not None:
        print("SKIP: GPU execution tests not run: %s" % why)
        return 0
    failed = passed = xfailed = skipped = 0
    for dtype in args.dtype.split(","):
        for family in args.families or list(FAMILIES):
            for case in FAMILIES[family]:
                rng = np.random.default_rng(0)
                why = check_case(case, dtype, args.gpu_arch, args.emulate, rng)
                label = "%s [%s] %s" % (case.name, family, dtype)
                if why is NOT_APPLICABLE:
                    skipped += 1
                    print("N/A %s: the %s copy does not compile on the CPU either"
                          % (label, dtype))
                elif why is None:
                    passed += 1
                    print("PASS %s" % label)
                elif case.name in XFAIL:
                    xfailed += 1
                    print("XFAIL %s: %s" % (label, why))
                else:
                    failed += 1
                    print("FAIL %s: %s" % (label, why))
                sys.stdout.flush()
    print("%d passed, %d failed, %d expected failures, %d not applicable "
          "(%s vs CPU, %s, %s kernels)" % (
              passed, failed, xfailed, skipped,
              "emulated GPU" if args.emulate else "GPU", args.dtype,
              args.gpu_kernels))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
