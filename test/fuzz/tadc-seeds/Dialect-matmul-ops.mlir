
// Round trip of the matmul ops (dialects/Tad/TadMatmulOps.td): defaulted
// attributes are elided, i64 results and operands print as such.

func.func @products(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<3x1xf32>, %v: tensor<4xf32>, %m: tensor<3x4xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<f32>, tensor<3xf32>) {
  %0 = tad.bmm %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = tad.baddbmm %c, %a, %b {alpha = 2.000000e+00 : f64} : (tensor<3x1xf32>, tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %2 = tad.dot %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %3 = tad.mv %m, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<f32>, tensor<3xf32>
}
