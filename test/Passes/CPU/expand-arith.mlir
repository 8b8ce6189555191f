// RUN: tad-opt %s --tad-expand-arith | FileCheck %s

// Integer ceil/floor divisions, which arith-to-llvm cannot lower, are
// expanded; floating-point min/max stay whole for arith-to-llvm, which makes
// them llvm.maximum/llvm.minimum intrinsics (vectorizable as reductions).
// CHECK-LABEL: func.func @ops(
//   CHECK-NOT: arith.ceildivsi
//   CHECK-NOT: arith.floordivsi
//   CHECK-NOT: arith.ceildivui
//       CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
//       CHECK: arith.minimumf %{{.*}}, %{{.*}} : vector<16xf32>
//       CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f64
func.func @ops(%a: index, %b: index, %c: i32, %x: f32, %y: f32,
               %v: vector<16xf32>, %w: vector<16xf32>, %d: f64, %e: f64)
    -> (index, index, i32, f32, vector<16xf32>, f64) {
  %0 = arith.ceildivsi %a, %b : index
  %1 = arith.floordivsi %a, %b : index
  %2 = arith.ceildivui %c, %c : i32
  %3 = arith.maximumf %x, %y : f32
  %4 = arith.minimumf %v, %w : vector<16xf32>
  %5 = arith.maxnumf %d, %e : f64
  return %0, %1, %2, %3, %4, %5 : index, index, i32, f32, vector<16xf32>, f64
}
