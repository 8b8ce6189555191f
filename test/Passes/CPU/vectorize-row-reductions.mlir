// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-row-reductions{vector-bits=512}))' | FileCheck %s
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-row-reductions{vector-bits=256}))' | FileCheck %s --check-prefix=AVX2

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A row sum over 64 features (a layer norm's mean): one row per iteration,
// read as one vector, summed by one reassociated horizontal reduction into
// the row's accumulator.
// CHECK-LABEL: func.func @row_sum(
//   CHECK-NOT: linalg.generic
//       CHECK: scf.for %[[I:.*]] = %c0{{.*}} to %c392
//       CHECK:   %[[ROW:.*]] = vector.load %arg0[%[[I]], %c0] : memref<392x64xf32, strided<[64, 1], offset: ?>>, vector<64xf32>
//       CHECK:   vector.reduction <add>, %[[ROW]], %{{.*}} fastmath<reassoc> : vector<64xf32> into f32
//       CHECK:   vector.store {{.*}} : memref<392xf32, strided<[1], offset: ?>>, vector<1xf32>
//   CHECK-NOT: linalg.generic
// AVX2-LABEL: func.func @row_sum(
//       AVX2: vector.reduction <add>, {{.*}} : vector<64xf32> into f32
func.func @row_sum(%a: memref<392x64xf32, strided<[64, 1], offset: ?>>,
                   %b: memref<392xf32, strided<[1], offset: ?>>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<392x64xf32, strided<[64, 1], offset: ?>>)
      outs(%b : memref<392xf32, strided<[1], offset: ?>>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

#rows = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#row = affine_map<(d0, d1) -> (d0)>

// A variance: the row's mean (a [rows, 1] operand) is broadcast along the
// row; the body runs on vectors.
// CHECK-LABEL: func.func @variance(
//       CHECK: scf.for
//       CHECK:   %[[X:.*]] = vector.load {{.*}} : memref<100x48xf64>, vector<48xf64>
//       CHECK:   %[[M:.*]] = vector.load {{.*}} : memref<100x1xf64>, vector<f64>
//       CHECK:   %[[MB:.*]] = vector.broadcast %[[M]] : vector<f64> to vector<48xf64>
//       CHECK:   %[[D:.*]] = arith.subf %[[X]], %[[MB]] : vector<48xf64>
//       CHECK:   %[[S:.*]] = arith.mulf %[[D]], %[[D]] : vector<48xf64>
//       CHECK:   vector.reduction <add>, %[[S]], {{.*}} fastmath<reassoc> : vector<48xf64> into f64
func.func @variance(%x: memref<100x48xf64>, %mean: memref<100x1xf64>,
                    %out: memref<100xf64>) {
  linalg.generic {indexing_maps = [#rows, #keep, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : memref<100x48xf64>, memref<100x1xf64>) outs(%out : memref<100xf64>) {
  ^bb0(%in: f64, %m: f64, %acc: f64):
    %0 = arith.subf %in, %m : f64
    %1 = arith.mulf %0, %0 : f64
    %2 = arith.addf %1, %acc fastmath<reassoc> : f64
    linalg.yield %2 : f64
  }
  return
}

// -----

#rows = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// A softmax's row maximum over attention scores [heads, queries, keys]: both
// parallel loops become scf.for; max needs no reassociation.
// CHECK-LABEL: func.func @row_max(
//       CHECK: scf.for
//       CHECK:   scf.for
//       CHECK:     vector.reduction <maxnumf>, {{.*}} : vector<128xf32> into f32
func.func @row_max(%s: memref<4x128x128xf32>, %m: memref<4x128xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : memref<4x128x128xf32>) outs(%m : memref<4x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maxnumf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Left as they are: a sum whose additions may not be reordered; a row
// shorter than one vector (with AVX-512; with AVX2 it is one); a row longer
// than 16 vectors (257 floats); bf16 rows.
// CHECK-LABEL: func.func @ordered(
//       CHECK: linalg.generic
// CHECK-LABEL: func.func @short(
//       CHECK: linalg.generic
// AVX2-LABEL: func.func @short(
//   AVX2-NOT: linalg.generic
//       AVX2: vector.reduction <add>, {{.*}} : vector<8xf32> into f32
// CHECK-LABEL: func.func @long(
//       CHECK: linalg.generic
// CHECK-LABEL: func.func @half(
//       CHECK: linalg.generic
func.func @ordered(%a: memref<8x64xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x64xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @short(%a: memref<8x8xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @long(%a: memref<8x257xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x257xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @half(%a: memref<8x64xbf16>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x64xbf16>) outs(%b : memref<8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    %1 = arith.addf %0, %out fastmath<reassoc> : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

#rows = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>

// A row read across a transposed operand is strided, not a vector load.
// CHECK-LABEL: func.func @strided(
//       CHECK: linalg.generic
func.func @strided(%a: memref<64x32xf32>, %b: memref<32xf32>) {
  linalg.generic {indexing_maps = [#cols, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x32xf32>) outs(%b : memref<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out fastmath<reassoc> : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

#mask = affine_map<(d0, d1, d2) -> (d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// A row read through a boolean mask (where()'s VJP) stays a loop: an i1
// vector is bits in LLVM, a memref of i1 bytes.
// CHECK-LABEL: func.func @masked(
//   CHECK-NOT: vector.load
//       CHECK: linalg.generic
func.func @masked(%m: memref<10x16xi1>, %g: memref<10x10x16xf64>, %out: memref<10x10xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.generic {indexing_maps = [#mask, #rows, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%m, %g : memref<10x16xi1>, memref<10x10x16xf64>) outs(%out : memref<10x10xf64>) {
  ^bb0(%c: i1, %in: f64, %acc: f64):
    %0 = arith.select %c, %zero, %in : f64
    %1 = arith.addf %0, %acc fastmath<reassoc> : f64
    linalg.yield %1 : f64
  }
  return
}
