"""The imported examples (examples/NAME/model.py, torch.fx) on the GPU
target, without a GPU:

  check_examples.py --emulate NAME...   forward and VJP of the model compiled
      with --target=cuda --gpu-emulate, against torch.autograd (f64 and
      f32, tad.testing.check_forward's tolerances)
  check_examples.py --ptx NAME... [--ptxas=PATH]   forward, VJP and JVP
      compile to PTX for sm_90 and sm_80 (and assemble, with --ptxas)

Prints PASS/FAIL lines and "N failed".
"""

import argparse
import functools
import importlib.util
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import torch  # noqa: E402

import tad  # noqa: E402
import tad.testing  # noqa: E402


def load(name):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(ROOT, "examples", name, "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KERNELS = ["naive"]  # --gpu-kernels


def emulate(name):
    compile_cpu = tad.testing._compile
    tad.testing._compile = functools.partial(
        compile_cpu, target="cuda",
        extra_args=["--gpu-emulate", "--gpu-kernels=" + KERNELS[0]])
    try:
        failed = 0
        for dtype in (torch.float64, torch.float32):
            failed += tad.testing.check_forward(load(name).build, dtype)
        return failed
    finally:
        tad.testing._compile = compile_cpu


def ptx(name, ptxas, workdir):
    model, inputs, _, _ = load(name).build(torch.float32)
    source = os.path.join(workdir, name + ".mlir")
    with open(source, "w") as f:
        f.write(tad.from_torch(model, inputs))
    tadc = os.environ.get("TADC", os.path.join(ROOT, "build", "bin", "tadc"))
    failed = 0
    for arch in ("sm_90", "sm_80"):
        out = os.path.join(workdir, "%s.%s.ptx" % (name, arch))
        run = subprocess.run([tadc, source, "--target=cuda", "--gpu-arch=" + arch,
                              "--gpu-kernels=" + KERNELS[0], "--vjp=forward", "--jvp=forward", "--emit=ptx",
                              "-o", out], capture_output=True, text=True)
        why = run.stderr.strip().splitlines()[:1] if run.returncode else None
        if not why and ptxas:
            run = subprocess.run([ptxas, "--gpu-name", arch, out, "-o",
                                  out + ".cubin"], capture_output=True, text=True)
            why = (run.stderr + run.stdout).strip().splitlines()[:1] \
                if run.returncode else None
        if why:
            failed += 1
            print("FAIL %s %s: %s" % (name, arch, why[0] if why else "?"))
        else:
            print("PASS %s %s PTX%s" % (name, arch, " + ptxas" if ptxas else ""))
    return failed


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="+")
    parser.add_argument("--emulate", action="store_true")
    parser.add_argument("--ptx", action="store_true")
    parser.add_argument("--ptxas", default="")
    parser.add_argument("--gpu-kernels", default="naive", choices=("naive", "tiled"))
    args = parser.parse_args(argv)
    KERNELS[0] = args.gpu_kernels
    failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for name in args.names:
            if args.emulate:
                failed += emulate(name)
            if args.ptx:
                failed += ptx(name, args.ptxas, workdir)
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
