"""Second-order checks of the tensor op families: VJP of VJP and
JVP of VJP (Hessian-vector products) of a small model that uses the P0
reduction, matmul, shape and indexing ops, against central differences of
the compiled gradient (see second_order.py).

Every backward op the first-order rules emit here (value_selecting_reduction
_backward, slice_backward, select_backward, index_add, scatter_add,
embedding_dense_backward, split_with_sizes, cat, stack, unbind, permute,
...) needs a rule of its own for this to compile.
"""

import sys

import numpy as np

from gradcheck import Case, run_cases

rng = np.random.default_rng(11)

MODEL = """
func.func @f(%x: tensor<2x3x4xf64>, %w: tensor<2x4x3xf64>, %e: tensor<5x3xf64>,
             %i: tensor<4xi64>, %g: tensor<2x3x1xi64>) -> tensor<f64> {
  %0 = tad.bmm %x, %w : (tensor<2x3x4xf64>, tensor<2x4x3xf64>) -> tensor<2x3x3xf64>
  %1 = tad.permute %0 {dims = array<i64: 0, 2, 1>} : (tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  %2 = tad.clone %1 : tensor<2x3x3xf64>
  %3 = tad._unsafe_view %2 {size = array<i64: 6, 3>} : (tensor<2x3x3xf64>) -> tensor<6x3xf64>
  %4 = tad.slice.Tensor %3 {start = 1 : i64, end = 5 : i64} : (tensor<6x3xf64>) -> tensor<4x3xf64>
  %5 = tad.index_select %e, %i {dim = 0 : i64} : (tensor<5x3xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  %6 = tad.mul.Tensor %4, %5 : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %7 = tad.embedding %e, %i : (tensor<5x3xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  %8 = tad.cat %6, %7 {dim = 1 : i64} : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x6xf64>
  %9:2 = tad.split.Tensor %8 {split_size = 3 : i64, dim = 1 : i64} : (tensor<4x6xf64>) -> (tensor<4x3xf64>, tensor<4x3xf64>)
  %10 = tad.stack %9#0, %9#1 : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<2x4x3xf64>
  %11:2 = tad.unbind.int %10 : (tensor<2x4x3xf64>) -> (tensor<4x3xf64>, tensor<4x3xf64>)
  %12 = tad.mul.Tensor %11#0, %11#1 : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %13 = tad.add.Tensor %12, %6 : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %l = tad.logsumexp %13 {dim = array<i64: 1>} : (tensor<4x3xf64>) -> tensor<4xf64>
  %a = tad.amax %13 {dim = array<i64: 0>} : (tensor<4x3xf64>) -> tensor<3xf64>
  %v, %vi = tad.max.dim %13 {dim = 1 : i64} : (tensor<4x3xf64>) -> (tensor<4xf64>, tensor<4xi64>)
  %s = tad.var.correction %13 {dim = array<i64: 0>} : (tensor<4x3xf64>) -> tensor<3xf64>
  %r = tad.select.int %13 {dim = 0 : i64, index = 2 : i64} : (tensor<4x3xf64>) -> tensor<3xf64>
  %q = tad.gather %x, %g {dim = 2 : i64} : (tensor<2x3x4xf64>, tensor<2x3x1xi64>) -> tensor<2x3x1xf64>
  %p:2 = tad.split_with_sizes %x {split_sizes = array<i64: 1, 3>, dim = 2 : i64} : (tensor<2x3x4xf64>) -> (tensor<2x3x1xf64>, tensor<2x3x3xf64>)
  %c = tad._to_copy %l {dtype = f64} : (tensor<4xf64>) -> tensor<4xf64>
  %t0 = tad.mul.Tensor %l, %v : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %t1 = tad.mul.Tensor %a, %s : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %t2 = tad.mul.Tensor %r, %a : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %t3 = tad.mul.Tensor %q, %p#0 : (tensor<2x3x1xf64>, tensor<2x3x1xf64>) -> tensor<2x3x1xf64>
  %t4 = tad.mul.Tensor %p#1, %p#1 : (tensor<2x3x3xf64>, tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  %t5 = tad.mul.Tensor %c, %c : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %s0 = tad.sum %t0 : (tensor<4xf64>) -> tensor<f64>
  %s1 = tad.sum %t1 : (tensor<3xf64>) -> tensor<f64>
  %s2 = tad.sum %t2 : (tensor<3xf64>) -> tensor<f64>
  %s3 = tad.sum %t3 : (tensor<2x3x1xf64>) -> tensor<f64>
  %s4 = tad.sum %t4 : (tensor<2x3x3xf64>) -> tensor<f64>
  %s5 = tad.sum %t5 : (tensor<4xf64>) -> tensor<f64>
  %u0 = tad.add.Tensor %s0, %s1 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %u1 = tad.add.Tensor %u0, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %u2 = tad.add.Tensor %u1, %s3 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %u3 = tad.add.Tensor %u2, %s4 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %u4 = tad.add.Tensor %u3, %s5 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %u4 : tensor<f64>
}
"""


def model_args():
    x = rng.standard_normal((2, 3, 4))
    w = rng.standard_normal((2, 4, 3))
    e = rng.standard_normal((5, 3))
    i = np.array([3, 0, 3, 1], dtype=np.int64)
    g = rng.integers(0, 4, (2, 3, 1)).astype(np.int64)
    return [x, w, e, i, g]


def main():
    # f_vjp(x, w, e, i, g, ct) -> (loss, gx, gw, ge)
    vjp_args = model_args() + [np.array(0.7)]
    failures = run_cases([Case("tensor model vjp-of-vjp", MODEL, vjp_args,
                               func="f_vjp", first=["f"])], modes=("vjp",))
    failures += run_cases([Case("tensor model jvp-of-vjp (HVP)", MODEL, vjp_args,
                                func="f_vjp", first=["f"])], modes=("jvp",))
    print("%d passed, %d failed" % (2 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
