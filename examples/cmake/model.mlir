// The model of the CMake example: a linear regression y ~ x @ w + b with a
// mean-squared-error loss. tad_add_model(... VJP loss) makes tadc add
//   loss_vjp(x, y, w, b, dl) -> (l, dw, db)
// (x and y are data, marked tad.nondiff: no gradient for them).
func.func @loss(%x: tensor<16x3xf32> {tad.nondiff}, %y: tensor<16x1xf32> {tad.nondiff},
                %w: tensor<3x1xf32>, %b: tensor<1xf32>) -> tensor<f32> {
  %p = tad.addmm %b, %x, %w : (tensor<1xf32>, tensor<16x3xf32>, tensor<3x1xf32>) -> tensor<16x1xf32>
  %l = tad.mse_loss %p, %y : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
