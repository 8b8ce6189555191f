// RUN: tad-opt %s --tad-to-linalg -split-input-file -verify-diagnostics

// The tad dialect is illegal after tad-to-linalg: an op that cannot be
// lowered is reported where it is written ("failed to legalize operation"),
// and the pass fails instead of crashing. Every tad op has a lowering for
// static shapes; dynamic shapes are verifier-valid but not lowered yet, and
// the pass says so before the conversion's own error.

func.func @dynamic_unary(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+2 {{'tad.exp' op tad-to-linalg requires static shapes, got 'tensor<?x4xf32>'}}
  // expected-error @+1 {{failed to legalize operation 'tad.exp' that was explicitly marked illegal}}
  %0 = tad.exp %a : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Ops lowered before the failing one do not hide it.
func.func @dynamic_after_static(%a: tensor<4xf64>, %b: tensor<?xf64>) -> tensor<f64> {
  %0 = tad.exp %a : tensor<4xf64>
  %1 = tad.sum %0 : (tensor<4xf64>) -> tensor<f64>
  // expected-error @+2 {{'tad.sum' op tad-to-linalg requires static shapes, got 'tensor<?xf64>'}}
  // expected-error @+1 {{failed to legalize operation 'tad.sum' that was explicitly marked illegal}}
  %2 = tad.sum %b : (tensor<?xf64>) -> tensor<f64>
  %3 = tad.add.Tensor %1, %2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %3 : tensor<f64>
}

// -----

// Broadcasting ops with a dynamic dimension.
func.func @dynamic_broadcast(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  // expected-error @+2 {{'tad.mul.Tensor' op tad-to-linalg requires static shapes, got 'tensor<?x3xf32>'}}
  // expected-error @+1 {{failed to legalize operation 'tad.mul.Tensor' that was explicitly marked illegal}}
  %0 = tad.mul.Tensor %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
