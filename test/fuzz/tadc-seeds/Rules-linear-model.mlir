func.func @f(%x: tensor<3x4xf64>, %w: tensor<5x4xf64>, %b: tensor<5xf64>) -> tensor<3x5xf64> {
  %0 = tad.linear %x, %w bias %b : (tensor<3x4xf64>, tensor<5x4xf64>, tensor<5xf64>) -> tensor<3x5xf64>
  %1 = tad.tanh %0 : tensor<3x5xf64>
  return %1 : tensor<3x5xf64>
}
