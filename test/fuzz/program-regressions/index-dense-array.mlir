
func.func @f(%x: tensor<2x6xf64>) -> (tensor<3x4xf64>) {
  %r = tad.reshape %x {shape = array<index: 3, -1>} : (tensor<2x6xf64>) -> tensor<3x4xf64>
  return %r : tensor<3x4xf64>
}

