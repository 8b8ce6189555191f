// carried state over a dynamic batch, captured weight
func.func @f(%x: tensor<?x3xf64>, %w: tensor<3x3xf64>) -> tensor<?x3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%h = %x) -> (tensor<?x3xf64>) {
    %m = tad.mm %h, %w : (tensor<?x3xf64>, tensor<3x3xf64>) -> tensor<?x3xf64>
    %t = tad.tanh %m : tensor<?x3xf64>
    %s = tad.add.Tensor %t, %h : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
    scf.yield %s : tensor<?x3xf64>
  }
  return %r : tensor<?x3xf64>
}

// -----

// per-step inputs read with a slice of the dynamic batch
func.func @f(%xs: tensor<4x?x2xf64> {tad.dim_names = ["", "B", ""]}, %h0: tensor<?x2xf64> {tad.dim_names = ["B", ""]}) -> tensor<?x2xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = tensor.dim %xs, %c1 : tensor<4x?x2xf64>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %h0) -> (tensor<?x2xf64>) {
    %x = tensor.extract_slice %xs[%i, 0, 0] [1, %b, 2] [1, 1, 1] : tensor<4x?x2xf64> to tensor<?x2xf64>
    %p = tad.mul.Tensor %x, %h : (tensor<?x2xf64>, tensor<?x2xf64>) -> tensor<?x2xf64>
    %e = tad.sin %p : tensor<?x2xf64>
    scf.yield %e : tensor<?x2xf64>
  }
  return %r : tensor<?x2xf64>
}

// -----

// a branch in a loop over a dynamic batch, checkpointed
func.func @f(%x: tensor<?x4xf64>, %c: tensor<i1>) -> tensor<?x4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %cond = tensor.extract %c[] : tensor<i1>
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%h = %x) -> (tensor<?x4xf64>) {
    %n = scf.if %cond -> (tensor<?x4xf64>) {
      %t = tad.tanh %h : tensor<?x4xf64>
      scf.yield %t : tensor<?x4xf64>
    } else {
      %s = tad.sigmoid %h : tensor<?x4xf64>
      scf.yield %s : tensor<?x4xf64>
    }
    %q = tad.mul.Tensor %n, %h : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
    scf.yield %q : tensor<?x4xf64>
  } {tad.checkpoint = 2 : i64}
  return %r : tensor<?x4xf64>
}
