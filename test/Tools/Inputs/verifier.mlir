func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tensor.empty() : tensor<4xf32>
  %z = linalg.transpose ins(%x : tensor<4xf32>) outs(%y : tensor<4xf32>) permutation = [1]
  return %z : tensor<4xf32>
}
