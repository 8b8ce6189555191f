// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 print-schedule=true}))' 2>/dev/null | FileCheck %s
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SCHED
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=256 vector-registers=16 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=AVX2
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=256 vector-registers=16}))' | FileCheck %s --check-prefix=NARROW
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=256 vector-registers=16 register-tile=4,24}))' | FileCheck %s --check-prefix=ROW24
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 cache-tiles=16,64,32 register-tile=4,16}))' | FileCheck %s --check-prefix=OVERRIDE
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 parallel=true pack=false}))' | FileCheck %s --check-prefix=PAR
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 cache-tiles=32,1040,64 print-schedule=true}))' 2>/dev/null | FileCheck %s --check-prefix=PACK
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 cache-tiles=32,1040,64 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=PACKSCHED
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 cache-tiles=32,1040,64 pack=false}))' | FileCheck %s --check-prefix=NOPACK
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 cache-tiles=32,128,256}))' | FileCheck %s --check-prefix=FILL
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 parallel=true cores=2 cache-tiles=8,6,256 print-schedule=true}))' 2>/dev/null | FileCheck %s --check-prefix=SPLITK
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 parallel=true cores=2 cache-tiles=8,6,256 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLITKSCHED
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 parallel=true cores=2 l2-bytes=1048576 print-schedule=true}))' 2>/dev/null | FileCheck %s --check-prefix=SMALLOUT
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 parallel=true cores=2 l2-bytes=1048576 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALLOUTSCHED
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=256 vector-registers=16 parallel=true cores=2 print-schedule=true}))' 2>/dev/null | FileCheck %s --check-prefix=BLOCKS
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=256 vector-registers=16 parallel=true cores=2 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=BLOCKSSCHED

// The default schedule for f32 with 512-bit vectors: 8x32 register tiles
// (16 accumulators), k innermost; the C tile is loaded before the k loop,
// updated with one FMA of a broadcast A element and a B row per row and
// k, and stored after it.
// SCHED: tad schedule: linalg.matmul 64x128x256 f32 (m,n,k = 64,128,256): cache tiles {{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}, register tile 8x32x1, 512-bit vectors
// With 16 vector registers (AVX2): 6x16, 12 accumulators, the two B
// vectors and a broadcast; each 16-row cache tile ends in a 4-row
// remainder tile.
// AVX2: tad schedule: linalg.matmul 64x128x256 f32 (m,n,k = 64,128,256): cache tiles {{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}, register tile 6x16x1, 256-bit vectors
// CHECK-LABEL: func.func @matmul(
//   CHECK-NOT: linalg.matmul
//       CHECK: scf.for
//       CHECK: scf.for
//       CHECK: vector.load {{.*}} : memref<64x128xf32>, vector<32xf32>
//       CHECK: scf.for {{.*}} iter_args
//       CHECK: vector.broadcast {{.*}} : f32 to vector<32xf32>
//       CHECK: vector.fma {{.*}} : vector<32xf32>
//       CHECK: scf.yield
//       CHECK: vector.store {{.*}} : memref<64x128xf32>, vector<32xf32>
// OVERRIDE-LABEL: func.func @matmul(
//       OVERRIDE: vector.fma {{.*}} : vector<16xf32>
func.func @matmul(%a: memref<64x256xf32>, %b: memref<256x128xf32>,
                  %c: memref<64x128xf32>) {
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x128xf32>)
                outs(%c : memref<64x128xf32>)
  return
}

// -----

// Register tiles that do not divide are peeled: the remainders get static
// (smaller) vectors too; nothing is left to scalar loops. Rows of a width
// that is neither a multiple of the lanes nor a power of two below them
// split (10 f64 = 8 + 2): LLVM legalizes vector<10xf64> through the stack.
// SCHED: tad schedule: linalg.matmul 20x10x7 f64 (m,n,k = 20,10,7): cache tiles 10x10x7, register tile 8x10x1
// Both parts keep their accumulators in registers across the k loop (their
// loads and stores touch different columns).
// CHECK-LABEL: func.func @peeled(
//   CHECK-NOT: linalg.matmul
//   CHECK-NOT: vector<10xf64>
//       CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x8xf64>, vector<8x2xf64>)
//   CHECK-DAG: vector.fma {{.*}} : vector<8xf64>
//   CHECK-DAG: vector.fma {{.*}} : vector<2xf64>
//   CHECK-NOT: vector<10xf64>
//   CHECK-NOT: linalg.matmul
func.func @peeled(%a: memref<20x7xf64>, %b: memref<7x10xf64>,
                  %c: memref<20x10xf64>) {
  linalg.matmul ins(%a, %b : memref<20x7xf64>, memref<7x10xf64>)
                outs(%c : memref<20x10xf64>)
  return
}

// -----

// batch_matmul: one batch at a time, the same kernel.
// SCHED: tad schedule: linalg.batch_matmul 4x16x64x32 f32
// CHECK-LABEL: func.func @batch(
//   CHECK-NOT: linalg.batch_matmul
//       CHECK: vector.fma {{.*}} : vector<32xf32>
func.func @batch(%a: memref<4x16x32xf32>, %b: memref<4x32x64xf32>,
                 %c: memref<4x16x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x16x32xf32>, memref<4x32x64xf32>)
                      outs(%c : memref<4x16x64xf32>)
  return
}

// -----

// A transposed operand (linalg.matmul with indexing maps) is scheduled the
// same way; the transposed operand's elements are read through the folded
// transfers.
// SCHED: tad schedule: linalg.matmul 32x64x16 f32
// CHECK-LABEL: func.func @transposed_b(
//   CHECK-NOT: linalg.matmul
//       CHECK: vector.fma
func.func @transposed_b(%a: memref<32x16xf32>, %bt: memref<64x16xf32>,
                        %c: memref<32x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%a, %bt : memref<32x16xf32>, memref<64x16xf32>)
                outs(%c : memref<32x64xf32>)
  return
}

// -----

// A transposed A (what tad-fold-matmul-transposes makes of the VJP's
// X^T @ dY): the column of the register tile is a row of the stored
// matrix, read one scalar per row of the tile (a broadcast load), not as
// an mr-long vector whose elements would pass through shuffles.
// SCHED: tad schedule: linalg.matmul 64x32x16 f32
// CHECK-LABEL: func.func @transposed_a(
//       CHECK: scf.for {{.*}} iter_args
//  CHECK-NEXT:   vector.load %{{.*}} : memref<16x32xf32>, vector<32xf32>
//   CHECK-NOT:   vector<8xf32>
//       CHECK:   memref.load %{{.*}} : memref<16x64xf32>
//  CHECK-NEXT:   vector.broadcast
//  CHECK-NEXT:   vector.extract
//  CHECK-NEXT:   vector.fma
func.func @transposed_a(%at: memref<16x64xf32>, %b: memref<16x32xf32>,
                        %c: memref<64x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%at, %b : memref<16x64xf32>, memref<16x32xf32>)
                outs(%c : memref<64x32xf32>)
  return
}

// -----

// With `parallel`, a contraction of 2^18 multiply-adds or more gets its
// outer cache loop (here m: 128 / 32 = 4 tiles) as an scf.parallel; the
// register loops inside stay scf.for.
// PAR-LABEL: func.func @parallel(
//       PAR: scf.parallel
//       PAR: scf.for
//       PAR: vector.fma
// PAR-LABEL: func.func @small(
//   PAR-NOT: scf.parallel
//       PAR: return
// A large contraction whose m and n fit in one cache tile (16 x 256, k =
// 1024, an LSTM step's backward) gets its n cache tile halved, so that the
// parallel loop has two iterations.
// PAR-LABEL: func.func @one_cache_tile(
//       PAR: scf.parallel (%{{.*}}) = (%c0) to (%c256) step (%c128)
// m outermost (a k x nc block of B, 1024 x 256 f32, is over half of the
// pinned 1 MiB L2): five m cache tiles would split 3 : 2 over two cores, so
// the n cache loop joins the parallel loop (5 x 25 tiles).
// PAR-LABEL: func.func @few_m_tiles(
//       PAR: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c150, %c6400) step (%c30, %c256)
//   PAR-NOT: scf.parallel
//       PAR: return
// n outermost (the 16 x 256 block of B stays in L2 for every m tile): the
// cores split the columns, each reading its own part of B.
// PAR-LABEL: func.func @n_outer(
//       PAR: scf.parallel (%{{.*}}) = (%c0) to (%c6400) step (%c256)
//       PAR: scf.for %{{.*}} = %c0 to %c150 step %c30
//   PAR-NOT: scf.parallel
//       PAR: return
func.func @parallel(%a: memref<128x256xf32>, %b: memref<256x64xf32>,
                    %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x256xf32>, memref<256x64xf32>)
                outs(%c : memref<128x64xf32>)
  return
}
func.func @small(%a: memref<64x8xf32>, %b: memref<8x32xf32>,
                 %c: memref<64x32xf32>) {
  linalg.matmul ins(%a, %b : memref<64x8xf32>, memref<8x32xf32>)
                outs(%c : memref<64x32xf32>)
  return
}
func.func @one_cache_tile(%a: memref<16x1024xf32>, %b: memref<1024x256xf32>,
                          %c: memref<16x256xf32>) {
  linalg.matmul ins(%a, %b : memref<16x1024xf32>, memref<1024x256xf32>)
                outs(%c : memref<16x256xf32>)
  return
}
func.func @few_m_tiles(%a: memref<150x1024xf32>, %b: memref<1024x6400xf32>,
                       %c: memref<150x6400xf32>) {
  linalg.matmul ins(%a, %b : memref<150x1024xf32>, memref<1024x6400xf32>)
                outs(%c : memref<150x6400xf32>)
  return
}
func.func @n_outer(%a: memref<150x16xf32>, %b: memref<16x6400xf32>,
                   %c: memref<150x6400xf32>) {
  linalg.matmul ins(%a, %b : memref<150x16xf32>, memref<16x6400xf32>)
                outs(%c : memref<150x6400xf32>)
  return
}

// -----

// The accumulators stay in registers also when the C buffer has view-like
// users elsewhere (here the extract_strided_metadata of an outlined fill, as
// tad-outline-kernels emits it): upstream's hoisting refused these and left
// a load and a store of the C tile in every k step (regression test).
// SCHED: tad schedule: linalg.matmul 64x128x256 f32
// CHECK-LABEL: func.func @c_with_view_user(
//       CHECK: memref.extract_strided_metadata
//       CHECK: call @fill
//       CHECK: scf.for {{.*}} iter_args
//   CHECK-NOT: vector.store
//       CHECK: scf.yield
//       CHECK: vector.store {{.*}} : memref<64x128xf32>, vector<32xf32>
func.func private @fill(memref<f32>, index)
func.func @c_with_view_user(%a: memref<64x256xf32>, %b: memref<256x128xf32>,
                            %c: memref<64x128xf32>) {
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %c
      : memref<64x128xf32> -> memref<f32>, index, index, index, index, index
  call @fill(%base, %offset) : (memref<f32>, index) -> ()
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x128xf32>)
                outs(%c : memref<64x128xf32>)
  return
}

// -----

// B rows a page apart (1040 f32) and m = 512 >= 8 mc: B is copied into
// 32-wide panels [33][64][32] first (the last one holds 16 columns), one
// vector per panel row, rows outermost (a small copy, on one thread), and
// the register tiles read their B rows from the panels, the peeled 16-wide
// tiles from the last panel.
// PACKSCHED: tad schedule: linalg.matmul 512x1040x64 f32 (m,n,k = 512,1040,64): cache tiles 32x1040x64, register tile 8x32x1, 512-bit vectors, n outer, B packed
// PACK-LABEL: func.func @packed_rhs(
//       PACK: %[[P:.*]] = memref.alloc() : memref<33x64x32xf32>
//       PACK: scf.for %[[ROW:.*]] = %c0 to %c64
//       PACK: scf.for %[[PANEL:.*]] = %c0 to %c32
//       PACK: %[[COL:.*]] = arith.muli %[[PANEL]], %c32
//       PACK: %[[V:.*]] = vector.load %arg1[%[[ROW]], %[[COL]]] : memref<64x1040xf32>, vector<32xf32>
//       PACK: vector.store %[[V]], %[[P]][%[[PANEL]], %[[ROW]], %c0] : memref<33x64x32xf32>, vector<32xf32>
//       PACK: vector.load %arg1[%{{.*}}, %c1024] : memref<64x1040xf32>, vector<16xf32>
//       PACK: vector.store %{{.*}}, %[[P]][%c32, %{{.*}}, %c0] : memref<33x64x32xf32>, vector<16xf32>
//   PACK-NOT: vector.load %arg1
//       PACK: vector.load %[[P]][%{{.*}}, %{{.*}}, %c0] : memref<33x64x32xf32>, vector<32xf32>
//       PACK: vector.fma {{.*}} : vector<32xf32>
//       PACK: vector.load %[[P]][%c32, %{{.*}}, %c0] : memref<33x64x32xf32>, vector<16xf32>
//       PACK: vector.fma {{.*}} : vector<16xf32>
//       PACK: memref.dealloc %[[P]]
// NOPACK-LABEL: func.func @packed_rhs(
//   NOPACK-NOT: memref.alloc
//       NOPACK: vector.load %arg1[{{.*}}] : memref<64x1040xf32>, vector<32xf32>
func.func @packed_rhs(%a: memref<512x64xf32>, %b: memref<64x1040xf32>,
                      %c: memref<512x1040xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x1040xf32>)
                outs(%c : memref<512x1040xf32>)
  return
}

// -----

// B rows of 1 KiB (256 f32): packed with 256-bit vectors, where a B
// micro-panel row is one cache line and such rows share four L1 sets; with
// 512-bit vectors rows must be a page apart (measured on Zen 4).
// SCHED: tad schedule: linalg.matmul 256x256x64 f32 {{.*}}, register tile 8x32x1, 512-bit vectors, n outer{{$}}
// CHECK-LABEL: func.func @pack_rows_1k(
// AVX2: tad schedule: linalg.matmul 256x256x64 f32 {{.*}}, register tile 6x16x1, 256-bit vectors, n outer, B packed{{$}}
func.func @pack_rows_1k(%a: memref<256x64xf32>, %b: memref<64x256xf32>,
                        %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x256xf32>)
                outs(%c : memref<256x256xf32>)
  return
}

// -----

// A transposed A (k x m, the weight gradient dY^T X) whose rows are 1 KiB
// apart is copied into panels of mc = 32 columns [8][64][32] (after B's
// panels), and the register tiles read their 8 A values per k from a panel
// row, one scalar load each. With m = 128 (rows 512 bytes apart) A stays
// where it is (with 16 rows per cache tile B still packs: 8 m tiles). With
// 16 registers the tile keeps 6 rows, which need not divide the 32-wide
// panel.
// SCHED: tad schedule: linalg.matmul 256x1024x64 f32 {{.*}}, register tile 8x32x1, 512-bit vectors, n outer, A packed, B packed
// SCHED: tad schedule: linalg.matmul 128x1024x64 f32 {{.*}}, register tile 8x32x1, 512-bit vectors, n outer{{$}}
// CHECK-LABEL: func.func @packed_lhs(
//       CHECK: memref.alloc() : memref<32x64x32xf32>
//       CHECK: %[[PA:.*]] = memref.alloc() : memref<8x64x32xf32>
//       CHECK: vector.load %arg0[%{{.*}}, %{{.*}}] : memref<64x256xf32>, vector<32xf32>
//       CHECK: vector.store %{{.*}}, %[[PA]][%{{.*}}, %{{.*}}, %c0] : memref<8x64x32xf32>, vector<32xf32>
//       CHECK: memref.load %[[PA]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<8x64x32xf32>
//       CHECK: vector.fma {{.*}} : vector<32xf32>
//       CHECK: memref.dealloc %[[PA]]
// AVX2: tad schedule: linalg.matmul 256x1024x64 f32 {{.*}}, register tile 6x16x1, 256-bit vectors, n outer, A packed, B packed
// AVX2: tad schedule: linalg.matmul 128x1024x64 f32 {{.*}}, register tile 6x16x1, 256-bit vectors, n outer, B packed{{$}}
#transposedA = affine_map<(m, n, k) -> (k, m)>
#plainB = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @packed_lhs(%a: memref<64x256xf32>, %b: memref<64x1024xf32>,
                      %c: memref<256x1024xf32>, %a2: memref<64x128xf32>,
                      %c2: memref<128x1024xf32>) {
  linalg.matmul indexing_maps = [#transposedA, #plainB, #out]
                ins(%a, %b : memref<64x256xf32>, memref<64x1024xf32>)
                outs(%c : memref<256x1024xf32>)
  linalg.matmul indexing_maps = [#transposedA, #plainB, #out]
                ins(%a2, %b : memref<64x128xf32>, memref<64x1024xf32>)
                outs(%c2 : memref<128x1024xf32>)
  return
}

// -----

// The same B with m = 256 (8 cache tiles) is packed, with m = 128 not: four
// passes over B do not repay the copy.
// PACKSCHED: tad schedule: linalg.matmul 256x1040x64 f32 {{.*}}, B packed
// PACKSCHED: tad schedule: linalg.matmul 128x1040x64 f32 {{.*}}, 512-bit vectors, n outer{{$}}
// PACK-LABEL: func.func @pack_threshold(
func.func @pack_threshold(%a: memref<256x64xf32>, %a2: memref<128x64xf32>,
                          %b: memref<64x1040xf32>, %c: memref<256x1040xf32>,
                          %c2: memref<128x1040xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x1040xf32>)
                outs(%c : memref<256x1040xf32>)
  linalg.matmul ins(%a2, %b : memref<128x64xf32>, memref<64x1040xf32>)
                outs(%c2 : memref<128x1040xf32>)
  return
}

// -----

// A fill of the output just before the matmul (tad-outline-kernels keeps
// the two together): in the first step of the k cache loop the register
// tiles start from the fill value instead of loading the output, and the
// fill goes (each register tile stores its part of the output).
// FILL-LABEL: func.func @filled(
//   FILL-NOT: linalg.fill
//       FILL: scf.for %[[M:.*]] = %c0 to %c64 step %c32
//       FILL: scf.for %[[K:.*]] = %c0 to %c512 step %c256
//       FILL: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %c0
//       FILL: %[[ACC:.*]] = scf.if %[[FIRST]] -> (vector<8x32xf32>) {
//  FILL-NEXT: scf.yield %cst : vector<8x32xf32>
//  FILL-NEXT: } else {
//       FILL: vector.load %arg2
//       FILL: scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
//       FILL: vector.fma
//       FILL: vector.store {{.*}}, %arg2
//   FILL-NOT: linalg.fill
func.func @filled(%a: memref<64x512xf32>, %b: memref<512x128xf32>,
                  %c: memref<64x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x128xf32>)
  linalg.matmul ins(%a, %b : memref<64x512xf32>, memref<512x128xf32>)
                outs(%c : memref<64x128xf32>)
  return
}

// -----

// Parallel, but m and n are one cache tile: k is split over the two cores.
// Each part computes its partial product (from zero, no fill) in an
// scf.parallel iteration; a reduction adds both to the (filled) output.
// SPLITKSCHED: tad schedule: linalg.matmul k of 8192 split into 2 parts on the cores
// SPLITKSCHED: tad schedule: linalg.matmul 8x6x4096 f32 (m,n,k = 8,6,4096): cache tiles 8x6x256
// SPLITK-LABEL: func.func @split_k(
//       SPLITK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<8x6xf32>)
//       SPLITK: %[[P:.*]] = memref.alloc() : memref<2x8x6xf32>
//       SPLITK: scf.parallel (%[[I:.*]]) = (%c0) to (%c2) step (%c1)
//       SPLITK: arith.muli %[[I]], %c4096
//   SPLITK-NOT: linalg.fill
//       SPLITK: scf.if
//       SPLITK: vector.maskedload %[[P]][%[[I]], %c0, %c0], {{.*}} vector<16xf32>
//       SPLITK: vector.fma
//       SPLITK: vector.maskedstore %[[P]][%[[I]], %c0, %c0], {{.*}} vector<16xf32>
//       SPLITK: scf.reduce
//       SPLITK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[P]] : memref<2x8x6xf32>) outs(%arg2 : memref<8x6xf32>)
//       SPLITK: arith.addf
//       SPLITK: memref.dealloc %[[P]]
func.func @split_k(%a: memref<8x8192xf32>, %b: memref<8192x6xf32>,
                   %c: memref<8x6xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x6xf32>)
  linalg.matmul ins(%a, %b : memref<8x8192xf32>, memref<8192x6xf32>)
                outs(%c : memref<8x6xf32>)
  return
}

// -----

// A small output (96 x 32 f32, 12 KiB: at most half of the 1 MiB L2)
// with a long reduction (at least 8 times m and n; an implicit-GEMM
// convolution's weight gradient) is one m and n cache tile, so k splits
// over the cores instead of m being tiled (A and B would stream once per
// m tile); so is 384 x 128 (192 KiB, a 128-channel 3x3 convolution's). A
// larger output (1024 x 256, 1 MiB) keeps its m tiles, and so does one
// whose k is too short to split (600: the two m tiles keep both cores busy).
// SMALLOUTSCHED: tad schedule: linalg.matmul k of 8192 split into 2 parts on the cores
// SMALLOUTSCHED: tad schedule: linalg.matmul 96x32x4096 f32 (m,n,k = 96,32,4096): cache tiles 96x32x256
// SMALLOUTSCHED: tad schedule: linalg.matmul 1024x256x8192 f32 (m,n,k = 1024,256,8192): cache tiles 32x
// SMALLOUTSCHED: tad schedule: linalg.matmul 64x64x600 f32 (m,n,k = 64,64,600): cache tiles 32x64x200
// SMALLOUTSCHED: tad schedule: linalg.matmul k of 28800 split into 2 parts on the cores
// SMALLOUTSCHED: tad schedule: linalg.matmul 384x128x14400 f32 (m,n,k = 384,128,14400): cache tiles 384x128x
// SMALLOUT-LABEL: func.func @small_output(
//       SMALLOUT: scf.parallel (%{{.*}}) = (%c0) to (%c2) step (%c1)
//       SMALLOUT: scf.parallel (%{{.*}}) = (%c0) to (%c64) step (%c32)
func.func @small_output(%a: memref<96x8192xf32>, %b: memref<8192x32xf32>,
                        %c: memref<96x32xf32>, %a2: memref<1024x8192xf32>,
                        %b2: memref<8192x256xf32>, %c2: memref<1024x256xf32>,
                        %a3: memref<64x600xf32>, %b3: memref<600x64xf32>,
                        %c3: memref<64x64xf32>, %a4: memref<384x28800xf32>,
                        %b4: memref<28800x128xf32>, %c4: memref<384x128xf32>) {
  linalg.matmul ins(%a, %b : memref<96x8192xf32>, memref<8192x32xf32>)
                outs(%c : memref<96x32xf32>)
  linalg.matmul ins(%a2, %b2 : memref<1024x8192xf32>, memref<8192x256xf32>)
                outs(%c2 : memref<1024x256xf32>)
  linalg.matmul ins(%a3, %b3 : memref<64x600xf32>, memref<600x64xf32>)
                outs(%c3 : memref<64x64xf32>)
  linalg.matmul ins(%a4, %b4 : memref<384x28800xf32>, memref<28800x128xf32>)
                outs(%c4 : memref<384x128xf32>)
  return
}

// -----

// A row narrower than a vector register (6 output channels of a
// convolution's input gradient; 8 lanes) is one vector with two lanes
// masked, not 4 + 2 (twice the FMAs and accumulators: the 6x6 tile spilled
// on AVX2): masked loads of the C rows before the k loop, one masked load
// of the B row and one FMA per row in it, masked stores after it.
// NARROW-LABEL: func.func @narrow_rows(
//       NARROW: %[[MASK:.*]] = vector.constant_mask [6, 6] : vector<6x8xi1>
//       NARROW: %[[ROW:.*]] = vector.extract %[[MASK]][0]
//       NARROW: vector.maskedload %arg2[%{{.*}}, %c0], %[[ROW]], %{{.*}} : memref<120x6xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
//       NARROW: scf.for %{{.*}} = %c0 to %c80 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<6x8xf32>)
//       NARROW: vector.maskedload %arg1[%{{.*}}, %c0], %{{.*}} : memref<80x6xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
//   NARROW-NOT: vector<4xf32>
//   NARROW-NOT: vector<2xf32>
// NARROW-COUNT-6: vector.fma {{.*}} : vector<8xf32>
//       NARROW: scf.yield
//       NARROW: %[[ROW0:.*]] = vector.extract %[[MASK]][0]
//       NARROW: vector.maskedstore %arg2[%{{.*}}, %c0], %[[ROW0]], %{{.*}} : memref<120x6xf32>, vector<8xi1>, vector<8xf32>
func.func @narrow_rows(%a: memref<120x80xf32>, %b: memref<80x6xf32>,
                       %c: memref<120x6xf32>) {
  linalg.matmul ins(%a, %b : memref<120x80xf32>, memref<80x6xf32>)
                outs(%c : memref<120x6xf32>)
  return
}

// -----

// A register row of 24 f32 with 8 lanes (an overridden 4x24 tile) is
// 16 + 8: LLVM widens a vector<24xf32> to 32 lanes (12 GFLOP/s for
// 16x1024x1024 against ~70 split).
// ROW24-LABEL: func.func @row_of_24(
//   ROW24-NOT: vector<24xf32>
//       ROW24: vector.fma {{.*}} : vector<16xf32>
//       ROW24: vector.fma {{.*}} : vector<8xf32>
//   ROW24-NOT: vector<24xf32>
func.func @row_of_24(%a: memref<8x64xf32>, %b: memref<64x48xf32>,
                     %c: memref<8x48xf32>) {
  linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x48xf32>)
                outs(%c : memref<8x48xf32>)
  return
}

// -----

// Few rows of A (m < 8 cache tiles) and B rows a kilobyte or more apart:
// all of m becomes one cache tile and B is copied one kc x nc cache block
// at a time into panels [nc/nr][kc][nr], source rows outermost, in a buffer
// of each parallel iteration (each core's own); the register tiles read
// their B rows from it; 20 rows as four register tiles of 5 (not 6 + 6 +
// 6 + 2). Not with a transposed A, nor with rows of 512 bytes. With a B
// of 32 MB (over 8 times L2) m = 512 is one cache tile too, instead of a
// copy of all of B, with k cache tiles of 256 so that its A block fits in
// half of L2. (Functions are scheduled on several threads: their lines
// come in any order.)
// BLOCKSSCHED-DAG: tad schedule: linalg.matmul 16x1024x1024 f32 {{.*}}: cache tiles 16x128x512, register tile 6x16x1, 256-bit vectors, n outer, B packed per cache block
// BLOCKSSCHED-DAG: tad schedule: linalg.matmul 64x1024x1024 f32 {{.*}}: cache tiles 64x128x512, {{.*}}, B packed per cache block
// BLOCKSSCHED-DAG: tad schedule: linalg.matmul 64x1024x1024 f32 {{.*}}: cache tiles 16x128x512, register tile 6x16x1, 256-bit vectors, n outer{{$}}
// BLOCKSSCHED-DAG: tad schedule: linalg.matmul 16x128x1024 f32 {{.*}}, n outer{{$}}
// BLOCKSSCHED-DAG: tad schedule: linalg.matmul 512x4096x2048 f32 {{.*}}: cache tiles 512x128x256, {{.*}}, B packed per cache block
// BLOCKSSCHED-DAG: tad schedule: linalg.matmul 20x1024x1024 f32 {{.*}}: cache tiles 20x128x512, register tile 5x16x1, {{.*}}, B packed per cache block
// BLOCKSSCHED-DAG: tad schedule: linalg.matmul 256x1024x256 f32 {{.*}}, B packed{{$}}
// BLOCKS-LABEL: func.func @rhs_blocks(
//       BLOCKS: scf.parallel (%[[N:.*]]) = (%c0) to (%c1024) step (%c128)
//  BLOCKS-NEXT: %[[P:.*]] = memref.alloc() : memref<8x512x16xf32>
//  BLOCKS-NEXT: scf.for %[[K:.*]] = %c0 to %c1024 step %c512
//  BLOCKS-NEXT: scf.for %[[ROW:.*]] = %c0 to %c512 step %c1
//       BLOCKS: scf.for %[[PANEL:.*]] = %c0 to %c8 step %c1
//       BLOCKS: vector.load %arg1[{{.*}}] : memref<1024x1024xf32>, vector<16xf32>
//  BLOCKS-NEXT: vector.store %{{.*}}, %[[P]][%[[PANEL]], %[[ROW]], %c0] : memref<8x512x16xf32>, vector<16xf32>
//   BLOCKS-NOT: vector.load %arg1
//       BLOCKS: vector.load %[[P]][%{{.*}}, %{{.*}}, %c0] : memref<8x512x16xf32>, vector<16xf32>
//       BLOCKS: vector.fma
//   BLOCKS-NOT: vector.load %arg1
//       BLOCKS: memref.dealloc %[[P]]
//  BLOCKS-NEXT: scf.reduce
func.func @rhs_blocks(%a: memref<16x1024xf32>, %b: memref<1024x1024xf32>,
                      %c: memref<16x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<16x1024xf32>, memref<1024x1024xf32>)
                outs(%c : memref<16x1024xf32>)
  return
}
func.func @rhs_blocks_equal_rows(%a: memref<20x1024xf32>,
                                 %b: memref<1024x1024xf32>,
                                 %c: memref<20x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<20x1024xf32>, memref<1024x1024xf32>)
                outs(%c : memref<20x1024xf32>)
  return
}
func.func @rhs_blocks_large_rhs(%a: memref<512x2048xf32>,
                                %b: memref<2048x4096xf32>,
                                %c: memref<512x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<512x2048xf32>, memref<2048x4096xf32>)
                outs(%c : memref<512x4096xf32>)
  return
}
func.func @rhs_blocks_one_m_tile(%a: memref<64x1024xf32>,
                                 %b: memref<1024x1024xf32>,
                                 %c: memref<64x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<64x1024xf32>, memref<1024x1024xf32>)
                outs(%c : memref<64x1024xf32>)
  return
}
#transposedA = affine_map<(m, n, k) -> (k, m)>
#plainB = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @blocks_transposed_lhs(%a: memref<1024x64xf32>,
                                 %b: memref<1024x1024xf32>,
                                 %c: memref<64x1024xf32>) {
  linalg.matmul indexing_maps = [#transposedA, #plainB, #out]
                ins(%a, %b : memref<1024x64xf32>, memref<1024x1024xf32>)
                outs(%c : memref<64x1024xf32>)
  return
}
func.func @blocks_short_rows(%a: memref<16x1024xf32>, %b: memref<1024x128xf32>,
                             %c: memref<16x128xf32>) {
  linalg.matmul ins(%a, %b : memref<16x1024xf32>, memref<1024x128xf32>)
                outs(%c : memref<16x128xf32>)
  return
}
// -----

// A copy of all of B large enough for the cores (m = 256 >= 8 mc): groups
// of 8 panels in parallel, each group row by row (a 512-byte run of every
// source row).
// BLOCKS-LABEL: func.func @packed_rhs_parallel(
//       BLOCKS: %[[P:.*]] = memref.alloc() : memref<64x256x16xf32>
//  BLOCKS-NEXT: scf.parallel (%[[G:.*]]) = (%c0) to (%c8) step (%c1)
//  BLOCKS-NEXT: %[[LO:.*]] = affine.apply #{{.*}}(%[[G]])
//  BLOCKS-NEXT: %[[HI:.*]] = affine.min #{{.*}}(%[[G]])
//  BLOCKS-NEXT: scf.for %[[ROW:.*]] = %c0 to %c256 step %c1
//  BLOCKS-NEXT: scf.for %[[PANEL:.*]] = %[[LO]] to %[[HI]] step %c1
//       BLOCKS: vector.store %{{.*}}, %[[P]][%[[PANEL]], %[[ROW]], %c0] : memref<64x256x16xf32>, vector<16xf32>
func.func @packed_rhs_parallel(%a: memref<256x256xf32>,
                               %b: memref<256x1024xf32>,
                               %c: memref<256x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x1024xf32>)
                outs(%c : memref<256x1024xf32>)
  return
}

// -----

// A B of 16 MB (over 8 times L2) and too many rows of A for one m cache
// tile (2048 rows of a 128-deep k tile overflow half of L2): the cache
// loops run n (in parallel), k, m; each kc x nc block of B is copied into
// the core's buffer once, before the m loop, and every m tile reads it,
// where a whole copy of B would go to memory. A fill of C becomes the
// accumulators' initial value in the first k step.
// BLOCKSSCHED: tad schedule: linalg.matmul 2048x2048x2048 f32 {{.*}}: cache tiles 16x128x512, register tile 6x16x1, 256-bit vectors, B packed per cache block, m innermost
// BLOCKS-LABEL: func.func @rhs_blocks_m_innermost(
//   BLOCKS-NOT: linalg.fill
//       BLOCKS: scf.parallel (%[[N:.*]]) = (%c0) to (%c2048) step (%c128)
//  BLOCKS-NEXT: %[[P:.*]] = memref.alloc() : memref<8x512x16xf32>
//  BLOCKS-NEXT: scf.for %[[K:.*]] = %c0 to %c2048 step %c512
//  BLOCKS-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %c0
//  BLOCKS-NEXT: scf.for %[[ROW:.*]] = %c0 to %c512 step %c1
//       BLOCKS: vector.load %arg1[{{.*}}] : memref<2048x2048xf32>, vector<16xf32>
//  BLOCKS-NEXT: vector.store %{{.*}}, %[[P]][%{{.*}}, %[[ROW]], %c0] : memref<8x512x16xf32>, vector<16xf32>
//       BLOCKS: scf.for %[[M:.*]] = %c0 to %c2048 step %c16
//   BLOCKS-NOT: vector.load %arg1
//       BLOCKS: scf.if %[[FIRST]]
//   BLOCKS-NOT: vector.load %arg1
//       BLOCKS: vector.load %[[P]][%{{.*}}, %{{.*}}, %c0] : memref<8x512x16xf32>, vector<16xf32>
//       BLOCKS: vector.fma
//   BLOCKS-NOT: vector.load %arg1
//       BLOCKS: memref.dealloc %[[P]]
//  BLOCKS-NEXT: scf.reduce
func.func @rhs_blocks_m_innermost(%a: memref<2048x2048xf32>,
                                  %b: memref<2048x2048xf32>,
                                  %c: memref<2048x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2048x2048xf32>)
  linalg.matmul ins(%a, %b : memref<2048x2048xf32>, memref<2048x2048xf32>)
                outs(%c : memref<2048x2048xf32>)
  return
}

// -----

// B's rows shorter than the packing threshold (512 bytes here) are never
// copied whole, but once B is over L2 it gets the per-block copies too (a
// convolution's weight gradient col @ g^T at 128 filters): 1152x128x6272
// (3 MB) runs n, k, m with one n tile halved so that each core has one; a
// k x nc block of 2048x192x4096 is copied per 96 columns (two n tiles).
// B under L2 (1152x128x1024, 512 KB) keeps the plain schedule.
// BLOCKSSCHED: tad schedule: linalg.matmul 1152x128x6272 f32 {{.*}}: cache tiles 12x64x448, register tile 6x16x1, 256-bit vectors, B packed per cache block, m innermost
// BLOCKSSCHED: tad schedule: linalg.matmul 2048x192x4096 f32 {{.*}}: cache tiles 16x96x512, {{.*}}, B packed per cache block, m innermost
// BLOCKSSCHED: tad schedule: linalg.matmul 1152x128x1024 f32 {{.*}}: cache tiles 12x128x512, register tile 6x16x1, 256-bit vectors, n outer{{$}}
// ROW24-LABEL: func.func @short_rhs_rows_blocks(
// BLOCKS-LABEL: func.func @short_rhs_rows_blocks(
//       BLOCKS: scf.parallel (%{{.*}}) = (%c0) to (%c128) step (%c64)
//  BLOCKS-NEXT: %[[P:.*]] = memref.alloc() : memref<4x448x16xf32>
//  BLOCKS-NEXT: scf.for %{{.*}} = %c0 to %c6272 step %c448
//       BLOCKS: vector.store %{{.*}}, %[[P]][{{.*}}] : memref<4x448x16xf32>, vector<16xf32>
//       BLOCKS: scf.for %{{.*}} = %c0 to %c1152 step %c12
//       BLOCKS: vector.load %[[P]][{{.*}}] : memref<4x448x16xf32>, vector<16xf32>
func.func @short_rhs_rows_blocks(%a: memref<1152x6272xf32>, %b: memref<6272x128xf32>,
                                 %c: memref<1152x128xf32>, %a2: memref<2048x4096xf32>,
                                 %b2: memref<4096x192xf32>, %c2: memref<2048x192xf32>,
                                 %a3: memref<1152x1024xf32>, %b3: memref<1024x128xf32>,
                                 %c3: memref<1152x128xf32>) {
  linalg.matmul ins(%a, %b : memref<1152x6272xf32>, memref<6272x128xf32>)
                outs(%c : memref<1152x128xf32>)
  linalg.matmul ins(%a2, %b2 : memref<2048x4096xf32>, memref<4096x192xf32>)
                outs(%c2 : memref<2048x192xf32>)
  linalg.matmul ins(%a3, %b3 : memref<1152x1024xf32>, memref<1024x128xf32>)
                outs(%c3 : memref<1152x128xf32>)
  return
}

// -----

// With 512-bit vectors the m cache tile is 32 rows, and a B with short
// rows takes the per-block copies of step 12 only from mc/8 = 4 times L2
// on: 2048x192x4096 (3 MB) keeps the plain schedule, 1152x128x12544
// (6.4 MB) has its blocks copied with m innermost.
// SMALLOUTSCHED: tad schedule: linalg.matmul 2048x192x4096 f32 {{.*}}: cache tiles 32x192x256, register tile 8x32x1, 512-bit vectors{{$}}
// SMALLOUTSCHED: tad schedule: linalg.matmul 1152x128x12544 f32 {{.*}}: cache tiles 32x64x256, register tile 8x32x1, 512-bit vectors, B packed per cache block, m innermost
func.func @short_rhs_rows_512(%a: memref<2048x4096xf32>, %b: memref<4096x192xf32>,
                              %c: memref<2048x192xf32>, %a2: memref<1152x12544xf32>,
                              %b2: memref<12544x128xf32>, %c2: memref<1152x128xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x4096xf32>, memref<4096x192xf32>)
                outs(%c : memref<2048x192xf32>)
  linalg.matmul ins(%a2, %b2 : memref<1152x12544xf32>, memref<12544x128xf32>)
                outs(%c2 : memref<1152x128xf32>)
  return
}
