// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 amx=1 parallel=true cores=2 l2-bytes=2097152}))' | FileCheck %s
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 amx=1 parallel=true cores=2 l2-bytes=2097152 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SCHED
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 amx=0 bf16-dot=0}))' | FileCheck %s --check-prefix=NOAMX

// A bf16 x bf16 -> f32 matmul with m, n multiples of 32 and k of 32 runs on
// AMX tiles (the machine model pins AMX on: the verdict does not depend on
// the host): B is copied into N/32 panels of K/2 rows of 32 k-pairs (two
// rows loaded as i16, interleaved), the row blocks of A run in parallel
// (two blocks of 32 rows for two cores), 2x2 C tiles stay in tile
// registers across the k loop.
// SCHED: AMX bf16: yes
// SCHED: tad schedule: linalg.matmul bf16 on AMX tiles
// SCHED: tad schedule: linalg.matmul bf16 on AMX tiles
// CHECK-LABEL: func.func @amx
// CHECK: %[[PACKED:.*]] = memref.alloc() : memref<1x2x64x64xbf16>
// CHECK: scf.parallel
// CHECK: vector.bitcast {{.*}} : vector<16xbf16> to vector<16xi16>
// CHECK: vector.interleave {{.*}} : vector<16xi16> -> vector<32xi16>
// CHECK: vector.store {{.*}}, %[[PACKED]]
// CHECK: scf.parallel (%[[M0:.*]]) = (%{{.*}}) to (%{{.*}}) step (%c32)
// CHECK: scf.for
// CHECK-COUNT-4: amx.tile_load %arg2
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (!amx.tile<16x16xf32>, !amx.tile<16x16xf32>, !amx.tile<16x16xf32>, !amx.tile<16x16xf32>)
// CHECK-COUNT-2: amx.tile_load %arg0
// CHECK-COUNT-2: amx.tile_load %[[PACKED]]
// CHECK-COUNT-4: amx.tile_mulf {{.*}} : !amx.tile<16x32xbf16>, !amx.tile<16x32xbf16>, !amx.tile<16x16xf32>
// CHECK-COUNT-4: amx.tile_store %arg2
// CHECK: memref.dealloc %[[PACKED]]
// CHECK-NOT: linalg.matmul
// NOAMX-LABEL: func.func @amx
// NOAMX-NOT: amx.
// NOAMX: vector.fma
func.func @amx(%a: memref<64x128xbf16>, %b: memref<128x64xbf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x128xbf16>, memref<128x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Sizes that are not whole 32x32 blocks are padded with zeros: A into a
// 64-row copy, C accumulated in a 64-row buffer (C's values copied in: no
// zero fill precedes the product here) whose first 48 rows are copied back.
// CHECK-LABEL: func.func @not_whole_blocks
// CHECK: %[[A:.*]] = memref.alloc() : memref<64x128xbf16>
// CHECK: linalg.fill ins(%{{.*}} : bf16) outs(%[[A]] : memref<64x128xbf16>)
// CHECK: %[[AC:.*]] = memref.subview %[[A]][0, 0] [48, 128] [1, 1]
// CHECK: linalg.copy ins(%arg0 : memref<48x128xbf16>) outs(%[[AC]]
// CHECK: %[[C:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<64x64xf32>)
// CHECK: %[[CC:.*]] = memref.subview %[[C]][0, 0] [48, 64] [1, 1]
// CHECK: linalg.copy ins(%arg2 : memref<48x64xf32>) outs(%[[CC]]
// CHECK: amx.tile_load %[[A]]
// CHECK: amx.tile_mulf
// CHECK: linalg.copy ins(%[[CC]] : memref<48x64xf32, strided<[64, 1]>>) outs(%arg2 : memref<48x64xf32>)
// NOAMX-LABEL: func.func @not_whole_blocks
// NOAMX: arith.extf
// NOAMX: vector.fma
func.func @not_whole_blocks(%a: memref<48x128xbf16>, %b: memref<128x64xbf16>, %c: memref<48x64xf32>) {
  linalg.matmul ins(%a, %b : memref<48x128xbf16>, memref<128x64xbf16>) outs(%c : memref<48x64xf32>)
  return
}

// -----

// f32 matmuls never use AMX.
// CHECK-LABEL: func.func @f32
// CHECK-NOT: amx.
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A zero fill of C just before the product becomes zeroed accumulator
// tiles (no memset, C written once); A stored (k, m) (a weight gradient's
// transpose) is copied into the plain layout first; B stored (n, k) (the
// forward product's W^T), whole panels, is packed from its rows: 16 rows
// of 16 k-pairs at a time, transposed as 32-bit words by 4 rounds of 16
// two-source shuffles.
// CHECK-LABEL: func.func @zero_filled_transposed
// CHECK-NOT: linalg.fill
// CHECK: linalg.transpose ins(%arg0 : memref<128x64xbf16>) outs(%{{.*}} : memref<64x128xbf16>) permutation = [1, 0]
// CHECK-NOT: linalg.transpose
// CHECK: %[[PACKED:.*]] = memref.alloc() : memref<1x3x64x64xbf16>
// CHECK: scf.parallel (%[[N0:.*]]) = (%c0) to (%c96) step (%c32)
// CHECK: scf.for %[[KK0:.*]] = %c0 to %c64 step %c16
// CHECK-COUNT-16: vector.load %arg1[{{.*}}] : memref<96x128xbf16>, vector<32xbf16>
// CHECK: vector.shuffle {{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23] : vector<16xf32>, vector<16xf32>
// CHECK-NEXT: vector.shuffle {{.*}} [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
// CHECK-COUNT-62: vector.shuffle
// CHECK: vector.store {{.*}}, %[[PACKED]][%c0, %{{.*}}, %[[KK0]], %c0] : memref<1x3x64x64xbf16>, vector<32xbf16>
// CHECK-COUNT-4: amx.tile_zero : !amx.tile<16x16xf32>
// CHECK-NOT: amx.tile_load %arg2
// CHECK: amx.tile_mulf
func.func @zero_filled_transposed(%a: memref<128x64xbf16>, %b: memref<96x128xbf16>, %c: memref<64x96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x96xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<128x64xbf16>, memref<96x128xbf16>) outs(%c : memref<64x96xf32>)
  return
}

// -----

// Batches run in parallel, each matrix a rank-reduced subview.
// CHECK-LABEL: func.func @batched
// CHECK: memref.alloc() : memref<4x2x32x64xbf16>
// CHECK: scf.parallel (%[[B:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: vector.load %arg1[%[[B]],
// CHECK: scf.parallel (%[[B2:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: memref.subview %arg0[%[[B2]], 0, 0] [1, 32, 64] [1, 1, 1] : memref<4x32x64xbf16> to memref<32x64xbf16, strided<[64, 1], offset: ?>>
// CHECK: amx.tile_mulf
func.func @batched(%a: memref<4x32x64xbf16>, %b: memref<4x64x64xbf16>, %c: memref<4x32x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x32x64xbf16>, memref<4x64x64xbf16>) outs(%c : memref<4x32x64xf32>)
  return
}

// -----

// A long reduction into a small C (K = 8200 >= 4 max(M, N), packed B 1 MB
// > half of L2) streams B: the panels in groups, one per core (one panel
// each here), each group packs blocks of kc = 5440 rows of its panels
// (l2 / 2 / (2 (M + 32)) rounded down to 32) into its own buffer and every
// C block of the group accumulates them; the last block has 2760 rows of B
// (1380 k-pairs) and 24 zero rows (k padded to 8224, like A's copy). The
// zero fill of C stays (C accumulates across the blocks).
// CHECK-LABEL: func.func @streamed
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<64x64xf32>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<64x8224xbf16>
// CHECK-NOT: memref<1x2x
// CHECK: scf.parallel
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<1x1x2720x64xbf16>
// CHECK: scf.for %{{.*}} = %c0 to %c2720 step %c1
// CHECK: vector.interleave
// CHECK: vector.store {{.*}}, %[[BUF]]
// CHECK: amx.tile_load %[[A]]
// CHECK: amx.tile_load %[[BUF]]
// CHECK: amx.tile_mulf
// CHECK: amx.tile_store %arg2
// CHECK: scf.for %{{.*}} = %c0 to %c1380 step %c1
// CHECK: vector.store {{.*}}, %[[BUF]][%c0, %{{.*}}, %c1380, %c0]
// CHECK: vector.store {{.*}}, %[[BUF]][%c0, %{{.*}}, %c1391, %c32]
// CHECK: amx.tile_mulf
// CHECK: memref.dealloc %[[BUF]]
// CHECK-NOT: linalg.matmul
// NOAMX-LABEL: func.func @streamed
func.func @streamed(%a: memref<64x8200xbf16>, %b: memref<8200x64xbf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x8200xbf16>, memref<8200x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Streaming a batch_matmul whose A is shared by the batches (batch stride
// 0: a bf16 convolution's weight gradient over its kernel rows): inside
// each block of rows of B, the batches one after the other, each packing
// its own B block (A's block stays in L2 for all of them).
// CHECK-LABEL: func.func @streamed_batches
// CHECK: scf.parallel
// CHECK: memref.alloc() : memref<1x1x2720x64xbf16>
// CHECK: scf.for %[[BATCH:.*]] = %c0 to %c3 step %c1
// CHECK: memref.subview %arg0[%[[BATCH]], 0, 0] [1, 64, 8320] [1, 1, 1] : memref<3x64x8320xbf16, strided<[0, 8320, 1]>> to memref<64x8320xbf16, strided<[8320, 1]>>
// CHECK: memref.subview %arg2[%[[BATCH]], 0, 0]
// CHECK: vector.load %arg1[%[[BATCH]], 
// CHECK: vector.interleave
// CHECK: amx.tile_mulf
// CHECK-NOT: linalg.batch_matmul
func.func @streamed_batches(%a: memref<3x64x8320xbf16, strided<[0, 8320, 1]>>, %b: memref<3x8320x64xbf16>, %c: memref<3x64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x64x8320xbf16, strided<[0, 8320, 1]>>, memref<3x8320x64xbf16>) outs(%c : memref<3x64x64xf32>)
  return
}
