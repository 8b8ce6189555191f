// RUN: tad-opt %s --tad-to-linalg -split-input-file | FileCheck %s

// Lowering of the tensor op families: reductions, batched products,
// shape ops and indexing (passes/Conversion/TadToLinalg/TadToLinalg{
// ExtremaAndStatistics,Matmul2,ViewsAndSlices,Indexing}.cpp).

// max.dim: one generic with two outputs; a later element wins only when
// strictly greater (ties keep the first index) or a NaN replacing a number.
// CHECK-LABEL: func.func @max_dim(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<4x3xf32>)
//   CHECK-NOT:   tad.
//       CHECK:   %[[NINF:.+]] = arith.constant 0xFF800000 : f32
//       CHECK:   %[[V0:.+]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.+}} : tensor<4xf32>)
//       CHECK:   %[[I0:.+]] = linalg.fill ins(%{{.+}} : i64) outs(%{{.+}} : tensor<4xi64>)
//       CHECK:   %[[R:.+]]:2 = linalg.generic
//  CHECK-SAME:       iterator_types = ["parallel", "reduction"]
//  CHECK-SAME:       ins(%[[X]] : tensor<4x3xf32>) outs(%[[V0]], %[[I0]] : tensor<4xf32>, tensor<4xi64>)
//  CHECK-NEXT:   ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32, %[[IDX:.+]]: i64):
//  CHECK-NEXT:     %[[GT:.+]] = arith.cmpf ogt, %[[IN]], %[[ACC]] : f32
//       CHECK:     %[[TAKE:.+]] = arith.ori %[[GT]], %{{.+}} : i1
//  CHECK-NEXT:     %[[V:.+]] = arith.select %[[TAKE]], %[[IN]], %[[ACC]] : f32
//  CHECK-NEXT:     %[[K:.+]] = linalg.index 1 : index
//  CHECK-NEXT:     %[[K64:.+]] = arith.index_cast %[[K]] : index to i64
//  CHECK-NEXT:     %[[I:.+]] = arith.select %[[TAKE]], %[[K64]], %[[IDX]] : i64
//  CHECK-NEXT:     linalg.yield %[[V]], %[[I]] : f32, i64
//       CHECK:   return %[[R]]#0, %[[R]]#1
func.func @max_dim(%x: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %v, %i = tad.max.dim %x {dim = 1 : i64} : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi64>)
  return %v, %i : tensor<4xf32>, tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @bmm(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<2x3x4xf32>, %[[B:[^:]+]]: tensor<2x4x5xf32>)
//       CHECK:   %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x3x5xf32>)
//       CHECK:   %[[R:.+]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%[[Z]] : tensor<2x3x5xf32>)
//       CHECK:   return %[[R]]
func.func @bmm(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = tad.bmm %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Variadic results: one extract_slice per piece.
// CHECK-LABEL: func.func @split(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<5x2xf32>)
//  CHECK-NEXT:   %[[P0:.+]] = tensor.extract_slice %[[X]][0, 0] [2, 2] [1, 1] : tensor<5x2xf32> to tensor<2x2xf32>
//  CHECK-NEXT:   %[[P1:.+]] = tensor.extract_slice %[[X]][2, 0] [2, 2] [1, 1] : tensor<5x2xf32> to tensor<2x2xf32>
//  CHECK-NEXT:   %[[P2:.+]] = tensor.extract_slice %[[X]][4, 0] [1, 2] [1, 1] : tensor<5x2xf32> to tensor<1x2xf32>
//  CHECK-NEXT:   return %[[P0]], %[[P1]], %[[P2]]
func.func @split(%x: tensor<5x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>) {
  %0:3 = tad.split.Tensor %x {split_size = 2 : i64} : (tensor<5x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>
}

// -----

// Variadic operands: inserted at running offsets.
// CHECK-LABEL: func.func @cat(
//  CHECK-SAME:     %[[A:[^:]+]]: tensor<2x3xf32>, %[[B:[^:]+]]: tensor<2x1xf32>)
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x4xf32>
//       CHECK:   %[[S0:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1]
//       CHECK:   %[[S1:.+]] = tensor.insert_slice %[[B]] into %[[S0]][0, 3] [2, 1] [1, 1]
//       CHECK:   return %[[S1]]
func.func @cat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %0 = tad.cat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Reads at computed positions: the index through an indexing map, self
// with tensor.extract.
// CHECK-LABEL: func.func @gather(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<5x3xf32>, %[[I:[^:]+]]: tensor<5x2xi64>)
//       CHECK:   linalg.generic
//  CHECK-SAME:       iterator_types = ["parallel", "parallel"]
//  CHECK-SAME:       ins(%[[I]] : tensor<5x2xi64>)
//  CHECK-NEXT:   ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
//  CHECK-NEXT:     %[[R:.+]] = linalg.index 0 : index
//  CHECK-NEXT:     %[[C:.+]] = arith.index_cast %[[IN]] : i64 to index
//  CHECK-NEXT:     %[[E:.+]] = tensor.extract %[[X]][%[[R]], %[[C]]] : tensor<5x3xf32>
//  CHECK-NEXT:     linalg.yield %[[E]] : f32
func.func @gather(%x: tensor<5x3xf32>, %j: tensor<5x2xi64>) -> tensor<5x2xf32> {
  %1 = tad.gather %x, %j {dim = 1 : i64} : (tensor<5x3xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return %1 : tensor<5x2xf32>
}

// -----

// Writes at computed positions: the index space is a reduction loop.
// CHECK-LABEL: func.func @scatter_add(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<3x4xf32>, %[[I:[^:]+]]: tensor<3x2xi64>, %[[S:[^:]+]]: tensor<3x2xf32>)
//       CHECK:   linalg.generic
//  CHECK-SAME:       iterator_types = ["parallel", "parallel", "reduction"]
//  CHECK-SAME:       ins(%[[I]], %[[S]] : tensor<3x2xi64>, tensor<3x2xf32>) outs(%[[X]] : tensor<3x4xf32>)
//       CHECK:     arith.cmpi eq
//       CHECK:     arith.select
//       CHECK:     arith.addf
func.func @scatter_add(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>, %s: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %0 = tad.scatter_add %x, %i, %s {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
