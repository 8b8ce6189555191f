// RUN: tad-opt %s --split-input-file --verify-diagnostics --tad-vjp="functions=f"
// RUN: not tad-opt %s --split-input-file --tad-vjp="functions=f checkpoint=0" 2>&1 | FileCheck %s --check-prefix=OPTION

// OPTION: error: tad-vjp: checkpoint must be 'store', 'sqrt', 'levels:L' (1 <= L <= 16), 'revolve:S' (1 <= S <= 65536) or a positive integer, not '0'

// Errors of the reverse mode only.

// A malformed checkpoint scheme is reported at its loop.
func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'tad.checkpoint' must be "store", "sqrt", "levels:L" (1 <= L <= 16), "revolve:S" (1 <= S <= 65536) or a positive integer, not 0 : i64}}
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  } {tad.checkpoint = 0 : i64}
  return %r : tensor<3xf64>
}

// -----

func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'tad.checkpoint' must be "store", "sqrt", "levels:L" (1 <= L <= 16), "revolve:S" (1 <= S <= 65536) or a positive integer, not "revolve"}}
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  } {tad.checkpoint = "revolve"}
  return %r : tensor<3xf64>
}

// -----

func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'tad.checkpoint' must be "store", "sqrt", "levels:L" (1 <= L <= 16), "revolve:S" (1 <= S <= 65536) or a positive integer, not "levels:0"}}
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  } {tad.checkpoint = "levels:0"}
  return %r : tensor<3xf64>
}

// -----

func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'tad.checkpoint' must be "store", "sqrt", "levels:L" (1 <= L <= 16), "revolve:S" (1 <= S <= 65536) or a positive integer, not "revolve:0"}}
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  } {tad.checkpoint = "revolve:0"}
  return %r : tensor<3xf64>
}

// -----

// A stored value of dynamic shape is sized by the loop's first iteration,
// computed before the loop; an op with side effects cannot be repeated
// there.
func.func @f(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<?xf32>) {
    // expected-error @+1 {{cannot size the per-iteration storage of this value of dynamic shape for the reverse sweep: it depends on an op with side effects}}
    %s = bufferization.alloc_tensor(%i) : tensor<?xf32>
    %e = tad.mul.Tensor %h, %s : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %e : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
