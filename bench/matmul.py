#!/usr/bin/python3
"""Kernel benchmark: a plain f32 matmul N x N x N (default 1024) compiled by
tadc, against the machine's FMA peak measured here and PyTorch's matmul.

    /usr/bin/python3 bench/matmul.py [--n 1024] [--reps 15] [--json] [--inherit-env]
                                     [--precision bf16]

`--precision bf16` times the product on bf16 operands with a bf16 result
(f32 sums; what torch.autocast makes of a matmul) with tad's bf16 kernel,
tad's f32 product of the same values and PyTorch's bf16 `torch.mm`
(oneDNN), and adds the bf16 dot-product peak (VDPBF16PS chains, twice the
multiply-adds of an FMA per instruction) where the CPU has AVX512-BF16.

The peak comes from a small C program (compiled with `cc -O2 -march=native`)
that runs independent FMA chains (as many as stay in registers: 16 with
AVX-512, 12 with AVX2) on the widest vector registers the compiler targets, on 1 thread and on 2 threads: what the cores can do with
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
#if defined(__AVX512BF16__)
#include <immintrin.h>
#endif
typedef float vf __attribute__((vector_size(W)));
#define LANES (W / 4)
/* Independent chains, enough to cover the FMA latency on both pipes and
   few enough to stay in registers with the two constants: AVX-512 has 32
   vector registers, AVX2 16 (16 chains there spill to the stack every
   iteration and measured half the peak on AMD Zen 3). */
#if defined(__AVX512F__)
#define CHAINS 16
#define RCHAINS R16
#else
#define CHAINS 12
#define RCHAINS R12
#endif
static long iters;
/* 1: bf16 dot products (VDPBF16PS: 2 multiply-adds per f32 lane) instead
   of f32 FMAs. */
static int bf16;
#define R12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define R16(X) R12(X) X(12) X(13) X(14) X(15)
static void *work(void *out) {
  vf m, c, z;
  for (int i = 0; i < LANES; ++i) { m[i] = 0.999999f; c[i] = 1e-6f; z[i] = 0; }
#define DECL(j) vf a##j = z + (float)j;
  RCHAINS(DECL)
#define PIN(j) __asm__ volatile("" : "+v"(a##j));
#if defined(__AVX512BF16__)
  if (bf16) {
    __m512bh x = (__m512bh)_mm512_set1_epi16(0x3f80);
    for (long it = 0; it < iters; ++it) {
#define DOT(j) a##j = (vf)_mm512_dpbf16_ps((__m512)a##j, x, x);
      RCHAINS(DOT)
      RCHAINS(PIN)
    }
  } else
#endif
  for (long it = 0; it < iters; ++it) {
#define STEP(j) a##j = a##j * m + c;
    RCHAINS(STEP)
    RCHAINS(PIN)
  }
  float s = 0;
#define SUM(j) s += a##j[0];
  RCHAINS(SUM)
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
  bf16 = argc > 3 && argv[3][0] == 'b';
#if !defined(__AVX512BF16__)
  if (bf16) { printf("0 0\n"); return 0; }
#endif
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    pthread_t t[64]; float out[64];
    double t0 = now();
    for (int i = 0; i < threads; ++i) pthread_create(&t[i], 0, work, &out[i]);
    for (int i = 0; i < threads; ++i) pthread_join(t[i], 0);
    double s = now() - t0;
    double gflops = 2.0 * (bf16 + 1) * LANES * CHAINS * (double)iters * threads / s * 1e-9;
    if (gflops > best) best = gflops;
  }
  printf("%.2f %d\n", best, W * 8);
  return 0;
}
"""


def fma_peak(threads, tmp, bf16=False):
    """GFLOP/s of independent f32 FMA chains per thread (16 with AVX-512,
    12 without; bf16: VDPBF16PS chains, 0 where the compiler does not
    target AVX512-BF16), and the vector width."""
    src = os.path.join(tmp, "peak.c")
    exe = os.path.join(tmp, "peak")
    if not os.path.exists(exe):
        with open(src, "w") as f:
            f.write(PEAK_C)
        cc = next((c for c in ("cc", "clang-22", "gcc") if subprocess.run(
            ["which", c], capture_output=True).returncode == 0), "cc")
        subprocess.run([cc, "-O2", "-march=native", "-ffp-contract=fast", src,
                        "-o", exe, "-lpthread"], check=True)
    out = subprocess.run([exe, str(threads), "20000000"] + (["bf16"] if bf16 else []),
                         capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


MODULE = """
func.func @mm(%a: tensor<{m}x{k}x{t}>, %b: tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{t}> {{
  %0 = tad.mm %a, %b : (tensor<{m}x{k}x{t}>, tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{t}>
  return %0 : tensor<{m}x{n}x{t}>
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


def run(n=1024, reps=15, extra_args=(), rounds=5, m=None, k=None, precision="f32"):
    """C[m, n] = A[m, k] B[k, n] (m and k default to n). precision "bf16":
    bf16 operands and result (f32 sums), what torch.autocast makes of a
    product, beside tad's f32 product of the same values ("tad_f32")."""
    sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
    import numpy as np
    import tad
    m, k = m or n, k or n
    result = {"n": n, "m": m, "k": k, "reps": reps, "rounds": rounds,
              "precision": precision, "load": os.getloadavg()[0]}
    peak_dir = tempfile.TemporaryDirectory(prefix="tad-peak-")
    result["peak1_gflops"], result["vector_bits"] = fma_peak(1, peak_dir.name)
    result["peak2_gflops"], _ = fma_peak(2, peak_dir.name)
    if precision == "bf16":
        result["bf16_peak1_gflops"], _ = fma_peak(1, peak_dir.name, bf16=True)
        result["bf16_peak2_gflops"], _ = fma_peak(2, peak_dir.name, bf16=True)
    flops = 2.0 * m * n * k
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    if precision == "bf16":
        # The same bf16 values for every framework (and f32 for tad's f32).
        a_bits, b_bits = tad.float32_to_bf16_bits(a), tad.float32_to_bf16_bits(b)
        a, b = tad.bf16_bits_to_float32(a_bits), tad.bf16_bits_to_float32(b_bits)
    start = time.perf_counter()
    module = tad.compile(MODULE.format(m=m, n=n, k=k, t=precision), opt_level=3,
                         extra_args=list(extra_args))
    result["compile_s"] = time.perf_counter() - start
    ref = a.astype(np.float64) @ b.astype(np.float64)
    if precision == "bf16":
        f32_module = tad.compile(MODULE.format(m=m, n=n, k=k, t="f32"), opt_level=3,
                                 extra_args=list(extra_args))
        c = tad.bf16_bits_to_float32(np.asarray(module.mm(a_bits, b_bits)).view(np.uint16))
        calls = {"tad": lambda: module.mm(a_bits, b_bits),
                 "tad_f32": lambda: f32_module.mm(a, b)}
    else:
        c = module.mm(a, b)
        calls = {"tad": lambda: module.mm(a, b)}
    result["max_rel_error"] = float(np.abs(c - ref).max() / np.abs(ref).max())
    try:
        import torch
        torch.set_num_threads(benchenv.THREADS)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        if precision == "bf16":
            ta, tb = ta.to(torch.bfloat16), tb.to(torch.bfloat16)
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
    for key, bf16 in (("", False), ("bf16_", True)):
        if bf16 and precision != "bf16":
            continue
        for threads in (1, 2):
            name = f"{key}peak{threads}_gflops"
            result[name] = max(result[name], fma_peak(threads, peak_dir.name, bf16)[0])
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
    parser.add_argument("--precision", choices=("f32", "bf16"), default="f32",
                        help="bf16: bf16 operands and result with f32 sums (tad's bf16 "
                             "kernel beside its f32 one, PyTorch's bf16 mm); the peak "
                             "line adds VDPBF16PS chains where the CPU has AVX512-BF16")
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
        print(json.dumps(run(args.n, args.reps, args.tadc_args, args.rounds, args.m, args.k,
                args.precision)))
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
        r = run(args.n, args.reps, args.tadc_args, args.rounds, args.m, args.k,
                args.precision)
    guard.finish()
    proc = r["process"]
    print(f"PyTorch's BLAS: {benchenv.openblas_summary(proc)}; libblas.so.3 -> "
          f"{benchenv.blas_alternative()}")
    print(f"FMA peak ({r['vector_bits']}-bit vectors): {r['peak1_gflops']:.1f} GFLOP/s on 1 "
          f"thread, {r['peak2_gflops']:.1f} on 2")
    shape = (f"{args.n}^3" if r["m"] == r["n"] == r["k"]
             else f"{r['m']}x{r['n']}x{r['k']}")
    t = args.precision
    # bf16 products are measured against the bf16 dot peak where the CPU
    # has one (else against the f32 FMA peak, what the products run on).
    peak = "bf16_" if r.get("bf16_peak2_gflops") else ""
    if t == "bf16":
        print("bf16 dot peak (VDPBF16PS): " + (
            f"{r['bf16_peak1_gflops']:.1f} GFLOP/s on 1 thread, "
            f"{r['bf16_peak2_gflops']:.1f} on 2" if r["bf16_peak2_gflops"]
            else "none (no AVX512-BF16)"))
    print(f"tad   matmul {shape} {t}: {r['tad_ms']:8.2f} ms  {r['tad_gflops']:6.1f} GFLOP/s  "
          f"{100 * r['tad_gflops'] / r[peak + 'peak1_gflops']:5.1f}% of 1-thread peak, "
          f"{100 * r['tad_gflops'] / r[peak + 'peak2_gflops']:5.1f}% of 2-thread peak "
          f"(max rel. error {r['max_rel_error']:.1e})")
    if "tad_f32_ms" in r:
        print(f"tad   matmul {shape} f32:  {r['tad_f32_ms']:8.2f} ms  "
              f"{r['tad_f32_gflops']:6.1f} GFLOP/s  "
              f"{100 * r['tad_f32_gflops'] / r['peak2_gflops']:5.1f}% of 2-thread f32 peak; "
              f"bf16/f32 speed {r['tad_f32_ms'] / r['tad_ms']:.2f}x")
    if "torch_ms" in r:
        print(f"torch matmul {shape} {t}: {r['torch_ms']:8.2f} ms  {r['torch_gflops']:6.1f} "
              f"GFLOP/s  {100 * r['torch_gflops'] / r[peak + 'peak2_gflops']:5.1f}% of "
              "2-thread peak")
    print(f"load guard: {guard.summary()}")
    unusable = guard.problems() + (benchenv.peer_problems(proc) if "torch_ms" in r else [])
    for reason in unusable:
        print(f"UNUSABLE: {reason}" + (" (ignored: --allow-load)" if args.allow_load else ""))
    return 3 if unusable and not args.allow_load else 0


if __name__ == "__main__":
    sys.exit(main())
