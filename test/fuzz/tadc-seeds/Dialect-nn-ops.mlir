
// Round trip of the NN ops (TadNNOps.td): optional operands by keyword,
// several results, i64 targets and indices.

func.func @softmax(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tad._softmax %x {dim = 1 : i64, half_to_float = false} : tensor<2x3xf32>
  %1 = tad._log_softmax %x {dim = -1 : i64, half_to_float = false} : tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @norms(%x: tensor<2x3x4xf64>, %w: tensor<3x4xf64>, %v: tensor<4xf64>, %c: tensor<3xf64>) -> tensor<2x3x4xf64> {
  %0:3 = tad.native_layer_norm %x weight %w bias %w {normalized_shape = array<i64: 3, 4>, eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> (tensor<2x3x4xf64>, tensor<2x1x1xf64>, tensor<2x1x1xf64>)
  %1:3 = tad.native_layer_norm %x bias %v {normalized_shape = array<i64: 4>, eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>, tensor<4xf64>) -> (tensor<2x3x4xf64>, tensor<2x3x1xf64>, tensor<2x3x1xf64>)
  %2:3 = tad.native_batch_norm %x weight %c running_mean %c running_var %c {training = false, momentum = 0.1 : f64, eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x4xf64>, tensor<0xf64>, tensor<0xf64>)
  %3:3 = tad._native_batch_norm_legit %x running %c, %c {training = true, momentum = 0.1 : f64, eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>)
  %4:3 = tad._native_batch_norm_legit_no_training %x weight %c bias %c running %c, %c {momentum = 0.1 : f64, eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x4xf64>, tensor<0xf64>, tensor<0xf64>)
  %5:3 = tad.native_group_norm %x {N = 2 : i64, C = 3 : i64, HxW = 4 : i64, group = 3 : i64, eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>) -> (tensor<2x3x4xf64>, tensor<2x3xf64>, tensor<2x3xf64>)
  return %5#0 : tensor<2x3x4xf64>
}

func.func @conv_pool(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x2x5x5xf32> {
  %0 = tad.convolution %x, %w bias %b {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %1:3 = tad.convolution_backward %0, %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: true, true, false>} : (tensor<1x4x3x3xf32>, tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>)
  %2:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  %3 = tad.max_pool2d_with_indices_backward %2#0, %x, %2#1 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = false} : (tensor<1x2x2x2xf32>, tensor<1x2x5x5xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x5x5xf32>
  %4 = tad.avg_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %5 = tad.avg_pool2d_backward %4, %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true, count_include_pad = true} : (tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %6 = tad._adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x1x1xf32>
  %7 = tad._adaptive_avg_pool2d_backward %6, %x : (tensor<1x2x1x1xf32>, tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %7 : tensor<1x2x5x5xf32>
}

func.func @losses(%x: tensor<4x5xf32>, %y: tensor<4xi64>, %w: tensor<5xf32>, %x4: tensor<2x5x3x3xf32>, %y3: tensor<2x3x3xi64>) -> tensor<4x5xf32> {
  %0:2 = tad.nll_loss_forward %x, %y weight %w {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<4x5xf32>, tensor<4xi64>, tensor<5xf32>) -> (tensor<f32>, tensor<f32>)
  %1 = tad.nll_loss_backward %0#0, %x, %y weight %w total_weight %0#1 {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<f32>, tensor<4x5xf32>, tensor<4xi64>, tensor<5xf32>, tensor<f32>) -> tensor<4x5xf32>
  %2:2 = tad.nll_loss2d_forward %x4, %y3 {reduction = 0 : i64, ignore_index = 0 : i64} : (tensor<2x5x3x3xf32>, tensor<2x3x3xi64>) -> (tensor<2x3x3xf32>, tensor<f32>)
  %3 = tad.binary_cross_entropy %x, %x : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<f32>
  %4 = tad.binary_cross_entropy_with_logits %x, %x pos_weight %w {reduction = 0 : i64} : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %5 = tad.smooth_l1_loss %x, %w {beta = 0.5 : f64} : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<f32>
  %6 = tad.huber_loss %x, %x {reduction = 2 : i64} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<f32>
  return %4 : tensor<4x5xf32>
}
