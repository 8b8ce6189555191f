// RUN: tad-opt --tad-check-indices %s | FileCheck %s

// Before each op that reads or writes at computed positions: the least and
// the greatest index, and a call of __tad_fail_index if either is out of
// the range of the dimension indexed. The site is a 96-byte constant.

// CHECK:       func.func private @__tad_fail_index(i64, i64, i64, memref<96xi8>)
// CHECK-LABEL: func.func @embedding
// CHECK:         %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%arg1 : tensor<4xi64>)
// CHECK:           arith.minsi
// CHECK:           arith.maxsi
// CHECK:         %[[LEAST:.*]] = tensor.extract %[[R]]#0[]
// CHECK:         %[[MOST:.*]] = tensor.extract %[[R]]#1[]
// CHECK-DAG:     %[[LO:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[HI:.*]] = arith.constant 5 : i64
// CHECK:         %[[BELOW:.*]] = arith.cmpi slt, %[[LEAST]], %[[LO]]
// CHECK:         %[[ABOVE:.*]] = arith.cmpi sge, %[[MOST]], %[[HI]]
// CHECK:         %[[BAD:.*]] = arith.ori %[[BELOW]], %[[ABOVE]]
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[V:.*]] = arith.select %[[BELOW]], %[[LEAST]], %[[MOST]]
// CHECK:           %[[SITE:.*]] = memref.get_global @[[G:__tad_index_site[_0-9]*]] : memref<96xi8>
// CHECK:           func.call @__tad_fail_index(%[[V]], %[[LO]], %[[HI]], %[[SITE]])
// CHECK:         }
// CHECK:         tad.embedding
func.func @embedding(%w: tensor<5x3xf64>, %i: tensor<4xi64>) -> tensor<4x3xf64> {
  %0 = tad.embedding %w, %i : (tensor<5x3xf64>, tensor<4xi64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// index.Tensor wraps negative indices: [-size, size), per indexed dim.
// CHECK-LABEL: func.func @index
// CHECK-DAG:     arith.constant -5 : i64
// CHECK-DAG:     arith.constant 5 : i64
// CHECK:         scf.if
// CHECK-DAG:     arith.constant -3 : i64
// CHECK-DAG:     arith.constant 3 : i64
// CHECK:         scf.if
// CHECK:         tad.index.Tensor
func.func @index(%x: tensor<5x3xf64>, %i: tensor<2xi64>, %j: tensor<2xi64>) -> tensor<2xf64> {
  %0 = tad.index.Tensor %x, %i, %j : (tensor<5x3xf64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// nll_loss targets: ignore_index counts as 0, which is in range.
// CHECK-LABEL: func.func @nll
// CHECK:         linalg.generic
// CHECK:           %[[IGN:.*]] = arith.constant -100 : i64
// CHECK:           %[[IS:.*]] = arith.cmpi eq, %{{.*}}, %[[IGN]]
// CHECK:           arith.select %[[IS]]
// CHECK:         arith.constant 4 : i64
// CHECK:         scf.if
// CHECK:         tad.nll_loss_forward
func.func @nll(%x: tensor<3x4xf64>, %t: tensor<3xi64>) -> tensor<f64> {
  %0, %1 = tad.nll_loss_forward %x, %t {reduction = 1, ignore_index = -100} : (tensor<3x4xf64>, tensor<3xi64>) -> (tensor<f64>, tensor<f64>)
  return %0 : tensor<f64>
}

// Nothing to check: an op without indices, an empty index tensor.
// CHECK-LABEL: func.func @none
// CHECK-NOT:     scf.if
// CHECK:         tad.index_select
func.func @none(%x: tensor<3x5xf32>, %i: tensor<0xi64>) -> tensor<3x0xf32> {
  %0 = tad.index_select %x, %i {dim = 1} : (tensor<3x5xf32>, tensor<0xi64>) -> tensor<3x0xf32>
  return %0 : tensor<3x0xf32>
}

// Into a dynamic dimension (rows of a dynamic batch): the range is its
// size at run time, [-size, size) where negative indices wrap.
// CHECK-LABEL: func.func @dynamic_extent
// CHECK-SAME:    (%[[X:.*]]: tensor<?x3xf64>, %[[I:.*]]: tensor<2xi64>)
// CHECK:         %[[D:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK:         %[[HI:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK:         %[[LO:.*]] = arith.constant 0 : i64
// CHECK:         arith.cmpi slt, %{{.*}}, %[[LO]]
// CHECK:         arith.cmpi sge, %{{.*}}, %[[HI]]
// CHECK:         scf.if
// CHECK:           func.call @__tad_fail_index(%{{.*}}, %[[LO]], %[[HI]], %{{.*}})
// CHECK:         tad.index_select
// CHECK:         %[[D2:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK:         %[[HI2:.*]] = arith.index_cast %[[D2]] : index to i64
// CHECK:         %[[LO2:.*]] = arith.subi %{{.*}}, %[[HI2]] : i64
// CHECK:         scf.if
// CHECK:           func.call @__tad_fail_index(%{{.*}}, %[[LO2]], %[[HI2]], %{{.*}})
// CHECK:         tad.index.Tensor
func.func @dynamic_extent(%x: tensor<?x3xf64>, %i: tensor<2xi64>) -> (tensor<2x3xf64>, tensor<2x3xf64>) {
  %0 = tad.index_select %x, %i {dim = 0} : (tensor<?x3xf64>, tensor<2xi64>) -> tensor<2x3xf64>
  %1 = tad.index.Tensor %x, %i : (tensor<?x3xf64>, tensor<2xi64>) -> tensor<2x3xf64>
  return %0, %1 : tensor<2x3xf64>, tensor<2x3xf64>
}

// A slice whose offset is known at run time: its first and last rows in
// [0, 5) where it has any; static dimensions are left to the verifier.
// CHECK-LABEL: func.func @slice
// CHECK-SAME:    (%[[X:.*]]: tensor<5x3xf64>, %[[K:.*]]: index)
// CHECK:         %[[OFF:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK:         %[[SIZE:.*]] = arith.constant 2 : i64
// CHECK:         %[[EXTENT:.*]] = arith.constant 5 : i64
// CHECK:         %[[LAST:.*]] = arith.addi %[[OFF]]
// CHECK:         %[[LEAST:.*]] = arith.minsi %[[OFF]], %[[LAST]]
// CHECK:         %[[MOST:.*]] = arith.maxsi %[[OFF]], %[[LAST]]
// CHECK:         arith.cmpi sge, %[[MOST]], %[[EXTENT]]
// CHECK:         scf.if
// CHECK:           func.call @__tad_fail_index
// CHECK-NOT:     scf.if
// CHECK:         tensor.extract_slice
func.func @slice(%x: tensor<5x3xf64>, %k: index) -> tensor<2x3xf64> {
  %0 = tensor.extract_slice %x[%k, 0] [2, 3] [1, 1] : tensor<5x3xf64> to tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// The sites: the op and its location, NUL-padded.
// CHECK: memref.global "private" constant @__tad_index_site : memref<96xi8> = dense<[116, 97, 100, 46, 101, 109, 98,
