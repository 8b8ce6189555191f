// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per type-inference and verifier error of the matmul ops.

func.func @bmm_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+2 {{'tad.bmm' op cannot multiply batches of shapes [2, 3, 4] and [3, 4, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.bmm %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @bmm_rank(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{expects 3-D batches of matrices, got shapes [3, 4] and [4, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.bmm %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @baddbmm_self(%s: tensor<4x5xf32>, %a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+2 {{self of shape [4, 5] does not broadcast to the product's shape [2, 3, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.baddbmm %s, %a, %b : (tensor<4x5xf32>, tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @dot_sizes(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+2 {{expects two 1-D tensors of the same size, got shapes [3] and [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.dot %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @mv_sizes(%a: tensor<3x4xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{expects a [n, m] matrix and a [m] vector, got shapes [3, 4] and [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mv %a, %b : (tensor<3x4xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
