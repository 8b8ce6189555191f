// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per type-inference and verifier error of the shape ops.

func.func @permute_not_permutation(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'dims' [0, 0] is not a permutation of the 2 dimensions}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.permute %x {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_step(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'step' must be positive, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.slice.Tensor %x {step = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_index(%x: tensor<4x2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'index' 4 is out of range for size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.select.int %x {dim = 0 : i64, index = 4 : i64} : (tensor<4x2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_backward_shape(%g: tensor<2xf32>) -> tensor<7xf32> {
  // expected-error @+2 {{grad_output has shape [2] but the slice has shape [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.slice_backward %g {dim = 0 : i64, end = 7 : i64, input_sizes = array<i64: 7>, start = 0 : i64, step = 2 : i64} : (tensor<2xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @cat_shapes(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{tensor #1 of shape [3, 3] does not match outside 'dim' tensor #0 of shape [2, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.cat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @stack_shapes(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x2x3xf32> {
  // expected-error @+2 {{tensor #1 of shape [2, 1] differs from tensor #0 of shape [2, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.stack %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

func.func @split_sizes(%x: tensor<5xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{split sizes [2, 2] do not add up to 5, the size of dimension 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = tad.split_with_sizes %x {split_sizes = array<i64: 2, 2>} : (tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0 : tensor<2xf32>
}

// -----

// A split's result count is bounded before any per-piece work, so that
// inference time does not grow with the dimension (2^40 here).
func.func @split_too_many_pieces(%x: tensor<1099511627776x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{splitting a dimension of size 1099511627776 by 2 gives 549755813888 results; at most 65536 are supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:3 = tad.split.Tensor %x {split_size = 2 : i64} : (tensor<1099511627776x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>)
  return %r#0 : tensor<2x2xf32>
}

// -----

func.func @unbind_too_many_pieces(%x: tensor<2x1099511627776xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{unbinding a dimension of size 1099511627776 gives as many results; at most 65536 are supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = tad.unbind.int %x {dim = 1 : i64} : (tensor<2x1099511627776xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0 : tensor<2xf32>
}

// -----

func.func @split_sizes_overflow(%x: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{split sizes [9223372036854775807, 9223372036854775807] overflow a 64-bit size}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = tad.split_with_sizes %x {split_sizes = array<i64: 9223372036854775807, 9223372036854775807>} : (tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  return %r#0 : tensor<5xf32>
}

// -----

func.func @pad_too_long(%x: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'pad' [1, 1, 1, 1] is invalid for shape [5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.constant_pad_nd %x {pad = array<i64: 1, 1, 1, 1>} : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @to_copy_dtype(%x: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'dtype' must be f32, f64, bf16, f16, i64, i32 or i1, got 'f8E4M3FN'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad._to_copy %x {dtype = f8E4M3FN} : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
