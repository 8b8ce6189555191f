// RUN: tad-opt %s --split-input-file --tad-to-linalg="direct-convolutions=true im2col-limit-mib=0" --canonicalize --cse | FileCheck %s
// RUN: tad-opt %s --split-input-file --tad-to-linalg="direct-convolutions=true" --canonicalize --cse | FileCheck %s --check-prefix=LIMIT
// RUN: tad-opt %s --split-input-file --tad-to-linalg --canonicalize --cse | FileCheck %s --check-prefix=IM2COL

// With direct-convolutions (the CPU pipeline from -O2 on), a 2-D convolution
// with unit strides and dilations, one group and C*KH*KW <= 32 skips
// im2col (passes/Conversion/TadToLinalg/DirectConvolution.h): the forward is a
// linalg.conv_2d_nchw_fchw into the broadcast bias, the weight gradient one
// generic over (f, c, kh, kw, n, oh, ow) reading the padded input.

// CHECK-DAG: #[[$BIAS:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[$X:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d2 + d5, d3 + d6)>
// CHECK-DAG: #[[$G:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d5, d6)>
// CHECK-DAG: #[[$GW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @lenet(
//       CHECK:   %[[INIT:.+]] = linalg.generic {indexing_maps = [#[[$BIAS]], {{.*}} ins(%arg2 : tensor<6xf32>)
//       CHECK:   linalg.conv_2d_nchw_fchw ins(%arg0, %arg1 : tensor<2x1x8x8xf32>, tensor<6x1x5x5xf32>) outs(%[[INIT]] : tensor<2x6x4x4xf32>)
//   CHECK-NOT:   linalg.matmul
// IM2COL-LABEL: func.func @lenet(
//       IM2COL:   linalg.matmul
//   IM2COL-NOT:   linalg.conv
func.func @lenet(%x: tensor<2x1x8x8xf32>, %w: tensor<6x1x5x5xf32>, %b: tensor<6xf32>) -> tensor<2x6x4x4xf32> {
  %0 = tad.convolution %x, %w bias %b {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<2x1x8x8xf32>, tensor<6x1x5x5xf32>, tensor<6xf32>) -> tensor<2x6x4x4xf32>
  return %0 : tensor<2x6x4x4xf32>
}

// The input padded once; the gradient accumulates into zeros.
// CHECK-LABEL: func.func @lenet_weight_grad(
//       CHECK:   %[[ZERO:.+]] = linalg.fill {{.*}} -> tensor<6x1x5x5xf32>
//       CHECK:   %[[XP:.+]] = tensor.pad %arg1 low[0, 0, 1, 1] high[0, 0, 1, 1]
//       CHECK:   linalg.generic {indexing_maps = [#[[$X]], #[[$G]], #[[$GW]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[XP]], %arg0 : tensor<2x1x10x10xf32>, tensor<2x6x6x6xf32>) outs(%[[ZERO]] : tensor<6x1x5x5xf32>)
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
//   CHECK-NOT:   linalg.matmul
func.func @lenet_weight_grad(%g: tensor<2x6x6x6xf32>, %x: tensor<2x1x8x8xf32>, %w: tensor<6x1x5x5xf32>) -> (tensor<6x1x5x5xf32>, tensor<6xf32>) {
  %r:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: false, true, true>} : (tensor<2x6x6x6xf32>, tensor<2x1x8x8xf32>, tensor<6x1x5x5xf32>) -> (tensor<2x1x8x8xf32>, tensor<6x1x5x5xf32>, tensor<6xf32>)
  return %r#1, %r#2 : tensor<6x1x5x5xf32>, tensor<6xf32>
}

// Strided: im2col and a matmul.
// CHECK-LABEL: func.func @not_direct(
//   CHECK-NOT:   linalg.conv
//       CHECK:   linalg.matmul
//   CHECK-NOT:   linalg.conv
func.func @not_direct(%x: tensor<1x1x9x9xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %0 = tad.convolution %x, %w {stride = array<i64: 2>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x1x9x9xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// A reduction of 4*3*3 = 36 > 32 with unit strides: implicit GEMM where its
// im2col matrix is over im2col-limit-mib (0 here; at the default of 256 MiB
// this one keeps im2col). The
// input's rows in NHWC order, flat, padded by ((KH-1)·W + KW-1)·C = 56;
// one contraction per kernel row kh over loops (position, filter, k) that
// reads the window row at position·C + k + kh·W·C, accumulating into one
// [positions, filters] tensor; the valid positions cropped and transposed
// back to NCHW.
// CHECK-DAG: #[[$ROW0:.+]] = affine_map<(d0, d1, d2) -> (d0 * 4 + d2)>
// CHECK-DAG: #[[$ROW1:.+]] = affine_map<(d0, d1, d2) -> (d0 * 4 + d2 + 24)>
// CHECK-DAG: #[[$ROW2:.+]] = affine_map<(d0, d1, d2) -> (d0 * 4 + d2 + 48)>
// CHECK-DAG: #[[$W:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @implicit_gemm(
//       CHECK:   linalg.transpose ins(%arg0 : tensor<1x4x6x6xf32>) {{.*}} permutation = [0, 2, 3, 1]
//       CHECK:   tensor.pad %{{.*}} low[0] high[56]
//       CHECK:   linalg.generic {indexing_maps = [#[[$ROW0]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<200xf32>, tensor<12x2xf32>) outs(%{{.*}} : tensor<36x2xf32>)
//       CHECK:   linalg.generic {indexing_maps = [#[[$ROW1]], #[[$W]], #[[$OUT]]]
//       CHECK:   linalg.generic {indexing_maps = [#[[$ROW2]], #[[$W]], #[[$OUT]]]
//       CHECK:   tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 4, 4, 2]
//       CHECK:   linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
//   CHECK-NOT:   linalg.matmul
// IM2COL-LABEL: func.func @implicit_gemm(
//       IM2COL:   linalg.matmul
// LIMIT-LABEL: func.func @implicit_gemm(
//       LIMIT:   linalg.matmul
func.func @implicit_gemm(%y: tensor<1x4x6x6xf32>, %v: tensor<2x4x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %1 = tad.convolution %y, %v {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// At the default limit, implicit GEMM from an im2col matrix over 256 MiB:
// 64x64x56x56 with 3x3 would write 64·3136 x 576 floats (462 MB) for one
// matmul. 256 MiB is 32 images (231 MB): im2col.
// LIMIT-LABEL: func.func @implicit_gemm_over_limit(
//       LIMIT:   linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<{{[0-9]+}}xf32>, tensor<192x64xf32>) outs(%{{.*}} : tensor<215296x64xf32>)
//   LIMIT-NOT:   linalg.matmul
// LIMIT-LABEL: func.func @im2col_under_limit(
//       LIMIT:   linalg.matmul
func.func @implicit_gemm_over_limit(%y: tensor<64x64x56x56xf32>, %v: tensor<64x64x3x3xf32>) -> tensor<64x64x56x56xf32> {
  %1 = tad.convolution %y, %v {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<64x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<64x64x56x56xf32>
  return %1 : tensor<64x64x56x56xf32>
}
func.func @im2col_under_limit(%y: tensor<32x64x56x56xf32>, %v: tensor<64x64x3x3xf32>) -> tensor<32x64x56x56xf32> {
  %1 = tad.convolution %y, %v {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<32x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<32x64x56x56xf32>
  return %1 : tensor<32x64x56x56xf32>
}

// -----

// Its weight gradient: per kernel row, loops (k, filter, position) with the
// window rows read transposed (position·C + k + kh·W·C) against the
// gradient at the input's positions [36, 2] (zero-padded past the output).
// CHECK-DAG: #[[$ROWT0:.+]] = affine_map<(d0, d1, d2) -> (d2 * 4 + d0)>
// CHECK-DAG: #[[$ROWT2:.+]] = affine_map<(d0, d1, d2) -> (d2 * 4 + d0 + 48)>
// CHECK-LABEL: func.func @implicit_gemm_weight_grad(
//       CHECK:   linalg.generic {indexing_maps = [#[[$ROWT0]], {{.*}} ins(%{{.*}}, %{{.*}} : tensor<200xf32>, tensor<36x2xf32>) outs(%{{.*}} : tensor<12x2xf32>)
//       CHECK:   linalg.generic {indexing_maps = [#[[$ROWT2]], {{.*}}]
//       CHECK:   linalg.transpose {{.*}} permutation = [3, 2, 0, 1]
func.func @implicit_gemm_weight_grad(%g: tensor<1x2x4x4xf32>, %y: tensor<1x4x6x6xf32>, %v: tensor<2x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<2x4x3x3xf32>, tensor<2xf32>) {
  %r:3 = tad.convolution_backward %g, %y, %v {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: false, true, false>} : (tensor<1x2x4x4xf32>, tensor<1x4x6x6xf32>, tensor<2x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<2x4x3x3xf32>, tensor<2xf32>)
  return %r#0, %r#1, %r#2 : tensor<1x4x6x6xf32>, tensor<2x4x3x3xf32>, tensor<2xf32>
}

// -----

// A depthwise convolution correlates flat rows of the padded input at the
// padded width: one tensor.pad writes the image padding and the zero row
// below it that the last row's discarded columns read (not a pad of the
// image, then another of its flat form); the collapse to flat rows is a
// view. The backward pads the gradient (by the kernel extent) and the
// input (for the weight gradient) the same way.
// CHECK-LABEL: func.func @depthwise(
//       CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{.*}} into tensor<1x4x1x6x6xf32>
//       CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 0, 1, 1] high[0, 0, 0, 2, 1]
//       CHECK: %[[F:.*]] = tensor.collapse_shape %[[P]] {{.*}} : tensor<1x4x1x9x8xf32> into tensor<1x4x1x72xf32>
//   CHECK-NOT: tensor.pad
//       CHECK: linalg.generic {{.*}} ins(%[[F]],
// CHECK-LABEL: func.func @depthwise_backward(
//       CHECK: tensor.pad %{{.*}} low[0, 0, 0, 2, 2] high[0, 0, 0, 3, 2]
//  CHECK-NEXT: ^bb
//       CHECK: tensor.collapse_shape {{.*}} : tensor<1x4x1x11x10xf32> into tensor<1x4x1x110xf32>
//   CHECK-NOT: tensor.pad
//       CHECK: linalg.generic
//       CHECK: tensor.pad %arg1 low[0, 0, 1, 1] high[0, 0, 2, 1]
//       CHECK: tensor.collapse_shape {{.*}} : tensor<1x4x9x8xf32> into tensor<1x4x72xf32>
func.func @depthwise(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 4 : i64} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
func.func @depthwise_backward(%g: tensor<1x4x6x6xf32>, %x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) {
  %r:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 4 : i64, output_mask = array<i1: true, true, false>} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>
}
