// RUN: tadc %s --vjp=f --emit=linalg -O1 -o - | FileCheck %s
// RUN: tadc %s --vjp=f --emit=linalg -O0 -o - | FileCheck %s --check-prefix=O0

// The reverse sweep of a loop multiplies by the transpose of a captured
// weight in every step; from -O1 on the transpose is computed once, before
// the reverse loop (loop-invariant code motion on the tad dialect).
// CHECK-LABEL: func.func @f_vjp(
//  CHECK-SAME:     %{{[^:]*}}: tensor<4x8xf32>, %[[U:[^:]*]]: tensor<8x8xf32>
//       CHECK:   scf.for
//       CHECK:   %[[UT:.*]] = linalg.transpose ins(%[[U]] : tensor<8x8xf32>)
//   CHECK-NOT:   linalg.transpose ins(%[[U]]
//       CHECK:   scf.for
//       CHECK:     linalg.matmul ins(%{{.*}}, %[[UT]] : tensor<4x8xf32>, tensor<8x8xf32>)
//   CHECK-NOT:   linalg.transpose ins(%[[U]]

// O0-LABEL: func.func @f_vjp(
//  O0-SAME:     %{{[^:]*}}: tensor<4x8xf32>, %[[U:[^:]*]]: tensor<8x8xf32>
//       O0:   scf.for
//       O0:   scf.for
//       O0:     linalg.transpose ins(%[[U]] : tensor<8x8xf32>)
func.func @f(%x: tensor<4x8xf32>, %u: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%h = %x) -> (tensor<4x8xf32>) {
    %m = tad.mm %h, %u : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %t = tad.tanh %m : tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
