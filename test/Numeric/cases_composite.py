"""Numeric cases of the composite ops (TadCompositeOps.td): tadc decomposes
them (rules/decompositions.yaml) before differentiating, so these check the
decompositions and the rules of the ops they produce."""

import numpy as np

from cases_nn import func, ti, targets
from gradcheck import Case
from matrix_common import normal, positive, t


def unary_attr(op, shape, attrs):
    T = t(shape)
    return """
func.func @f(%%x: %s) -> %s {
  %%0 = tad.%s %%x %s : %s
  return %%0 : %s
}""" % (T, T, op, attrs, T, T)


def matmul(a, b):
    out = list(np.matmul(np.zeros(a), np.zeros(b)).shape)
    return func([("x", t(a)), ("y", t(b))], "matmul", "%x, %y", "", [t(a), t(b)],
                [t(out)]), out


def chunk(shape, chunks, dim):
    size = shape[dim]
    piece = -(-size // chunks)
    outs = []
    start = 0
    while start < size:
        s = list(shape)
        s[dim] = min(piece, size - start)
        outs.append(t(s))
        start += piece
    return func([("x", t(shape))], "chunk", "%x",
                "{chunks = %d : i64, dim = %d : i64}" % (chunks, dim), [t(shape)],
                outs, keep=len(outs))


def _cases():
    cases = [
        Case("softmax.int", unary_attr("softmax.int", [3, 4], "{dim = 1 : i64}"),
             [normal(3, 4)]),
        Case("log_softmax.int", unary_attr("log_softmax.int", [2, 3, 4], "{dim = 0 : i64}"),
             [normal(2, 3, 4)]),
        Case("dropout eval", unary_attr("dropout", [3, 4],
                                        "{p = 5.0e-1 : f64, train = false}"), [normal(3, 4)]),
        Case("layer_norm", func([("x", t([2, 3, 4])), ("w", t([4])), ("b", t([4]))],
                                "layer_norm", "%x weight %w bias %b",
                                "{normalized_shape = array<i64: 4>}",
                                [t([2, 3, 4]), t([4]), t([4])], [t([2, 3, 4])]),
             [normal(2, 3, 4), normal(4), normal(4)]),
        Case("batch_norm training", func(
            [("x", t([4, 3, 2])), ("w", t([3])), ("b", t([3])),
             ("rm", t([3]) + " {tad.nondiff}"), ("rv", t([3]) + " {tad.nondiff}")],
            "batch_norm", "%x weight %w bias %b running_mean %rm running_var %rv",
            "{training = true, momentum = 0.1 : f64, eps = 1.0e-5 : f64, cudnn_enabled = false}",
            [t([4, 3, 2]), t([3]), t([3]), t([3]), t([3])], [t([4, 3, 2])]),
            [normal(4, 3, 2), normal(3), normal(3), normal(3), positive(3)], diff=[0, 1, 2]),
        Case("group_norm", func([("x", t([2, 4, 3])), ("w", t([4])), ("b", t([4]))],
                                "group_norm", "%x weight %w bias %b",
                                "{num_groups = 2 : i64}",
                                [t([2, 4, 3]), t([4]), t([4])], [t([2, 4, 3])]),
             [normal(2, 4, 3), normal(4), normal(4)]),
        Case("linear 3-d bias", func([("x", t([2, 3, 4])), ("w", t([5, 4])), ("b", t([5]))],
                                     "linear", "%x, %w bias %b", "",
                                     [t([2, 3, 4]), t([5, 4]), t([5])], [t([2, 3, 5])]),
             [normal(2, 3, 4), normal(5, 4), normal(5)]),
        Case("linear 2-d bias", func([("x", t([3, 4])), ("w", t([2, 4])), ("b", t([2]))],
                                     "linear", "%x, %w bias %b", "",
                                     [t([3, 4]), t([2, 4]), t([2])], [t([3, 2])]),
             [normal(3, 4), normal(2, 4), normal(2)]),
        Case("linear 1-d no bias", func([("x", t([4])), ("w", t([2, 4]))],
                                        "linear", "%x, %w", "", [t([4]), t([2, 4])], [t([2])]),
             [normal(4), normal(2, 4)]),
        Case("cross_entropy_loss mean", func(
            [("x", t([4, 5])), ("y", ti([4]))], "cross_entropy_loss", "%x, %y", "",
            [t([4, 5]), ti([4])], [t([])]), [normal(4, 5), targets([4], 5)]),
        Case("cross_entropy_loss weight ignore sum", func(
            [("x", t([4, 5])), ("y", ti([4])), ("w", t([5]) + " {tad.nondiff}")],
            "cross_entropy_loss", "%x, %y weight %w",
            "{reduction = 2 : i64, ignore_index = 1 : i64}",
            [t([4, 5]), ti([4]), t([5])], [t([])]),
            [normal(4, 5), targets([4], 5, ignore=1), positive(5)], diff=[0]),
        Case("cross_entropy_loss 4-d none", func(
            [("x", t([2, 3, 2, 2])), ("y", ti([2, 2, 2]))], "cross_entropy_loss", "%x, %y",
            "{reduction = 0 : i64}", [t([2, 3, 2, 2]), ti([2, 2, 2])], [t([2, 2, 2])]),
            [normal(2, 3, 2, 2), targets([2, 2, 2], 3)]),
        Case("cross_entropy_loss label smoothing mean ignore", func(
            [("x", t([4, 5])), ("y", ti([4]))], "cross_entropy_loss", "%x, %y",
            "{label_smoothing = 0.2 : f64, ignore_index = 1 : i64}",
            [t([4, 5]), ti([4])], [t([])]), [normal(4, 5), targets([4], 5, ignore=1)]),
        Case("cross_entropy_loss label smoothing 4-d none", func(
            [("x", t([2, 3, 2, 2])), ("y", ti([2, 2, 2]))], "cross_entropy_loss", "%x, %y",
            "{reduction = 0 : i64, label_smoothing = 0.1 : f64}",
            [t([2, 3, 2, 2]), ti([2, 2, 2])], [t([2, 2, 2])]),
            [normal(2, 3, 2, 2), targets([2, 2, 2], 3)]),
        Case("cross_entropy_loss label smoothing sum", func(
            [("x", t([4, 5])), ("y", ti([4]))], "cross_entropy_loss", "%x, %y",
            "{reduction = 2 : i64, label_smoothing = 0.3 : f64}",
            [t([4, 5]), ti([4])], [t([])]), [normal(4, 5), targets([4], 5)]),
        Case("glu", func([("x", t([3, 4]))], "glu", "%x", "", [t([3, 4])], [t([3, 2])]),
             [normal(3, 4)]),
        Case("glu dim 0", func([("x", t([4, 3]))], "glu", "%x", "{dim = 0 : i64}",
                               [t([4, 3])], [t([2, 3])]), [normal(4, 3)]),
        Case("log_sigmoid_forward", """
func.func @f(%x: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  %0:2 = tad.log_sigmoid_forward %x : tensor<3x4xf64>
  return %0#0, %0#1 : tensor<3x4xf64>, tensor<3x4xf64>
}""", [np.where(np.arange(12).reshape(3, 4) % 2, 1.0, -1.0) * (0.1 + np.abs(normal(3, 4)))]),
        Case("nll_loss", func([("x", t([4, 5])), ("y", ti([4]))], "nll_loss", "%x, %y", "",
                              [t([4, 5]), ti([4])], [t([])]),
             [normal(4, 5), targets([4], 5)]),
        Case("conv2d stride 2 groups 2", func(
            [("x", t([1, 4, 5, 5])), ("w", t([2, 2, 3, 3])), ("b", t([2]))], "conv2d",
            "%x, %w bias %b", "{stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 2 : i64}",
            [t([1, 4, 5, 5]), t([2, 2, 3, 3]), t([2])], [t([1, 2, 3, 3])]),
            [normal(1, 4, 5, 5), normal(2, 2, 3, 3), normal(2)]),
        Case("conv1d dilation", func(
            [("x", t([2, 2, 7])), ("w", t([3, 2, 2]))], "conv1d", "%x, %w",
            "{dilation = array<i64: 2>}", [t([2, 2, 7]), t([3, 2, 2])], [t([2, 3, 5])]),
            [normal(2, 2, 7), normal(3, 2, 2)]),
        Case("max_pool2d", func([("x", t([1, 2, 4, 4]))], "max_pool2d", "%x",
                                "{kernel_size = array<i64: 2, 2>}", [t([1, 2, 4, 4])],
                                [t([1, 2, 2, 2])]), [normal(1, 2, 4, 4)]),
        Case("adaptive_avg_pool2d", func([("x", t([1, 2, 5, 4]))], "adaptive_avg_pool2d", "%x",
                                         "{output_size = array<i64: 2, 3>}", [t([1, 2, 5, 4])],
                                         [t([1, 2, 2, 3])]), [normal(1, 2, 5, 4)]),
        Case("flatten.using_ints", func([("x", t([2, 3, 4, 2]))], "flatten.using_ints", "%x",
                                        "{start_dim = 1 : i64, end_dim = -2 : i64}",
                                        [t([2, 3, 4, 2])], [t([2, 12, 2])]),
             [normal(2, 3, 4, 2)]),
        Case("reshape (decomposed to view)", func([("x", t([2, 6]))], "reshape", "%x",
                                                  "{shape = array<i64: 3, -1>}", [t([2, 6])],
                                                  [t([3, 4])]), [normal(2, 6)]),
        Case("narrow", func([("x", t([3, 5]))], "narrow", "%x",
                            "{dim = 1 : i64, start = -4 : i64, length = 2 : i64}",
                            [t([3, 5])], [t([3, 2])]), [normal(3, 5)]),
        Case("chunk", chunk([5, 3], 2, 0), [normal(5, 3)]),
    ]
    for a, b in [([4], [4]), ([3, 4], [4]), ([4], [4, 2]), ([3, 4], [4, 2]),
                 ([2, 3, 4], [4, 2]), ([4], [2, 4, 3]), ([2, 1, 3, 4], [5, 4, 2]),
                 ([2, 3, 4], [4])]:
        text, _ = matmul(a, b)
        cases.append(Case("matmul %s x %s" % (a, b), text, [normal(*a), normal(*b)]))
    return cases


FAMILIES = {"composite": _cases()}
