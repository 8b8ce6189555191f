// RUN: tad-opt %s --pass-pipeline='builtin.module(func.func(tad-duplicate-empty-tensors))' | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// One tensor.empty used by three ops (as CSE leaves it): each use gets its
// own, created right before the user.
// CHECK-LABEL: func.func @shared
func.func @shared(%x: tensor<8xf32>, %n: index) -> (tensor<8xf32>, tensor<8xf32>, tensor<?xf32>, tensor<?xf32>) {
  // CHECK: %[[E0:.*]] = tensor.empty() : tensor<8xf32>
  // CHECK: linalg.generic {{.*}} outs(%[[E0]] :
  // CHECK: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
  // CHECK: linalg.generic {{.*}} outs(%[[E1]] :
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.addf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  // Dynamic sizes are reused by the clones.
  // CHECK: %[[D0:.*]] = tensor.empty(%arg1) : tensor<?xf32>
  // CHECK: linalg.fill {{.*}} outs(%[[D0]] :
  // CHECK: %[[D1:.*]] = tensor.empty(%arg1) : tensor<?xf32>
  // CHECK: linalg.fill {{.*}} outs(%[[D1]] :
  %d = tensor.empty(%n) : tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %f0 = linalg.fill ins(%zero : f32) outs(%d : tensor<?xf32>) -> tensor<?xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%d : tensor<?xf32>) -> tensor<?xf32>
  return %a, %b, %f0, %f1 : tensor<8xf32>, tensor<8xf32>, tensor<?xf32>, tensor<?xf32>
}

// One zero-filled accumulator taken as the init of several matmuls (as CSE
// leaves it): each gets its own fill (bufferized in place, a memset)
// instead of a copy of one shared filled buffer per matmul.
// CHECK-LABEL: func.func @shared_fill
func.func @shared_fill(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>,
                       %c: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: %[[E0:.*]] = tensor.empty() : tensor<4x16xf32>
  // CHECK: %[[F0:.*]] = linalg.fill {{.*}} outs(%[[E0]] : tensor<4x16xf32>)
  // CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x16xf32>
  // CHECK: %[[F1:.*]] = linalg.fill {{.*}} outs(%[[E1]] : tensor<4x16xf32>)
  // CHECK: linalg.matmul {{.*}} outs(%[[F1]] :
  // CHECK: linalg.matmul {{.*}} outs(%[[F0]] :
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %q = linalg.matmul ins(%c, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %p, %q : tensor<4x16xf32>, tensor<4x16xf32>
}

// A fill that is also read keeps the original for the reads; every init
// gets its own.
// CHECK-LABEL: func.func @fill_also_read
func.func @fill_also_read(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: %[[F0:.*]] = linalg.fill
  // CHECK: %[[F1:.*]] = linalg.fill
  // CHECK: linalg.matmul {{.*}} outs(%[[F1]] :
  // CHECK: return {{.*}}, %[[F0]]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %p, %f : tensor<4x16xf32>, tensor<4x16xf32>
}
