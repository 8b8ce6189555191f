"""Numeric test cases for the tensor op families: reductions
(reduction-stats), batched and vector products (batched-matmul), shape and data
movement (movement), gather/scatter/indexing (indexing).

Index operands are i64 NumPy arrays and are not differentiated (the
default `diff` of Case keeps only float arguments)."""

import numpy as np

from gradcheck import Case
from matrix_common import binary, normal, positive, shaped, t, ternary


def ti(shape):
    return "tensor<%si64>" % "".join("%dx" % d for d in shape)


def idx(values):
    return np.array(values, dtype=np.int64)


def distinct(*shape):
    """Values without ties, well separated (for max/min/amax)."""
    n = int(np.prod(shape))
    return (np.random.default_rng(n).permutation(n) * 0.37 - n * 0.15).reshape(shape)


def with_index(op, xshape, ishape, out, attrs="", operands="%x, %i"):
    """@f(x, i) = op(x, i) for an op taking one float and one i64 tensor."""
    return """
func.func @f(%%x: %(X)s, %%i: %(I)s) -> %(O)s {
  %%0 = tad.%(op)s %(operands)s %(attrs)s : (%(X)s, %(I)s) -> %(O)s
  return %%0 : %(O)s
}""" % {"op": op, "X": t(xshape), "I": ti(ishape), "O": t(out),
        "attrs": attrs, "operands": operands}


def scatter(op, xshape, ishape, sshape, attrs):
    return """
func.func @f(%%x: %(X)s, %%i: %(I)s, %%s: %(S)s) -> %(X)s {
  %%0 = tad.%(op)s %%x, %%i, %%s %(attrs)s : (%(X)s, %(I)s, %(S)s) -> %(X)s
  return %%0 : %(X)s
}""" % {"op": op, "X": t(xshape), "I": ti(ishape), "S": t(sshape),
        "attrs": attrs}


def selecting(op, shape, out, attrs):
    """@f(x) = values of max.dim/min.dim (the indices are not float)."""
    return """
func.func @f(%%x: %(X)s) -> %(O)s {
  %%v, %%i = tad.%(op)s %%x %(attrs)s : (%(X)s) -> (%(O)s, %(OI)s)
  return %%v : %(O)s
}""" % {"op": op, "X": t(shape), "O": t(out), "OI": ti(out), "attrs": attrs}


def multi(op, shape, outs, attrs=""):
    """@f(x) returning every result of a Tensor[]-returning op."""
    results = ", ".join(t(o) for o in outs)
    names = ", ".join("%%r#%d" % k for k in range(len(outs)))
    return """
func.func @f(%%x: %(X)s) -> (%(R)s) {
  %%r:%(n)d = tad.%(op)s %%x %(attrs)s : (%(X)s) -> (%(R)s)
  return %(names)s : %(R)s
}""" % {"op": op, "X": t(shape), "R": results, "n": len(outs),
        "names": names, "attrs": attrs}


FAMILIES = {
    "reduction-stats": [
        Case("amax dim=1", shaped("amax", [3, 4], [3], "{dim = array<i64: 1>}"),
             [distinct(3, 4)]),
        Case("amax all keepdim", shaped("amax", [2, 3], [1, 1], "{keepdim = true}"),
             [distinct(2, 3)]),
        # Ties share the gradient (and the tangent is their mean).
        Case("amax ties", shaped("amax", [2, 3], [2], "{dim = array<i64: -1>}"),
             [np.array([[1.0, 3.0, 3.0], [2.0, -1.0, 0.5]])]),
        Case("amin dims=[0,2]", shaped("amin", [2, 3, 2], [3],
                                       "{dim = array<i64: 0, 2>}"),
             [distinct(2, 3, 2)]),
        Case("max", shaped("max", [3, 4], []), [distinct(3, 4)]),
        Case("min ties", shaped("min", [2, 2], []),
             [np.array([[0.5, -1.0], [-1.0, 2.0]])]),
        Case("max.dim", selecting("max.dim", [3, 4], [3], "{dim = 1 : i64}"),
             [distinct(3, 4)]),
        Case("max.dim keepdim", selecting("max.dim", [3, 4], [1, 4],
                                          "{dim = 0 : i64, keepdim = true}"),
             [distinct(3, 4)]),
        Case("min.dim", selecting("min.dim", [2, 3, 4], [2, 4], "{dim = -2 : i64}"),
             [distinct(2, 3, 4)]),
        Case("value_selecting_reduction_backward", with_index(
            "value_selecting_reduction_backward", [3], [3], [3, 4],
            "{dim = 1 : i64, sizes = array<i64: 3, 4>, keepdim = false}"),
             [normal(3), idx([0, 3, 1])]),
        Case("var.correction dim=1", shaped("var.correction", [3, 4], [3],
                                            "{dim = array<i64: 1>}"),
             [normal(3, 4)]),
        Case("var.correction all c=0 keepdim", shaped(
            "var.correction", [2, 3], [1, 1],
            "{correction = 0.0 : f64, keepdim = true}"), [normal(2, 3)]),
        Case("std.correction", shaped("std.correction", [2, 3, 4], [2, 1, 4],
                                      "{dim = array<i64: 1>, keepdim = true}"),
             [normal(2, 3, 4)]),
        Case("var_mean.correction", """
func.func @f(%x: tensor<3x4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %v, %m = tad.var_mean.correction %x {dim = array<i64: 0>, correction = 2.0 : f64} : (tensor<3x4xf64>) -> (tensor<4xf64>, tensor<4xf64>)
  return %v, %m : tensor<4xf64>, tensor<4xf64>
}""", [normal(3, 4)]),
        Case("logsumexp", shaped("logsumexp", [3, 4], [3], "{dim = array<i64: 1>}"),
             [normal(3, 4)]),
        Case("logsumexp keepdim", shaped("logsumexp", [2, 3, 4], [1, 3, 1],
                                         "{dim = array<i64: 0, 2>, keepdim = true}"),
             [normal(2, 3, 4)]),
        Case("linalg_vector_norm", shaped("linalg_vector_norm", [3, 4], []),
             [normal(3, 4)]),
        Case("linalg_vector_norm ord=1 dim", shaped(
            "linalg_vector_norm", [3, 4], [3],
            "{ord = 1.0 : f64, dim = array<i64: 1>}"),
             [np.abs(normal(3, 4)) + 0.1]),
        Case("linalg_vector_norm ord=3 keepdim", shaped(
            "linalg_vector_norm", [3, 4], [1, 4],
            "{ord = 3.0 : f64, dim = array<i64: 0>, keepdim = true}"),
             [normal(3, 4)]),
        Case("linalg_vector_norm ord=inf", shaped(
            "linalg_vector_norm", [2, 3], [2],
            "{ord = 0x7FF0000000000000 : f64, dim = array<i64: 1>}"),
             [distinct(2, 3)]),
        Case("cumsum", shaped("cumsum", [3, 4], [3, 4], "{dim = 1 : i64}")
             .replace("(tensor<3x4xf64>) -> tensor<3x4xf64>", "tensor<3x4xf64>"),
             [normal(3, 4)]),
        Case("cumsum dim=0", shaped("cumsum", [3, 2], [3, 2], "{dim = -2 : i64}")
             .replace("(tensor<3x2xf64>) -> tensor<3x2xf64>", "tensor<3x2xf64>"),
             [normal(3, 2)]),
    ],
    "batched-matmul": [
        Case("bmm", binary("bmm", [2, 3, 4], [2, 4, 5], [2, 3, 5]),
             [normal(2, 3, 4), normal(2, 4, 5)]),
        Case("baddbmm broadcast", ternary("baddbmm", [3, 1], [2, 3, 4], [2, 4, 2],
                                          [2, 3, 2]),
             [normal(3, 1), normal(2, 3, 4), normal(2, 4, 2)]),
        Case("baddbmm beta-alpha", ternary("baddbmm", [2, 3, 2], [2, 3, 4], [2, 4, 2],
                                           [2, 3, 2],
                                           "{alpha = 0.5 : f64, beta = -2.0 : f64}"),
             [normal(2, 3, 2), normal(2, 3, 4), normal(2, 4, 2)]),
        Case("dot", binary("dot", [5], [5], []), [normal(5), normal(5)]),
        Case("mv", binary("mv", [3, 4], [4], [3]), [normal(3, 4), normal(4)]),
    ],
    "movement": [
        Case("_unsafe_view", shaped("_unsafe_view", [2, 3, 4], [4, 6],
                                    "{size = array<i64: 4, -1>}"), [normal(2, 3, 4)]),
        Case("permute", shaped("permute", [2, 3, 4], [4, 2, 3],
                               "{dims = array<i64: 2, 0, -2>}"), [normal(2, 3, 4)]),
        Case("squeeze", shaped("squeeze", [1, 3, 1, 2], [3, 2]), [normal(1, 3, 1, 2)]),
        Case("slice.Tensor step", shaped("slice.Tensor", [7, 3], [3, 3],
                                         "{start = 1 : i64, end = -1 : i64, step = 2 : i64}"),
             [normal(7, 3)]),
        Case("slice.Tensor dim=1 open end", shaped("slice.Tensor", [2, 5], [2, 3],
                                                   "{dim = 1 : i64, start = -3 : i64}"),
             [normal(2, 5)]),
        Case("slice_backward", shaped("slice_backward", [2, 3], [2, 7],
                                      "{input_sizes = array<i64: 2, 7>, dim = 1 : i64,"
                                      " start = 1 : i64, end = 7 : i64, step = 2 : i64}"),
             [normal(2, 3)]),
        Case("select.int", shaped("select.int", [3, 4, 2], [3, 2],
                                  "{dim = 1 : i64, index = -1 : i64}"), [normal(3, 4, 2)]),
        Case("select_backward", shaped("select_backward", [3, 2], [3, 4, 2],
                                       "{input_sizes = array<i64: 3, 4, 2>, dim = 1 : i64,"
                                       " index = 2 : i64}"), [normal(3, 2)]),
        Case("clone", """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.clone %x : tensor<2x3xf64>
  %1 = tad.mul.Tensor %0, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}""", [normal(2, 3)]),
        # An f32 round trip is a step function at the finite-difference
        # scale; the cast back in its VJP is checked in
        # test/Passes/AD/vjp-tensor.mlir instead.
        Case("_to_copy same dtype", """
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad._to_copy %x {dtype = f64} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = tad.mul.Tensor %0, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}""", [normal(2, 3)]),
        Case("_to_copy i64->f64", """
func.func @f(%x: tensor<3xf64>, %i: tensor<3xi64>) -> tensor<3xf64> {
  %0 = tad._to_copy %i {dtype = f64} : (tensor<3xi64>) -> tensor<3xf64>
  %1 = tad.mul.Tensor %0, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %1 : tensor<3xf64>
}""", [normal(3), idx([2, -1, 5])]),
        Case("cat", """
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x1xf64>, %c: tensor<2x2xf64>) -> tensor<2x6xf64> {
  %0 = tad.cat %a, %b, %c {dim = -1 : i64} : (tensor<2x3xf64>, tensor<2x1xf64>, tensor<2x2xf64>) -> tensor<2x6xf64>
  return %0 : tensor<2x6xf64>
}""", [normal(2, 3), normal(2, 1), normal(2, 2)]),
        Case("cat one input used twice", """
func.func @f(%a: tensor<2x3xf64>) -> tensor<4x3xf64> {
  %0 = tad.cat %a, %a : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}""", [normal(2, 3)]),
        Case("stack", """
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x2x3xf64> {
  %0 = tad.stack %a, %b {dim = 1 : i64} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x2x3xf64>
  return %0 : tensor<2x2x3xf64>
}""", [normal(2, 3), normal(2, 3)]),
        Case("split.Tensor", multi("split.Tensor", [5, 2], [[2, 2], [2, 2], [1, 2]],
                                   "{split_size = 2 : i64}"), [normal(5, 2)]),
        # Only one piece used: the others' gradients are symbolic zeros.
        Case("split.Tensor one piece used", """
func.func @f(%x: tensor<2x5xf64>) -> tensor<2x3xf64> {
  %r:2 = tad.split.Tensor %x {split_size = 3 : i64, dim = 1 : i64} : (tensor<2x5xf64>) -> (tensor<2x3xf64>, tensor<2x2xf64>)
  return %r#0 : tensor<2x3xf64>
}""", [normal(2, 5)]),
        Case("split_with_sizes", multi("split_with_sizes", [2, 6], [[2, 1], [2, 3], [2, 2]],
                                       "{split_sizes = array<i64: 1, 3, 2>, dim = 1 : i64}"),
             [normal(2, 6)]),
        Case("unbind.int", multi("unbind.int", [3, 2], [[3], [3]], "{dim = 1 : i64}"),
             [normal(3, 2)]),
        Case("repeat", shaped("repeat", [2, 3], [2, 4, 3],
                              "{repeats = array<i64: 2, 2, 1>}"), [normal(2, 3)]),
        Case("constant_pad_nd", shaped("constant_pad_nd", [2, 3], [3, 4],
                                       "{pad = array<i64: 2, -1, 0, 1>, value = 1.5 : f64}"),
             [normal(2, 3)]),
        Case("flip", shaped("flip", [2, 3, 2], [2, 3, 2], "{dims = array<i64: 0, -1>}")
             .replace("(tensor<2x3x2xf64>) -> tensor<2x3x2xf64>", "tensor<2x3x2xf64>"),
             [normal(2, 3, 2)]),
        Case("tril", shaped("tril", [3, 4], [3, 4], "{diagonal = 1 : i64}")
             .replace("(tensor<3x4xf64>) -> tensor<3x4xf64>", "tensor<3x4xf64>"),
             [normal(3, 4)]),
    ],
    "indexing": [
        Case("index_select", with_index("index_select", [5, 3], [4], [4, 3],
                                        "{dim = 0 : i64}"),
             [normal(5, 3), idx([4, 0, 4, 2])]),
        Case("index_select dim=1", with_index("index_select", [2, 4], [3], [2, 3],
                                              "{dim = -1 : i64}"),
             [normal(2, 4), idx([1, 1, 3])]),
        Case("index_add", """
func.func @f(%x: tensor<4x2xf64>, %i: tensor<3xi64>, %s: tensor<3x2xf64>) -> tensor<4x2xf64> {
  %0 = tad.index_add %x, %i, %s {dim = 0 : i64, alpha = 2.0 : f64} : (tensor<4x2xf64>, tensor<3xi64>, tensor<3x2xf64>) -> tensor<4x2xf64>
  return %0 : tensor<4x2xf64>
}""", [normal(4, 2), idx([3, 0, 3]), normal(3, 2)]),
        Case("gather", with_index("gather", [3, 4], [3, 2], [3, 2], "{dim = 1 : i64}"),
             [normal(3, 4), idx([[0, 3], [1, 1], [2, 0]])]),
        Case("gather smaller index", with_index("gather", [3, 4], [2, 1], [2, 1],
                                                "{dim = 0 : i64}"),
             [normal(3, 4), idx([[2], [0]])]),
        Case("scatter.src", scatter("scatter.src", [3, 4], [3, 2], [3, 2],
                                    "{dim = 1 : i64}"),
             [normal(3, 4), idx([[0, 3], [1, 2], [2, 0]]), normal(3, 2)]),
        Case("scatter.value", with_index("scatter.value", [3, 4], [2, 2], [3, 4],
                                         "{dim = 0 : i64}", "%x, %i, 2.5"),
             [normal(3, 4), idx([[0, 2], [1, 0]])]),
        Case("scatter_add", scatter("scatter_add", [3, 4], [2, 3], [2, 3],
                                    "{dim = 1 : i64}"),
             [normal(3, 4), idx([[0, 3, 0], [1, 1, 2]]), normal(2, 3)]),
        Case("index.Tensor", with_index("index.Tensor", [5, 3], [4], [4, 3], "",
                                        "%x, %i"),
             [normal(5, 3), idx([1, -1, 1, 0])]),
        Case("index.Tensor two indices", """
func.func @f(%x: tensor<4x3x2xf64>, %i: tensor<2x1xi64>, %j: tensor<3xi64>) -> tensor<2x3x2xf64> {
  %0 = tad.index.Tensor %x, %i, %j : (tensor<4x3x2xf64>, tensor<2x1xi64>, tensor<3xi64>) -> tensor<2x3x2xf64>
  return %0 : tensor<2x3x2xf64>
}""", [normal(4, 3, 2), idx([[3], [0]]), idx([2, 0, 2])]),
        Case("index_put", """
func.func @f(%x: tensor<5x2xf64>, %i: tensor<3xi64>, %v: tensor<3x2xf64>) -> tensor<5x2xf64> {
  %0 = tad.index_put %x, [%i], %v : (tensor<5x2xf64>, tensor<3xi64>, tensor<3x2xf64>) -> tensor<5x2xf64>
  return %0 : tensor<5x2xf64>
}""", [normal(5, 2), idx([4, 0, 2]), normal(3, 2)]),
        Case("index_put accumulate broadcast", """
func.func @f(%x: tensor<5x2xf64>, %i: tensor<3xi64>, %v: tensor<2xf64>) -> tensor<5x2xf64> {
  %0 = tad.index_put %x, [%i], %v {accumulate = true} : (tensor<5x2xf64>, tensor<3xi64>, tensor<2xf64>) -> tensor<5x2xf64>
  return %0 : tensor<5x2xf64>
}""", [normal(5, 2), idx([4, -1, 2]), normal(2)]),
        Case("embedding", with_index("embedding", [5, 3], [2, 3], [2, 3, 3]),
             [normal(5, 3), idx([[0, 4, 4], [1, 0, 2]])]),
        # The padding row gets no gradient (upstream's choice, not the
        # derivative), so the indices here avoid it; embedding_dense_backward
        # below checks the padding row itself.
        Case("embedding padding_idx", with_index("embedding", [5, 3], [4], [4, 3],
                                                 "{padding_idx = 4 : i64}"),
             [normal(5, 3), idx([2, 1, 1, 0])]),
        Case("embedding_dense_backward", with_index(
            "embedding_dense_backward", [4, 3], [4], [5, 3],
            "{num_weights = 5 : i64, padding_idx = 1 : i64, scale_grad_by_freq = false}"),
             [normal(4, 3), idx([0, 1, 3, 0])]),
    ],
}
