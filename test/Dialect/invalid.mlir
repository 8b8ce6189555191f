// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per verifier and type-inference error of the tad ops.

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

func.func @add_not_broadcastable(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'tad.add.Tensor' op shapes [4, 3] and [4] are not broadcast-compatible}}
  // expected-error @+1 {{'tad.add.Tensor' op failed to infer returned types}}
  %0 = tad.add.Tensor %a, %b : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @mul_not_broadcastable(%a: tensor<2x3xf64>, %b: tensor<3x3xf64>) -> tensor<3x3xf64> {
  // expected-error @+2 {{shapes [2, 3] and [3, 3] are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mul.Tensor %a, %b : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// -----

func.func @threshold_backward_not_broadcastable(%g: tensor<5xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tad.threshold_backward' op shapes [5] and [4] are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.threshold_backward %g, %x, 0.0 : (tensor<5xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The declared result type must be the broadcast shape.
func.func @sub_wrong_result_shape(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'tad.sub.Tensor' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.sub.Tensor %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @div_wrong_result_element_type(%a: tensor<3xf32>) -> tensor<3xf64> {
  // expected-error @+2 {{'tad.div.Tensor' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<3xf64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.div.Tensor %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

func.func @add_mixed_f32_f64(%a: tensor<3xf32>, %b: tensor<3xf64>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.add.Tensor' op operands have different element types: 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.add.Tensor %a, %b : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @unary_mixed_f32_f64(%a: tensor<3xf32>) -> tensor<3xf64> {
  // expected-error @+1 {{'tad.neg' op failed to verify that all of {self, result} have same type}}
  %0 = "tad.neg"(%a) : (tensor<3xf32>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

func.func @exp_of_integers(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'tad.exp' op operand #0 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values, but got 'tensor<3xi32>'}}
  %0 = tad.exp %a : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @mm_of_integers(%a: tensor<2x2xi64>) -> tensor<2x2xi64> {
  // expected-error @+1 {{'tad.mm' op operand #0 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values, but got 'tensor<2x2xi64>'}}
  %0 = tad.mm %a, %a : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

func.func @full_like_of_booleans(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'tad.full_like' op operand #0 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values, but got 'tensor<3xi1>'}}
  %0 = tad.full_like %a, 1.0 : tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @view_of_i8(%a: tensor<4xi8>) -> tensor<2x2xi8> {
  // expected-error @+1 {{'tad.view' op operand #0 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float or 64-bit signless integer or 32-bit signless integer or 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = tad.view %a {size = array<i64: 2, 2>} : (tensor<4xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

func.func @constant_of_i8() -> tensor<2xi8> {
  // expected-error @+1 {{'tad.constant' op result #0 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float or 64-bit signless integer or 32-bit signless integer or 1-bit signless integer values, but got 'tensor<2xi8>'}}
  %0 = tad.constant dense<1> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// ATen Scalars are f64 attributes whatever the tensor's element type.
func.func @alpha_not_f64(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.add.Tensor' op attribute 'alpha' failed to satisfy constraint: 64-bit float attribute (ATen Scalar)}}
  %0 = tad.add.Tensor %a, %a {alpha = 2.0 : f32} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @scalar_other_integer(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.mul.Scalar' op attribute 'other' failed to satisfy constraint: 64-bit float attribute (ATen Scalar)}}
  %0 = "tad.mul.Scalar"(%a) {other = 2 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @threshold_missing(%g: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.threshold_backward' op requires attribute 'threshold'}}
  %0 = "tad.threshold_backward"(%g, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @fill_value_missing(%a: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'tad.full_like' op requires attribute 'fill_value'}}
  %0 = "tad.full_like"(%a) : (tensor<3xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

func.func @mm_inner_dims(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'tad.mm' op cannot multiply shapes [4, 3] and [4, 3]: inner dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mm %a, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @mm_3d(%a: tensor<2x4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'tad.mm' op expects 2-D matrices, got shapes [2, 4, 3] and [3, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mm %a, %b : (tensor<2x4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @mm_mixed_f32_f64(%a: tensor<2x2xf32>, %b: tensor<2x2xf64>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'tad.mm' op operands have different element types: 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mm %a, %b : (tensor<2x2xf32>, tensor<2x2xf64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @mm_wrong_result(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<5x4xf32> {
  // expected-error @+2 {{'tad.mm' op inferred type(s) 'tensor<4x5xf32>' are incompatible with return type(s) of operation 'tensor<5x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mm %a, %b : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @addmm_self_too_big(%s: tensor<2x4x5xf32>, %a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'tad.addmm' op self of shape [2, 4, 5] does not broadcast to the product's shape [4, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.addmm %s, %a, %b : (tensor<2x4x5xf32>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @addmm_self_not_broadcastable(%s: tensor<3xf32>, %a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'tad.addmm' op self of shape [3] does not broadcast to the product's shape [4, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.addmm %s, %a, %b : (tensor<3xf32>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @addmm_mixed_f32_f64(%s: tensor<5xf64>, %a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'tad.addmm' op operands have different element types: 'f64' and 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.addmm %s, %a, %b : (tensor<5xf64>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @addmm_inner_dims(%s: tensor<5xf32>, %a: tensor<4x3xf32>, %b: tensor<2x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'tad.addmm' op cannot multiply shapes [4, 3] and [2, 5]: inner dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.addmm %s, %a, %b : (tensor<5xf32>, tensor<4x3xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

func.func @sum_wrong_result(%a: tensor<4x3xf32>) -> tensor<1xf32> {
  // expected-error @+2 {{'tad.sum' op inferred type(s) 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.sum %a : (tensor<4x3xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @mean_wrong_element_type(%a: tensor<4x3xf32>) -> tensor<f64> {
  // expected-error @+2 {{'tad.mean' op inferred type(s) 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<f64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mean %a : (tensor<4x3xf32>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

func.func @sum_dim_out_of_range(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tad.sum.dim_IntList' op 'dim' [2] is out of range or repeated for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.sum.dim_IntList %a {dim = array<i64: 2>} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sum_dim_negative_out_of_range(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'dim' [-3] is out of range or repeated for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.sum.dim_IntList %a {dim = array<i64: -3>} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// -1 and 1 name the same dimension of a rank-2 tensor.
func.func @mean_dim_repeated(%a: tensor<4x3xf64>) -> tensor<4xf64> {
  // expected-error @+2 {{'tad.mean.dim' op 'dim' [1, -1] is out of range or repeated for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mean.dim %a {dim = array<i64: 1, -1>} : (tensor<4x3xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @sum_dim_rank0_out_of_range(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+2 {{'dim' [1] is out of range or repeated for rank 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.sum.dim_IntList %a {dim = array<i64: 1>} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @mean_dim_missing_keepdim(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tad.mean.dim' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mean.dim %a {dim = array<i64: 1>, keepdim = true} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sum_dim_not_an_array(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tad.sum.dim_IntList' op attribute 'dim' failed to satisfy constraint: i64 dense array attribute}}
  %0 = tad.sum.dim_IntList %a {dim = 1 : i64} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sum_to_size_not_broadcast(%a: tensor<4x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'tad.sum_to_size' op shape [4, 3] cannot be summed to size [2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.sum_to_size %a {size = array<i64: 2>} : (tensor<4x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @sum_to_size_larger(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'tad.sum_to_size' op shape [3] cannot be summed to size [2, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.sum_to_size %a {size = array<i64: 2, 3>} : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @sum_to_size_missing_size(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.sum_to_size' op requires attribute 'size'}}
  %0 = "tad.sum_to_size"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

func.func @t_3d(%a: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  // expected-error @+2 {{'tad.t' op expects a tensor of rank <= 2, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.t %a : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

func.func @t_wrong_result(%a: tensor<2x3xi64>) -> tensor<2x3xi64> {
  // expected-error @+2 {{'tad.t' op inferred type(s) 'tensor<3x2xi64>' are incompatible with return type(s) of operation 'tensor<2x3xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.t %a : (tensor<2x3xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

func.func @transpose_out_of_range(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'tad.transpose.int' op dimensions (0, 2) are out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.transpose.int %a {dim0 = 0 : i64, dim1 = 2 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_missing_dim1(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'tad.transpose.int' op requires attribute 'dim1'}}
  %0 = "tad.transpose.int"(%a) {dim0 = 0 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @expand_incompatible(%a: tensor<4x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{'tad.expand' op cannot expand shape [4, 3] to size [4, 5]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.expand %a {size = array<i64: 4, 5>} : (tensor<4x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @expand_fewer_dims(%a: tensor<4x1xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tad.expand' op cannot expand shape [4, 1] to size [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.expand %a {size = array<i64: 4>} : (tensor<4x1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A new leading dimension cannot be -1.
func.func @expand_new_dim_minus_one(%a: tensor<3xf32>) -> tensor<1x3xf32> {
  // expected-error @+2 {{'tad.expand' op cannot expand shape [3] to size [-1, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.expand %a {size = array<i64: -1, 3>} : (tensor<3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @expand_missing_size(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.expand' op requires attribute 'size'}}
  %0 = "tad.expand"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @view_numel(%a: tensor<4x3xf32>) -> tensor<5x2xf32> {
  // expected-error @+2 {{'tad.view' op 'size' [5, 2] is invalid for a tensor of 12 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.view %a {size = array<i64: 5, 2>} : (tensor<4x3xf32>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

func.func @view_two_inferred(%a: tensor<4x3xf32>) -> tensor<12xf32> {
  // expected-error @+2 {{'tad.view' op 'size' [-1, -1] is invalid for a tensor of 12 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.view %a {size = array<i64: -1, -1>} : (tensor<4x3xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

func.func @reshape_indivisible(%a: tensor<4x3xf64>) -> tensor<5x2xf64> {
  // expected-error @+2 {{'tad.reshape' op 'shape' [5, -1] is invalid for a tensor of 12 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.reshape %a {shape = array<i64: 5, -1>} : (tensor<4x3xf64>) -> tensor<5x2xf64>
  return %0 : tensor<5x2xf64>
}

// -----

func.func @reshape_negative(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+2 {{'tad.reshape' op 'shape' [-4] is invalid for a tensor of 4 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.reshape %a {shape = array<i64: -4>} : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// As in ATen, -1 is ambiguous for a tensor of 0 elements.
func.func @view_empty_inferred(%a: tensor<0x4xf32>) -> tensor<0x4xf32> {
  // expected-error @+2 {{'tad.view' op 'size' [0, -1] is invalid for a tensor of 0 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.view %a {size = array<i64: 0, -1>} : (tensor<0x4xf32>) -> tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}

// -----

// A view of a dynamic shape: sizes other than -1 must be sizes.
func.func @view_dynamic(%a: tensor<?x4xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{'tad.view' op 'size' [-2] is invalid for a tensor of shape [?, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.view %a {size = array<i64: -2>} : (tensor<?x4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @view_missing_size(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tad.view' op requires attribute 'size'}}
  %0 = "tad.view"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reshape_missing_shape(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tad.reshape' op requires attribute 'shape'}}
  %0 = "tad.reshape"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unsqueeze_out_of_range(%a: tensor<4x3xf32>) -> tensor<4x3x1xf32> {
  // expected-error @+2 {{'tad.unsqueeze' op 'dim' 3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.unsqueeze %a {dim = 3 : i64} : (tensor<4x3xf32>) -> tensor<4x3x1xf32>
  return %0 : tensor<4x3x1xf32>
}

// -----

func.func @unsqueeze_missing_dim(%a: tensor<4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'tad.unsqueeze' op requires attribute 'dim'}}
  %0 = "tad.unsqueeze"(%a) : (tensor<4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @squeeze_out_of_range(%a: tensor<4x1xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'tad.squeeze.dim' op 'dim' -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.squeeze.dim %a {dim = -3 : i64} : (tensor<4x1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A dimension whose size is not 1 stays.
func.func @squeeze_not_one(%a: tensor<4x1xi32>) -> tensor<1xi32> {
  // expected-error @+2 {{'tad.squeeze.dim' op inferred type(s) 'tensor<4x1xi32>' are incompatible with return type(s) of operation 'tensor<1xi32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.squeeze.dim %a {dim = 0 : i64} : (tensor<4x1xi32>) -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// -----

func.func @squeeze_missing_dim(%a: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tad.squeeze.dim' op requires attribute 'dim'}}
  %0 = "tad.squeeze.dim"(%a) : (tensor<1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

func.func @mse_loss_bad_reduction(%a: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+2 {{'tad.mse_loss' op 'reduction' must be 0 (none), 1 (mean) or 2 (sum), got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss %a, %a {reduction = 3 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @mse_loss_none_is_not_scalar(%a: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+2 {{'tad.mse_loss' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<f32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss %a, %a {reduction = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @mse_loss_not_broadcastable(%a: tensor<3xf32>, %b: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+2 {{'tad.mse_loss' op shapes [3] and [2] are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss %a, %b : (tensor<3xf32>, tensor<2xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @mse_loss_mixed_f32_f64(%a: tensor<3xf32>, %b: tensor<3xf64>) -> tensor<f32> {
  // expected-error @+2 {{'tad.mse_loss' op operands have different element types: 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss %a, %b : (tensor<3xf32>, tensor<3xf64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @mse_loss_backward_bad_reduction(%g: tensor<f32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.mse_loss_backward' op 'reduction' must be 0 (none), 1 (mean) or 2 (sum), got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss_backward %g, %a, %a {reduction = -1 : i64} : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @mse_loss_backward_missing_reduction(%g: tensor<f32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.mse_loss_backward' op requires attribute 'reduction'}}
  %0 = "tad.mse_loss_backward"(%g, %a, %a) : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @mse_loss_backward_grad_not_broadcastable(%g: tensor<2xf32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.mse_loss_backward' op grad_output of shape [2] does not broadcast to [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss_backward %g, %a, %a {reduction = 0 : i64} : (tensor<2xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// grad_output may broadcast to the result's shape but not enlarge it.
func.func @mse_loss_backward_grad_too_big(%g: tensor<4x3xf32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.mse_loss_backward' op grad_output of shape [4, 3] does not broadcast to [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss_backward %g, %a, %a {reduction = 0 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @mse_loss_backward_mixed_grad(%g: tensor<f64>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.mse_loss_backward' op operands have different element types: 'f64' and 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.mse_loss_backward %g, %a, %a {reduction = 1 : i64} : (tensor<f64>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

func.func @zeros_like_wrong_type(%a: tensor<3xf32>) -> tensor<3xf64> {
  // expected-error @+1 {{'tad.zeros_like' op failed to verify that all of {self, result} have same type}}
  %0 = "tad.zeros_like"(%a) : (tensor<3xf32>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

func.func @constant_wrong_type() -> tensor<3xf32> {
  // expected-error @+2 {{'tad.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "tad.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @constant_not_elements() -> tensor<3xf32> {
  // expected-error @+1 {{'tad.constant' op attribute 'value' failed to satisfy constraint: constant vector/tensor attribute}}
  %0 = "tad.constant"() {value = 1.0 : f32} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
