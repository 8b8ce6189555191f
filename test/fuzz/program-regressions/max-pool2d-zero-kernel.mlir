
func.func @f(%x: tensor<1x2x4x4xf64>) -> (tensor<1x2x2x2xf64>) {
  %r = tad.max_pool2d %x {kernel_size = array<i64: 0, 2>} : (tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64>
  return %r : tensor<1x2x2x2xf64>
}

