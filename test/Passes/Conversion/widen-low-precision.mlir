// RUN: tad-opt %s --split-input-file --tad-widen-low-precision | FileCheck %s
// RUN: tad-opt %s --split-input-file --tad-widen-low-precision --tad-to-linalg="direct-convolutions=true im2col-limit-mib=0" --canonicalize | FileCheck %s --check-prefix=LINALG
// RUN: tad-opt %s --split-input-file --tad-widen-low-precision --tad-to-linalg="direct-convolutions=true" --canonicalize | FileCheck %s --check-prefix=DEFAULT

// Arithmetic on bf16 runs in f32 with one rounding per op (ATen's opmath):
// operands widened by tad._to_copy, the result rounded back right after.
// Element moves (views, transposes, slices) keep bf16.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xbf16>, %[[W:.*]]: tensor<3x8xbf16>)
// CHECK: %[[WT:.*]] = tad.t %[[W]] : (tensor<3x8xbf16>) -> tensor<8x3xbf16>
// CHECK: %[[X32:.*]] = tad._to_copy %[[X]] {dtype = f32} : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK: %[[WT32:.*]] = tad._to_copy %[[WT]] {dtype = f32} : (tensor<8x3xbf16>) -> tensor<8x3xf32>
// CHECK: %[[MM:.*]] = tad.mm %[[X32]], %[[WT32]] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[MM16:.*]] = tad._to_copy %[[MM]] {dtype = bf16} : (tensor<4x3xf32>) -> tensor<4x3xbf16>
// CHECK: %[[T32:.*]] = tad._to_copy %[[MM16]] {dtype = f32}
// CHECK: %[[TANH:.*]] = tad.tanh %[[T32]] : tensor<4x3xf32>
// CHECK: %[[R:.*]] = tad._to_copy %[[TANH]] {dtype = bf16}
// CHECK: return %[[R]] : tensor<4x3xbf16>
// The lowering folds the widening of the product's operands into the
// linalg contraction: bf16 operands, f32 accumulator.
// LINALG-LABEL: func.func @chain
// LINALG: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x3xbf16>) outs(%{{.*}} : tensor<4x3xf32>)
func.func @chain(%x: tensor<4x8xbf16>, %w: tensor<3x8xbf16>) -> tensor<4x3xbf16> {
  %wt = tad.t %w : (tensor<3x8xbf16>) -> tensor<8x3xbf16>
  %0 = tad.mm %x, %wt : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16>
  %1 = tad.tanh %0 : tensor<4x3xbf16>
  return %1 : tensor<4x3xbf16>
}

// -----

// f16 likewise; results of other types (the i1 of a comparison) stay.
// CHECK-LABEL: func.func @half
// CHECK: %[[A:.*]] = tad._to_copy %arg0 {dtype = f32} : (tensor<5xf16>) -> tensor<5xf32>
// CHECK: %[[B:.*]] = tad._to_copy %arg1 {dtype = f32} : (tensor<5xf16>) -> tensor<5xf32>
// CHECK: tad.gt.Tensor %[[A]], %[[B]] : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
// CHECK-NOT: dtype = f16
// CHECK: return
func.func @half(%a: tensor<5xf16>, %b: tensor<5xf16>) -> tensor<5xi1> {
  %0 = tad.gt.Tensor %a, %b : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xi1>
  return %0 : tensor<5xi1>
}

// -----

// f32 and f64 programs are unchanged.
// CHECK-LABEL: func.func @wide
// CHECK-NOT: tad._to_copy
func.func @wide(%a: tensor<5xf32>) -> tensor<5xf32> {
  %0 = tad.exp %a : tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// A bf16 convolution is widened like any op; its lowering as implicit GEMM
// (direct-convolutions) reads the bf16 tensors the widening extends where
// the channels are whole blocks of 32 (the bf16 kernels' blocks): the
// padded NHWC rows and the weight stay bf16, the per-kernel-row
// contractions accumulate in f32, and the result is rounded once.
// CHECK-LABEL: func.func @conv
// CHECK: tad.convolution %{{.*}}, %{{.*}} {{.*}} : (tensor<2x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<2x32x6x6xf32>
// LINALG-LABEL: func.func @conv
// LINALG-NOT: arith.extf
// LINALG: linalg.transpose ins(%arg1 : tensor<32x32x3x3xbf16>)
// LINALG-COUNT-3: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4672xbf16>, tensor<96x32xbf16>) outs(%{{.*}} : tensor<128x32xf32>)
// LINALG: arith.truncf %{{.*}} : f32 to bf16
func.func @conv(%x: tensor<2x32x6x6xbf16>, %w: tensor<32x32x3x3xbf16>) -> tensor<2x32x6x6xbf16> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<2x32x6x6xbf16>, tensor<32x32x3x3xbf16>) -> tensor<2x32x6x6xbf16>
  return %0 : tensor<2x32x6x6xbf16>
}

// -----

// 16 and 8 channels are not: the convolution runs widened (the f32 rows).
// LINALG-LABEL: func.func @conv_few_channels
// LINALG: arith.extf
// LINALG: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2336xf32>, tensor<48x8xf32>) outs(%{{.*}} : tensor<128x8xf32>)
func.func @conv_few_channels(%x: tensor<2x16x6x6xbf16>, %w: tensor<8x16x3x3xbf16>) -> tensor<2x8x6x6xbf16> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<2x16x6x6xbf16>, tensor<8x16x3x3xbf16>) -> tensor<2x8x6x6xbf16>
  return %0 : tensor<2x8x6x6xbf16>
}

// -----

// Below the im2col limit (the default), a convolution on the bf16 kernels
// is still implicit GEMM where the padded positions add at most a quarter
// to the work: 3x3 with padding 1 on 28x28 maps (30·30 against 28·28
// positions) is; on 14x14 (16·16 against 14·14) it is im2col, as f32 is
// at any size.
// DEFAULT-LABEL: func.func @conv_large_maps
// DEFAULT-COUNT-3: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<{{[0-9]+}}xbf16>, tensor<96x32xbf16>) outs(%{{.*}} : tensor<900x32xf32>)
// DEFAULT-NOT: linalg.matmul
// DEFAULT-LABEL: func.func @conv_small_maps
// DEFAULT: linalg.matmul
// DEFAULT-LABEL: func.func @conv_large_maps_f32
// DEFAULT: linalg.matmul
func.func @conv_large_maps(%x: tensor<1x32x28x28xbf16>, %w: tensor<32x32x3x3xbf16>) -> tensor<1x32x28x28xbf16> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x32x28x28xbf16>, tensor<32x32x3x3xbf16>) -> tensor<1x32x28x28xbf16>
  return %0 : tensor<1x32x28x28xbf16>
}
func.func @conv_small_maps(%x: tensor<1x32x14x14xbf16>, %w: tensor<32x32x3x3xbf16>) -> tensor<1x32x14x14xbf16> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x32x14x14xbf16>, tensor<32x32x3x3xbf16>) -> tensor<1x32x14x14xbf16>
  return %0 : tensor<1x32x14x14xbf16>
}
func.func @conv_large_maps_f32(%x: tensor<1x32x28x28xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x28x28xf32> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x32x28x28xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x28x28xf32>
  return %0 : tensor<1x32x28x28xf32>
}
