// RUN: tad-opt %s --tad-expand-arith=expand-bf16=1 | FileCheck %s
// RUN: tad-opt %s --tad-expand-arith=expand-bf16=0 | FileCheck %s --check-prefix=KEEP

// Without AVX512-BF16, f32 -> bf16 truncations become integer arithmetic
// (round to nearest even on the bit pattern), scalar and vector alike;
// other truncations and the widening stay.
// CHECK-LABEL: func.func @truncations(
//   CHECK-NOT:   arith.truncf %{{.*}} : f32 to bf16
//   CHECK-NOT:   arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
//       CHECK:   arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
//       CHECK:   arith.shrui
//       CHECK:   arith.truncf %{{.*}} : f64 to f32
//       CHECK:   arith.extf %{{.*}} : bf16 to f32
// KEEP-LABEL: func.func @truncations(
//       KEEP:   arith.truncf %{{.*}} : f32 to bf16
//       KEEP:   arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
func.func @truncations(%s: f32, %v: vector<8xf32>, %d: f64, %b: bf16) -> (bf16, vector<8xbf16>, f32, f32) {
  %0 = arith.truncf %s : f32 to bf16
  %1 = arith.truncf %v : vector<8xf32> to vector<8xbf16>
  %2 = arith.truncf %d : f64 to f32
  %3 = arith.extf %b : bf16 to f32
  return %0, %1, %2, %3 : bf16, vector<8xbf16>, f32, f32
}
