// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-transposes{vector-bits=512}))' | FileCheck %s
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-transposes{vector-bits=256}))' | FileCheck %s --check-prefix=AVX2
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-transposes{vector-bits=512 parallel=true min-parallel-elements=4096}))' | FileCheck %s --check-prefix=PAR

// A matrix transpose: 16x16 f32 tiles with 512-bit vectors, each read as 16
// row loads, transposed by shuffles, written as 16 row stores.
// CHECK-LABEL: func.func @matrix(
//   CHECK-NOT: linalg.transpose
//       CHECK: scf.for {{.*}} step %c16
//       CHECK: scf.for {{.*}} step %c16
// CHECK-COUNT-16: vector.load {{.*}} : memref<32x48xf32>, vector<16xf32>
//       CHECK: vector.shuffle
// CHECK-COUNT-16: vector.store {{.*}} : memref<48x32xf32>, vector<16xf32>
//   CHECK-NOT: linalg.transpose
// AVX2-LABEL: func.func @matrix(
//       AVX2: scf.for {{.*}} step %c8
//       AVX2: vector.load {{.*}} : memref<32x48xf32>, vector<8xf32>
func.func @matrix(%a: memref<32x48xf32>, %b: memref<48x32xf32>) {
  linalg.transpose ins(%a : memref<32x48xf32>) outs(%b : memref<48x32xf32>)
    permutation = [1, 0]
  return
}

// -----

// 40 rows do not divide by 16: the last 8 are a peeled, static 16x8 tile.
// CHECK-LABEL: func.func @peeled(
//   CHECK-NOT: linalg.transpose
//       CHECK: vector.store {{.*}} : memref<48x40xf32>, vector<16xf32>
//       CHECK: vector.store {{.*}} : memref<48x40xf32>, vector<8xf32>
//   CHECK-NOT: linalg.transpose
func.func @peeled(%a: memref<40x48xf32>, %b: memref<48x40xf32>) {
  linalg.transpose ins(%a : memref<40x48xf32>) outs(%b : memref<48x40xf32>)
    permutation = [1, 0]
  return
}

// -----

// Attention's K^T over batch and heads: the leading dimensions are tiled by
// one; f64 gets 8x8 tiles.
// CHECK-LABEL: func.func @batched_f64(
//   CHECK-NOT: linalg.transpose
//       CHECK: vector.load {{.*}} : memref<2x3x8x16xf64>, vector<8xf64>
//       CHECK: vector.store {{.*}} : memref<2x3x16x8xf64>, vector<8xf64>
func.func @batched_f64(%a: memref<2x3x8x16xf64>, %b: memref<2x3x16x8xf64>) {
  linalg.transpose ins(%a : memref<2x3x8x16xf64>)
    outs(%b : memref<2x3x16x8xf64>) permutation = [0, 1, 3, 2]
  return
}

// -----

// A permutation that keeps the innermost dimension copies whole rows: not
// this pass's business.
// CHECK-LABEL: func.func @rows_stay(
//       CHECK: linalg.transpose
func.func @rows_stay(%a: memref<2x64x4x16xf32>, %b: memref<2x4x64x16xf32>) {
  linalg.transpose ins(%a : memref<2x64x4x16xf32>)
    outs(%b : memref<2x4x64x16xf32>) permutation = [0, 2, 1, 3]
  return
}

// -----

// Dynamic shapes stay as they are.
// CHECK-LABEL: func.func @dynamic(
//       CHECK: linalg.transpose
func.func @dynamic(%a: memref<?x16xf32>, %b: memref<16x?xf32>) {
  linalg.transpose ins(%a : memref<?x16xf32>) outs(%b : memref<16x?xf32>)
    permutation = [1, 0]
  return
}

// -----

// With parallel: the outer tile loop of a transpose of at least
// min-parallel-elements elements is an scf.parallel over tile rows; a
// smaller one stays serial.
// PAR-LABEL: func.func @parallel_big(
// PAR: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c16)
// PAR: scf.for
// PAR: vector.shuffle
// PAR-LABEL: func.func @parallel_small(
// PAR-NOT: scf.parallel
// PAR: return
func.func @parallel_big(%x: memref<128x64xf32>, %y: memref<64x128xf32>) {
  linalg.transpose ins(%x : memref<128x64xf32>) outs(%y : memref<64x128xf32>) permutation = [1, 0]
  return
}
func.func @parallel_small(%x: memref<32x32xf32>, %y: memref<32x32xf32>) {
  linalg.transpose ins(%x : memref<32x32xf32>) outs(%y : memref<32x32xf32>) permutation = [1, 0]
  return
}
