// RUN: tad-opt %s --tad-jvp="functions=carried,branch,dynamic_branch" | FileCheck %s

// The tangent loop is the loop itself with h's tangent as an extra
// iter_arg (w's tangent is read from outside); nothing is stored.
// CHECK-LABEL: func.func @carried_jvp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[W:.*]]: tensor<3xf32>, %[[DX:.*]]: tensor<3xf32>, %[[DW:.*]]: tensor<3xf32>)
//       CHECK:   %[[L:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[H:.*]] = %[[X]], %[[DH:.*]] = %[[DX]]) -> (tensor<3xf32>, tensor<3xf32>)
//       CHECK:     %[[M:.*]] = tad.mul.Tensor %[[H]], %[[W]]
//   CHECK-DAG:     tad.mul.Tensor %[[DW]], %[[H]]
//   CHECK-DAG:     tad.mul.Tensor %[[DH]], %[[W]]
//       CHECK:     %[[DM:.*]] = tad.add.Tensor
//       CHECK:     %[[T:.*]] = tad.tanh %[[M]]
//       CHECK:     %[[DT:.*]] = tad.tanh_backward %[[DM]], %[[T]]
//       CHECK:     scf.yield %[[T]], %[[DT]]
//   CHECK-NOT:   tensor.empty
//       CHECK:   return %[[L]]#0, %[[L]]#1
func.func @carried(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<3xf32>) {
    %m = tad.mul.Tensor %h, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %t = tad.tanh %m : tensor<3xf32>
    scf.yield %t : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// An scf.if yields the tangents of its active results too.
// CHECK-LABEL: func.func @branch_jvp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[C:.*]]: i1, %[[DX:.*]]: tensor<3xf32>)
//       CHECK:   %[[B:.*]]:2 = scf.if %[[C]] -> (tensor<3xf32>, tensor<3xf32>) {
//       CHECK:     %[[E:.*]] = tad.exp %[[X]]
//       CHECK:     %[[DE:.*]] = tad.mul.Tensor %[[DX]], %[[E]]
//       CHECK:     scf.yield %[[E]], %[[DE]]
//       CHECK:   } else {
//       CHECK:     scf.yield %[[X]], %[[DX]]
//       CHECK:   return %[[B]]#0, %[[B]]#1
func.func @branch(%x: tensor<3xf32>, %c: i1) -> tensor<3xf32> {
  %r = scf.if %c -> (tensor<3xf32>) {
    %e = tad.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  } else {
    scf.yield %x : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// A branch over a dynamic batch: the branch that does not involve x yields
// a zero tangent of the value's own sizes (zeros_like).
// CHECK-LABEL: func.func @dynamic_branch_jvp
//       CHECK:   scf.if %{{.*}} -> (tensor<?x2xf64>, tensor<?x2xf64>) {
//       CHECK:     tad.tanh
//       CHECK:   } else {
//       CHECK:     %[[Z:.*]] = tad.zeros_like %{{.*}} : tensor<?x2xf64>
//       CHECK:     scf.yield %{{.*}}, %[[Z]] : tensor<?x2xf64>, tensor<?x2xf64>
func.func @dynamic_branch(%x: tensor<?x2xf64>, %y: tensor<?x2xf64> {tad.nondiff}, %c: i1) -> tensor<?x2xf64> {
  %r = scf.if %c -> (tensor<?x2xf64>) {
    %t = tad.tanh %x : tensor<?x2xf64>
    scf.yield %t : tensor<?x2xf64>
  } else {
    scf.yield %y : tensor<?x2xf64>
  }
  return %r : tensor<?x2xf64>
}
