// RUN: tad-opt %s --split-input-file --canonicalize | FileCheck %s

// t(t(x)) is x; t of a vector is the vector.
// CHECK-LABEL: func.func @double_transpose(
//  CHECK-SAME: %[[X:.*]]: tensor<3x4xf32>, %[[V:.*]]: tensor<5xf32>)
//   CHECK-NOT: tad.t
//       CHECK: return %[[X]], %[[V]]
func.func @double_transpose(%x: tensor<3x4xf32>, %v: tensor<5xf32>)
    -> (tensor<3x4xf32>, tensor<5xf32>) {
  %0 = tad.t %x : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %1 = tad.t %0 : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %2 = tad.t %v : (tensor<5xf32>) -> tensor<5xf32>
  return %1, %2 : tensor<3x4xf32>, tensor<5xf32>
}

// -----

// The VJP of x @ t(W) computes grad_W = t(t(x) @ g): it becomes t(g) @ x,
// one transpose (of g) instead of two.
// CHECK-LABEL: func.func @grad_weight(
//  CHECK-SAME: %[[X:.*]]: tensor<8x5xf32>, %[[G:.*]]: tensor<8x3xf32>)
//       CHECK: %[[GT:.*]] = tad.t %[[G]] : (tensor<8x3xf32>) -> tensor<3x8xf32>
//       CHECK: %[[W:.*]] = tad.mm %[[GT]], %[[X]] : (tensor<3x8xf32>, tensor<8x5xf32>) -> tensor<3x5xf32>
//       CHECK: return %[[W]]
func.func @grad_weight(%x: tensor<8x5xf32>, %g: tensor<8x3xf32>) -> tensor<3x5xf32> {
  %xt = tad.t %x : (tensor<8x5xf32>) -> tensor<5x8xf32>
  %0 = tad.mm %xt, %g : (tensor<5x8xf32>, tensor<8x3xf32>) -> tensor<5x3xf32>
  %1 = tad.t %0 : (tensor<5x3xf32>) -> tensor<3x5xf32>
  return %1 : tensor<3x5xf32>
}

// -----

// Without a transposed operand the rewrite would add a transpose: kept.
// Neither when the product has another use (it would be computed twice).
// CHECK-LABEL: func.func @kept(
//       CHECK: %[[P:.*]] = tad.mm %arg0, %arg1
//       CHECK: tad.t %[[P]]
// CHECK-LABEL: func.func @shared_product(
//       CHECK: %[[P:.*]] = tad.mm
//       CHECK: tad.t %[[P]]
func.func @kept(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>) -> tensor<3x4xf32> {
  %0 = tad.mm %a, %b : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  %1 = tad.t %0 : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
func.func @shared_product(%x: tensor<8x5xf32>, %g: tensor<8x3xf32>)
    -> (tensor<3x5xf32>, tensor<5x3xf32>) {
  %xt = tad.t %x : (tensor<8x5xf32>) -> tensor<5x8xf32>
  %0 = tad.mm %xt, %g : (tensor<5x8xf32>, tensor<8x3xf32>) -> tensor<5x3xf32>
  %1 = tad.t %0 : (tensor<5x3xf32>) -> tensor<3x5xf32>
  return %1, %0 : tensor<3x5xf32>, tensor<5x3xf32>
}
