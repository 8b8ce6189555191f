"""Convolutions computed as implicit GEMM at -O2 and above (2-D, one group,
unit strides and dilations, a kernel larger than 1x1 with padding below it,
C·KH·KW above the direct kernels' limit, an im2col matrix over tadc's
--im2col-limit-mib: 0 here, so that these small ones qualify): one
contraction per kernel row over the input's rows in NHWC order, matmuls on
overlapping strided views after tad-row-window-matmuls. The forward and the
three gradients of convolution_backward (every output mask) at -O3 against
PyTorch in float64 and against -O1 (im2col), with non-square kernels and
padding, no bias, a kernel as large as the padded input, sizes the vectors
do not divide, the OpenMP-parallel size, and convolutions that keep im2col
(padding as large as the kernel, stride 2)."""

import sys

import conv_check

CASES = [  # (input shape, output channels, kernel, stride, padding, dilation, bias)
    ((2, 8, 7, 9), 6, (3, 3), (1, 1), (1, 1), (1, 1), True),       # rows of 9
    ((1, 5, 6, 11), 4, (3, 2), (1, 1), (2, 1), (1, 1), True),      # non-square
    ((2, 16, 5, 5), 3, (5, 5), (1, 1), (0, 0), (1, 1), False),     # kernel = image
    ((1, 12, 9, 8), 5, (1, 3), (1, 1), (0, 1), (1, 1), True),      # one kernel row
    ((3, 17, 6, 7), 33, (3, 3), (1, 1), (1, 1), (1, 1), False),    # odd channels
    ((2, 64, 14, 14), 32, (3, 3), (1, 1), (1, 1), (1, 1), True),   # parallel size
    ((1, 8, 6, 6), 4, (3, 3), (1, 1), (3, 3), (1, 1), True),       # padding 3: im2col
    ((1, 8, 9, 9), 4, (3, 3), (2, 2), (1, 1), (1, 1), True),       # stride 2: im2col
]


sys.exit(1 if conv_check.run([
    (xs, (f, xs[1]) + kernel, 1, stride, padding, dilation, bias)
    for xs, f, kernel, stride, padding, dilation, bias in CASES],
    extra_args=("--im2col-limit-mib=0",)) else 0)
