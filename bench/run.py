#!/usr/bin/python3
"""tad against PyTorch eager, side by side in one run.

    /usr/bin/python3 bench/run.py                 # all workloads, writes docs/benchmarks.md + .png
    /usr/bin/python3 bench/run.py --smoke --out /tmp/b   # 1 iteration each (the lit test)
    /usr/bin/python3 bench/run.py mlp_small elementwise
    /usr/bin/python3 bench/run.py matmul          # only the matmul kernel (bench/matmul.py)
    /usr/bin/python3 bench/run.py --target cuda   # on a GPU: tad vs PyTorch CUDA (bench/gpu_bench.py)

For each workload (bench/workloads.py, float32) and each of forward (the
loss), forward+backward (loss and parameter gradients) and a full SGD
training step, PyTorch eager (2 threads) and the tadc-compiled module are
timed in separate worker processes of this run, alternating (`--rounds`,
default 3, processes each: this VM has slow spells of seconds that would
otherwise hit one framework only); the report gives the median over the
rounds of median times, the ratio tad/PyTorch, the peak memory growth of each (VmHWM over the
timed section, reset through /proc/self/clear_refs) and tad's compile time
(import + tadc, one module with all three functions).

The peer at its best (bench/benchenv.py): the workers of both frameworks
(and bench/matmul.py) run without the inherited OPENBLAS_CORETYPE and
OPENBLAS_L2_SIZE (set on these machines for old OpenBLAS builds, they force
its AVX2 kernels and a wrong L2 size on AVX-512 CPUs), with 2 threads
(OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS,
torch.set_num_threads), glibc malloc tunables that keep freed memory
(GLIBC_TUNABLES: mmap_threshold, trim_threshold, top_pad; no page faults per
step) and, per workload, the faster of PyTorch's own ATen kernel set (AVX2
for PyTorch 1.13 on these CPUs) and ATEN_CPU_CAPABILITY=avx512, measured by
one calibration worker with each before the rounds (neither is faster for
every workload here; `--aten-cpu-capability` fixes the choice). The
PyTorch worker reports the BLAS it loaded (/proc/self/maps) and OpenBLAS's
core name and build (openblas_get_corename/openblas_get_config); the report
header lists all of it, the removed variables and Debian's libblas.so.3
alternative (OpenBLAS-OpenMP expected). `--inherit-env` keeps the inherited
environment instead (the handicapped peer, for comparisons).

The load guard: other processes' CPU use (the machine's busy time from
/proc/stat less this run's own processes' CPU time) is measured for
`--idle-check` seconds before the run and while each worker runs, and the
VM's steal time with it. Above `--max-other-load` cores before or on
average during the run, above `--max-worker-load` during any one worker, or
with more than `--max-steal` stolen, or when PyTorch did not load
OpenBLAS-OpenMP with a kernel set for this CPU, the run is unusable: the
report gets a banner and no speedups or chart, and the exit status is 3
(`--allow-load` writes the same report and exits 0; `--smoke` implies it, so
that the smoke test passes on a busy machine). A machine already busy in the
idle check stops the run before it measures anything (exit status 3, no
report written) unless `--allow-load`.

``--target cuda`` runs the GPU comparison instead (bench/gpu_bench.py; it writes
the GPU section of benchmarks.md and keeps the CPU tables; without a GPU it
prints a SKIP line and exits with status 2).
"""

import argparse
import contextlib
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import benchenv  # noqa: E402
from benchenv import THREADS  # noqa: E402

MODES = ("forward", "forward+backward", "train step")


# --------------------------------------------------------------------------
# Worker: one workload, one framework
# --------------------------------------------------------------------------

def _rss_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _measure(fn, reps, min_seconds):
    fn()  # warm-up (and first-touch of buffers)
    base = _rss_kb("VmRSS")
    _reset_peak()
    times = []
    start = time.perf_counter()
    while len(times) < reps or (time.perf_counter() - start < min_seconds and len(times) < 1000):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    peak = max(_rss_kb("VmHWM") - base, 0)
    times.sort()
    return {"median_ms": 1e3 * times[len(times) // 2], "reps": len(times),
            "peak_mb": peak / 1024.0}


def worker(name, framework, reps, min_seconds, precision="f32"):
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
    import torch
    torch.set_num_threads(THREADS)
    import workloads
    torch.manual_seed(0)
    model, inputs, targets, loss_fn = workloads.get(name)
    result = {"workload": name, "framework": framework}

    if framework == "torch":
        opt = torch.optim.SGD(model.parameters(), lr=1e-3)
        # --precision bf16: PyTorch's mixed precision, what tad's
        # precision="bf16" reproduces (f32 master weights).
        autocast = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) \
            if precision == "bf16" else contextlib.nullcontext

        def forward():
            with torch.no_grad(), autocast():
                return loss_fn(model(*inputs), *targets)

        def forward_backward():
            model.zero_grad(set_to_none=True)
            with autocast():
                loss = loss_fn(model(*inputs), *targets)
            loss.backward()

        def train_step():
            opt.zero_grad(set_to_none=True)
            with autocast():
                loss = loss_fn(model(*inputs), *targets)
            loss.backward()
            opt.step()
        fns = (forward, forward_backward, train_step)
    else:
        import tad
        start = time.perf_counter()
        try:
            step = tad.compile_train_step(
                model, inputs, targets, loss_fn, optimizer=tad.SGD(lr=1e-3),
                precision=None if precision == "f32" else precision)
        except (tad.TadImportError, tad.CompileError) as e:
            result["error"] = str(e).strip().splitlines()[0]
            print(json.dumps(result))
            return
        result["compile_s"] = time.perf_counter() - start
        fns = workloads.tad_step_calls(step, inputs, targets)
    for mode, fn in zip(MODES, fns):
        result[mode] = _measure(fn, reps, min_seconds)
    result["process"] = benchenv.process_info()
    print(json.dumps(result))


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def run_worker(name, framework, args, env, guard):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, framework,
           "--reps", str(args.reps), "--min-seconds", str(args.min_seconds),
           "--precision", getattr(args, "precision", "f32")]
    with guard.window(f"{name} {framework}"):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"workload": name, "framework": framework, "error": f"worker failed: {tail}"}
    return json.loads(lines[-1])


def choose_aten(name, args, env, guard):
    """PyTorch's kernel set for a workload: with "auto", the one of
    benchenv.aten_choices() under which a calibration worker's PyTorch times
    (forward, forward+backward and train step summed) are lowest."""
    if args.inherit_env:
        return {"choice": "inherited"}
    if args.aten_cpu_capability != "auto":
        return {"choice": args.aten_cpu_capability}
    choices = benchenv.aten_choices()
    if len(choices) == 1:
        return {"choice": choices[0]}
    calibration = argparse.Namespace(reps=args.reps, min_seconds=min(args.min_seconds, 0.5),
                                     precision=getattr(args, "precision", "f32"))
    out = {"ms": {}, "capability": {}}
    for choice in choices:
        r = run_worker(name, "torch", calibration, benchenv.with_aten(env, choice), guard)
        if "error" in r:
            return {"choice": "default", "error": r["error"]}
        out["ms"][choice] = sum(r[m]["median_ms"] for m in MODES)
        out["capability"][choice] = r["process"].get("torch_cpu_capability", "unknown")
    out["choice"] = min(choices, key=out["ms"].get)
    print(f"{name:18s} PyTorch kernels: {out['choice']} (calibration, the three modes summed: " +
          ", ".join(f"{c} ({out['capability'][c]}) {out['ms'][c]:.3f} ms" for c in choices) + ")",
          flush=True)
    return out


def aten_line(aten):
    """The report's sentence on PyTorch's kernel set per workload."""
    if not aten or all(a["choice"] == "inherited" for a in aten.values()):
        return []
    parts = []
    for name, a in aten.items():
        text = f"{name} `{a['choice']}`"
        if "ms" in a:
            text += " (" + " vs ".join(f"{c} {ms:.3g} ms" for c, ms in a["ms"].items()) + ")"
        parts.append(text)
    own = next((a["capability"]["default"] for a in aten.values()
                if "default" in a.get("capability", {})), None)
    return ["PyTorch's ATen kernel set (`ATEN_CPU_CAPABILITY`) per workload: "
            + ("the faster in one calibration worker each (forward, forward+backward and train "
               "step summed) of PyTorch's own choice (`default`"
               + (f": {own}" if own else "") + ") and `avx512`: "
               if any("ms" in a for a in aten.values()) else "")
            + "; ".join(parts) + ".", ""]


def machine():
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info = {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version()}
    try:
        import torch
        info["torch"] = torch.__version__
    except ImportError:
        info["torch"] = "not installed"
    info["blas_alternative"] = benchenv.blas_alternative()
    return info


def fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}g}"


def kernel_lines(kernel):
    """The matmul kernel benchmark (bench/matmul.py) as a table."""
    if not kernel:
        return []
    if "error" in kernel:
        return ["", f"Kernel benchmark (`bench/matmul.py`) failed: {kernel['error']}"]
    n = kernel["n"]
    p1, p2 = kernel["peak1_gflops"], kernel["peak2_gflops"]
    rows = ["", f"## Kernel: f32 matmul {n}x{n}x{n}", "",
            f"FMA peak measured by `bench/matmul.py` on this machine ({kernel['vector_bits']}-bit "
            f"FMA chains in registers): {p1:.1f} GFLOP/s on 1 thread, {p2:.1f} GFLOP/s on 2 "
            f"(load average {kernel['load']:.1f} when measured). {kernel.get('rounds', 1)} "
            f"rounds of {kernel.get('reps', 15)} calls, tad and PyTorch alternating; a time is "
            "the median of the rounds' medians.", "",
            "| | ms | GFLOP/s | % of 1-thread peak | % of 2-thread peak |", "|---|---|---|---|---|"]
    for who in ("tad", "torch"):
        if f"{who}_ms" in kernel:
            g = kernel[f"{who}_gflops"]
            rows.append(f"| {'tad' if who == 'tad' else 'PyTorch'} | {kernel[f'{who}_ms']:.2f} | "
                        f"{g:.1f} | {100 * g / p1:.0f}% | {100 * g / p2:.0f}% |")
    if "process" in kernel:
        rows += ["", "PyTorch's BLAS in this process: " +
                 benchenv.openblas_summary(kernel["process"]) + "."]
    return rows


def run_kernel(args, env, guard):
    if args.workloads and "matmul" not in args.workloads:
        return None
    cmd = [sys.executable, os.path.join(HERE, "matmul.py"), "--json"]
    if args.smoke:
        cmd += ["--n", "128", "--reps", "1", "--rounds", "1"]
    if args.inherit_env:
        cmd.append("--inherit-env")
    with guard.window("matmul kernel"):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"error": tail}
    return json.loads(lines[-1])


def environment_lines(env_info, peer):
    """The conditions of the run: the workers' environment, the BLAS PyTorch
    loaded and its kernel set."""
    removed, inherit = env_info["removed"], env_info["inherit"]
    if inherit:
        env = ("Environment of the worker processes: **inherited** (`--inherit-env`: "
               "a comparison run, not the fair peer), with "
               f"`OMP_NUM_THREADS`, `OPENBLAS_NUM_THREADS` and `MKL_NUM_THREADS` set to {THREADS}")
    else:
        env = ("Environment of both frameworks' worker processes (`bench/benchenv.py`): "
               + ("removed the inherited " + ", ".join(f"`{k}={v}`" for k, v in removed.items())
                  + " (they force OpenBLAS onto its AVX2 kernels and a wrong L2 size on "
                  "AVX-512 CPUs)" if removed else
                  "nothing inherited to remove (`" + "`, `".join(benchenv.REMOVED) + "` unset)")
               + "; set " + ", ".join(f"`{k}={v}`" for k, v in benchenv.settings().items())
               + ("; " + env_info["core_note"] if env_info.get("core_note") else ""))
    others = env_info["others"]
    env += ("; other inherited variables that affect BLAS, OpenMP, PyTorch or malloc: " +
            (", ".join(f"`{k}={v}`" for k, v in others.items()) if others else "none") +
            f". PyTorch also gets `torch.set_num_threads({THREADS})`; OpenMP's wait policy is "
            "the default (threads spin a while before sleeping).")
    blas = (f"PyTorch's BLAS, as its worker loaded it (`/proc/self/maps`, "
            f"`openblas_get_corename`): {benchenv.openblas_summary(peer)}; Debian's "
            f"`libblas.so.3` alternative: `{env_info['blas_alternative']}`.")
    return [env, "", blas]


def write_report(results, info, args, path_md, path_png, kernel=None, env_info=None,
                 peer=None, guard=None, unusable=(), aten=None):
    from workloads import WORKLOADS
    lines = ["# Benchmarks: tad against PyTorch eager", "",
             "<!-- Written by bench/run.py; do not edit by hand. -->", ""]
    if unusable:
        lines += ["> **UNUSABLE: " + "; ".join(unusable) + ".** The times and ratios below "
                  "do not describe tad or PyTorch; run the benchmark again on a quiet machine "
                  "(`bench/run.py --help`).", ""]
    lines += [f"Command: `/usr/bin/python3 bench/run.py"
              f"{' ' + ' '.join(sys.argv[1:]) if sys.argv[1:] else ''}`"
              f" ({time.strftime('%Y-%m-%d')}).", "",
              f"Machine: {info['cpu']}, {info['cores']} cores visible; PyTorch {info['torch']} "
              f"(Debian python3-torch), {THREADS} threads; tad modules compiled with `-O3` "
              "for the host CPU (matmul-like ops of 2^18 multiply-adds or more and other loop "
              "nests of 2^17 iterations or more (weighted by their body's ops over two) run "
              "their outer loops on OpenMP threads, "
              "`OMP_NUM_THREADS` of them; smaller ones are single-threaded).", ""]
    lines += environment_lines(env_info, peer) + [""] + aten_line(aten)
    lines += [f"Load guard: {guard.summary()}. Limits: other processes at most "
              f"{guard.max_other:.2f} cores before and on average during the run and "
              f"{guard.max_window:.2f} during any worker, steal at most "
              f"{100 * guard.max_steal:.0f}%" +
              (" (not enforced: " + ("`--smoke`" if args.smoke else "`--allow-load`") + ")"
               if args.allow_load else "") + ".", ""]
    lines += ["float32. *forward*: the loss; *forward+backward*: loss and parameter gradients "
              "(`loss_vjp`; PyTorch: `backward()`); *train step*: forward, backward and an SGD "
              "update (PyTorch: `optimizer.step()`; tad: `train_step`, new parameters returned "
              f"in fresh buffers). Each framework runs in {args.rounds} worker processes per "
              "workload, alternating PyTorch and tad; each times at least "
              f"{args.reps} runs and {args.min_seconds} s after one warm-up; a time is the median "
              "over the rounds of their medians; ratio = tad / PyTorch "
              "(below 1: tad is faster). Peak memory: growth of the process's peak resident set "
              "over the timed section (VmHWM, reset before it), in MB. tad compile: "
              "`tad.compile_train_step` (trace, import, tadc -O3 for the three functions, load).",
              "", "| workload | mode | PyTorch ms | tad ms | ratio | PyTorch peak MB | tad peak MB | tad compile s |",
              "|---|---|---|---|---|---|---|---|"]
    not_run = []
    chart = []
    for name in results:
        t, d = results[name]["torch"], results[name]["tad"]
        if "error" in d or "error" in t:
            not_run.append((name, d.get("error") or t.get("error")))
            continue
        for mode in MODES:
            tm, dm = t[mode]["median_ms"], d[mode]["median_ms"]
            ratio = dm / tm if tm else None
            chart.append((name, mode, ratio))
            lines.append(f"| {name} | {mode} | {fmt(tm)} | {fmt(dm)} | {fmt(ratio)} | "
                         f"{fmt(t[mode]['peak_mb'])} | {fmt(d[mode]['peak_mb'])} | "
                         f"{fmt(d['compile_s']) if mode == MODES[0] else ''} |")
    lines.append("")
    speedups = train_step_speedups(results)
    if speedups and unusable:
        lines += ["Train step speedups: not stated (the run is unusable).", ""]
    elif speedups:
        lines.append("Train step speedup (PyTorch time / tad time): " +
                     ", ".join(f"{n} {x:.2f}x" for n, x in speedups.items()) +
                     f"; geometric mean {statistics.geometric_mean(speedups.values()):.2f}x.")
        lines.append("")
    lines.append("Workloads: " + "; ".join(f"`{n}`: {WORKLOADS[n][1]}" for n in results) + ".")
    lines.extend(kernel_lines(kernel))
    lines.append("")
    import report_sections
    kept = [report_sections.kept_section(path_md, name)
            for name in ("sweep", "mixed", "gpu")]
    if not_run:
        lines.append("Not run yet (tad cannot import or compile them; the benchmark runs them as "
                     "soon as it can):")
        lines.append("")
        for name, err in not_run:
            lines.append(f"- `{name}`: {err}")
        lines.append("")
    if unusable:
        chart = []  # keeps the chart of the last usable run
    if chart:
        lines.append(f"![tad / PyTorch time ratio]({os.path.basename(path_png)})")
        lines.append("")
    # Written by bench/sweep.py and --target cuda; this run keeps them.
    lines += [f"{section}\n" for section in kept if section]
    with open(path_md, "w") as f:
        f.write("\n".join(lines))
    if chart:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            import numpy as np
            names = sorted({c[0] for c in chart}, key=list(results).index)
            fig, ax = plt.subplots(figsize=(max(5, 1.8 * len(names)), 4))
            width = 0.27
            for k, mode in enumerate(MODES):
                vals = [next((r for n, m, r in chart if n == name and m == mode), np.nan)
                        for name in names]
                ax.bar(np.arange(len(names)) + (k - 1) * width, vals, width, label=mode)
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_xticks(np.arange(len(names)), names)
            ax.set_yscale("log")
            ax.set_ylabel("time tad / PyTorch eager (log; < 1: tad faster)")
            ax.set_title(f"tad vs PyTorch {info['torch']} ({THREADS} threads), float32")
            ax.legend()
            fig.tight_layout()
            fig.savefig(path_png, dpi=100)
        except ImportError:
            pass


def write_mixed_section(results, info, path_md, guard, unusable):
    """The mixed-precision section of benchmarks.md (--precision bf16): PyTorch
    under torch.autocast(bfloat16) against tad's precision="bf16" steps; the
    rest of the report (the f32 run) is kept."""
    import report_sections
    begin, end = report_sections.markers("mixed")
    lines = [begin, "## Mixed precision (`bench/run.py --precision bf16`)", "",
             f"Command: `{' '.join([os.path.basename(sys.executable)] + sys.argv)}` "
             f"({datetime.date.today()}), on {info['cpu']}: both frameworks in bf16 mixed "
             "precision, PyTorch under `torch.autocast(\"cpu\", torch.bfloat16)`, tad's "
             "`compile_train_step(..., precision=\"bf16\")` (f32 master weights; "
             "docs/mixed-precision.md). Speedup = PyTorch time / tad time. Load guard: "
             f"{guard.summary()}." + (f" **Unusable: {'; '.join(unusable)}.**" if unusable else ""),
             "", "| workload | mode | PyTorch autocast ms | tad bf16 ms | speedup |",
             "|---|---|---|---|---|"]
    for name, r in results.items():
        t, d = r["torch"], r["tad"]
        if "error" in t or "error" in d:
            lines.append(f"| `{name}` | not run | | | {d.get('error') or t.get('error')} |")
            continue
        for mode in MODES:
            tm, dm = t[mode]["median_ms"], d[mode]["median_ms"]
            lines.append(f"| `{name}` | {mode} | {tm:.3f} | {dm:.3f} | {tm / dm:.2f}x |")
    lines.append(end)
    report_sections.replace_section(path_md, "mixed", "\n".join(lines))


def train_step_speedups(results):
    """PyTorch time / tad time of the training step, per workload run."""
    out = {}
    for name, r in results.items():
        t, d = r["torch"], r["tad"]
        if "error" not in t and "error" not in d and d["train step"]["median_ms"]:
            out[name] = t["train step"]["median_ms"] / d["train step"]["median_ms"]
    return out


def combine_rounds(rounds):
    """One framework's result from its alternating rounds: per mode the
    median of the rounds' medians (the VM's slow spells last seconds; with
    the frameworks alternating, each sees its share of them), all their
    repetitions, the largest peak; compile time from the first round."""
    failed = [r for r in rounds if "error" in r]
    if failed:
        return failed[0]
    result = dict(rounds[0])
    for mode in MODES:
        medians = sorted(r[mode]["median_ms"] for r in rounds)
        result[mode] = {"median_ms": medians[len(medians) // 2],
                        "round_medians_ms": medians,
                        "reps": sum(r[mode]["reps"] for r in rounds),
                        "peak_mb": max(r[mode]["peak_mb"] for r in rounds)}
    return result


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 for a usable run; 3 when the load guard or the peer check marks "
               "the run unusable (the report is written with a banner, without speedups or "
               "chart; nothing is written when the idle check fails) unless --allow-load or "
               "--smoke; 2 for --target cuda without a GPU.")
    parser.add_argument("workloads", nargs="*", help="subset of workloads (default: all)")
    parser.add_argument("--worker", nargs=2, metavar=("WORKLOAD", "FRAMEWORK"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--reps", type=int, default=20,
                        help="timed runs per measurement and worker, at least (default 20)")
    parser.add_argument("--min-seconds", type=float, default=1.0,
                        help="timed seconds per measurement and worker, at least (default 1)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="worker processes per framework and workload, "
                             "alternating PyTorch and tad (default 3)")
    parser.add_argument("--smoke", action="store_true",
                        help="1 timed iteration per measurement (a test, not a benchmark); "
                             "implies --allow-load")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs"),
                        help="where benchmarks.md and benchmarks.png go (default: docs/)")
    parser.add_argument("--allow-load", action="store_true",
                        help="exit 0 even when the run is unusable (load, or PyTorch not at its "
                             "best); the report still carries the banner (debugging)")
    parser.add_argument("--inherit-env", action="store_true",
                        help="run the workers in the inherited environment (OPENBLAS_CORETYPE "
                             "etc. kept, no malloc tunables or ATEN_CPU_CAPABILITY): the "
                             "handicapped peer, for comparisons only")
    parser.add_argument("--aten-cpu-capability", default="auto",
                        choices=("auto", "default", "avx2", "avx512"),
                        help="PyTorch's kernel set (ATEN_CPU_CAPABILITY): auto (default) "
                             "times PyTorch with its own choice and with avx512 in one "
                             "calibration worker each per workload and keeps the faster; "
                             "default: PyTorch's own choice")
    parser.add_argument("--idle-check", type=float, default=3.0, metavar="SECONDS",
                        help="how long the load guard watches the machine before the run "
                             "(default 3)")
    parser.add_argument("--max-other-load", type=float, default=0.15, metavar="CORES",
                        help="other processes' CPU use allowed before and on average during "
                             "the run, in cores (default 0.15)")
    parser.add_argument("--max-worker-load", type=float, default=0.5, metavar="CORES",
                        help="other processes' CPU use allowed while any one worker runs, "
                             "in cores (default 0.5)")
    parser.add_argument("--max-steal", type=float, default=0.02, metavar="FRACTION",
                        help="steal time allowed, as a fraction of the CPU time (default 0.02)")
    parser.add_argument("--precision", choices=("f32", "bf16"), default="f32",
                        help="bf16: both frameworks in mixed precision (PyTorch's "
                             "torch.autocast, tad's precision='bf16'; docs/mixed-precision.md)")
    parser.add_argument("--target", choices=("cpu", "cuda"), default="cpu",
                        help="cuda: tad against PyTorch CUDA on a GPU (bench/gpu_bench.py)")
    parser.add_argument("--emulate", action="store_true",
                        help="with --target cuda: test the GPU benchmark without a GPU "
                             "(tad --gpu-emulate, PyTorch on the CPU; measures nothing)")
    args = parser.parse_args()
    if args.smoke:
        args.reps, args.min_seconds, args.rounds = 1, 0.0, 1
        args.idle_check = min(args.idle_check, 0.5)
        args.allow_load = True
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.worker:
        if args.target == "cuda":
            import gpu_bench as gpu
            gpu.worker(args.worker[0], args.worker[1], args.reps, args.min_seconds,
                       args.emulate, gpu._measure_time)
            return 0
        worker(args.worker[0], args.worker[1], args.reps, args.min_seconds,
               args.precision)
        return 0
    if args.emulate and args.target != "cuda":
        parser.error("--emulate needs --target cuda")
    sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
    from workloads import WORKLOADS
    names = [n for n in args.workloads if n != "matmul"] if args.workloads else list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workloads: {', '.join(unknown)} (have {', '.join(WORKLOADS)})")
    if args.target == "cuda":
        import gpu_bench as gpu
        return gpu.main(os.path.abspath(__file__), args, names)
    info = machine()
    env, removed = benchenv.worker_env(args.inherit_env)
    env_info = {"removed": removed, "inherit": args.inherit_env,
                "core_note": benchenv.core_note(env),
                "others": benchenv.other_relevant_vars(env),
                "blas_alternative": info["blas_alternative"]}
    print(f"machine: {info['cpu']}, torch {info['torch']}, libblas.so.3 -> "
          f"{info['blas_alternative']}", flush=True)
    if args.inherit_env:
        print("environment: inherited (--inherit-env)", flush=True)
    else:
        print("environment: removed " +
              (" ".join(f"{k}={v}" for k, v in removed.items()) or "nothing") + "; set " +
              " ".join(f"{k}={v}" for k, v in benchenv.settings().items()) +
              ("; " + benchenv.core_note(env) if benchenv.forced_core(env) else ""), flush=True)
    guard = benchenv.LoadGuard(args.max_other_load, args.max_worker_load, args.max_steal)
    idle = guard.check_idle(args.idle_check)
    print(f"load guard: other processes {idle['other_cores']:.2f} cores before the run", flush=True)
    if guard.problems() and not args.allow_load:
        print(f"UNUSABLE: taken under load ({'; '.join(guard.problems())}): not started, "
              "nothing written (--allow-load runs anyway)", flush=True)
        return 3
    results = {}
    peer = None
    peers = []  # what every PyTorch worker loaded
    aten = {}
    for name in names:
        aten[name] = choose_aten(name, args, env, guard)
        torch_env = env if args.inherit_env else benchenv.with_aten(env, aten[name]["choice"])
        rounds = {"torch": [], "tad": []}
        for _ in range(args.rounds):
            for fw in rounds:
                rounds[fw].append(run_worker(name, fw, args, torch_env, guard))
        peers += [r["process"] for r in rounds["torch"] if "process" in r]
        if peer is None and peers:
            peer = peers[0]
            print(f"PyTorch's BLAS: {benchenv.openblas_summary(peer)}; CPU capability "
                  f"{peer.get('torch_cpu_capability')}", flush=True)
        results[name] = {fw: combine_rounds(r) for fw, r in rounds.items()}
        t, d = results[name]["torch"], results[name]["tad"]
        if "error" in d or "error" in t:
            print(f"{name:18s} not run: {d.get('error') or t.get('error')}", flush=True)
            continue
        for mode in MODES:
            tm, dm = t[mode]["median_ms"], d[mode]["median_ms"]
            print(f"{name:18s} {mode:17s} torch {tm:9.3f} ms  tad {dm:9.3f} ms  "
                  f"ratio {dm / tm:7.3f}", flush=True)
    # (bf16 runs time the training workloads only: the f32 kernel row
    # belongs to the f32 report.)
    kernel = run_kernel(args, env, guard) if args.precision == "f32" else None
    if kernel and "error" not in kernel:
        print(f"matmul {kernel['n']}^3 f32: tad {kernel['tad_gflops']:.1f} GFLOP/s "
              f"({100 * kernel['tad_gflops'] / kernel['peak2_gflops']:.0f}% of the measured "
              f"2-thread peak {kernel['peak2_gflops']:.1f}), PyTorch "
              f"{kernel.get('torch_gflops', 0):.1f} GFLOP/s", flush=True)
        if "process" in kernel:
            peers.append(kernel["process"])
        if peer is None and "process" in kernel:
            peer = kernel["process"]
            print(f"PyTorch's BLAS: {benchenv.openblas_summary(peer)}", flush=True)
    elif kernel:
        print(f"matmul kernel failed: {kernel['error']}", flush=True)
    guard.finish()
    unusable = guard.problems()
    if unusable:
        unusable = ["taken under load (" + "; ".join(unusable) + ")"]
    peer_problems = []
    for p in peers if peers else ([None] if results or kernel else []):
        peer_problems += [q for q in benchenv.peer_problems(p) if q not in peer_problems]
    if peer_problems:
        unusable.append("PyTorch not at its best (" + "; ".join(peer_problems) + ")")
    print(f"load guard: {guard.summary()}", flush=True)
    speedups = train_step_speedups(results)
    if speedups and not unusable:
        print("train step speedup: " + ", ".join(f"{n} {x:.2f}x" for n, x in speedups.items()) +
              f"; geomean {statistics.geometric_mean(speedups.values()):.2f}x", flush=True)
    os.makedirs(args.out, exist_ok=True)
    md = os.path.join(args.out, "benchmarks.md")
    png = os.path.join(args.out, "benchmarks.png")
    if args.precision == "bf16":
        write_mixed_section(results, info, md, guard, unusable)
    else:
        write_report(results, info, args, md, png, kernel, env_info, peer, guard, unusable,
                     aten)
    for reason in unusable:
        print(f"UNUSABLE: {reason}" + (" (ignored: " + ("--smoke" if args.smoke else
                                                        "--allow-load") + ")"
                                       if args.allow_load else ""), flush=True)
    if not unusable:
        print("load guard: quiet machine, peer at its best: the run is usable", flush=True)
    print(f"wrote {md}")
    return 3 if unusable and not args.allow_load else 0


if __name__ == "__main__":
    sys.exit(main())
