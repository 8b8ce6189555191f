
// Round trip of every tad op in f32 and f64 (shape ops also on integer and
// i1 tensors), with broadcasting, keepdim and defaulted attributes. Attributes
// at their default value are elided by the printer.

// Broadcasting binary ops, with and without alpha.
func.func @binary_f32(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %c: tensor<4x1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = tad.add.Tensor %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1 = tad.add.Tensor %a, %c {alpha = 2.5 : f64} : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %2 = tad.sub.Tensor %b, %a {alpha = -1.0 : f64} : (tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = tad.sub.Tensor %c, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %4 = tad.mul.Tensor %a, %a : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = tad.div.Tensor %a, %c : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}

func.func @binary_f64(%a: tensor<2x1x3xf64>, %b: tensor<5x1xf64>, %s: tensor<f64>) -> (tensor<2x5x3xf64>, tensor<2x5x3xf64>, tensor<5x1xf64>, tensor<5x1xf64>) {
  %0 = tad.mul.Tensor %a, %b : (tensor<2x1x3xf64>, tensor<5x1xf64>) -> tensor<2x5x3xf64>
  %1 = tad.div.Tensor %b, %a : (tensor<5x1xf64>, tensor<2x1x3xf64>) -> tensor<2x5x3xf64>
  %2 = tad.add.Tensor %b, %s {alpha = 3.0 : f64} : (tensor<5x1xf64>, tensor<f64>) -> tensor<5x1xf64>
  %3 = tad.sub.Tensor %s, %b : (tensor<f64>, tensor<5x1xf64>) -> tensor<5x1xf64>
  return %0, %1, %2, %3 : tensor<2x5x3xf64>, tensor<2x5x3xf64>, tensor<5x1xf64>, tensor<5x1xf64>
}

// Tensor-scalar ops: alpha defaults to 1 and is elided when printed.
func.func @scalar_f32(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = tad.add.Scalar %a, 2.0 : tensor<4x3xf32>
  %1 = tad.add.Scalar %a, 2.0 {alpha = 0.5 : f64} : tensor<4x3xf32>
  %2 = tad.sub.Scalar %a, 1.5 : tensor<4x3xf32>
  %3 = tad.sub.Scalar %a, 1.5 {alpha = 2.0 : f64} : tensor<4x3xf32>
  %4 = tad.rsub.Scalar %a, 1.0 : tensor<4x3xf32>
  %5 = tad.mul.Scalar %a, -3.0 : tensor<4x3xf32>
  %6 = tad.div.Scalar %a, 4.0 : tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}

func.func @scalar_f64(%a: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  %0 = tad.add.Scalar %a, 1.0e-3 : tensor<f64>
  %1 = tad.sub.Scalar %a, 2.0 : tensor<f64>
  %2 = tad.rsub.Scalar %a, 1.0 {alpha = 2.0 : f64} : tensor<f64>
  %3 = tad.mul.Scalar %a, 0.5 : tensor<f64>
  %4 = tad.div.Scalar %a, 3.0 : tensor<f64>
  return %0, %1, %2, %3, %4 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}

func.func @unary_f32(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = tad.neg %a : tensor<4x3xf32>
  %1 = tad.exp %a : tensor<4x3xf32>
  %2 = tad.log %a : tensor<4x3xf32>
  %3 = tad.tanh %a : tensor<4x3xf32>
  %4 = tad.sigmoid %a : tensor<4x3xf32>
  %5 = tad.relu %a : tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}

func.func @unary_f64(%a: tensor<7xf64>) -> (tensor<7xf64>, tensor<7xf64>, tensor<7xf64>, tensor<7xf64>, tensor<7xf64>, tensor<7xf64>) {
  %0 = tad.neg %a : tensor<7xf64>
  %1 = tad.exp %a : tensor<7xf64>
  %2 = tad.log %a : tensor<7xf64>
  %3 = tad.tanh %a : tensor<7xf64>
  %4 = tad.sigmoid %a : tensor<7xf64>
  %5 = tad.relu %a : tensor<7xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<7xf64>, tensor<7xf64>, tensor<7xf64>, tensor<7xf64>, tensor<7xf64>, tensor<7xf64>
}

// Activation backward ops broadcast like the binary ops.
func.func @backward(%g: tensor<4x3xf32>, %x: tensor<4x3xf32>, %g64: tensor<1xf64>, %y64: tensor<2x5xf64>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>) {
  %0 = tad.threshold_backward %g, %x, 0.0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = tad.tanh_backward %g, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = tad.sigmoid_backward %g, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = tad.threshold_backward %g64, %y64, 0.5 : (tensor<1xf64>, tensor<2x5xf64>) -> tensor<2x5xf64>
  %4 = tad.tanh_backward %g64, %y64 : (tensor<1xf64>, tensor<2x5xf64>) -> tensor<2x5xf64>
  %5 = tad.sigmoid_backward %y64, %g64 : (tensor<2x5xf64>, tensor<1xf64>) -> tensor<2x5xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>
}

func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %bias: tensor<5xf32>, %a64: tensor<2x2xf64>, %bias64: tensor<2x1xf64>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<2x2xf64>, tensor<2x2xf64>) {
  %0 = tad.mm %a, %b : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %1 = tad.addmm %bias, %a, %b : (tensor<5xf32>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %2 = tad.addmm %0, %a, %b {alpha = 2.0 : f64, beta = 0.5 : f64} : (tensor<4x5xf32>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %3 = tad.mm %a64, %a64 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %4 = tad.addmm %bias64, %a64, %a64 {beta = 0.0 : f64} : (tensor<2x1xf64>, tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0, %1, %2, %3, %4 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<2x2xf64>, tensor<2x2xf64>
}

// dim absent, empty, negative, several; keepdim default false and true.
func.func @reductions_f32(%a: tensor<2x3x4xf32>) -> (tensor<f32>, tensor<f32>, tensor<2x4xf32>, tensor<2x1x1xf32>, tensor<f32>, tensor<1x1x1xf32>, tensor<3xf32>, tensor<1x3x1xf32>, tensor<f32>) {
  %0 = tad.sum %a : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = tad.mean %a : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = tad.sum.dim_IntList %a {dim = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %3 = tad.sum.dim_IntList %a {dim = array<i64: -1, 1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %4 = tad.sum.dim_IntList %a : (tensor<2x3x4xf32>) -> tensor<f32>
  %5 = tad.sum.dim_IntList %a {dim = array<i64>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  %6 = tad.mean.dim %a {dim = array<i64: 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %7 = tad.mean.dim %a {dim = array<i64: 0, -1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %8 = tad.mean.dim %a {keepdim = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<f32>, tensor<f32>, tensor<2x4xf32>, tensor<2x1x1xf32>, tensor<f32>, tensor<1x1x1xf32>, tensor<3xf32>, tensor<1x3x1xf32>, tensor<f32>
}

func.func @reductions_f64(%a: tensor<5x6xf64>, %s: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<6xf64>, tensor<5x1xf64>, tensor<f64>, tensor<f64>) {
  %0 = tad.sum %a : (tensor<5x6xf64>) -> tensor<f64>
  %1 = tad.mean %a : (tensor<5x6xf64>) -> tensor<f64>
  %2 = tad.sum.dim_IntList %a {dim = array<i64: 0>} : (tensor<5x6xf64>) -> tensor<6xf64>
  %3 = tad.mean.dim %a {dim = array<i64: 1>, keepdim = true} : (tensor<5x6xf64>) -> tensor<5x1xf64>
  %4 = tad.sum %s : (tensor<f64>) -> tensor<f64>
  %5 = tad.sum.dim_IntList %s {dim = array<i64: 0>} : (tensor<f64>) -> tensor<f64>
  return %0, %1, %2, %3, %4, %5 : tensor<f64>, tensor<f64>, tensor<6xf64>, tensor<5x1xf64>, tensor<f64>, tensor<f64>
}

func.func @sum_to_size(%a: tensor<2x3x4xf32>, %b: tensor<5x1xf64>) -> (tensor<3x1xf32>, tensor<4xf32>, tensor<1x1xf64>, tensor<5x1xf64>) {
  %0 = tad.sum_to_size %a {size = array<i64: 3, 1>} : (tensor<2x3x4xf32>) -> tensor<3x1xf32>
  %1 = tad.sum_to_size %a {size = array<i64: 4>} : (tensor<2x3x4xf32>) -> tensor<4xf32>
  %2 = tad.sum_to_size %b {size = array<i64: 1, 1>} : (tensor<5x1xf64>) -> tensor<1x1xf64>
  %3 = tad.sum_to_size %b {size = array<i64: 5, 1>} : (tensor<5x1xf64>) -> tensor<5x1xf64>
  return %0, %1, %2, %3 : tensor<3x1xf32>, tensor<4xf32>, tensor<1x1xf64>, tensor<5x1xf64>
}

// Shape ops accept f32, f64, i64, i32 and i1.
func.func @transposes(%a: tensor<4x3xf32>, %v: tensor<5xi64>, %s: tensor<i1>, %c: tensor<2x3x4xf64>) -> (tensor<3x4xf32>, tensor<5xi64>, tensor<i1>, tensor<4x3x2xf64>, tensor<2x4x3xf64>, tensor<2x3x4xf64>) {
  %0 = tad.t %a : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %1 = tad.t %v : (tensor<5xi64>) -> tensor<5xi64>
  %2 = tad.t %s : (tensor<i1>) -> tensor<i1>
  %3 = tad.transpose.int %c {dim0 = 0 : i64, dim1 = 2 : i64} : (tensor<2x3x4xf64>) -> tensor<4x3x2xf64>
  %4 = tad.transpose.int %c {dim0 = -1 : i64, dim1 = 1 : i64} : (tensor<2x3x4xf64>) -> tensor<2x4x3xf64>
  %5 = tad.transpose.int %c {dim0 = 1 : i64, dim1 = 1 : i64} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<3x4xf32>, tensor<5xi64>, tensor<i1>, tensor<4x3x2xf64>, tensor<2x4x3xf64>, tensor<2x3x4xf64>
}

func.func @expand(%a: tensor<4x1xf32>, %i: tensor<3xi32>, %s: tensor<f64>) -> (tensor<2x4x3xf32>, tensor<4x5xf32>, tensor<2x3xi32>, tensor<3x2xf64>, tensor<4x1xf32>) {
  %0 = tad.expand %a {size = array<i64: 2, 4, 3>} : (tensor<4x1xf32>) -> tensor<2x4x3xf32>
  %1 = tad.expand %a {size = array<i64: -1, 5>, implicit = true} : (tensor<4x1xf32>) -> tensor<4x5xf32>
  %2 = tad.expand %i {size = array<i64: 2, -1>} : (tensor<3xi32>) -> tensor<2x3xi32>
  %3 = tad.expand %s {size = array<i64: 3, 2>} : (tensor<f64>) -> tensor<3x2xf64>
  %4 = tad.expand %a {size = array<i64: 4, 1>} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %0, %1, %2, %3, %4 : tensor<2x4x3xf32>, tensor<4x5xf32>, tensor<2x3xi32>, tensor<3x2xf64>, tensor<4x1xf32>
}

func.func @reshapes(%a: tensor<4x3xf32>, %b: tensor<2x1x3xi64>, %s: tensor<f64>) -> (tensor<2x6xf32>, tensor<12xf32>, tensor<3x2x2xf32>, tensor<1x4x3xf32>, tensor<4x3x1xf32>, tensor<2x3xi64>, tensor<2x1x3xi64>, tensor<1xf64>, tensor<1x1xf64>) {
  %0 = tad.view %a {size = array<i64: 2, -1>} : (tensor<4x3xf32>) -> tensor<2x6xf32>
  %1 = tad.view %a {size = array<i64: 12>} : (tensor<4x3xf32>) -> tensor<12xf32>
  %2 = tad.reshape %a {shape = array<i64: 3, 2, 2>} : (tensor<4x3xf32>) -> tensor<3x2x2xf32>
  %3 = tad.unsqueeze %a {dim = 0 : i64} : (tensor<4x3xf32>) -> tensor<1x4x3xf32>
  %4 = tad.unsqueeze %a {dim = -1 : i64} : (tensor<4x3xf32>) -> tensor<4x3x1xf32>
  %5 = tad.squeeze.dim %b {dim = 1 : i64} : (tensor<2x1x3xi64>) -> tensor<2x3xi64>
  %6 = tad.squeeze.dim %b {dim = 0 : i64} : (tensor<2x1x3xi64>) -> tensor<2x1x3xi64>
  %7 = tad.reshape %s {shape = array<i64: -1>} : (tensor<f64>) -> tensor<1xf64>
  %8 = tad.view %s {size = array<i64: 1, 1>} : (tensor<f64>) -> tensor<1x1xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x6xf32>, tensor<12xf32>, tensor<3x2x2xf32>, tensor<1x4x3xf32>, tensor<4x3x1xf32>, tensor<2x3xi64>, tensor<2x1x3xi64>, tensor<1xf64>, tensor<1x1xf64>
}

// reduction defaults to 1 (mean) and is elided when printed.
func.func @mse_loss(%x: tensor<4x3xf32>, %y: tensor<3xf32>, %g: tensor<f32>, %gn: tensor<4x3xf32>, %x64: tensor<2xf64>, %g64: tensor<f64>) -> (tensor<f32>, tensor<4x3xf32>, tensor<f32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<f64>, tensor<2xf64>) {
  %0 = tad.mse_loss %x, %y : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<f32>
  %1 = tad.mse_loss %x, %y {reduction = 0 : i64} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %2 = tad.mse_loss %x, %x {reduction = 2 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  %3 = tad.mse_loss_backward %g, %x, %y {reduction = 1 : i64} : (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %4 = tad.mse_loss_backward %gn, %x, %x {reduction = 0 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = tad.mse_loss %x64, %x64 {reduction = 1 : i64} : (tensor<2xf64>, tensor<2xf64>) -> tensor<f64>
  %6 = tad.mse_loss_backward %g64, %x64, %x64 {reduction = 2 : i64} : (tensor<f64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<f32>, tensor<4x3xf32>, tensor<f32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<f64>, tensor<2xf64>
}

func.func @creation(%a: tensor<4x3xf32>, %i: tensor<2xi64>, %d: tensor<f64>) -> (tensor<4x3xf32>, tensor<2xi64>, tensor<4x3xf32>, tensor<f64>, tensor<2x3xf32>, tensor<f64>, tensor<3xi64>, tensor<2xi1>, tensor<2xi32>) {
  %0 = tad.zeros_like %a : tensor<4x3xf32>
  %1 = tad.zeros_like %i : tensor<2xi64>
  %2 = tad.full_like %a, 1.5 : tensor<4x3xf32>
  %3 = tad.full_like %d, -2.0 : tensor<f64>
  %4 = tad.constant dense<1.0> : tensor<2x3xf32>
  %5 = tad.constant dense<2.5> : tensor<f64>
  %6 = tad.constant dense<[1, 2, 3]> : tensor<3xi64>
  %7 = tad.constant dense<[true, false]> : tensor<2xi1>
  %8 = tad.constant {tad.tag = "kept"} dense<7> : tensor<2xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4x3xf32>, tensor<2xi64>, tensor<4x3xf32>, tensor<f64>, tensor<2x3xf32>, tensor<f64>, tensor<3xi64>, tensor<2xi1>, tensor<2xi32>
}
// The generic form spells out the attributes that the custom form elides.
// GENERIC-LABEL: sym_name = "defaults"
//       GENERIC: "tad.add.Tensor"(%{{.*}}, %{{.*}}) {alpha = 1.000000e+00 : f64}
//       GENERIC: "tad.rsub.Scalar"(%{{.*}}) {alpha = 1.000000e+00 : f64, other = 2.000000e+00 : f64}
//       GENERIC: "tad.addmm"(%{{.*}}, %{{.*}}, %{{.*}}) {alpha = 1.000000e+00 : f64, beta = 1.000000e+00 : f64}
//       GENERIC: "tad.sum.dim_IntList"(%{{.*}}) {keepdim = false}
//       GENERIC: "tad.expand"(%{{.*}}) {implicit = false, size = array<i64: 2, 2>}
//       GENERIC: "tad.mse_loss"(%{{.*}}, %{{.*}}) {reduction = 1 : i64}
func.func @defaults(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>, tensor<2x2xf32>, tensor<f32>) {
  %0 = tad.add.Tensor %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = tad.rsub.Scalar %a, 2.0 : tensor<2x2xf32>
  %2 = tad.addmm %a, %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = tad.sum.dim_IntList %a : (tensor<2x2xf32>) -> tensor<f32>
  %4 = tad.expand %a {size = array<i64: 2, 2>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %5 = tad.mse_loss %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<f32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>, tensor<2x2xf32>, tensor<f32>
}
