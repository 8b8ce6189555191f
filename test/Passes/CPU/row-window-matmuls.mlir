// RUN: tad-opt %s --split-input-file --tad-row-window-matmuls | FileCheck %s

// An implicit-GEMM convolution's contraction for kernel row 1 (4 channels,
// rows of 6, 3 kernel columns): the 1-D buffer read at d0·4 + d2 + 24
// becomes a [36, 12] view with strides [4, 1] (rows overlap) and the
// generic a linalg.matmul of it.
// CHECK-LABEL: func.func @window_rows(
//       CHECK:   %[[V:.*]] = memref.reinterpret_cast %arg0 to offset: [24], sizes: [36, 12], strides: [4, 1] : memref<200xf32> to memref<36x12xf32, strided<[4, 1], offset: 24>>
//       CHECK:   linalg.matmul ins(%[[V]], %arg1 : memref<36x12xf32, strided<[4, 1], offset: 24>>, memref<12x2xf32>) outs(%arg2 : memref<36x2xf32>)
//   CHECK-NOT:   linalg.generic
func.func @window_rows(%rows: memref<200xf32>, %w: memref<12x2xf32>, %out: memref<36x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 4 + d2 + 24)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows, %w : memref<200xf32>, memref<12x2xf32>) outs(%out : memref<36x2xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The weight gradient's form: the window rows are the reduction (d2), read
// transposed; the matmul keeps that map. The product in the other order
// and the sum with the accumulator second match too.
// CHECK-DAG: #[[$AT:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @transposed_rows(
//       CHECK:   %[[V:.*]] = memref.reinterpret_cast %arg0 to offset: [48], sizes: [36, 12], strides: [4, 1]
//       CHECK:   linalg.matmul indexing_maps = [#[[$AT]], {{.*}}] ins(%[[V]], %arg1 : {{.*}}) outs(%arg2 : memref<12x2xf32>)
func.func @transposed_rows(%rows: memref<200xf32>, %g: memref<36x2xf32>, %out: memref<12x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2 * 4 + d0 + 48)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows, %g : memref<200xf32>, memref<36x2xf32>) outs(%out : memref<12x2xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %b, %a : f32
    %s = arith.addf %p, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// One channel: the row stride 1 folds away (d0 + d2); the view has
// strides [1, 1].
// CHECK-LABEL: func.func @unit_stride(
//       CHECK:   memref.reinterpret_cast %arg0 to offset: [0], sizes: [30, 3], strides: [1, 1]
//       CHECK:   linalg.matmul
func.func @unit_stride(%rows: memref<32xf64>, %w: memref<3x5xf64>, %out: memref<30x5xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 + d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows, %w : memref<32xf64>, memref<3x5xf64>) outs(%out : memref<30x5xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %p = arith.mulf %a, %b : f64
    %s = arith.addf %c, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// Left alone: a body that is not out + a · b, and rows over the n loop.
// CHECK-LABEL: func.func @not_window_rows(
//   CHECK-NOT:   memref.reinterpret_cast
//   CHECK-NOT:   linalg.matmul
//       CHECK:   return
func.func @not_window_rows(%rows: memref<200xf32>, %w: memref<12x2xf32>,
                           %out: memref<36x2xf32>, %w2: memref<12x36xf32>, %out2: memref<2x36xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 4 + d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows, %w : memref<200xf32>, memref<12x2xf32>) outs(%out : memref<36x2xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.subf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1 * 4 + d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows, %w2 : memref<200xf32>, memref<12x36xf32>) outs(%out2 : memref<2x36xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bf16 convolution's contraction: bf16 operands extended to the f32
// accumulator in the body become a linalg.matmul of the bf16 view and
// operand into f32 (which extends them itself).
// CHECK-LABEL: func.func @bf16_rows(
//       CHECK:   %[[V:.*]] = memref.reinterpret_cast %arg0 to offset: [24], sizes: [36, 12], strides: [4, 1] : memref<200xbf16> to memref<36x12xbf16, strided<[4, 1], offset: 24>>
//       CHECK:   linalg.matmul ins(%[[V]], %arg1 : memref<36x12xbf16, strided<[4, 1], offset: 24>>, memref<12x2xbf16>) outs(%arg2 : memref<36x2xf32>)
//   CHECK-NOT:   linalg.generic
func.func @bf16_rows(%rows: memref<200xbf16>, %w: memref<12x2xbf16>, %out: memref<36x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 4 + d2 + 24)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows, %w : memref<200xbf16>, memref<12x2xbf16>) outs(%out : memref<36x2xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %ea = arith.extf %a : bf16 to f32
    %eb = arith.extf %b : bf16 to f32
    %p = arith.mulf %ea, %eb : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Anything else in the body (here a scaled product) is not a matmul.
// CHECK-LABEL: func.func @extended_and_scaled(
//       CHECK:   linalg.generic
//   CHECK-NOT:   linalg.matmul
func.func @extended_and_scaled(%rows: memref<200xbf16>, %w: memref<12x2xf32>, %out: memref<36x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 4 + d2 + 24)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows, %w : memref<200xbf16>, memref<12x2xf32>) outs(%out : memref<36x2xf32>) {
  ^bb0(%a: bf16, %b: f32, %c: f32):
    %ea = arith.extf %a : bf16 to f32
    %two = arith.constant 2.0 : f32
    %b2 = arith.mulf %b, %two : f32
    %p = arith.mulf %ea, %b2 : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The window as B (a bf16 weight gradient: gw^T[f, k] += g^T[f, t] ·
// rows[t·4 + k + 24]): B is the [36, 12] view, A the plain operand (the
// default maps of a matmul, not printed).
// CHECK-LABEL: func.func @window_as_rhs(
//       CHECK:   %[[V:.*]] = memref.reinterpret_cast %arg1 to offset: [24], sizes: [36, 12], strides: [4, 1] : memref<200xbf16> to memref<36x12xbf16, strided<[4, 1], offset: 24>>
//       CHECK:   linalg.matmul ins(%arg0, %[[V]] : memref<2x36xbf16>, memref<36x12xbf16, strided<[4, 1], offset: 24>>) outs(%arg2 : memref<2x12xf32>)
func.func @window_as_rhs(%g: memref<2x36xbf16>, %rows: memref<200xbf16>, %out: memref<2x12xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2 * 4 + d1 + 24)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %rows : memref<2x36xbf16>, memref<200xbf16>) outs(%out : memref<2x12xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %ea = arith.extf %a : bf16 to f32
    %eb = arith.extf %b : bf16 to f32
    %p = arith.mulf %ea, %eb : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A window over m as B is not a matmul operand (its rows would be the
// output's rows).
// CHECK-LABEL: func.func @window_rhs_over_m(
//   CHECK-NOT:   linalg.matmul
func.func @window_rhs_over_m(%g: memref<36x2xf32>, %rows: memref<200xf32>, %out: memref<36x12xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0 * 4 + d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %rows : memref<36x2xf32>, memref<200xf32>) outs(%out : memref<36x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The batched form (a bf16 weight gradient over its 3 kernel rows):
// gw[b, f, k] += g[f, t] · rows[t·4 + k + b·24]: a linalg.batch_matmul of
// g broadcast over the batches (stride 0) and a [3, 36, 12] view of the rows
// with strides [24, 4, 1].
// CHECK-LABEL: func.func @batched_rows(
//       CHECK:   %[[A:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [3, 2, 36], strides: [0, 36, 1] : memref<2x36xbf16> to memref<3x2x36xbf16, strided<[0, 36, 1]>>
//       CHECK:   %[[B:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [3, 36, 12], strides: [24, 4, 1] : memref<200xbf16> to memref<3x36x12xbf16, strided<[24, 4, 1]>>
//       CHECK:   linalg.batch_matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%arg2 : memref<3x2x12xf32>)
//   CHECK-NOT:   linalg.generic
func.func @batched_rows(%g: memref<2x36xbf16>, %rows: memref<200xbf16>, %out: memref<3x2x12xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3 * 4 + d2 + d0 * 24)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g, %rows : memref<2x36xbf16>, memref<200xbf16>) outs(%out : memref<3x2x12xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %ea = arith.extf %a : bf16 to f32
    %eb = arith.extf %b : bf16 to f32
    %p = arith.mulf %ea, %eb : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transposed A (at (k, m)) is not the batched form: left alone.
// CHECK-LABEL: func.func @batched_transposed_lhs(
//       CHECK:   linalg.generic
//   CHECK-NOT:   linalg.batch_matmul
func.func @batched_transposed_lhs(%g: memref<36x2xbf16>, %rows: memref<200xbf16>, %out: memref<3x2x12xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3 * 4 + d2 + d0 * 24)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g, %rows : memref<36x2xbf16>, memref<200xbf16>) outs(%out : memref<3x2x12xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %ea = arith.extf %a : bf16 to f32
    %eb = arith.extf %b : bf16 to f32
    %p = arith.mulf %ea, %eb : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}
