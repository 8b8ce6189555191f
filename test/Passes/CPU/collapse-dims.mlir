// RUN: tad-opt %s --tad-collapse-dims --split-input-file | FileCheck %s

// A ReLU over contiguous buffers: one loop over all 301056 elements.
// CHECK-LABEL: func.func @relu(
// CHECK-DAG: %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : memref<64x6x28x28xf32> into memref<301056xf32>
// CHECK-DAG: %[[Y:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2, 3]] : memref<64x6x28x28xf32> into memref<301056xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[X]] : memref<301056xf32>) outs(%[[Y]] : memref<301056xf32>)
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @relu(%x: memref<64x6x28x28xf32>, %y: memref<64x6x28x28xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<64x6x28x28xf32>) outs(%y : memref<64x6x28x28xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Bias and ReLU of a convolution whose result is [C, N, H, W] in memory:
// only the image rows and columns are adjacent in every operand.
// CHECK-LABEL: func.func @bias_relu(
// CHECK: memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<6x64x28x28xf32> into memref<6x64x784xf32>
// CHECK: memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]] : memref<64x6x28x28xf32> into memref<64x6x784xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#cnhw = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @bias_relu(%x: memref<6x64x28x28xf32>, %b: memref<6xf32>, %y: memref<64x6x28x28xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#cnhw, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : memref<6x64x28x28xf32>, memref<6xf32>) outs(%y : memref<64x6x28x28xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A sum over rows and columns: the two reduction loops become one, the
// batch loop stays.
// CHECK-LABEL: func.func @sum_images(
// CHECK: memref.collapse_shape %arg0 {{\[}}[0], [1, 2]] : memref<8x28x28xf32> into memref<8x784xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
#in3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out1 = affine_map<(d0, d1, d2) -> (d0)>
func.func @sum_images(%x: memref<8x28x28xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [#in3, #out1], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : memref<8x28x28xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not merged: a strided view (rows 2 apart are not contiguous), a loop
// whose index the body reads, a parallel loop beside a reduction.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: memref.collapse_shape
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @kept(%x: memref<14x14xf32, strided<[56, 2]>>, %y: memref<14x14xf32>,
                %z: memref<4x8xi64>, %w: memref<4x8xf32>, %r: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<14x14xf32, strided<[56, 2]>>) outs(%y : memref<14x14xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%z : memref<4x8xi64>) {
  ^bb0(%b: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%w : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}
