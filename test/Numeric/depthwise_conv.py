"""Depthwise convolutions (one input channel per group), which tad-to-linalg
computes directly at -O2 and above where they are 2-D with unit strides
(generics over flattened rows; im2col and batched matmuls otherwise): the
forward and the three gradients of convolution_backward (every output mask)
at -O3 against PyTorch in float64 and against -O1, for 1-, 2- and 3-D
convolutions with padding, stride, dilation, channel multipliers, no bias,
output rows that the vectors do not divide and the OpenMP-parallel size."""

import sys

import conv_check

CASES = [  # (input shape, channel multiplier, kernel, stride, padding, dilation, bias)
    ((2, 3, 11), 1, (3,), (1,), (1,), (1,), True),
    ((2, 4, 7, 9), 1, (3, 3), (1, 1), (1, 1), (1, 1), True),       # rows of 9
    ((1, 3, 10, 21), 2, (3, 3), (2, 2), (1, 1), (1, 1), True),     # multiplier, stride 2
    ((2, 2, 9, 12), 1, (3, 2), (1, 1), (2, 0), (2, 1), False),     # dilation, no bias
    ((1, 3, 6, 5), 2, (2, 3), (1, 1), (0, 2), (1, 2), True),       # multiplier, wide pad
    ((2, 2, 9, 12), 1, (3, 2), (1, 2), (2, 0), (2, 1), False),     # stride: im2col
    ((1, 2, 4, 5, 6), 3, (2, 3, 2), (1, 1, 2), (1, 0, 1), (1, 1, 1), True),
    ((8, 32, 28, 28), 1, (3, 3), (1, 1), (1, 1), (1, 1), True),    # parallel size
]


sys.exit(1 if conv_check.run([
    (xs, (xs[1] * mult, 1) + kernel, xs[1], stride, padding, dilation, bias)
    for xs, mult, kernel, stride, padding, dilation, bias in CASES]) else 0)
