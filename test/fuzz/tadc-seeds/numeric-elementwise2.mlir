// threshold
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.threshold %x, 0.25, -2.0 : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// gelu
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.gelu %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// gelu tanh
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.gelu %x {approximate = "tanh"} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// silu
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.silu %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// mish
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.mish %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// leaky_relu
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.leaky_relu %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// leaky_relu slope
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.leaky_relu %x {negative_slope = 0.2 : f64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// elu
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.elu %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// elu alpha scale input_scale
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.elu %x {alpha = 1.5 : f64, scale = 1.0507 : f64, input_scale = 0.5 : f64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// softplus
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.softplus %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// softplus beta threshold
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.softplus %x {beta = 2.0 : f64, threshold = 1.0 : f64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// hardtanh
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.hardtanh %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// hardtanh relu6
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.hardtanh %x {min_val = 0.0 : f64, max_val = 6.0 : f64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// hardswish
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.hardswish %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// hardsigmoid
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.hardsigmoid %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// _prelu_kernel
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad._prelu_kernel %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// gelu_backward
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.gelu_backward %x, %y  : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// gelu_backward tanh
func.func @f(%x: tensor<4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.gelu_backward %x, %y {approximate = "tanh"} : (tensor<4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// leaky_relu_backward {negative_slope = 0.1 : f64, self_is_result = false}
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.leaky_relu_backward %x, %y {negative_slope = 0.1 : f64, self_is_result = false} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// softplus_backward {beta = 1.5 : f64, threshold = 2.0 : f64}
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.softplus_backward %x, %y {beta = 1.5 : f64, threshold = 2.0 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// hardtanh_backward {min_val = -1.0 : f64, max_val = 1.0 : f64}
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.hardtanh_backward %x, %y {min_val = -1.0 : f64, max_val = 1.0 : f64} : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// hardswish_backward
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.hardswish_backward %x, %y  : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// hardsigmoid_backward
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.hardsigmoid_backward %x, %y  : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// elu_backward
func.func @f(%g: tensor<3x4xf64>, %x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.elu_backward %g, %x {alpha = 1.5 : f64, scale = 2.0 : f64, input_scale = 0.5 : f64, is_result = false} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// elu_backward is_result
func.func @f(%g: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.elu_backward %g, %y {alpha = 1.5 : f64, scale = 2.0 : f64, input_scale = 0.5 : f64, is_result = true} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// maximum broadcast
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.maximum %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// minimum
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.minimum %x, %y  : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// lerp.Tensor
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>, %z: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.lerp.Tensor %x, %y, %z  : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// lerp.Tensor broadcast
func.func @f(%x: tensor<4xf64>, %y: tensor<3x1xf64>, %z: tensor<f64>) -> tensor<3x4xf64> {
  %0 = tad.lerp.Tensor %x, %y, %z  : (tensor<4xf64>, tensor<3x1xf64>, tensor<f64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// addcmul
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>, %z: tensor<3x1xf64>) -> tensor<3x4xf64> {
  %0 = tad.addcmul %x, %y, %z {value = 0.5 : f64} : (tensor<3x4xf64>, tensor<4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// addcdiv
func.func @f(%x: tensor<4xf64>, %y: tensor<3x4xf64>, %z: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.addcdiv %x, %y, %z {value = -2.0 : f64} : (tensor<4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp %x {min = -0.5 : f64, max = 0.5 : f64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp min only
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp %x {min = 0.0 : f64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp max only
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp %x {max = 0.0 : f64} : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp_min
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp_min %x, 0.25  : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp_max
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp_max %x, 0.25  : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp.Tensor
func.func @f(%x: tensor<3x4xf64>, %lo: tensor<4xf64>, %hi: tensor<3x1xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp.Tensor %x min %lo max %hi : (tensor<3x4xf64>, tensor<4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp.Tensor min only
func.func @f(%x: tensor<3x4xf64>, %lo: tensor<3x1xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp.Tensor %x min %lo : (tensor<3x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// clamp.Tensor max only, broadcast self
func.func @f(%x: tensor<4xf64>, %hi: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.clamp.Tensor %x max %hi : (tensor<4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// where.self broadcast
func.func @f(%c: tensor<3x1xi1>, %x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.where.self %c, %x, %y : (tensor<3x1xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// where.ScalarOther
func.func @f(%c: tensor<3x4xi1>, %x: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.where.ScalarOther %c, %x, 1.5 : (tensor<3x4xi1>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// where.ScalarSelf
func.func @f(%c: tensor<4xi1>, %x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.where.ScalarSelf %c, -1.0, %x : (tensor<4xi1>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// masked_fill.Scalar broadcast
func.func @f(%x: tensor<4xf64>, %m: tensor<3x4xi1>) -> tensor<3x4xf64> {
  %0 = tad.masked_fill.Scalar %x, %m, -3.0 : (tensor<4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// masked_fill.Tensor
func.func @f(%x: tensor<3x4xf64>, %m: tensor<3x4xi1>, %v: tensor<f64>) -> tensor<3x4xf64> {
  %0 = tad.masked_fill.Tensor %x, %m, %v : (tensor<3x4xf64>, tensor<3x4xi1>, tensor<f64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// eq.Tensor
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %c = tad.eq.Tensor %x, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xi1>
  %0 = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// ne.Tensor
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %c = tad.ne.Tensor %x, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xi1>
  %0 = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// lt.Tensor
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %c = tad.lt.Tensor %x, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xi1>
  %0 = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// le.Tensor
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %c = tad.le.Tensor %x, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xi1>
  %0 = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// gt.Tensor
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %c = tad.gt.Tensor %x, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xi1>
  %0 = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// ge.Tensor
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %c = tad.ge.Tensor %x, %y : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xi1>
  %0 = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// eq.Scalar
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.eq.Scalar %x, 0.5 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %e = tad.exp %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %e : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// ne.Scalar
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.ne.Scalar %x, 0.5 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %e = tad.exp %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %e : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// lt.Scalar
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.lt.Scalar %x, 0.5 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %e = tad.exp %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %e : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// le.Scalar
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.le.Scalar %x, -0.5 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %e = tad.exp %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %e : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// gt.Scalar
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.gt.Scalar %x, 0.0 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %e = tad.exp %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %e : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// ge.Scalar
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.ge.Scalar %x, 1.0 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %e = tad.exp %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %e : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// lt.Tensor i64
func.func @f(%x: tensor<3x4xf64>, %i: tensor<3x4xi64>, %j: tensor<4xi64>) -> tensor<3x4xf64> {
  %c = tad.lt.Tensor %i, %j : (tensor<3x4xi64>, tensor<4xi64>) -> tensor<3x4xi1>
  %n = tad.neg %x : tensor<3x4xf64>
  %0 = tad.where.self %c, %x, %n : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// isnan
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %c = tad.isnan %x : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %0 = tad.masked_fill.Scalar %x, %c, 0.0 : (tensor<3x4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// logical_and logical_or logical_not
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>, %k: tensor<4xi64>) -> tensor<3x4xf64> {
  %a = tad.gt.Scalar %x, 0.0 : (tensor<3x4xf64>) -> tensor<3x4xi1>
  %b = tad.lt.Scalar %y, 0.0 : (tensor<4xf64>) -> tensor<4xi1>
  %c = tad.logical_and %a, %b : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
  %d = tad.logical_or %c, %k : (tensor<3x4xi1>, tensor<4xi64>) -> tensor<3x4xi1>
  %e = tad.logical_not %d : (tensor<3x4xi1>) -> tensor<3x4xi1>
  %p = tad.where.self %c, %x, %y : (tensor<3x4xi1>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  %0 = tad.masked_fill.Scalar %p, %e, 2.0 : (tensor<3x4xf64>, tensor<3x4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// log1p
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.log1p %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// sqrt
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.sqrt %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// rsqrt
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.rsqrt %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// reciprocal
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.reciprocal %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// abs
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.abs %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// erf
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.erf %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// sin
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.sin %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// cos
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.cos %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// pow.Tensor_Scalar 2
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.pow.Tensor_Scalar %x, 2.0  : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// pow.Tensor_Scalar 3 negative base
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.pow.Tensor_Scalar %x, 3.0  : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// pow.Tensor_Scalar -1.5
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.pow.Tensor_Scalar %x, -1.5  : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// pow.Tensor_Scalar 0
func.func @f(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tad.pow.Tensor_Scalar %x, 0.0  : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// pow.Tensor_Tensor broadcast
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.pow.Tensor_Tensor %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// pow.Tensor_Tensor exponent broadcast
func.func @f(%x: tensor<4xf64>, %y: tensor<3x1xf64>) -> tensor<3x4xf64> {
  %0 = tad.pow.Tensor_Tensor %x, %y  : (tensor<4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// sign
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %s = tad.sign %x : tensor<2x3xf64>
  %0 = tad.mul.Tensor %s, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// floor
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %s = tad.floor %x : tensor<2x3xf64>
  %0 = tad.add.Tensor %s, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// native_dropout.key
func.func @f(%x: tensor<4x8xf64>, %key: tensor<i64>) -> tensor<4x8xf64> {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.3 : f64} : (tensor<4x8xf64>, tensor<i64>) -> (tensor<4x8xf64>, tensor<4x8xi1>)
  %0 = tad.mul.Tensor %y, %x : (tensor<4x8xf64>, tensor<4x8xf64>) -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}

// -----

// native_dropout.key eval
func.func @f(%x: tensor<3xf64>, %key: tensor<i64>) -> tensor<3xf64> {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.5 : f64, train = false} : (tensor<3xf64>, tensor<i64>) -> (tensor<3xf64>, tensor<3xi1>)
  return %y : tensor<3xf64>
}

// -----

// native_dropout_backward
func.func @f(%g: tensor<3x4xf64>, %m: tensor<4xi1>) -> tensor<3x4xf64> {
  %0 = tad.native_dropout_backward %g, %m {scale = 2.5 : f64} : (tensor<3x4xf64>, tensor<4xi1>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

