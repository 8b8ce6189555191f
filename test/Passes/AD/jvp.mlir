// RUN: tad-opt %s --tad-jvp="functions=f,partial" | FileCheck %s

// Product rule from the `result:` formula, tangents interleaved with the
// primal ops; the tanh tangent comes from auto_element_wise.
// CHECK-LABEL: func.func @f_jvp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[Y:.*]]: tensor<3xf32>, %[[TX:.*]]: tensor<3xf32>, %[[TY:.*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
//       CHECK:   %[[P:.*]] = tad.mul.Tensor %[[X]], %[[Y]]
//   CHECK-DAG:   %[[A:.*]] = tad.mul.Tensor %[[TY]], %[[X]]
//   CHECK-DAG:   %[[B:.*]] = tad.mul.Tensor %[[TX]], %[[Y]]
//       CHECK:   %[[T:.*]] = tad.add.Tensor %[[A]], %[[B]]
//       CHECK:   %[[R:.*]] = tad.tanh %[[P]]
//       CHECK:   %[[TR:.*]] = tad.tanh_backward %[[T]], %[[R]]
//       CHECK:   return %[[R]], %[[TR]]
func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tad.mul.Tensor %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = tad.tanh %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}


// Only %x has a tangent: the symbolic zero of %y drops a whole term of
// the product rule, and auto_linear re-runs `sum` on the tangent.
// CHECK-LABEL: func.func @partial_jvp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[Y:.*]]: tensor<3xf32> {tad.nondiff}, %[[TX:.*]]: tensor<3xf32>) -> (tensor<f32>, tensor<f32>)
//       CHECK:   %[[B:.*]] = tad.mul.Tensor %[[TX]], %[[Y]]
//   CHECK-NOT:   tad.add.Tensor
//       CHECK:   %[[S:.*]] = tad.sum %[[B]]
//       CHECK:   return %{{.*}}, %[[S]]
func.func @partial(%x: tensor<3xf32>, %y: tensor<3xf32> {tad.nondiff}) -> tensor<f32> {
  %0 = tad.mul.Tensor %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = tad.sum %0 : (tensor<3xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}
