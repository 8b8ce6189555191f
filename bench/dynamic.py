#!/usr/bin/python3
"""tad's training step compiled for one batch size against the same step
compiled once for every batch size (docs/dynamic-shapes.md).

    /usr/bin/python3 bench/dynamic.py                  # mlp_small, mlp
    /usr/bin/python3 bench/dynamic.py mlp --reps 50
    /usr/bin/python3 bench/dynamic.py --smoke          # 1 iteration (the lit test)

For each workload of bench/workloads.py that compiles with a dynamic batch,
both modules run in this process, alternating static and dynamic per
repetition (so a slow spell of the machine hits both), at the workload's
batch size; the report gives the median time of each of forward (the loss),
forward+backward and the SGD step, and the ratio dynamic/static (the
issue's target: at most 1.10). Workloads that do not compile with a
dynamic batch are listed with the compiler's or importer's reason. The
environment is bench/benchenv.py's (two threads,
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed, malloc tunables). No load
guard: run it on a quiet machine.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

MODES = ("forward", "forward+backward", "train step")


def measure(name, reps):
    import tad
    import torch
    import workloads
    torch.manual_seed(0)
    model, inputs, targets, loss_fn = workloads.get(name)
    steps = {}
    for dynamic in (False, True):
        try:
            steps[dynamic] = tad.compile_train_step(
                model, inputs, targets, loss_fn, optimizer=tad.SGD(lr=1e-3),
                dynamic_batch=dynamic)
        except (tad.TadImportError, tad.CompileError, ValueError) as e:
            reason = [line for line in str(e).splitlines() if "error:" in line]
            return {"error": (reason or str(e).splitlines())[0].strip()}
    fns = {d: workloads.tad_step_calls(s, inputs, targets)
           for d, s in steps.items()}
    row = {}
    for mode, k in zip(MODES, range(3)):
        times = {False: [], True: []}
        for d in (False, True):
            fns[d][k]()  # warm up
        for _ in range(reps):
            for d in (False, True):
                start = time.perf_counter()
                fns[d][k]()
                times[d].append(time.perf_counter() - start)
        row[mode] = (statistics.median(times[False]), statistics.median(times[True]))
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workloads", nargs="*", default=["mlp_small", "mlp"])
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="one repetition")
    args = parser.parse_args()
    import benchenv
    benchenv.ensure()  # re-executes in the benchmark's environment
    reps = 1 if args.smoke else args.reps
    print("| workload | mode | static (ms) | dynamic batch (ms) | dynamic / static |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name in args.workloads:
        row = measure(name, reps)
        if "error" in row:
            print(f"| {name} | not compiled with a dynamic batch: {row['error']} | | | |")
            continue
        for mode in MODES:
            static, dynamic = row[mode]
            print(f"| {name} | {mode} | {static * 1e3:.3f} | {dynamic * 1e3:.3f} "
                  f"| {dynamic / static:.2f} |")


if __name__ == "__main__":
    main()
