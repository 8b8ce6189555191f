"""--gpu-kernels=tiled (passes/GPU/GpuMatmul.cpp) under --gpu-emulate, on shapes
that span several 64x64 tiles and 16-wide k slices with partial ones at
every edge, transposed operands (the VJP's A^T and B^T), and batches: the
forward, VJP and JVP of the tiled kernels against the naive kernels and
the CPU target, in f64.

  tiled_matmul.py            # emulated, prints one line per program
  TAD_GPU_TARGET=cuda tiled_matmul.py   # on a GPU (against the CPU within 1e-9)
  tiled_matmul.py --ptx DIR  # writes the tiled PTX (sm_90, sm_80) to DIR
"""
import os
import subprocess
import sys

import numpy as np

import tad

PROGRAMS = {
    "mm 70x40 @ 40x130": ("""
func.func @f(%a: tensor<70x40xf64>, %b: tensor<40x130xf64>) -> tensor<70x130xf64> {
  %0 = tad.mm %a, %b : (tensor<70x40xf64>, tensor<40x130xf64>) -> tensor<70x130xf64>
  return %0 : tensor<70x130xf64>
}""", [(70, 40), (40, 130)]),
    "addmm 65x17 @ 17x64 + bias": ("""
func.func @f(%c: tensor<64xf64>, %a: tensor<65x17xf64>, %b: tensor<17x64xf64>) -> tensor<65x64xf64> {
  %0 = tad.addmm %c, %a, %b {beta = 0.5 : f64, alpha = 2.0 : f64} : (tensor<64xf64>, tensor<65x17xf64>, tensor<17x64xf64>) -> tensor<65x64xf64>
  return %0 : tensor<65x64xf64>
}""", [(64,), (65, 17), (17, 64)]),
    "bmm 3x33x50 @ 3x50x20": ("""
func.func @f(%a: tensor<3x33x50xf64>, %b: tensor<3x50x20xf64>) -> tensor<3x33x20xf64> {
  %0 = tad.bmm %a, %b : (tensor<3x33x50xf64>, tensor<3x50x20xf64>) -> tensor<3x33x20xf64>
  return %0 : tensor<3x33x20xf64>
}""", [(3, 33, 50), (3, 50, 20)]),
    "mm 1x1 @ 1x1": ("""
func.func @f(%a: tensor<1x1xf64>, %b: tensor<1x1xf64>) -> tensor<1x1xf64> {
  %0 = tad.mm %a, %b : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
  return %0 : tensor<1x1xf64>
}""", [(1, 1), (1, 1)]),
}


def compile_all(text, target, extra):
    return tad.compile(text, vjp="f", jvp="f", target=target, extra_args=extra)


def run(module, args, ct, tangents):
    out = [module.f(*args)]
    out += list(module.f_vjp(*args, ct))
    out += list(module.f_jvp(*args, *tangents))
    return [np.asarray(o) for o in out]


if sys.argv[1:2] == ["--ptx"]:
    outdir = sys.argv[2]
    for i, (name, (text, _)) in enumerate(PROGRAMS.items()):
        path = os.path.join(outdir, "p%d.mlir" % i)
        with open(path, "w") as f:
            f.write(text)
        for arch in ("sm_90", "sm_80"):
            subprocess.run([os.environ.get("TADC", "tadc"), path, "--target=cuda",
                            "--gpu-kernels=tiled", "--vjp=f", "--jvp=f",
                            "--gpu-arch=" + arch, "--emit=ptx", "-o",
                            os.path.join(outdir, "p%d.%s.ptx" % (i, arch))],
                           check=True)
    sys.exit(0)

ON_GPU = os.environ.get("TAD_GPU_TARGET") == "cuda"
FLAGS = [] if ON_GPU else ["--gpu-emulate"]
TOLERANCE = 1e-9 if ON_GPU else 1e-12
failed = False
rng = np.random.default_rng(0)
for name, (text, shapes) in PROGRAMS.items():
    args = [rng.standard_normal(s) for s in shapes]
    tangents = [rng.standard_normal(s) for s in shapes]
    cpu = compile_all(text, "cpu", [])
    naive = compile_all(text, "cuda", FLAGS + ["--gpu-kernels=naive"])
    tiled = compile_all(text, "cuda", FLAGS + ["--gpu-kernels=tiled"])
    ct = rng.standard_normal(np.asarray(cpu.f(*args)).shape)
    r_cpu, r_naive, r_tiled = (run(m, args, ct, tangents) for m in (cpu, naive, tiled))
    exact = all(np.array_equal(a, b) for a, b in zip(r_tiled, r_naive))
    close = all(np.allclose(a, b, rtol=TOLERANCE, atol=TOLERANCE)
                for a, b in zip(r_tiled, r_cpu))
    failed |= not close or (not exact and not ON_GPU)
    print("%-28s tiled == naive: %s, tiled ~ cpu: %s" % (
        name, "exact" if exact else "DIFFERENT", "close" if close else "DIFFERENT"))
sys.exit(1 if failed else 0)
