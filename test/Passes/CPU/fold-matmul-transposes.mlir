// RUN: tad-opt %s --split-input-file --tad-fold-matmul-transposes | FileCheck %s

// The VJP of X @ W computes X^T @ dY: the matmul reads X through a
// transposed map and the transpose is gone.
//   CHECK-DAG: #[[$KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
//   CHECK-DAG: #[[$KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
//   CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @lhs(
//  CHECK-SAME:     %[[X:.*]]: tensor<128x512xf32>, %[[DY:.*]]: tensor<128x784xf32>
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
