"""Second order of the P0 ops that the other second-order models do not
use: VJP of VJP and JVP of VJP (Hessian-vector product) of a model with
sub, rsub, mul/div by scalars, mean over dims, mm, matmul, linear, expand,
transpose, squeeze/unsqueeze, batch norm (training, with and without running
statistics), binary cross-entropy and BCE with logits, against finite
differences of the compiled gradient."""

import sys

import numpy as np

from gradcheck import Case, run_cases

rng = np.random.default_rng(13)

MODEL = """
func.func @f(%x: tensor<4x3xf64>, %w: tensor<2x3xf64>, %b: tensor<2xf64>,
             %v: tensor<3x2xf64>, %g: tensor<2xf64>, %rm: tensor<2xf64>,
             %rv: tensor<2xf64>, %t: tensor<4x2xf64>) -> tensor<f64> {
  %0 = tad.linear %x, %w bias %b : (tensor<4x3xf64>, tensor<2x3xf64>, tensor<2xf64>) -> tensor<4x2xf64>
  %1 = tad.mm %x, %v : (tensor<4x3xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
  %2 = tad.sub.Tensor %0, %1 : (tensor<4x2xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
  %3 = tad.unsqueeze %2 {dim = 0 : i64} : (tensor<4x2xf64>) -> tensor<1x4x2xf64>
  %4 = tad.expand %3 {size = array<i64: 2, 4, 2>} : (tensor<1x4x2xf64>) -> tensor<2x4x2xf64>
  %5 = tad.transpose.int %4 {dim0 = 1 : i64, dim1 = 2 : i64} : (tensor<2x4x2xf64>) -> tensor<2x2x4xf64>
  %6 = tad.matmul %5, %x : (tensor<2x2x4xf64>, tensor<4x3xf64>) -> tensor<2x2x3xf64>
  %7 = tad.mean.dim %6 {dim = array<i64: 0>, keepdim = true} : (tensor<2x2x3xf64>) -> tensor<1x2x3xf64>
  %8 = tad.squeeze.dim %7 {dim = 0 : i64} : (tensor<1x2x3xf64>) -> tensor<2x3xf64>
  %9 = tad.mul.Scalar %8, 0.5 : tensor<2x3xf64>
  %10 = tad.div.Scalar %9, 3.0 : tensor<2x3xf64>
  %11 = tad.rsub.Scalar %10, 1.0 : tensor<2x3xf64>
  %12 = tad.linear %x, %11 : (tensor<4x3xf64>, tensor<2x3xf64>) -> tensor<4x2xf64>
  %13:3 = tad.native_batch_norm %12 weight %g {training = true, momentum = 0.1 : f64, eps = 1.0e-5 : f64} : (tensor<4x2xf64>, tensor<2xf64>) -> (tensor<4x2xf64>, tensor<2xf64>, tensor<2xf64>)
  %14:3 = tad._native_batch_norm_legit %2 running %rm, %rv {training = true, momentum = 0.1 : f64, eps = 1.0e-5 : f64} : (tensor<4x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<4x2xf64>, tensor<2xf64>, tensor<2xf64>)
  %15 = tad.binary_cross_entropy_with_logits %13#0, %t : (tensor<4x2xf64>, tensor<4x2xf64>) -> tensor<f64>
  %16 = tad.sigmoid %14#0 : tensor<4x2xf64>
  %17 = tad.binary_cross_entropy %16, %t : (tensor<4x2xf64>, tensor<4x2xf64>) -> tensor<f64>
  %18 = tad.add.Tensor %15, %17 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %18 : tensor<f64>
}
"""


def main():
    args = [rng.standard_normal((4, 3)), rng.standard_normal((2, 3)), rng.standard_normal(2),
            rng.standard_normal((3, 2)), rng.uniform(0.5, 1.5, 2), rng.standard_normal(2),
            rng.uniform(0.5, 1.5, 2), rng.uniform(0.1, 0.9, (4, 2))]
    # Every float argument is differentiated; in training mode the running
    # statistics do not reach the output (their gradients are zero).
    vjp_args = args + [np.array(0.7)]
    failures = run_cases([Case("p0 model vjp-of-vjp", MODEL, vjp_args,
                               func="f_vjp", first=["f"])], modes=("vjp",))
    failures += run_cases([Case("p0 model jvp-of-vjp (HVP)", MODEL, vjp_args,
                                func="f_vjp", first=["f"])], modes=("jvp",))
    print("%d passed, %d failed" % (2 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
