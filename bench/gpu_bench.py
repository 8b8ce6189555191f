"""The GPU side of bench/run.py (``--target cuda``): tad against PyTorch
CUDA, side by side, on the workloads of bench/workloads.py.

    /usr/bin/python3 bench/run.py --target cuda            # GPU table into docs/benchmarks.md
    /usr/bin/python3 bench/run.py --target cuda mlp cnn
    /usr/bin/python3 bench/run.py --target cuda --emulate --smoke --out /tmp/b   # a test, no GPU

tad: ``tad.compile_train_step(..., target="cuda")``; the parameters,
optimizer state, data and gradients stay in device memory across calls
(``tad.DeviceArray``; only the loss comes back to the host), so a step
copies nothing but the 4-byte loss. PyTorch: the model and data on
``cuda``, ``torch.cuda.synchronize()`` after every call, so both sides are
timed to completion.

Without a GPU (no ``libcuda.so.1``, or no device) it prints a line starting
with ``SKIP:`` and exits with status 2: nothing was measured. ``--emulate``
(a testing aid) runs tad's GPU pipeline with ``--gpu-emulate`` (kernels as
CPU loops) and PyTorch on the CPU, to exercise this code without a GPU; its
numbers mean nothing and it never writes into docs/.

The report replaces the GPU section of benchmarks.md (between the
``<!-- gpu-begin -->`` and ``<!-- gpu-end -->`` markers) and leaves the CPU
tables alone; CPU runs keep the GPU section.
"""

import ctypes
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
MODES = ("forward", "forward+backward", "train step")
import report_sections  # noqa: E402
from report_sections import replace_section  # noqa: E402

BEGIN, END = report_sections.markers("gpu")


def cuda_gpu():
    """(None, device name) if the CUDA driver sees a device, else (why not,
    None)."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        return f"no CUDA driver (cannot load libcuda.so.1: {e})", None
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 \
            or count.value == 0:
        return "the CUDA driver sees no device", None
    name = ctypes.create_string_buffer(256)
    device = ctypes.c_int(0)
    cuda.cuDeviceGet(ctypes.byref(device), 0)
    cuda.cuDeviceGetName(name, 256, device)
    return None, name.value.decode(errors="replace")


# --------------------------------------------------------------------------
# Workers
# --------------------------------------------------------------------------

def worker(name, framework, reps, min_seconds, emulate, measure):
    """One workload on one framework; prints a JSON line."""
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
    import numpy as np
    import torch
    import workloads
    torch.manual_seed(0)
    model, inputs, targets, loss_fn = workloads.WORKLOADS[name][0]()
    result = {"workload": name, "framework": framework}

    if framework == "torch-cuda":
        device = "cpu" if emulate else "cuda"
        if device == "cuda" and not torch.cuda.is_available():
            result["error"] = f"PyTorch {torch.__version__} has no CUDA"
            print(json.dumps(result))
            return
        model = model.to(device)
        inputs = [t.to(device) for t in inputs]
        targets = [t.to(device) for t in targets]
        opt = torch.optim.SGD(model.parameters(), lr=1e-3)
        sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

        def forward():
            with torch.no_grad():
                loss_fn(model(*inputs), *targets)
            sync()

        def forward_backward():
            model.zero_grad(set_to_none=True)
            loss_fn(model(*inputs), *targets).backward()
            sync()

        def train_step():
            opt.zero_grad(set_to_none=True)
            loss_fn(model(*inputs), *targets).backward()
            opt.step()
            sync()
        fns = (forward, forward_backward, train_step)
    else:
        import tad
        start = time.perf_counter()
        try:
            step = tad.compile_train_step(
                model, inputs, targets, loss_fn, optimizer=tad.SGD(lr=1e-3),
                target="cuda", extra_args=["--gpu-emulate"] if emulate else [])
        except (tad.TadImportError, tad.CompileError) as e:
            result["error"] = str(e).strip().splitlines()[0]
            print(json.dumps(result))
            return
        result["compile_s"] = time.perf_counter() - start
        m = step.module
        # Everything on the device: data, parameters, state, gradients.
        data = [m.device_array(t.numpy()) for t in list(inputs) + list(targets)]
        params = step.params
        one = m.device_array(np.ones((), np.asarray(params[0]).dtype))
        grads = [m.device_empty(p.shape, p.dtype) for p in params]
        try:
            step(*data)  # a failing GPU fails here, with its message
        except tad.TadError as e:
            result["error"] = str(e).splitlines()[0]
            print(json.dumps(result))
            return
        fns = (lambda: m.loss(*data, *params),
               lambda: m.loss_vjp(*data, *params, one, out=[None] + grads),
               lambda: step(*data))
    for mode, fn in zip(MODES, fns):
        result[mode] = measure(fn, reps, min_seconds)
    print(json.dumps(result))


def _measure_time(fn, reps, min_seconds):
    fn()  # warm-up (module load, PTX JIT, first allocations)
    times = []
    start = time.perf_counter()
    while len(times) < reps or (time.perf_counter() - start < min_seconds
                                and len(times) < 1000):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return {"median_ms": 1e3 * times[len(times) // 2], "reps": len(times)}


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def run_worker(script, name, framework, args):
    cmd = [sys.executable, script, "--worker", name, framework, "--target", "cuda",
           "--reps", str(args.reps), "--min-seconds", str(args.min_seconds)]
    if args.emulate:
        cmd.append("--emulate")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"workload": name, "framework": framework,
                "error": f"worker failed: {tail}"}
    return json.loads(lines[-1])


def fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}g}"


def section(results, info, args):
    """The GPU section of benchmarks.md (between the markers)."""
    from workloads import WORKLOADS
    what = ("**Emulated** (`--emulate`: tad's kernels run as CPU loops, "
            "PyTorch on the CPU): a test of the benchmark code, not a "
            "measurement." if args.emulate else
            f"GPU: {info['gpu']}; PyTorch {info['torch']} on `cuda`.")
    lines = [BEGIN, "", "## GPU: tad against PyTorch CUDA", "",
             f"Command: `/usr/bin/python3 bench/run.py --target cuda"
             f"{' --emulate' if args.emulate else ''}"
             f"{' ' + ' '.join(args.workloads) if args.workloads else ''}`"
             f" ({time.strftime('%Y-%m-%d')}). {what}", "",
             "float32, the modes of the CPU table. tad: `tad.compile_train_step"
             "(..., target=\"cuda\")`, data, parameters, optimizer state and "
             "gradients kept in device memory (`tad.DeviceArray`, `out=`), only "
             "the loss copied back per call. PyTorch: model and data on the "
             "device, `torch.cuda.synchronize()` after each call. Medians over "
             f"at least {args.reps} runs and {args.min_seconds} s after a warm-up; "
             "ratio = tad / PyTorch (below 1: tad is faster).", "",
             "| workload | mode | PyTorch ms | tad ms | ratio | tad compile s |",
             "|---|---|---|---|---|---|"]
    not_run = []
    for name, r in results.items():
        t, d = r["torch-cuda"], r["tad-cuda"]
        if "error" in d or "error" in t:
            not_run.append((name, d.get("error") or t.get("error")))
            continue
        for mode in MODES:
            tm, dm = t[mode]["median_ms"], d[mode]["median_ms"]
            lines.append(f"| {name} | {mode} | {fmt(tm)} | {fmt(dm)} | "
                         f"{fmt(dm / tm if tm else None)} | "
                         f"{fmt(d['compile_s']) if mode == MODES[0] else ''} |")
    lines.append("")
    lines.append("Workloads: " + "; ".join(f"`{n}`: {WORKLOADS[n][1]}"
                                           for n in results) + ".")
    if not_run:
        lines += ["", "Not run:", ""]
        lines += [f"- `{name}`: {err}" for name, err in not_run]
    lines += ["", END]
    return "\n".join(lines)


def merge(path_md, gpu_section):
    """benchmarks.md with its GPU section replaced (or appended)."""
    replace_section(path_md, "gpu", gpu_section)


def kept_section(path_md):
    """The GPU section of an existing benchmarks.md ("" if none), which a
    CPU run keeps."""
    return report_sections.kept_section(path_md, "gpu")


def main(script, args, names):
    why, gpu = (None, "emulated") if args.emulate else cuda_gpu()
    if why:
        print(f"SKIP: --target cuda: {why}: the GPU benchmark did not run "
              "(nothing was measured)", flush=True)
        return 2
    if args.emulate and os.path.abspath(args.out) == os.path.join(ROOT, "docs"):
        print("error: --emulate measures nothing: give --out DIR (not docs/)",
              file=sys.stderr)
        return 2
    import torch
    info = {"gpu": gpu, "torch": torch.__version__}
    print(f"GPU: {gpu}, torch {info['torch']}", flush=True)
    results = {}
    for name in names:
        results[name] = {fw: run_worker(script, name, fw, args)
                         for fw in ("torch-cuda", "tad-cuda")}
        t, d = results[name]["torch-cuda"], results[name]["tad-cuda"]
        if "error" in d or "error" in t:
            print(f"{name:18s} not run: {d.get('error') or t.get('error')}",
                  flush=True)
            continue
        for mode in MODES:
            tm, dm = t[mode]["median_ms"], d[mode]["median_ms"]
            print(f"{name:18s} {mode:17s} torch {tm:9.3f} ms  tad {dm:9.3f} ms  "
                  f"ratio {dm / tm:7.3f}", flush=True)
    os.makedirs(args.out, exist_ok=True)
    md = os.path.join(args.out, "benchmarks.md")
    merge(md, section(results, info, args))
    print(f"wrote the GPU section of {md}")
    return 0
