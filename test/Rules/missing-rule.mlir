// An op without a derivative rule is reported where it is used, only when
// its derivative is needed.
// RUN: rm -f %t.so
// RUN: not tadc %s --vjp=f -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// RUN: tadc %s --vjp=g --emit=mlir -o - | FileCheck %s --check-prefix=UNNEEDED

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: missing-rule.mlir:[[@LINE+1]]:8: error: 'math.exp' op has no reverse-mode (VJP) derivative rule (add one with --rules)
  %0 = math.exp %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// The math op only touches a non-differentiable argument here.
// UNNEEDED-LABEL: func.func @g_vjp
func.func @g(%x: tensor<3xf32>, %c: tensor<3xf32> {tad.nondiff}) -> tensor<3xf32> {
  %0 = math.exp %c : tensor<3xf32>
  %1 = tad.mul.Tensor %x, %0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
