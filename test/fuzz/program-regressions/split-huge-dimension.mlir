func.func @f(%x: tensor<1099511627776x2xf32>) -> (tensor<2x2xf32>) {
  %r:3 = tad.split.Tensor %x {split_size = 2 : i64} : (tensor<1099511627776x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>)
  return %r#0 : tensor<2x2xf32>
}
