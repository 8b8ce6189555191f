// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per verifier and type-inference error of the ops of
// TadElementwiseOps.td.

func.func @pow_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'tad.pow.Tensor_Tensor' op shapes [2, 3] and [2] are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.pow.Tensor_Tensor %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @maximum_mixed_types(%a: tensor<3xf32>, %b: tensor<3xf64>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.maximum' op operands have different element types: 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.maximum %a, %b : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gelu_bad_approximate(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.gelu' op 'approximate' must be "none" or "tanh", got "erf"}}
  %0 = tad.gelu %a {approximate = "erf"} : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gelu_backward_bad_approximate(%g: tensor<3xf32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.gelu_backward' op 'approximate' must be "none" or "tanh", got "fast"}}
  %0 = tad.gelu_backward %g, %a {approximate = "fast"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @clamp_without_bounds(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.clamp' op at least one of 'min' or 'max' must be given}}
  %0 = tad.clamp %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @compare_wrong_result(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.lt.Tensor' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tad.lt.Tensor %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @where_condition_not_bool(%c: tensor<3xf32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.where.self' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tad.where.self %c, %a, %a : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @where_not_broadcastable(%c: tensor<2xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.where.self' op shapes [2] and [3] are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.where.self %c, %a, %a : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @masked_fill_value_not_0d(%a: tensor<3xf32>, %m: tensor<3xi1>, %v: tensor<1xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.masked_fill.Tensor' op 'value' must be a 0-d tensor, got shape [1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.masked_fill.Tensor %a, %m, %v : (tensor<3xf32>, tensor<3xi1>, tensor<1xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dropout_bad_p(%x: tensor<3xf32>, %key: tensor<i64>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.native_dropout.key' op dropout probability has to be between 0 and 1, got 1.5}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %m = tad.native_dropout.key %x, %key {p = 1.5 : f64} : (tensor<3xf32>, tensor<i64>) -> (tensor<3xf32>, tensor<3xi1>)
  return %y : tensor<3xf32>
}

// -----

func.func @dropout_key_not_0d(%x: tensor<3xf32>, %key: tensor<2xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.native_dropout.key' op operand #1 must be 0D tensor of 64-bit signless integer values}}
  %y, %m = tad.native_dropout.key %x, %key {p = 0.5 : f64} : (tensor<3xf32>, tensor<2xi64>) -> (tensor<3xf32>, tensor<3xi1>)
  return %y : tensor<3xf32>
}

// -----

func.func @clamp_tensor_without_bounds(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.clamp.Tensor' op at least one of 'min' or 'max' must be given}}
  %0 = tad.clamp.Tensor %x : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @clamp_tensor_bad_broadcast(%x: tensor<3xf32>, %lo: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tad.clamp.Tensor' op shapes [3] and [2] are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tad.clamp.Tensor %x min %lo : (tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
