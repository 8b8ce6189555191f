// RUN: tad-opt %s -split-input-file -verify-diagnostics

// Verifier and type-inference errors of the NN ops (TadNNOps.td).

func.func @softmax_dim(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tad._softmax' op 'dim' 2 is out of range for rank 2}}
  %0 = tad._softmax %x {dim = 2 : i64, half_to_float = false} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_half(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'half_to_float' must be false}}
  %0 = tad._log_softmax %x {dim = 1 : i64, half_to_float = true} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'tad.native_layer_norm' op 'normalized_shape' [4] is not a non-empty suffix of the input shape [2, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = tad.native_layer_norm %x {normalized_shape = array<i64: 4>, eps = 1.0e-5 : f64} : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_weight(%x: tensor<2x3xf32>, %w: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'weight' must have shape [3], got [2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = tad.native_layer_norm %x weight %w {normalized_shape = array<i64: 3>, eps = 1.0e-5 : f64} : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_eval_needs_stats(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{needs 'running_mean' when not training}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = tad.native_batch_norm %x {training = false, momentum = 0.1 : f64, eps = 1.0e-5 : f64} : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<0xf32>, tensor<0xf32>)
  return %0#0 : tensor<2x3xf32>
}

// -----

func.func @group_norm_groups(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{'group' 2 must divide the 3 channels}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = tad.native_group_norm %x {N = 2 : i64, C = 3 : i64, HxW = 4 : i64, group = 2 : i64, eps = 1.0e-5 : f64} : (tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %0#0 : tensor<2x3x4xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x3x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  // expected-error @+2 {{weight of shape [4, 2, 3, 3] does not fit 3 input channels in 1 groups}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @conv_transposed(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  // expected-error @+2 {{transposed convolution is not supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.convolution %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = true, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @conv_stride_list(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  // expected-error @+2 {{'stride', 'padding' and 'dilation' need 1 or 2 values}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.convolution %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @pool_padding(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32> {
  // expected-error @+2 {{padding must be at most half the kernel}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 1, 1>, padding = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> (tensor<1x1x5x5xf32>, tensor<1x1x5x5xi64>)
  return %0#0 : tensor<1x1x5x5xf32>
}

// -----

func.func @adaptive_size(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+2 {{'output_size' must be two positive sizes, got [2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad._adaptive_avg_pool2d %x {output_size = array<i64: 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @nll_target(%x: tensor<4x5xf32>, %y: tensor<5xi64>) -> tensor<f32> {
  // expected-error @+2 {{expects self [N, C] or [C] and target without the class dimension, got [4, 5] and [5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = tad.nll_loss_forward %x, %y {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<4x5xf32>, tensor<5xi64>) -> (tensor<f32>, tensor<f32>)
  return %0#0 : tensor<f32>
}

// -----

func.func @bce_reduction(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+2 {{'reduction' must be 0 (none), 1 (mean) or 2 (sum), got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.binary_cross_entropy %x, %x {reduction = 3 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @bce_shape(%x: tensor<4xf32>, %y: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+2 {{target of shape [1] must have the shape of self [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.binary_cross_entropy_with_logits %x, %y : (tensor<4xf32>, tensor<1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
