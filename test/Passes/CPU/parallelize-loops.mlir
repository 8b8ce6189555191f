// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-parallelize-loops))' | FileCheck %s
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-parallelize-loops{min-work=1024 min-work-per-tile=64}))' | FileCheck %s --check-prefix=LOW

// A large elementwise op: the outermost dimension (8) is split, each
// parallel iteration keeps a whole 128x1024 block (the inner loops LLVM
// vectorizes).
// CHECK-LABEL: func.func @elementwise(
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c8) step (%c1)
//       CHECK: memref.subview {{.*}} [1, 128, 1024]
//       CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<1x128x1024xf32
func.func @elementwise(%a: memref<8x128x1024xf32>, %b: memref<8x128x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : memref<8x128x1024xf32>) outs(%b : memref<8x128x1024xf32>) {
  ^bb0(%x: f32, %y: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Row reductions split over rows (about 64 tiles: 16 rows each); the
// reduced dimension stays whole in every tile.
// CHECK-LABEL: func.func @row_sums(
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c1024) step (%c16)
//       CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.*}} : memref<16x1024xf32
func.func @row_sums(%a: memref<1024x1024xf32>, %b: memref<1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1024x1024xf32>) outs(%b : memref<1024xf32>) {
  ^bb0(%x: f32, %y: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A column reduction: its only parallel dimension is the innermost loop,
// whose tiles keep 128 iterations (8 tiles, not 64 of 16 columns) so that
// LLVM vectorizes along the columns instead of unrolling them and
// gathering along the reduced rows.
// CHECK-LABEL: func.func @column_sums(
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c1024) step (%c128)
//       CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%{{.*}} : memref<4096x128xf32
func.func @column_sums(%a: memref<4096x1024xf32>, %b: memref<1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<4096x1024xf32>) outs(%b : memref<1024xf32>) {
  ^bb0(%x: f32, %y: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Small ops stay on one thread (unless the threshold is lowered). A
// reduction over everything has no parallel dimension to split: 64 chunks
// reduce into partial results (starting at 0, the neutral element of
// addf) on the cores, then the partial results into the output, which
// keeps its initial value.
// CHECK-LABEL: func.func @small(
//   CHECK-NOT: scf.parallel
//       CHECK: linalg.generic
// LOW-LABEL: func.func @small(
//       LOW: scf.parallel (%{{.*}}) = (%c0) to (%c128) step (%c2)
// CHECK-LABEL: func.func @total(
//       CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<64xf32>
//       CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[PARTIALS]] : memref<64xf32>)
//       CHECK: scf.parallel (%[[PART:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
//       CHECK:   %[[OFFSET:.*]] = arith.muli %[[PART]], %c16384
//       CHECK:   %[[CHUNK:.*]] = memref.subview %arg0[%[[OFFSET]]] [16384] [1]
//       CHECK:   %[[PARTIAL:.*]] = memref.subview %[[PARTIALS]][%[[PART]]] [1] [1] : memref<64xf32> to memref<f32, strided<[], offset: ?>>
//       CHECK:   linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%[[CHUNK]] : {{.*}}) outs(%[[PARTIAL]] :
//       CHECK:     arith.addf
//       CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%[[PARTIALS]] : memref<64xf32>) outs(%arg1 : memref<f32>)
//  CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
//  CHECK-NEXT:   %[[SUM:.*]] = arith.addf %[[IN]], %[[OUT]] : f32
//  CHECK-NEXT:   linalg.yield %[[SUM]]
//       CHECK: memref.dealloc %[[PARTIALS]]
// LOW-LABEL: func.func @total(
//       LOW: scf.parallel
func.func @small(%a: memref<128x512xf32>, %b: memref<128x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<128x512xf32>) outs(%b : memref<128x512xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
func.func @total(%a: memref<1048576xf32>, %b: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%a : memref<1048576xf32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %y: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A column sum over 64 features (a layer norm's weight gradient) has too
// few parallel iterations to share: its outermost loop, the reduction over
// 25088 rows, is split into 64 chunks of 392 rows reduced into partial
// rows [64, 64] on the cores; the operands that read the rows are sliced,
// the one that does not (the weight) is read whole by every part.
// CHECK-LABEL: func.func @column_sum(
//       CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<64x64xf32>
//       CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[PARTIALS]] : memref<64x64xf32>)
//       CHECK: scf.parallel (%[[PART:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
//       CHECK:   %[[OFFSET:.*]] = arith.muli %[[PART]], %c392
//       CHECK:   %[[X:.*]] = memref.subview %arg0[%[[OFFSET]], 0] [392, 64] [1, 1]
//       CHECK:   %[[R:.*]] = memref.subview %arg1[%[[OFFSET]], 0] [392, 1] [1, 1]
//       CHECK:   %[[PARTIAL:.*]] = memref.subview %[[PARTIALS]][%[[PART]], 0] [1, 64] [1, 1] : memref<64x64xf32> to memref<64xf32, strided<[1], offset: ?>>
//       CHECK:   linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[X]], %[[R]], %arg2 : {{.*}}) outs(%[[PARTIAL]] :
//       CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[PARTIALS]] : memref<64x64xf32>) outs(%arg3 : memref<64xf32>)
//       CHECK: memref.dealloc %[[PARTIALS]]
// A body that reads the row's index (a position weight) would see the
// index within a chunk: it stays serial.
// CHECK-LABEL: func.func @row_index(
//   CHECK-NOT: scf.parallel
// An operand that reads every other row (d0 * 2) is no chunk of whole
// rows: the column sum stays serial too.
// CHECK-LABEL: func.func @every_other_row(
//   CHECK-NOT: scf.parallel
func.func @column_sum(%x: memref<25088x64xf32>, %rstd: memref<25088x1xf32>,
                      %w: memref<64xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, 0)>,
                                   affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x, %rstd, %w : memref<25088x64xf32>, memref<25088x1xf32>, memref<64xf32>)
      outs(%out : memref<64xf32>) {
  ^bb0(%a: f32, %r: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %r : f32
    %1 = arith.mulf %0, %b : f32
    %2 = arith.addf %1, %acc : f32
    linalg.yield %2 : f32
  }
  return
}
func.func @row_index(%x: memref<25088x64xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<25088x64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %0 = arith.mulf %a, %f : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}
func.func @every_other_row(%x: memref<25088x64xf32>, %y: memref<50176x64xf32>,
                           %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0 * 2, d1)>,
                                   affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x, %y : memref<25088x64xf32>, memref<50176x64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// An outermost dimension of 5 iterations balances badly (3 and 2 on two
// threads): the next parallel dimension joins, 25 iterations in all.
// CHECK-LABEL: func.func @im2col_like(
//       CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0{{.*}}, %c0{{.*}}) to (%c5{{.*}}, %c5{{.*}}) step (%c1{{.*}}, %c1{{.*}})
//       CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<1x1x64x28x28xf32
// LOW-LABEL: func.func @im2col_like(
func.func @im2col_like(%a: memref<64x32x32xf32>, %b: memref<5x5x64x28x28xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d0 + d3, d1 + d4)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%a : memref<64x32x32xf32>) outs(%b : memref<5x5x64x28x28xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// 2^15 iterations of an 8-op body (a window unrolled into compares and
// selects) cost 4 copies each: worth splitting (2^17 work); the same count
// of a copy is not.
// CHECK-LABEL: func.func @pool_like(
//       CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c256) step (%c8)
// CHECK-LABEL: func.func @copy_like(
//   CHECK-NOT: scf.parallel
func.func @pool_like(%a: memref<256x128xf32>, %b: memref<256x128xf32>,
                     %c: memref<256x128xf32>, %d: memref<256x128xf32>,
                     %o: memref<256x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c, %d : memref<256x128xf32>, memref<256x128xf32>,
          memref<256x128xf32>, memref<256x128xf32>)
      outs(%o : memref<256x128xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32, %out: f32):
    %0 = arith.maximumf %x, %y : f32
    %1 = arith.maximumf %0, %z : f32
    %2 = arith.maximumf %1, %w : f32
    %3 = arith.maximumf %2, %out : f32
    %4 = arith.minimumf %3, %x : f32
    %5 = arith.minimumf %4, %y : f32
    %6 = arith.minimumf %5, %z : f32
    %7 = arith.minimumf %6, %w : f32
    linalg.yield %7 : f32
  }
  return
}
func.func @copy_like(%a: memref<256x128xf32>, %o: memref<256x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<256x128xf32>) outs(%o : memref<256x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Without a combiner to reassociate (the last element wins), a reduction
// over everything stays serial.
// CHECK-LABEL: func.func @last(
//   CHECK-NOT: scf.parallel
func.func @last(%a: memref<1048576xf32>, %b: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%a : memref<1048576xf32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A flip reads column 9 - j: tiling sizes a slice from the first and last
// indices of a tile, which would give this operand one column (invalid
// IR), so an op whose indexing decreases in a loop index is left serial.
// CHECK-LABEL: func.func @flip(
//   CHECK-NOT: scf.parallel
//       CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<26215x10xf64>)
func.func @flip(%a: memref<26215x10xf64>, %b: memref<26215x10xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, -d1 + 9)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<26215x10xf64>) outs(%b : memref<26215x10xf64>) {
  ^bb0(%x: f64, %y: f64):
    linalg.yield %x : f64
  }
  return
}
