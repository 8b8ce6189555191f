// RUN: tad-opt %s --tad-decompose | FileCheck %s
// RUN: tad-opt %s --tad-decompose=keep=_softmax,linear | FileCheck %s --check-prefix=KEEP

// Composites become the formulas of rules/decompositions.yaml, repeatedly:
// softmax.int -> _softmax -> amax, sub, exp, sum, div.
// CHECK-LABEL: func.func @softmax(
//   CHECK-NOT:   tad.softmax.int
//   CHECK-NOT:   tad._softmax
//       CHECK:   %[[M:.+]] = tad.amax %{{.*}} {dim = array<i64: 1>, keepdim = true}
//       CHECK:   %[[S:.+]] = tad.sub.Tensor %{{.*}}, %[[M]]
//       CHECK:   %[[E:.+]] = tad.exp %[[S]]
//       CHECK:   %[[Z:.+]] = tad.sum.dim_IntList %[[E]] {dim = array<i64: 1>, keepdim = true}
//       CHECK:   tad.div.Tensor %[[E]], %[[Z]]
// KEEP-LABEL: func.func @softmax(
//       KEEP:   tad._softmax %{{.*}} {dim = 1 : i64, half_to_float = false}
//   KEEP-NOT:   tad.amax
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tad.softmax.int %x {dim = 1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// linear on a 3-D input: flatten, mm with the transposed weight, view back,
// add the bias. Kept whole with keep=linear.
// CHECK-LABEL: func.func @linear(
//       CHECK:   tad.view %{{.*}} {size = array<i64: -1, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
//       CHECK:   tad.t
//       CHECK:   tad.mm
//       CHECK:   tad.view %{{.*}} {size = array<i64: 2, 3, 5>}
//       CHECK:   tad.add.Tensor
// KEEP-LABEL: func.func @linear(
//       KEEP:   tad.linear
func.func @linear(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>, %b: tensor<5xf32>) -> tensor<2x3x5xf32> {
  %0 = tad.linear %x, %w bias %b : (tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// cross_entropy_loss -> _log_softmax (decomposed unless kept) + nll_loss_forward.
// CHECK-LABEL: func.func @cross_entropy(
//       CHECK:   tad.amax
//       CHECK:   tad.log
//       CHECK:   tad.nll_loss_forward %{{.*}}, %{{.*}} {ignore_index = -100 : i64, reduction = 1 : i64}
func.func @cross_entropy(%x: tensor<4x5xf32>, %y: tensor<4xi64>) -> tensor<f32> {
  %0 = tad.cross_entropy_loss %x, %y : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Batched matmul with broadcast batch dims: expand, flatten the batch, bmm.
// CHECK-LABEL: func.func @matmul(
//       CHECK:   tad.expand %{{.*}} {size = array<i64: 2, 5, 3, 4>}
//       CHECK:   tad.view %{{.*}} {size = array<i64: -1, 3, 4>}
//       CHECK:   tad.expand %{{.*}} {size = array<i64: 2, 5, 4, 2>}
//       CHECK:   tad.bmm
//       CHECK:   tad.view %{{.*}} {size = array<i64: 2, 5, 3, 2>}
func.func @matmul(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %0 = tad.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  return %0 : tensor<2x5x3x2xf32>
}

// conv2d's defaults (stride 1, padding 0, dilation 1) become convolution's
// attributes.
// CHECK-LABEL: func.func @conv2d(
//       CHECK:   tad.convolution %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>, transposed = false}
func.func @conv2d(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %0 = tad.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}
