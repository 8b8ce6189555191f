"""The conditions of a benchmark run: the environment both frameworks'
processes get, what the loaded BLAS is, and the load guard.

The environment (``worker_env``):

- removes ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE``: machines of our kind
  set them for old OpenBLAS builds, and they force OpenBLAS onto its AVX2
  (Haswell) kernels and a wrong L2 size on AVX-512 CPUs; without them
  OpenBLAS picks its kernels from the CPU it runs on;
- sets ``OPENBLAS_CORETYPE`` only where OpenBLAS does not know the CPU
  (``openblas_core``): an OpenBLAS older than the CPU falls back to its
  SSE3 ``Prescott`` kernels (0.3.21 on Emerald Rapids: 35 instead of 190
  GFLOP/s at 1024^3), so the fastest of its AVX-512/AVX2 kernel sets that
  the CPU can run, by a measured sgemm, is forced instead;
- sets the thread counts of every runtime to ``THREADS``;
- sets ``GLIBC_TUNABLES`` so that glibc's malloc keeps freed memory (a fixed
  mmap threshold above the workloads' largest arrays, no trimming, a large
  top pad): without it each step of a workload with multi-megabyte
  temporaries maps fresh pages and faults them in again;
- leaves ``ATEN_CPU_CAPABILITY`` (PyTorch's kernel set) to bench/run.py,
  which picks the faster of PyTorch's default and ``avx512`` per workload:
  neither is faster for every workload on these machines
  (docs/performance.md).

The load guard (``LoadGuard``) measures, from /proc/stat and this process's
and its waited-for children's CPU time, how much CPU time processes other
than the benchmark's own took while nothing of it ran (an idle check before
the run) and during each worker process, and the steal time of the VM.
"""

import contextlib
import ctypes
import json
import os
import resource
import subprocess
import sys
import time

THREADS = 2
# Inherited variables that would handicap one framework: removed.
REMOVED = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
# glibc caps mmap_threshold at 32 MiB on 64-bit; every array of the
# workloads is smaller (the largest are 4 MiB), so all of them come from the
# heap, which is neither trimmed nor shrunk between steps.
MALLOC_TUNABLES = ("glibc.malloc.mmap_threshold=33554432:"
                   "glibc.malloc.trim_threshold=4294967296:"
                   "glibc.malloc.top_pad=67108864")
# PyTorch's ATen kernel sets: its own choice (AVX2 for Debian's PyTorch 1.13
# on these AVX-512 CPUs) and AVX-512 where the CPU has it.
ATEN = "ATEN_CPU_CAPABILITY"
# Other variables that change how a BLAS, OpenMP runtime or PyTorch runs;
# kept when inherited and listed in the report.
_RELEVANT_PREFIXES = ("OPENBLAS_", "GOTO", "OMP_", "GOMP_", "KMP_", "MKL_", "ATEN_",
                      "DNNL_", "ONEDNN_", "MALLOC_", "LD_PRELOAD", "GLIBC_TUNABLES")
# Marks a process that already runs in the benchmark's environment.
_MARK = "TAD_BENCH_ENV"
_REMOVED_VAR = "TAD_BENCH_REMOVED"
# The OpenBLAS core the benchmark forces ("" when OpenBLAS's own is kept).
_CORE_VAR = "TAD_BENCH_OPENBLAS_CORE"
# OpenBLAS cores with kernels for the CPU features they need: a detected
# core outside this table that the CPU could beat is a fallback.
_OPENBLAS_CORES = {"SapphireRapids": ("avx512f", "avx512bw", "avx512vl", "avx512_bf16",
                                      "amx_tile"),
                   "Cooperlake": ("avx512f", "avx512bw", "avx512vl", "avx512_bf16"),
                   "SkylakeX": ("avx512f", "avx512bw", "avx512vl", "avx512dq"),
                   "Haswell": ("avx2", "fma"),
                   "Zen": ("avx2", "fma")}
_OPENBLAS_PROBE = r"""
import ctypes, glob, json, sys, time
import numpy as np
lib = next((ctypes.CDLL(p) for p in sys.argv[1:] if glob.glob(p)), None)
lib.openblas_get_corename.restype = ctypes.c_char_p
a, b = np.random.rand(768, 768).astype(np.float32), np.random.rand(768, 768).astype(np.float32)
best = float("inf")
for _ in range(3):
    a @ b
for _ in range(5):
    t = time.perf_counter(); a @ b; best = min(best, time.perf_counter() - t)
print(json.dumps({"core": lib.openblas_get_corename().decode(), "gflops": 2 * 768**3 / best / 1e9}))
"""


def settings():
    """The variables the benchmark sets for every process, in report order."""
    return {"OMP_NUM_THREADS": str(THREADS), "OPENBLAS_NUM_THREADS": str(THREADS),
            "MKL_NUM_THREADS": str(THREADS), "GLIBC_TUNABLES": MALLOC_TUNABLES}


def aten_choices():
    """The ATen kernel sets worth trying here; "default" is PyTorch's own."""
    return ["default", "avx512"] if _has_avx512() else ["default"]


def with_aten(env, choice):
    """``env`` with PyTorch's kernel set ``choice`` ("default": its own)."""
    env = dict(env)
    env.pop(ATEN, None)
    if choice != "default":
        env[ATEN] = choice
    return env


def worker_env(inherit=False, base=None):
    """(environment, removed): the environment of a benchmark process and the
    inherited variables it removed (name -> value). With ``inherit``, the
    inherited environment plus the thread counts only (the handicapped peer,
    for comparisons)."""
    base = dict(os.environ if base is None else base)
    if base.get(_MARK):
        removed = decode_removed(base.get(_REMOVED_VAR, ""))
    else:
        removed = {}
    if inherit:
        env = dict(base, OMP_NUM_THREADS=str(THREADS), OPENBLAS_NUM_THREADS=str(THREADS),
                   MKL_NUM_THREADS=str(THREADS))
        env[_MARK] = "inherit"
        return env, removed
    env = dict(base)
    core = base.get(_CORE_VAR) if base.get(_MARK) else None
    for name in REMOVED + (ATEN,):  # bench/run.py sets ATEN per workload
        if name in env and not (name == "OPENBLAS_CORETYPE" and core):
            removed[name] = env.pop(name)
    env.update(settings())
    if core is None:
        core = openblas_core(env)["forced"] or ""
    if core:
        env["OPENBLAS_CORETYPE"] = core
    env[_CORE_VAR] = core
    env[_MARK] = "1"
    env[_REMOVED_VAR] = " ".join(f"{k}={v}" for k, v in removed.items())
    return env, removed


_core_cache = {}


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            return set(next((l.split(":", 1)[1].split() for l in f if l.startswith("flags")), []))
    except OSError:
        return set()


def _probe_openblas(env, core):
    """OpenBLAS's core name and sgemm GFLOP/s (768^3, best of 5) in a fresh
    /usr/bin/python3 under ``env`` with OPENBLAS_CORETYPE=``core`` (None:
    unset)."""
    env = {k: v for k, v in env.items() if k != "OPENBLAS_CORETYPE"}
    if core:
        env["OPENBLAS_CORETYPE"] = core
    libs = ["/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0",
            "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
            "/usr/lib/x86_64-linux-gnu/libopenblas.so.0"]
    try:
        out = subprocess.run(["/usr/bin/python3", "-c", _OPENBLAS_PROBE] + libs, env=env,
                             capture_output=True, text=True, timeout=120).stdout
        return json.loads(out.strip().splitlines()[-1])
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None


def openblas_core(env):
    """{"detected", "forced", "gflops"}: the core OpenBLAS picks by itself
    under ``env`` and the one the benchmark forces (None: OpenBLAS's own is
    kept). Forced only when OpenBLAS's own core is none of the cores whose
    features the CPU has (it does not know the CPU): then the fastest of
    those, measured, replaces it when it beats the detected one by 10%."""
    key = tuple(sorted((k, v) for k, v in env.items() if k.startswith(("OMP_", "OPENBLAS_"))))
    if key in _core_cache:
        return _core_cache[key]
    flags = _cpu_flags()
    runnable = [c for c, need in _OPENBLAS_CORES.items() if all(f in flags for f in need)]
    own = _probe_openblas(env, None)
    result = {"detected": own["core"] if own else None, "forced": None, "gflops": {}}
    if own and own["core"] not in runnable and runnable:
        result["gflops"][own["core"]] = own["gflops"]
        for core in runnable:
            r = _probe_openblas(env, core)
            if r and r["core"] == core:  # an OpenBLAS without the core ignores it
                result["gflops"][core] = r["gflops"]
        best = max(result["gflops"], key=result["gflops"].get)
        if best != own["core"] and result["gflops"][best] > 1.1 * own["gflops"]:
            result["forced"] = best
    _core_cache[key] = result
    return result


def forced_core(env=None):
    """The OpenBLAS core the benchmark forced in ``env`` ("" if none)."""
    return (os.environ if env is None else env).get(_CORE_VAR, "")


def core_note(env):
    """A sentence on the OpenBLAS core forced in ``env`` ("" if none)."""
    core = forced_core(env)
    if not core:
        return ""
    probe = openblas_core({k: v for k, v in env.items() if k != "OPENBLAS_CORETYPE"})
    rates = ", ".join(f"{c} {g:.0f}" for c, g in sorted(probe["gflops"].items(),
                                                         key=lambda x: -x[1]))
    return (f"forced `OPENBLAS_CORETYPE={core}`: this OpenBLAS does not know the CPU and "
            f"falls back to `{probe['detected']}` (sgemm 768^3 GFLOP/s by core: {rates})")


def decode_removed(text):
    return dict(item.split("=", 1) for item in text.split() if "=" in item)


def ensure(inherit=False):
    """Re-executes this script in the benchmark's environment unless it
    already runs in it (glibc reads GLIBC_TUNABLES at startup, OpenBLAS its
    variables when it is loaded)."""
    want = "inherit" if inherit else "1"
    if os.environ.get(_MARK) == want:
        return
    env, _ = worker_env(inherit)
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def other_relevant_vars(env=None):
    """Inherited variables that affect BLAS/OpenMP/PyTorch/malloc and that the
    benchmark neither sets nor removes."""
    env = os.environ if env is None else env
    ours = set(settings()) | set(REMOVED) | {ATEN}
    return {k: v for k, v in sorted(env.items())
            if k.startswith(_RELEVANT_PREFIXES) and k not in ours}


# --------------------------------------------------------------------------
# What a process loaded
# --------------------------------------------------------------------------

def _mapped_libraries(words):
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                base = os.path.basename(path)
                if path.startswith("/") and ".so" in base and any(w in base for w in words):
                    libs.add(path)
    except OSError:
        pass
    return sorted(libs)


def _openblas_by_ctypes(path):
    try:
        lib = ctypes.CDLL(path)
        lib.openblas_get_corename.restype = ctypes.c_char_p
        lib.openblas_get_config.restype = ctypes.c_char_p
        return {"corename": lib.openblas_get_corename().decode(),
                "config": lib.openblas_get_config().decode().strip(),
                "threads": lib.openblas_get_num_threads(),
                # 0: sequential, 1: pthreads, 2: OpenMP
                "parallel": {0: "sequential", 1: "pthreads", 2: "OpenMP"}.get(
                    lib.openblas_get_parallel(), "unknown")}
    except (OSError, AttributeError):
        return None


def process_info():
    """What this process loaded: BLAS and OpenMP libraries (from
    /proc/self/maps), OpenBLAS's kernel set (its core name) and build, and
    PyTorch's CPU capability if PyTorch is loaded."""
    info = {"blas_libraries": _mapped_libraries(("blas", "lapack", "mkl")),
            "openmp_libraries": _mapped_libraries(("gomp", "libomp", "iomp")),
            "env": {k: os.environ.get(k)
                    for k in REMOVED + tuple(settings()) + (ATEN, _CORE_VAR)}}
    openblas = [p for p in info["blas_libraries"] if "openblas" in os.path.basename(p)]
    if openblas:
        info["openblas_library"] = openblas[0]
        info["openblas"] = _openblas_by_ctypes(openblas[0])
    try:
        from threadpoolctl import threadpool_info
        info["threadpoolctl"] = [
            {k: p.get(k) for k in ("internal_api", "filepath", "version", "architecture",
                                   "threading_layer", "num_threads")}
            for p in threadpool_info()]
    except ImportError:
        info["threadpoolctl"] = None
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        info["torch_cpu_capability"] = next(
            (l.split(":", 1)[1].strip() for l in torch.__config__.show().splitlines()
             if "CPU capability usage" in l), "unknown")
    return info


def openblas_summary(info):
    """One line on the BLAS a process loaded."""
    if not info:
        return "unknown (no worker reported)"
    ob = info.get("openblas")
    if ob:
        return (f"`{info['openblas_library']}`, core `{ob['corename']}`, {ob['parallel']} "
                f"threading, {ob['threads']} threads (`{ob['config']}`)")
    libs = info.get("blas_libraries") or ["none"]
    return "not OpenBLAS: " + ", ".join(f"`{l}`" for l in libs)


def peer_problems(info):
    """Why a PyTorch process does not run at its best, if it does not."""
    problems = []
    if not info:
        return ["no PyTorch worker reported what it loaded"]
    ob = info.get("openblas")
    if not ob:
        problems.append("PyTorch did not load OpenBLAS (" +
                        ", ".join(info.get("blas_libraries") or ["no BLAS"]) + ")")
    else:
        if ob["parallel"] != "OpenMP":
            problems.append(f"PyTorch's OpenBLAS uses {ob['parallel']} threading, not OpenMP")
        if ob["corename"] == "Haswell" and _has_avx512() and not info["env"].get(_CORE_VAR):
            problems.append("PyTorch's OpenBLAS runs its Haswell (AVX2) kernels on an "
                            "AVX-512 CPU")
        elif ob["corename"] in ("Prescott", "Core2", "Penryn", "Dunnington", "Nehalem",
                                "Katmai", "Coppermine", "Northwood", "Banias", "Atom"):
            if any(all(f in _cpu_flags() for f in need) for need in _OPENBLAS_CORES.values()):
                problems.append(f"PyTorch's OpenBLAS runs its {ob['corename']} (SSE) kernels "
                                "on an AVX2/AVX-512 CPU")
    for name in REMOVED:
        forced = name == "OPENBLAS_CORETYPE" and info["env"].get(_CORE_VAR)
        if info["env"].get(name) is not None and not forced:
            problems.append(f"{name}={info['env'][name]} was set in PyTorch's worker")
    return problems


def _has_avx512():
    try:
        with open("/proc/cpuinfo") as f:
            return any(l.startswith("flags") and " avx512f" in l for l in f)
    except OSError:
        return False


def blas_alternative():
    """Debian's libblas.so.3 alternative (what `libblas.so.3` resolves to)."""
    try:
        out = subprocess.run(["update-alternatives", "--query", "libblas.so.3-x86_64-linux-gnu"],
                             capture_output=True, text=True).stdout
        return next((l.split(":", 1)[1].strip() for l in out.splitlines()
                     if l.startswith("Value:")), "unknown")
    except OSError:
        return "unknown"


# --------------------------------------------------------------------------
# Load guard
# --------------------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK")


def _system_times():
    """(busy, steal) CPU seconds of the whole machine since boot."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq = fields[:7]
    steal = fields[7] if len(fields) > 7 else 0
    # guest time is already part of user and nice.
    return (user + nice + system + irq + softirq) / _TICK, steal / _TICK


def _own_times():
    """CPU seconds of this process and its children that it waited for
    (the workers, and what they waited for: tadc, the compiler)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


class LoadGuard:
    """Other processes' CPU use and steal time while the benchmark runs.

    A window's *other load* is the busy CPU time of the machine (/proc/stat)
    less the CPU time of this process and its waited-for children, over the
    window's wall time: in cores, 0 on an otherwise idle machine. Its
    *steal* is the hypervisor's steal time over the window's CPU time."""

    def __init__(self, max_other=0.15, max_window=0.5, max_steal=0.02):
        self.max_other, self.max_window, self.max_steal = max_other, max_window, max_steal
        self.cores = os.cpu_count() or 1
        self.idle = None
        self.windows = []
        self.load_before = os.getloadavg()
        self.load_after = None

    @contextlib.contextmanager
    def window(self, name):
        busy0, steal0 = _system_times()
        own0, t0 = _own_times(), time.monotonic()
        try:
            yield
        finally:
            busy1, steal1 = _system_times()
            own1, t1 = _own_times(), time.monotonic()
            wall = max(t1 - t0, 1e-6)
            self.windows.append({
                "name": name, "wall_s": wall,
                "other_cores": max(busy1 - busy0 - (own1 - own0), 0.0) / wall,
                "steal": (steal1 - steal0) / (wall * self.cores)})

    def check_idle(self, seconds):
        """The other load while nothing of the benchmark runs."""
        start = len(self.windows)
        with self.window("idle check"):
            time.sleep(seconds)
        self.idle = self.windows.pop(start)
        return self.idle

    def finish(self):
        self.load_after = os.getloadavg()

    def during(self):
        """(mean other load, worst window, mean steal) over the windows."""
        if not self.windows:
            return 0.0, None, 0.0
        wall = sum(w["wall_s"] for w in self.windows)
        other = sum(w["other_cores"] * w["wall_s"] for w in self.windows) / wall
        steal = sum(w["steal"] * w["wall_s"] for w in self.windows) / wall
        return other, max(self.windows, key=lambda w: w["other_cores"]), steal

    def problems(self):
        """Why the run was taken under load, if it was."""
        out = []
        if self.idle and self.idle["other_cores"] > self.max_other:
            out.append(f"before the run, other processes kept {self.idle['other_cores']:.2f} "
                       f"cores busy (limit {self.max_other:.2f})")
        if not self.windows:
            return out
        other, worst, steal = self.during()
        if other > self.max_other:
            out.append(f"during the run, other processes kept {other:.2f} cores busy on "
                       f"average (limit {self.max_other:.2f})")
        if worst and worst["other_cores"] > self.max_window:
            out.append(f"while `{worst['name']}` ran, other processes kept "
                       f"{worst['other_cores']:.2f} cores busy (limit {self.max_window:.2f})")
        if steal > self.max_steal:
            out.append(f"the hypervisor stole {100 * steal:.1f}% of the CPU time "
                       f"(limit {100 * self.max_steal:.1f}%)")
        return out

    def summary(self):
        """One line: what the guard measured."""
        other, worst, steal = self.during()
        parts = []
        if self.idle:
            parts.append(f"other processes {self.idle['other_cores']:.2f} cores before the "
                         f"run ({self.idle['wall_s']:.1f} s idle check)")
        parts.append(f"{other:.2f} cores on average during it")
        if worst:
            parts.append(f"at most {worst['other_cores']:.2f} (`{worst['name']}`)")
        parts.append(f"steal {100 * steal:.1f}%")
        la = f"load average (1 min) {self.load_before[0]:.2f} at the start"
        if self.load_after:
            la += f", {self.load_after[0]:.2f} at the end (the benchmark's own workers included)"
        return "; ".join(parts) + "; " + la
