// RUN: tad-opt %s --tad-widen-low-precision --tad-to-linalg | FileCheck %s
// RUN: not tad-opt %s --tad-to-linalg 2>&1 | FileCheck %s --check-prefix=UNWIDENED

// A bf16 matrix reaches the f32 kernel through tad-widen-low-precision
// (extended, the float results rounded back); lowered without it, the op
// is an error rather than a bf16 buffer read as f32.
// CHECK-LABEL: func.func @inv_bf16(
//       CHECK:   arith.extf %{{.*}} : bf16 to f32
//       CHECK:   call @_tad_linalg_inv_f32(
//       CHECK:   arith.truncf %{{.*}} : f32 to bf16
// UNWIDENED: error: 'tad.linalg_inv_ex' op needs f32 or f64 operands for its runtime kernel (tad-widen-low-precision extends bf16 and f16 ones first)
func.func @inv_bf16(%a: tensor<3x3xbf16>) -> (tensor<3x3xbf16>, tensor<i32>) {
  %0:2 = tad.linalg_inv_ex %a : (tensor<3x3xbf16>) -> (tensor<3x3xbf16>, tensor<i32>)
  return %0#0, %0#1 : tensor<3x3xbf16>, tensor<i32>
}
