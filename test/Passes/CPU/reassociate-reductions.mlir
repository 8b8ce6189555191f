// RUN: tad-opt %s --tad-reassociate-reductions | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The combiner of a row sum and of a row product may be reassociated; the
// elementwise work feeding them and the ops of parallel generics are left
// alone.
// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: memref<4x8xf32>, %s: memref<4xf32>, %p: memref<4xf32>, %y: memref<4x8xf32>) {
  // CHECK: linalg.generic
  // CHECK:   arith.mulf %{{.*}}, %{{.*}} : f32
  // CHECK:   arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  }
  // CHECK: linalg.generic
  // CHECK:   arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%p : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.mulf %a, %acc : f32
    linalg.yield %r : f32
  }
  // A reduction whose combiner is not an addition or a product (max): no flag.
  // CHECK: linalg.generic
  // CHECK-NOT: fastmath
  // CHECK:   arith.maximumf
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  // No reduction loop: no flag.
  // CHECK: linalg.generic
  // CHECK-NOT: fastmath
  // CHECK:   arith.addf
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}
