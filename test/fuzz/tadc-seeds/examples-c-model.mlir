// The model of the C example: one dense layer, y = tanh(x @ w).
// `make` compiles it with --vjp=predict, which adds
//   predict_vjp(x, w, dy) -> (y, dx, dw).
func.func @predict(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %h = tad.mm %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %y = tad.tanh %h : tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
