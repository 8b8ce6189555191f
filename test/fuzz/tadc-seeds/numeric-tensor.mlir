// index_select
func.func @f(%x: tensor<5x3xf64>, %i: tensor<4xi64>) -> tensor<4x3xf64> {
  %0 = tad.index_select %x, %i {dim = 0 : i64} : (tensor<5x3xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// -----

// index_select dim=1
func.func @f(%x: tensor<2x4xf64>, %i: tensor<3xi64>) -> tensor<2x3xf64> {
  %0 = tad.index_select %x, %i {dim = -1 : i64} : (tensor<2x4xf64>, tensor<3xi64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// index_add
func.func @f(%x: tensor<4x2xf64>, %i: tensor<3xi64>, %s: tensor<3x2xf64>) -> tensor<4x2xf64> {
  %0 = tad.index_add %x, %i, %s {dim = 0 : i64, alpha = 2.0 : f64} : (tensor<4x2xf64>, tensor<3xi64>, tensor<3x2xf64>) -> tensor<4x2xf64>
  return %0 : tensor<4x2xf64>
}

// -----

// gather
func.func @f(%x: tensor<3x4xf64>, %i: tensor<3x2xi64>) -> tensor<3x2xf64> {
  %0 = tad.gather %x, %i {dim = 1 : i64} : (tensor<3x4xf64>, tensor<3x2xi64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// gather smaller index
func.func @f(%x: tensor<3x4xf64>, %i: tensor<2x1xi64>) -> tensor<2x1xf64> {
  %0 = tad.gather %x, %i {dim = 0 : i64} : (tensor<3x4xf64>, tensor<2x1xi64>) -> tensor<2x1xf64>
  return %0 : tensor<2x1xf64>
}

// -----

// scatter.src
func.func @f(%x: tensor<3x4xf64>, %i: tensor<3x2xi64>, %s: tensor<3x2xf64>) -> tensor<3x4xf64> {
  %0 = tad.scatter.src %x, %i, %s {dim = 1 : i64} : (tensor<3x4xf64>, tensor<3x2xi64>, tensor<3x2xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// scatter.value
func.func @f(%x: tensor<3x4xf64>, %i: tensor<2x2xi64>) -> tensor<3x4xf64> {
  %0 = tad.scatter.value %x, %i, 2.5 {dim = 0 : i64} : (tensor<3x4xf64>, tensor<2x2xi64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// scatter_add
func.func @f(%x: tensor<3x4xf64>, %i: tensor<2x3xi64>, %s: tensor<2x3xf64>) -> tensor<3x4xf64> {
  %0 = tad.scatter_add %x, %i, %s {dim = 1 : i64} : (tensor<3x4xf64>, tensor<2x3xi64>, tensor<2x3xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// index.Tensor
func.func @f(%x: tensor<5x3xf64>, %i: tensor<4xi64>) -> tensor<4x3xf64> {
  %0 = tad.index.Tensor %x, %i  : (tensor<5x3xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// -----

// index.Tensor two indices
func.func @f(%x: tensor<4x3x2xf64>, %i: tensor<2x1xi64>, %j: tensor<3xi64>) -> tensor<2x3x2xf64> {
  %0 = tad.index.Tensor %x, %i, %j : (tensor<4x3x2xf64>, tensor<2x1xi64>, tensor<3xi64>) -> tensor<2x3x2xf64>
  return %0 : tensor<2x3x2xf64>
}

// -----

// index_put
func.func @f(%x: tensor<5x2xf64>, %i: tensor<3xi64>, %v: tensor<3x2xf64>) -> tensor<5x2xf64> {
  %0 = tad.index_put %x, [%i], %v : (tensor<5x2xf64>, tensor<3xi64>, tensor<3x2xf64>) -> tensor<5x2xf64>
  return %0 : tensor<5x2xf64>
}

// -----

// index_put accumulate broadcast
func.func @f(%x: tensor<5x2xf64>, %i: tensor<3xi64>, %v: tensor<2xf64>) -> tensor<5x2xf64> {
  %0 = tad.index_put %x, [%i], %v {accumulate = true} : (tensor<5x2xf64>, tensor<3xi64>, tensor<2xf64>) -> tensor<5x2xf64>
  return %0 : tensor<5x2xf64>
}

// -----

// embedding
func.func @f(%x: tensor<5x3xf64>, %i: tensor<2x3xi64>) -> tensor<2x3x3xf64> {
  %0 = tad.embedding %x, %i  : (tensor<5x3xf64>, tensor<2x3xi64>) -> tensor<2x3x3xf64>
  return %0 : tensor<2x3x3xf64>
}

// -----

// embedding padding_idx
func.func @f(%x: tensor<5x3xf64>, %i: tensor<4xi64>) -> tensor<4x3xf64> {
  %0 = tad.embedding %x, %i {padding_idx = 4 : i64} : (tensor<5x3xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// -----

// embedding_dense_backward
func.func @f(%x: tensor<4x3xf64>, %i: tensor<4xi64>) -> tensor<5x3xf64> {
  %0 = tad.embedding_dense_backward %x, %i {num_weights = 5 : i64, padding_idx = 1 : i64, scale_grad_by_freq = false} : (tensor<4x3xf64>, tensor<4xi64>) -> tensor<5x3xf64>
  return %0 : tensor<5x3xf64>
}

// -----

// bmm
func.func @f(%x: tensor<2x3x4xf64>, %y: tensor<2x4x5xf64>) -> tensor<2x3x5xf64> {
  %0 = tad.bmm %x, %y  : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>
  return %0 : tensor<2x3x5xf64>
}

// -----

// baddbmm broadcast
func.func @f(%x: tensor<3x1xf64>, %y: tensor<2x3x4xf64>, %z: tensor<2x4x2xf64>) -> tensor<2x3x2xf64> {
  %0 = tad.baddbmm %x, %y, %z  : (tensor<3x1xf64>, tensor<2x3x4xf64>, tensor<2x4x2xf64>) -> tensor<2x3x2xf64>
  return %0 : tensor<2x3x2xf64>
}

// -----

// baddbmm beta-alpha
func.func @f(%x: tensor<2x3x2xf64>, %y: tensor<2x3x4xf64>, %z: tensor<2x4x2xf64>) -> tensor<2x3x2xf64> {
  %0 = tad.baddbmm %x, %y, %z {alpha = 0.5 : f64, beta = -2.0 : f64} : (tensor<2x3x2xf64>, tensor<2x3x4xf64>, tensor<2x4x2xf64>) -> tensor<2x3x2xf64>
  return %0 : tensor<2x3x2xf64>
}

// -----

// dot
func.func @f(%x: tensor<5xf64>, %y: tensor<5xf64>) -> tensor<f64> {
  %0 = tad.dot %x, %y  : (tensor<5xf64>, tensor<5xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// mv
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3xf64> {
  %0 = tad.mv %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// amax dim=1
func.func @f(%x: tensor<3x4xf64>) -> tensor<3xf64> {
  %0 = tad.amax %x {dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// amax all keepdim
func.func @f(%x: tensor<2x3xf64>) -> tensor<1x1xf64> {
  %0 = tad.amax %x {keepdim = true} : (tensor<2x3xf64>) -> tensor<1x1xf64>
  return %0 : tensor<1x1xf64>
}

// -----

// amax ties
func.func @f(%x: tensor<2x3xf64>) -> tensor<2xf64> {
  %0 = tad.amax %x {dim = array<i64: -1>} : (tensor<2x3xf64>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

// amin dims=[0,2]
func.func @f(%x: tensor<2x3x2xf64>) -> tensor<3xf64> {
  %0 = tad.amin %x {dim = array<i64: 0, 2>} : (tensor<2x3x2xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// max
func.func @f(%x: tensor<3x4xf64>) -> tensor<f64> {
  %0 = tad.max %x  : (tensor<3x4xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// min ties
func.func @f(%x: tensor<2x2xf64>) -> tensor<f64> {
  %0 = tad.min %x  : (tensor<2x2xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// max.dim
func.func @f(%x: tensor<3x4xf64>) -> tensor<3xf64> {
  %v, %i = tad.max.dim %x {dim = 1 : i64} : (tensor<3x4xf64>) -> (tensor<3xf64>, tensor<3xi64>)
  return %v : tensor<3xf64>
}

// -----

// max.dim keepdim
func.func @f(%x: tensor<3x4xf64>) -> tensor<1x4xf64> {
  %v, %i = tad.max.dim %x {dim = 0 : i64, keepdim = true} : (tensor<3x4xf64>) -> (tensor<1x4xf64>, tensor<1x4xi64>)
  return %v : tensor<1x4xf64>
}

// -----

// min.dim
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x4xf64> {
  %v, %i = tad.min.dim %x {dim = -2 : i64} : (tensor<2x3x4xf64>) -> (tensor<2x4xf64>, tensor<2x4xi64>)
  return %v : tensor<2x4xf64>
}

// -----

// value_selecting_reduction_backward
func.func @f(%x: tensor<3xf64>, %i: tensor<3xi64>) -> tensor<3x4xf64> {
  %0 = tad.value_selecting_reduction_backward %x, %i {dim = 1 : i64, sizes = array<i64: 3, 4>, keepdim = false} : (tensor<3xf64>, tensor<3xi64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// var.correction dim=1
func.func @f(%x: tensor<3x4xf64>) -> tensor<3xf64> {
  %0 = tad.var.correction %x {dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// var.correction all c=0 keepdim
func.func @f(%x: tensor<2x3xf64>) -> tensor<1x1xf64> {
  %0 = tad.var.correction %x {correction = 0.0 : f64, keepdim = true} : (tensor<2x3xf64>) -> tensor<1x1xf64>
  return %0 : tensor<1x1xf64>
}

// -----

// std.correction
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x1x4xf64> {
  %0 = tad.std.correction %x {dim = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<2x1x4xf64>
  return %0 : tensor<2x1x4xf64>
}

// -----

// var_mean.correction
func.func @f(%x: tensor<3x4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %v, %m = tad.var_mean.correction %x {dim = array<i64: 0>, correction = 2.0 : f64} : (tensor<3x4xf64>) -> (tensor<4xf64>, tensor<4xf64>)
  return %v, %m : tensor<4xf64>, tensor<4xf64>
}

// -----

// logsumexp
func.func @f(%x: tensor<3x4xf64>) -> tensor<3xf64> {
  %0 = tad.logsumexp %x {dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// logsumexp keepdim
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<1x3x1xf64> {
  %0 = tad.logsumexp %x {dim = array<i64: 0, 2>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<1x3x1xf64>
  return %0 : tensor<1x3x1xf64>
}

// -----

// linalg_vector_norm
func.func @f(%x: tensor<3x4xf64>) -> tensor<f64> {
  %0 = tad.linalg_vector_norm %x  : (tensor<3x4xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// linalg_vector_norm ord=1 dim
func.func @f(%x: tensor<3x4xf64>) -> tensor<3xf64> {
  %0 = tad.linalg_vector_norm %x {ord = 1.0 : f64, dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// linalg_vector_norm ord=3 keepdim
func.func @f(%x: tensor<3x4xf64>) -> tensor<1x4xf64> {
  %0 = tad.linalg_vector_norm %x {ord = 3.0 : f64, dim = array<i64: 0>, keepdim = true} : (tensor<3x4xf64>) -> tensor<1x4xf64>
  return %0 : tensor<1x4xf64>
}

// -----

// linalg_vector_norm ord=inf
func.func @f(%x: tensor<2x3xf64>) -> tensor<2xf64> {
  %0 = tad.linalg_vector_norm %x {ord = 0x7FF0000000000000 : f64, dim = array<i64: 1>} : (tensor<2x3xf64>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

// cumsum
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.cumsum %x {dim = 1 : i64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// cumsum dim=0
func.func @f(%x: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %0 = tad.cumsum %x {dim = -2 : i64} : tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// _unsafe_view
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<4x6xf64> {
  %0 = tad._unsafe_view %x {size = array<i64: 4, -1>} : (tensor<2x3x4xf64>) -> tensor<4x6xf64>
  return %0 : tensor<4x6xf64>
}

// -----

// permute
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<4x2x3xf64> {
  %0 = tad.permute %x {dims = array<i64: 2, 0, -2>} : (tensor<2x3x4xf64>) -> tensor<4x2x3xf64>
  return %0 : tensor<4x2x3xf64>
}

// -----

// squeeze
func.func @f(%x: tensor<1x3x1x2xf64>) -> tensor<3x2xf64> {
  %0 = tad.squeeze %x  : (tensor<1x3x1x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// slice.Tensor step
func.func @f(%x: tensor<7x3xf64>) -> tensor<3x3xf64> {
  %0 = tad.slice.Tensor %x {start = 1 : i64, end = -1 : i64, step = 2 : i64} : (tensor<7x3xf64>) -> tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// -----

// slice.Tensor dim=1 open end
func.func @f(%x: tensor<2x5xf64>) -> tensor<2x3xf64> {
  %0 = tad.slice.Tensor %x {dim = 1 : i64, start = -3 : i64} : (tensor<2x5xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// slice_backward
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x7xf64> {
  %0 = tad.slice_backward %x {input_sizes = array<i64: 2, 7>, dim = 1 : i64, start = 1 : i64, end = 7 : i64, step = 2 : i64} : (tensor<2x3xf64>) -> tensor<2x7xf64>
  return %0 : tensor<2x7xf64>
}

// -----

// select.int
func.func @f(%x: tensor<3x4x2xf64>) -> tensor<3x2xf64> {
  %0 = tad.select.int %x {dim = 1 : i64, index = -1 : i64} : (tensor<3x4x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// select_backward
func.func @f(%x: tensor<3x2xf64>) -> tensor<3x4x2xf64> {
  %0 = tad.select_backward %x {input_sizes = array<i64: 3, 4, 2>, dim = 1 : i64, index = 2 : i64} : (tensor<3x2xf64>) -> tensor<3x4x2xf64>
  return %0 : tensor<3x4x2xf64>
}

// -----

// clone
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.clone %x : tensor<2x3xf64>
  %1 = tad.mul.Tensor %0, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// -----

// _to_copy same dtype
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad._to_copy %x {dtype = f64} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = tad.mul.Tensor %0, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// -----

// _to_copy i64->f64
func.func @f(%x: tensor<3xf64>, %i: tensor<3xi64>) -> tensor<3xf64> {
  %0 = tad._to_copy %i {dtype = f64} : (tensor<3xi64>) -> tensor<3xf64>
  %1 = tad.mul.Tensor %0, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %1 : tensor<3xf64>
}

// -----

// cat
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x1xf64>, %c: tensor<2x2xf64>) -> tensor<2x6xf64> {
  %0 = tad.cat %a, %b, %c {dim = -1 : i64} : (tensor<2x3xf64>, tensor<2x1xf64>, tensor<2x2xf64>) -> tensor<2x6xf64>
  return %0 : tensor<2x6xf64>
}

// -----

// cat one input used twice
func.func @f(%a: tensor<2x3xf64>) -> tensor<4x3xf64> {
  %0 = tad.cat %a, %a : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// -----

// stack
func.func @f(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x2x3xf64> {
  %0 = tad.stack %a, %b {dim = 1 : i64} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x2x3xf64>
  return %0 : tensor<2x2x3xf64>
}

// -----

// split.Tensor
func.func @f(%x: tensor<5x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<1x2xf64>) {
  %r:3 = tad.split.Tensor %x {split_size = 2 : i64} : (tensor<5x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<1x2xf64>)
  return %r#0, %r#1, %r#2 : tensor<2x2xf64>, tensor<2x2xf64>, tensor<1x2xf64>
}

// -----

// split.Tensor one piece used
func.func @f(%x: tensor<2x5xf64>) -> tensor<2x3xf64> {
  %r:2 = tad.split.Tensor %x {split_size = 3 : i64, dim = 1 : i64} : (tensor<2x5xf64>) -> (tensor<2x3xf64>, tensor<2x2xf64>)
  return %r#0 : tensor<2x3xf64>
}

// -----

// split_with_sizes
func.func @f(%x: tensor<2x6xf64>) -> (tensor<2x1xf64>, tensor<2x3xf64>, tensor<2x2xf64>) {
  %r:3 = tad.split_with_sizes %x {split_sizes = array<i64: 1, 3, 2>, dim = 1 : i64} : (tensor<2x6xf64>) -> (tensor<2x1xf64>, tensor<2x3xf64>, tensor<2x2xf64>)
  return %r#0, %r#1, %r#2 : tensor<2x1xf64>, tensor<2x3xf64>, tensor<2x2xf64>
}

// -----

// unbind.int
func.func @f(%x: tensor<3x2xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
  %r:2 = tad.unbind.int %x {dim = 1 : i64} : (tensor<3x2xf64>) -> (tensor<3xf64>, tensor<3xf64>)
  return %r#0, %r#1 : tensor<3xf64>, tensor<3xf64>
}

// -----

// repeat
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x4x3xf64> {
  %0 = tad.repeat %x {repeats = array<i64: 2, 2, 1>} : (tensor<2x3xf64>) -> tensor<2x4x3xf64>
  return %0 : tensor<2x4x3xf64>
}

// -----

// constant_pad_nd
func.func @f(%x: tensor<2x3xf64>) -> tensor<3x4xf64> {
  %0 = tad.constant_pad_nd %x {pad = array<i64: 2, -1, 0, 1>, value = 1.5 : f64} : (tensor<2x3xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// flip
func.func @f(%x: tensor<2x3x2xf64>) -> tensor<2x3x2xf64> {
  %0 = tad.flip %x {dims = array<i64: 0, -1>} : tensor<2x3x2xf64>
  return %0 : tensor<2x3x2xf64>
}

// -----

// tril
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.tril %x {diagonal = 1 : i64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

