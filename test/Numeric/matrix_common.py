"""Builders shared by the numeric test matrix files (cases_*.py)."""

import numpy as np

def t(shape):
    return "tensor<%sf64>" % "".join("%dx" % d for d in shape)


def unary(op, shape, body=None):
    """@f(x) = op(x)."""
    return """
func.func @f(%%x: %(T)s) -> %(T)s {
  %%0 = tad.%(op)s %%x : %(T)s
  return %%0 : %(T)s
}""" % {"op": op, "T": t(shape)}


def binary(op, lhs, rhs, out, attrs=""):
    """@f(x, y) = op(x, y) with broadcasting."""
    return """
func.func @f(%%x: %(A)s, %%y: %(B)s) -> %(C)s {
  %%0 = tad.%(op)s %%x, %%y %(attrs)s : (%(A)s, %(B)s) -> %(C)s
  return %%0 : %(C)s
}""" % {"op": op, "A": t(lhs), "B": t(rhs), "C": t(out), "attrs": attrs}


def scalar(op, shape, value, attrs=""):
    """@f(x) = op(x, value)."""
    return """
func.func @f(%%x: %(T)s) -> %(T)s {
  %%0 = tad.%(op)s %%x, %(v)s %(attrs)s : %(T)s
  return %%0 : %(T)s
}""" % {"op": op, "T": t(shape), "v": value, "attrs": attrs}


def shaped(op, shape, out, attrs=""):
    """@f(x) = op(x) for ops printed with a functional type."""
    return """
func.func @f(%%x: %(A)s) -> %(B)s {
  %%0 = tad.%(op)s %%x %(attrs)s : (%(A)s) -> %(B)s
  return %%0 : %(B)s
}""" % {"op": op, "A": t(shape), "B": t(out), "attrs": attrs}


def ternary(op, a, b, c, out, attrs=""):
    return """
func.func @f(%%x: %(A)s, %%y: %(B)s, %%z: %(C)s) -> %(D)s {
  %%0 = tad.%(op)s %%x, %%y, %%z %(attrs)s : (%(A)s, %(B)s, %(C)s) -> %(D)s
  return %%0 : %(D)s
}""" % {"op": op, "A": t(a), "B": t(b), "C": t(c), "D": t(out),
        "attrs": attrs}


rng = np.random.default_rng(1234)


def normal(*shape):
    return rng.standard_normal(shape)


def positive(*shape):
    return rng.uniform(0.5, 2.0, shape)


def away_from_zero(*shape):
    """Values with |v| >= 0.1, so kinks (relu, threshold) are not probed."""
    return rng.uniform(0.1, 1.0, shape) * rng.choice([-1.0, 1.0], shape)


