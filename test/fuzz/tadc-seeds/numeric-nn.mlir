// convolution 2-d pad 1 bias
func.func @f(%x: tensor<1x2x4x4xf64>, %w: tensor<3x2x3x3xf64>, %b: tensor<3xf64>) -> (tensor<1x3x4x4xf64>) {
  %r = tad.convolution %x, %w bias %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<1x2x4x4xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>) -> tensor<1x3x4x4xf64>
  return %r : tensor<1x3x4x4xf64>
}

// -----

// convolution 2-d stride 2 no bias
func.func @f(%x: tensor<2x1x5x5xf64>, %w: tensor<2x1x3x2xf64>) -> (tensor<2x2x2x3xf64>) {
  %r = tad.convolution %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64} : (tensor<2x1x5x5xf64>, tensor<2x1x3x2xf64>) -> tensor<2x2x2x3xf64>
  return %r : tensor<2x2x2x3xf64>
}

// -----

// convolution 2-d dilation 2 groups 2
func.func @f(%x: tensor<1x4x5x5xf64>, %w: tensor<4x2x2x2xf64>, %b: tensor<4xf64>) -> (tensor<1x4x5x5xf64>) {
  %r = tad.convolution %x, %w bias %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, transposed = false, output_padding = array<i64: 0, 0>, groups = 2 : i64} : (tensor<1x4x5x5xf64>, tensor<4x2x2x2xf64>, tensor<4xf64>) -> tensor<1x4x5x5xf64>
  return %r : tensor<1x4x5x5xf64>
}

// -----

// convolution 1-d stride 2 pad 1
func.func @f(%x: tensor<2x2x7xf64>, %w: tensor<3x2x3xf64>, %b: tensor<3xf64>) -> (tensor<2x3x4xf64>) {
  %r = tad.convolution %x, %w bias %b {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>, transposed = false, output_padding = array<i64: 0>, groups = 1 : i64} : (tensor<2x2x7xf64>, tensor<3x2x3xf64>, tensor<3xf64>) -> tensor<2x3x4xf64>
  return %r : tensor<2x3x4xf64>
}

// -----

// convolution 1-d groups 2 dilation 2
func.func @f(%x: tensor<1x4x8xf64>, %w: tensor<2x2x3xf64>, %b: tensor<2xf64>) -> (tensor<1x2x8xf64>) {
  %r = tad.convolution %x, %w bias %b {stride = array<i64: 1>, padding = array<i64: 2>, dilation = array<i64: 2>, transposed = false, output_padding = array<i64: 0>, groups = 2 : i64} : (tensor<1x4x8xf64>, tensor<2x2x3xf64>, tensor<2xf64>) -> tensor<1x2x8xf64>
  return %r : tensor<1x2x8xf64>
}

// -----

// convolution_backward 2-d stride 2
func.func @f(%g: tensor<1x3x3x3xf64>, %x: tensor<1x2x5x5xf64>, %w: tensor<3x2x3x3xf64>) -> (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>) {
  %r:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 1 : i64, output_mask = array<i1: true, true, true>} : (tensor<1x3x3x3xf64>, tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>) -> (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>)
  return %r#0, %r#1, %r#2 : tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>
}

// -----

// convolution_backward 1-d groups dilation
func.func @f(%g: tensor<2x4x6xf64>, %x: tensor<2x4x6xf64>, %w: tensor<4x2x2xf64>) -> (tensor<2x4x6xf64>, tensor<4x2x2xf64>, tensor<4xf64>) {
  %r:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 2>, transposed = false, output_padding = array<i64: 0>, groups = 2 : i64, output_mask = array<i1: true, true, true>} : (tensor<2x4x6xf64>, tensor<2x4x6xf64>, tensor<4x2x2xf64>) -> (tensor<2x4x6xf64>, tensor<4x2x2xf64>, tensor<4xf64>)
  return %r#0, %r#1, %r#2 : tensor<2x4x6xf64>, tensor<4x2x2xf64>, tensor<4xf64>
}

// -----

// convolution 2-d groups 3 channel multiplier 2 non-square
func.func @f(%x: tensor<2x3x7x6xf64>, %w: tensor<6x1x3x2xf64>, %b: tensor<6xf64>) -> (tensor<2x6x4x7xf64>) {
  %r = tad.convolution %x, %w bias %b {stride = array<i64: 2, 1>, padding = array<i64: 2, 1>, dilation = array<i64: 2, 1>, transposed = false, output_padding = array<i64: 0, 0>, groups = 3 : i64} : (tensor<2x3x7x6xf64>, tensor<6x1x3x2xf64>, tensor<6xf64>) -> tensor<2x6x4x7xf64>
  return %r : tensor<2x6x4x7xf64>
}

// -----

// convolution_backward 2-d stride 3 pad 2 groups 2
func.func @f(%g: tensor<1x2x2x3xf64>, %x: tensor<1x4x4x5xf64>, %w: tensor<2x2x3x2xf64>) -> (tensor<1x4x4x5xf64>, tensor<2x2x3x2xf64>, tensor<2xf64>) {
  %r:3 = tad.convolution_backward %g, %x, %w {stride = array<i64: 3, 2>, padding = array<i64: 2, 1>, dilation = array<i64: 1, 2>, transposed = false, output_padding = array<i64: 0, 0>, groups = 2 : i64, output_mask = array<i1: true, true, true>} : (tensor<1x2x2x3xf64>, tensor<1x4x4x5xf64>, tensor<2x2x3x2xf64>) -> (tensor<1x4x4x5xf64>, tensor<2x2x3x2xf64>, tensor<2xf64>)
  return %r#0, %r#1, %r#2 : tensor<1x4x4x5xf64>, tensor<2x2x3x2xf64>, tensor<2xf64>
}

// -----

// nll_loss_forward mean weight
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>, %w: tensor<5xf64> {tad.nondiff}) -> (tensor<f64>) {
  %r:2 = tad.nll_loss_forward %x, %y weight %w {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> (tensor<f64>, tensor<f64>)
  return %r#0 : tensor<f64>
}

// -----

// nll_loss_forward sum
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>) -> (tensor<f64>) {
  %r:2 = tad.nll_loss_forward %x, %y {reduction = 2 : i64, ignore_index = -100 : i64} : (tensor<4x5xf64>, tensor<4xi64>) -> (tensor<f64>, tensor<f64>)
  return %r#0 : tensor<f64>
}

// -----

// nll_loss_forward none ignore_index
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>, %w: tensor<5xf64> {tad.nondiff}) -> (tensor<4xf64>) {
  %r:2 = tad.nll_loss_forward %x, %y weight %w {reduction = 0 : i64, ignore_index = 1 : i64} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> (tensor<4xf64>, tensor<f64>)
  return %r#0 : tensor<4xf64>
}

// -----

// nll_loss_forward mean ignore_index
func.func @f(%x: tensor<4x5xf64>, %y: tensor<4xi64>, %w: tensor<5xf64> {tad.nondiff}) -> (tensor<f64>) {
  %r:2 = tad.nll_loss_forward %x, %y weight %w {reduction = 1 : i64, ignore_index = 2 : i64} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> (tensor<f64>, tensor<f64>)
  return %r#0 : tensor<f64>
}

// -----

// nll_loss_forward 1-d
func.func @f(%x: tensor<5xf64>, %y: tensor<i64>) -> (tensor<f64>) {
  %r:2 = tad.nll_loss_forward %x, %y {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<5xf64>, tensor<i64>) -> (tensor<f64>, tensor<f64>)
  return %r#0 : tensor<f64>
}

// -----

// nll_loss2d_forward mean weight
func.func @f(%x: tensor<2x3x2x2xf64>, %y: tensor<2x2x2xi64>, %w: tensor<3xf64> {tad.nondiff}) -> (tensor<f64>) {
  %r:2 = tad.nll_loss2d_forward %x, %y weight %w {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>, tensor<3xf64>) -> (tensor<f64>, tensor<f64>)
  return %r#0 : tensor<f64>
}

// -----

// nll_loss_backward mean weight
func.func @f(%g: tensor<f64>, %x: tensor<4x5xf64>, %y: tensor<4xi64>, %w: tensor<5xf64> {tad.nondiff}) -> tensor<4x5xf64> {
  %l:2 = tad.nll_loss_forward %x, %y weight %w {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> (tensor<f64>, tensor<f64>)
  %r = tad.nll_loss_backward %g, %x, %y weight %w total_weight %l#1 {reduction = 1 : i64, ignore_index = -100 : i64} : (tensor<f64>, tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>, tensor<f64>) -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// -----

// nll_loss_backward none
func.func @f(%g: tensor<4xf64>, %x: tensor<4x5xf64>, %y: tensor<4xi64>) -> tensor<4x5xf64> {
  %l:2 = tad.nll_loss_forward %x, %y {reduction = 0 : i64, ignore_index = -100 : i64} : (tensor<4x5xf64>, tensor<4xi64>) -> (tensor<4xf64>, tensor<f64>)
  %r = tad.nll_loss_backward %g, %x, %y total_weight %l#1 {reduction = 0 : i64, ignore_index = -100 : i64} : (tensor<4xf64>, tensor<4x5xf64>, tensor<4xi64>, tensor<f64>) -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// -----

// nll_loss2d_backward sum weight
func.func @f(%g: tensor<f64>, %x: tensor<2x3x2x2xf64>, %y: tensor<2x2x2xi64>, %w: tensor<3xf64> {tad.nondiff}) -> tensor<2x3x2x2xf64> {
  %l:2 = tad.nll_loss2d_forward %x, %y weight %w {reduction = 2 : i64, ignore_index = -100 : i64} : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>, tensor<3xf64>) -> (tensor<f64>, tensor<f64>)
  %r = tad.nll_loss2d_backward %g, %x, %y weight %w total_weight %l#1 {reduction = 2 : i64, ignore_index = -100 : i64} : (tensor<f64>, tensor<2x3x2x2xf64>, tensor<2x2x2xi64>, tensor<3xf64>, tensor<f64>) -> tensor<2x3x2x2xf64>
  return %r : tensor<2x3x2x2xf64>
}

// -----

// binary_cross_entropy mean
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> (tensor<f64>) {
  %r = tad.binary_cross_entropy %x, %y {reduction = 1 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// binary_cross_entropy none weight
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>, %weight: tensor<4xf64> {tad.nondiff}) -> (tensor<3x4xf64>) {
  %r = tad.binary_cross_entropy %x, %y weight %weight {reduction = 0 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %r : tensor<3x4xf64>
}

// -----

// binary_cross_entropy_with_logits mean
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> (tensor<f64>) {
  %r = tad.binary_cross_entropy_with_logits %x, %y {reduction = 1 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// binary_cross_entropy_with_logits sum weight pos_weight
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>, %weight: tensor<3x4xf64> {tad.nondiff}, %pw: tensor<4xf64> {tad.nondiff}) -> (tensor<f64>) {
  %r = tad.binary_cross_entropy_with_logits %x, %y weight %weight pos_weight %pw {reduction = 2 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// smooth_l1_loss mean beta 0.5
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> (tensor<f64>) {
  %r = tad.smooth_l1_loss %x, %y {reduction = 1 : i64, beta = 5.0e-1 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// smooth_l1_loss none
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> (tensor<3x4xf64>) {
  %r = tad.smooth_l1_loss %x, %y {reduction = 0 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %r : tensor<3x4xf64>
}

// -----

// huber_loss sum delta 2
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> (tensor<f64>) {
  %r = tad.huber_loss %x, %y {reduction = 2 : i64, delta = 2.0 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// huber_loss mean
func.func @f(%x: tensor<2x3xf64>, %y: tensor<2x3xf64>) -> (tensor<f64>) {
  %r = tad.huber_loss %x, %y {reduction = 1 : i64} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// native_layer_norm affine
func.func @f(%x: tensor<3x4xf64>, %w: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<3x4xf64>) {
  %r:3 = tad.native_layer_norm %x weight %w bias %b {normalized_shape = array<i64: 4>, eps = 1.0e-5 : f64} : (tensor<3x4xf64>, tensor<4xf64>, tensor<4xf64>) -> (tensor<3x4xf64>, tensor<3x1xf64>, tensor<3x1xf64>)
  return %r#0 : tensor<3x4xf64>
}

// -----

// native_layer_norm 2 dims
func.func @f(%x: tensor<2x3x4xf64>, %w: tensor<3x4xf64>, %b: tensor<3x4xf64>) -> (tensor<2x3x4xf64>) {
  %r:3 = tad.native_layer_norm %x weight %w bias %b {normalized_shape = array<i64: 3, 4>, eps = 1.0e-5 : f64} : (tensor<2x3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> (tensor<2x3x4xf64>, tensor<2x1x1xf64>, tensor<2x1x1xf64>)
  return %r#0 : tensor<2x3x4xf64>
}

// -----

// native_layer_norm no affine
func.func @f(%x: tensor<2x5xf64>) -> (tensor<2x5xf64>) {
  %r:3 = tad.native_layer_norm %x {normalized_shape = array<i64: 5>, eps = 1.0e-5 : f64} : (tensor<2x5xf64>) -> (tensor<2x5xf64>, tensor<2x1xf64>, tensor<2x1xf64>)
  return %r#0 : tensor<2x5xf64>
}

// -----

// native_batch_norm training
func.func @f(%x: tensor<4x3xf64>, %w: tensor<3xf64>, %b: tensor<3xf64>, %rm: tensor<3xf64> {tad.nondiff}, %rv: tensor<3xf64> {tad.nondiff}) -> (tensor<4x3xf64>) {
  %r:3 = tad.native_batch_norm %x weight %w bias %b running_mean %rm running_var %rv {momentum = 0.1 : f64, eps = 1.0e-5 : f64, training = true} : (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>)
  return %r#0 : tensor<4x3xf64>
}

// -----

// native_batch_norm training 4-d no running
func.func @f(%x: tensor<2x3x2x2xf64>, %w: tensor<3xf64>, %b: tensor<3xf64>) -> (tensor<2x3x2x2xf64>) {
  %r:3 = tad.native_batch_norm %x weight %w bias %b {momentum = 0.1 : f64, eps = 1.0e-5 : f64, training = true} : (tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>)
  return %r#0 : tensor<2x3x2x2xf64>
}

// -----

// native_batch_norm eval
func.func @f(%x: tensor<3x2x2xf64>, %w: tensor<2xf64>, %b: tensor<2xf64>, %rm: tensor<2xf64> {tad.nondiff}, %rv: tensor<2xf64> {tad.nondiff}) -> (tensor<3x2x2xf64>) {
  %r:3 = tad.native_batch_norm %x weight %w bias %b running_mean %rm running_var %rv {momentum = 0.1 : f64, eps = 1.0e-5 : f64, training = false} : (tensor<3x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<3x2x2xf64>, tensor<0xf64>, tensor<0xf64>)
  return %r#0 : tensor<3x2x2xf64>
}

// -----

// _native_batch_norm_legit training
func.func @f(%x: tensor<2x3x3xf64>, %w: tensor<3xf64>, %b: tensor<3xf64>, %rm: tensor<3xf64> {tad.nondiff}, %rv: tensor<3xf64> {tad.nondiff}) -> (tensor<2x3x3xf64>) {
  %r:3 = tad._native_batch_norm_legit %x weight %w bias %b running %rm, %rv {momentum = 0.1 : f64, eps = 1.0e-5 : f64, training = true} : (tensor<2x3x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x3xf64>, tensor<3xf64>, tensor<3xf64>)
  return %r#0 : tensor<2x3x3xf64>
}

// -----

// _native_batch_norm_legit_no_training
func.func @f(%x: tensor<2x3x2xf64>, %w: tensor<3xf64>, %b: tensor<3xf64>, %rm: tensor<3xf64> {tad.nondiff}, %rv: tensor<3xf64> {tad.nondiff}) -> (tensor<2x3x2xf64>) {
  %r:3 = tad._native_batch_norm_legit_no_training %x weight %w bias %b running %rm, %rv {momentum = 0.1 : f64, eps = 1.0e-5 : f64} : (tensor<2x3x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x2xf64>, tensor<0xf64>, tensor<0xf64>)
  return %r#0 : tensor<2x3x2xf64>
}

// -----

// native_group_norm
func.func @f(%x: tensor<2x4x3xf64>, %w: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<2x4x3xf64>) {
  %r:3 = tad.native_group_norm %x weight %w bias %b {N = 2 : i64, C = 4 : i64, HxW = 3 : i64, group = 2 : i64, eps = 1.0e-5 : f64} : (tensor<2x4x3xf64>, tensor<4xf64>, tensor<4xf64>) -> (tensor<2x4x3xf64>, tensor<2x2xf64>, tensor<2x2xf64>)
  return %r#0 : tensor<2x4x3xf64>
}

// -----

// native_group_norm 4-d
func.func @f(%x: tensor<1x6x2x2xf64>, %w: tensor<6xf64>, %b: tensor<6xf64>) -> (tensor<1x6x2x2xf64>) {
  %r:3 = tad.native_group_norm %x weight %w bias %b {N = 1 : i64, C = 6 : i64, HxW = 4 : i64, group = 3 : i64, eps = 1.0e-5 : f64} : (tensor<1x6x2x2xf64>, tensor<6xf64>, tensor<6xf64>) -> (tensor<1x6x2x2xf64>, tensor<1x3xf64>, tensor<1x3xf64>)
  return %r#0 : tensor<1x6x2x2xf64>
}

// -----

// max_pool2d_with_indices k2
func.func @f(%x: tensor<1x2x4x4xf64>) -> (tensor<1x2x2x2xf64>) {
  %r:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = false} : (tensor<1x2x4x4xf64>) -> (tensor<1x2x2x2xf64>, tensor<1x2x2x2xi64>)
  return %r#0 : tensor<1x2x2x2xf64>
}

// -----

// max_pool2d_with_indices k3 s2 p1 3-d
func.func @f(%x: tensor<2x5x5xf64>) -> (tensor<2x3x3xf64>) {
  %r:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, ceil_mode = false} : (tensor<2x5x5xf64>) -> (tensor<2x3x3xf64>, tensor<2x3x3xi64>)
  return %r#0 : tensor<2x3x3xf64>
}

// -----

// max_pool2d_with_indices dilation 2 ceil
func.func @f(%x: tensor<1x1x6x6xf64>) -> (tensor<1x1x3x3xf64>) {
  %r:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x6x6xf64>) -> (tensor<1x1x3x3xf64>, tensor<1x1x3x3xi64>)
  return %r#0 : tensor<1x1x3x3xf64>
}

// -----

// max_pool2d_with_indices_backward
func.func @f(%g: tensor<1x2x3x3xf64>, %x: tensor<1x2x5x5xf64>) -> tensor<1x2x5x5xf64> {
  %v:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, ceil_mode = false} : (tensor<1x2x5x5xf64>) -> (tensor<1x2x3x3xf64>, tensor<1x2x3x3xi64>)
  %r = tad.max_pool2d_with_indices_backward %g, %x, %v#1 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, ceil_mode = false} : (tensor<1x2x3x3xf64>, tensor<1x2x5x5xf64>, tensor<1x2x3x3xi64>) -> tensor<1x2x5x5xf64>
  return %r : tensor<1x2x5x5xf64>
}

// -----

// max_pool2d_with_indices_backward ceil dilation
func.func @f(%g: tensor<1x2x4x4xf64>, %x: tensor<1x2x6x7xf64>) -> tensor<1x2x6x7xf64> {
  %v:2 = tad.max_pool2d_with_indices %x {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 1>, ceil_mode = true} : (tensor<1x2x6x7xf64>) -> (tensor<1x2x4x4xf64>, tensor<1x2x4x4xi64>)
  %r = tad.max_pool2d_with_indices_backward %g, %x, %v#1 {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 1>, ceil_mode = true} : (tensor<1x2x4x4xf64>, tensor<1x2x6x7xf64>, tensor<1x2x4x4xi64>) -> tensor<1x2x6x7xf64>
  return %r : tensor<1x2x6x7xf64>
}

// -----

// avg_pool2d k2
func.func @f(%x: tensor<1x2x4x4xf64>) -> (tensor<1x2x2x2xf64>) {
  %r = tad.avg_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, ceil_mode = false, count_include_pad = true} : (tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64>
  return %r : tensor<1x2x2x2xf64>
}

// -----

// avg_pool2d k3 s2 p1 exclude pad
func.func @f(%x: tensor<1x1x5x5xf64>) -> (tensor<1x1x3x3xf64>) {
  %r = tad.avg_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false} : (tensor<1x1x5x5xf64>) -> tensor<1x1x3x3xf64>
  return %r : tensor<1x1x3x3xf64>
}

// -----

// avg_pool2d ceil 3-d
func.func @f(%x: tensor<2x5x5xf64>) -> (tensor<2x3x3xf64>) {
  %r = tad.avg_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, ceil_mode = true, count_include_pad = true} : (tensor<2x5x5xf64>) -> tensor<2x3x3xf64>
  return %r : tensor<2x3x3xf64>
}

// -----

// avg_pool2d divisor_override
func.func @f(%x: tensor<1x1x4x4xf64>) -> (tensor<1x1x4x4xf64>) {
  %r = tad.avg_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, ceil_mode = false, count_include_pad = true, divisor_override = 4 : i64} : (tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  return %r : tensor<1x1x4x4xf64>
}

// -----

// avg_pool2d_backward
func.func @f(%g: tensor<1x2x3x3xf64>, %x: tensor<1x2x5x5xf64>) -> (tensor<1x2x5x5xf64>) {
  %r = tad.avg_pool2d_backward %g, %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false} : (tensor<1x2x3x3xf64>, tensor<1x2x5x5xf64>) -> tensor<1x2x5x5xf64>
  return %r : tensor<1x2x5x5xf64>
}

// -----

// avg_pool2d_backward ceil non-square
func.func @f(%g: tensor<2x1x3x4xf64>, %x: tensor<2x1x5x6xf64>) -> (tensor<2x1x5x6xf64>) {
  %r = tad.avg_pool2d_backward %g, %x {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true, count_include_pad = true} : (tensor<2x1x3x4xf64>, tensor<2x1x5x6xf64>) -> tensor<2x1x5x6xf64>
  return %r : tensor<2x1x5x6xf64>
}

// -----

// _adaptive_avg_pool2d
func.func @f(%x: tensor<1x2x5x7xf64>) -> (tensor<1x2x2x3xf64>) {
  %r = tad._adaptive_avg_pool2d %x {output_size = array<i64: 2, 3>} : (tensor<1x2x5x7xf64>) -> tensor<1x2x2x3xf64>
  return %r : tensor<1x2x2x3xf64>
}

// -----

// _adaptive_avg_pool2d global 3-d
func.func @f(%x: tensor<2x3x3xf64>) -> (tensor<2x1x1xf64>) {
  %r = tad._adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<2x3x3xf64>) -> tensor<2x1x1xf64>
  return %r : tensor<2x1x1xf64>
}

// -----

// _adaptive_avg_pool2d_backward
func.func @f(%g: tensor<1x2x2x3xf64>, %x: tensor<1x2x5x7xf64>) -> (tensor<1x2x5x7xf64>) {
  %r = tad._adaptive_avg_pool2d_backward %g, %x  : (tensor<1x2x2x3xf64>, tensor<1x2x5x7xf64>) -> tensor<1x2x5x7xf64>
  return %r : tensor<1x2x5x7xf64>
}

// -----

// _softmax dim=1
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad._softmax %x {dim = 1 : i64, half_to_float = false} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// _softmax dim=0
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad._softmax %x {dim = 0 : i64, half_to_float = false} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// _softmax dim=-1 3-d
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x3x4xf64> {
  %0 = tad._softmax %x {dim = -1 : i64, half_to_float = false} : tensor<2x3x4xf64>
  return %0 : tensor<2x3x4xf64>
}

// -----

// _log_softmax dim=1
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad._log_softmax %x {dim = 1 : i64, half_to_float = false} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// _log_softmax dim=1 3-d
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x3x4xf64> {
  %0 = tad._log_softmax %x {dim = 1 : i64, half_to_float = false} : tensor<2x3x4xf64>
  return %0 : tensor<2x3x4xf64>
}

// -----

