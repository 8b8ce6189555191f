// RUN: tad-opt %s --tad-to-linalg | FileCheck %s
// RUN: tad-opt %s --tad-to-linalg=serial-scatters=0 | FileCheck %s --check-prefix=GENERIC

// Lowerings that read dynamic sizes (docs/dynamic-shapes.md lists them).

// embedding and its backward over a dynamic count of indices (a batch of
// token ids): the result's dynamic sizes are the indices'; the backward
// flattens both the indices and the gradient to that count
// (TadToLinalgIndexing.cpp; tad-check-shapes compares the gradient's
// leading sizes with the indices', check-shapes.mlir).

// CHECK-LABEL: func.func @embedding(
// CHECK-SAME:    %[[W:.*]]: tensor<10x4xf32>, %[[I:.*]]: tensor<?x6xi64>
// CHECK:         %[[N:.*]] = tensor.dim %[[I]], %c0
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x6x4xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[I]] : tensor<?x6xi64>) outs(%[[E]] : tensor<?x6x4xf32>)
// CHECK:           tensor.extract %[[W]]
func.func @embedding(%w: tensor<10x4xf32>, %i: tensor<?x6xi64>) -> tensor<?x6x4xf32> {
  %0 = tad.embedding %w, %i {padding_idx = -1 : i64, scale_grad_by_freq = false, sparse = false} : (tensor<10x4xf32>, tensor<?x6xi64>) -> tensor<?x6x4xf32>
  return %0 : tensor<?x6x4xf32>
}

// The CPU target's backward: a loop over the indices adding each gradient
// row to its table row in place (serial-scatters, the default).
// CHECK-LABEL: func.func @embedding_backward(
// CHECK-SAME:    %[[G:.*]]: tensor<?x6x4xf32>, %[[I:.*]]: tensor<?x6xi64>
// CHECK:         %[[Z:.*]] = linalg.fill {{.*}} -> tensor<10x4xf32>
// CHECK-DAG:     %[[FI:.*]] = tensor.collapse_shape %[[I]] {{\[\[}}0, 1]] : tensor<?x6xi64> into tensor<?xi64>
// CHECK-DAG:     %[[FG:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0, 1], [2]] : tensor<?x6x4xf32> into tensor<?x4xf32>
// CHECK:         %[[N:.*]] = tensor.dim %[[FI]], %{{.*}} : tensor<?xi64>
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<10x4xf32>)
// CHECK:           %[[K:.*]] = tensor.extract %[[FI]][%[[J]]] : tensor<?xi64>
// CHECK:           scf.if
// CHECK:             %[[ROW:.*]] = arith.index_cast %[[K]] : i64 to index
// CHECK:             %[[A:.*]] = tensor.extract_slice %[[ACC]][%[[ROW]], 0] [1, 4] [1, 1]
// CHECK:             %[[GR:.*]] = tensor.extract_slice %[[FG]][%[[J]], 0] [1, 4] [1, 1]
// CHECK:             %[[S:.*]] = linalg.generic {{.*}} ins(%[[GR]] : tensor<1x4xf32>) outs(%[[A]] : tensor<1x4xf32>)
// CHECK:             tensor.insert_slice %[[S]] into %[[ACC]][%[[ROW]], 0] [1, 4] [1, 1]
// The GPU target's (no loops): one generic over the table's rows and the
// indices.
// GENERIC-LABEL: func.func @embedding_backward(
// GENERIC-NOT:     scf.for
// GENERIC:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?xi64>, tensor<?x4xf32>) outs(%{{.*}} : tensor<10x4xf32>)
func.func @embedding_backward(%g: tensor<?x6x4xf32>, %i: tensor<?x6xi64>) -> tensor<10x4xf32> {
  %0 = tad.embedding_dense_backward %g, %i {num_weights = 10 : i64, padding_idx = -1 : i64, scale_grad_by_freq = false} : (tensor<?x6x4xf32>, tensor<?x6xi64>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// The mean of an elementwise loss divides by the element count read at run
// time (reduceLoss in TadToLinalgNN.cpp; binary_cross_entropy,
// binary_cross_entropy_with_logits, smooth_l1_loss and huber_loss).
// CHECK-LABEL: func.func @bce_mean(
// CHECK-SAME:    %[[X:.*]]: tensor<?x3xf64>
// CHECK:         %[[L:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x3xf64>)
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[L]] : tensor<?x3xf64>)
// CHECK:         %[[N:.*]] = tensor.dim %[[L]], %{{.*}}
// CHECK:         %[[NI:.*]] = arith.index_castui %[[N]] : index to i64
// CHECK:         %[[NF:.*]] = arith.uitofp %[[NI]] : i64 to f64
// CHECK:         %[[COUNT:.*]] = arith.mulf %[[NF]], %{{.*}} : f64
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<f64>)
// CHECK:           arith.divf %{{.*}}, %[[COUNT]] : f64
func.func @bce_mean(%x: tensor<?x3xf64>, %t: tensor<?x3xf64>) -> tensor<f64> {
  %0 = tad.binary_cross_entropy %x, %t {reduction = 1 : i64} : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// Padding of static dimensions around a dynamic one: the fill and the
// insert take the dynamic size from self.
// CHECK-LABEL: func.func @pad_around_batch(
// CHECK-SAME:    %[[X:.*]]: tensor<?x3x3xf64>
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x5x6xf64>
// CHECK:         %[[F:.*]] = linalg.fill {{.*}} outs(%[[E]] : tensor<?x5x6xf64>)
// CHECK:         %[[M:.*]] = tensor.dim %[[F]], %c0
// CHECK:         tensor.insert_slice %[[X]] into %[[F]][0, 1, 2] [%[[M]], 3, 3] [1, 1, 1]
func.func @pad_around_batch(%x: tensor<?x3x3xf64>) -> tensor<?x5x6xf64> {
  %0 = tad.constant_pad_nd %x {pad = array<i64: 2, 1, 1, 1>, value = 0.0 : f64} : (tensor<?x3x3xf64>) -> tensor<?x5x6xf64>
  return %0 : tensor<?x5x6xf64>
}

// max of every element (and min) over a dynamic batch: one reduction
// generic over self's sizes.
// CHECK-LABEL: func.func @max_all(
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<f64>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%arg0 : tensor<?x3xf64>) outs(%[[INIT]] : tensor<f64>)
// CHECK:           arith.maximumf
func.func @max_all(%x: tensor<?x3xf64>) -> tensor<f64> {
  %0 = tad.max %x : (tensor<?x3xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// scatter_add along a static dimension over a dynamic batch (the VJP of
// sort, topk, kthvalue): one generic over the index's sizes, in place of
// self's corner, which has all of self's sizes here.
// CHECK-LABEL: func.func @scatter_add_rows(
// CHECK-SAME:    %[[S:.*]]: tensor<?x5xf64>, %[[I:.*]]: tensor<?x2xi64>, %[[G:.*]]: tensor<?x2xf64>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[I]], %[[G]] : tensor<?x2xi64>, tensor<?x2xf64>) outs(%[[S]] : tensor<?x5xf64>)
// CHECK:         return %[[R]]
func.func @scatter_add_rows(%s: tensor<?x5xf64>, %i: tensor<?x2xi64>, %g: tensor<?x2xf64>) -> tensor<?x5xf64> {
  %0 = tad.scatter_add %s, %i, %g {dim = 1 : i64} : (tensor<?x5xf64>, tensor<?x2xi64>, tensor<?x2xf64>) -> tensor<?x5xf64>
  return %0 : tensor<?x5xf64>
}

// scatter_add along the dynamic dimension (the VJP of cummax, cummin or a
// median over the batch): the reduction loop runs over the index's rows,
// the output is all of self (tad-check-indices bounds the index's values
// by self's run-time size, tad-check-shapes src's rows by the index's).
// CHECK-LABEL: func.func @scatter_add_along_batch(
// CHECK-SAME:    %[[S:.*]]: tensor<?x5xf64>, %[[I:.*]]: tensor<?x5xi64>, %[[G:.*]]: tensor<?x5xf64>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[I]], %[[G]] : tensor<?x5xi64>, tensor<?x5xf64>) outs(%[[S]] : tensor<?x5xf64>)
// CHECK:         return %[[R]]
func.func @scatter_add_along_batch(%s: tensor<?x5xf64>, %i: tensor<?x5xi64>, %g: tensor<?x5xf64>) -> tensor<?x5xf64> {
  %0 = tad.scatter_add %s, %i, %g {dim = 0 : i64} : (tensor<?x5xf64>, tensor<?x5xi64>, tensor<?x5xf64>) -> tensor<?x5xf64>
  return %0 : tensor<?x5xf64>
}

// gather along a static dimension over a dynamic batch (max pooling's JVP,
// a batched SVD's sorting): one generic over the index's sizes (until
// 2026-12-05, a loop over blocks of samples, tad-split-dynamic-batch).
// CHECK-LABEL: func.func @gather_rows(
// CHECK-SAME:    %[[S:.*]]: tensor<?x5xf64>, %[[I:.*]]: tensor<?x2xi64>
// CHECK:         %[[N:.*]] = tensor.dim %[[I]], %c0
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x2xf64>
// CHECK:         linalg.generic {{.*}} ins(%[[I]] : tensor<?x2xi64>) outs(%[[E]] : tensor<?x2xf64>)
// CHECK:           tensor.extract %[[S]]
func.func @gather_rows(%s: tensor<?x5xf64>, %i: tensor<?x2xi64>) -> tensor<?x2xf64> {
  %0 = tad.gather %s, %i {dim = 1 : i64, sparse_grad = false} : (tensor<?x5xf64>, tensor<?x2xi64>) -> tensor<?x2xf64>
  return %0 : tensor<?x2xf64>
}
