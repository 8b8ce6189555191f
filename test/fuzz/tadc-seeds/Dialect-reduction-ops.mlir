
// Round trip of the reduction ops (dialects/Tad/TadReductionOps.td): defaulted
// attributes are elided, i64 results and operands print as such.

func.func @extrema(%x: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<1x1xf32>, tensor<f32>, tensor<f32>) {
  %0 = tad.amax %x {dim = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>
  %1 = tad.amin %x {keepdim = true} : (tensor<4x3xf32>) -> tensor<1x1xf32>
  %2 = tad.max %x : (tensor<4x3xf32>) -> tensor<f32>
  %3 = tad.min %x : (tensor<4x3xf32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<1x1xf32>, tensor<f32>, tensor<f32>
}

func.func @selecting(%x: tensor<4x3xf64>) -> (tensor<4xf64>, tensor<4xi64>, tensor<1x3xf64>, tensor<1x3xi64>, tensor<4x3xf64>) {
  %v, %i = tad.max.dim %x {dim = 1 : i64} : (tensor<4x3xf64>) -> (tensor<4xf64>, tensor<4xi64>)
  %w, %j = tad.min.dim %x {dim = -2 : i64, keepdim = true} : (tensor<4x3xf64>) -> (tensor<1x3xf64>, tensor<1x3xi64>)
  %g = tad.value_selecting_reduction_backward %v, %i {dim = 1 : i64, keepdim = false, sizes = array<i64: 4, 3>} : (tensor<4xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  return %v, %i, %w, %j, %g : tensor<4xf64>, tensor<4xi64>, tensor<1x3xf64>, tensor<1x3xi64>, tensor<4x3xf64>
}

func.func @moments(%x: tensor<2x3x4xf32>) -> (tensor<f32>, tensor<2x1x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = tad.var.correction %x : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = tad.std.correction %x {correction = 0.000000e+00 : f64, dim = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %v, %m = tad.var_mean.correction %x {dim = array<i64: 0, 2>} : (tensor<2x3x4xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0, %1, %v, %m : tensor<f32>, tensor<2x1x4xf32>, tensor<3xf32>, tensor<3xf32>
}

func.func @others(%x: tensor<2x3xf64>) -> (tensor<2xf64>, tensor<f64>, tensor<3xf64>, tensor<2x3xf64>) {
  %0 = tad.logsumexp %x {dim = array<i64: 1>} : (tensor<2x3xf64>) -> tensor<2xf64>
  %1 = tad.linalg_vector_norm %x : (tensor<2x3xf64>) -> tensor<f64>
  %2 = tad.linalg_vector_norm %x {dim = array<i64: 0>, ord = 0x7FF0000000000000 : f64} : (tensor<2x3xf64>) -> tensor<3xf64>
  %3 = tad.cumsum %x {dim = 1 : i64} : tensor<2x3xf64>
  return %0, %1, %2, %3 : tensor<2xf64>, tensor<f64>, tensor<3xf64>, tensor<2x3xf64>
}
