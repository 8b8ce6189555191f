// RUN: tad-opt %s -split-input-file -verify-diagnostics

// One case per type-inference error of the linear-algebra ops.

func.func @inv_not_square(%a: tensor<3x4xf64>) {
  // expected-error @+2 {{'tad.linalg_inv_ex' op expected square matrices, got 3x4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = tad.linalg_inv_ex %a : (tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<i32>)
  return
}

// -----

func.func @slogdet_vector(%a: tensor<3xf64>) {
  // expected-error @+2 {{'tad._linalg_slogdet' op expected a batch of matrices (rank >= 2), got rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:4 = tad._linalg_slogdet %a : (tensor<3xf64>) -> (tensor<f64>, tensor<f64>, tensor<3xf64>, tensor<3xi32>)
  return
}

// -----

func.func @cholesky_not_square(%a: tensor<2x3x2xf64>) {
  // expected-error @+2 {{'tad.linalg_cholesky_ex' op expected square matrices, got 3x2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = tad.linalg_cholesky_ex %a : (tensor<2x3x2xf64>) -> (tensor<2x3x2xf64>, tensor<2xi32>)
  return
}

// -----

func.func @inv_info_type(%a: tensor<3x3xf64>) {
  // expected-error @+1 {{'tad.linalg_inv_ex' op result #1 must be ranked tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0:2 = tad.linalg_inv_ex %a : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i64>)
  return
}
