#!/usr/bin/python3
"""The shape sweep: tad against PyTorch eager on shapes nobody tuned for.

    /usr/bin/python3 bench/sweep.py                      # every point (hours), writes the
                                                         # sweep section of docs/benchmarks.md
    /usr/bin/python3 bench/sweep.py --quick              # one point or two per group
    /usr/bin/python3 bench/sweep.py --group conv --group mm
    /usr/bin/python3 bench/sweep.py --smoke --out /tmp/s linear-b32-w256-gelu mm-16x64x64
    /usr/bin/python3 bench/sweep.py --list
    /usr/bin/python3 bench/sweep.py --precision bf16 conv-64to64-56-k3-s1-b8   # mixed precision

The points (bench/sweep_points.py) are Linear stacks over batch x width
(GELU + LayerNorm or ReLU), convolutions at the layer shapes of ResNet-
and MobileNet-style networks (3x3 stride 1 and 2 with BatchNorm + ReLU,
early 3-channel layers, depthwise and 1x1), self-attention over sequence x
width x heads (causal and not), LayerNorm/softmax/GELU at activation sizes,
and the raw f32 matmul over (m, n, k) in {16, 64, 256, 1024, 4096}^3.

Each model point runs exactly like a workload of bench/run.py (whose worker
processes, fair-peer environment, per-point choice of PyTorch's kernel set,
alternating rounds and load guard it uses): forward, forward+backward and
the SGD training step, float32, 2 threads each. An mm point runs
bench/matmul.py for that shape (tad and torch.mm alternating, GFLOP/s and
the share of the measured 2-thread FMA peak).

The report (a table per group and a heatmap of PyTorch time / tad time)
replaces the part of benchmarks.md between `<!-- sweep-begin -->` and
`<!-- sweep-end -->` (bench/run.py keeps it when it rewrites the rest) and
writes benchmarks-sweep.png. With --precision bf16 the model points run in
mixed precision (PyTorch under torch.autocast(bfloat16), tad's
precision="bf16" and tad's f32 step beside it) into the section between
`<!-- sweep-bf16-begin -->` and `<!-- sweep-bf16-end -->`. Exit status as
bench/run.py: 3 when the run is unusable (load, or PyTorch not at its best)
unless --allow-load or --smoke.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchenv  # noqa: E402
import run as bench  # noqa: E402  (the workers, rounds and peer of bench/run.py)
import sweep_points  # noqa: E402
from report_sections import replace_section  # noqa: E402

SECTION = "sweep"
#: The section of ``--precision bf16`` (model points only).
SECTION_BF16 = "sweep-bf16"


def run_point(name, args, env, guard):
    """One model point: {"torch": ..., "tad": ...} combined over the rounds."""
    aten = bench.choose_aten(name, args, env, guard)
    torch_env = env if args.inherit_env else benchenv.with_aten(env, aten["choice"])
    rounds = {"torch": [], "tad": []}
    # In mixed precision, tad's f32 step too: what bf16 gains over it.
    if args.precision != "f32":
        rounds["tad_f32"] = []
    f32_args = argparse.Namespace(**{**vars(args), "precision": "f32"})
    for _ in range(args.rounds):
        for fw in rounds:
            rounds[fw].append(bench.run_worker(name, "tad" if fw == "tad_f32" else fw,
                                               f32_args if fw == "tad_f32" else args,
                                               torch_env, guard))
    result = {fw: bench.combine_rounds(r) for fw, r in rounds.items()}
    result["aten"] = aten["choice"]
    return result


def run_mm(name, args, env, guard):
    """One mm point through bench/matmul.py."""
    m, n, k = sweep_points.mm_shape(name)
    cmd = [sys.executable, os.path.join(HERE, "matmul.py"), "--json", "--m", str(m),
           "--n", str(n), "--k", str(k)]
    if args.smoke:
        cmd += ["--reps", "1", "--rounds", "1"]
    else:
        cmd += ["--rounds", str(max(args.rounds, 3))]
    if args.inherit_env:
        cmd.append("--inherit-env")
    with guard.window(name):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"error": (proc.stderr.strip().splitlines() or ["(no output)"])[-1]}
    return json.loads(lines[-1])


def speedup(result, mode):
    """PyTorch time / tad time of a model point in `mode` (None if not run)."""
    t, d = result.get("torch", {}), result.get("tad", {})
    if "error" in t or "error" in d or mode not in t or mode not in d:
        return None
    return t[mode]["median_ms"] / d[mode]["median_ms"]


def mm_speedup(result):
    if "error" in result or "torch_ms" not in result:
        return None
    return result["torch_ms"] / result["tad_ms"]


def section(results, args, unusable, png_name, conditions):
    """The sweep section of benchmarks.md; ``conditions``: the machine and
    PyTorch's BLAS, one sentence."""
    lines = [f"<!-- {SECTION}-begin -->", "## Shape sweep (`bench/sweep.py`)", ""]
    if unusable:
        lines += ["> **UNUSABLE: " + "; ".join(unusable) + ".** The times below do not "
                  "describe tad or PyTorch.", ""]
    lines += [f"Command: `/usr/bin/python3 bench/sweep.py"
              f"{' ' + ' '.join(sys.argv[1:]) if sys.argv[1:] else ''}` "
              f"({time.strftime('%Y-%m-%d')}); {conditions}; float32, 2 threads each, the fair peer of "
              "`bench/run.py` (its environment, its per-point choice of PyTorch's kernel set), "
              f"{args.rounds} alternating round(s). Speedup = PyTorch time / tad time "
              "(> 1: tad faster).", ""]
    models = {n: r for n, r in results.items() if not sweep_points.mm_shape(n)}
    if models:
        lines += ["| point | shape | fwd+bwd speedup | train step speedup | tad train step ms "
                  "| PyTorch train step ms |", "|---|---|---|---|---|---|"]
        for name, r in models.items():
            fb, ts = speedup(r, "forward+backward"), speedup(r, "train step")
            if fb is None or ts is None:
                why = r["tad"].get("error") or r["torch"].get("error") or "not run"
                lines.append(f"| `{name}` | {sweep_points.describe(name)} | — | — | not run: "
                             f"{why} | |")
                continue
            lines.append(f"| `{name}` | {sweep_points.describe(name)} | {fb:.2f}x | {ts:.2f}x "
                         f"| {r['tad']['train step']['median_ms']:.3f} "
                         f"| {r['torch']['train step']['median_ms']:.3f} |")
        lines.append("")
    mms = {n: r for n, r in results.items() if sweep_points.mm_shape(n)}
    if mms:
        lines += ["| mm m x n x k | tad GFLOP/s | % of 2-thread peak | PyTorch GFLOP/s "
                  "| speedup |", "|---|---|---|---|---|"]
        for name, r in mms.items():
            if "error" in r:
                lines.append(f"| {name[3:]} | not run: {r['error']} | | | |")
                continue
            s = mm_speedup(r)
            lines.append(f"| {name[3:]} | {r['tad_gflops']:.1f} "
                         f"| {100 * r['tad_gflops'] / r['peak2_gflops']:.0f}% "
                         f"| {r.get('torch_gflops', 0):.1f} | "
                         f"{'—' if s is None else f'{s:.2f}x'} |")
        lines.append("")
    all_speedups = [s for s in ([speedup(r, "train step") for r in models.values()] +
                                [mm_speedup(r) for r in mms.values()]) if s]
    if all_speedups and not unusable:
        below = sum(s < 1.0 for s in all_speedups)
        lines += [f"Geometric mean speedup over the {len(all_speedups)} points run "
                  f"(train step; mm: the call): "
                  f"{statistics.geometric_mean(all_speedups):.2f}x; {below} point(s) below 1.0x.",
                  ""]
        if png_name:
            lines += [f"![PyTorch time / tad time per sweep point]({png_name})", ""]
    lines.append(f"<!-- {SECTION}-end -->")
    return "\n".join(lines)


def section_bf16(results, args, unusable, conditions):
    """The mixed-precision sweep section (``--precision bf16``): PyTorch
    under torch.autocast(bfloat16) against tad's precision="bf16" step, and
    tad's bf16 step against its own f32 one."""
    lines = [f"<!-- {SECTION_BF16}-begin -->",
             "## Shape sweep in mixed precision (`bench/sweep.py --precision bf16`)", ""]
    if unusable:
        lines += ["> **UNUSABLE: " + "; ".join(unusable) + ".** The times below do not "
                  "describe tad or PyTorch.", ""]
    lines += [f"Command: `/usr/bin/python3 bench/sweep.py {' '.join(sys.argv[1:])}` "
              f"({time.strftime('%Y-%m-%d')}); {conditions}; PyTorch under "
              "`torch.autocast(\"cpu\", torch.bfloat16)`, tad's "
              "`compile_train_step(..., precision=\"bf16\")` (f32 master weights; "
              "docs/mixed-precision.md), tad's f32 step beside them; 2 threads each, the fair "
              f"peer of `bench/run.py`, {args.rounds} alternating round(s). Speedup = PyTorch "
              "time / tad time.", "",
              "| point | shape | tad bf16 train step ms | tad f32 train step ms | bf16 / f32 "
              "| PyTorch autocast train step ms | speedup vs autocast |",
              "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        step = {fw: r.get(fw, {}).get("train step", {}).get("median_ms")
                for fw in ("tad", "tad_f32", "torch")}
        if step["tad"] is None or step["torch"] is None:
            why = r["tad"].get("error") or r["torch"].get("error") or "not run"
            lines.append(f"| `{name}` | {sweep_points.describe(name)} | not run: {why} "
                         "| | | | |")
            continue
        bf16, f32 = step["tad"], step["tad_f32"]
        gain = "—" if f32 is None else f"{f32 / bf16:.2f}x"
        lines.append(f"| `{name}` | {sweep_points.describe(name)} | {bf16:.3f} "
                     f"| {'—' if f32 is None else f'{f32:.3f}'} | {gain} "
                     f"| {step['torch']:.3f} | {step['torch'] / bf16:.2f}x |")
    lines += ["", f"<!-- {SECTION_BF16}-end -->"]
    return "\n".join(lines)


def heatmap(results, path_png):
    """One row per point, columns fwd+bwd and train step (mm: the call),
    colored by log2 of the speedup."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
    except ImportError:
        return False
    names = list(results)
    values = np.full((len(names), 2), np.nan)
    for i, name in enumerate(names):
        r = results[name]
        if sweep_points.mm_shape(name):
            values[i, :] = mm_speedup(r) or np.nan
        else:
            values[i, 0] = speedup(r, "forward+backward") or np.nan
            values[i, 1] = speedup(r, "train step") or np.nan
    fig, ax = plt.subplots(figsize=(6, max(3, 0.22 * len(names) + 1)))
    image = ax.imshow(np.log2(values), cmap="RdYlGn", vmin=-3, vmax=3, aspect="auto")
    ax.set_xticks([0, 1], ["fwd+bwd", "train step"])
    ax.set_yticks(range(len(names)), names, fontsize=7)
    bar = fig.colorbar(image, ax=ax)
    bar.set_label("log2(PyTorch time / tad time); > 0: tad faster")
    fig.tight_layout()
    fig.savefig(path_png, dpi=100)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("points", nargs="*", help="points to run (default: the groups)")
    parser.add_argument("--group", action="append", choices=sorted(sweep_points.GROUPS),
                        help="a group of points (repeatable; default: all groups)")
    parser.add_argument("--quick", action="store_true",
                        help="a few points per group (bench/sweep_points.py QUICK)")
    parser.add_argument("--list", action="store_true", help="print the points and exit")
    parser.add_argument("--smoke", action="store_true",
                        help="1 timed iteration, 1 round (a test, not a benchmark); implies "
                             "--allow-load")
    parser.add_argument("--rounds", type=int, default=2,
                        help="worker processes per framework and point, alternating (default 2)")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--min-seconds", type=float, default=0.5)
    parser.add_argument("--out", default=os.path.join(bench.ROOT, "docs"),
                        help="where benchmarks.md and benchmarks-sweep.png go (default: docs/)")
    parser.add_argument("--allow-load", action="store_true")
    parser.add_argument("--precision", choices=("f32", "bf16"), default="f32",
                        help="bf16: the model points in mixed precision (PyTorch's "
                             "torch.autocast, tad's precision='bf16', and tad's f32 step); "
                             "its own section of benchmarks.md, no heatmap; mm points are "
                             "f32 only (bench/run.py --precision bf16 matmul has bf16 mm)")
    parser.add_argument("--inherit-env", action="store_true",
                        help="the inherited environment (the handicapped peer; comparisons)")
    parser.add_argument("--aten-cpu-capability", default="auto",
                        choices=("auto", "default", "avx2", "avx512"))
    parser.add_argument("--idle-check", type=float, default=3.0)
    parser.add_argument("--max-other-load", type=float, default=0.15)
    parser.add_argument("--max-worker-load", type=float, default=0.5)
    parser.add_argument("--max-steal", type=float, default=0.02)
    args = parser.parse_args()
    if args.smoke:
        args.reps, args.min_seconds, args.rounds = 1, 0.0, 1
        args.idle_check = min(args.idle_check, 0.5)
        args.allow_load = True
    if args.points:
        names = args.points
    elif args.quick:
        names = list(sweep_points.QUICK)
    else:
        names = [p for g in (args.group or sweep_points.GROUPS) for p in sweep_points.GROUPS[g]]
    if args.precision != "f32":
        names = [n for n in names if not sweep_points.mm_shape(n)]
    unknown = [n for n in names if not (sweep_points.is_point(n) or sweep_points.mm_shape(n))]
    if unknown:
        parser.error(f"unknown points: {', '.join(unknown)} (see --list)")
    if args.list:
        for name in names:
            print(name if sweep_points.mm_shape(name)
                  else f"{name:32s} {sweep_points.describe(name)}")
        return 0

    env, removed = benchenv.worker_env(args.inherit_env)
    print("environment: " + ("inherited (--inherit-env)" if args.inherit_env else
                             "removed " + (" ".join(f"{k}={v}" for k, v in removed.items())
                                           or "nothing")
                             + ("; " + benchenv.core_note(env)
                                if benchenv.forced_core(env) else "")), flush=True)
    guard = benchenv.LoadGuard(args.max_other_load, args.max_worker_load, args.max_steal)
    idle = guard.check_idle(args.idle_check)
    print(f"load guard: other processes {idle['other_cores']:.2f} cores before the run",
          flush=True)
    if guard.problems() and not args.allow_load:
        print(f"UNUSABLE: taken under load ({'; '.join(guard.problems())}): not started, "
              "nothing written (--allow-load runs anyway)", flush=True)
        return 3
    results, peers = {}, []
    for name in names:
        if sweep_points.mm_shape(name):
            r = results[name] = run_mm(name, args, env, guard)
            if "error" in r:
                print(f"{name:32s} not run: {r['error']}", flush=True)
                continue
            peers += [r["process"]] if "process" in r else []
            s = mm_speedup(r)
            print(f"{name:32s} tad {r['tad_gflops']:7.1f} GFLOP/s "
                  f"({100 * r['tad_gflops'] / r['peak2_gflops']:3.0f}% of peak)  PyTorch "
                  f"{r.get('torch_gflops', 0):7.1f} GFLOP/s  speedup "
                  f"{'—' if s is None else f'{s:.2f}x'}", flush=True)
            continue
        r = results[name] = run_point(name, args, env, guard)
        peers += [r["torch"]["process"]] if "process" in r["torch"] else []
        fb, ts = speedup(r, "forward+backward"), speedup(r, "train step")
        if fb is None or ts is None:
            print(f"{name:32s} not run: {r['tad'].get('error') or r['torch'].get('error')}",
                  flush=True)
            continue
        if args.precision != "f32":
            f32 = r.get("tad_f32", {}).get("train step", {}).get("median_ms")
            bf16 = r["tad"]["train step"]["median_ms"]
            print(f"{name:32s} bf16 train step {ts:6.2f}x vs autocast  (tad {bf16:.3f} ms, "
                  f"PyTorch {r['torch']['train step']['median_ms']:.3f} ms, tad f32 "
                  f"{'—' if f32 is None else f'{f32:.3f}'} ms)", flush=True)
            continue
        print(f"{name:32s} fwd+bwd {fb:6.2f}x  train step {ts:6.2f}x  (tad "
              f"{r['tad']['train step']['median_ms']:.3f} ms, PyTorch "
              f"{r['torch']['train step']['median_ms']:.3f} ms)", flush=True)
    guard.finish()
    unusable = guard.problems()
    if unusable:
        unusable = ["taken under load (" + "; ".join(unusable) + ")"]
    peer_problems = []
    for p in peers or [None]:
        peer_problems += [q for q in benchenv.peer_problems(p) if q not in peer_problems]
    if peer_problems:
        unusable.append("PyTorch not at its best (" + "; ".join(peer_problems) + ")")
    print(f"load guard: {guard.summary()}", flush=True)
    os.makedirs(args.out, exist_ok=True)
    md = os.path.join(args.out, "benchmarks.md")
    conditions = (f"on {bench.machine()['cpu']}, PyTorch's BLAS "
                  f"{benchenv.openblas_summary(peers[0] if peers else None)}"
                  + ("; " + benchenv.core_note(env) if benchenv.forced_core(env) else ""))
    if args.precision != "f32":
        replace_section(md, SECTION_BF16, section_bf16(results, args, unusable, conditions))
    else:
        png = os.path.join(args.out, "benchmarks-sweep.png")
        drawn = not unusable and heatmap(results, png)
        replace_section(md, SECTION, section(results, args, unusable,
                                             os.path.basename(png) if drawn else None,
                                             conditions))
    for reason in unusable:
        print(f"UNUSABLE: {reason}" + (" (ignored)" if args.allow_load else ""), flush=True)
    print(f"wrote {md}")
    return 3 if unusable and not args.allow_load else 0


if __name__ == "__main__":
    sys.exit(main())
