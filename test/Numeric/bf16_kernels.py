"""What the bf16 product tests share (bf16_matmul.py, bf16_conv.py): the
kernels this host can run, a pinned machine model, and the check of a bf16
result against a float64 reference."""
import contextlib
import os

import numpy as np

from tad import bf16_bits_to_float32 as to_f32

# kernel: (TAD_HOST_AMX, TAD_HOST_BF16_DOT, the CPU flag it needs)
KERNELS = {"vector": ("0", "0", None), "amx": ("1", "0", "amx_bf16"),
           "dot": ("0", "1", "avx512_bf16")}


def host_flags():
    try:
        return open("/proc/cpuinfo").read().split()
    except OSError:
        return []


def kernels():
    """Each kernel the host can run, with the compiler pinned to it while
    the caller compiles (a SKIP line for the others)."""
    flags = host_flags()
    for kernel, (amx, dot, flag) in KERNELS.items():
        if flag and flag not in flags:
            print(f"SKIP {kernel}: the host has no {flag}")
            continue
        os.environ["TAD_HOST_AMX"] = amx
        os.environ["TAD_HOST_BF16_DOT"] = dot
        yield kernel


@contextlib.contextmanager
def pinned(variables):
    """The machine model of a program whose schedule depends on it
    (TAD_HOST_* variables) while it compiles."""
    os.environ.update(variables)
    try:
        yield
    finally:
        for var in variables:
            del os.environ[var]


def close(got, want, what, failures):
    """A bf16 result (uint16 bits) within 2^-8 of the reference's largest
    magnitude: one rounding of the output, f32 sums in any order."""
    got = to_f32(got).astype(np.float64)
    err = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")
    scale = float(np.max(np.abs(want)))
    ok = err <= 2.0 ** -8 * scale
    print(f"{'PASS' if ok else 'FAIL'} {what}: max error {err:.3g} (scale {scale:.3g})")
    if not ok:
        failures.append(what)
