// RUN: tad-opt %s --split-input-file --tad-propagate-transposes | FileCheck %s

// Mixed precision: the weight is cast to bf16 before it is transposed for
// the forward product (half the bytes moved), and the backward product's
// transpose of that transpose cancels: W is cast once, transposed once.
// CHECK-LABEL: func.func @cast_then_transpose(
//  CHECK-SAME:     %[[W:[^:]*]]: tensor<512x784xf32>
//       CHECK:   %[[C:.*]] = linalg.generic
//  CHECK-SAME:     ins(%[[W]] : tensor<512x784xf32>) outs(%{{.*}} : tensor<512x784xbf16>)
//       CHECK:     arith.truncf
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[C]] : tensor<512x784xbf16>)
//  CHECK-SAME:     outs(%{{.*}} : tensor<784x512xbf16>)
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return %[[T]], %[[C]]
func.func @cast_then_transpose(%w: tensor<512x784xf32>)
    -> (tensor<784x512xbf16>, tensor<512x784xbf16>) {
  %e = tensor.empty() : tensor<784x512xf32>
  %wt = linalg.transpose ins(%w : tensor<512x784xf32>)
                         outs(%e : tensor<784x512xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<784x512xbf16>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<784x512xf32>) outs(%eb : tensor<784x512xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<784x512xbf16>
  %e2 = tensor.empty() : tensor<512x784xbf16>
  %back = linalg.transpose ins(%c : tensor<784x512xbf16>)
                           outs(%e2 : tensor<512x784xbf16>) permutation = [1, 0]
  return %c, %back : tensor<784x512xbf16>, tensor<512x784xbf16>
}

// -----

// An elementwise op that does not narrow stays after the transpose.
// CHECK-LABEL: func.func @widening_stays(
//       CHECK:   linalg.transpose
//       CHECK:   linalg.generic
//       CHECK:     arith.extf
func.func @widening_stays(%w: tensor<4x8xbf16>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xbf16>
  %wt = linalg.transpose ins(%w : tensor<4x8xbf16>)
                         outs(%e : tensor<8x4xbf16>) permutation = [1, 0]
  %ef = tensor.empty() : tensor<8x4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<8x4xbf16>) outs(%ef : tensor<8x4xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}

// -----

// The weight gradient of x @ W^T: transpose(round(x^T @ dY)) becomes
// round(dY^T @ x), computed in W's layout. The product's operands swap;
// dY is read transposed, x (a transpose of x^T) in place; the zero fill
// and the rounding take the transposed shape.
//   CHECK-DAG: #[[$KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
//   CHECK-DAG: #[[$KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
//   CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @weight_gradient(
//  CHECK-SAME:     %[[X:[^:]*]]: tensor<128x784xbf16>, %[[DY:[^:]*]]: tensor<128x512xbf16>
//       CHECK:   %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<512x784xf32>)
//       CHECK:   %[[P:.*]] = linalg.matmul indexing_maps = [#[[$KM]], #[[$KN]], #[[$MN]]]
//  CHECK-SAME:     ins(%[[DY]], %[[X]] : tensor<128x512xbf16>, tensor<128x784xbf16>)
//  CHECK-SAME:     outs(%[[Z]] : tensor<512x784xf32>)
//       CHECK:   %[[R:.*]] = linalg.generic
//  CHECK-SAME:     ins(%[[P]] : tensor<512x784xf32>)
//       CHECK:     arith.truncf
//       CHECK:   %[[E:.*]] = linalg.generic
//  CHECK-SAME:     ins(%[[R]] : tensor<512x784xbf16>) outs(%{{.*}} : tensor<512x784xf32>)
//       CHECK:     arith.extf
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return %[[E]]
#id = affine_map<(i, j) -> (i, j)>
func.func @weight_gradient(%x: tensor<128x784xbf16>, %dy: tensor<128x512xbf16>)
    -> tensor<512x784xf32> {
  %ex = tensor.empty() : tensor<784x128xbf16>
  %xt = linalg.transpose ins(%x : tensor<128x784xbf16>)
                         outs(%ex : tensor<784x128xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %ep = tensor.empty() : tensor<784x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ep : tensor<784x512xf32>) -> tensor<784x512xf32>
  %p = linalg.matmul ins(%xt, %dy : tensor<784x128xbf16>, tensor<128x512xbf16>)
                     outs(%z : tensor<784x512xf32>) -> tensor<784x512xf32>
  %eb = tensor.empty() : tensor<784x512xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<784x512xf32>) outs(%eb : tensor<784x512xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<784x512xbf16>
  %w = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<784x512xbf16>) outs(%ep : tensor<784x512xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<784x512xf32>
  %eg = tensor.empty() : tensor<512x784xf32>
  %g = linalg.transpose ins(%w : tensor<784x512xf32>)
                        outs(%eg : tensor<512x784xf32>) permutation = [1, 0]
  return %g : tensor<512x784xf32>
}

// -----

// f32: transpose(A @ B^T) = B @ A^T with B read in place and A transposed.
// A product that accumulates into a tensor, or that something else reads,
// keeps its transpose.
// CHECK-LABEL: func.func @f32_and_kept(
//       CHECK:   %[[P:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%arg1, %arg0 : tensor<16x8xf32>, tensor<4x8xf32>)
//  CHECK-SAME:     outs(%{{.*}} : tensor<16x4xf32>)
//       CHECK:   linalg.matmul ins(%arg0, %arg2
//       CHECK:   linalg.transpose
//       CHECK:   return %[[P]]
func.func @f32_and_kept(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>,
                        %bt: tensor<8x16xf32>, %acc: tensor<4x16xf32>)
    -> (tensor<16x4xf32>, tensor<16x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x8xf32>, tensor<16x8xf32>)
      outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %et = tensor.empty() : tensor<16x4xf32>
  %pt = linalg.transpose ins(%p : tensor<4x16xf32>)
                         outs(%et : tensor<16x4xf32>) permutation = [1, 0]
  %q = linalg.matmul ins(%a, %bt : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %qt = linalg.transpose ins(%q : tensor<4x16xf32>)
                         outs(%et : tensor<16x4xf32>) permutation = [1, 0]
  return %pt, %qt : tensor<16x4xf32>, tensor<16x4xf32>
}
