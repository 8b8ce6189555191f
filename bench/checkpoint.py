"""Memory and time of the reverse sweep of a long loop under each
checkpointing scheme (tadc --checkpoint, docs/loops.md).

The loop is an LSTM cell run for T steps (batch 16, input 128, hidden 256 by
default, float32) written as one scf.for; its VJP computes the gradients of
sum(h_T) with respect to the eight weight matrices and four biases. For each
scheme ("store", "sqrt", fixed segment lengths, "levels:L", "revolve:S")
the compiled VJP runs in a fresh worker process, which reports the median time per call, the peak of
the compiled code's own heap (Module.memory_stats(): the temporaries and
stacks of the reverse sweep, nothing else) and the peak resident memory the
calls add to the process (VmHWM after /proc/self/clear_refs, minus the
resident size before them: also the threads, libraries and pages touched
for the first time). All schemes must give the same gradients (to
float32 rounding): the script checks them against "store".

Usage: checkpoint.py [--steps 1000]
                     [--schemes store,sqrt,levels:3,10,revolve:32,revolve:8]
                     [--reps 3] [--markdown]"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
import tad  # noqa: E402

GATES = ("i", "f", "g", "o")


def lstm_source(steps, batch, inputs, hidden):
    """@f(x: T x B x I, W_*: I x H, U_*: H x H, b_*: H) -> sum(h_T)."""
    bh = "tensor<%dx%dxf32>" % (batch, hidden)
    bi = "tensor<%dx%dxf32>" % (batch, inputs)
    ih = "tensor<%dx%dxf32>" % (inputs, hidden)
    hh = "tensor<%dx%dxf32>" % (hidden, hidden)
    h1 = "tensor<%dxf32>" % hidden
    xs = "tensor<%dx%dx%dxf32>" % (steps, batch, inputs)
    args = ["%%x: %s {tad.nondiff}" % xs]
    args += ["%%W%s: %s" % (g, ih) for g in GATES]
    args += ["%%U%s: %s" % (g, hh) for g in GATES]
    args += ["%%b%s: %s" % (g, h1) for g in GATES]
    body = []
    body.append("%%xt = tensor.extract_slice %%x[%%t, 0, 0] [1, %d, %d] [1, 1, 1]"
                " : %s to %s" % (batch, inputs, xs, bi))
    for g in GATES:
        body.append("%%xw%s = tad.mm %%xt, %%W%s : (%s, %s) -> %s" % (g, g, bi, ih, bh))
        body.append("%%hu%s = tad.mm %%h, %%U%s : (%s, %s) -> %s" % (g, g, bh, hh, bh))
        body.append("%%s%s = tad.add.Tensor %%xw%s, %%hu%s : (%s, %s) -> %s" % (g, g, g, bh, bh, bh))
        body.append("%%z%s = tad.add.Tensor %%s%s, %%b%s : (%s, %s) -> %s" % (g, g, g, bh, h1, bh))
        act = "tanh" if g == "g" else "sigmoid"
        body.append("%%a%s = tad.%s %%z%s : %s" % (g, act, g, bh))
    body += [
        "%%fc = tad.mul.Tensor %%af, %%c : (%s, %s) -> %s" % (bh, bh, bh),
        "%%ig = tad.mul.Tensor %%ai, %%ag : (%s, %s) -> %s" % (bh, bh, bh),
        "%%c2 = tad.add.Tensor %%fc, %%ig : (%s, %s) -> %s" % (bh, bh, bh),
        "%%tc = tad.tanh %%c2 : %s" % bh,
        "%%h2 = tad.mul.Tensor %%ao, %%tc : (%s, %s) -> %s" % (bh, bh, bh),
        "scf.yield %%h2, %%c2 : %s, %s" % (bh, bh),
    ]
    return """
func.func @f(%s) -> tensor<f32> {
  %%c0 = arith.constant 0 : index
  %%c1 = arith.constant 1 : index
  %%cT = arith.constant %d : index
  %%zero = tad.constant dense<0.0> : %s
  %%r:2 = scf.for %%t = %%c0 to %%cT step %%c1 iter_args(%%h = %%zero, %%c = %%zero) -> (%s, %s) {
    %s
  }
  %%loss = tad.sum %%r#0 : (%s) -> tensor<f32>
  return %%loss : tensor<f32>
}
""" % (", ".join(args), steps, bh, bh, bh, "\n    ".join(body), bh)


def arguments(steps, batch, inputs, hidden):
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((steps, batch, inputs), dtype=np.float32)]
    args += [rng.standard_normal((inputs, hidden), dtype=np.float32) / np.sqrt(inputs)
             for _ in GATES]
    args += [rng.standard_normal((hidden, hidden), dtype=np.float32) / np.sqrt(hidden)
             for _ in GATES]
    args += [np.zeros(hidden, dtype=np.float32) for _ in GATES]
    return args


def _rss_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def worker(path, shape, reps, out):
    module = tad.load(path)
    args = arguments(*shape)
    one = np.ones((), dtype=np.float32)
    # No warm-up: the first call's peak is what the sweep needs; after it
    # the allocator keeps the freed memory and later calls add nothing.
    base = _rss_kb("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    module.reset_peak_memory()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        results = module.f_vjp(*args, one)
        times.append(time.perf_counter() - start)
    peak = max(_rss_kb("VmHWM") - base, 0)
    heap = module.memory_stats()["peak_bytes"]
    np.savez(out, *results[1:])
    times.sort()
    print(json.dumps({"median_s": times[len(times) // 2],
                      "peak_mb": peak / 1024.0,
                      "heap_mb": heap / 2.0 ** 20}))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--inputs", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--schemes",
                        default="store,sqrt,levels:3,10,revolve:32,revolve:8")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--opt-level", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--worker", nargs=2, metavar=("SO", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    shape = (args.steps, args.batch, args.inputs, args.hidden)
    if args.worker:
        worker(args.worker[0], shape, args.reps, args.worker[1])
        return

    source = lstm_source(*shape)
    rows, reference = [], None
    with tempfile.TemporaryDirectory(prefix="tad-checkpoint-") as tmp:
        for scheme in args.schemes.split(","):
            so = os.path.join(tmp, "lstm-%s.so" % scheme)
            start = time.perf_counter()
            tad.compile(source, vjp="f", checkpoint=scheme, output=so,
                        opt_level=args.opt_level)
            compile_s = time.perf_counter() - start
            out = os.path.join(tmp, "grads-%s.npz" % scheme)
            proc = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--steps", str(args.steps),
                 "--batch", str(args.batch), "--inputs", str(args.inputs),
                 "--hidden", str(args.hidden), "--reps", str(args.reps),
                 "--worker", so, out],
                stdout=subprocess.PIPE, check=True, text=True)
            measured = json.loads(proc.stdout.strip().splitlines()[-1])
            grads = [g for _, g in sorted(np.load(out).items(),
                                          key=lambda kv: int(kv[0].split("_")[1]))]
            if reference is None:
                reference, agree = grads, "reference"
            else:
                worst = max(float(np.max(np.abs(a - b)) / (np.max(np.abs(b)) + 1e-30))
                            for a, b in zip(grads, reference))
                agree = "max rel. diff %.1e" % worst
            rows.append((scheme, compile_s, measured["median_s"],
                         measured["heap_mb"], measured["peak_mb"], agree))
            print("%-8s compile %5.1f s  vjp %7.3f s  heap peak %8.1f MB  "
                  "RSS +%8.1f MB  %s" % rows[-1], flush=True)
    if args.markdown:
        print("\n| scheme | compile (s) | VJP call (s) | heap peak (MB) | "
              "process peak added (MB) | gradients vs store |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for row in rows:
            print("| %s | %.1f | %.3f | %.1f | %.1f | %s |" % row)


if __name__ == "__main__":
    main()
