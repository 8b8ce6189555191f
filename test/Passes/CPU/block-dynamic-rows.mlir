// RUN: tad-opt %s --tad-block-dynamic-rows="row-block=16 large-block=0" --split-input-file | FileCheck %s

// Rows of A and C dynamic: full blocks of 16 rows on subviews, the rest in
// zero-padded 16-row buffers, copied back.
// CHECK-LABEL: func.func @rows
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[M:.*]] = memref.dim %arg0, %{{.*}}
// CHECK:         %[[FULL:.*]] = arith.divui %[[M]], %[[C16]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[FULL]]
// CHECK:           linalg.matmul ins(%{{.*}}, %arg1 : memref<16x8xf32, strided<[8, 1], offset: ?>>, memref<8x4xf32>) outs(%{{.*}} : memref<16x4xf32, strided<[4, 1], offset: ?>>)
// CHECK:         scf.if
// CHECK:           %[[A:.*]] = memref.alloc() : memref<16x8xf32>
// CHECK:           linalg.fill
// CHECK:           memref.copy
// CHECK:           %[[C:.*]] = memref.alloc() : memref<16x4xf32>
// CHECK:           linalg.fill
// CHECK:           memref.copy
// CHECK:           linalg.matmul ins(%[[A]], %arg1 : memref<16x8xf32>, memref<8x4xf32>) outs(%[[C]] : memref<16x4xf32>)
// CHECK:           memref.copy
// CHECK:           memref.dealloc %[[A]]
// CHECK:           memref.dealloc %[[C]]
// CHECK-NOT:     linalg.matmul
func.func @rows(%a: memref<?x8xf32>, %b: memref<8x4xf32>, %c: memref<?x4xf32>) {
  linalg.matmul ins(%a, %b : memref<?x8xf32>, memref<8x4xf32>) outs(%c : memref<?x4xf32>)
  return
}

// -----

// The reduction dynamic (a weight gradient x^T @ dy over a dynamic batch):
// blocks of both inputs' rows accumulate into the static output; the
// padded rows are zeros and add nothing; C is not copied.
// CHECK-LABEL: func.func @reduction
// CHECK:         scf.for
// CHECK:           linalg.matmul indexing_maps = {{.*}} ins(%{{.*}}, %{{.*}} : memref<16x8xf32, strided<[8, 1], offset: ?>>, memref<16x4xf32, strided<[4, 1], offset: ?>>) outs(%arg2 : memref<8x4xf32>)
// CHECK:         scf.if
// CHECK:           linalg.matmul indexing_maps = {{.*}} ins(%{{.*}}, %{{.*}} : memref<16x8xf32>, memref<16x4xf32>) outs(%arg2 : memref<8x4xf32>)
// CHECK-NOT:       memref.copy %{{.*}}, %arg2
func.func @reduction(%x: memref<?x8xf32>, %dy: memref<?x4xf32>, %dw: memref<8x4xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%x, %dy : memref<?x8xf32>, memref<?x4xf32>) outs(%dw : memref<8x4xf32>)
  return
}

// -----

// A zero fill of the reduction's output just before it: the first block
// that runs writes the output after a copy of the fill (the pair is one
// kernel whose tiles start from the fill value, not a load of zeroed
// memory); the other blocks of its size follow in the loop; the padded
// last block fills first unless a block ran; with no rows at all, the
// fill alone runs.
// CHECK-LABEL: func.func @reduction_filled
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK-NOT:     linalg.fill
// CHECK:         %[[ANY:.*]] = arith.cmpi ugt, %[[FULL:.*]], %{{.*}}
// CHECK:         %[[WRITES:.*]] = arith.andi %[[ANY]]
// CHECK:         scf.if %[[WRITES]] {
// CHECK-NEXT:      linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<8x4xf32>)
// CHECK-NEXT:      %[[SV:.*]] = memref.subview
// CHECK-NEXT:      %[[SV2:.*]] = memref.subview
// CHECK-NEXT:      linalg.matmul indexing_maps = {{.*}} ins(%[[SV]], %[[SV2]] : memref<16x8xf32, strided<[8, 1], offset: ?>>, memref<16x4xf32, strided<[4, 1], offset: ?>>) outs(%arg2 : memref<8x4xf32>)
// CHECK:         %[[LOWER:.*]] = arith.select %[[WRITES]]
// CHECK:         %[[STARTED:.*]] = arith.ori %[[FALSE]], %[[ANY]]
// CHECK:         scf.for %{{.*}} = %[[LOWER]] to %[[FULL]]
// CHECK:           linalg.matmul indexing_maps = {{.*}} outs(%arg2 : memref<8x4xf32>)
// CHECK:         scf.if
// CHECK:           scf.if %[[STARTED]] {
// CHECK-NEXT:        linalg.matmul indexing_maps = {{.*}} ins(%{{.*}}, %{{.*}} : memref<16x8xf32>, memref<16x4xf32>) outs(%arg2 : memref<8x4xf32>)
// CHECK-NEXT:      } else {
// CHECK-NEXT:        linalg.fill
// CHECK-NEXT:        linalg.matmul indexing_maps = {{.*}} ins(%{{.*}}, %{{.*}} : memref<16x8xf32>, memref<16x4xf32>) outs(%arg2 : memref<8x4xf32>)
// CHECK:         } else {
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      %[[NONE:.*]] = arith.xori %[[STARTED]], %[[TRUE]]
// CHECK-NEXT:      scf.if %[[NONE]] {
// CHECK-NEXT:        linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<8x4xf32>)
func.func @reduction_filled(%x: memref<?x8xf32>, %dy: memref<?x4xf32>, %dw: memref<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%dw : memref<8x4xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%x, %dy : memref<?x8xf32>, memref<?x4xf32>) outs(%dw : memref<8x4xf32>)
  return
}

// -----

// Static shapes, two dynamic sizes, or a dynamic column: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     scf.for
// CHECK-COUNT-3: linalg.matmul
func.func @unchanged(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>,
                     %d: memref<?x?xf32>, %e: memref<?x4xf32>,
                     %f: memref<4x?xf32>, %g: memref<8x?xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%d, %b : memref<?x?xf32>, memref<8x4xf32>) outs(%e : memref<?x4xf32>)
  linalg.matmul ins(%a, %g : memref<4x8xf32>, memref<8x?xf32>) outs(%f : memref<4x?xf32>)
  return
}
