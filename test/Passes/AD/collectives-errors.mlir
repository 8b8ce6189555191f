// RUN: tad-opt %s --split-input-file --verify-diagnostics --tad-vjp="functions=f"
// RUN: tad-opt %s --split-input-file --verify-diagnostics --tad-jvp="functions=f"

// Collectives are not differentiable: the passes refuse them where they
// are (the data-parallel step all-reduces gradients after the derivative).

func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{cannot differentiate through 'tad.all_reduce': collectives are not differentiable}}
  %0 = tad.all_reduce %x : (tensor<3xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{cannot differentiate through 'tad.barrier'}}
  tad.barrier
  return %x : tensor<3xf64>
}
