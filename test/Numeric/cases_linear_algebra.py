"""Numeric test cases for the linear-algebra primitives of
dialects/Tad/TadLinearAlgebraOps.td (linalg_inv_ex, _linalg_slogdet,
linalg_cholesky_ex; f64 C kernels of runtime/src/cpu/linalg.c): VJP and
JVP of one differentiable result each.

Matrices are well conditioned (the identity times 3 plus noise) so that
central differences are accurate. Cholesky reads one triangle of a
symmetric input, and its derivative (upstream's) is the symmetric one, so
its cases factor the symmetric part (x + x^T) / 2 of a symmetric
positive-definite x."""

import numpy as np

from gradcheck import Case
from matrix_common import rng


def t(shape, dtype="f64"):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dtype)


def well_conditioned(*shape):
    n = shape[-1]
    return rng.normal(size=shape) * 0.5 + 3 * np.eye(n)


def spd(*shape):
    a = rng.normal(size=shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def inverse(shape):
    batch = shape[:-2]
    return """
func.func @f(%%a: %(A)s) -> %(A)s {
  %%0:2 = tad.linalg_inv_ex %%a : (%(A)s) -> (%(A)s, %(I)s)
  return %%0#0 : %(A)s
}""" % {"A": t(shape), "I": t(batch, "i32")}


def slogdet(shape):
    batch = shape[:-2]
    return """
func.func @f(%%a: %(A)s) -> %(B)s {
  %%0:4 = tad._linalg_slogdet %%a : (%(A)s) -> (%(B)s, %(B)s, %(A)s, %(P)s)
  return %%0#1 : %(B)s
}""" % {"A": t(shape), "B": t(batch), "P": t(shape[:-1], "i32")}


def cholesky(shape, upper):
    batch, rank = shape[:-2], len(shape)
    return """
func.func @f(%%x: %(A)s) -> %(A)s {
  %%xt = tad.transpose.int %%x {dim0 = %(d0)d : i64, dim1 = %(d1)d : i64} : (%(A)s) -> %(A)s
  %%s = tad.add.Tensor %%x, %%xt : (%(A)s, %(A)s) -> %(A)s
  %%a = tad.mul.Scalar %%s, 0.5 : %(A)s
  %%0:2 = tad.linalg_cholesky_ex %%a {upper = %(upper)s} : (%(A)s) -> (%(A)s, %(I)s)
  return %%0#0 : %(A)s
}""" % {"A": t(shape), "I": t(batch, "i32"), "d0": rank - 2, "d1": rank - 1,
        "upper": "true" if upper else "false"}


FAMILIES = {
    "linear_algebra": [
        Case("linalg_inv_ex", inverse([3, 3]), [well_conditioned(3, 3)]),
        Case("linalg_inv_ex batched", inverse([2, 4, 4]), [well_conditioned(2, 4, 4)]),
        Case("linalg_inv_ex 1x1", inverse([1, 1]), [np.array([[2.5]])]),
        Case("_linalg_slogdet", slogdet([3, 3]), [well_conditioned(3, 3)]),
        Case("_linalg_slogdet negative det", slogdet([2, 2]),
             [np.array([[0.5, 2.0], [1.5, -0.7]])]),
        Case("_linalg_slogdet batched", slogdet([2, 3, 3]), [well_conditioned(2, 3, 3)]),
        Case("linalg_cholesky_ex", cholesky([3, 3], False), [spd(3, 3)]),
        Case("linalg_cholesky_ex upper", cholesky([3, 3], True), [spd(3, 3)]),
        Case("linalg_cholesky_ex batched", cholesky([2, 4, 4], False), [spd(2, 4, 4)]),
    ],
}
