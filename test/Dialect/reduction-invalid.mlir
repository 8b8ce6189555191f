// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per type-inference and verifier error of the reduction ops.

func.func @amax_dim_out_of_range(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tad.amax' op 'dim' [2] is out of range or repeated for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.amax %x {dim = array<i64: 2>} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @max_dim_out_of_range(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tad.max.dim' op 'dim' 3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %1 = tad.max.dim %x {dim = 3 : i64} : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi64>)
  return %0 : tensor<4xf32>
}

// -----

func.func @var_repeated_dims(%x: tensor<4x3xf32>) -> tensor<f32> {
  // expected-error @+2 {{'tad.var.correction' op 'dim' [0, -2] is out of range or repeated for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.var.correction %x {dim = array<i64: 0, -2>} : (tensor<4x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @cumsum_dim(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'tad.cumsum' op 'dim' -3 is out of range for rank 2}}
  %0 = tad.cumsum %x {dim = -3 : i64} : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @selecting_backward_shape(%g: tensor<3xf32>, %i: tensor<3xi64>) -> tensor<4x3xf32> {
  // expected-error @+2 {{grad and indices must have shape [4] for sizes [4, 3], got [3] and [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.value_selecting_reduction_backward %g, %i {dim = 1 : i64, keepdim = false, sizes = array<i64: 4, 3>} : (tensor<3xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
