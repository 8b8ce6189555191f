"""Second-order checks: derivatives of derivatives, against finite
differences of the compiled first derivative.

  VJP of VJP:  f_vjp_vjp  vs  central differences of f_vjp
  JVP of VJP:  f_vjp_jvp  (a Hessian-vector product) vs the same

Every op that a first-order rule emits (tanh_backward, sigmoid_backward,
threshold_backward, mse_loss_backward, sum_to_size, expand, t, ...) must
have a rule of its own for these to compile.
"""

import sys

import numpy as np

from gradcheck import Case, run_cases

rng = np.random.default_rng(7)

# A small model that uses every first-order op family: matmul with a
# broadcast bias, tanh, sigmoid, relu, exp, log, division, reductions with
# keepdim, shape ops and the MSE loss.
MODEL = """
func.func @f(%x: tensor<3x4xf64>, %w: tensor<4x2xf64>, %b: tensor<2xf64>,
             %y: tensor<3x2xf64>) -> tensor<f64> {
  %0 = tad.addmm %b, %x, %w : (tensor<2xf64>, tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  %1 = tad.tanh %0 : tensor<3x2xf64>
  %2 = tad.sigmoid %0 : tensor<3x2xf64>
  %3 = tad.mul.Tensor %1, %2 : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %4 = tad.relu %0 : tensor<3x2xf64>
  %5 = tad.exp %4 : tensor<3x2xf64>
  %6 = tad.log %5 : tensor<3x2xf64>
  %7 = tad.add.Tensor %3, %6 : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %8 = tad.sum.dim_IntList %7 {dim = array<i64: 1>, keepdim = true} : (tensor<3x2xf64>) -> tensor<3x1xf64>
  %9 = tad.div.Tensor %7, %8 : (tensor<3x2xf64>, tensor<3x1xf64>) -> tensor<3x2xf64>
  %10 = tad.t %9 : (tensor<3x2xf64>) -> tensor<2x3xf64>
  %11 = tad.view %10 {size = array<i64: 3, 2>} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  %12 = tad.mse_loss %11, %y : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<f64>
  %13 = tad.mean %x : (tensor<3x4xf64>) -> tensor<f64>
  %14 = tad.mul.Tensor %12, %13 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %14 : tensor<f64>
}
"""


def model_args():
    # Keep the pre-activations away from relu's kink and the row sums away
    # from zero so that finite differences are meaningful.
    x = rng.uniform(0.2, 1.0, (3, 4))
    w = rng.uniform(0.2, 1.0, (4, 2))
    b = rng.uniform(0.1, 0.5, (2,))
    y = rng.standard_normal((3, 2))
    return [x, w, b, y]


def main():
    args = model_args()
    # f_vjp(x, w, b, y, ct) -> (loss, gx, gw, gb, gy)
    vjp_args = args + [np.array(0.7)]
    cases = [
        Case("model vjp-of-vjp", MODEL, vjp_args, func="f_vjp", first=["f"]),
    ]
    failures = run_cases(cases, modes=("vjp",))
    # JVP of the VJP: Hessian-vector products.
    failures += run_cases([Case("model jvp-of-vjp (HVP)", MODEL, vjp_args,
                                func="f_vjp", first=["f"])], modes=("jvp",))
    print("%d passed, %d failed" % (2 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
