// RUN: tad-opt %s --tad-to-linalg --canonicalize --cse | FileCheck %s

// Lowering of convolution and pooling (TadToLinalgConv.cpp): convolutions
// become an im2col gather + linalg.matmul (batch_matmul over groups), so
// tad-vectorize-contractions schedules their multiply-adds.

// im2col: domain g, c, kh, kw, n, oh, ow (output width innermost) reading
// the padded input at oh * 2 + kh, ow * 2 + kw.
// CHECK-DAG: #[[$IM2COL:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d1, d5 * 2 + d2, d6 * 2 + d3)>
// [G, F, N, oh, ow] -> [N, G, F, oh, ow] with the bias.
// CHECK-DAG: #[[$TOCHW:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3, d4)>
// col2im reads gcol[c, k.., n, o..] at one kernel offset.
// CHECK-DAG: #[[$COL2IM:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0, d0, d2, d3)>

// CHECK-LABEL: func.func @conv2d(
//       CHECK:   tensor.pad
//       CHECK:   linalg.generic {indexing_maps = [#[[$IM2COL]], {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
//       CHECK:   } -> tensor<1x3x3x3x2x4x4xf32>
//       CHECK:   %[[COL:.+]] = tensor.collapse_shape {{.*}} into tensor<27x32xf32>
//       CHECK:   linalg.matmul ins(%{{.*}}, %[[COL]] : tensor<4x27xf32>, tensor<27x32xf32>) outs(%{{.*}} : tensor<4x32xf32>)
//       CHECK:   linalg.generic {indexing_maps = [#[[$TOCHW]],
//       CHECK:     arith.addf
//   CHECK-NOT:   linalg.conv
func.func @conv2d(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = tad.convolution %x, %w bias %b {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}

// Groups: a batch_matmul over the groups [G, F/G, C/G·K] x [G, C/G·K, N·O].
// CHECK-LABEL: func.func @conv1d_groups(
//       CHECK:   } -> tensor<2x2x3x1x4xf32>
//       CHECK:   linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x1x6xf32>, tensor<2x6x4xf32>)
func.func @conv1d_groups(%x: tensor<1x4x8xf32>, %w: tensor<2x2x3xf32>) -> tensor<1x2x4xf32> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 2>, transposed = false, output_padding = array<i64: 0>, groups = 2 : i64} : (tensor<1x4x8xf32>, tensor<2x2x3xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// grad_input: gcol = W^T @ grad (a matmul), then col2im: one generic per
// kernel offset adds a slice of gcol into the strided window of the input
// it came from (offset (0, 0) with padding 1, stride 2: input rows and
// columns 1 and 3). grad_weight: col @ grad^T, a matmul too.
// CHECK-LABEL: func.func @conv_backward(
//       CHECK:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<18x4xf32>, tensor<4x9xf32>) outs(%{{.*}} : tensor<18x9xf32>)
//       CHECK:   %[[ACC:.+]] = tensor.extract_slice %{{.*}}[0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 2, 2] : tensor<1x2x5x5xf32> to tensor<1x2x2x2xf32>
//       CHECK:   %[[SRC:.+]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0, 1, 1] [2, 1, 1, 1, 2, 2] [1, 1, 1, 1, 1, 1]
//       CHECK:   %[[UPD:.+]] = linalg.generic {indexing_maps = [#[[$COL2IM]], {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[SRC]] : {{.*}}) outs(%[[ACC]] : tensor<1x2x2x2xf32>)
//       CHECK:     arith.addf
//       CHECK:   tensor.insert_slice %[[UPD]] into %{{.*}}[0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// 9 kernel offsets, 9 slice updates.
// CHECK-COUNT-8: tensor.insert_slice
//       CHECK:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<18x9xf32>, tensor<9x4xf32>) outs(%{{.*}} : tensor<18x4xf32>)
//   CHECK-NOT:   tensor.insert_slice
//       CHECK:   return
func.func @conv_backward(%g: tensor<1x4x3x3xf32>, %x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) {
  %0:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: true, true, true>} : (tensor<1x4x3x3xf32>, tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>
}

// Max pooling with indices, a window of at most 16 elements: each window
// element is a strided slice and an input of one all-parallel generic that
// keeps the maximum and the winner's window position (i32, -1 for none);
// ties keep the first maximum (ogt), NaN wins (uno). The body starts from
// -inf and -1, so its outputs are empty tensors, not fills. A second generic
// turns the position into the flat input index.
// CHECK-LABEL: func.func @max_pool(
//       CHECK:   tensor.pad
// CHECK-COUNT-9:   tensor.extract_slice
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[V:.+]] = tensor.empty() : tensor<1x2x2x2xf32>
//       CHECK:   %[[P:.+]] = tensor.empty() : tensor<1x2x2x2xi32>
//       CHECK:   %[[BEST:.+]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
//  CHECK-SAME:     outs(%[[V]], %[[P]] : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi32>)
//       CHECK:     arith.cmpf ogt
//       CHECK:     arith.cmpf uno
//       CHECK:     arith.select
//       CHECK:     arith.select
//       CHECK:   linalg.generic {{.*}} ins(%[[BEST]]#1 : tensor<1x2x2x2xi32>) outs(%{{.*}} : tensor<1x2x2x2xi64>)
//       CHECK:     arith.divui
//       CHECK:     arith.remui
func.func @max_pool(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) {
  %0:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  return %0#0, %0#1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>
}

// A larger window: a generic with a value and an index result over
// n, c, oh, kh, kw, ow (output row innermost).
// CHECK-LABEL: func.func @max_pool_large_window(
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]
//  CHECK-SAME:     outs(%{{.*}}, %{{.*}} : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
//       CHECK:     arith.cmpf ogt
//       CHECK:     arith.cmpf uno
func.func @max_pool_large_window(%x: tensor<1x2x6x6xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) {
  %0:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 5, 5>, stride = array<i64: 1, 1>, padding = array<i64: 0, 0>} : (tensor<1x2x6x6xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  return %0#0, %0#1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>
}

// Without a use of the indices: the 4 window elements are strided slices,
// inputs of one all-parallel generic; no index bookkeeping.
// CHECK-LABEL: func.func @max_pool_value(
//       CHECK:   %[[T0:.+]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 3, 4, 4] [1, 1, 2, 2]
//       CHECK:   %[[T3:.+]] = tensor.extract_slice %{{.*}}[0, 0, 1, 1] [2, 3, 4, 4] [1, 1, 2, 2]
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[T0]], %{{.*}}, %{{.*}}, %[[T3]] :
//   CHECK-NOT:     arith.index_cast
//       CHECK:     linalg.yield
func.func @max_pool_value(%x: tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32> {
  %0:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : (tensor<2x3x8x8xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x4xi64>)
  return %0#0 : tensor<2x3x4x4xf32>
}

// Backward of tiling windows (stride = kernel): one all-parallel generic over
// n, c, oh, kh, ow, kw writes the input gradient in order; a reshape makes it
// [N, C, H, W].
// CHECK-LABEL: func.func @max_pool_backward_tiled(
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]
//  CHECK-SAME:     outs(%{{.*}} : tensor<2x3x4x2x4x2xf32>)
//       CHECK:     arith.cmpi eq
//       CHECK:   tensor.collapse_shape {{.*}} into tensor<2x3x8x8xf32>
func.func @max_pool_backward_tiled(%g: tensor<2x3x4x4xf32>, %x: tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32> {
  %v:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : (tensor<2x3x8x8xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x4xi64>)
  %r = tad.max_pool2d_with_indices_backward %g, %x, %v#1 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = false} : (tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>, tensor<2x3x4x4xi64>) -> tensor<2x3x8x8xf32>
  return %r : tensor<2x3x8x8xf32>
}

// Overlapping windows: one slice-add generic per window offset, as col2im.
// CHECK-LABEL: func.func @avg_pool_backward_overlapping(
// CHECK-COUNT-9: tensor.insert_slice
//   CHECK-NOT:   tensor.insert_slice
func.func @avg_pool_backward_overlapping(%g: tensor<1x2x2x2xf32>, %x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %0 = tad.avg_pool2d_backward %g, %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, ceil_mode = false, count_include_pad = true} : (tensor<1x2x2x2xf32>, tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// Average pooling: linalg.pooling_nchw_sum times a 1/divisor table that a
// generic computes from the window's position (count_include_pad = false:
// the window clipped to the input), not a constant that grows with the
// output (test/Importer/opt-level-differential.test checks the values
// against PyTorch).
// CHECK-LABEL: func.func @avg_pool(
//       CHECK:   linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
//       CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2xf32>)
//   CHECK-DAG:     linalg.index 0
//   CHECK-DAG:     linalg.index 1
//   CHECK-DAG:     arith.minsi
//   CHECK-DAG:     arith.maxsi
//       CHECK:     arith.divf
//       CHECK:   linalg.generic
//       CHECK:     arith.mulf
func.func @avg_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = tad.avg_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, count_include_pad = false} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
