// Ops that read or write at computed positions; their index operands are
// checked at run time (tad-check-indices).
func.func @embedding(%w: tensor<5x3xf64>, %i: tensor<4xi64>) -> tensor<4x3xf64> {
  %0 = tad.embedding %w, %i : (tensor<5x3xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

func.func @index_select(%x: tensor<3x5xf32>, %i: tensor<2xi64>) -> tensor<3x2xf32> {
  %0 = tad.index_select %x, %i {dim = 1} : (tensor<3x5xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func @index(%x: tensor<5x3xf64>, %i: tensor<2xi64>) -> tensor<2x3xf64> {
  %0 = tad.index.Tensor %x, %i : (tensor<5x3xf64>, tensor<2xi64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

func.func @scatter_add(%x: tensor<4xf64>, %i: tensor<3xi64>, %s: tensor<3xf64>) -> tensor<4xf64> {
  %0 = tad.scatter_add %x, %i, %s {dim = 0} : (tensor<4xf64>, tensor<3xi64>, tensor<3xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

func.func @nll(%x: tensor<3x4xf64>, %t: tensor<3xi64>) -> tensor<f64> {
  %0, %1 = tad.nll_loss_forward %x, %t {reduction = 1, ignore_index = -100} : (tensor<3x4xf64>, tensor<3xi64>) -> (tensor<f64>, tensor<f64>)
  return %0 : tensor<f64>
}

// A slice at a position given at run time: rows [k, k + 2) of x.
func.func @rows(%x: tensor<5x3xf64>, %kt: tensor<i64>) -> tensor<2x3xf64> {
  %k64 = tensor.extract %kt[] : tensor<i64>
  %k = arith.index_cast %k64 : i64 to index
  %0 = tensor.extract_slice %x[%k, 0] [2, 3] [1, 1] : tensor<5x3xf64> to tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// Writing them: a row of x replaced by r at a run-time position.
func.func @put_row(%x: tensor<5x3xf64>, %r: tensor<3xf64>, %kt: tensor<i64>) -> tensor<5x3xf64> {
  %k64 = tensor.extract %kt[] : tensor<i64>
  %k = arith.index_cast %k64 : i64 to index
  %0 = tensor.insert_slice %r into %x[%k, 0] [1, 3] [1, 1] : tensor<3xf64> into tensor<5x3xf64>
  return %0 : tensor<5x3xf64>
}
