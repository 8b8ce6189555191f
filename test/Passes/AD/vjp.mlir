// RUN: tad-opt %s --tad-vjp="functions=fanout,broadcast,int_arg,nondiff,linear" | FileCheck %s

// Fan-out: x is used twice, so both contributions are accumulated.
// CHECK-LABEL: func.func @fanout_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
//       CHECK:   %[[Y:.*]] = tad.mul.Tensor %[[X]], %[[X]]
//   CHECK-DAG:   %[[G1:.*]] = tad.mul.Tensor %[[CT]], %[[X]]
//   CHECK-DAG:   %[[G2:.*]] = tad.mul.Tensor %[[CT]], %[[X]]
//       CHECK:   %[[ACC:.*]] = tad.add.Tensor %{{.*}}, %{{.*}}
//       CHECK:   return %[[Y]], %[[ACC]]
func.func @fanout(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tad.mul.Tensor %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}


// The gradient of a broadcast operand is summed back to its shape.
// CHECK-LABEL: func.func @broadcast_vjp
//  CHECK-SAME:   (%[[A:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<4x3xf32>)
//       CHECK:   %[[GB:.*]] = tad.sum_to_size %[[CT]] {size = array<i64: 3>} : (tensor<4x3xf32>) -> tensor<3xf32>
//       CHECK:   return %{{.*}}, %[[CT]], %[[GB]]
func.func @broadcast(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = tad.add.Tensor %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}


// Integer arguments get no gradient; only the float one does.
// CHECK-LABEL: func.func @int_arg_vjp
//  CHECK-SAME:   (%{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xi64>, %{{.*}}: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
func.func @int_arg(%x: tensor<3xf32>, %i: tensor<3xi64>) -> tensor<3xf32> {
  %0 = tad.exp %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}


// An argument marked tad.nondiff gets no gradient, and nothing is computed
// for it: the product's gradient for %x is never formed.
// CHECK-LABEL: func.func @nondiff_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x3xf32> {tad.nondiff}, %[[W:.*]]: tensor<3x2xf32>, %[[CT:.*]]: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<3x2xf32>)
//       CHECK:   %[[XT:.*]] = tad.t %[[X]]
//       CHECK:   %[[GW:.*]] = tad.mm %[[XT]], %[[CT]]
//   CHECK-NOT:   tad.t %[[W]]
//       CHECK:   return %{{.*}}, %[[GW]]
func.func @nondiff(%x: tensor<2x3xf32> {tad.nondiff}, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %0 = tad.mm %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}


// A value that does not depend on the argument gets no adjoint: the
// constant branch is not differentiated, and a result with no path to the
// argument contributes nothing (symbolic zero).
// CHECK-LABEL: func.func @linear_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[CT0:.*]]: tensor<3xf32>, %[[CT1:.*]]: tensor<3xf32>)
//   CHECK-NOT:   tad.mul.Tensor %[[CT1]]
//       CHECK:   %[[G:.*]] = tad.mul.Tensor %[[CT0]], %[[C:.*]] :
//       CHECK:   return %{{.*}}, %{{.*}}, %[[G]]
func.func @linear(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = tad.constant dense<2.0> : tensor<3xf32>
  %e = tad.exp %c : tensor<3xf32>
  %0 = tad.mul.Tensor %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %e : tensor<3xf32>, tensor<3xf32>
}
