// add.Tensor same-shape
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.add.Tensor %x, %y  : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// add.Tensor broadcast-trailing
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.add.Tensor %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// add.Tensor broadcast-both
func.func @f(%x: tensor<3x1xf64>, %y: tensor<1x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.add.Tensor %x, %y  : (tensor<3x1xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// add.Tensor alpha
func.func @f(%x: tensor<2x3xf64>, %y: tensor<3xf64>) -> tensor<2x3xf64> {
  %0 = tad.add.Tensor %x, %y {alpha = 2.5 : f64} : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// sub.Tensor alpha broadcast
func.func @f(%x: tensor<2x3xf64>, %y: tensor<2x1xf64>) -> tensor<2x3xf64> {
  %0 = tad.sub.Tensor %x, %y {alpha = -1.5 : f64} : (tensor<2x3xf64>, tensor<2x1xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// mul.Tensor broadcast
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.mul.Tensor %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// mul.Tensor rank-0
func.func @f(%x: tensor<f64>, %y: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.mul.Tensor %x, %y  : (tensor<f64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// div.Tensor broadcast
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.div.Tensor %x, %y  : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// div.Tensor same-shape
func.func @f(%x: tensor<2x3xf64>, %y: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.div.Tensor %x, %y  : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// add.Scalar
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.add.Scalar %x, 1.5 {alpha = 2.0 : f64} : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// sub.Scalar
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.sub.Scalar %x, 0.5  : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// rsub.Scalar
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.rsub.Scalar %x, 1.0 {alpha = 3.0 : f64} : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// mul.Scalar
func.func @f(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tad.mul.Scalar %x, -2.5  : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// div.Scalar
func.func @f(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tad.div.Scalar %x, 4.0  : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// full_like
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %c = tad.full_like %x, 2.5 : tensor<2x3xf64>
  %0 = tad.mul.Tensor %x, %c : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// zeros_like
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %z = tad.zeros_like %x : tensor<2x3xf64>
  %0 = tad.add.Tensor %x, %z : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = tad.exp %0 : tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// -----

// constant
func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c = tad.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf64>
  %0 = tad.mul.Tensor %x, %c : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// neg
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.neg %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// exp
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.exp %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// log
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.log %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// tanh
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.tanh %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// sigmoid
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.sigmoid %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// relu
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.relu %x : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// threshold_backward
func.func @f(%g: tensor<2x3xf64>, %x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.threshold_backward %g, %x, 0.25 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// tanh_backward
func.func @f(%x: tensor<2x3xf64>, %y: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.tanh_backward %x, %y  : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// sigmoid_backward broadcast
func.func @f(%x: tensor<3xf64>, %y: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.sigmoid_backward %x, %y  : (tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// mse_loss mean
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<f64> {
  %0 = tad.mse_loss %x, %y  : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// mse_loss sum
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<f64> {
  %0 = tad.mse_loss %x, %y {reduction = 2 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// mse_loss none broadcast
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %0 = tad.mse_loss %x, %y {reduction = 0 : i64} : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// mse_loss_backward mean
func.func @f(%x: tensor<f64>, %y: tensor<3x4xf64>, %z: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.mse_loss_backward %x, %y, %z {reduction = 1 : i64} : (tensor<f64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// mse_loss_backward none
func.func @f(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>, %z: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = tad.mse_loss_backward %x, %y, %z {reduction = 0 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// mm
func.func @f(%x: tensor<3x4xf64>, %y: tensor<4x2xf64>) -> tensor<3x2xf64> {
  %0 = tad.mm %x, %y  : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// mm vector-like
func.func @f(%x: tensor<1x5xf64>, %y: tensor<5x1xf64>) -> tensor<1x1xf64> {
  %0 = tad.mm %x, %y  : (tensor<1x5xf64>, tensor<5x1xf64>) -> tensor<1x1xf64>
  return %0 : tensor<1x1xf64>
}

// -----

// addmm bias-broadcast
func.func @f(%x: tensor<2xf64>, %y: tensor<3x4xf64>, %z: tensor<4x2xf64>) -> tensor<3x2xf64> {
  %0 = tad.addmm %x, %y, %z  : (tensor<2xf64>, tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// addmm beta-alpha
func.func @f(%x: tensor<3x2xf64>, %y: tensor<3x4xf64>, %z: tensor<4x2xf64>) -> tensor<3x2xf64> {
  %0 = tad.addmm %x, %y, %z {alpha = 0.5 : f64, beta = 2.0 : f64} : (tensor<3x2xf64>, tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// sum
func.func @f(%x: tensor<2x3xf64>) -> tensor<f64> {
  %0 = tad.sum %x  : (tensor<2x3xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// sum.dim_IntList dim=1
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x4xf64> {
  %0 = tad.sum.dim_IntList %x {dim = array<i64: 1>} : (tensor<2x3x4xf64>) -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// -----

// sum.dim_IntList keepdim
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x1x4xf64> {
  %0 = tad.sum.dim_IntList %x {dim = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<2x1x4xf64>
  return %0 : tensor<2x1x4xf64>
}

// -----

// sum.dim_IntList dims=[0,-1]
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<3xf64> {
  %0 = tad.sum.dim_IntList %x {dim = array<i64: 0, -1>} : (tensor<2x3x4xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// sum.dim_IntList all
func.func @f(%x: tensor<2x3xf64>) -> tensor<f64> {
  %0 = tad.sum.dim_IntList %x {dim = array<i64>} : (tensor<2x3xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// mean
func.func @f(%x: tensor<3x4xf64>) -> tensor<f64> {
  %0 = tad.mean %x  : (tensor<3x4xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// mean.dim
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<2x3xf64> {
  %0 = tad.mean.dim %x {dim = array<i64: 2>} : (tensor<2x3x4xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// mean.dim keepdim
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<1x3x1xf64> {
  %0 = tad.mean.dim %x {dim = array<i64: 0, 2>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<1x3x1xf64>
  return %0 : tensor<1x3x1xf64>
}

// -----

// sum_to_size
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<3x1xf64> {
  %0 = tad.sum_to_size %x {size = array<i64: 3, 1>} : (tensor<2x3x4xf64>) -> tensor<3x1xf64>
  return %0 : tensor<3x1xf64>
}

// -----

// t
func.func @f(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = tad.t %x  : (tensor<2x3xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// t vector
func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = tad.t %x  : (tensor<3xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

// transpose.int
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<4x3x2xf64> {
  %0 = tad.transpose.int %x {dim0 = 0 : i64, dim1 = -1 : i64} : (tensor<2x3x4xf64>) -> tensor<4x3x2xf64>
  return %0 : tensor<4x3x2xf64>
}

// -----

// expand
func.func @f(%x: tensor<3x1xf64>) -> tensor<2x3x4xf64> {
  %0 = tad.expand %x {size = array<i64: 2, -1, 4>} : (tensor<3x1xf64>) -> tensor<2x3x4xf64>
  return %0 : tensor<2x3x4xf64>
}

// -----

// view
func.func @f(%x: tensor<2x3x4xf64>) -> tensor<6x4xf64> {
  %0 = tad.view %x {size = array<i64: 6, -1>} : (tensor<2x3x4xf64>) -> tensor<6x4xf64>
  return %0 : tensor<6x4xf64>
}

// -----

// reshape
func.func @f(%x: tensor<2x6xf64>) -> tensor<3x4xf64> {
  %0 = tad.reshape %x {shape = array<i64: 3, 4>} : (tensor<2x6xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// unsqueeze
func.func @f(%x: tensor<2x3xf64>) -> tensor<2x1x3xf64> {
  %0 = tad.unsqueeze %x {dim = 1 : i64} : (tensor<2x3xf64>) -> tensor<2x1x3xf64>
  return %0 : tensor<2x1x3xf64>
}

// -----

// squeeze.dim
func.func @f(%x: tensor<2x1x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.squeeze.dim %x {dim = -2 : i64} : (tensor<2x1x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

