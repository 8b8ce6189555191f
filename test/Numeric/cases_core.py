"""Numeric test cases for the first op set: arithmetic, elementwise math,
matmul, reductions, shape ops, losses, creation."""

from gradcheck import Case
from matrix_common import (away_from_zero, binary, normal, positive, scalar,
                           shaped, ternary, unary)

FAMILIES = {
    "arith": [
        Case("add.Tensor same-shape", binary("add.Tensor", [3, 4], [3, 4], [3, 4]),
             [normal(3, 4), normal(3, 4)]),
        Case("add.Tensor broadcast-trailing", binary("add.Tensor", [3, 4], [4], [3, 4]),
             [normal(3, 4), normal(4)]),
        Case("add.Tensor broadcast-both", binary("add.Tensor", [3, 1], [1, 4], [3, 4]),
             [normal(3, 1), normal(1, 4)]),
        Case("add.Tensor alpha", binary("add.Tensor", [2, 3], [3], [2, 3],
                                        "{alpha = 2.5 : f64}"),
             [normal(2, 3), normal(3)]),
        Case("sub.Tensor alpha broadcast", binary("sub.Tensor", [2, 3], [2, 1], [2, 3],
                                                  "{alpha = -1.5 : f64}"),
             [normal(2, 3), normal(2, 1)]),
        Case("mul.Tensor broadcast", binary("mul.Tensor", [3, 4], [4], [3, 4]),
             [normal(3, 4), normal(4)]),
        Case("mul.Tensor rank-0", binary("mul.Tensor", [], [2, 3], [2, 3]),
             [normal(), normal(2, 3)]),
        Case("div.Tensor broadcast", binary("div.Tensor", [3, 4], [4], [3, 4]),
             [normal(3, 4), positive(4)]),
        Case("div.Tensor same-shape", binary("div.Tensor", [2, 3], [2, 3], [2, 3]),
             [normal(2, 3), -positive(2, 3)]),
        Case("add.Scalar", scalar("add.Scalar", [2, 3], "1.5",
                                  "{alpha = 2.0 : f64}"), [normal(2, 3)]),
        Case("sub.Scalar", scalar("sub.Scalar", [2, 3], "0.5"), [normal(2, 3)]),
        Case("rsub.Scalar", scalar("rsub.Scalar", [2, 3], "1.0",
                                   "{alpha = 3.0 : f64}"), [normal(2, 3)]),
        Case("mul.Scalar", scalar("mul.Scalar", [4], "-2.5"), [normal(4)]),
        Case("div.Scalar", scalar("div.Scalar", [4], "4.0"), [normal(4)]),
    ],
    "elementwise": [
        Case("neg", unary("neg", [2, 3]), [normal(2, 3)]),
        Case("exp", unary("exp", [2, 3]), [normal(2, 3)]),
        Case("log", unary("log", [2, 3]), [positive(2, 3)]),
        Case("tanh", unary("tanh", [2, 3]), [normal(2, 3)]),
        Case("sigmoid", unary("sigmoid", [2, 3]), [normal(2, 3)]),
        Case("relu", unary("relu", [3, 4]), [away_from_zero(3, 4)]),
        Case("threshold_backward", """
func.func @f(%g: tensor<2x3xf64>, %x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.threshold_backward %g, %x, 0.25 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}""",
             [normal(2, 3), 0.25 + away_from_zero(2, 3)]),
        Case("tanh_backward", binary("tanh_backward", [2, 3], [2, 3], [2, 3]),
             [normal(2, 3), normal(2, 3)]),
        Case("sigmoid_backward broadcast", binary("sigmoid_backward", [3], [2, 3], [2, 3]),
             [normal(3), normal(2, 3)]),
    ],
    "matmul": [
        Case("mm", binary("mm", [3, 4], [4, 2], [3, 2]), [normal(3, 4), normal(4, 2)]),
        Case("mm vector-like", binary("mm", [1, 5], [5, 1], [1, 1]),
             [normal(1, 5), normal(5, 1)]),
        Case("addmm bias-broadcast", ternary("addmm", [2], [3, 4], [4, 2], [3, 2]),
             [normal(2), normal(3, 4), normal(4, 2)]),
        Case("addmm beta-alpha", ternary("addmm", [3, 2], [3, 4], [4, 2], [3, 2],
                                         "{alpha = 0.5 : f64, beta = 2.0 : f64}"),
             [normal(3, 2), normal(3, 4), normal(4, 2)]),
    ],
    "reduction": [
        Case("sum", shaped("sum", [2, 3], []), [normal(2, 3)]),
        Case("sum.dim_IntList dim=1", shaped("sum.dim_IntList", [2, 3, 4], [2, 4],
                                             "{dim = array<i64: 1>}"),
             [normal(2, 3, 4)]),
        Case("sum.dim_IntList keepdim", shaped("sum.dim_IntList", [2, 3, 4], [2, 1, 4],
                                               "{dim = array<i64: 1>, keepdim = true}"),
             [normal(2, 3, 4)]),
        Case("sum.dim_IntList dims=[0,-1]", shaped("sum.dim_IntList", [2, 3, 4], [3],
                                                   "{dim = array<i64: 0, -1>}"),
             [normal(2, 3, 4)]),
        Case("sum.dim_IntList all", shaped("sum.dim_IntList", [2, 3], [],
                                           "{dim = array<i64>}"), [normal(2, 3)]),
        Case("mean", shaped("mean", [3, 4], []), [normal(3, 4)]),
        Case("mean.dim", shaped("mean.dim", [2, 3, 4], [2, 3], "{dim = array<i64: 2>}"),
             [normal(2, 3, 4)]),
        Case("mean.dim keepdim", shaped("mean.dim", [2, 3, 4], [1, 3, 1],
                                        "{dim = array<i64: 0, 2>, keepdim = true}"),
             [normal(2, 3, 4)]),
        Case("sum_to_size", shaped("sum_to_size", [2, 3, 4], [3, 1],
                                   "{size = array<i64: 3, 1>}"), [normal(2, 3, 4)]),
    ],
    "shape": [
        Case("t", shaped("t", [2, 3], [3, 2]), [normal(2, 3)]),
        Case("t vector", shaped("t", [3], [3]), [normal(3)]),
        Case("transpose.int", shaped("transpose.int", [2, 3, 4], [4, 3, 2],
                                     "{dim0 = 0 : i64, dim1 = -1 : i64}"),
             [normal(2, 3, 4)]),
        # other is read for its sizes only (non-differentiable).
        Case("expand_as", """
func.func @f(%x: tensor<3x1xf64>, %y: tensor<2x3x4xf64> {tad.nondiff}) -> tensor<2x3x4xf64> {
  %e = tad.expand_as %x, %y : (tensor<3x1xf64>, tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %0 = tad.mul.Tensor %e, %y : (tensor<2x3x4xf64>, tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  return %0 : tensor<2x3x4xf64>
}""", [normal(3, 1), normal(2, 3, 4)], diff=[0]),
        Case("expand", shaped("expand", [3, 1], [2, 3, 4],
                              "{size = array<i64: 2, -1, 4>}"), [normal(3, 1)]),
        Case("view", shaped("view", [2, 3, 4], [6, 4], "{size = array<i64: 6, -1>}"),
             [normal(2, 3, 4)]),
        Case("reshape", shaped("reshape", [2, 6], [3, 4], "{shape = array<i64: 3, 4>}"),
             [normal(2, 6)]),
        Case("unsqueeze", shaped("unsqueeze", [2, 3], [2, 1, 3], "{dim = 1 : i64}"),
             [normal(2, 3)]),
        Case("squeeze.dim", shaped("squeeze.dim", [2, 1, 3], [2, 3], "{dim = -2 : i64}"),
             [normal(2, 1, 3)]),
    ],
    "loss": [
        Case("mse_loss mean", binary("mse_loss", [3, 4], [3, 4], []),
             [normal(3, 4), normal(3, 4)]),
        Case("mse_loss sum", binary("mse_loss", [3, 4], [3, 4], [],
                                    "{reduction = 2 : i64}"),
             [normal(3, 4), normal(3, 4)]),
        Case("mse_loss none broadcast", binary("mse_loss", [3, 4], [4], [3, 4],
                                               "{reduction = 0 : i64}"),
             [normal(3, 4), normal(4)]),
        Case("mse_loss_backward mean", ternary("mse_loss_backward", [], [3, 4], [3, 4],
                                               [3, 4], "{reduction = 1 : i64}"),
             [normal(), normal(3, 4), normal(3, 4)]),
        Case("mse_loss_backward none", ternary("mse_loss_backward", [3, 4], [3, 4], [3, 4],
                                               [3, 4], "{reduction = 0 : i64}"),
             [normal(3, 4), normal(3, 4), normal(3, 4)]),
    ],
    "creation": [
        # Creation ops are not differentiable; their users still are.
        Case("full_like", """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %c = tad.full_like %x, 2.5 : tensor<2x3xf64>
  %0 = tad.mul.Tensor %x, %c : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}""", [normal(2, 3)]),
        Case("zeros_like", """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %z = tad.zeros_like %x : tensor<2x3xf64>
  %0 = tad.add.Tensor %x, %z : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = tad.exp %0 : tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}""", [normal(2, 3)]),
        Case("constant", """
func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c = tad.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf64>
  %0 = tad.mul.Tensor %x, %c : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}""", [normal(3)]),
    ],
}


