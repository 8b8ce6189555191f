"""Numeric test cases for the inverse trigonometric functions (atan, asin,
acos, atan2), the accurate tails of exp and erf (expm1, erfc) and the
log-gamma family (lgamma, digamma, polygamma)
(dialects/Tad/TadElementwiseOps.td, "Elementwise math").

Inputs stay inside the domains (|x| < 0.9 for asin/acos, away from the
origin for atan2, away from the poles of the gamma family) where central
differences are meaningful."""

import numpy as np

from gradcheck import Case
from matrix_common import binary, normal, rng, unary


def inside_unit(*shape):
    """Values in (-0.9, 0.9): asin and acos are smooth there."""
    return rng.uniform(-0.9, 0.9, shape)


def away_from_origin(*shape):
    """Points (y, x) at least 0.3 from the origin, in all four quadrants
    (atan2's branch cut on the negative x axis is avoided: |y| >= 0.3)."""
    y = rng.uniform(0.3, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    x = rng.uniform(-1.5, 1.5, shape)
    return y, x


_Y, _X = away_from_origin(3, 4)


def unary_attrs(op, shape, attrs):
    """@f(x) = op(x) {attrs}."""
    return """
func.func @f(%%x: %(T)s) -> %(T)s {
  %%0 = tad.%(op)s %%x %(attrs)s : %(T)s
  return %%0 : %(T)s
}""" % {"op": op, "T": "tensor<%sf64>" % "".join("%dx" % d for d in shape),
        "attrs": attrs}


def off_poles(*shape, low=-4.0, high=6.0):
    """Values in [low, high] at least 0.15 from the integers <= 0."""
    v = rng.uniform(low, high, shape)
    near = (v < 0.15) & (np.abs(v - np.round(v)) < 0.15)
    return np.where(near, np.round(v) + 0.3, v)


FAMILIES = {
    "inverse_math": [
        Case("atan", unary("atan", [2, 3]), [normal(2, 3) * 2]),
        Case("asin", unary("asin", [2, 3]), [inside_unit(2, 3)]),
        Case("acos", unary("acos", [2, 3]), [inside_unit(2, 3)]),
        Case("atan2", binary("atan2", [3, 4], [3, 4], [3, 4]), [_Y, _X]),
        Case("atan2 broadcast", binary("atan2", [3, 4], [4], [3, 4]),
             [rng.uniform(0.3, 1.5, (3, 4)), rng.uniform(-1.5, 1.5, 4)]),
        Case("expm1", unary("expm1", [2, 3]), [normal(2, 3)]),
        Case("expm1 near 0", unary("expm1", [4]), [np.array([1e-9, -3e-8, 2e-5, -1e-3])]),
        Case("erfc", unary("erfc", [2, 3]), [normal(2, 3) * 1.5]),
        Case("erfc tail", unary("erfc", [3]), [np.array([3.0, 4.5, 6.0])]),
    ],
    "gamma": [
        Case("lgamma", unary("lgamma", [3, 4]), [off_poles(3, 4)]),
        Case("lgamma large", unary("lgamma", [3]), [np.array([12.5, 40.0, 150.0])]),
        Case("digamma", unary("digamma", [3, 4]), [off_poles(3, 4)]),
        Case("polygamma 1", unary_attrs("polygamma", [3, 4], "{n = 1 : i64}"),
             [off_poles(3, 4)]),
        Case("polygamma 2", unary_attrs("polygamma", [2, 3], "{n = 2 : i64}"),
             [off_poles(2, 3, low=0.3, high=12.0)]),
        Case("polygamma 0", unary_attrs("polygamma", [4], "{n = 0 : i64}"),
             [off_poles(4)]),
    ],
}

