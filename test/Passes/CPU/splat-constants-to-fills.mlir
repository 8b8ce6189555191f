// RUN: tad-opt %s --tad-splat-constants-to-fills | FileCheck %s
// RUN: tad-opt %s --tad-splat-constants-to-fills=min-bytes=8 | FileCheck %s --check-prefix=SMALL

// A splat larger than 64 KiB becomes a fill of an empty tensor.
// CHECK-LABEL: func.func @large_zero(
//       CHECK:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
//       CHECK:   %[[EMPTY:.*]] = tensor.empty() : tensor<2147483648xf64>
//       CHECK:   %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%[[EMPTY]] : tensor<2147483648xf64>)
//       CHECK:   return %[[FILL]]
func.func @large_zero() -> tensor<2147483648xf64> {
  %0 = arith.constant dense<0.0> : tensor<2147483648xf64>
  return %0 : tensor<2147483648xf64>
}

// Small splats and non-splat constants stay constants (with min-bytes=8,
// the 4-element i32 splat is 16 bytes and becomes a fill).
// CHECK-LABEL: func.func @small(
//       CHECK:   arith.constant dense<3> : tensor<4xi32>
//       CHECK:   arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
//   CHECK-NOT:   linalg.fill
// SMALL-LABEL: func.func @small(
//       SMALL:   linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<4xi32>)
//       SMALL:   arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
func.func @small() -> (tensor<4xi32>, tensor<2xf32>) {
  %0 = arith.constant dense<3> : tensor<4xi32>
  %1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0, %1 : tensor<4xi32>, tensor<2xf32>
}
