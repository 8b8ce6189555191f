"""A long chain of ops (an unrolled recurrence, over a static and over a
dynamic batch) compiled with tiny --max-function-ops, so that
tad-split-large-functions cuts its host functions into many pieces:
forward, VJP and JVP equal the unsplit build bit for bit and agree with
-O0, as does a split -O1 build."""
import subprocess
import sys

import numpy as np
import tad

STEPS = 24


def program(batch):
    dims = ' {tad.dim_names = ["B", ""]}' if batch == "?" else ""
    t = f"tensor<{batch}x8xf64>"
    lines = [f"func.func @f(%x: {t}{dims}, %w: tensor<8x8xf64>) -> {t} {{"]
    h = "%x"
    for i in range(STEPS):
        lines += [
            f'  %m{i} = "tad.mm"({h}, %w) : ({t}, tensor<8x8xf64>) -> {t}',
            f'  %t{i} = "tad.tanh"(%m{i}) : ({t}) -> {t}',
            f'  %s{i} = "tad.mul.Scalar"({h}) {{other = 0.5 : f64}} : ({t}) -> {t}',
            f'  %h{i} = "tad.add.Tensor"(%t{i}, %s{i}) {{alpha = 1.0 : f64}} : ({t}, {t}) -> {t}',
        ]
        h = f"%h{i}"
    lines += [f"  return {h} : {t}", "}"]
    return "\n".join(lines)


def pieces(text, extra):
    out = subprocess.run([tad.find_tadc(), "-", "-O3", "--vjp=f", "--jvp=f",
                          "--emit=llvm-mlir", "-o", "-", *extra],
                         input=text, capture_output=True, text=True, check=True)
    return out.stdout.count("llvm.func internal @f_vjp_part") + \
        out.stdout.count("llvm.func internal @f_jvp_part") + \
        out.stdout.count("llvm.func internal @f_part")


def run(module, x, w):
    rng = np.random.default_rng(1)
    ct = rng.standard_normal(x.shape)
    tx, tw = rng.standard_normal(x.shape), rng.standard_normal(w.shape)
    outs = [module.f(x, w), *module.f_vjp(x, w, ct), *module.f_jvp(x, w, tx, tw)]
    return [np.asarray(o) for o in outs]


def main():
    failures = 0
    rng = np.random.default_rng(0)
    w = rng.standard_normal((8, 8)) * 0.4
    for batch, rows in (("5", [5]), ("?", [1, 7, 300])):
        text = program(batch)
        split = ["--max-function-ops=30"]
        count, default = pieces(text, split), pieces(text, [])
        if count < 6 or count <= default or (batch != "?" and default):
            print(f"FAIL batch {batch}: {count} pieces with --max-function-ops=30, "
                  f"{default} by default")
            failures += 1
        builds = {
            "split": tad.compile(text, vjp="f", jvp="f", opt_level=3, extra_args=split),
            "whole": tad.compile(text, vjp="f", jvp="f", opt_level=3),
            "O0": tad.compile(text, vjp="f", jvp="f", opt_level=0),
            # -O1 splits too, with every loop nest inline in the pieces.
            "split O1": tad.compile(text, vjp="f", jvp="f", opt_level=1,
                                    extra_args=split),
        }
        for n in rows:
            x = rng.standard_normal((n, 8))
            got = {name: run(m, x, w) for name, m in builds.items()}
            same = all(np.array_equal(a, b) for a, b in zip(got["split"], got["whole"]))
            close = all(np.allclose(a, b, rtol=1e-12, atol=1e-12)
                        for other in ("split", "split O1")
                        for a, b in zip(got[other], got["O0"]))
            ok = same and close and len(got["split"]) == 6
            print(f"{'PASS' if ok else 'FAIL'}: batch {batch} rows {n} "
                  f"(split equals whole: {same}, agrees with -O0: {close})")
            failures += not ok
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
