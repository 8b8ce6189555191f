"""The PTX matrix: every case of the numeric test matrix
(test/Numeric/cases_*.py), compiled for NVIDIA GPUs.

For each case, `tadc --target=cuda --emit=ptx` compiles @f with its VJP and
JVP (the modes the case checks numerically) for each --arch; with --ptxas,
the PTX is also assembled by `ptxas --gpu-name ARCH`. One line per case and
architecture: PASS, FAIL (with the first error line), XFAIL (a known gap,
listed in XFAIL below with its reason) or XPASS; a summary line at the end.
Exits 1 on FAIL or XPASS.

  ptx_matrix.py [FAMILY...] [--arch=sm_90,sm_80] [--ptxas=PATH] [--f32]
                [--gpu-kernels=naive|tiled]
  ptx_matrix.py --list     # the families
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Numeric"))

from op_matrix import FAMILIES  # noqa: E402

# Cases whose GPU compilation is known not to work yet: name -> reason.
# The linear-algebra primitives call CPU runtime kernels: the GPU target
# rejects them (TadToLinalgLinearAlgebra.cpp).
GPU_LINALG = "linear algebra is not supported on the GPU target"

XFAIL = {
    "linalg_inv_ex": GPU_LINALG,
    "linalg_inv_ex batched": GPU_LINALG,
    "linalg_inv_ex 1x1": GPU_LINALG,
    "_linalg_slogdet": GPU_LINALG,
    "_linalg_slogdet negative det": GPU_LINALG,
    "_linalg_slogdet batched": GPU_LINALG,
    "linalg_cholesky_ex": GPU_LINALG,
    "linalg_cholesky_ex upper": GPU_LINALG,
    "linalg_cholesky_ex batched": GPU_LINALG,
}


def to_f32(text):
    """The case's program with f64 tensors replaced by f32 tensors."""
    return text.replace("xf64>", "xf32>").replace("tensor<f64>", "tensor<f32>")


def first_error(output):
    lines = [l for l in output.splitlines() if "error" in l]
    return (lines or output.splitlines() or ["(no output)"])[0].strip()


def check_case(case, tadc, archs, ptxas, f32, workdir, kernels="naive"):
    """Returns None on success, else the reason of the first failure."""
    modes = getattr(case, "modes", ("vjp", "jvp"))
    flags = []
    vjp = list(case.first) + ([case.func] if "vjp" in modes else [])
    if vjp:
        flags.append("--vjp=" + ",".join(vjp))
    if "jvp" in modes:
        flags.append("--jvp=" + case.func)
    source = os.path.join(workdir, "case.mlir")
    with open(source, "w") as f:
        f.write(to_f32(case.mlir) if f32 else case.mlir)
    for arch in archs:
        ptx = os.path.join(workdir, "case.%s.ptx" % arch)
        run = subprocess.run([tadc, source, "--target=cuda", "--gpu-arch=" + arch,
                              "--gpu-kernels=" + kernels,
                              "--emit=ptx", "-o", ptx] + flags,
                             capture_output=True, text=True)
        if run.returncode != 0:
            return "%s: tadc: %s" % (arch, first_error(run.stderr))
        text = open(ptx).read()
        if text and ".target %s" % arch not in text:
            return "%s: the PTX does not target %s" % (arch, arch)
        if ptxas and text:
            run = subprocess.run([ptxas, "--gpu-name", arch, ptx, "-o",
                                  os.path.join(workdir, "case.cubin")],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                return "%s: ptxas: %s" % (arch, first_error(run.stderr + run.stdout))
    return None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("families", nargs="*")
    parser.add_argument("--arch", default="sm_90,sm_80")
    parser.add_argument("--ptxas", default="")
    parser.add_argument("--tadc", default=os.environ.get("TADC", "tadc"))
    parser.add_argument("--f32", action="store_true",
                        help="compile the cases with f32 instead of f64 tensors")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--gpu-kernels", default="naive", choices=("naive", "tiled"))
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(FAMILIES))
        return 0
    archs = args.arch.split(",")
    passed = failed = xfailed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for family in args.families or list(FAMILIES):
            for case in FAMILIES[family]:
                why = check_case(case, args.tadc, archs, args.ptxas, args.f32,
                                 workdir, args.gpu_kernels)
                label = "%s [%s]" % (case.name, family)
                known = XFAIL.get(case.name)
                if why is None and known is None:
                    passed += 1
                    print("PASS %s" % label)
                elif why is None:
                    failed += 1
                    print("XPASS %s: listed as XFAIL (%s) but compiles" % (label, known))
                elif known is not None:
                    xfailed += 1
                    print("XFAIL %s: %s (%s)" % (label, known, why))
                else:
                    failed += 1
                    print("FAIL %s: %s" % (label, why))
    print("%d passed, %d failed, %d expected failures (%s%s%s)" % (
        passed, failed, xfailed, "+".join(archs),
        ", ptxas" if args.ptxas else ", not assembled",
        ", tiled kernels" if args.gpu_kernels == "tiled" else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
