"""Numeric test cases for the ops through which no gradient flows:
detach (a stop-gradient, dialects/Tad/TadShapeOps.td), _shape_as_tensor
and where.self on integer tensors (index arithmetic)."""

import numpy as np

from gradcheck import Case
from matrix_common import normal, rng

FAMILIES = {
    "no_gradient": [
        # f(x, w) = x * detach(exp(w)): w is not differentiated (a detach
        # stops its gradient; test/Numeric/stop_gradient.py checks that the
        # gradient through the detach is exactly 0).
        Case("detach", """
func.func @f(%x: tensor<2x3xf64>, %w: tensor<2x3xf64> {tad.nondiff}) -> tensor<2x3xf64> {
  %e = tad.exp %w : tensor<2x3xf64>
  %d = tad.detach %e : tensor<2x3xf64>
  %0 = tad.mul.Tensor %x, %d : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}""", [normal(2, 3), normal(2, 3)], diff=[0]),
        # A size read as a number (how rules read a dynamic size): x * 3.
        Case("_shape_as_tensor", """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %s = tad._shape_as_tensor %x : (tensor<2x3xf64>) -> tensor<2xi64>
  %n = tad.select.int %s {dim = 0 : i64, index = 1 : i64} : (tensor<2xi64>) -> tensor<i64>
  %f = tad._to_copy %n {dtype = f64} : (tensor<i64>) -> tensor<f64>
  %0 = tad.mul.Tensor %x, %f : (tensor<2x3xf64>, tensor<f64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}""", [normal(2, 3)]),
        # Integer where.self chooses gather indices (as grid_sample's
        # decomposition does); the gradient flows through the gather.
        Case("where.self integer", """
func.func @f(%x: tensor<3x4xf64>, %i: tensor<3x2xi64>, %j: tensor<3x2xi64>, %c: tensor<3x2xi1>) -> tensor<3x2xf64> {
  %k = tad.where.self %c, %i, %j : (tensor<3x2xi1>, tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
  %0 = tad.gather %x, %k {dim = 1 : i64} : (tensor<3x4xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}""", [normal(3, 4), rng.integers(0, 4, (3, 2)), rng.integers(0, 4, (3, 2)),
       rng.random((3, 2)) < 0.5]),
    ],
}
