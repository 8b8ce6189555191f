"""Numeric test cases for the elementwise op families: unary math,
activations and their backward ops, binary/ternary selects and clamps,
comparisons and logical ops, dropout (dialects/Tad/TadElementwiseOps.td).

Inputs stay away from the points where an op is not differentiable (kinks
of relu-like activations, clamp bounds, ties of maximum/minimum, compare
boundaries) so that central differences are meaningful there; what the
rules do exactly at those points is documented in docs/rules.md."""

import numpy as np

from gradcheck import Case
from matrix_common import (away_from_zero, binary, normal, positive, rng,
                           scalar, t, ternary, unary)


def unary_attrs(op, shape, attrs):
    """@f(x) = op(x) {attrs} for ops printed as `op %x attrs : type`."""
    return """
func.func @f(%%x: %(T)s) -> %(T)s {
  %%0 = tad.%(op)s %%x %(attrs)s : %(T)s
  return %%0 : %(T)s
}""" % {"op": op, "T": t(shape), "attrs": attrs}


def bool_t(shape):
    return "tensor<%si1>" % "".join("%dx" % d for d in shape)


def mask(*shape):
    return rng.random(shape) < 0.5


def spread(*shape, low=0.1, high=2.0):
    """|v| in [low, high] with random signs."""
    return rng.uniform(low, high, shape) * rng.choice([-1.0, 1.0], shape)


def clamp_points(*shape):
    """Points at least 0.05 away from the bounds of the clamp.Tensor cases."""
    grid = np.array([-1.7, -0.75, -0.2, 0.35, 0.95, 1.5])
    return rng.choice(grid, shape) + rng.uniform(-0.02, 0.02, shape)


def distinct_pair(shape, other_shape):
    """x of `shape` and y of `other_shape` that differ by at least 0.1
    wherever they meet under broadcasting (no ties)."""
    y = normal(*other_shape)
    return y + spread(*shape, low=0.1, high=1.0), y


def compare_case(op, scalar_other=None):
    """@f(x, y) = where(op(x, y), x, y): the comparison picks the branch."""
    if scalar_other is None:
        x, y = distinct_pair((3, 4), (4,))
        return Case(op, """
func.func @f(%%x: tensor<3x4xf64>, %%y: tensor<4xf64>) -> tensor<3x4xf64> {
  %%c = tad.%s %%x, %%y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xi1>
  %%0 = tad.where.self %%c, %%x, %%y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %%0 : tensor<3x4xf64>
}""" % op, [x, y])
    return Case(op, """
func.func @f(%%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %%c = tad.%s %%x, %s : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %%e = tad.exp %%x : tensor<3x4xf64>
  %%0 = tad.where.self %%c, %%x, %%e : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %%0 : tensor<3x4xf64>
}""" % (op, scalar_other), [scalar_other_values(float(scalar_other))])


def scalar_other_values(other):
    """Values around `other` but never within 0.1 of it."""
    return other + spread(3, 4)


def backward_op(op, shape_g, shape_x, attrs="", x=None):
    """@f(g, x) = op(g, x) for an activation backward op."""
    return Case(op + (" " + attrs if attrs else ""),
                binary(op, shape_g, shape_x,
                       list(np.broadcast_shapes(tuple(shape_g), tuple(shape_x))),
                       attrs),
                [normal(*shape_g), normal(*shape_x) if x is None else x])


FAMILIES = {
    "math": [
        Case("log1p", unary("log1p", [2, 3]), [positive(2, 3) - 0.4]),
        Case("sqrt", unary("sqrt", [2, 3]), [positive(2, 3)]),
        Case("rsqrt", unary("rsqrt", [2, 3]), [positive(2, 3)]),
        Case("reciprocal", unary("reciprocal", [2, 3]), [spread(2, 3, low=0.5)]),
        Case("abs", unary("abs", [3, 4]), [away_from_zero(3, 4)]),
        Case("erf", unary("erf", [2, 3]), [normal(2, 3)]),
        Case("sin", unary("sin", [2, 3]), [normal(2, 3)]),
        Case("cos", unary("cos", [2, 3]), [normal(2, 3)]),
        Case("pow.Tensor_Scalar 2", scalar("pow.Tensor_Scalar", [2, 3], "2.0"),
             [normal(2, 3)]),
        Case("pow.Tensor_Scalar 3 negative base", scalar("pow.Tensor_Scalar", [2, 3], "3.0"),
             [normal(2, 3)]),
        Case("pow.Tensor_Scalar -1.5", scalar("pow.Tensor_Scalar", [2, 3], "-1.5"),
             [positive(2, 3)]),
        Case("pow.Tensor_Scalar 0", scalar("pow.Tensor_Scalar", [4], "0.0"),
             [normal(4)]),
        Case("pow.Tensor_Tensor broadcast", binary("pow.Tensor_Tensor", [3, 4], [4], [3, 4]),
             [positive(3, 4), normal(4)]),
        Case("pow.Tensor_Tensor exponent broadcast", binary("pow.Tensor_Tensor", [4], [3, 1], [3, 4]),
             [positive(4), normal(3, 1)]),
        # Zero gradients; the exp makes the derivative of @f non-trivial.
        Case("sign", """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %s = tad.sign %x : tensor<2x3xf64>
  %0 = tad.mul.Tensor %s, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}""", [away_from_zero(2, 3)]),
        Case("floor", """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %s = tad.floor %x : tensor<2x3xf64>
  %0 = tad.add.Tensor %s, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}""", [np.floor(normal(2, 3) * 3) + rng.uniform(0.2, 0.8, (2, 3))]),
    ],
    "activation": [
        Case("threshold", """
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.threshold %x, 0.25, -2.0 : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [0.25 + away_from_zero(3, 4)]),
        Case("gelu", unary("gelu", [3, 4]), [normal(3, 4) * 2]),
        Case("gelu tanh", unary_attrs("gelu", [3, 4], '{approximate = "tanh"}'),
             [normal(3, 4) * 2]),
        Case("silu", unary("silu", [3, 4]), [normal(3, 4) * 2]),
        Case("mish", unary("mish", [3, 4]), [normal(3, 4) * 2]),
        Case("leaky_relu", unary("leaky_relu", [3, 4]), [away_from_zero(3, 4)]),
        Case("leaky_relu slope", unary_attrs("leaky_relu", [3, 4],
                                             "{negative_slope = 0.2 : f64}"),
             [away_from_zero(3, 4)]),
        Case("elu", unary("elu", [3, 4]), [away_from_zero(3, 4) * 2]),
        Case("elu alpha scale input_scale", unary_attrs(
            "elu", [3, 4], "{alpha = 1.5 : f64, scale = 1.0507 : f64, input_scale = 0.5 : f64}"),
             [away_from_zero(3, 4) * 2]),
        Case("softplus", unary("softplus", [3, 4]), [normal(3, 4) * 2]),
        Case("softplus beta threshold", unary_attrs(
            "softplus", [3, 4], "{beta = 2.0 : f64, threshold = 1.0 : f64}"),
             [0.5 + away_from_zero(3, 4)]),
        Case("hardtanh", unary("hardtanh", [3, 4]),
             [spread(3, 4, low=0.05, high=0.45) + rng.choice([0.0, 1.5, -1.5], (3, 4))]),
        Case("hardtanh relu6", unary_attrs("hardtanh", [3, 4],
                                           "{min_val = 0.0 : f64, max_val = 6.0 : f64}"),
             [rng.uniform(0.1, 5.9, (3, 4)) * rng.choice([1.0, -1.0], (3, 4))]),
        Case("hardswish", unary("hardswish", [3, 4]),
             [rng.choice([-4.5, 0.0, 4.5], (3, 4)) + spread(3, 4, low=0.1, high=1.4)]),
        Case("hardsigmoid", unary("hardsigmoid", [3, 4]),
             [rng.choice([-4.5, 0.0, 4.5], (3, 4)) + spread(3, 4, low=0.1, high=1.4)]),
        Case("_prelu_kernel", binary("_prelu_kernel", [3, 4], [4], [3, 4]),
             [away_from_zero(3, 4), normal(4)]),
        backward_op("gelu_backward", [3, 4], [3, 4]),
        Case("gelu_backward tanh", binary("gelu_backward", [4], [3, 4], [3, 4],
                                          '{approximate = "tanh"}'),
             [normal(4), normal(3, 4)]),
        backward_op("leaky_relu_backward", [3, 4], [3, 4],
                    "{negative_slope = 0.1 : f64, self_is_result = false}",
                    x=away_from_zero(3, 4)),
        backward_op("softplus_backward", [3, 4], [3, 4],
                    "{beta = 1.5 : f64, threshold = 2.0 : f64}",
                    x=away_from_zero(3, 4) * 2),
        backward_op("hardtanh_backward", [3, 4], [4],
                    "{min_val = -1.0 : f64, max_val = 1.0 : f64}",
                    x=spread(4, low=0.05, high=0.45) + rng.choice([0.0, 1.5], 4)),
        backward_op("hardswish_backward", [3, 4], [3, 4],
                    x=rng.choice([-4.5, 0.0, 4.5], (3, 4)) + spread(3, 4, low=0.1, high=1.4)),
        backward_op("hardsigmoid_backward", [3, 4], [3, 4],
                    x=rng.choice([-4.5, 0.0, 4.5], (3, 4)) + spread(3, 4, low=0.1, high=1.4)),
        Case("elu_backward", """
func.func @f(%g: tensor<3x4xf64>, %x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.elu_backward %g, %x {alpha = 1.5 : f64, scale = 2.0 : f64, input_scale = 0.5 : f64, is_result = false} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [normal(3, 4), away_from_zero(3, 4) * 2]),
        Case("elu_backward is_result", """
func.func @f(%g: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.elu_backward %g, %y {alpha = 1.5 : f64, scale = 2.0 : f64, input_scale = 0.5 : f64, is_result = true} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [normal(3, 4), away_from_zero(3, 4) * 2]),
    ],
    "binary": [
        Case("maximum broadcast", binary("maximum", [3, 4], [4], [3, 4]),
             list(distinct_pair((3, 4), (4,)))),
        Case("minimum", binary("minimum", [3, 4], [3, 4], [3, 4]),
             list(distinct_pair((3, 4), (3, 4)))),
        Case("lerp.Tensor", ternary("lerp.Tensor", [3, 4], [3, 4], [3, 4], [3, 4]),
             [normal(3, 4), normal(3, 4), rng.uniform(-0.5, 1.5, (3, 4))]),
        Case("lerp.Tensor broadcast", ternary("lerp.Tensor", [4], [3, 1], [], [3, 4]),
             [normal(4), normal(3, 1), np.array(0.3)]),
        Case("addcmul", ternary("addcmul", [3, 4], [4], [3, 1], [3, 4],
                                "{value = 0.5 : f64}"),
             [normal(3, 4), normal(4), normal(3, 1)]),
        Case("addcdiv", ternary("addcdiv", [4], [3, 4], [3, 4], [3, 4],
                                "{value = -2.0 : f64}"),
             [normal(4), normal(3, 4), spread(3, 4, low=0.5)]),
        Case("clamp", unary_attrs("clamp", [3, 4], "{min = -0.5 : f64, max = 0.5 : f64}"),
             [rng.choice([-1.0, 0.0, 1.0], (3, 4)) + spread(3, 4, low=0.05, high=0.45)]),
        Case("clamp min only", unary_attrs("clamp", [3, 4], "{min = 0.0 : f64}"),
             [away_from_zero(3, 4)]),
        Case("clamp max only", unary_attrs("clamp", [3, 4], "{max = 0.0 : f64}"),
             [away_from_zero(3, 4)]),
        Case("clamp_min", scalar("clamp_min", [3, 4], "0.25"), [0.25 + away_from_zero(3, 4)]),
        Case("clamp_max", scalar("clamp_max", [3, 4], "0.25"), [0.25 + away_from_zero(3, 4)]),
        # Bounds broadcast against self; column 3 has min > max (the result
        # is max there); self stays 0.05 away from every bound.
        Case("clamp.Tensor", """
func.func @f(%x: tensor<3x4xf64>, %lo: tensor<4xf64>, %hi: tensor<3x1xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp.Tensor %x min %lo max %hi : (tensor<3x4xf64>, tensor<4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [clamp_points(3, 4), np.array([-0.5, 0.1, -1.0, 0.8]),
       np.array([[0.5], [1.2], [0.3]])]),
        Case("clamp.Tensor min only", """
func.func @f(%x: tensor<3x4xf64>, %lo: tensor<3x1xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp.Tensor %x min %lo : (tensor<3x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [clamp_points(3, 4), np.array([[-0.5], [0.1], [0.8]])]),
        Case("clamp.Tensor max only, broadcast self", """
func.func @f(%x: tensor<4xf64>, %hi: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp.Tensor %x max %hi : (tensor<4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [np.array([-0.75, 0.35, 0.95, 1.5]),
       np.array([[0.5, 1.2, 0.3, -0.5]] * 3) + np.array([[0.0], [0.1], [-0.1]])]),
        Case("where.self broadcast", """
func.func @f(%c: tensor<3x1xi1>, %x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.where.self %c, %x, %y : (tensor<3x1xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [np.array([[True], [False], [True]]), normal(3, 4), normal(4)]),
        Case("where.ScalarOther", """
func.func @f(%c: tensor<3x4xi1>, %x: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.where.ScalarOther %c, %x, 1.5 : (tensor<3x4xi1>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [mask(3, 4), normal(4)]),
        Case("where.ScalarSelf", """
func.func @f(%c: tensor<4xi1>, %x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.where.ScalarSelf %c, -1.0, %x : (tensor<4xi1>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [np.array([True, False, False, True]), normal(3, 4)]),
        Case("masked_fill.Scalar broadcast", """
func.func @f(%x: tensor<4xf64>, %m: tensor<3x4xi1>) -> tensor<3x4xf64> {
  %0 = tad.masked_fill.Scalar %x, %m, -3.0 : (tensor<4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [normal(4), mask(3, 4)]),
        Case("masked_fill.Tensor", """
func.func @f(%x: tensor<3x4xf64>, %m: tensor<3x4xi1>, %v: tensor<f64>) -> tensor<3x4xf64> {
  %0 = tad.masked_fill.Tensor %x, %m, %v : (tensor<3x4xf64>, tensor<3x4xi1>, tensor<f64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [normal(3, 4), mask(3, 4), np.array(0.7)]),
    ],
    "compare": [
        compare_case("eq.Tensor"),
        compare_case("ne.Tensor"),
        compare_case("lt.Tensor"),
        compare_case("le.Tensor"),
        compare_case("gt.Tensor"),
        compare_case("ge.Tensor"),
        compare_case("eq.Scalar", "0.5"),
        compare_case("ne.Scalar", "0.5"),
        compare_case("lt.Scalar", "0.5"),
        compare_case("le.Scalar", "-0.5"),
        compare_case("gt.Scalar", "0.0"),
        compare_case("ge.Scalar", "1.0"),
        Case("lt.Tensor i64", """
func.func @f(%x: tensor<3x4xf64>, %i: tensor<3x4xi64>, %j: tensor<4xi64>) -> tensor<3x4xf64> {
  %c = tad.lt.Tensor %i, %j : (tensor<3x4xi64>, tensor<4xi64>) -> tensor<3x4xi1>
  %n = tad.neg %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %n : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [normal(3, 4), rng.integers(-3, 3, (3, 4)), rng.integers(-3, 3, 4)]),
        Case("isnan", """
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.isnan %x : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %0 = tad.masked_fill.Scalar %x, %c, 0.0 : (tensor<3x4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [normal(3, 4)]),
        Case("logical_and logical_or logical_not", """
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>, %k: tensor<4xi64>) -> tensor<3x4xf64> {
  %a = tad.gt.Scalar %x, 0.0 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %b = tad.lt.Scalar %y, 0.0 : (tensor<4xf64>) -> tensor<4xi1>
  %c = tad.logical_and %a, %b : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
  %d = tad.logical_or %c, %k : (tensor<3x4xi1>, tensor<4xi64>) -> tensor<3x4xi1>
  %e = tad.logical_not %d : (tensor<3x4xi1>) -> tensor<3x4xi1>
  %p = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  %0 = tad.masked_fill.Scalar %p, %e, 2.0 : (tensor<3x4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [away_from_zero(3, 4), np.array([-0.5, 0.3, 0.7, -1.2]),
       np.array([0, 2, 0, 0], dtype=np.int64)]),
    ],
    "random": [
        Case("native_dropout.key", """
func.func @f(%x: tensor<4x8xf64>, %key: tensor<i64>) -> tensor<4x8xf64> {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.3 : f64} : (tensor<4x8xf64>, tensor<i64>) -> (tensor<4x8xf64>, tensor<4x8xi1>)
  %0 = tad.mul.Tensor %y, %x : (tensor<4x8xf64>, tensor<4x8xf64>) -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}""", [normal(4, 8), np.array(42, dtype=np.int64)]),
        Case("native_dropout.key eval", """
func.func @f(%x: tensor<3xf64>, %key: tensor<i64>) -> tensor<3xf64> {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.5 : f64, train = false} : (tensor<3xf64>, tensor<i64>) -> (tensor<3xf64>, tensor<3xi1>)
  return %y : tensor<3xf64>
}""", [normal(3), np.array(7, dtype=np.int64)]),
        Case("native_dropout_backward", """
func.func @f(%g: tensor<3x4xf64>, %m: tensor<4xi1>) -> tensor<3x4xf64> {
  %0 = tad.native_dropout_backward %g, %m {scale = 2.5 : f64} : (tensor<3x4xf64>, tensor<4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}""", [normal(3, 4), np.array([True, False, True, True])]),
    ],
}
