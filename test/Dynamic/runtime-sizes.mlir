// RUN: tad-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: tad-opt %s --split-input-file --tad-to-linalg | FileCheck %s --check-prefix=LOWER

// tad._shape_as_tensor and tad.expand_as, the two ops through which
// derivative rules use dynamic sizes (runtime-sizes-vjp.mlir); their
// inference is in inference.mlir.

// Static sizes fold to a constant; expand_as to its own type folds away.
// FOLD-LABEL: func.func @fold
// FOLD: %[[C:.*]] = tad.constant dense<[2, 3]> : tensor<2xi64>
// FOLD: return %[[C]], %arg1
func.func @fold(%x: tensor<2x3xf32>, %y: tensor<?x3xf32>) -> (tensor<2xi64>, tensor<?x3xf32>) {
  %0 = tad._shape_as_tensor %x : (tensor<2x3xf32>) -> tensor<2xi64>
  %1 = tad.expand_as %y, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0, %1 : tensor<2xi64>, tensor<?x3xf32>
}

// -----

// LOWER-LABEL: func.func @lower(
// LOWER-SAME: %[[X:.*]]: tensor<?x3xf32>, %[[B:.*]]: tensor<1x3xf32>
// LOWER: %[[D:.*]] = tensor.dim %[[X]], %c0
// LOWER: %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// LOWER: tensor.from_elements %[[D64]], %{{.*}} : tensor<2xi64>
// LOWER: %[[R:.*]] = tensor.dim %[[X]], %c0
// LOWER: %[[E:.*]] = tensor.empty(%[[R]]) : tensor<?x3xf32>
// LOWER: linalg.generic {{.*}} ins(%[[B]] : tensor<1x3xf32>) outs(%[[E]] : tensor<?x3xf32>)
func.func @lower(%x: tensor<?x3xf32>, %b: tensor<1x3xf32>) -> (tensor<2xi64>, tensor<?x3xf32>) {
  %0 = tad._shape_as_tensor %x : (tensor<?x3xf32>) -> tensor<2xi64>
  %1 = tad.expand_as %b, %x : (tensor<1x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0, %1 : tensor<2xi64>, tensor<?x3xf32>
}

// Nothing broadcast: a slice of all of self with other's sizes, no copy.
// LOWER-LABEL: func.func @refine(
// LOWER-SAME: %[[X:.*]]: tensor<?x3xf32>, %[[S:.*]]: tensor<8x3xf32>
// LOWER: %[[D:.*]] = tensor.dim %[[X]], %c0
// LOWER: %[[R:.*]] = tensor.extract_slice %[[S]][0, 0] [%[[D]], 3] [1, 1] : tensor<8x3xf32> to tensor<?x3xf32>
// LOWER: return %[[R]]
func.func @refine(%x: tensor<?x3xf32>, %s: tensor<8x3xf32>) -> tensor<?x3xf32> {
  %0 = tad.expand_as %s, %x : (tensor<8x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
