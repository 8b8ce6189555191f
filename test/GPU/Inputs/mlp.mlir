// A small model for the GPU tests: matmul, broadcast add, tanh, a full
// reduction (a single-thread kernel) and a constant.
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<f32> {
  %b = arith.constant dense<[0.5, -0.25, 1.0]> : tensor<3xf32>
  %0 = tad.mm %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = tad.add.Tensor %0, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %2 = tad.tanh %1 : tensor<4x3xf32>
  %3 = tad.sum %2 : (tensor<4x3xf32>) -> tensor<f32>
  return %3 : tensor<f32>
}
