// RUN: tad-opt %s --tad-to-linalg | FileCheck %s

// Lowering of the elementwise families of TadElementwiseOps.td: one
// all-parallel linalg.generic per op with broadcasting indexing maps;
// comparisons yield i1; dropout is a Philox mask generic (integer
// arithmetic over linalg.index) followed by the masked scaling.

// CHECK-DAG: #[[$ID1:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ROW0:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$SCALAR2:.+]] = affine_map<(d0, d1) -> ()>

// Exact gelu: x/2 * (1 + erf(x / sqrt 2)).
// CHECK-LABEL: func.func @gelu(
//       CHECK:   linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
//       CHECK:     %[[C:.+]] = arith.constant 0.707106769 : f32
//       CHECK:     %[[S:.+]] = arith.mulf %[[IN:.+]], %[[C]] : f32
//       CHECK:     %[[E:.+]] = math.erf %[[S]] : f32
//       CHECK:     arith.addf %[[E]]
//       CHECK:     linalg.yield
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tad.gelu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// NaN-propagating max then min, as ATen's clamp.
// CHECK-LABEL: func.func @clamp(
//       CHECK:   %[[LO:.+]] = arith.constant -1.000000e+00 : f64
//  CHECK-NEXT:   %[[A:.+]] = arith.maximumf %{{.+}}, %[[LO]] : f64
//  CHECK-NEXT:   %[[HI:.+]] = arith.constant 2.000000e+00 : f64
//  CHECK-NEXT:   %[[B:.+]] = arith.minimumf %[[A]], %[[HI]] : f64
//  CHECK-NEXT:   linalg.yield %[[B]] : f64
func.func @clamp(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tad.clamp %x {min = -1.0 : f64, max = 2.0 : f64} : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// Float comparisons are ordered; the result is an i1 tensor.
// CHECK-LABEL: func.func @lt(
//       CHECK:   %[[INIT:.+]] = tensor.empty() : tensor<2x3xi1>
//       CHECK:   linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]], #[[$ID2]]]
//  CHECK-SAME:       outs(%[[INIT]] : tensor<2x3xi1>)
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
//  CHECK-NEXT:     %[[R:.+]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
//  CHECK-NEXT:     linalg.yield %[[R]] : i1
func.func @lt(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = tad.lt.Tensor %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// Integer tensors compare signed.
// CHECK-LABEL: func.func @lt_int(
//       CHECK:   arith.cmpi slt, %{{.+}}, %{{.+}} : i64
func.func @lt_int(%x: tensor<3xi64>, %y: tensor<3xi64>) -> tensor<3xi1> {
  %0 = tad.lt.Tensor %x, %y : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// All three operands of where broadcast through their maps.
// CHECK-LABEL: func.func @where(
//       CHECK:   linalg.generic {indexing_maps = [#[[$ROW0]], #[[$ID2]], #[[$COL]], #[[$ID2]]]
//  CHECK-NEXT:   ^bb0(%[[C:.+]]: i1, %[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[R:.+]] = arith.select %[[C]], %[[A]], %[[B]] : f32
func.func @where(%c: tensor<2x1xi1>, %x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tad.where.self %c, %x, %y : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// masked_fill broadcasts self to the mask's shape.
// CHECK-LABEL: func.func @masked_fill(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<3xf32>, %[[M:[^:]+]]: tensor<2x3xi1>)
//       CHECK:   linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]], #[[$ID2]]]
//  CHECK-SAME:       ins(%[[M]], %[[X]] : tensor<2x3xi1>, tensor<3xf32>)
//       CHECK:     %[[V:.+]] = arith.constant -1.000000e+00 : f32
//  CHECK-NEXT:     arith.select %{{.+}}, %[[V]], %{{.+}} : f32
func.func @masked_fill(%x: tensor<3xf32>, %m: tensor<2x3xi1>) -> tensor<2x3xf32> {
  %0 = tad.masked_fill.Scalar %x, %m, -1.0 : (tensor<3xf32>, tensor<2x3xi1>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// The truth value of a float is x != 0 (unordered: NaN is true).
// CHECK-LABEL: func.func @logical_not(
//       CHECK:   %[[T:.+]] = arith.cmpf une, %{{.+}}, %{{.+}} : f32
//  CHECK-NEXT:   arith.xori %[[T]], %{{.+}} : i1
func.func @logical_not(%x: tensor<3xf32>) -> tensor<3xi1> {
  %0 = tad.logical_not %x : (tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// Philox-4x32-10 of (row-major index, key): 10 rounds of two 32x32->64-bit
// products, 53 bits to a uniform in [0, 1), kept when below 1 - p; then
// out = x * mask * 1/(1 - p).
// CHECK-LABEL: func.func @dropout(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<2x3xf32>, %[[KEY:[^:]+]]: tensor<i64>)
//       CHECK:   %[[MASK:.+]] = linalg.generic {indexing_maps = [#[[$SCALAR2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[KEY]] : tensor<i64>) outs(%{{.+}} : tensor<2x3xi1>)
//       CHECK:     linalg.index 0
//       CHECK:     linalg.index 1
//       CHECK:     arith.constant -766435501 : i32
//       CHECK:     arith.constant -845247145 : i32
//       CHECK:     arith.constant -1640531527 : i32
//       CHECK:     arith.constant -1150833019 : i32
// CHECK-COUNT-20:  arith.mului_extended
//   CHECK-NOT:     arith.mului_extended
//       CHECK:     arith.constant 11 : i64
//       CHECK:     arith.uitofp %{{.+}} : i64 to f64
//       CHECK:     arith.constant 1.1102230246251565E-16 : f64
//       CHECK:     %[[KEEP:.+]] = arith.constant 7.500000e-01 : f64
//  CHECK-NEXT:     %[[K:.+]] = arith.cmpf olt, %{{.+}}, %[[KEEP]] : f64
//  CHECK-NEXT:     linalg.yield %[[K]] : i1
//       CHECK:   %[[OUT:.+]] = linalg.generic
//  CHECK-SAME:       ins(%[[X]], %[[MASK]] : tensor<2x3xf32>, tensor<2x3xi1>)
//       CHECK:     arith.uitofp %{{.+}} : i1 to f32
//       CHECK:     arith.constant 1.33333337 : f32
//       CHECK:   return %[[OUT]], %[[MASK]]
func.func @dropout(%x: tensor<2x3xf32>, %key: tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.25 : f64} : (tensor<2x3xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %y, %m : tensor<2x3xf32>, tensor<2x3xi1>
}

// A dynamic batch: the mask's sizes and the row-major index read the
// input's size.
// CHECK-LABEL: func.func @dropout_dynamic(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<?x3xf32>, %[[KEY:[^:]+]]: tensor<i64>)
//       CHECK:   %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3xf32>
//       CHECK:   %[[N:.+]] = arith.index_cast %[[D]] : index to i64
//       CHECK:   %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?x3xi1>
//       CHECK:   linalg.generic {{.*}} ins(%[[X]], %[[KEY]] : tensor<?x3xf32>, tensor<i64>) outs(%[[E]] : tensor<?x3xi1>)
//       CHECK:     %[[I0:.+]] = arith.index_cast %{{.+}} : index to i64
//       CHECK:     arith.muli %{{.+}}, %[[N]] : i64
func.func @dropout_dynamic(%x: tensor<?x3xf32>, %key: tensor<i64>) -> (tensor<?x3xf32>, tensor<?x3xi1>) {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.25 : f64} : (tensor<?x3xf32>, tensor<i64>) -> (tensor<?x3xf32>, tensor<?x3xi1>)
  return %y, %m : tensor<?x3xf32>, tensor<?x3xi1>
}

// Eval mode: the input itself and an all-true mask.
// CHECK-LABEL: func.func @dropout_eval(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<2x3xf32>
//       CHECK:   %[[TRUE:.+]] = arith.constant true
//       CHECK:   %[[ALL:.+]] = linalg.fill ins(%[[TRUE]] : i1)
//       CHECK:   return %[[X]], %[[ALL]]
func.func @dropout_eval(%x: tensor<2x3xf32>, %key: tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %y, %m = tad.native_dropout.key %x, %key {p = 0.25 : f64, train = false} : (tensor<2x3xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %y, %m : tensor<2x3xf32>, tensor<2x3xi1>
}
