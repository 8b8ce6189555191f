// The model of the C example: one dense layer, y = tanh(x @ w), for any
// number of rows (a dynamic batch, docs/dynamic-shapes.md). `make` compiles
// it with --vjp=predict, which adds
//   predict_vjp(x, w, dy) -> (y, dx, dw).
func.func @predict(%x: tensor<?x3xf32> {tad.dim_names = ["batch", ""]},
                   %w: tensor<3x2xf32>) -> tensor<?x2xf32> {
  %h = tad.mm %x, %w : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
  %y = tad.tanh %h : tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
