// The saved-value analysis (compiler/rules/SavedValues.h) decides what a VJP
// reads from the forward; RuleSet::emitVJP checks the emitted backward
// against it, and here the IR shows it: the backward of `sum` reads only the
// cotangent (the input's sizes are constants), and the backward of `mul`
// reads an input only for the other input's gradient.
// RUN: tadc %s --vjp=sum_all,mul_both,mul_x,mul_y --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @sum_all_vjp(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x3xf32>, %[[CT:[^:]+]]: tensor<f32>)
// CHECK-NEXT: %[[P:.+]] = tad.sum %[[X]]
// CHECK-NOT: %[[X]]
// CHECK: tad.expand %[[CT]] {size = array<i64: 2, 3>}
// CHECK-NOT: %[[X]]
// CHECK: return
func.func @sum_all(%x: tensor<2x3xf32>) -> tensor<f32> {
  %0 = tad.sum %x : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Both gradients: both inputs are read.
// CHECK-LABEL: func.func @mul_both_vjp(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x3xf32>, %[[Y:[^:]+]]: tensor<2x3xf32>, %[[CT:[^:]+]]: tensor<2x3xf32>)
// CHECK-NEXT: tad.mul.Tensor %[[X]], %[[Y]]
// CHECK-DAG: tad.mul.Tensor %[[CT]], %[[Y]]
// CHECK-DAG: tad.mul.Tensor %[[CT]], %[[X]]
// CHECK: return
func.func @mul_both(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tad.mul.Tensor %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Only d/dx: the backward reads y, never x.
// CHECK-LABEL: func.func @mul_x_vjp(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x3xf32>, %[[Y:[^:]+]]: tensor<2x3xf32> {tad.nondiff}, %[[CT:[^:]+]]: tensor<2x3xf32>)
// CHECK-NEXT: tad.mul.Tensor %[[X]], %[[Y]]
// CHECK-NOT: %[[X]]
// CHECK: tad.mul.Tensor %[[CT]], %[[Y]]
// CHECK-NOT: %[[X]]
// CHECK: return
func.func @mul_x(%x: tensor<2x3xf32>, %y: tensor<2x3xf32> {tad.nondiff}) -> tensor<2x3xf32> {
  %0 = tad.mul.Tensor %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Only d/dy: the backward reads x, never y.
// CHECK-LABEL: func.func @mul_y_vjp(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x3xf32> {tad.nondiff}, %[[Y:[^:]+]]: tensor<2x3xf32>, %[[CT:[^:]+]]: tensor<2x3xf32>)
// CHECK-NEXT: tad.mul.Tensor %[[X]], %[[Y]]
// CHECK-NOT: %[[Y]]
// CHECK: tad.mul.Tensor %[[CT]], %[[X]]
// CHECK-NOT: %[[Y]]
// CHECK: return
func.func @mul_y(%x: tensor<2x3xf32> {tad.nondiff}, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tad.mul.Tensor %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
