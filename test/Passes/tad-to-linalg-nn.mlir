// RUN: tad-opt %s --tad-to-linalg | FileCheck %s

// Lowering of the NN ops (TadToLinalgNN.cpp): named convolution and pooling
// ops where they fit, generics otherwise.

// CHECK-DAG: #[[$GIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 + d5 * 2)>
// CHECK-DAG: #[[$GRADIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 - d6 + 2, d4 - d7 + 2)>

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

// CHECK-LABEL: func.func @conv2d(
//       CHECK:   tensor.pad
//       CHECK:   linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
//       CHECK:   linalg.generic
//       CHECK:     arith.addf
func.func @conv2d(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = tad.convolution %x, %w bias %b {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// Groups: a generic over [N, G, F/G, O..., C/G, K...] with the window in
// the input's indexing map.
// CHECK-LABEL: func.func @conv1d_groups(
//       CHECK:   tensor.expand_shape
//       CHECK:   linalg.generic {indexing_maps = [#[[$GIN]], {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
func.func @conv1d_groups(%x: tensor<1x4x8xf32>, %w: tensor<2x2x3xf32>) -> tensor<1x2x4xf32> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 2>, transposed = false, output_padding = array<i64: 0>, groups = 2 : i64} : (tensor<1x4x8xf32>, tensor<2x2x3xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// The input gradient: grad_output with zeros inserted (strided
// insert_slice), padded, read at i + offset - k * dilation.
// CHECK-LABEL: func.func @conv_backward(
//       CHECK:   tensor.insert_slice {{.*}} [1, 1, 1, 2, 2] : tensor<1x1x4x3x3xf32> into tensor<1x1x4x5x5xf32>
//       CHECK:   tensor.pad
//       CHECK:   linalg.generic {indexing_maps = [#[[$GRADIN]],
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction", "reduction"]
func.func @conv_backward(%g: tensor<1x4x3x3xf32>, %x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) {
  %0:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: true, true, true>} : (tensor<1x4x3x3xf32>, tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>
}

// Max pooling: one generic with a value and an index result; ties keep the
// first maximum (ogt), NaN wins (uno).
// CHECK-LABEL: func.func @max_pool(
//       CHECK:   tensor.pad
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
//  CHECK-SAME:     outs(%{{.*}}, %{{.*}} : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
//       CHECK:     linalg.index 2
//       CHECK:     arith.cmpf ogt
//       CHECK:     arith.cmpf uno
//       CHECK:     arith.select
//       CHECK:     arith.select
func.func @max_pool(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) {
  %0:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  return %0#0, %0#1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>
}

// Average pooling: linalg.pooling_nchw_sum times a constant 1/divisor table
// (count_include_pad = false: corner windows count 4 elements).
// CHECK-LABEL: func.func @avg_pool(
//       CHECK:   linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
//       CHECK:   arith.constant dense<{{\[}}[2.500000e-01, 0.166666672], [0.166666672, 0.111111112]]>
//       CHECK:   linalg.generic
//       CHECK:     arith.mulf
func.func @avg_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = tad.avg_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, count_include_pad = false} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
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
