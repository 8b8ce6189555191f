"""bf16 products: tad's forward and VJP of mm (plain and with transposed
operands) and bmm on bf16 tensors against float64 on the same values,
with each kernel the host can run -- the vector schedule on widened
operands (vector), AMX tiles (amx, on hosts with AMX-BF16), AVX512-BF16 dot
products (dot, on hosts with AVX512-BF16) -- at -O0 and -O3. The results are bf16:
within 2^-8 of the reference's largest magnitude (one rounding of the
output, f32 accumulation in either order)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "runtime", "python"))
import tad  # noqa: E402
from bf16_kernels import close, kernels, pinned  # noqa: E402
from tad import bf16_bits_to_float32 as to_f32, float32_to_bf16_bits as to_bf16  # noqa: E402

PROGRAMS = {
    # name: (MLIR, argument shapes, reference)
    "mm": ("""
func.func @f(%a: tensor<64x128xbf16>, %b: tensor<128x96xbf16>) -> tensor<64x96xbf16> {
  %0 = tad.mm %a, %b : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xbf16>
  return %0 : tensor<64x96xbf16>
}""", [(64, 128), (128, 96)], lambda a, b: a @ b),
    "mm_at": ("""
func.func @f(%a: tensor<128x64xbf16>, %b: tensor<128x96xbf16>) -> tensor<64x96xbf16> {
  %t = tad.t %a : (tensor<128x64xbf16>) -> tensor<64x128xbf16>
  %0 = tad.mm %t, %b : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xbf16>
  return %0 : tensor<64x96xbf16>
}""", [(128, 64), (128, 96)], lambda a, b: a.T @ b),
    "mm_bt": ("""
func.func @f(%a: tensor<64x128xbf16>, %b: tensor<96x128xbf16>) -> tensor<64x96xbf16> {
  %t = tad.t %b : (tensor<96x128xbf16>) -> tensor<128x96xbf16>
  %0 = tad.mm %a, %t : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xbf16>
  return %0 : tensor<64x96xbf16>
}""", [(64, 128), (96, 128)], lambda a, b: a @ b.T),
    # B^T packed from its rows with a k that is no multiple of 32 (rows read
    # masked at the end, the last k-pair block partly past k).
    "mm_bt_k100": ("""
func.func @f(%a: tensor<40x100xbf16>, %b: tensor<64x100xbf16>) -> tensor<40x64xbf16> {
  %t = tad.t %b : (tensor<64x100xbf16>) -> tensor<100x64xbf16>
  %0 = tad.mm %a, %t : (tensor<40x100xbf16>, tensor<100x64xbf16>) -> tensor<40x64xbf16>
  return %0 : tensor<40x64xbf16>
}""", [(40, 100), (64, 100)], lambda a, b: a @ b.T),
    "mm_odd": ("""
func.func @f(%a: tensor<40x101xbf16>, %b: tensor<101x70xbf16>) -> tensor<40x70xbf16> {
  %0 = tad.mm %a, %b : (tensor<40x101xbf16>, tensor<101x70xbf16>) -> tensor<40x70xbf16>
  return %0 : tensor<40x70xbf16>
}""", [(40, 101), (101, 70)], lambda a, b: a @ b),
    # A long reduction into a small C with a small L2 pinned (below):
    # B streamed in blocks, an odd k (the dot kernel's last k-pair half
    # zero), padded rows of A and C, panels in groups of two and one.
    "mm_long_k": ("""
func.func @f(%a: tensor<40x3001xbf16>, %b: tensor<3001x96xbf16>) -> tensor<40x96xbf16> {
  %0 = tad.mm %a, %b : (tensor<40x3001xbf16>, tensor<3001x96xbf16>) -> tensor<40x96xbf16>
  return %0 : tensor<40x96xbf16>
}""", [(40, 3001), (3001, 96)], lambda a, b: a @ b),
    # A k of several hundred without streaming (the L2 pinned large,
    # below): B's panels read whole for each row tile.
    "mm_k700": ("""
func.func @f(%a: tensor<40x700xbf16>, %b: tensor<700x64xbf16>) -> tensor<40x64xbf16> {
  %0 = tad.mm %a, %b : (tensor<40x700xbf16>, tensor<700x64xbf16>) -> tensor<40x64xbf16>
  return %0 : tensor<40x64xbf16>
}""", [(40, 700), (700, 64)], lambda a, b: a @ b),
    # The same into a C that holds the bias (no zero fill).
    "addmm_k600": ("""
func.func @f(%c: tensor<64xbf16>, %a: tensor<40x600xbf16>, %b: tensor<600x64xbf16>) -> tensor<40x64xbf16> {
  %0 = tad.addmm %c, %a, %b {beta = 1.0 : f64, alpha = 1.0 : f64} : (tensor<64xbf16>, tensor<40x600xbf16>, tensor<600x64xbf16>) -> tensor<40x64xbf16>
  return %0 : tensor<40x64xbf16>
}""", [(64,), (40, 600), (600, 64)], lambda c, a, b: c + a @ b),
    "bmm": ("""
func.func @f(%a: tensor<4x32x64xbf16>, %b: tensor<4x64x64xbf16>) -> tensor<4x32x64xbf16> {
  %0 = tad.bmm %a, %b : (tensor<4x32x64xbf16>, tensor<4x64x64xbf16>) -> tensor<4x32x64xbf16>
  return %0 : tensor<4x32x64xbf16>
}""", [(4, 32, 64), (4, 64, 64)], lambda a, b: a @ b),
}


# The machine model of programs whose schedule depends on it.
PINNED = {"mm_long_k": {"TAD_HOST_L2_BYTES": "131072", "TAD_HOST_CORES": "2"},
          "mm_k700": {"TAD_HOST_L2_BYTES": "1048576", "TAD_HOST_CORES": "2"},
          "addmm_k600": {"TAD_HOST_L2_BYTES": "1048576", "TAD_HOST_CORES": "2"}}


def main():
    rng = np.random.default_rng(0)
    failures = []
    for kernel in kernels():
        for name, (text, shapes, ref) in PROGRAMS.items():
            args = [to_bf16(rng.standard_normal(s).astype(np.float32)) for s in shapes]
            values = [to_f32(a).astype(np.float64) for a in args]
            want = ref(*values)
            ct = to_bf16(rng.standard_normal(want.shape).astype(np.float32))
            ct64 = to_f32(ct).astype(np.float64)
            # The VJP of a product: the cotangent times the other operand,
            # transposed; through tad.t for the transposed programs.
            for opt in (0, 3):
                with pinned(PINNED.get(name, {})):
                    m = tad.compile(text, vjp="f", opt_level=opt)
                what = f"{name} {kernel} -O{opt}"
                close(m.f(*args), want, what + " forward", failures)
                res = m.f_vjp(*args, ct)
                grads = res[1:]
                if name in ("mm", "mm_odd", "mm_long_k", "mm_k700"):
                    refs = [ct64 @ values[1].T, values[0].T @ ct64]
                elif name == "addmm_k600":
                    refs = [ct64.sum(0), ct64 @ values[2].T, values[1].T @ ct64]
                elif name == "mm_at":
                    refs = [values[1] @ ct64.T, values[0] @ ct64]
                elif name in ("mm_bt", "mm_bt_k100"):
                    refs = [ct64 @ values[1], ct64.T @ values[0]]
                else:
                    refs = [ct64 @ values[1].transpose(0, 2, 1),
                            values[0].transpose(0, 2, 1) @ ct64]
                for i, (g, r) in enumerate(zip(grads, refs)):
                    close(g, r, f"{what} gradient {i}", failures)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
