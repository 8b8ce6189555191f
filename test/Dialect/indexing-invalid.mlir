// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per type-inference and verifier error of the indexing ops.

func.func @index_select_rank(%x: tensor<5x3xf32>, %i: tensor<2x2xi64>) -> tensor<4x3xf32> {
  // expected-error @+2 {{index must be 0-D or 1-D, got shape [2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.index_select %x, %i {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2x2xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @gather_shape(%x: tensor<5x3xf32>, %i: tensor<5x4xi64>) -> tensor<5x4xf32> {
  // expected-error @+2 {{index of shape [5, 4] must have the rank of self [5, 3] and no larger size outside 'dim'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.gather %x, %i {dim = 0 : i64} : (tensor<5x3xf32>, tensor<5x4xi64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @index_too_many(%x: tensor<5xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{expects between 1 and 1 index tensors, got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.index.Tensor %x, %i, %i : (tensor<5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @index_put_values(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %v: tensor<3x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{values of shape [3, 3] do not broadcast to the indexed shape [2, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.index_put %x, [%i], %v : (tensor<5x3xf32>, tensor<2xi64>, tensor<3x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @embedding_weight(%w: tensor<5xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{weight must be 2-D, got shape [5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.embedding %w, %i : (tensor<5xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @embedding_backward_freq(%g: tensor<2x3xf32>, %i: tensor<2xi64>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'scale_grad_by_freq' = true is not supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.embedding_dense_backward %g, %i {num_weights = 4 : i64, padding_idx = -1 : i64, scale_grad_by_freq = true} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
