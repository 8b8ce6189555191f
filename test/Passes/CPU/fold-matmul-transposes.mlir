// RUN: tad-opt %s --split-input-file --tad-fold-matmul-transposes="bf16-rhs=0" | FileCheck %s
// RUN: tad-opt %s --split-input-file --tad-fold-matmul-transposes="bf16-rhs=1" | FileCheck %s --check-prefix=BF16

// The VJP of X @ W computes X^T @ dY: the matmul reads X through a
// transposed map and the transpose is gone.
//   CHECK-DAG: #[[$KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
//   CHECK-DAG: #[[$KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
//   CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @lhs(
//  CHECK-SAME:     %[[X:[a-z0-9]+]]: tensor<128x512xf32>, %[[DY:.*]]: tensor<128x784xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.matmul indexing_maps = [#[[$KM]], #[[$KN]], #[[$MN]]]
//  CHECK-SAME:     ins(%[[X]], %[[DY]] : tensor<128x512xf32>, tensor<128x784xf32>)
func.func @lhs(%x: tensor<128x512xf32>, %dy: tensor<128x784xf32>,
               %init: tensor<512x784xf32>) -> tensor<512x784xf32> {
  %e = tensor.empty() : tensor<512x128xf32>
  %xt = linalg.transpose ins(%x : tensor<128x512xf32>)
                         outs(%e : tensor<512x128xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%xt, %dy : tensor<512x128xf32>, tensor<128x784xf32>)
                     outs(%init : tensor<512x784xf32>) -> tensor<512x784xf32>
  return %0 : tensor<512x784xf32>
}

// -----

// A transpose with another user stays for it; the matmul still reads X.
// B transposes are left alone: the register tiles read rows of B.
// CHECK-LABEL: func.func @shared_and_rhs(
//  CHECK-SAME:     %[[X:[^:]*]]: tensor<16x8xf32>
//       CHECK:   %[[XT:.*]] = linalg.transpose ins(%[[X]]
//       CHECK:   %[[WT:.*]] = linalg.transpose
//       CHECK:   linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[X]], %[[WT]]
//       CHECK:   return %[[XT]]
func.func @shared_and_rhs(%x: tensor<16x8xf32>, %w: tensor<4x16xf32>,
                          %init: tensor<8x4xf32>)
    -> (tensor<8x16xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %xt = linalg.transpose ins(%x : tensor<16x8xf32>)
                         outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<16x4xf32>
  %wt = linalg.transpose ins(%w : tensor<4x16xf32>)
                         outs(%e2 : tensor<16x4xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%xt, %wt : tensor<8x16xf32>, tensor<16x4xf32>)
                     outs(%init : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %xt, %0 : tensor<8x16xf32>, tensor<8x4xf32>
}

// -----

// batch_matmul: a transpose of the last two dimensions folds (attention's
// dK = dS^T Q); one that moves the batch dimension does not (the second
// matmul reads through the inner transpose and stops at the outer one).
//       CHECK: #[[$BKM:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-LABEL: func.func @batched(
//       CHECK:   linalg.batch_matmul indexing_maps = [#[[$BKM]],
//  CHECK-SAME:     ins(%arg0, %arg1
//       CHECK:   %[[TT:.*]] = linalg.transpose ins(%arg3 {{.*}} permutation = [1, 0, 2]
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.batch_matmul indexing_maps = [#[[$BKM]], {{.*}} ins(%[[TT]], %arg1
func.func @batched(%s: tensor<4x16x8xf32>, %q: tensor<4x16x32xf32>,
                   %init: tensor<4x8x32xf32>, %t: tensor<16x4x8xf32>)
    -> (tensor<4x8x32xf32>, tensor<4x8x32xf32>) {
  %e = tensor.empty() : tensor<4x8x16xf32>
  %st = linalg.transpose ins(%s : tensor<4x16x8xf32>)
                         outs(%e : tensor<4x8x16xf32>) permutation = [0, 2, 1]
  %0 = linalg.batch_matmul ins(%st, %q : tensor<4x8x16xf32>, tensor<4x16x32xf32>)
                           outs(%init : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %e1 = tensor.empty() : tensor<4x16x8xf32>
  %tt = linalg.transpose ins(%t : tensor<16x4x8xf32>)
                         outs(%e1 : tensor<4x16x8xf32>) permutation = [1, 0, 2]
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %ttt = linalg.transpose ins(%tt : tensor<4x16x8xf32>)
                          outs(%e2 : tensor<4x8x16xf32>) permutation = [0, 2, 1]
  %1 = linalg.batch_matmul ins(%ttt, %q : tensor<4x8x16xf32>, tensor<4x16x32xf32>)
                           outs(%init : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %0, %1 : tensor<4x8x32xf32>, tensor<4x8x32xf32>
}

// -----

// A bf16 x bf16 -> f32 product's transposed B (the forward product's W^T):
// where the host has a bf16 kernel (pinned: bf16-rhs=1) B is read through a
// transposed map, as the kernel packs it from W's rows; without one
// (bf16-rhs=0) it stays.
//   BF16-DAG: #[[$NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// BF16-LABEL: func.func @bf16_rhs(
//  BF16-SAME: %[[X:[a-z0-9]+]]: tensor<8x16xbf16>, %[[W:[a-z0-9]+]]: tensor<32x16xbf16>
//  BF16-NOT: linalg.transpose
//      BF16: linalg.matmul indexing_maps = [#{{.*}}, #[[$NK]], #{{.*}}] ins(%[[X]], %[[W]] :
//      BF16: #[[$BNK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @bf16_rhs(
//      CHECK: linalg.transpose
//      CHECK: linalg.matmul ins
func.func @bf16_rhs(%x: tensor<8x16xbf16>, %w: tensor<32x16xbf16>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<16x32xbf16>
  %t = linalg.transpose ins(%w : tensor<32x16xbf16>) outs(%e : tensor<16x32xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %c0 = tensor.empty() : tensor<8x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %t : tensor<8x16xbf16>, tensor<16x32xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Batched, the batch dimension in place; a transpose that moves the batch
// dimension and f32 products are left alone.
// BF16-LABEL: func.func @bf16_rhs_batched(
//  BF16-SAME: tensor<4x8x16xbf16>, %[[W:[a-z0-9]+]]: tensor<4x32x16xbf16>, %[[V:[a-z0-9]+]]: tensor<32x4x16xbf16>, %{{[a-z0-9]+}}: tensor<4x8x16xf32>, %[[F:[a-z0-9]+]]: tensor<4x32x16xf32>
//      BF16: linalg.batch_matmul indexing_maps = [#{{.*}}, #[[$BNK]], #{{.*}}] ins(%{{.*}}, %[[W]] :
//      BF16: linalg.transpose ins(%[[V]]
//      BF16: linalg.batch_matmul ins
//      BF16: linalg.transpose ins(%[[F]]
//      BF16: linalg.batch_matmul ins
func.func @bf16_rhs_batched(%x: tensor<4x8x16xbf16>, %w: tensor<4x32x16xbf16>, %v: tensor<32x4x16xbf16>, %xf: tensor<4x8x16xf32>, %f: tensor<4x32x16xf32>) -> (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>) {
  %e = tensor.empty() : tensor<4x16x32xbf16>
  %t = linalg.transpose ins(%w : tensor<4x32x16xbf16>) outs(%e : tensor<4x16x32xbf16>) permutation = [0, 2, 1]
  %zero = arith.constant 0.0 : f32
  %c0 = tensor.empty() : tensor<4x8x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %y = linalg.batch_matmul ins(%x, %t : tensor<4x8x16xbf16>, tensor<4x16x32xbf16>) outs(%c : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %e2 = tensor.empty() : tensor<4x16x32xbf16>
  %t2 = linalg.transpose ins(%v : tensor<32x4x16xbf16>) outs(%e2 : tensor<4x16x32xbf16>) permutation = [1, 2, 0]
  %y2 = linalg.batch_matmul ins(%x, %t2 : tensor<4x8x16xbf16>, tensor<4x16x32xbf16>) outs(%c : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %e3 = tensor.empty() : tensor<4x16x32xf32>
  %t3 = linalg.transpose ins(%f : tensor<4x32x16xf32>) outs(%e3 : tensor<4x16x32xf32>) permutation = [0, 2, 1]
  %y3 = linalg.batch_matmul ins(%xf, %t3 : tensor<4x8x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %y, %y2, %y3 : tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>
}
