"""--gpu-kernels=tiled reductions (passes/GPU/GpuMatmul.cpp: a block of 256
threads per output element, strided partials, gpu.all_reduce) under
--gpu-emulate: sum, mean, max, softmax, log-softmax and layer norm over
rows long enough to be parallelized (>= 64), forward, VJP and JVP, against
the CPU target (f64; the order of the additions differs, so within 1e-10).

  tiled_reduction.py            # emulated, one line per program
  TAD_GPU_TARGET=cuda tiled_reduction.py   # on a GPU
  tiled_reduction.py --ptx DIR  # writes the tiled PTX (sm_90, sm_80) to DIR
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Numeric"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "runtime", "python"))

import tad  # noqa: E402
from cases_nn import layer_norm, softmax  # noqa: E402
from matrix_common import shaped  # noqa: E402

PROGRAMS = {
    "sum 70x300 -> scalar": (shaped("sum", [70, 300], []), [(70, 300)]),
    "sum dim=1 5x200x3": (shaped("sum.dim_IntList", [5, 200, 3], [5, 3],
                                 "{dim = array<i64: 1>}"), [(5, 200, 3)]),
    "mean dim=-1 9x130": (shaped("mean.dim", [9, 130], [9], "{dim = array<i64: -1>}"),
                          [(9, 130)]),
    "amax dim=1 4x100": (shaped("amax", [4, 100], [4], "{dim = array<i64: 1>}"),
                         [(4, 100)]),
    "softmax 6x257": (softmax("_softmax", [6, 257], 1), [(6, 257)]),
    "log_softmax dim=0 300x3": (softmax("_log_softmax", [300, 3], 0), [(300, 3)]),
    "layer_norm 7x2x96": (layer_norm([7, 2, 96], [2, 96]), [(7, 2, 96), (2, 96), (2, 96)]),
}

if sys.argv[1:2] == ["--ptx"]:
    outdir = sys.argv[2]
    for i, (name, (text, _)) in enumerate(PROGRAMS.items()):
        path = os.path.join(outdir, "r%d.mlir" % i)
        with open(path, "w") as f:
            f.write(text)
        for arch in ("sm_90", "sm_80"):
            subprocess.run([os.environ.get("TADC", "tadc"), path, "--target=cuda",
                            "--gpu-kernels=tiled", "--vjp=f", "--jvp=f",
                            "--gpu-arch=" + arch, "--emit=ptx", "-o",
                            os.path.join(outdir, "r%d.%s.ptx" % (i, arch))],
                           check=True)
    sys.exit(0)


def run(module, args, cts, tangents):
    def listed(r):
        return [np.asarray(v) for v in (r if isinstance(r, tuple) else (r,))]
    return (listed(module.f(*args)) + listed(module.f_vjp(*args, *cts)) +
            listed(module.f_jvp(*args, *tangents)))


FLAGS = [] if os.environ.get("TAD_GPU_TARGET") == "cuda" else ["--gpu-emulate"]
failed = False
rng = np.random.default_rng(0)
for name, (text, shapes) in PROGRAMS.items():
    args = [rng.standard_normal(s) for s in shapes]
    tangents = [rng.standard_normal(s) for s in shapes]
    cpu = tad.compile(text, vjp="f", jvp="f")
    tiled = tad.compile(text, vjp="f", jvp="f", target="cuda",
                        extra_args=FLAGS + ["--gpu-kernels=tiled"])
    outs = cpu.f(*args)
    cts = [rng.standard_normal(np.shape(o))
           for o in (outs if isinstance(outs, tuple) else (outs,))]
    r_cpu, r_tiled = run(cpu, args, cts, tangents), run(tiled, args, cts, tangents)
    worst = max(float(np.max(np.abs(a - b) / (1e-12 + np.abs(b)), initial=0))
                for a, b in zip(r_tiled, r_cpu))
    close = all(np.allclose(a, b, rtol=1e-10, atol=1e-12) for a, b in zip(r_tiled, r_cpu))
    failed |= not close
    print("%-26s tiled ~ cpu: %s" % (name, "close" if close else "DIFFERENT (%g)" % worst))
sys.exit(1 if failed else 0)
