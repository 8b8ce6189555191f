"""f32 -> bf16 rounding of compiled code against PyTorch's (c10::BFloat16:
to nearest, ties to even; NaN -> 0x7fc0), bit for bit: ties either way,
the largest finite values (rounding up to infinity), infinities, zeros,
subnormals, NaNs and random values, at -O0 and -O3, with a vectorized
length and a scalar remainder. On hosts without AVX512-BF16 the
truncation is integer arithmetic (tad-expand-arith), elsewhere the
hardware's vcvtneps2bf16 (which treats subnormal inputs as zero: those
are compared only on hosts without it)."""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "runtime", "python"))
import tad  # noqa: E402

N = 4099
SOURCE = f"""
func.func @round(%x: tensor<{N}xf32>) -> tensor<{N}xbf16> {{
  %0 = tad._to_copy %x {{dtype = bf16}} : (tensor<{N}xf32>) -> tensor<{N}xbf16>
  return %0 : tensor<{N}xbf16>
}}
"""

special = np.array([
    0x3f808000, 0x3f818000,  # ties: to even (down), to even (up)
    0x3f808001, 0x3f807fff,  # just above and below a tie
    0x7f7fffff, 0xff7fffff,  # largest finite: rounds to +-inf
    0x7f800000, 0xff800000, 0x00000000, 0x80000000,
    0x7fc00000, 0xffc00001, 0x7f800001, 0x7fbfffff,  # NaNs
], dtype=np.uint32)
subnormal = np.array([0x00000001, 0x00008000, 0x007fffff, 0x80018000],
                     dtype=np.uint32)
rng = np.random.default_rng(7)
random_bits = rng.integers(0, 2**32, N - len(special) - len(subnormal),
                           dtype=np.uint64).astype(np.uint32)
bits = np.concatenate([special, subnormal, random_bits])
x = bits.view(np.float32)
want = torch.from_numpy(x.copy()).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
# PyTorch keeps a NaN's sign and payload bits that survive truncation;
# ATen's CPU kernel and c10 agree on 0x7fc0 for the quiet NaN only, so
# NaNs are compared as NaNs.
is_nan = np.isnan(x)
is_subnormal = (bits & 0x7f800000) == 0
# Linux spells the flag avx512_bf16 (LLVM: avx512bf16).
hardware = os.path.exists("/proc/cpuinfo") and "avx512_bf16" in open("/proc/cpuinfo").read()
failed = 0
for level in (0, 3):
    m = tad.compile(SOURCE, opt_level=level)
    got = np.asarray(m.round(x)).view(np.uint16)
    got_nan = (got & 0x7f80) == 0x7f80
    got_nan &= (got & 0x007f) != 0
    compare = ~is_nan & ~(is_subnormal & hardware)
    bad = np.nonzero(compare & (got != want))[0]
    nan_ok = bool(np.all(got_nan[is_nan]))
    ok = len(bad) == 0 and nan_ok
    failed += not ok
    detail = ", ".join(f"{bits[i]:#010x} -> {got[i]:#06x} (PyTorch {want[i]:#06x})"
                       for i in bad[:4])
    print(f"{'PASS' if ok else 'FAIL'} -O{level}: {int(compare.sum())} values bit for bit, "
          f"{int(is_nan.sum())} NaNs {'NaN' if nan_ok else 'NOT NaN'}"
          + (f"; {len(bad)} differ: {detail}" if len(bad) else ""))
print(f"{failed} failed")
