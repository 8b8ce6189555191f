func.func @f(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0:2 = tad.linalg_inv_ex %a : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
  return %0#0 : tensor<3x3xf64>
}
