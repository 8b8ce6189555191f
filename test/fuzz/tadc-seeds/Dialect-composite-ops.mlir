
// Round trip of the composite ops (TadCompositeOps.td).

func.func @composites(%x: tensor<4x5xf32>, %c: tensor<5xf32>, %w: tensor<3x5xf32>, %b: tensor<3xf32>, %y: tensor<4xi64>, %i: tensor<1x2x6x6xf32>, %k: tensor<3x2x3x3xf32>, %s: tensor<1x2x6xf32>, %k1: tensor<3x2x3xf32>, %m: tensor<2x1x5xf32>, %n: tensor<5x3xf32>) -> tensor<4x5xf32> {
  %0 = tad.softmax.int %x {dim = 1 : i64} : tensor<4x5xf32>
  %1 = tad.log_softmax.int %x {dim = -1 : i64} : tensor<4x5xf32>
  %2 = tad.layer_norm %x weight %c {normalized_shape = array<i64: 5>} : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %3 = tad.batch_norm %x running_mean %c running_var %c {training = false, momentum = 0.1 : f64, eps = 1.0e-5 : f64, cudnn_enabled = false} : (tensor<4x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %4 = tad.group_norm %x {num_groups = 5 : i64} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %5 = tad.linear %x, %w bias %b : (tensor<4x5xf32>, tensor<3x5xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %6 = tad.matmul %m, %n : (tensor<2x1x5xf32>, tensor<5x3xf32>) -> tensor<2x1x3xf32>
  %7 = tad.matmul %x, %n : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  %8 = tad.cross_entropy_loss %x, %y : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<f32>
  %9 = tad.nll_loss %x, %y {reduction = 0 : i64} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  %10 = tad.conv1d %s, %k1 {padding = array<i64: 1>} : (tensor<1x2x6xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
  %11 = tad.conv2d %i, %k {stride = array<i64: 2, 2>} : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  %12 = tad.max_pool2d %i {kernel_size = array<i64: 2, 2>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  %13 = tad.adaptive_avg_pool2d %i {output_size = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x1x1xf32>
  %14 = tad.flatten.using_ints %x : (tensor<4x5xf32>) -> tensor<20xf32>
  %15 = tad.narrow %x {dim = 1 : i64, start = 1 : i64, length = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x2xf32>
  %16:2 = tad.chunk %x {chunks = 2 : i64} : (tensor<4x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>)
  %17 = tad.dropout %x {p = 0.1 : f64, train = false} : tensor<4x5xf32>
  return %17 : tensor<4x5xf32>
}

func.func @glu_log_sigmoid(%x: tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x6xf32>) {
  %0 = tad.glu %x : (tensor<4x6xf32>) -> tensor<4x3xf32>
  %1:2 = tad.log_sigmoid_forward %x : tensor<4x6xf32>
  return %0, %1#0 : tensor<4x3xf32>, tensor<4x6xf32>
}
