// RUN: tad-opt %s --tad-to-linalg | \
// RUN: mlir-opt --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine \
// RUN:   --convert-scf-to-cf --finalize-memref-to-llvm \
// RUN:   --convert-vector-to-llvm --convert-math-to-llvm --convert-math-to-libm \
// RUN:   --convert-arith-to-llvm \
// RUN:   --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | \
// RUN: mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_runner_utils.so | FileCheck %s

// Numeric sanity of tad-to-linalg with an upstream CPU pipeline, independent
// of tad's own pipeline: each op family runs on literal inputs and its
// printed result is compared with values computed by PyTorch's ATen ops
// (printed with 6 significant digits, as printMemref does).

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefF64(tensor<*xf64>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tad.add.Tensor %a, %b {alpha = 2.0 : f64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = tad.sub.Tensor %a, %c {alpha = 0.5 : f64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %2 = tad.mul.Tensor %b, %c : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %3 = tad.div.Tensor %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @scalar(%a: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %0 = tad.add.Scalar %a, 1.0 {alpha = 2.0 : f64} : tensor<4xf64>
  %1 = tad.sub.Scalar %a, 0.5 : tensor<4xf64>
  %2 = tad.rsub.Scalar %a, 1.0 {alpha = 2.0 : f64} : tensor<4xf64>
  %3 = tad.mul.Scalar %a, -3.0 : tensor<4xf64>
  %4 = tad.div.Scalar %a, 4.0 : tensor<4xf64>
  return %0, %1, %2, %3, %4 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}

func.func @unary(%x: tensor<6xf32>, %p: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0 = tad.neg %x : tensor<6xf32>
  %1 = tad.exp %x : tensor<6xf32>
  %2 = tad.log %p : tensor<6xf32>
  %3 = tad.tanh %x : tensor<6xf32>
  %4 = tad.sigmoid %x : tensor<6xf32>
  %5 = tad.relu %x : tensor<6xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

func.func @unary_f64(%x: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
  %0 = tad.sigmoid %x : tensor<3xf64>
  %1 = tad.tanh %x : tensor<3xf64>
  return %0, %1 : tensor<3xf64>, tensor<3xf64>
}

// The threshold itself gives 0; grad_output broadcasts over rows.
func.func @backward(%g: tensor<3xf64>, %x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %0 = tad.threshold_backward %g, %x, 0.5 : (tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = tad.tanh_backward %g, %x : (tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %2 = tad.sigmoid_backward %g, %x : (tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0, %1, %2 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}

// NaN propagates through relu and passes grad through threshold_backward.
func.func @nan(%x: tensor<2xf32>, %g: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = tad.relu %x : tensor<2xf32>
  %1 = tad.threshold_backward %g, %x, 0.0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// beta = 0 ignores self, even a NaN self.
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %bias: tensor<2xf32>, %nan: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = tad.mm %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %1 = tad.addmm %bias, %a, %b {alpha = 2.0 : f64, beta = 0.5 : f64} : (tensor<2xf32>, tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %2 = tad.addmm %nan, %a, %b {beta = 0.0 : f64} : (tensor<2x2xf32>, tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

func.func @reductions(%a: tensor<2x3x4xf64>) -> (tensor<f64>, tensor<f64>, tensor<2x1x1xf64>, tensor<3xf64>, tensor<3x1xf64>, tensor<1x3x1xf64>) {
  %0 = tad.sum %a : (tensor<2x3x4xf64>) -> tensor<f64>
  %1 = tad.mean %a : (tensor<2x3x4xf64>) -> tensor<f64>
  %2 = tad.sum.dim_IntList %a {dim = array<i64: 1, -1>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<2x1x1xf64>
  %3 = tad.mean.dim %a {dim = array<i64: 0, 2>} : (tensor<2x3x4xf64>) -> tensor<3xf64>
  %4 = tad.sum_to_size %a {size = array<i64: 3, 1>} : (tensor<2x3x4xf64>) -> tensor<3x1xf64>
  %5 = tad.mean.dim %a {dim = array<i64: 0, 2>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<1x3x1xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<f64>, tensor<f64>, tensor<2x1x1xf64>, tensor<3xf64>, tensor<3x1xf64>, tensor<1x3x1xf64>
}

func.func @reductions_f32(%a: tensor<2x3xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<1x3xf32>) {
  %0 = tad.mean %a : (tensor<2x3xf32>) -> tensor<f32>
  %1 = tad.sum.dim_IntList %a {dim = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %2 = tad.sum_to_size %a {size = array<i64: 1, 3>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0, %1, %2 : tensor<f32>, tensor<2xf32>, tensor<1x3xf32>
}

func.func @shapes(%a: tensor<2x3xf32>, %c: tensor<2x1xf32>, %d: tensor<2x3x2xf32>) -> (tensor<3x2xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>) {
  %0 = tad.t %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = tad.transpose.int %d {dim0 = 1 : i64, dim1 = -1 : i64} : (tensor<2x3x2xf32>) -> tensor<2x2x3xf32>
  %2 = tad.expand %c {size = array<i64: 2, -1, 3>} : (tensor<2x1xf32>) -> tensor<2x2x3xf32>
  %3 = tad.view %a {size = array<i64: 3, -1>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = tad.reshape %a {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  %5 = tad.unsqueeze %a {dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1x3xf32>
  %6 = tad.squeeze.dim %5 {dim = -2 : i64} : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3x2xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>
}

func.func @shapes_i64(%a: tensor<2x3xi64>) -> (tensor<3x2xi64>, tensor<2x2x3xi64>, tensor<3x2xi64>) {
  %0 = tad.t %a : (tensor<2x3xi64>) -> tensor<3x2xi64>
  %1 = tad.expand %a {size = array<i64: 2, 2, 3>} : (tensor<2x3xi64>) -> tensor<2x2x3xi64>
  %2 = tad.view %a {size = array<i64: 3, 2>} : (tensor<2x3xi64>) -> tensor<3x2xi64>
  return %0, %1, %2 : tensor<3x2xi64>, tensor<2x2x3xi64>, tensor<3x2xi64>
}

// target broadcasts over the rows of self.
func.func @losses(%x: tensor<2x3xf32>, %t: tensor<3xf32>, %g: tensor<f32>, %gn: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tad.mse_loss %x, %t {reduction = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = tad.mse_loss %x, %t : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<f32>
  %2 = tad.mse_loss %x, %t {reduction = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<f32>
  %3 = tad.mse_loss_backward %gn, %x, %t {reduction = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = tad.mse_loss_backward %g, %x, %t {reduction = 1 : i64} : (tensor<f32>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = tad.mse_loss_backward %g, %x, %t {reduction = 2 : i64} : (tensor<f32>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @losses_f64(%x: tensor<4xf64>, %t: tensor<4xf64>) -> tensor<f64> {
  %0 = tad.mse_loss %x, %t : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

func.func @creation(%a: tensor<2x2xf32>, %i: tensor<3xi64>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<3xi64>, tensor<2xf64>) {
  %0 = tad.zeros_like %a : tensor<2x2xf32>
  %1 = tad.full_like %a, -1.5 : tensor<2x2xf32>
  %2 = tad.zeros_like %i : tensor<3xi64>
  %3 = tad.constant dense<[0.25, 8.0]> : tensor<2xf64>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<3xi64>, tensor<2xf64>
}

func.func @main() {
  %in0 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %in1 = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %in2 = arith.constant dense<[[2.0], [4.0]]> : tensor<2x1xf32>
  %r3_0, %r3_1, %r3_2, %r3_3 = call @binary(%in0, %in1, %in2) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  vector.print str "binary.add\n"
  %u3_0 = tensor.cast %r3_0 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3_0) : (tensor<*xf32>) -> ()
  vector.print str "binary.sub\n"
  %u3_1 = tensor.cast %r3_1 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3_1) : (tensor<*xf32>) -> ()
  vector.print str "binary.mul\n"
  %u3_2 = tensor.cast %r3_2 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3_2) : (tensor<*xf32>) -> ()
  vector.print str "binary.div\n"
  %u3_3 = tensor.cast %r3_3 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3_3) : (tensor<*xf32>) -> ()
  %in4 = arith.constant dense<[-1.0, 0.0, 0.5, 2.0]> : tensor<4xf64>
  %r5_0, %r5_1, %r5_2, %r5_3, %r5_4 = call @scalar(%in4) : (tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>)
  vector.print str "scalar.add\n"
  %u5_0 = tensor.cast %r5_0 : tensor<4xf64> to tensor<*xf64>
  call @printMemrefF64(%u5_0) : (tensor<*xf64>) -> ()
  vector.print str "scalar.sub\n"
  %u5_1 = tensor.cast %r5_1 : tensor<4xf64> to tensor<*xf64>
  call @printMemrefF64(%u5_1) : (tensor<*xf64>) -> ()
  vector.print str "scalar.rsub\n"
  %u5_2 = tensor.cast %r5_2 : tensor<4xf64> to tensor<*xf64>
  call @printMemrefF64(%u5_2) : (tensor<*xf64>) -> ()
  vector.print str "scalar.mul\n"
  %u5_3 = tensor.cast %r5_3 : tensor<4xf64> to tensor<*xf64>
  call @printMemrefF64(%u5_3) : (tensor<*xf64>) -> ()
  vector.print str "scalar.div\n"
  %u5_4 = tensor.cast %r5_4 : tensor<4xf64> to tensor<*xf64>
  call @printMemrefF64(%u5_4) : (tensor<*xf64>) -> ()
  %in6 = arith.constant dense<[-2.0, -0.5, 0.0, 0.5, 1.0, 3.0]> : tensor<6xf32>
  %in7 = arith.constant dense<[0.5, 1.0, 2.0, 4.0, 10.0, 100.0]> : tensor<6xf32>
  %r8_0, %r8_1, %r8_2, %r8_3, %r8_4, %r8_5 = call @unary(%in6, %in7) : (tensor<6xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
  vector.print str "unary.neg\n"
  %u8_0 = tensor.cast %r8_0 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u8_0) : (tensor<*xf32>) -> ()
  vector.print str "unary.exp\n"
  %u8_1 = tensor.cast %r8_1 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u8_1) : (tensor<*xf32>) -> ()
  vector.print str "unary.log\n"
  %u8_2 = tensor.cast %r8_2 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u8_2) : (tensor<*xf32>) -> ()
  vector.print str "unary.tanh\n"
  %u8_3 = tensor.cast %r8_3 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u8_3) : (tensor<*xf32>) -> ()
  vector.print str "unary.sigmoid\n"
  %u8_4 = tensor.cast %r8_4 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u8_4) : (tensor<*xf32>) -> ()
  vector.print str "unary.relu\n"
  %u8_5 = tensor.cast %r8_5 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u8_5) : (tensor<*xf32>) -> ()
  %in9 = arith.constant dense<[-1.0, 0.0, 2.0]> : tensor<3xf64>
  %r10_0, %r10_1 = call @unary_f64(%in9) : (tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)
  vector.print str "unary_f64.sigmoid\n"
  %u10_0 = tensor.cast %r10_0 : tensor<3xf64> to tensor<*xf64>
  call @printMemrefF64(%u10_0) : (tensor<*xf64>) -> ()
  vector.print str "unary_f64.tanh\n"
  %u10_1 = tensor.cast %r10_1 : tensor<3xf64> to tensor<*xf64>
  call @printMemrefF64(%u10_1) : (tensor<*xf64>) -> ()
  %in11 = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %in12 = arith.constant dense<[[0.5, 0.25, 0.75], [-1.0, 0.9, 0.5]]> : tensor<2x3xf64>
  %r13_0, %r13_1, %r13_2 = call @backward(%in11, %in12) : (tensor<3xf64>, tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>)
  vector.print str "backward.threshold\n"
  %u13_0 = tensor.cast %r13_0 : tensor<2x3xf64> to tensor<*xf64>
  call @printMemrefF64(%u13_0) : (tensor<*xf64>) -> ()
  vector.print str "backward.tanh\n"
  %u13_1 = tensor.cast %r13_1 : tensor<2x3xf64> to tensor<*xf64>
  call @printMemrefF64(%u13_1) : (tensor<*xf64>) -> ()
  vector.print str "backward.sigmoid\n"
  %u13_2 = tensor.cast %r13_2 : tensor<2x3xf64> to tensor<*xf64>
  call @printMemrefF64(%u13_2) : (tensor<*xf64>) -> ()
  %in14 = arith.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %in15 = arith.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %r16_0, %r16_1 = call @nan(%in14, %in15) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  vector.print str "nan.relu\n"
  %u16_0 = tensor.cast %r16_0 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u16_0) : (tensor<*xf32>) -> ()
  vector.print str "nan.threshold\n"
  %u16_1 = tensor.cast %r16_1 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u16_1) : (tensor<*xf32>) -> ()
  %in17 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %in18 = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %in19 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %in20 = arith.constant dense<[[0x7FC00000, 0x7FC00000], [0x7FC00000, 0x7FC00000]]> : tensor<2x2xf32>
  %r21_0, %r21_1, %r21_2 = call @matmul(%in17, %in18, %in19, %in20) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  vector.print str "matmul.mm\n"
  %u21_0 = tensor.cast %r21_0 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u21_0) : (tensor<*xf32>) -> ()
  vector.print str "matmul.addmm\n"
  %u21_1 = tensor.cast %r21_1 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u21_1) : (tensor<*xf32>) -> ()
  vector.print str "matmul.addmm_beta0\n"
  %u21_2 = tensor.cast %r21_2 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u21_2) : (tensor<*xf32>) -> ()
  %in22 = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf64>
  %r23_0, %r23_1, %r23_2, %r23_3, %r23_4, %r23_5 = call @reductions(%in22) : (tensor<2x3x4xf64>) -> (tensor<f64>, tensor<f64>, tensor<2x1x1xf64>, tensor<3xf64>, tensor<3x1xf64>, tensor<1x3x1xf64>)
  vector.print str "reductions.sum\n"
  %u23_0 = tensor.cast %r23_0 : tensor<f64> to tensor<*xf64>
  call @printMemrefF64(%u23_0) : (tensor<*xf64>) -> ()
  vector.print str "reductions.mean\n"
  %u23_1 = tensor.cast %r23_1 : tensor<f64> to tensor<*xf64>
  call @printMemrefF64(%u23_1) : (tensor<*xf64>) -> ()
  vector.print str "reductions.sum_keepdim\n"
  %u23_2 = tensor.cast %r23_2 : tensor<2x1x1xf64> to tensor<*xf64>
  call @printMemrefF64(%u23_2) : (tensor<*xf64>) -> ()
  vector.print str "reductions.mean_dim\n"
  %u23_3 = tensor.cast %r23_3 : tensor<3xf64> to tensor<*xf64>
  call @printMemrefF64(%u23_3) : (tensor<*xf64>) -> ()
  vector.print str "reductions.sum_to_size\n"
  %u23_4 = tensor.cast %r23_4 : tensor<3x1xf64> to tensor<*xf64>
  call @printMemrefF64(%u23_4) : (tensor<*xf64>) -> ()
  vector.print str "reductions.mean_keepdim\n"
  %u23_5 = tensor.cast %r23_5 : tensor<1x3x1xf64> to tensor<*xf64>
  call @printMemrefF64(%u23_5) : (tensor<*xf64>) -> ()
  %in24 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r25_0, %r25_1, %r25_2 = call @reductions_f32(%in24) : (tensor<2x3xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<1x3xf32>)
  vector.print str "reductions_f32.mean\n"
  %u25_0 = tensor.cast %r25_0 : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u25_0) : (tensor<*xf32>) -> ()
  vector.print str "reductions_f32.sum_dim\n"
  %u25_1 = tensor.cast %r25_1 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u25_1) : (tensor<*xf32>) -> ()
  vector.print str "reductions_f32.sum_to_size\n"
  %u25_2 = tensor.cast %r25_2 : tensor<1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u25_2) : (tensor<*xf32>) -> ()
  %in26 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %in27 = arith.constant dense<[[7.0], [8.0]]> : tensor<2x1xf32>
  %in28 = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]> : tensor<2x3x2xf32>
  %r29_0, %r29_1, %r29_2, %r29_3, %r29_4, %r29_5, %r29_6 = call @shapes(%in26, %in27, %in28) : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3x2xf32>) -> (tensor<3x2xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>)
  vector.print str "shapes.t\n"
  %u29_0 = tensor.cast %r29_0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u29_0) : (tensor<*xf32>) -> ()
  vector.print str "shapes.transpose\n"
  %u29_1 = tensor.cast %r29_1 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u29_1) : (tensor<*xf32>) -> ()
  vector.print str "shapes.expand\n"
  %u29_2 = tensor.cast %r29_2 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u29_2) : (tensor<*xf32>) -> ()
  vector.print str "shapes.view\n"
  %u29_3 = tensor.cast %r29_3 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u29_3) : (tensor<*xf32>) -> ()
  vector.print str "shapes.reshape\n"
  %u29_4 = tensor.cast %r29_4 : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u29_4) : (tensor<*xf32>) -> ()
  vector.print str "shapes.unsqueeze\n"
  %u29_5 = tensor.cast %r29_5 : tensor<2x1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u29_5) : (tensor<*xf32>) -> ()
  vector.print str "shapes.squeeze\n"
  %u29_6 = tensor.cast %r29_6 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u29_6) : (tensor<*xf32>) -> ()
  %in30 = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %r31_0, %r31_1, %r31_2 = call @shapes_i64(%in30) : (tensor<2x3xi64>) -> (tensor<3x2xi64>, tensor<2x2x3xi64>, tensor<3x2xi64>)
  vector.print str "shapes_i64.t\n"
  %u31_0 = tensor.cast %r31_0 : tensor<3x2xi64> to tensor<*xi64>
  call @printMemrefI64(%u31_0) : (tensor<*xi64>) -> ()
  vector.print str "shapes_i64.expand\n"
  %u31_1 = tensor.cast %r31_1 : tensor<2x2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u31_1) : (tensor<*xi64>) -> ()
  vector.print str "shapes_i64.view\n"
  %u31_2 = tensor.cast %r31_2 : tensor<3x2xi64> to tensor<*xi64>
  call @printMemrefI64(%u31_2) : (tensor<*xi64>) -> ()
  %in32 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %in33 = arith.constant dense<[0.5, 1.0, 4.0]> : tensor<3xf32>
  %in34 = arith.constant dense<2.0> : tensor<f32>
  %in35 = arith.constant dense<[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>
  %r36_0, %r36_1, %r36_2, %r36_3, %r36_4, %r36_5 = call @losses(%in32, %in33, %in34, %in35) : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  vector.print str "losses.none\n"
  %u36_0 = tensor.cast %r36_0 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u36_0) : (tensor<*xf32>) -> ()
  vector.print str "losses.mean\n"
  %u36_1 = tensor.cast %r36_1 : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u36_1) : (tensor<*xf32>) -> ()
  vector.print str "losses.sum\n"
  %u36_2 = tensor.cast %r36_2 : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u36_2) : (tensor<*xf32>) -> ()
  vector.print str "losses.backward_none\n"
  %u36_3 = tensor.cast %r36_3 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u36_3) : (tensor<*xf32>) -> ()
  vector.print str "losses.backward_mean\n"
  %u36_4 = tensor.cast %r36_4 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u36_4) : (tensor<*xf32>) -> ()
  vector.print str "losses.backward_sum\n"
  %u36_5 = tensor.cast %r36_5 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u36_5) : (tensor<*xf32>) -> ()
  %in37 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %in38 = arith.constant dense<[0.0, 0.0, 0.0, 0.0]> : tensor<4xf64>
  %r39_0 = call @losses_f64(%in37, %in38) : (tensor<4xf64>, tensor<4xf64>) -> (tensor<f64>)
  vector.print str "losses_f64.mean\n"
  %u39_0 = tensor.cast %r39_0 : tensor<f64> to tensor<*xf64>
  call @printMemrefF64(%u39_0) : (tensor<*xf64>) -> ()
  %in40 = arith.constant dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
  %in41 = arith.constant dense<[7, 8, 9]> : tensor<3xi64>
  %r42_0, %r42_1, %r42_2, %r42_3 = call @creation(%in40, %in41) : (tensor<2x2xf32>, tensor<3xi64>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<3xi64>, tensor<2xf64>)
  vector.print str "creation.zeros_like\n"
  %u42_0 = tensor.cast %r42_0 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u42_0) : (tensor<*xf32>) -> ()
  vector.print str "creation.full_like\n"
  %u42_1 = tensor.cast %r42_1 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u42_1) : (tensor<*xf32>) -> ()
  vector.print str "creation.zeros_like_i64\n"
  %u42_2 = tensor.cast %r42_2 : tensor<3xi64> to tensor<*xi64>
  call @printMemrefI64(%u42_2) : (tensor<*xi64>) -> ()
  vector.print str "creation.constant\n"
  %u42_3 = tensor.cast %r42_3 : tensor<2xf64> to tensor<*xf64>
  call @printMemrefF64(%u42_3) : (tensor<*xf64>) -> ()
  return
}

// CHECK-LABEL: binary.add
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}21, 42, 63],
//  CHECK-NEXT: [24, 45, 66]]
// CHECK-LABEL: binary.sub
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0, 1, 2],
//  CHECK-NEXT: [2, 3, 4]]
// CHECK-LABEL: binary.mul
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}20, 40, 60],
//  CHECK-NEXT: [40, 80, 120]]
// CHECK-LABEL: binary.div
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0.5, 1, 1.5],
//  CHECK-NEXT: [1, 1.25, 1.5]]
// CHECK-LABEL: scalar.add
//       CHECK: rank = 1 offset = 0 sizes = [4] strides = {{.*}} data =
//  CHECK-NEXT: [1, 2, 2.5, 4]
// CHECK-LABEL: scalar.sub
//       CHECK: rank = 1 offset = 0 sizes = [4] strides = {{.*}} data =
//  CHECK-NEXT: [-1.5, -0.5, 0, 1.5]
// CHECK-LABEL: scalar.rsub
//       CHECK: rank = 1 offset = 0 sizes = [4] strides = {{.*}} data =
//  CHECK-NEXT: [3, 1, 0, -3]
// CHECK-LABEL: scalar.mul
//       CHECK: rank = 1 offset = 0 sizes = [4] strides = {{.*}} data =
//  CHECK-NEXT: [3, -0, -1.5, -6]
// CHECK-LABEL: scalar.div
//       CHECK: rank = 1 offset = 0 sizes = [4] strides = {{.*}} data =
//  CHECK-NEXT: [-0.25, 0, 0.125, 0.5]
// CHECK-LABEL: unary.neg
//       CHECK: rank = 1 offset = 0 sizes = [6] strides = {{.*}} data =
//  CHECK-NEXT: [2, 0.5, -0, -0.5, -1, -3]
// CHECK-LABEL: unary.exp
//       CHECK: rank = 1 offset = 0 sizes = [6] strides = {{.*}} data =
//  CHECK-NEXT: [0.135335, 0.606531, 1, 1.64872, 2.71828, 20.0855]
// CHECK-LABEL: unary.log
//       CHECK: rank = 1 offset = 0 sizes = [6] strides = {{.*}} data =
//  CHECK-NEXT: [-0.693147, 0, 0.693147, 1.38629, 2.30259, 4.60517]
// CHECK-LABEL: unary.tanh
//       CHECK: rank = 1 offset = 0 sizes = [6] strides = {{.*}} data =
//  CHECK-NEXT: [-0.964028, -0.462117, 0, 0.462117, 0.761594, 0.995055]
// CHECK-LABEL: unary.sigmoid
//       CHECK: rank = 1 offset = 0 sizes = [6] strides = {{.*}} data =
//  CHECK-NEXT: [0.119203, 0.377541, 0.5, 0.622459, 0.731059, 0.952574]
// CHECK-LABEL: unary.relu
//       CHECK: rank = 1 offset = 0 sizes = [6] strides = {{.*}} data =
//  CHECK-NEXT: [0, 0, 0, 0.5, 1, 3]
// CHECK-LABEL: unary_f64.sigmoid
//       CHECK: rank = 1 offset = 0 sizes = [3] strides = {{.*}} data =
//  CHECK-NEXT: [0.268941, 0.5, 0.880797]
// CHECK-LABEL: unary_f64.tanh
//       CHECK: rank = 1 offset = 0 sizes = [3] strides = {{.*}} data =
//  CHECK-NEXT: [-0.761594, 0, 0.964028]
// CHECK-LABEL: backward.threshold
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0, 0, 3],
//  CHECK-NEXT: [0, 2, 0]]
// CHECK-LABEL: backward.tanh
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0.75, 1.875, 1.3125],
//  CHECK-NEXT: [0, 0.38, 2.25]]
// CHECK-LABEL: backward.sigmoid
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0.25, 0.375, 0.5625],
//  CHECK-NEXT: [-2, 0.18, 0.75]]
// CHECK-LABEL: nan.relu
//       CHECK: rank = 1 offset = 0 sizes = [2] strides = {{.*}} data =
//  CHECK-NEXT: [{{-?nan}}, 1]
// CHECK-LABEL: nan.threshold
//       CHECK: rank = 1 offset = 0 sizes = [2] strides = {{.*}} data =
//  CHECK-NEXT: [5, 6]
// CHECK-LABEL: matmul.mm
//       CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}4, 5],
//  CHECK-NEXT: [10, 11]]
// CHECK-LABEL: matmul.addmm
//       CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}8.5, 11],
//  CHECK-NEXT: [20.5, 23]]
// CHECK-LABEL: matmul.addmm_beta0
//       CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}4, 5],
//  CHECK-NEXT: [10, 11]]
// CHECK-LABEL: reductions.sum
//       CHECK: rank = 0 offset = 0 sizes = [] strides = {{.*}} data =
//  CHECK-NEXT: [276]
// CHECK-LABEL: reductions.mean
//       CHECK: rank = 0 offset = 0 sizes = [] strides = {{.*}} data =
//  CHECK-NEXT: [11.5]
// CHECK-LABEL: reductions.sum_keepdim
//       CHECK: rank = 3 offset = 0 sizes = [2, 1, 1] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[\[}}66]],
//  CHECK-NEXT: {{\[\[}}210]]]
// CHECK-LABEL: reductions.mean_dim
//       CHECK: rank = 1 offset = 0 sizes = [3] strides = {{.*}} data =
//  CHECK-NEXT: [7.5, 11.5, 15.5]
// CHECK-LABEL: reductions.sum_to_size
//       CHECK: rank = 2 offset = 0 sizes = [3, 1] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}60],
//  CHECK-NEXT: [92],
//  CHECK-NEXT: [124]]
// CHECK-LABEL: reductions.mean_keepdim
//       CHECK: rank = 3 offset = 0 sizes = [1, 3, 1] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[\[}}7.5],
//  CHECK-NEXT: [11.5],
//  CHECK-NEXT: [15.5]]]
// CHECK-LABEL: reductions_f32.mean
//       CHECK: rank = 0 offset = 0 sizes = [] strides = {{.*}} data =
//  CHECK-NEXT: [3.5]
// CHECK-LABEL: reductions_f32.sum_dim
//       CHECK: rank = 1 offset = 0 sizes = [2] strides = {{.*}} data =
//  CHECK-NEXT: [6, 15]
// CHECK-LABEL: reductions_f32.sum_to_size
//       CHECK: rank = 2 offset = 0 sizes = [1, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}5, 7, 9]]
// CHECK-LABEL: shapes.t
//       CHECK: rank = 2 offset = 0 sizes = [3, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}1, 4],
//  CHECK-NEXT: [2, 5],
//  CHECK-NEXT: [3, 6]]
// CHECK-LABEL: shapes.transpose
//       CHECK: rank = 3 offset = 0 sizes = [2, 2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[\[}}0, 2, 4],
//  CHECK-NEXT: [1, 3, 5]],
//  CHECK-NEXT: {{\[\[}}6, 8, 10],
//  CHECK-NEXT: [7, 9, 11]]]
// CHECK-LABEL: shapes.expand
//       CHECK: rank = 3 offset = 0 sizes = [2, 2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[\[}}7, 7, 7],
//  CHECK-NEXT: [8, 8, 8]],
//  CHECK-NEXT: {{\[\[}}7, 7, 7],
//  CHECK-NEXT: [8, 8, 8]]]
// CHECK-LABEL: shapes.view
//       CHECK: rank = 2 offset = 0 sizes = [3, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}1, 2],
//  CHECK-NEXT: [3, 4],
//  CHECK-NEXT: [5, 6]]
// CHECK-LABEL: shapes.reshape
//       CHECK: rank = 1 offset = 0 sizes = [6] strides = {{.*}} data =
//  CHECK-NEXT: [1, 2, 3, 4, 5, 6]
// CHECK-LABEL: shapes.unsqueeze
//       CHECK: rank = 3 offset = 0 sizes = [2, 1, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[\[}}1, 2, 3]],
//  CHECK-NEXT: {{\[\[}}4, 5, 6]]]
// CHECK-LABEL: shapes.squeeze
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}1, 2, 3],
//  CHECK-NEXT: [4, 5, 6]]
// CHECK-LABEL: shapes_i64.t
//       CHECK: rank = 2 offset = 0 sizes = [3, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}1, 4],
//  CHECK-NEXT: [2, 5],
//  CHECK-NEXT: [3, 6]]
// CHECK-LABEL: shapes_i64.expand
//       CHECK: rank = 3 offset = 0 sizes = [2, 2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[\[}}1, 2, 3],
//  CHECK-NEXT: [4, 5, 6]],
//  CHECK-NEXT: {{\[\[}}1, 2, 3],
//  CHECK-NEXT: [4, 5, 6]]]
// CHECK-LABEL: shapes_i64.view
//       CHECK: rank = 2 offset = 0 sizes = [3, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}1, 2],
//  CHECK-NEXT: [3, 4],
//  CHECK-NEXT: [5, 6]]
// CHECK-LABEL: losses.none
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0.25, 1, 1],
//  CHECK-NEXT: [12.25, 16, 4]]
// CHECK-LABEL: losses.mean
//       CHECK: rank = 0 offset = 0 sizes = [] strides = {{.*}} data =
//  CHECK-NEXT: [5.75]
// CHECK-LABEL: losses.sum
//       CHECK: rank = 0 offset = 0 sizes = [] strides = {{.*}} data =
//  CHECK-NEXT: [34.5]
// CHECK-LABEL: losses.backward_none
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}1, 2, -2],
//  CHECK-NEXT: [14, 16, 8]]
// CHECK-LABEL: losses.backward_mean
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0.333333, 0.666667, -0.666667],
//  CHECK-NEXT: [2.33333, 2.66667, 1.33333]]
// CHECK-LABEL: losses.backward_sum
//       CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}2, 4, -4],
//  CHECK-NEXT: [14, 16, 8]]
// CHECK-LABEL: losses_f64.mean
//       CHECK: rank = 0 offset = 0 sizes = [] strides = {{.*}} data =
//  CHECK-NEXT: [7.5]
// CHECK-LABEL: creation.zeros_like
//       CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}0, 0],
//  CHECK-NEXT: [0, 0]]
// CHECK-LABEL: creation.full_like
//       CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = {{.*}} data =
//  CHECK-NEXT: {{\[\[}}-1.5, -1.5],
//  CHECK-NEXT: [-1.5, -1.5]]
// CHECK-LABEL: creation.zeros_like_i64
//       CHECK: rank = 1 offset = 0 sizes = [3] strides = {{.*}} data =
//  CHECK-NEXT: [0, 0, 0]
// CHECK-LABEL: creation.constant
//       CHECK: rank = 1 offset = 0 sizes = [2] strides = {{.*}} data =
//  CHECK-NEXT: [0.25, 8]
