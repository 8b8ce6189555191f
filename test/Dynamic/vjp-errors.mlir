// RUN: not tad-opt %s --tad-vjp=functions=f 2>&1 | FileCheck %s

// A rule that computes with a size at compile time cannot use a dynamic
// one: an error at the op (the formula in a note, in the rule file), never
// a number made of the dynamic marker.

// CHECK: vjp-errors.mlir:[[@LINE+3]]:8: error: 'sym_numel' of a tensor with dynamic sizes; its value is known at run time only, and this rule computes with it at compile time (dynamic sizes are not supported by this rule yet)
// CHECK: rules/derivatives.yaml:{{[0-9]+}}:{{[0-9]+}}: note: in this rule formula, while differentiating the op
func.func @f(%x: tensor<?x3xf64>) -> tensor<3xf64> {
  %0 = tad.mean.dim %x {dim = array<i64: 0>, keepdim = false} : (tensor<?x3xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}
