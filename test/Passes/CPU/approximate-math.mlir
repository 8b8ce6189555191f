// RUN: tad-opt %s --tad-approximate-math | FileCheck %s

// f32 tanh/exp/log/erf become arithmetic (vectorizable), scalar or vector.
// CHECK-LABEL: func.func @f32_ops(
//   CHECK-NOT: math.tanh
//   CHECK-NOT: math.exp
//   CHECK-NOT: math.log
//   CHECK-NOT: math.erf
//       CHECK: math.fma
//       CHECK: return
func.func @f32_ops(%x: f32, %v: vector<16xf32>) -> (f32, f32, f32, vector<16xf32>) {
  %0 = math.tanh %x : f32
  %1 = math.exp %0 : f32
  %2 = math.log %1 : f32
  %3 = math.erf %v : vector<16xf32>
  return %0, %1, %2, %3 : f32, f32, f32, vector<16xf32>
}

// f64 and the functions without an accurate approximation stay as they are
// (LLVM intrinsics or libm later).
// CHECK-LABEL: func.func @kept(
//       CHECK: math.tanh {{.*}} : f64
//       CHECK: math.exp {{.*}} : f64
//       CHECK: math.sin {{.*}} : f32
func.func @kept(%x: f64, %y: f32) -> (f64, f64, f32) {
  %0 = math.tanh %x : f64
  %1 = math.exp %x : f64
  %2 = math.sin %y : f32
  return %0, %1, %2 : f64, f64, f32
}
