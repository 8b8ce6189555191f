// softmax.int
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.softmax.int %x {dim = 1 : i64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// log_softmax.int
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x3x4xf64> {
  %0 = tad.log_softmax.int %x {dim = 0 : i64} : tensor<2x3x4xf64>
  return %0 : tensor<2x3x4xf64>
}

// -----

// dropout eval
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.dropout %x {p = 5.0e-1 : f64, train = false} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// layer_norm
func.func @f(%x: tensor<2x3x4xf64>, %w: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<2x3x4xf64>) {
  %r = tad.layer_norm %x weight %w bias %b {normalized_shape = array<i64: 4>} : (tensor<2x3x4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<2x3x4xf64>
  return %r : tensor<2x3x4xf64>
}

// -----

// batch_norm training
func.func @f(%x: tensor<4x3x2xf64>, %w: tensor<3xf64>, %b: tensor<3xf64>, %rm: tensor<3xf64> {tad.nondiff}, %rv: tensor<3xf64> {tad.nondiff}) -> (tensor<4x3x2xf64>) {
  %r = tad.batch_norm %x weight %w bias %b running_mean %rm running_var %rv {training = true, momentum = 0.1 : f64, eps = 1.0e-5 : f64, cudnn_enabled = false} : (tensor<4x3x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<4x3x2xf64>
  return %r : tensor<4x3x2xf64>
}

// -----

// group_norm
func.func @f(%x: tensor<2x4x3xf64>, %w: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<2x4x3xf64>) {
  %r = tad.group_norm %x weight %w bias %b {num_groups = 2 : i64} : (tensor<2x4x3xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<2x4x3xf64>
  return %r : tensor<2x4x3xf64>
}

// -----

// linear 3-d bias
func.func @f(%x: tensor<2x3x4xf64>, %w: tensor<5x4xf64>, %b: tensor<5xf64>) -> (tensor<2x3x5xf64>) {
  %r = tad.linear %x, %w bias %b  : (tensor<2x3x4xf64>, tensor<5x4xf64>, tensor<5xf64>) -> tensor<2x3x5xf64>
  return %r : tensor<2x3x5xf64>
}

// -----

// linear 2-d bias
func.func @f(%x: tensor<3x4xf64>, %w: tensor<2x4xf64>, %b: tensor<2xf64>) -> (tensor<3x2xf64>) {
  %r = tad.linear %x, %w bias %b  : (tensor<3x4xf64>, tensor<2x4xf64>, tensor<2xf64>) -> tensor<3x2xf64>
  return %r : tensor<3x2xf64>
}

// -----

// linear 1-d no bias
func.func @f(%x: tensor<4xf64>, %w: tensor<2x4xf64>) -> (tensor<2xf64>) {
  %r = tad.linear %x, %w  : (tensor<4xf64>, tensor<2x4xf64>) -> tensor<2xf64>
  return %r : tensor<2xf64>
}

// -----

// cross_entropy_loss mean
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>) -> (tensor<f64>) {
  %r = tad.cross_entropy_loss %x, %y  : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// cross_entropy_loss weight ignore sum
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>, %w: tensor<5xf64> {tad.nondiff}) -> (tensor<f64>) {
  %r = tad.cross_entropy_loss %x, %y weight %w {reduction = 2 : i64, ignore_index = 1 : i64} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// cross_entropy_loss 4-d none
func.func @f(%x: tensor<2x3x2x2xf64>, %y: tensor<2x2x2xi64>) -> (tensor<2x2x2xf64>) {
  %r = tad.cross_entropy_loss %x, %y {reduction = 0 : i64} : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>) -> tensor<2x2x2xf64>
  return %r : tensor<2x2x2xf64>
}

// -----

// cross_entropy_loss label smoothing mean ignore
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>) -> (tensor<f64>) {
  %r = tad.cross_entropy_loss %x, %y {label_smoothing = 0.2 : f64, ignore_index = 1 : i64} : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// cross_entropy_loss label smoothing 4-d none
func.func @f(%x: tensor<2x3x2x2xf64>, %y: tensor<2x2x2xi64>) -> (tensor<2x2x2xf64>) {
  %r = tad.cross_entropy_loss %x, %y {reduction = 0 : i64, label_smoothing = 0.1 : f64} : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>) -> tensor<2x2x2xf64>
  return %r : tensor<2x2x2xf64>
}

// -----

// cross_entropy_loss label smoothing sum
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>) -> (tensor<f64>) {
  %r = tad.cross_entropy_loss %x, %y {reduction = 2 : i64, label_smoothing = 0.3 : f64} : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// glu
func.func @f(%x: tensor<3x4xf64>) -> (tensor<3x2xf64>) {
  %r = tad.glu %x  : (tensor<3x4xf64>) -> tensor<3x2xf64>
  return %r : tensor<3x2xf64>
}

// -----

// glu dim 0
func.func @f(%x: tensor<4x3xf64>) -> (tensor<2x3xf64>) {
  %r = tad.glu %x {dim = 0 : i64} : (tensor<4x3xf64>) -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}

// -----

// log_sigmoid_forward
func.func @f(%x: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  %0:2 = tad.log_sigmoid_forward %x : tensor<3x4xf64>
  return %0#0, %0#1 : tensor<3x4xf64>, tensor<3x4xf64>
}

// -----

// nll_loss
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>) -> (tensor<f64>) {
  %r = tad.nll_loss %x, %y  : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// conv2d stride 2 groups 2
func.func @f(%x: tensor<1x4x5x5xf64>, %w: tensor<2x2x3x3xf64>, %b: tensor<2xf64>) -> (tensor<1x2x3x3xf64>) {
  %r = tad.conv2d %x, %w bias %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x5x5xf64>, tensor<2x2x3x3xf64>, tensor<2xf64>) -> tensor<1x2x3x3xf64>
  return %r : tensor<1x2x3x3xf64>
}

// -----

// conv1d dilation
func.func @f(%x: tensor<2x2x7xf64>, %w: tensor<3x2x2xf64>) -> (tensor<2x3x5xf64>) {
  %r = tad.conv1d %x, %w {dilation = array<i64: 2>} : (tensor<2x2x7xf64>, tensor<3x2x2xf64>) -> tensor<2x3x5xf64>
  return %r : tensor<2x3x5xf64>
}

// -----

// max_pool2d
func.func @f(%x: tensor<1x2x4x4xf64>) -> (tensor<1x2x2x2xf64>) {
  %r = tad.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64>
  return %r : tensor<1x2x2x2xf64>
}

// -----

// adaptive_avg_pool2d
func.func @f(%x: tensor<1x2x5x4xf64>) -> (tensor<1x2x2x3xf64>) {
  %r = tad.adaptive_avg_pool2d %x {output_size = array<i64: 2, 3>} : (tensor<1x2x5x4xf64>) -> tensor<1x2x2x3xf64>
  return %r : tensor<1x2x2x3xf64>
}

// -----

// flatten.using_ints
func.func @f(%x: tensor<2x3x4x2xf64>) -> (tensor<2x12x2xf64>) {
  %r = tad.flatten.using_ints %x {start_dim = 1 : i64, end_dim = -2 : i64} : (tensor<2x3x4x2xf64>) -> tensor<2x12x2xf64>
  return %r : tensor<2x12x2xf64>
}

// -----

// reshape (decomposed to view)
func.func @f(%x: tensor<2x6xf64>) -> (tensor<3x4xf64>) {
  %r = tad.reshape %x {shape = array<i64: 3, -1>} : (tensor<2x6xf64>) -> tensor<3x4xf64>
  return %r : tensor<3x4xf64>
}

// -----

// narrow
func.func @f(%x: tensor<3x5xf64>) -> (tensor<3x2xf64>) {
  %r = tad.narrow %x {dim = 1 : i64, start = -4 : i64, length = 2 : i64} : (tensor<3x5xf64>) -> tensor<3x2xf64>
  return %r : tensor<3x2xf64>
}

// -----

// chunk
func.func @f(%x: tensor<5x3xf64>) -> (tensor<3x3xf64>, tensor<2x3xf64>) {
  %r:2 = tad.chunk %x {chunks = 2 : i64, dim = 0 : i64} : (tensor<5x3xf64>) -> (tensor<3x3xf64>, tensor<2x3xf64>)
  return %r#0, %r#1 : tensor<3x3xf64>, tensor<2x3xf64>
}

// -----

// matmul [4] x [4]
func.func @f(%x: tensor<4xf64>, %y: tensor<4xf64>) -> (tensor<f64>) {
  %r = tad.matmul %x, %y  : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// matmul [3, 4] x [4]
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> (tensor<3xf64>) {
  %r = tad.matmul %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3xf64>
  return %r : tensor<3xf64>
}

// -----

// matmul [4] x [4, 2]
func.func @f(%x: tensor<4xf64>, %y: tensor<4x2xf64>) -> (tensor<2xf64>) {
  %r = tad.matmul %x, %y  : (tensor<4xf64>, tensor<4x2xf64>) -> tensor<2xf64>
  return %r : tensor<2xf64>
}

// -----

// matmul [3, 4] x [4, 2]
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4x2xf64>) -> (tensor<3x2xf64>) {
  %r = tad.matmul %x, %y  : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %r : tensor<3x2xf64>
}

// -----

// matmul [2, 3, 4] x [4, 2]
func.func @f(%x: tensor<2x3x4xf64>, %y: tensor<4x2xf64>) -> (tensor<2x3x2xf64>) {
  %r = tad.matmul %x, %y  : (tensor<2x3x4xf64>, tensor<4x2xf64>) -> tensor<2x3x2xf64>
  return %r : tensor<2x3x2xf64>
}

// -----

// matmul [4] x [2, 4, 3]
func.func @f(%x: tensor<4xf64>, %y: tensor<2x4x3xf64>) -> (tensor<2x3xf64>) {
  %r = tad.matmul %x, %y  : (tensor<4xf64>, tensor<2x4x3xf64>) -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}

// -----

// matmul [2, 1, 3, 4] x [5, 4, 2]
func.func @f(%x: tensor<2x1x3x4xf64>, %y: tensor<5x4x2xf64>) -> (tensor<2x5x3x2xf64>) {
  %r = tad.matmul %x, %y  : (tensor<2x1x3x4xf64>, tensor<5x4x2xf64>) -> tensor<2x5x3x2xf64>
  return %r : tensor<2x5x3x2xf64>
}

// -----

// matmul [2, 3, 4] x [4]
func.func @f(%x: tensor<2x3x4xf64>, %y: tensor<4xf64>) -> (tensor<2x3xf64>) {
  %r = tad.matmul %x, %y  : (tensor<2x3x4xf64>, tensor<4xf64>) -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}

// -----

