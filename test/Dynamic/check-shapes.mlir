// RUN: tad-opt --tad-check-shapes %s | FileCheck %s

// Before each op whose inference assumed that a dynamic size agrees with
// another: the two sizes, and a call of __tad_fail_shape (actual, expected,
// operand, dimension or -1/-2 for element counts, site) where they differ.

// CHECK:       func.func private @__tad_fail_shape(i64, i64, i64, i64, memref<96xi8>)
// A ? against a static size: that size.
// CHECK-LABEL: func.func @static_partner
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[D:.*]] = tensor.dim %arg0, %[[C0]]
// CHECK:         %[[A:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK:         %[[E:.*]] = arith.constant 5 : i64
// CHECK:         %[[BAD:.*]] = arith.cmpi ne, %[[A]], %[[E]]
// CHECK:         scf.if %[[BAD]] {
// CHECK-DAG:       %[[OP:.*]] = arith.constant 0 : i64
// CHECK-DAG:       %[[DIM:.*]] = arith.constant 0 : i64
// CHECK:           %[[SITE:.*]] = memref.get_global @__tad_shape_site
// CHECK:           func.call @__tad_fail_shape(%[[A]], %[[E]], %[[OP]], %[[DIM]], %[[SITE]])
// CHECK:         tad.add.Tensor
func.func @static_partner(%a: tensor<?x3xf32>, %b: tensor<5x1xf32>) -> tensor<5x3xf32> {
  %0 = tad.add.Tensor %a, %b : (tensor<?x3xf32>, tensor<5x1xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// Two ?: the second against the first; a 1 takes part in nothing.
// CHECK-LABEL: func.func @two_dynamic
// CHECK:         tensor.dim %arg1
// CHECK:         tensor.dim %arg0
// CHECK:         arith.cmpi ne
// CHECK:         scf.if
// CHECK-NOT:     scf.if
// CHECK:         tad.mul.Tensor
func.func @two_dynamic(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>, %c: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %0 = tad.mul.Tensor %a, %b : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = tad.mul.Tensor %0, %c : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}

// The inner dimensions of a product.
// CHECK-LABEL: func.func @product
// CHECK:         tensor.dim %arg0
// CHECK:         arith.constant 4 : i64
// CHECK:         scf.if
// CHECK:         tad.mm
func.func @product(%a: tensor<3x?xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %0 = tad.mm %a, %b : (tensor<3x?xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// A view of a dynamic tensor: the element count is a multiple of the
// static sizes (dimension -2), unless self's static sizes make it one
// already, or equal to them (-1).
// CHECK-LABEL: func.func @views
// CHECK:         arith.muli
// CHECK:         arith.remsi %{{.*}}, %{{.*}} : i64
// CHECK:         arith.constant -2 : i64
// CHECK:         tad.view %arg0 {size = array<i64: -1, 8>}
// CHECK-NOT:     scf.if
// CHECK:         tad.view %arg0 {size = array<i64: -1, 2, 2>}
// CHECK:         arith.constant 12 : i64
// CHECK:         arith.constant -1 : i64
// CHECK:         tad.view %arg0 {size = array<i64: 3, 4>}
func.func @views(%x: tensor<?x4xf32>) -> (tensor<?x8xf32>, tensor<?x2x2xf32>, tensor<3x4xf32>) {
  %0 = tad.view %x {size = array<i64: -1, 8>} : (tensor<?x4xf32>) -> tensor<?x8xf32>
  %1 = tad.view %x {size = array<i64: -1, 2, 2>} : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  %2 = tad.view %x {size = array<i64: 3, 4>} : (tensor<?x4xf32>) -> tensor<3x4xf32>
  return %0, %1, %2 : tensor<?x8xf32>, tensor<?x2x2xf32>, tensor<3x4xf32>
}

// Nothing to check: one dynamic operand, or static shapes.
// CHECK-LABEL: func.func @nothing
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @nothing(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = tad.add.Tensor %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %1 = tad.sum.dim_IntList %0 {dim = array<i64: 1>, keepdim = false} : (tensor<?x3xf32>) -> tensor<?xf32>
  %2 = tad.relu %0 : tensor<?x3xf32>
  return %2 : tensor<?x3xf32>
}

// The pieces of a cat agree in every dimension but the joined one, those of
// a stack in every dimension: each later piece against the first.
// CHECK-LABEL: func.func @joins
// CHECK:         tensor.dim %arg1, %{{.*}}
// CHECK:         tensor.dim %arg0, %{{.*}}
// CHECK:         arith.cmpi ne
// CHECK:         func.call @__tad_fail_shape
// CHECK:         tad.cat
// CHECK:         tensor.dim %arg2, %{{.*}}
// CHECK:         tensor.dim %arg0, %{{.*}}
// CHECK:         arith.cmpi ne
// CHECK:         func.call @__tad_fail_shape
// CHECK-NOT:     func.call @__tad_fail_shape
// CHECK:         tad.stack
func.func @joins(%a: tensor<?x3xf32>, %b: tensor<?x5xf32>, %c: tensor<?x3xf32>) -> (tensor<?x8xf32>, tensor<?x2x3xf32>) {
  %0 = tad.cat %a, %b {dim = 1 : i64} : (tensor<?x3xf32>, tensor<?x5xf32>) -> tensor<?x8xf32>
  %1 = tad.stack %a, %c {dim = 1 : i64} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x2x3xf32>
  return %0, %1 : tensor<?x8xf32>, tensor<?x2x3xf32>
}

// A tensor.insert_slice (the reverse sweep stores a loop's values of
// dynamic shape with them): each dynamic source size against the slice's
// size; the dropped unit dimension and the static sizes are not checked.
// CHECK-LABEL: func.func @insert_slice
// CHECK-SAME:    (%[[V:.*]]: tensor<?x3xf32>, %[[W:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<4x?x3xf32>, %[[N:.*]]: index, %[[I:.*]]: index)
// CHECK:         %[[D:.*]] = tensor.dim %[[V]], %{{.*}}
// CHECK:         %[[A:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK:         %[[E:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:         %[[BAD:.*]] = arith.cmpi ne, %[[A]], %[[E]]
// CHECK:         scf.if %[[BAD]] {
// CHECK:           func.call @__tad_fail_shape(%[[A]], %[[E]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         tensor.insert_slice %[[V]]
// CHECK-NOT:     func.call @__tad_fail_shape
// CHECK:         tensor.insert_slice %[[W]]
func.func @insert_slice(%v: tensor<?x3xf32>, %w: tensor<2x3xf32>, %s: tensor<4x?x3xf32>, %n: index, %i: index) -> tensor<4x?x3xf32> {
  %0 = tensor.insert_slice %v into %s[%i, 0, 0] [1, %n, 3] [1, 1, 1] : tensor<?x3xf32> into tensor<4x?x3xf32>
  %1 = tensor.insert_slice %w into %0[%i, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<2x3xf32> into tensor<4x?x3xf32>
  return %1 : tensor<4x?x3xf32>
}

// embedding's backward: the gradient's leading sizes against the indices'.
// CHECK-LABEL: func.func @embedding_backward
// CHECK-SAME:    (%[[G:.*]]: tensor<?x6x4xf32>, %[[I:.*]]: tensor<?x6xi64>)
// CHECK:         %[[DG:.*]] = tensor.dim %[[G]], %{{.*}}
// CHECK:         %[[A:.*]] = arith.index_cast %[[DG]] : index to i64
// CHECK:         %[[DI:.*]] = tensor.dim %[[I]], %{{.*}}
// CHECK:         %[[E:.*]] = arith.index_cast %[[DI]] : index to i64
// CHECK:         %[[BAD:.*]] = arith.cmpi ne, %[[A]], %[[E]]
// CHECK:         scf.if %[[BAD]] {
// CHECK:           func.call @__tad_fail_shape(%[[A]], %[[E]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT:     func.call @__tad_fail_shape
// CHECK:         tad.embedding_dense_backward
func.func @embedding_backward(%g: tensor<?x6x4xf32>, %i: tensor<?x6xi64>) -> tensor<10x4xf32> {
  %0 = tad.embedding_dense_backward %g, %i {num_weights = 10 : i64, padding_idx = -1 : i64, scale_grad_by_freq = false} : (tensor<?x6x4xf32>, tensor<?x6xi64>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// A scatter along a static dimension: the index's dynamic size against
// self's, the source's against the index's.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME:    (%[[S:.*]]: tensor<?x5xf64>, %[[I:.*]]: tensor<?x2xi64>, %[[G:.*]]: tensor<?x2xf64>)
// CHECK:         tensor.dim %[[I]]
// CHECK:         tensor.dim %[[S]]
// CHECK:         func.call @__tad_fail_shape
// CHECK:         tensor.dim %[[G]]
// CHECK:         tensor.dim %[[I]]
// CHECK:         func.call @__tad_fail_shape
// CHECK-NOT:     func.call @__tad_fail_shape
// CHECK:         tad.scatter_add
func.func @scatter_add(%s: tensor<?x5xf64>, %i: tensor<?x2xi64>, %g: tensor<?x2xf64>) -> tensor<?x5xf64> {
  %0 = tad.scatter_add %s, %i, %g {dim = 1 : i64} : (tensor<?x5xf64>, tensor<?x2xi64>, tensor<?x2xf64>) -> tensor<?x5xf64>
  return %0 : tensor<?x5xf64>
}

// A convolution's backward: the input's batch against the gradient's
// (tad-split-dynamic-batch slices both alike).
// CHECK-LABEL: func.func @convolution_backward
// CHECK-SAME:    (%[[G:.*]]: tensor<?x4x3x3xf32>, %[[X:.*]]: tensor<?x2x5x5xf32>
// CHECK:         %[[DX:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK:         %[[A:.*]] = arith.index_cast %[[DX]] : index to i64
// CHECK:         %[[DG:.*]] = tensor.dim %[[G]], %{{.*}}
// CHECK:         %[[E:.*]] = arith.index_cast %[[DG]] : index to i64
// CHECK:         %[[BAD:.*]] = arith.cmpi ne, %[[A]], %[[E]]
// CHECK:         scf.if %[[BAD]] {
// CHECK:           func.call @__tad_fail_shape(%[[A]], %[[E]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT:     func.call @__tad_fail_shape
// CHECK:         tad.convolution_backward
func.func @convolution_backward(%g: tensor<?x4x3x3xf32>, %x: tensor<?x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x2x5x5xf32> {
  %0:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: true, true, true>} : (tensor<?x4x3x3xf32>, tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>) -> (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
  return %0#0 : tensor<?x2x5x5xf32>
}

// A max pooling's backward: the input's and the indices' batches against
// the gradient's.
// CHECK-LABEL: func.func @max_pool_backward
// CHECK-COUNT-2: func.call @__tad_fail_shape
// CHECK-NOT:     func.call @__tad_fail_shape
// CHECK:         tad.max_pool2d_with_indices_backward
func.func @max_pool_backward(%g: tensor<?x4x2x2xf32>, %x: tensor<?x4x4x4xf32>, %i: tensor<?x4x2x2xi64>) -> tensor<?x4x4x4xf32> {
  %0 = tad.max_pool2d_with_indices_backward %g, %x, %i {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = false} : (tensor<?x4x2x2xf32>, tensor<?x4x4x4xf32>, tensor<?x4x2x2xi64>) -> tensor<?x4x4x4xf32>
  return %0 : tensor<?x4x4x4xf32>
}
