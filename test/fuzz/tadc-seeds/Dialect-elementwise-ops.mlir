
// Round trip of the ops of TadElementwiseOps.td: printed, parsed again and
// printed the same, with inferred result types (including i1 results and
// broadcasting).

func.func @math(%x: tensor<2x3xf32>, %e: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tad.log1p %x : tensor<2x3xf32>
  %1 = tad.sqrt %0 : tensor<2x3xf32>
  %2 = tad.rsqrt %1 : tensor<2x3xf32>
  %3 = tad.reciprocal %2 : tensor<2x3xf32>
  %4 = tad.abs %3 : tensor<2x3xf32>
  %5 = tad.erf %4 : tensor<2x3xf32>
  %6 = tad.sin %5 : tensor<2x3xf32>
  %7 = tad.cos %6 : tensor<2x3xf32>
  %8 = tad.sign %7 : tensor<2x3xf32>
  %9 = tad.floor %8 : tensor<2x3xf32>
  %10 = tad.pow.Tensor_Scalar %9, 2.5 : tensor<2x3xf32>
  %11 = tad.pow.Tensor_Tensor %10, %e : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %11 : tensor<2x3xf32>
}

func.func @activations(%x: tensor<4xf64>, %g: tensor<2x4xf64>) -> tensor<2x4xf64> {
  %0 = tad.threshold %x, 0.1, 0.0 : tensor<4xf64>
  %1 = tad.gelu %0 : tensor<4xf64>
  %2 = tad.gelu %1 {approximate = "tanh"} : tensor<4xf64>
  %3 = tad.silu %2 : tensor<4xf64>
  %4 = tad.mish %3 : tensor<4xf64>
  %5 = tad.leaky_relu %4 {negative_slope = 0.2 : f64} : tensor<4xf64>
  %6 = tad.elu %5 {alpha = 1.5 : f64} : tensor<4xf64>
  %7 = tad.softplus %6 {beta = 2.0 : f64, threshold = 10.0 : f64} : tensor<4xf64>
  %8 = tad.hardtanh %7 {min_val = 0.0 : f64, max_val = 6.0 : f64} : tensor<4xf64>
  %9 = tad.hardswish %8 : tensor<4xf64>
  %10 = tad.hardsigmoid %9 : tensor<4xf64>
  %11 = tad._prelu_kernel %g, %10 : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %12 = tad.gelu_backward %11, %x {approximate = "tanh"} : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %13 = tad.leaky_relu_backward %12, %x {negative_slope = 0.01 : f64, self_is_result = false} : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %14 = tad.softplus_backward %13, %x {beta = 1.0 : f64, threshold = 20.0 : f64} : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %15 = tad.hardtanh_backward %14, %x {min_val = -1.0 : f64, max_val = 1.0 : f64} : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %16 = tad.hardswish_backward %15, %x : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %17 = tad.hardsigmoid_backward %16, %x : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %18 = tad.elu_backward %17, %x {alpha = 1.0 : f64, scale = 1.0 : f64, input_scale = 1.0 : f64, is_result = true} : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  return %18 : tensor<2x4xf64>
}

func.func @selects(%x: tensor<3x4xf32>, %y: tensor<4xf32>, %c: tensor<3x1xi1>, %v: tensor<f32>) -> tensor<3x4xf32> {
  %0 = tad.maximum %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1 = tad.minimum %0, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %2 = tad.lerp.Tensor %1, %y, %v : (tensor<3x4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %3 = tad.addcmul %2, %y, %x {value = 0.5 : f64} : (tensor<3x4xf32>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %4 = tad.addcdiv %3, %y, %x : (tensor<3x4xf32>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %5 = tad.clamp %4 {min = 0.0 : f64} : tensor<3x4xf32>
  %6 = tad.clamp_min %5, 1.0 : tensor<3x4xf32>
  %7 = tad.clamp_max %6, 2.0 : tensor<3x4xf32>
  %8 = tad.where.self %c, %7, %y : (tensor<3x1xi1>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %9 = tad.where.ScalarOther %c, %8, 0.0 : (tensor<3x1xi1>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %10 = tad.where.ScalarSelf %c, 1.0, %9 : (tensor<3x1xi1>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %11 = tad.masked_fill.Scalar %10, %c, -1.0 : (tensor<3x4xf32>, tensor<3x1xi1>) -> tensor<3x4xf32>
  %12 = tad.masked_fill.Tensor %11, %c, %v : (tensor<3x4xf32>, tensor<3x1xi1>, tensor<f32>) -> tensor<3x4xf32>
  return %12 : tensor<3x4xf32>
}

func.func @compare(%x: tensor<3x4xf32>, %y: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<3x4xi1> {
  %0 = tad.eq.Tensor %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %1 = tad.ne.Tensor %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %2 = tad.lt.Tensor %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %3 = tad.le.Tensor %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %4 = tad.gt.Tensor %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %5 = tad.ge.Tensor %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %6 = tad.lt.Scalar %x, 0.5 : (tensor<3x4xf32>) -> tensor<3x4xi1>
  %7 = tad.eq.Scalar %x, 0.5 : (tensor<3x4xf32>) -> tensor<3x4xi1>
  %8 = tad.ne.Scalar %x, 0.5 : (tensor<3x4xf32>) -> tensor<3x4xi1>
  %9 = tad.le.Scalar %x, 0.5 : (tensor<3x4xf32>) -> tensor<3x4xi1>
  %10 = tad.gt.Scalar %x, 0.5 : (tensor<3x4xf32>) -> tensor<3x4xi1>
  %11 = tad.ge.Scalar %i, 1.0 : (tensor<2xi64>) -> tensor<2xi1>
  %12 = tad.isnan %x : (tensor<3x4xf32>) -> tensor<3x4xi1>
  %13 = tad.logical_and %12, %y : (tensor<3x4xi1>, tensor<4xf32>) -> tensor<3x4xi1>
  %14 = tad.logical_or %13, %0 : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
  %15 = tad.logical_not %14 : (tensor<3x4xi1>) -> tensor<3x4xi1>
  return %15 : tensor<3x4xi1>
}

func.func @dropout(%x: tensor<4x8xf32>, %key: tensor<i64>) -> tensor<4x8xf32> {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.1 : f64} : (tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  %z, %n = tad.native_dropout.key %y, %key {p = 0.5 : f64, train = false} : (tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  %0 = tad.native_dropout_backward %z, %m {scale = 2.0 : f64} : (tensor<4x8xf32>, tensor<4x8xi1>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @clamp_tensor(%x: tensor<2x3xf32>, %lo: tensor<3xf32>, %hi: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tad.clamp.Tensor %x min %lo max %hi : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = tad.clamp.Tensor %x max %hi : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
