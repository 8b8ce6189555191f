// Functions without kernels (copies only), for the fake CUDA driver test,
// and one with a kernel, which the fake driver cannot launch.
func.func @copy(%x: tensor<2x3xf32>, %y: tensor<3xf64>) -> (tensor<3xf64>, tensor<2x3xf32>) {
  return %y, %x : tensor<3xf64>, tensor<2x3xf32>
}

func.func @constant() -> tensor<2xf32> {
  %c = tad.constant dense<[1.5, -2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tad.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
