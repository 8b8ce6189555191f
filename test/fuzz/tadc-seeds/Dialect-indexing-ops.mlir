
// Round trip of the indexing ops (dialects/Tad/TadIndexingOps.td): defaulted
// attributes are elided, i64 results and operands print as such.

func.func @reads(%x: tensor<5x3xf32>, %i: tensor<4xi64>, %j: tensor<5x2xi64>, %k: tensor<2x1xi64>) -> (tensor<4x3xf32>, tensor<5x2xf32>, tensor<4x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>) {
  %0 = tad.index_select %x, %i {dim = 0 : i64} : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %1 = tad.gather %x, %j {dim = 1 : i64} : (tensor<5x3xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  %2 = tad.index.Tensor %x, %i : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %3 = tad.index.Tensor %x, %k, %i : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<4xi64>) -> tensor<2x4xf32>
  %4 = tad.embedding %x, %i {padding_idx = 0 : i64} : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4 : tensor<4x3xf32>, tensor<5x2xf32>, tensor<4x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>
}

func.func @writes(%x: tensor<5x3xf64>, %i: tensor<4xi64>, %j: tensor<5x2xi64>, %s: tensor<5x2xf64>, %v: tensor<4x3xf64>) -> (tensor<5x3xf64>, tensor<5x3xf64>, tensor<5x3xf64>, tensor<5x3xf64>, tensor<5x3xf64>, tensor<6x3xf64>) {
  %0 = tad.scatter.src %x, %j, %s {dim = 1 : i64} : (tensor<5x3xf64>, tensor<5x2xi64>, tensor<5x2xf64>) -> tensor<5x3xf64>
  %1 = tad.scatter.value %x, %j, 2.000000e+00 {dim = 1 : i64} : (tensor<5x3xf64>, tensor<5x2xi64>) -> tensor<5x3xf64>
  %2 = tad.scatter_add %x, %j, %s {dim = 1 : i64} : (tensor<5x3xf64>, tensor<5x2xi64>, tensor<5x2xf64>) -> tensor<5x3xf64>
  %3 = tad.index_add %x, %i, %v {alpha = 2.000000e+00 : f64, dim = 0 : i64} : (tensor<5x3xf64>, tensor<4xi64>, tensor<4x3xf64>) -> tensor<5x3xf64>
  %4 = tad.index_put %x, [%i], %v {accumulate = true} : (tensor<5x3xf64>, tensor<4xi64>, tensor<4x3xf64>) -> tensor<5x3xf64>
  %5 = tad.embedding_dense_backward %v, %i {num_weights = 6 : i64, padding_idx = -1 : i64, scale_grad_by_freq = false} : (tensor<4x3xf64>, tensor<4xi64>) -> tensor<6x3xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<5x3xf64>, tensor<5x3xf64>, tensor<5x3xf64>, tensor<5x3xf64>, tensor<5x3xf64>, tensor<6x3xf64>
}
