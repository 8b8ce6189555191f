// RUN: tad-opt %s --tad-split-dynamic-batch=block=4 --split-input-file | FileCheck %s
// RUN: tad-opt %s --tad-split-dynamic-batch=block=16 --split-input-file | FileCheck %s --check-prefix=LADDER

// A convolution over a dynamic batch: blocks of 4 samples, then the rest one
// by one, each a convolution with static types on a slice of the batch,
// inserted into the dynamic result.
// CHECK-LABEL: func.func @forward
// CHECK:         %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x4x3x3xf32>
// CHECK:         %[[BLOCKS:.*]] = scf.for %[[I:.*]] = %c0 to %{{.*}} step %c4 iter_args(%[[Y:.*]] = %[[EMPTY]])
// CHECK:           %[[X:.*]] = tensor.extract_slice %arg0[%[[I]], 0, 0, 0] [4, 2, 5, 5] [1, 1, 1, 1] : tensor<?x2x5x5xf32> to tensor<4x2x5x5xf32>
// CHECK:           %[[C:.*]] = tad.convolution %[[X]], %arg1 {{.*}} -> tensor<4x4x3x3xf32>
// CHECK:           tensor.insert_slice %[[C]] into %[[Y]][%[[I]], 0, 0, 0] [4, 4, 3, 3] [1, 1, 1, 1]
// CHECK:         %[[REST:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args(%{{.*}} = %[[BLOCKS]])
// CHECK:           tensor.extract_slice %arg0[%[[J]], 0, 0, 0] [1, 2, 5, 5]
// CHECK:           tad.convolution {{.*}} -> tensor<1x4x3x3xf32>
// CHECK:         return %[[REST]]
// Blocks of 16 samples, then of 4 on the rest, then single samples.
// LADDER-LABEL: func.func @forward
// LADDER:         scf.for {{.*}} step %c16
// LADDER:           tad.convolution {{.*}} -> tensor<16x4x3x3xf32>
// LADDER:         scf.for {{.*}} step %c4
// LADDER:           tad.convolution {{.*}} -> tensor<4x4x3x3xf32>
// LADDER:         scf.for {{.*}} step %c1
// LADDER:           tad.convolution {{.*}} -> tensor<1x4x3x3xf32>
func.func @forward(%x: tensor<?x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x4x3x3xf32> {
  %0 = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<?x4x3x3xf32>
  return %0 : tensor<?x4x3x3xf32>
}

// -----

// The backward op: the input gradient is assembled over the batch, the
// weight and bias gradients are sums over the steps, from zeros.
// CHECK-LABEL: func.func @backward
// CHECK-DAG:     %[[ZW:.*]] = arith.constant dense<0.000000e+00> : tensor<4x2x3x3xf32>
// CHECK-DAG:     %[[ZB:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[GW:.*]] = %[[ZW]], %[[GB:.*]] = %[[ZB]]) -> (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
// CHECK:           %[[GI:.*]], %[[PW:.*]], %[[PB:.*]] = tad.convolution_backward {{.*}} -> (tensor<4x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
// CHECK:           tensor.insert_slice %[[GI]]
// CHECK:           tad.add.Tensor %[[GW]], %[[PW]]
// CHECK:           tad.add.Tensor %[[GB]], %[[PB]]
func.func @backward(%g: tensor<?x4x3x3xf32>, %x: tensor<?x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) {
  %0:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: true, true, true>} : (tensor<?x4x3x3xf32>, tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>) -> (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
  return %0#0, %0#1, %0#2 : tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>
}

// -----

// A convolution, the ReLU of its result and the pooling of the ReLU: one
// loop whose steps run all three on a block of samples (they fuse as in the
// static module; nothing is assembled over the batch and sliced again).
// The ReLU's batch size, read between them (tad-check-shapes' checks), is
// the input's; its static sizes are constants. The results used after the
// group are carried: the ReLU's (returned) and the pooling's values, not
// its unused indices; a view of the pooling, which cannot run on blocks,
// ends the group.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-NOT:     tensor.dim %{{.*}} : tensor<?x4x4x4xf32>
// CHECK:         scf.for %[[I:.*]] = {{.*}} step %c4{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<?x4x4x4xf32>, tensor<?x4x2x2xf32>)
// CHECK:           %[[X:.*]] = tensor.extract_slice %arg0[%[[I]], 0, 0, 0] [4, 2, 6, 6]
// CHECK:           %[[C:.*]] = tad.convolution %[[X]], %arg1 {{.*}} -> tensor<4x4x4x4xf32>
// CHECK:           %[[R:.*]] = tad.relu %[[C]] : tensor<4x4x4x4xf32>
// CHECK:           tad.max_pool2d_with_indices %[[R]] {{.*}} -> (tensor<4x4x2x2xf32>, tensor<4x4x2x2xi64>)
// CHECK-COUNT-2:   tensor.insert_slice
// CHECK:         scf.for {{.*}} step %c1
// CHECK:         tad.view
// CHECK:         return {{.*}}, %[[N]], %c4
func.func @chain(%x: tensor<?x2x6x6xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<?x4x4x4xf32>, tensor<?x16xf32>, index, index) {
  %c = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<?x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<?x4x4x4xf32>
  %r = tad.relu %c : tensor<?x4x4x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %r, %c0 : tensor<?x4x4x4xf32>
  %k = tensor.dim %r, %c1 : tensor<?x4x4x4xf32>
  %p:2 = tad.max_pool2d_with_indices %r {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : (tensor<?x4x4x4xf32>) -> (tensor<?x4x2x2xf32>, tensor<?x4x2x2xi64>)
  %v = tad.view %p#0 {size = array<i64: -1, 16>} : (tensor<?x4x2x2xf32>) -> tensor<?x16xf32>
  return %r, %v, %n, %k : tensor<?x4x4x4xf32>, tensor<?x16xf32>, index, index
}

// -----

// The weight gradient of a convolution_backward is a sum over the blocks:
// an op that reads it cannot run on a block and ends the group, though it
// is elementwise; the ReLU backward of the input gradient joins.
// CHECK-LABEL: func.func @sum_ends_group
// CHECK:         scf.for
// CHECK:           tad.convolution_backward
// CHECK:           tad.threshold_backward {{.*}} -> tensor<4x2x5x5xf32>
// CHECK-NOT:       tad.mul.Scalar
// CHECK:         scf.for
// CHECK:         tad.mul.Scalar
func.func @sum_ends_group(%g: tensor<?x4x3x3xf32>, %x: tensor<?x2x5x5xf32>, %y: tensor<?x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>) {
  %0:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: true, true, false>} : (tensor<?x4x3x3xf32>, tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>) -> (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
  %t = tad.threshold_backward %0#0, %y, 0.0 : (tensor<?x2x5x5xf32>, tensor<?x2x5x5xf32>) -> tensor<?x2x5x5xf32>
  %s = tad.mul.Scalar %0#1, 2.0 : tensor<4x2x3x3xf32>
  return %t, %s : tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>
}

// -----

// Static convolutions, a dynamic size other than the batch, and a gather
// along the batch are left alone.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     scf.for
func.func @unchanged(%x: tensor<2x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %y: tensor<2x2x?x5xf32>,
                     %s: tensor<?x3xf32>, %i: tensor<?x3xi64>) -> (tensor<2x4x3x3xf32>, tensor<2x4x?x3xf32>, tensor<?x3xf32>) {
  %0 = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<2x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<2x4x3x3xf32>
  %1 = tad.convolution %y, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<2x2x?x5xf32>, tensor<4x2x3x3xf32>) -> tensor<2x4x?x3xf32>
  %2 = tad.gather %s, %i {dim = 0 : i64} : (tensor<?x3xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
  return %0, %1, %2 : tensor<2x4x3x3xf32>, tensor<2x4x?x3xf32>, tensor<?x3xf32>
}
