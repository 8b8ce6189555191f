// RUN: tad-opt %s --tad-block-dynamic-rows="row-block=16 large-block=64 block-work=64" --split-input-file | FileCheck %s

// A matmul over dynamic rows: blocks of 64 rows, then of half as many on
// the rest (a batch of 32 or 64 is one static block), then the
// zero-padded last rows (16 at a time).
// CHECK-LABEL: func.func @matmul_ladder
// CHECK:         scf.for
// CHECK:           linalg.matmul ins(%{{.*}}, %arg1 : memref<64x8xf32, strided<[8, 1], offset: ?>>, memref<8x4xf32>) outs(%{{.*}} : memref<64x4xf32, strided<[4, 1], offset: ?>>)
// CHECK:         scf.for
// CHECK:           linalg.matmul ins(%{{.*}}, %arg1 : memref<32x8xf32, strided<[8, 1], offset: ?>>, memref<8x4xf32>) outs(%{{.*}} : memref<32x4xf32, strided<[4, 1], offset: ?>>)
// CHECK:         scf.for
// CHECK:           linalg.matmul ins(%{{.*}}, %arg1 : memref<16x8xf32, strided<[8, 1], offset: ?>>, memref<8x4xf32>) outs(%{{.*}} : memref<16x4xf32, strided<[4, 1], offset: ?>>)
// CHECK:         scf.if
// CHECK:           linalg.matmul ins(%{{.*}}, %arg1 : memref<16x8xf32>, memref<8x4xf32>) outs(%{{.*}} : memref<16x4xf32>)
// CHECK-NOT:     linalg.matmul
func.func @matmul_ladder(%a: memref<?x8xf32>, %b: memref<8x4xf32>, %c: memref<?x4xf32>) {
  linalg.matmul ins(%a, %b : memref<?x8xf32>, memref<8x4xf32>) outs(%c : memref<?x4xf32>)
  return
}

// -----

// An elementwise op over [?, 4, 8] (32 iterations a row): blocks of 4 rows,
// then of 1 row, which leave nothing: no dynamic op remains.
// CHECK-LABEL: func.func @elementwise
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<4x4x8xf32, strided<[32, 8, 1], offset: ?>>) outs(%{{.*}} : memref<4x4x8xf32, strided<[32, 8, 1], offset: ?>>)
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>) outs(%{{.*}} : memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>)
// CHECK-NOT:     linalg.generic
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @elementwise(%x: memref<?x4x8xf32>, %y: memref<?x4x8xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x4x8xf32>) outs(%y : memref<?x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Rows of 2 iterations: blocks of 32, 8 and 2 rows; the last row, if the
// count is odd, is a dynamic op on the rest. A sum over the rows (the
// reduction is the dynamic dimension) accumulates every block into the
// same static output.
// CHECK-LABEL: func.func @small_rows_reduction
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<32x2xf32, strided<[2, 1], offset: ?>>) outs(%arg1 : memref<2xf32>)
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<8x2xf32, strided<[2, 1], offset: ?>>) outs(%arg1 : memref<2xf32>)
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<2x2xf32, strided<[2, 1], offset: ?>>) outs(%arg1 : memref<2xf32>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : memref<?x2xf32, strided<[2, 1], offset: ?>>) outs(%arg1 : memref<2xf32>)
#rows = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
func.func @small_rows_reduction(%x: memref<?x2xf32>, %s: memref<2xf32>) {
  linalg.generic {indexing_maps = [#rows, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<?x2xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %in, %acc : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// A batch matmul over a dynamic batch: blocks of 4 batches, then of one.
// CHECK-LABEL: func.func @batch_matmul
// CHECK:         scf.for
// CHECK:           linalg.batch_matmul ins(%{{.*}}, %{{.*}} : memref<4x8x16xf32, strided<[128, 16, 1], offset: ?>>, memref<4x16x8xf32, strided<[128, 8, 1], offset: ?>>) outs(%{{.*}} : memref<4x8x8xf32, strided<[64, 8, 1], offset: ?>>)
// CHECK:         scf.for
// CHECK:           linalg.batch_matmul ins(%{{.*}}, %{{.*}} : memref<1x8x16xf32, {{.*}}>, memref<1x16x8xf32, {{.*}}>) outs(%{{.*}} : memref<1x8x8xf32, {{.*}}>)
// CHECK-NOT:     linalg.batch_matmul
func.func @batch_matmul(%a: memref<?x8x16xf32>, %b: memref<?x16x8xf32>, %c: memref<?x8x8xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x8x16xf32>, memref<?x16x8xf32>) outs(%c : memref<?x8x8xf32>)
  return
}

// -----

// Left alone: a body that reads the dynamic loop index (a block would see
// the index within it), a dynamic size that is not dimension 0, two
// dynamic sizes.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     scf.for
// CHECK-COUNT-3: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
func.func @unchanged(%x: memref<?x8xf32>, %y: memref<?x8xf32>, %z: memref<8x?xf32>,
                     %u: memref<?x?xf32>, %v: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x8xf32>) outs(%y : memref<?x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %f = arith.sitofp %c : i64 to f32
    %r = arith.addf %in, %f : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x8xf32>) outs(%z : memref<8x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%u : memref<?x?xf32>) outs(%v : memref<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// Rows of 3 iterations: 64 / 3 rounds up to blocks of 32 rows, a power of
// two (a batch of 32 is one block), then 8 and 2; an odd last row is a
// dynamic op.
// CHECK-LABEL: func.func @power_of_two_blocks
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<32x3xf32, strided<[3, 1], offset: ?>>) outs(%{{.*}} : memref<32x3xf32, strided<[3, 1], offset: ?>>)
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<8x3xf32, strided<[3, 1], offset: ?>>) outs(%{{.*}} : memref<8x3xf32, strided<[3, 1], offset: ?>>)
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<2x3xf32, strided<[3, 1], offset: ?>>) outs(%{{.*}} : memref<2x3xf32, strided<[3, 1], offset: ?>>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : memref<?x3xf32, strided<[3, 1], offset: ?>>) outs(%{{.*}} : memref<?x3xf32, strided<[3, 1], offset: ?>>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @power_of_two_blocks(%x: memref<?x3xf32>, %y: memref<?x3xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x3xf32>) outs(%y : memref<?x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A fill of a contraction's output over the dynamic rows, just before it:
// each block fills its rows and multiplies (the pair is one kernel whose
// tiles start from the fill value); no fill of the whole output remains.
// CHECK-LABEL: func.func @filled_batch_matmul
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for
// CHECK-NEXT:      arith.muli
// CHECK-NEXT:      memref.subview %arg0
// CHECK-NEXT:      memref.subview %arg1
// CHECK-NEXT:      memref.subview %arg2
// CHECK-NEXT:      linalg.fill ins(%{{.*}} : f32) outs(%[[C:.*]] : memref<4x2x2xf32, strided<[4, 2, 1], offset: ?>>)
// CHECK-NEXT:      linalg.batch_matmul ins(%{{.*}}, %{{.*}} : memref<4x2x8xf32, strided<[16, 8, 1], offset: ?>>, memref<4x8x2xf32, strided<[16, 2, 1], offset: ?>>) outs(%[[C]] : memref<4x2x2xf32, strided<[4, 2, 1], offset: ?>>)
func.func @filled_batch_matmul(%a: memref<?x2x8xf32>, %b: memref<?x8x2xf32>, %c: memref<?x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x2x2xf32>)
  linalg.batch_matmul ins(%a, %b : memref<?x2x8xf32>, memref<?x8x2xf32>) outs(%c : memref<?x2x2xf32>)
  return
}
