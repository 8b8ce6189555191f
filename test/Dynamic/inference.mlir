// RUN: tad-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// Result types with dynamic sizes (?): a dynamic size never broadcasts, so
// against a static size other than 1 it is that size, against 1 or another
// ? it stays ?; tad-check-shapes checks at run time what inference assumes.

// CHECK-LABEL: func.func @mlp
func.func @mlp(%x: tensor<?x4xf32>, %w: tensor<3x4xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  // CHECK: tad.t %{{.*}} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %wt = tad.t %w : (tensor<3x4xf32>) -> tensor<4x3xf32>
  // CHECK: tad.addmm {{.*}} : (tensor<3xf32>, tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %y = tad.addmm %b, %x, %wt : (tensor<3xf32>, tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  // CHECK: tad.relu %{{.*}} : tensor<?x3xf32>
  %r = tad.relu %y : tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%a: tensor<?x3xf32>, %b: tensor<5x1xf32>, %c: tensor<?x1xf32>) -> (tensor<5x3xf32>, tensor<?x3xf32>) {
  // CHECK: (tensor<?x3xf32>, tensor<5x1xf32>) -> tensor<5x3xf32>
  %0 = tad.add.Tensor %a, %b : (tensor<?x3xf32>, tensor<5x1xf32>) -> tensor<5x3xf32>
  // CHECK: (tensor<?x3xf32>, tensor<?x1xf32>) -> tensor<?x3xf32>
  %1 = tad.mul.Tensor %a, %c : (tensor<?x3xf32>, tensor<?x1xf32>) -> tensor<?x3xf32>
  return %0, %1 : tensor<5x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @reductions_and_views
func.func @reductions_and_views(%x: tensor<?x784xf64>) -> (tensor<f64>, tensor<784xf64>, tensor<?x28x28xf64>, tensor<784x?xf64>) {
  // CHECK: (tensor<?x784xf64>) -> tensor<f64>
  %0 = tad.mean %x : (tensor<?x784xf64>) -> tensor<f64>
  // CHECK: (tensor<?x784xf64>) -> tensor<784xf64>
  %1 = tad.sum.dim_IntList %x {dim = array<i64: 0>, keepdim = false} : (tensor<?x784xf64>) -> tensor<784xf64>
  // CHECK: (tensor<?x784xf64>) -> tensor<?x28x28xf64>
  %2 = tad.view %x {size = array<i64: -1, 28, 28>} : (tensor<?x784xf64>) -> tensor<?x28x28xf64>
  // CHECK: (tensor<?x784xf64>) -> tensor<784x?xf64>
  %3 = tad.t %x : (tensor<?x784xf64>) -> tensor<784x?xf64>
  return %0, %1, %2, %3 : tensor<f64>, tensor<784xf64>, tensor<?x28x28xf64>, tensor<784x?xf64>
}

// -----

// Static sizes are still checked where they meet.
func.func @mismatch(%a: tensor<?x3xf32>, %b: tensor<?x4xf32>) -> tensor<?x3xf32> {
  // expected-error @+2 {{'tad.add.Tensor' op shapes [?, 3] and [?, 4] are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.add.Tensor %a, %b : (tensor<?x3xf32>, tensor<?x4xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Padding keeps a dynamic size where it pads nothing, and pads only
// static dimensions.
func.func @pad_dynamic(%a: tensor<3x?xf32>) -> tensor<3x?xf32> {
  // expected-error @+2 {{'tad.constant_pad_nd' op 'pad' [1, 2] pads dimension 1, whose size is dynamic; tad pads static dimensions only (docs/dynamic-shapes.md)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.constant_pad_nd %a {pad = array<i64: 1, 2>, value = 0.0 : f64} : (tensor<3x?xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

func.func @inner(%a: tensor<?x3xf32>, %b: tensor<4x2xf32>) -> tensor<?x2xf32> {
  // expected-error @+2 {{'tad.mm' op cannot multiply shapes [?, 3] and [4, 2]: inner dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mm %a, %b : (tensor<?x3xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// A view of a dynamic tensor infers at most one size (the -1).
func.func @view(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  // expected-error @+2 {{'tad.view' op 'size' [-1, -1] is invalid for a tensor of shape [?, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.view %x {size = array<i64: -1, -1>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// Convolution and pooling: a dynamic batch or spatial size gives a dynamic
// output size there (it used to be computed from the ? marker's value).
// CHECK-LABEL: func.func @conv_pool
func.func @conv_pool(%x: tensor<?x2x?x5xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<?x4x?x3xf32>, tensor<?x4x?x1xf32>) {
  // CHECK: -> tensor<?x4x?x3xf32>
  %0 = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<?x2x?x5xf32>, tensor<4x2x3x3xf32>) -> tensor<?x4x?x3xf32>
  // CHECK: -> (tensor<?x4x?x1xf32>, tensor<?x4x?x1xi64>)
  %1:2 = tad.max_pool2d_with_indices %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : (tensor<?x4x?x3xf32>) -> (tensor<?x4x?x1xf32>, tensor<?x4x?x1xi64>)
  return %0, %1#0 : tensor<?x4x?x3xf32>, tensor<?x4x?x1xf32>
}

// -----

// expand_as: other's sizes, self's broadcasting to them (a dynamic size on
// either side is checked at run time).
func.func @expand_as(%x: tensor<?x1xf32>, %y: tensor<?x4xf32>, %z: tensor<2x3xf32>) -> tensor<?x4xf32> {
  %0 = tad.expand_as %x, %y : (tensor<?x1xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  // expected-error @+2 {{'tad.expand_as' op cannot expand shape [2, 3] to shape [?, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %1 = "tad.expand_as"(%z, %y) : (tensor<2x3xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}


// -----

// gather/scatter: an index size outside 'dim' may be at most self's; a
// dynamic self size may be either, so it is accepted (it was an error).
// CHECK-LABEL: func.func @gather_scatter
func.func @gather_scatter(%x: tensor<?x5xf64>, %i: tensor<10x2xi64>, %s: tensor<10x2xf64>) -> (tensor<10x2xf64>, tensor<?x5xf64>) {
  // CHECK: tad.gather {{.*}} -> tensor<10x2xf64>
  %0 = tad.gather %x, %i {dim = 1 : i64} : (tensor<?x5xf64>, tensor<10x2xi64>) -> tensor<10x2xf64>
  // CHECK: tad.scatter_add {{.*}} -> tensor<?x5xf64>
  %1 = tad.scatter_add %x, %i, %s {dim = 1 : i64} : (tensor<?x5xf64>, tensor<10x2xi64>, tensor<10x2xf64>) -> tensor<?x5xf64>
  return %0, %1 : tensor<10x2xf64>, tensor<?x5xf64>
}
