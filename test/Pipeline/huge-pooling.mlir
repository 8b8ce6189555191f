// Average pooling over a 65536x65536 image (never run) compiles, with its
// VJP, to as much code as a small one: the 1/divisor table of avg_pool2d
// and the window weights of adaptive pooling are computed by the program,
// not stored as constants with one entry per output (2^30 here).
// RUN: tadc %s --vjp=f -O3 --emit=llvm -o %t.ll
// RUN: %python -c "import sys; n = sum(1 for _ in open(sys.argv[1])); print('lines:', 'few' if n < 8000 else n)" %t.ll | FileCheck %s
// RUN: %python -c "import sys, os; print('bytes:', 'few' if os.path.getsize(sys.argv[1]) < 2000000 else os.path.getsize(sys.argv[1]))" %t.ll | FileCheck %s --check-prefix=SIZE
// CHECK: lines: few
// SIZE: bytes: few

func.func @f(%x: tensor<1x1x65536x65536xf32>) -> tensor<f32> {
  %0 = tad.avg_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, count_include_pad = false} : (tensor<1x1x65536x65536xf32>) -> tensor<1x1x32768x32768xf32>
  %1 = tad._adaptive_avg_pool2d %x {output_size = array<i64: 4096, 4096>} : (tensor<1x1x65536x65536xf32>) -> tensor<1x1x4096x4096xf32>
  %2 = tad.sum %0 : (tensor<1x1x32768x32768xf32>) -> tensor<f32>
  %3 = tad.sum %1 : (tensor<1x1x4096x4096xf32>) -> tensor<f32>
  %4 = tad.add.Tensor %2, %3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %4 : tensor<f32>
}
