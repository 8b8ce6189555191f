// A two-layer MLP regressor and its SGD training step, in the tad dialect.
//
// @loss is the model: tanh hidden layer, linear output, mean squared error.
// @train_step calls @loss_vjp, which the program only declares: tadc
// generates its body (reverse mode) from the rules, then inlines it, so the
// whole step (forward, backward, update) compiles into one function.
// The data arguments are marked tad.nondiff: no gradient is computed for them.

func.func @loss(%x: tensor<64x8xf32> {tad.nondiff}, %y: tensor<64x1xf32> {tad.nondiff},
                %w1: tensor<8x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<32x1xf32>, %b2: tensor<1xf32>) -> tensor<f32> {
  %h0 = tad.addmm %b1, %x, %w1 : (tensor<32xf32>, tensor<64x8xf32>, tensor<8x32xf32>) -> tensor<64x32xf32>
  %h = tad.tanh %h0 : tensor<64x32xf32>
  %p = tad.addmm %b2, %h, %w2 : (tensor<1xf32>, tensor<64x32xf32>, tensor<32x1xf32>) -> tensor<64x1xf32>
  %l = tad.mse_loss %p, %y : (tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func private @loss_vjp(tensor<64x8xf32>, tensor<64x1xf32>,
                            tensor<8x32xf32>, tensor<32xf32>,
                            tensor<32x1xf32>, tensor<1xf32>, tensor<f32>)
    -> (tensor<f32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32x1xf32>, tensor<1xf32>)

// One step of SGD with learning rate %lr: returns the loss before the step
// and the updated parameters.
func.func @train_step(%x: tensor<64x8xf32>, %y: tensor<64x1xf32>,
                      %w1: tensor<8x32xf32>, %b1: tensor<32xf32>,
                      %w2: tensor<32x1xf32>, %b2: tensor<1xf32>, %lr: tensor<f32>)
    -> (tensor<f32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32x1xf32>, tensor<1xf32>) {
  %one = tad.constant dense<1.0> : tensor<f32>
  %l, %gw1, %gb1, %gw2, %gb2 = func.call @loss_vjp(%x, %y, %w1, %b1, %w2, %b2, %one)
      : (tensor<64x8xf32>, tensor<64x1xf32>, tensor<8x32xf32>, tensor<32xf32>,
         tensor<32x1xf32>, tensor<1xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32x1xf32>, tensor<1xf32>)
  %sw1 = tad.mul.Tensor %gw1, %lr : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %nw1 = tad.sub.Tensor %w1, %sw1 : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %sb1 = tad.mul.Tensor %gb1, %lr : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %nb1 = tad.sub.Tensor %b1, %sb1 : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %sw2 = tad.mul.Tensor %gw2, %lr : (tensor<32x1xf32>, tensor<f32>) -> tensor<32x1xf32>
  %nw2 = tad.sub.Tensor %w2, %sw2 : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  %sb2 = tad.mul.Tensor %gb2, %lr : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
  %nb2 = tad.sub.Tensor %b2, %sb2 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %l, %nw1, %nb1, %nw2, %nb2
      : tensor<f32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32x1xf32>, tensor<1xf32>
}
