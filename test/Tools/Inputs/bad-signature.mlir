func.func @dynamic(%x: tensor<?x2xf32>) -> tensor<?xf32> {
  %0 = tad.view %x {size = array<i64: -1>} : (tensor<?x2xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @scalar(%x: f32) -> tensor<2xi16> {
  %c = arith.constant dense<1> : tensor<2xi16>
  return %c : tensor<2xi16>
}
func.func @"not.c"(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @tad_f(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
