// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 amx=0 bf16-dot=1 parallel=true cores=2 l2-bytes=1048576}))' | FileCheck %s
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 amx=0 bf16-dot=1 parallel=true cores=2 l2-bytes=1048576 print-schedule=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SCHED
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 amx=1 bf16-dot=1}))' | FileCheck %s --check-prefix=AMX
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-contractions{vector-bits=512 amx=0 bf16-dot=0}))' | FileCheck %s --check-prefix=NODOT

// A bf16 x bf16 -> f32 matmul without AMX, on a host with AVX512-BF16 (the
// machine model pins it: the verdict does not depend on the host): B is
// copied into k-pair panels of 32 columns as for AMX; each 32-row block of
// a panel is four register tiles of 8 rows x 32 columns, 16 f32
// accumulators carried across the k-pair loop, each fed by
// x86vector.avx512.dot of a broadcast k-pair of A (one i32) and two
// vectors of the panel row. AMX, where enabled too, takes precedence.
// SCHED: AMX bf16: no
// SCHED: AVX512-BF16 dot: yes
// SCHED: tad schedule: linalg.matmul bf16 on AVX512-BF16 dot products (8x32 register tiles)
// CHECK-LABEL: func.func @dot
// CHECK: %[[PACKED:.*]] = memref.alloc() : memref<1x2x64x64xbf16>
// CHECK: vector.interleave {{.*}} : vector<16xi16> -> vector<32xi16>
// CHECK: vector.store {{.*}}, %[[PACKED]]
// CHECK: scf.parallel (%[[M0:.*]]) = (%{{.*}}) to (%{{.*}}) step (%c32)
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK-COUNT-16: vector.load %arg2{{.*}} : memref<64x64xf32>, vector<16xf32>
// CHECK: scf.for %[[KK:.*]] = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-2: vector.load %[[PACKED]]{{.*}} : memref<1x2x64x64xbf16>, vector<32xbf16>
// CHECK: vector.load %arg0{{.*}} : memref<64x128xbf16>, vector<2xbf16>
// CHECK: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: vector.broadcast {{.*}} : i32 to vector<16xi32>
// CHECK: vector.bitcast {{.*}} : vector<16xi32> to vector<32xbf16>
// CHECK-COUNT-2: x86vector.avx512.dot {{.*}} : vector<32xbf16> -> vector<16xf32>
// CHECK-COUNT-16: vector.store {{.*}}, %arg2
// CHECK: memref.dealloc %[[PACKED]]
// CHECK-NOT: linalg.matmul
// AMX-LABEL: func.func @dot
// AMX-NOT: x86vector
// AMX: amx.tile_mulf
// NODOT-LABEL: func.func @dot
// NODOT-NOT: x86vector
// NODOT: vector.fma
func.func @dot(%a: memref<64x128xbf16>, %b: memref<128x64xbf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x128xbf16>, memref<128x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Sizes that are not whole blocks are padded with zeros, k only to an even
// count (the AMX kernel pads it to whole tiles of 32); a zero fill of C just
// before becomes zero accumulators (C written once, by the stores).
// CHECK-LABEL: func.func @odd_zero_filled
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NOT: linalg.fill ins(%{{.*}} : f32) outs(%arg2
// CHECK: %[[A:.*]] = memref.alloc() : memref<64x102xbf16>
// CHECK: %[[B:.*]] = memref.alloc() : memref<102x96xbf16>
// CHECK: %[[C:.*]] = memref.alloc() : memref<64x96xf32>
// CHECK: memref.alloc() : memref<1x3x51x64xbf16>
// CHECK-NOT: vector.load %[[C]]
// CHECK: scf.for {{.*}} = %c0 to %c51 step %c1 iter_args(%{{.*}} = %[[ZERO]],
// CHECK: x86vector.avx512.dot
// CHECK: linalg.copy ins(%{{.*}} : memref<40x70xf32, strided<[96, 1]>>) outs(%arg2 : memref<40x70xf32>)
func.func @odd_zero_filled(%a: memref<40x101xbf16>, %b: memref<101x70xbf16>, %c: memref<40x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<40x70xf32>)
  linalg.matmul ins(%a, %b : memref<40x101xbf16>, memref<101x70xbf16>) outs(%c : memref<40x70xf32>)
  return
}

// -----

// f32 matmuls never use the bf16 kernels.
// CHECK-LABEL: func.func @f32
// CHECK-NOT: x86vector
// CHECK: vector.fma
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// B stored (n, k) with a k (100) that is not a multiple of 32: its rows are
// read masked at the end (zeros past k), and packed rows past the last
// k-pair (50) are not written.
// CHECK-LABEL: func.func @transposed_rhs_odd_k
// CHECK-NOT: linalg.transpose
// CHECK: %[[PACKED:.*]] = memref.alloc() : memref<1x2x50x64xbf16>
// CHECK: scf.for %[[KK0:.*]] = %c0 to %c50 step %c16
// CHECK: vector.transfer_read %arg1[{{.*}}], %{{.*}} : memref<64x100xbf16>, vector<32xbf16>
// CHECK: vector.shuffle
// CHECK: %[[KK:.*]] = arith.addi %[[KK0]], %c{{[0-9]+}}
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[KK]], %c50
// CHECK: scf.if %[[IN]]
// CHECK: vector.store {{.*}}, %[[PACKED]]
// CHECK: x86vector.avx512.dot
func.func @transposed_rhs_odd_k(%a: memref<32x100xbf16>, %b: memref<64x100xbf16>, %c: memref<32x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<32x100xbf16>, memref<64x100xbf16>) outs(%c : memref<32x64xf32>)
  return
}
// -----
// Row blocks split evenly over the cores: 768 rows with k = 1024 fit in
// blocks of 256 (half of L2), but 3 blocks on 2 cores leave one waiting
// after its first: blocks of 192 instead (4, 2 per core).
// CHECK-LABEL: func.func @even_row_blocks
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c768) step (%c192)
// CHECK: x86vector.avx512.dot
func.func @even_row_blocks(%a: memref<768x1024xbf16>, %b: memref<1024x64xbf16>, %c: memref<768x64xf32>) {
  linalg.matmul ins(%a, %b : memref<768x1024xbf16>, memref<1024x64xbf16>) outs(%c : memref<768x64xf32>)
  return
}

// -----

// B's k-pair rows are packed by a loop over its panels (two 16-column
// halves each), not by one body per 16 columns unrolled over N: the im2col
// B of a bf16 convolution on 32 images of 64@56 has N = 100352, and its
// 6272 unrolled copies kept LLVM's loop passes busy for over 15 minutes.
// CHECK-LABEL: func.func @wide_rhs_packing(
//       CHECK: %[[PACKED:.*]] = memref.alloc() : memref<1x128x32x64xbf16>
//       CHECK: scf.parallel (%[[KK:.*]]) = (%c0) to (%c32) step (%c1)
//       CHECK: scf.for %[[N:.*]] = %c0 to %c4096 step %c32
//  CHECK-NEXT: %[[PANEL:.*]] = arith.divui %[[N]], %c32
//       CHECK: vector.interleave
//  CHECK-NEXT: vector.bitcast
//  CHECK-NEXT: vector.store %{{.*}}, %[[PACKED]][%c0, %[[PANEL]], %[[KK]], %c0]
//       CHECK: vector.interleave
//  CHECK-NEXT: vector.bitcast
//  CHECK-NEXT: vector.store %{{.*}}, %[[PACKED]][%c0, %[[PANEL]], %[[KK]], %c32]
//  CHECK-NEXT: }
func.func @wide_rhs_packing(%a: memref<64x64xbf16>, %b: memref<64x4096xbf16>,
                            %c: memref<64x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x4096xbf16>)
                outs(%c : memref<64x4096xf32>)
  return
}
