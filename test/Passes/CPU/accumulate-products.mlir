// RUN: tad-opt %s --split-input-file --tad-accumulate-products | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// The reverse sweep of a loop adds h^T dz to the carried gradient of a
// captured weight: the product accumulates into the carried value itself.
// CHECK-LABEL: func.func @carried_gradient(
//  CHECK-SAME:     %[[DW:[^:]*]]: tensor<8x4xf32>
//       CHECK:   scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[DW]])
//   CHECK-NOT:     linalg.generic
//       CHECK:     %[[NEW:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x2xf32>, tensor<2x4xf32>) outs(%[[ACC]] : tensor<8x4xf32>)
//       CHECK:     scf.yield %[[NEW]]
func.func @carried_gradient(%dw: tensor<8x4xf32>, %h: tensor<8x2xf32>,
                            %dz: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %dw) -> (tensor<8x4xf32>) {
    %e = tensor.empty() : tensor<8x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %p = linalg.matmul ins(%h, %dz : tensor<8x2xf32>, tensor<2x4xf32>)
                       outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
    %s = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%acc, %p : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %t = arith.addf %b, %a : f32
      linalg.yield %t : f32
    } -> tensor<8x4xf32>
    scf.yield %s : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Batched products too, with the product as the first term.
// CHECK-LABEL: func.func @batched(
//  CHECK-SAME:     %[[X:[^:]*]]: tensor<2x8x4xf32>
//       CHECK:   %[[R:.*]] = linalg.batch_matmul ins({{.*}}) outs(%[[X]] : tensor<2x8x4xf32>)
//       CHECK:   return %[[R]]
func.func @batched(%x: tensor<2x8x4xf32>, %a: tensor<2x8x3xf32>,
                   %b: tensor<2x3x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %p = linalg.batch_matmul ins(%a, %b : tensor<2x8x3xf32>, tensor<2x3x4xf32>)
                           outs(%z : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %s = linalg.generic {indexing_maps = [#id3, #id3, #id3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %x : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%e : tensor<2x8x4xf32>) {
  ^bb0(%p0: f32, %x0: f32, %o: f32):
    %t = arith.addf %p0, %x0 : f32
    linalg.yield %t : f32
  } -> tensor<2x8x4xf32>
  return %s : tensor<2x8x4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// Left alone: a product with another user (it is needed whole), a product
// into a nonzero init, a broadcast addend, and a difference.
// CHECK-LABEL: func.func @left_alone(
//   CHECK-COUNT-4: linalg.generic
func.func @left_alone(%x: tensor<8x4xf32>, %a: tensor<8x2xf32>,
                      %b: tensor<2x4xf32>, %bias: tensor<4xf32>)
    -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %o = linalg.fill ins(%one : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %shared = linalg.matmul ins(%a, %b : tensor<8x2xf32>, tensor<2x4xf32>)
                          outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %shared : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %t = arith.addf %u, %v : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  %ones = linalg.matmul ins(%a, %b : tensor<8x2xf32>, tensor<2x4xf32>)
                        outs(%o : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ones : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %t = arith.addf %u, %v : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  %p2 = linalg.matmul ins(%a, %b : tensor<8x2xf32>, tensor<2x4xf32>)
                      outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s2 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %p2 : tensor<4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %t = arith.addf %u, %v : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  %p3 = linalg.matmul ins(%a, %b : tensor<8x2xf32>, tensor<2x4xf32>)
                      outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %p3 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %t = arith.subf %u, %v : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  return %s0, %s1, %s2, %s3, %shared : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
