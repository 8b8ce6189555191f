"""bf16 convolutions: tad's forward and convolution_backward (every output
mask) on bf16 tensors against PyTorch in float64 on the same values: at -O3
(im2col; and with --im2col-limit-mib=0, implicit GEMM where it applies)
with each bf16 product kernel the host can run -- the vector schedule on
extended operands, AMX tiles, AVX512-BF16 dot products -- and at -O1
(im2col). Where the channel
sizes are whole blocks of 32 the products read the bf16 operands and sum in
f32, as the widened convolution would (the others run widened): the bf16
results are within 2^-8 of the reference's largest magnitude (one rounding
of the output, the f32 sums in any order)."""
import sys

import numpy as np
import torch
import torch.nn.functional as F

import conv_check
import tad
from bf16_kernels import close, kernels, pinned
from tad import bf16_bits_to_float32 as to_f32, float32_to_bf16_bits as to_bf16

CASES = [  # (input shape, output channels, kernel, stride, padding, groups, bias)
    ((2, 32, 10, 10), 64, (3, 3), (1, 1), (1, 1), 1, True),    # implicit GEMM
    ((2, 64, 8, 8), 64, (3, 3), (1, 1), (1, 1), 1, False),     # whole AMX blocks
    ((2, 16, 10, 10), 32, (3, 3), (1, 1), (1, 1), 1, True),    # 16 channels: f32
    ((1, 5, 9, 11), 7, (3, 3), (1, 1), (0, 1), 1, True),       # odd sizes: f32
    ((1, 32, 9, 9), 32, (3, 3), (2, 2), (1, 1), 1, True),      # stride 2: im2col
    ((1, 64, 7, 7), 64, (3, 3), (1, 1), (1, 1), 2, True),      # groups: batch_matmul
    ((2, 64, 6, 6), 32, (1, 1), (1, 1), (0, 0), 1, False),     # 1x1: im2col
    ((1, 8, 9, 9), 12, (3, 3), (2, 2), (1, 1), 1, True),       # im2col, f32
    # A small L2 pinned: the weight gradient (32 x 96 x 512) streams B.
    ((2, 32, 14, 14), 32, (3, 3), (1, 1), (1, 1), 1, True,
     {"TAD_HOST_L2_BYTES": "131072", "TAD_HOST_CORES": "2"}),
]

MASKS = ((1, 1, 1), (1, 0, 0), (0, 1, 1))


def main():
    rng = np.random.default_rng(0)
    failures = []
    for kernel in kernels():
        for xs, f, k, stride, padding, groups, has_bias, *machine in CASES:
            ws = (f, xs[1] // groups) + k
            x, w, b = (to_bf16(rng.standard_normal(s).astype(np.float32))
                       for s in (xs, ws, ws[:1]))
            tx, tw, tb = (torch.tensor(to_f32(v), dtype=torch.float64, requires_grad=True)
                          for v in (x, w, b))
            ref = F.conv2d(tx, tw, tb if has_bias else None, stride, padding, 1, groups)
            g = to_bf16(rng.standard_normal(tuple(ref.shape)).astype(np.float32))
            g64 = torch.tensor(to_f32(g), dtype=torch.float64)
            ref.backward(g64)
            types = dict(xs=conv_check.ty(xs, "bf16"), ws=conv_check.ty(ws, "bf16"),
                         bs=conv_check.ty(ws[:1], "bf16"),
                         os=conv_check.ty(ref.shape, "bf16"))
            name = "%s * %s stride %s groups %d" % (
                "x".join(map(str, xs)), "x".join(map(str, ws)), stride, groups)
            fwd = conv_check.FORWARD.format(
                attrs=conv_check.attrs(2, stride, padding, (1, 1), groups),
                bias_arg=", %%b: tensor<%s>" % types["bs"] if has_bias else "",
                bias_use=" bias %b" if has_bias else "",
                bias_ty=", tensor<%s>" % types["bs"] if has_bias else "", **types)
            args = (x, w, b) if has_bias else (x, w)
            want = (tx.grad.numpy(), tw.grad.numpy(), g64.sum(dim=[0, 2, 3]).numpy())
            # -O1 (im2col everywhere) once: its products are not the kernels'.
            variants = [(3, ()), (3, ("--im2col-limit-mib=0",))]
            for opt, extra in ([(1, ())] if kernel == "vector" else []) + variants:
                what = f"{name} {kernel} -O{opt} {' '.join(extra)}".rstrip()
                with pinned(machine[0] if machine else {}):
                    forward = tad.compile(fwd, opt_level=opt, extra_args=extra)
                    backward = {mask: tad.compile(conv_check.BACKWARD.format(
                        attrs=conv_check.attrs(2, stride, padding, (1, 1), groups, mask),
                        **types), opt_level=opt, extra_args=extra) for mask in MASKS}
                close(forward.f(*args), ref.detach().numpy(), what + " forward", failures)
                for mask in MASKS:
                    got = backward[mask].f(g, x, w)
                    tag = "".join(map(str, mask))
                    for i, (m, a, r) in enumerate(zip(mask, got, want)):
                        close(a, r if m else np.zeros(r.shape),
                              f"{what} backward {tag} result {i}", failures)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
