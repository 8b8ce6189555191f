#!/usr/bin/python3
"""Kernel benchmark: a plain f32 matmul N x N x N (default 1024) compiled by
tadc, against the machine's FMA peak measured here and PyTorch's matmul.

    /usr/bin/python3 bench/matmul.py [--n 1024] [--reps 15] [--json] [--inherit-env]

The peak comes from a small C program (compiled with `cc -O2 -march=native`)
that runs 16 independent FMA chains on the widest vector registers the
compiler targets, on 1 thread and on 2 threads: what the cores can do with
no memory traffic at all (measured before and after the timing, the higher
kept). bench/run.py calls this and puts the result into
docs/benchmarks.md.

It runs (re-executing itself if needed) in the environment of bench/run.py's
workers (bench/benchenv.py): OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed,
2 threads, the glibc malloc tunables and ATEN_CPU_CAPABILITY set; it prints
them, the BLAS PyTorch loaded with OpenBLAS's core name, and what the load
guard saw (other processes' CPU use before and during the timing, steal).
Run alone, a run under load or with PyTorch not at its best exits with status
3 unless --allow-load; with --json (bench/run.py) the caller judges.
`--inherit-env` keeps the inherited environment (for comparisons).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import benchenv  # noqa: E402

PEAK_C = r"""
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__AVX512F__)
#define W 64
#elif defined(__AVX__)
#define W 32
#else
#define W 16
#endif
typedef float vf __attribute__((vector_size(W)));
#define LANES (W / 4)
#define CHAINS 16
static long iters;
#define R16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
static void *work(void *out) {
  vf m, c, z;
  for (int i = 0; i < LANES; ++i) { m[i] = 0.999999f; c[i] = 1e-6f; z[i] = 0; }
#define DECL(j) vf a##j = z + (float)j;
  R16(DECL)
  for (long it = 0; it < iters; ++it) {
#define STEP(j) a##j = a##j * m + c;
    R16(STEP)
#define PIN(j) __asm__ volatile("" : "+v"(a##j));
    R16(PIN)
  }
  float s = 0;
#define SUM(j) s += a##j[0];
  R16(SUM)
  *(float *)out = s;
  return 0;
}
static double now(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
  int threads = atoi(argv[1]);
  iters = atol(argv[2]);
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    pthread_t t[64]; float out[64];
    double t0 = now();
    for (int i = 0; i < threads; ++i) pthread_create(&t[i], 0, work, &out[i]);
    for (int i = 0; i < threads; ++i) pthread_join(t[i], 0);
    double s = now() - t0;
    double gflops = 2.0 * LANES * CHAINS * (double)iters * threads / s * 1e-9;
    if (gflops > best) best = gflops;
  }
  printf("%.2f %d\n", best, W * 8);
  return 0;
}
"""


def fma_peak(threads, tmp):
    src = os.path.join(tmp, "peak.c")
    exe = os.path.join(tmp, "peak")
    if not os.path.exists(exe):
        with open(src, "w") as f:
            f.write(PEAK_C)
        cc = next((c for c in ("cc", "clang-22", "gcc") if subprocess.run(
            ["which", c], capture_output=True).returncode == 0), "cc")
        subprocess.run([cc, "-O2", "-march=native", "-ffp-contract=fast", src,
                        "-o", exe, "-lpthread"], check=True)
    out = subprocess.run([exe, str(threads), "20000000"], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


MODULE = """
func.func @mm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %0 = tad.mm %a, %b : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %0 : tensor<{m}x{n}xf32>
}}
"""


def median_time(fn, reps, min_seconds=0.25):
    """Median of at least `reps` calls, and of as many as fill `min_seconds`:
    a 0.3 ms call timed 15 times measured the first point of a sweep at half
    its speed (thread pools and clocks still spinning up), so calls are
    warmed up for a tenth of that window first."""
    start = time.perf_counter()
    calls = 0
    while calls < 2 or time.perf_counter() - start < min_seconds / 10:
        fn()
        calls += 1
    one = (time.perf_counter() - start) / calls
    reps = max(reps, int(min_seconds / max(one, 1e-9)))
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2]


def run(n=1024, reps=15, extra_args=(), rounds=5, m=None, k=None):
    """C[m, n] = A[m, k] B[k, n] (m and k default to n)."""
    sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
    import numpy as np
    import tad
    m, k = m or n, k or n
    result = {"n": n, "m": m, "k": k, "reps": reps, "rounds": rounds,
              "load": os.getloadavg()[0]}
    peak_dir = tempfile.TemporaryDirectory(prefix="tad-peak-")
    result["peak1_gflops"], result["vector_bits"] = fma_peak(1, peak_dir.name)
    result["peak2_gflops"], _ = fma_peak(2, peak_dir.name)
    flops = 2.0 * m * n * k
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    start = time.perf_counter()
    module = tad.compile(MODULE.format(m=m, n=n, k=k), opt_level=3,
                         extra_args=list(extra_args))
    result["compile_s"] = time.perf_counter() - start
    c = module.mm(a, b)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    result["max_rel_error"] = float(np.abs(c - ref).max() / np.abs(ref).max())
    calls = {"tad": lambda: module.mm(a, b)}
    try:
        import torch
        torch.set_num_threads(benchenv.THREADS)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        calls["torch"] = lambda: torch.mm(ta, tb)
    except ImportError:
        pass
    # Rounds alternate tad and PyTorch; a time is the median of the rounds'
    # medians, so that a slow spell of the VM (the host taking a core for a
    # second) does not decide the result for one of them.
    medians = {who: [] for who in calls}
    for _ in range(rounds):
        for who, fn in calls.items():
            medians[who].append(median_time(fn, reps))
    for who, times in medians.items():
        t = sorted(times)[len(times) // 2]
        result[f"{who}_ms"] = 1e3 * t
        result[f"{who}_gflops"] = flops / t * 1e-9
    # Again after the timing, keeping the higher: on a VM whose host takes a
    # core away for a while, one measurement can see a single core's worth
    # (a 2-thread "peak" of 117 GFLOP/s, seen in a run on 2026-11-23).
    result["peak1_gflops"] = max(result["peak1_gflops"], fma_peak(1, peak_dir.name)[0])
    result["peak2_gflops"] = max(result["peak2_gflops"], fma_peak(2, peak_dir.name)[0])
    peak_dir.cleanup()
    result["process"] = benchenv.process_info()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--m", type=int, default=None, help="rows of A and C (default: n)")
    parser.add_argument("--k", type=int, default=None, help="columns of A (default: n)")
    parser.add_argument("--reps", type=int, default=15, help="calls per round")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds, alternating tad and PyTorch (default 5)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON line for bench/run.py (no load guard of its own)")
    parser.add_argument("--inherit-env", action="store_true",
                        help="keep the inherited environment (the handicapped peer)")
    parser.add_argument("--allow-load", action="store_true",
                        help="exit 0 even when the load guard or the peer check trips")
    parser.add_argument("tadc_args", nargs="*", help="extra tadc arguments (after --)")
    args = parser.parse_args()
    benchenv.ensure(args.inherit_env)
    if args.json:
        print(json.dumps(run(args.n, args.reps, args.tadc_args, args.rounds, args.m, args.k)))
        return 0
    env, removed = benchenv.worker_env(args.inherit_env)
    if args.inherit_env:
        print("environment: inherited (--inherit-env)")
    else:
        print("environment: removed " +
              (" ".join(f"{k}={v}" for k, v in removed.items()) or "nothing") + "; set " +
              " ".join(f"{k}={v}" for k, v in benchenv.settings().items()) +
              "; ATEN_CPU_CAPABILITY unset (torch.mm calls OpenBLAS's sgemm)" +
              ("; " + benchenv.core_note(env) if benchenv.forced_core(env) else ""))
    others = benchenv.other_relevant_vars()
    if others:
        print("other inherited: " + " ".join(f"{k}={v}" for k, v in others.items()))
    guard = benchenv.LoadGuard()
    guard.check_idle(2.0)
    with guard.window("matmul"):
        r = run(args.n, args.reps, args.tadc_args, args.rounds, args.m, args.k)
    guard.finish()
    proc = r["process"]
    print(f"PyTorch's BLAS: {benchenv.openblas_summary(proc)}; libblas.so.3 -> "
          f"{benchenv.blas_alternative()}")
    print(f"FMA peak ({r['vector_bits']}-bit vectors): {r['peak1_gflops']:.1f} GFLOP/s on 1 "
          f"thread, {r['peak2_gflops']:.1f} on 2")
    shape = (f"{args.n}^3" if r["m"] == r["n"] == r["k"]
             else f"{r['m']}x{r['n']}x{r['k']}")
    print(f"tad   matmul {shape} f32: {r['tad_ms']:8.2f} ms  {r['tad_gflops']:6.1f} GFLOP/s  "
          f"{100 * r['tad_gflops'] / r['peak1_gflops']:5.1f}% of 1-thread peak, "
          f"{100 * r['tad_gflops'] / r['peak2_gflops']:5.1f}% of 2-thread peak "
          f"(max rel. error {r['max_rel_error']:.1e})")
    if "torch_ms" in r:
        print(f"torch matmul {shape} f32: {r['torch_ms']:8.2f} ms  {r['torch_gflops']:6.1f} "
              f"GFLOP/s  {100 * r['torch_gflops'] / r['peak2_gflops']:5.1f}% of 2-thread peak")
    print(f"load guard: {guard.summary()}")
    unusable = guard.problems() + (benchenv.peer_problems(proc) if "torch_ms" in r else [])
    for reason in unusable:
        print(f"UNUSABLE: {reason}" + (" (ignored: --allow-load)" if args.allow_load else ""))
    return 3 if unusable and not args.allow_load else 0


if __name__ == "__main__":
    sys.exit(main())
