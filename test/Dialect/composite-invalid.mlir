// RUN: tad-opt %s -split-input-file -verify-diagnostics

// Type-inference errors of the composite ops (TadCompositeOps.td).

func.func @linear_inner(%x: tensor<4x5xf32>, %w: tensor<3x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'tad.linear' op expects input [..., in] and weight [out, in]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.linear %x, %w : (tensor<4x5xf32>, tensor<3x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+2 {{batch dimensions [2] and [3] do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @narrow_range(%x: tensor<4x5xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{start 3 and length 3 exceed dimension 1 of size 5}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.narrow %x {dim = 1 : i64, start = 3 : i64, length = 3 : i64} : (tensor<4x5xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @group_norm_groups(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'num_groups' 2 must divide the 5 channels}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.group_norm %x {num_groups = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @glu_odd(%x: tensor<4x5xf32>) -> tensor<4x2xf32> {
  // expected-error @+2 {{'tad.glu' op halves dimension 1 but its size 5 is odd}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.glu %x : (tensor<4x5xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A zero kernel (the default stride is the kernel) is rejected before the
// output size divides by the stride.
func.func @max_pool2d_zero_kernel(%x: tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64> {
  // expected-error @+2 {{'tad.max_pool2d' op invalid pooling parameters for input [1, 2, 4, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = tad.max_pool2d %x {kernel_size = array<i64: 0, 2>} : (tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64>
  return %r : tensor<1x2x2x2xf64>
}

// -----

func.func @chunk_too_many_pieces(%x: tensor<1099511627776xf32>) -> tensor<1xf32> {
  // expected-error @+2 {{chunking a dimension of size 1099511627776 into 1099511627776 gives 1099511627776 results; at most 65536 are supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = tad.chunk %x {chunks = 1099511627776 : i64} : (tensor<1099511627776xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  return %r#0 : tensor<1xf32>
}
