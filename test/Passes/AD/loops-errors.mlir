// RUN: tad-opt %s --split-input-file --verify-diagnostics --tad-vjp="functions=f"
// RUN: tad-opt %s --split-input-file --verify-diagnostics --tad-jvp="functions=f"

// Control flow other than scf.for, scf.while and scf.if is refused where it
// is, never differentiated wrongly.
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{cannot differentiate through 'scf.parallel': the control flow tad differentiates is scf.for, scf.while and scf.if}}
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    scf.reduce
  }
  return %x : tensor<3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{cannot differentiate through 'scf.execute_region'}}
  %r = scf.execute_region -> tensor<3xf32> {
    %e = tad.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// Memrefs have no derivative in tad.
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{cannot differentiate through 'bufferization.to_buffer': it works on memrefs, tad differentiates tensors}}
  %m = bufferization.to_buffer %x : tensor<3xf32> to memref<3xf32>
  %t = bufferization.to_tensor %m : memref<3xf32> to tensor<3xf32>
  return %t : tensor<3xf32>
}

// -----

// A scalar float read from an active tensor would drop its derivative.
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot differentiate through 'tensor.extract': its result of type 'f32' depends on a differentiable argument, and derivatives flow only through float tensors}}
  %e = tensor.extract %x[%c0] : tensor<3xf32>
  %t = tensor.splat %e : tensor<3xf32>
  return %t : tensor<3xf32>
}
