"""Second-order checks for the elementwise op families.

1. Per op: every case of cases_elementwise.py differentiated twice,
   VJP of its VJP and JVP of its VJP (a Hessian-vector product), against
   central differences of the compiled f_vjp. This exercises the rules of
   the backward ops that first-order rules emit (gelu_backward,
   leaky_relu_backward, elu_backward, softplus_backward, ...) and of every
   op the helpers build.
2. A small model using every P0 op of these families (gelu, silu,
   leaky_relu, sqrt, rsqrt, reciprocal, pow, clamp, where, masked_fill,
   dropout with a fixed key): VJP of VJP and HVP.

`second_order_elementwise.py` runs both; `--ops` or `--model` one of them.
"""

import re
import sys

import numpy as np

from cases_elementwise import FAMILIES
from gradcheck import Case, run_cases

rng = np.random.default_rng(11)


def result_shape(mlir):
    """Shape of @f's single result, from its signature."""
    match = re.search(r"func\.func @f\(.*?\)\s*->\s*tensor<([0-9x]*)f64>",
                      mlir, re.S)
    dims = match.group(1)
    return tuple(int(d) for d in dims.split("x") if d)


def per_op_cases():
    cases = []
    for family in sorted(FAMILIES):
        for case in FAMILIES[family]:
            ct = rng.standard_normal(result_shape(case.mlir))
            cases.append(Case(case.name + " (2nd order)", case.mlir,
                              case.args + [np.array(ct)], func="f_vjp",
                              first=["f"]))
    return cases


MODEL = """
func.func @f(%x: tensor<3x4xf64>, %w: tensor<4x4xf64>, %b: tensor<4xf64>,
             %key: tensor<i64>) -> tensor<f64> {
  %h = tad.addmm %b, %x, %w : (tensor<4xf64>, tensor<3x4xf64>, tensor<4x4xf64>) -> tensor<3x4xf64>
  %g = tad.gelu %h : tensor<3x4xf64>
  %gt = tad.gelu %h {approximate = "tanh"} : tensor<3x4xf64>
  %s = tad.silu %h : tensor<3x4xf64>
  %l = tad.leaky_relu %h {negative_slope = 0.1 : f64} : tensor<3x4xf64>
  %pos = tad.gt.Scalar %h, 0.0 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %sel = tad.where.self %pos, %s, %l : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %h2 = tad.pow.Tensor_Scalar %h, 2.0 : tensor<3x4xf64>
  %q = tad.add.Scalar %h2, 0.5 : tensor<3x4xf64>
  %sq = tad.sqrt %q : tensor<3x4xf64>
  %rs = tad.rsqrt %q : tensor<3x4xf64>
  %rc = tad.reciprocal %q : tensor<3x4xf64>
  %p3 = tad.pow.Tensor_Scalar %q, -1.5 : tensor<3x4xf64>
  %c = tad.clamp %h {min = -1.0 : f64, max = 1.0 : f64} : tensor<3x4xf64>
  %neg = tad.lt.Scalar %h, -0.5 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %mf = tad.masked_fill.Scalar %gt, %neg, 0.25 : (tensor<3x4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>
  %a0 = tad.mul.Tensor %g, %sel : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %a1 = tad.mul.Tensor %sq, %rs : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %a2 = tad.mul.Tensor %rc, %c : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %a3 = tad.mul.Tensor %p3, %mf : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %a4 = tad.add.Tensor %a0, %a1 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %a5 = tad.add.Tensor %a2, %a3 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %a6 = tad.mul.Tensor %a4, %a5 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %d, %m = tad.native_dropout.key %a6, %key {p = 0.25 : f64} : (tensor<3x4xf64>, tensor<i64>) -> (tensor<3x4xf64>, tensor<3x4xi1>)
  %e = tad.mul.Tensor %d, %h : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %r = tad.sum %e : (tensor<3x4xf64>) -> tensor<f64>
  return %r : tensor<f64>
}
"""


def model_args():
    # Pre-activations at least 0.05 away from the kinks at 0, -0.5, +-1.
    while True:
        x = rng.standard_normal((3, 4))
        w = rng.standard_normal((4, 4)) * 0.5
        b = rng.standard_normal(4) * 0.5
        h = x @ w + b
        kinks = np.array([0.0, -0.5, -1.0, 1.0])
        if np.min(np.abs(h[..., None] - kinks)) > 0.05:
            return [x, w, b, np.array(1234, dtype=np.int64)]


def run_model():
    args = model_args() + [np.array(0.7)]
    failures = run_cases([Case("model vjp-of-vjp", MODEL, args, func="f_vjp",
                               first=["f"])], modes=("vjp",))
    failures += run_cases([Case("model jvp-of-vjp (HVP)", MODEL, args,
                                func="f_vjp", first=["f"])], modes=("jvp",))
    return 2, failures


def main(argv):
    total = failures = 0
    if "--model" not in argv:
        cases = per_op_cases()
        total += 2 * len(cases)
        failures += run_cases(cases)
    if "--ops" not in argv:
        n, f = run_model()
        total += n
        failures += f
    print("%d passed, %d failed" % (total - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
