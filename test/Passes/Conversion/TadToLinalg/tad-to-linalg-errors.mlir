// RUN: tad-opt %s --tad-to-linalg -split-input-file -verify-diagnostics

// The tad dialect is illegal after tad-to-linalg: an op that cannot be
// lowered is reported where it is written ("failed to legalize operation"),
// and the pass fails instead of crashing. Every tad op has a lowering for
// static shapes; some lower dynamic shapes too (docs/dynamic-shapes.md).
// For the others the pass says so before the conversion's own error.

func.func @dynamic_unary(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+2 {{'tad.clone' op tad-to-linalg does not lower this op with dynamic shapes (docs/dynamic-shapes.md lists those it does), got 'tensor<?x4xf32>'}}
  // expected-error @+1 {{failed to legalize operation 'tad.clone' that was explicitly marked illegal}}
  %0 = tad.clone %a : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Ops lowered before the failing one do not hide it.
func.func @dynamic_after_static(%a: tensor<4xf64>, %b: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = tad.exp %a : tensor<4xf64>
  %1 = tad.sum %0 : (tensor<4xf64>) -> tensor<f64>
  // expected-error @+2 {{'tad.clone' op tad-to-linalg does not lower this op with dynamic shapes (docs/dynamic-shapes.md lists those it does), got 'tensor<?x3xf64>'}}
  // expected-error @+1 {{failed to legalize operation 'tad.clone' that was explicitly marked illegal}}
  %2 = tad.clone %b : tensor<?x3xf64>
  %3 = tad.add.Tensor %2, %1 : (tensor<?x3xf64>, tensor<f64>) -> tensor<?x3xf64>
  return %3 : tensor<?x3xf64>
}

// -----

// Broadcasting ops with a dynamic dimension.
func.func @dynamic_broadcast(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  // expected-error @+2 {{'tad._prelu_kernel' op tad-to-linalg does not lower this op with dynamic shapes (docs/dynamic-shapes.md lists those it does), got 'tensor<?x3xf32>'}}
  // expected-error @+1 {{failed to legalize operation 'tad._prelu_kernel' that was explicitly marked illegal}}
  %0 = "tad._prelu_kernel"(%a, %b) : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
