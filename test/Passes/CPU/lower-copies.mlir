// RUN: tad-opt %s --tad-lower-copies | FileCheck %s

// A copy into a non-contiguous subview would call MLIR's memrefCopy runtime
// function: it becomes a linalg.copy.
// CHECK-LABEL: func.func @strided
//  CHECK-SAME:   (%[[SRC:.*]]: memref<4x2xf32>, %[[DST:.*]]: memref<4x3xf32>)
//       CHECK:   %[[VIEW:.*]] = memref.subview %[[DST]]
//   CHECK-NOT:   memref.copy
//       CHECK:   linalg.copy ins(%[[SRC]] : memref<4x2xf32>) outs(%[[VIEW]] : memref<4x2xf32, strided<[3, 1], offset: 1>>)
func.func @strided(%src: memref<4x2xf32>, %dst: memref<4x3xf32>) {
  %view = memref.subview %dst[0, 1] [4, 2] [1, 1] : memref<4x3xf32> to memref<4x2xf32, strided<[3, 1], offset: 1>>
  memref.copy %src, %view : memref<4x2xf32> to memref<4x2xf32, strided<[3, 1], offset: 1>>
  return
}

// Contiguous copies stay: they lower to a memcpy.
// CHECK-LABEL: func.func @contiguous
//       CHECK:   memref.copy %{{.*}}, %{{.*}} : memref<4x3xf32> to memref<4x3xf32>
//       CHECK:   memref.copy %{{.*}}, %{{.*}} : memref<2x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 3>>
//   CHECK-NOT:   linalg.copy
func.func @contiguous(%src: memref<4x3xf32>, %dst: memref<4x3xf32>, %half: memref<2x3xf32>) {
  memref.copy %src, %dst : memref<4x3xf32> to memref<4x3xf32>
  %rows = memref.subview %dst[1, 0] [2, 3] [1, 1] : memref<4x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 3>>
  memref.copy %half, %rows : memref<2x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 3>>
  return
}
