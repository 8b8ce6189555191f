// RUN: tad-opt %s --tad-to-linalg | FileCheck %s
// RUN: tad-opt %s --tad-to-linalg --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=FUSED

// Broadcast indexing maps: missing leading dimensions are dropped, size-1
// dimensions that broadcast are read at index 0.
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ROW0:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$SCALAR2:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$B3A:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$B3B:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-DAG: #[[$ID1:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$KEEP0:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$KEEP1_3:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[$SCALAR0:.+]] = affine_map<() -> ()>

//===----------------------------------------------------------------------===//
// Binary ops with broadcasting
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add_broadcast(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<4x3xf32>, %[[B:[^:]+]]: tensor<3xf32>)
//   CHECK-NOT:   tad.
//       CHECK:   %[[INIT:.+]] = tensor.empty() : tensor<4x3xf32>
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ID2]], #[[$COL]], #[[$ID2]]]
//  CHECK-SAME:       iterator_types = ["parallel", "parallel"]
//  CHECK-SAME:       ins(%[[A]], %[[B]] : tensor<4x3xf32>, tensor<3xf32>) outs(%[[INIT]] : tensor<4x3xf32>)
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[ALPHA:.+]] = arith.constant 2.000000e+00 : f32
//  CHECK-NEXT:     %[[AY:.+]] = arith.mulf %[[Y]], %[[ALPHA]] : f32
//  CHECK-NEXT:     %[[S:.+]] = arith.addf %[[X]], %[[AY]] : f32
//  CHECK-NEXT:     linalg.yield %[[S]] : f32
//       CHECK:   return %[[R]]
func.func @add_broadcast(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = tad.add.Tensor %a, %b {alpha = 2.0 : f64} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Both operands broadcast; f64.
// CHECK-LABEL: func.func @mul_broadcast_both(
//       CHECK:   linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$B3A]], #[[$B3B]], #[[$ID3]]]
//  CHECK-SAME:       iterator_types = ["parallel", "parallel", "parallel"]
//  CHECK-SAME:       outs(%{{.+}} : tensor<2x4x3xf64>)
//       CHECK:     arith.mulf %{{.+}}, %{{.+}} : f64
func.func @mul_broadcast_both(%a: tensor<4x1xf64>, %b: tensor<2x1x3xf64>) -> tensor<2x4x3xf64> {
  %0 = tad.mul.Tensor %a, %b : (tensor<4x1xf64>, tensor<2x1x3xf64>) -> tensor<2x4x3xf64>
  return %0 : tensor<2x4x3xf64>
}

// A rank-0 operand reads the same element everywhere; alpha = 1 adds no mulf.
// CHECK-LABEL: func.func @sub_rank0(
//       CHECK:   linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$SCALAR2]], #[[$ID2]], #[[$ID2]]]
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[D:.+]] = arith.subf %[[X]], %[[Y]] : f32
//  CHECK-NEXT:     linalg.yield %[[D]]
func.func @sub_rank0(%a: tensor<f32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tad.sub.Tensor %a, %b : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @div_broadcast_column(
//       CHECK:   linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ID2]], #[[$ROW0]], #[[$ID2]]]
//       CHECK:     arith.divf
func.func @div_broadcast_column(%a: tensor<4x3xf32>, %b: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %0 = tad.div.Tensor %a, %b : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// Tensor-scalar ops: the Scalar is an arith.constant of the element type
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scalars(
//       CHECK:   ^bb0(%[[X:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[C:.+]] = arith.constant 1.000000e+00 : f64
//  CHECK-NEXT:     arith.addf %[[X]], %[[C]] : f64
//       CHECK:   ^bb0(%[[X:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[C:.+]] = arith.constant 3.000000e+00 : f64
//  CHECK-NEXT:     arith.subf %[[X]], %[[C]] : f64
//       CHECK:   ^bb0(%[[X:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[C:.+]] = arith.constant 1.000000e+00 : f64
//  CHECK-NEXT:     %[[C2:.+]] = arith.constant 2.000000e+00 : f64
//  CHECK-NEXT:     %[[AX:.+]] = arith.mulf %[[X]], %[[C2]] : f64
//  CHECK-NEXT:     arith.subf %[[C]], %[[AX]] : f64
//       CHECK:   ^bb0(%[[X:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[C:.+]] = arith.constant -5.000000e-01 : f64
//  CHECK-NEXT:     arith.mulf %[[X]], %[[C]] : f64
//       CHECK:   ^bb0(%[[X:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[C:.+]] = arith.constant 4.000000e+00 : f64
//  CHECK-NEXT:     arith.divf %[[X]], %[[C]] : f64
func.func @scalars(%a: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) {
  %0 = tad.add.Scalar %a, 2.0 {alpha = 0.5 : f64} : tensor<3xf64>
  %1 = tad.sub.Scalar %a, 1.5 {alpha = 2.0 : f64} : tensor<3xf64>
  %2 = tad.rsub.Scalar %a, 1.0 {alpha = 2.0 : f64} : tensor<3xf64>
  %3 = tad.mul.Scalar %a, -0.5 : tensor<3xf64>
  %4 = tad.div.Scalar %a, 4.0 : tensor<3xf64>
  return %0, %1, %2, %3, %4 : tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>
}

//===----------------------------------------------------------------------===//
// Unary math and activations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary(
//       CHECK:   indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]
//       CHECK:     arith.negf
//       CHECK:     math.exp
//       CHECK:     math.log
//       CHECK:     math.tanh
// sigmoid = 1 / (1 + exp(-x))
//       CHECK:   ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
//  CHECK-NEXT:     %[[N:.+]] = arith.negf %[[X]] : f32
//  CHECK-NEXT:     %[[E:.+]] = math.exp %[[N]] : f32
//  CHECK-NEXT:     %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
//  CHECK-NEXT:     %[[S:.+]] = arith.divf %[[ONE]], %[[D]] : f32
//  CHECK-NEXT:     linalg.yield %[[S]]
// relu propagates NaN: maximumf, not maxnumf.
//       CHECK:   ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[Z:.+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:     %[[M:.+]] = arith.maximumf %[[X]], %[[Z]] : f32
//  CHECK-NEXT:     linalg.yield %[[M]]
func.func @unary(%a: tensor<7xf32>) -> (tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) {
  %0 = tad.neg %a : tensor<7xf32>
  %1 = tad.exp %a : tensor<7xf32>
  %2 = tad.log %a : tensor<7xf32>
  %3 = tad.tanh %a : tensor<7xf32>
  %4 = tad.sigmoid %a : tensor<7xf32>
  %5 = tad.relu %a : tensor<7xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>
}

//===----------------------------------------------------------------------===//
// Activation backward ops
//===----------------------------------------------------------------------===//

// threshold_backward: self <= threshold ? 0 : grad (ordered compare: at the
// threshold the gradient is 0, a NaN self passes grad through).
// CHECK-LABEL: func.func @backward(
//       CHECK:   linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ROW0]], #[[$ID2]], #[[$ID2]]]
//  CHECK-NEXT:   ^bb0(%[[G:.+]]: f64, %[[X:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[T:.+]] = arith.constant 5.000000e-01 : f64
//  CHECK-NEXT:     %[[Z:.+]] = arith.constant 0.000000e+00 : f64
//  CHECK-NEXT:     %[[LE:.+]] = arith.cmpf ole, %[[X]], %[[T]] : f64
//  CHECK-NEXT:     %[[R:.+]] = arith.select %[[LE]], %[[Z]], %[[G]] : f64
//  CHECK-NEXT:     linalg.yield %[[R]]
// tanh_backward: g * (1 - y * y)
//       CHECK:   ^bb0(%[[G:.+]]: f64, %[[Y:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[ONE:.+]] = arith.constant 1.000000e+00 : f64
//  CHECK-NEXT:     %[[YY:.+]] = arith.mulf %[[Y]], %[[Y]] : f64
//  CHECK-NEXT:     %[[D:.+]] = arith.subf %[[ONE]], %[[YY]] : f64
//  CHECK-NEXT:     %[[R:.+]] = arith.mulf %[[G]], %[[D]] : f64
//  CHECK-NEXT:     linalg.yield %[[R]]
// sigmoid_backward: g * (1 - y) * y
//       CHECK:   ^bb0(%[[G:.+]]: f64, %[[Y:.+]]: f64, %{{.+}}: f64):
//  CHECK-NEXT:     %[[ONE:.+]] = arith.constant 1.000000e+00 : f64
//  CHECK-NEXT:     %[[D:.+]] = arith.subf %[[ONE]], %[[Y]] : f64
//  CHECK-NEXT:     %[[GD:.+]] = arith.mulf %[[G]], %[[D]] : f64
//  CHECK-NEXT:     %[[R:.+]] = arith.mulf %[[GD]], %[[Y]] : f64
//  CHECK-NEXT:     linalg.yield %[[R]]
func.func @backward(%g: tensor<4x1xf64>, %y: tensor<4x3xf64>) -> (tensor<4x3xf64>, tensor<4x3xf64>, tensor<4x3xf64>) {
  %0 = tad.threshold_backward %g, %y, 0.5 : (tensor<4x1xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %1 = tad.tanh_backward %g, %y : (tensor<4x1xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %2 = tad.sigmoid_backward %g, %y : (tensor<4x1xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  return %0, %1, %2 : tensor<4x3xf64>, tensor<4x3xf64>, tensor<4x3xf64>
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mm(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<4x3xf32>, %[[B:[^:]+]]: tensor<3x5xf32>)
//   CHECK-DAG:   %[[Z:.+]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[E:.+]] = tensor.empty() : tensor<4x5xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x5xf32>)
//       CHECK:   %[[P:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x3xf32>, tensor<3x5xf32>) outs(%[[F]] : tensor<4x5xf32>)
//       CHECK:   return %[[P]]
func.func @mm(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = tad.mm %a, %b : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// addmm: matmul, then beta * self (broadcast) + alpha * product.
// CHECK-LABEL: func.func @addmm(
//  CHECK-SAME:     %[[S:[^:]+]]: tensor<5xf32>, %[[A:[^:]+]]: tensor<4x3xf32>, %[[B:[^:]+]]: tensor<3x5xf32>)
//       CHECK:   %[[P:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}})
//       CHECK:   linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$COL]], #[[$ID2]], #[[$ID2]]]
//  CHECK-SAME:       ins(%[[S]], %[[P]] : tensor<5xf32>, tensor<4x5xf32>)
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[BETA:.+]] = arith.constant 5.000000e-01 : f32
//  CHECK-NEXT:     %[[BX:.+]] = arith.mulf %[[X]], %[[BETA]] : f32
//  CHECK-NEXT:     %[[ALPHA:.+]] = arith.constant 2.000000e+00 : f32
//  CHECK-NEXT:     %[[AY:.+]] = arith.mulf %[[Y]], %[[ALPHA]] : f32
//  CHECK-NEXT:     arith.addf %[[BX]], %[[AY]] : f32
func.func @addmm(%s: tensor<5xf32>, %a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = tad.addmm %s, %a, %b {alpha = 2.0 : f64, beta = 0.5 : f64} : (tensor<5xf32>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// beta = 0 ignores self (as ATen: NaN in self does not propagate).
// CHECK-LABEL: func.func @addmm_beta_zero(
//       CHECK:   %[[P:.+]] = linalg.matmul
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[P]]
func.func @addmm_beta_zero(%s: tensor<2x2xf64>, %a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %0 = tad.addmm %s, %a, %a {beta = 0.0 : f64} : (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0 : tensor<2x2xf64>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @sum_all(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<4x3xf32>)
//   CHECK-DAG:   %[[Z:.+]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[E:.+]] = tensor.empty() : tensor<f32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<f32>)
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ID2]], #[[$SCALAR2]]]
//  CHECK-SAME:       iterator_types = ["reduction", "reduction"]
//  CHECK-SAME:       ins(%[[A]] : tensor<4x3xf32>) outs(%[[F]] : tensor<f32>)
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: f32, %[[ACC:.+]]: f32):
//  CHECK-NEXT:     %[[S:.+]] = arith.addf %[[X]], %[[ACC]] : f32
//  CHECK-NEXT:     linalg.yield %[[S]]
//       CHECK:   return %[[R]]
func.func @sum_all(%a: tensor<4x3xf32>) -> tensor<f32> {
  %0 = tad.sum %a : (tensor<4x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @sum_dim_keepdim(
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ID3]], #[[$KEEP1_3]]]
//  CHECK-SAME:       iterator_types = ["reduction", "parallel", "reduction"]
//  CHECK-SAME:       outs(%{{.+}} : tensor<3xf64>)
//       CHECK:   %[[K:.+]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf64> into tensor<1x3x1xf64>
//       CHECK:   return %[[K]]
func.func @sum_dim_keepdim(%a: tensor<2x3x4xf64>) -> tensor<1x3x1xf64> {
  %0 = tad.sum.dim_IntList %a {dim = array<i64: -1, 0>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<1x3x1xf64>
  return %0 : tensor<1x3x1xf64>
}

// CHECK-LABEL: func.func @sum_dim(
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ID2]], #[[$KEEP0]]]
//  CHECK-SAME:       iterator_types = ["parallel", "reduction"]
//   CHECK-NOT:   tensor.expand_shape
//       CHECK:   return %[[R]]
func.func @sum_dim(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  %0 = tad.sum.dim_IntList %a {dim = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Summing over no dimension (a rank-0 tensor) is the identity.
// CHECK-LABEL: func.func @sum_rank0(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<f32>)
//  CHECK-NEXT:   return %[[A]]
func.func @sum_rank0(%a: tensor<f32>) -> tensor<f32> {
  %0 = tad.sum %a : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// mean divides the sum by the number of reduced elements.
// CHECK-LABEL: func.func @mean_all(
//       CHECK:   %[[S:.+]] = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
//       CHECK:   %[[M:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$SCALAR0]], #[[$SCALAR0]]], iterator_types = []
//  CHECK-SAME:       ins(%[[S]] : tensor<f32>)
//       CHECK:     %[[N:.+]] = arith.constant 1.200000e+01 : f32
//  CHECK-NEXT:     arith.divf %{{.+}}, %[[N]] : f32
//       CHECK:   return %[[M]]
func.func @mean_all(%a: tensor<4x3xf32>) -> tensor<f32> {
  %0 = tad.mean %a : (tensor<4x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @mean_dim_keepdim(
//       CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
//       CHECK:   %[[M:.+]] = linalg.generic
//       CHECK:     arith.constant 3.000000e+00 : f32
//       CHECK:   tensor.expand_shape %[[M]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @mean_dim_keepdim(%a: tensor<4x3xf32>) -> tensor<4x1xf32> {
  %0 = tad.mean.dim %a {dim = array<i64: 1>, keepdim = true} : (tensor<4x3xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// sum_to_size reduces over the leading dimension and the size-1 one, then
// reshapes to the size.
// CHECK-LABEL: func.func @sum_to_size(
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ID3]], #[[$KEEP1_3]]]
//  CHECK-SAME:       iterator_types = ["reduction", "parallel", "reduction"]
//       CHECK:   tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
func.func @sum_to_size(%a: tensor<2x3x4xf32>) -> tensor<3x1xf32> {
  %0 = tad.sum_to_size %a {size = array<i64: 3, 1>} : (tensor<2x3x4xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

// The squared difference is computed inside the reduction; target broadcasts.
// CHECK-LABEL: func.func @mse_loss_mean(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<4x3xf32>, %[[T:[^:]+]]: tensor<3xf32>)
//       CHECK:   %[[S:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$ID2]], #[[$COL]], #[[$SCALAR2]]]
//  CHECK-SAME:       iterator_types = ["reduction", "reduction"]
//  CHECK-SAME:       ins(%[[X]], %[[T]] : tensor<4x3xf32>, tensor<3xf32>)
//  CHECK-NEXT:   ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[ACC:.+]]: f32):
//  CHECK-NEXT:     %[[D:.+]] = arith.subf %[[A]], %[[B]] : f32
//  CHECK-NEXT:     %[[SQ:.+]] = arith.mulf %[[D]], %[[D]] : f32
//  CHECK-NEXT:     %[[ADD:.+]] = arith.addf %[[SQ]], %[[ACC]] : f32
//  CHECK-NEXT:     linalg.yield %[[ADD]]
//       CHECK:   linalg.generic {{.*}} ins(%[[S]] : tensor<f32>)
//       CHECK:     arith.constant 1.200000e+01 : f32
func.func @mse_loss_mean(%x: tensor<4x3xf32>, %t: tensor<3xf32>) -> tensor<f32> {
  %0 = tad.mse_loss %x, %t : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @mse_loss_none_and_sum(
//       CHECK:   linalg.generic {{.*}} iterator_types = ["parallel"]
//       CHECK:     arith.subf
//       CHECK:     arith.mulf
//       CHECK:   linalg.generic {{.*}} iterator_types = ["reduction"]
//   CHECK-NOT:   arith.divf
//       CHECK:   return
func.func @mse_loss_none_and_sum(%x: tensor<3xf64>, %t: tensor<3xf64>) -> (tensor<3xf64>, tensor<f64>) {
  %0 = tad.mse_loss %x, %t {reduction = 0 : i64} : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %1 = tad.mse_loss %x, %t {reduction = 2 : i64} : (tensor<3xf64>, tensor<3xf64>) -> tensor<f64>
  return %0, %1 : tensor<3xf64>, tensor<f64>
}

// mse_loss_backward: (2 / numel) * (self - target) * grad for the mean;
// the rank-0 grad broadcasts.
// CHECK-LABEL: func.func @mse_loss_backward(
//       CHECK:   linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$SCALAR2]], #[[$ID2]], #[[$COL]], #[[$ID2]]]
//  CHECK-NEXT:   ^bb0(%[[G:.+]]: f32, %[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[D:.+]] = arith.subf %[[A]], %[[B]] : f32
//  CHECK-NEXT:     %[[NORM:.+]] = arith.constant 0.166666{{[0-9]+}} : f32
//  CHECK-NEXT:     %[[ND:.+]] = arith.mulf %[[NORM]], %[[D]] : f32
//  CHECK-NEXT:     %[[R:.+]] = arith.mulf %[[ND]], %[[G]] : f32
//  CHECK-NEXT:     linalg.yield %[[R]]
// sum: 2 * (self - target) * grad
//       CHECK:     arith.constant 2.000000e+00 : f32
func.func @mse_loss_backward(%g: tensor<f32>, %x: tensor<4x3xf32>, %t: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = tad.mse_loss_backward %g, %x, %t {reduction = 1 : i64} : (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1 = tad.mse_loss_backward %g, %x, %t {reduction = 2 : i64} : (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %0, %1 : tensor<4x3xf32>, tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transposes(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<4x3xf32>, %[[V:[^:]+]]: tensor<5xi64>, %[[C:[^:]+]]: tensor<2x3x4xf64>)
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<3x4xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[A]] : tensor<4x3xf32>) outs(%[[E]] : tensor<3x4xf32>) permutation = [1, 0]
//       CHECK:   %[[T3:.+]] = linalg.transpose ins(%[[C]] : tensor<2x3x4xf64>) outs(%{{.+}} : tensor<4x3x2xf64>) permutation = [2, 1, 0]
//       CHECK:   return %[[T]], %[[V]], %[[T3]], %[[C]]
func.func @transposes(%a: tensor<4x3xf32>, %v: tensor<5xi64>, %c: tensor<2x3x4xf64>) -> (tensor<3x4xf32>, tensor<5xi64>, tensor<4x3x2xf64>, tensor<2x3x4xf64>) {
  %0 = tad.t %a : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %1 = tad.t %v : (tensor<5xi64>) -> tensor<5xi64>
  %2 = tad.transpose.int %c {dim0 = -1 : i64, dim1 = 0 : i64} : (tensor<2x3x4xf64>) -> tensor<4x3x2xf64>
  %3 = tad.transpose.int %c {dim0 = 1 : i64, dim1 = -2 : i64} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<5xi64>, tensor<4x3x2xf64>, tensor<2x3x4xf64>
}

// expand is a broadcasting copy (also for integers).
// CHECK-LABEL: func.func @expand(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<4x1xi32>)
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x4x3xi32>
//       CHECK:   %[[R:.+]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[$B3A]], #[[$ID3]]]
//  CHECK-SAME:       iterator_types = ["parallel", "parallel", "parallel"]
//  CHECK-SAME:       ins(%[[A]] : tensor<4x1xi32>) outs(%[[E]] : tensor<2x4x3xi32>)
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
//  CHECK-NEXT:     linalg.yield %[[X]] : i32
//       CHECK:   return %[[R]]
func.func @expand(%a: tensor<4x1xi32>) -> tensor<2x4x3xi32> {
  %0 = tad.expand %a {size = array<i64: 2, -1, 3>} : (tensor<4x1xi32>) -> tensor<2x4x3xi32>
  return %0 : tensor<2x4x3xi32>
}

// Direct reassociations where they exist, through 1-D otherwise.
// CHECK-LABEL: func.func @reshapes(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<4x3xf32>, %[[B:[^:]+]]: tensor<2x1x3xi1>, %[[S:[^:]+]]: tensor<f64>)
//       CHECK:   %[[V0:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<4x3xf32> into tensor<12xf32>
//       CHECK:   %[[V1:.+]] = tensor.expand_shape %[[A]] {{\[\[}}0, 1], [2]] output_shape [2, 2, 3] : tensor<4x3xf32> into tensor<2x2x3xf32>
//       CHECK:   %[[F:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<4x3xf32> into tensor<12xf32>
//       CHECK:   %[[V2:.+]] = tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [2, 6] : tensor<12xf32> into tensor<2x6xf32>
//       CHECK:   %[[V3:.+]] = tensor.expand_shape %[[A]] {{\[\[}}0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf32> into tensor<1x4x3xf32>
//       CHECK:   %[[V4:.+]] = tensor.collapse_shape %[[B]] {{\[\[}}0], [1, 2]] : tensor<2x1x3xi1> into tensor<2x3xi1>
//       CHECK:   %[[V5:.+]] = tensor.expand_shape %[[S]] [] output_shape [1, 1] : tensor<f64> into tensor<1x1xf64>
//       CHECK:   return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[B]], %[[V5]]
func.func @reshapes(%a: tensor<4x3xf32>, %b: tensor<2x1x3xi1>, %s: tensor<f64>) -> (tensor<12xf32>, tensor<2x2x3xf32>, tensor<2x6xf32>, tensor<1x4x3xf32>, tensor<2x3xi1>, tensor<2x1x3xi1>, tensor<1x1xf64>) {
  %0 = tad.view %a {size = array<i64: -1>} : (tensor<4x3xf32>) -> tensor<12xf32>
  %1 = tad.reshape %a {shape = array<i64: 2, 2, 3>} : (tensor<4x3xf32>) -> tensor<2x2x3xf32>
  %2 = tad.view %a {size = array<i64: 2, 6>} : (tensor<4x3xf32>) -> tensor<2x6xf32>
  %3 = tad.unsqueeze %a {dim = 0 : i64} : (tensor<4x3xf32>) -> tensor<1x4x3xf32>
  %4 = tad.squeeze.dim %b {dim = 1 : i64} : (tensor<2x1x3xi1>) -> tensor<2x3xi1>
  %5 = tad.squeeze.dim %b {dim = 0 : i64} : (tensor<2x1x3xi1>) -> tensor<2x1x3xi1>
  %6 = tad.view %s {size = array<i64: 1, 1>} : (tensor<f64>) -> tensor<1x1xf64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<12xf32>, tensor<2x2x3xf32>, tensor<2x6xf32>, tensor<1x4x3xf32>, tensor<2x3xi1>, tensor<2x1x3xi1>, tensor<1x1xf64>
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @creation(
//   CHECK-DAG:   %[[Z:.+]] = arith.constant 0 : i64
//   CHECK-DAG:   %[[E:.+]] = tensor.empty() : tensor<2xi64>
//       CHECK:   %[[ZL:.+]] = linalg.fill ins(%[[Z]] : i64) outs(%[[E]] : tensor<2xi64>)
//   CHECK-DAG:   %[[V:.+]] = arith.constant 1.500000e+00 : f32
//   CHECK-DAG:   %[[E2:.+]] = tensor.empty() : tensor<4x3xf32>
//       CHECK:   %[[FL:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[E2]] : tensor<4x3xf32>)
//       CHECK:   %[[C:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>
//       CHECK:   return %[[ZL]], %[[FL]], %[[C]]
func.func @creation(%i: tensor<2xi64>, %a: tensor<4x3xf32>) -> (tensor<2xi64>, tensor<4x3xf32>, tensor<2xf64>) {
  %0 = tad.zeros_like %i : tensor<2xi64>
  %1 = tad.full_like %a, 1.5 : tensor<4x3xf32>
  %2 = tad.constant dense<[1.0, 2.0]> : tensor<2xf64>
  return %0, %1, %2 : tensor<2xi64>, tensor<4x3xf32>, tensor<2xf64>
}

// zeros_like is the one op lowered at any shape (the zero derivatives of
// loops with a run-time trip count): sizes from tensor.dim.
// CHECK-LABEL: func.func @zeros_like_dynamic
//       CHECK:   %[[D:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x3xf64>
//       CHECK:   %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x3xf64>
//       CHECK:   linalg.fill ins(%{{.+}} : f64) outs(%[[E]] : tensor<?x3xf64>)
func.func @zeros_like_dynamic(%x: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = tad.zeros_like %x : tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}

//===----------------------------------------------------------------------===//
// Fusion: elementwise chains (broadcasts included) fuse into one generic
//===----------------------------------------------------------------------===//

// FUSED-LABEL: func.func @fusible_chain(
//       FUSED:   linalg.generic
//  FUSED-SAME:       iterator_types = ["reduction", "reduction"]
//       FUSED:     arith.addf
//       FUSED:     arith.maximumf
//       FUSED:     arith.mulf
//       FUSED:     arith.addf
//   FUSED-NOT:   linalg.generic
//       FUSED:   return
func.func @fusible_chain(%x: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %0 = tad.add.Tensor %x, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1 = tad.relu %0 : tensor<4x3xf32>
  %2 = tad.mul.Tensor %1, %1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = tad.sum %2 : (tensor<4x3xf32>) -> tensor<f32>
  return %3 : tensor<f32>
}

// repeat with a dynamic size that is repeated once: the result has it where
// self does (a new leading dimension is static).
// CHECK-LABEL: func.func @repeat_dynamic
//       CHECK:   %[[D:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x4xf64>
//       CHECK:   %[[E:.+]] = tensor.empty(%[[D]]) : tensor<2x?x8xf64>
//       CHECK:   linalg.generic {{.*}} ins(%arg0 : tensor<?x4xf64>) outs(%[[E]] : tensor<2x?x8xf64>)
func.func @repeat_dynamic(%x: tensor<?x4xf64>) -> tensor<2x?x8xf64> {
  %0 = tad.repeat %x {repeats = array<i64: 2, 1, 2>} : (tensor<?x4xf64>) -> tensor<2x?x8xf64>
  return %0 : tensor<2x?x8xf64>
}
