// Compile time and code size do not depend on tensor sizes: a program over
// a 2^40-element dimension (never run) compiles, with its JVP, to as much
// code as a small one. The parallel split once searched every tile size up
// to the dimension for a divisor.
// RUN: tadc %s --jvp=f -O3 --emit=llvm -o %t.ll
// RUN: %python -c "import sys; n = sum(1 for _ in open(sys.argv[1])); print('lines:', 'few' if n < 4000 else n)" %t.ll | FileCheck %s
// CHECK: lines: few

func.func @f(%x: tensor<2x3x1099511627776xf32>) -> tensor<2x1099511627776xf32> {
  %1 = tad.amax %x {dim = array<i64: 1>} : (tensor<2x3x1099511627776xf32>) -> tensor<2x1099511627776xf32>
  return %1 : tensor<2x1099511627776xf32>
}
