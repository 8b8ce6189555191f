// RUN: tad-opt %s --tad-to-linalg | FileCheck %s

// Lowering of the NN ops (TadToLinalgNN.cpp): softmax, normalization and
// losses. Convolution and pooling: tad-to-linalg-conv.mlir.

// CHECK-LABEL: func.func @softmax(
//   CHECK-NOT:   tad.
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     arith.maximumf
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     math.exp
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
//       CHECK:     math.exp
//       CHECK:     arith.divf
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tad._softmax %x {dim = 1 : i64, half_to_float = false} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// nll_loss reads self[n, target[n]] with tensor.extract inside a reduction.
// CHECK-LABEL: func.func @nll(
//       CHECK:   linalg.generic {{.*}}iterator_types = ["reduction"]
//       CHECK:     arith.cmpi ne
//       CHECK:     tensor.extract
//       CHECK:     tensor.extract
//       CHECK:   arith.divf
func.func @nll(%x: tensor<4x5xf32>, %y: tensor<4xi64>, %w: tensor<5xf32>) -> tensor<f32> {
  %0:2 = tad.nll_loss_forward %x, %y weight %w {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<4x5xf32>, tensor<4xi64>, tensor<5xf32>) -> (tensor<f32>, tensor<f32>)
  return %0#0 : tensor<f32>
}
