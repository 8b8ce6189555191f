// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-convolutions{vector-bits=512}),canonicalize,cse)' | FileCheck %s
// RUN: tad-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tad-vectorize-convolutions{vector-bits=512 parallel=true cores=2}),canonicalize,cse)' | FileCheck %s --check-prefix=PAR

// Forward, one output row (n, oh) per iteration: the accumulators of the 3
// filters x (16 + 3 columns) start from the output, each of the 4 kernel
// taps loads the input row at its offset (16 + 3 lanes) once for all
// filters and multiplies it with each filter's broadcast weight.
// CHECK-LABEL: func.func @forward(
//   CHECK-NOT: linalg.conv_2d_nchw_fchw
//       CHECK: scf.for %[[N:.+]] = %c0 to %c2
//       CHECK: scf.for %[[OH:.+]] = %c0 to %c3
//       CHECK: vector.transfer_read %arg2[%[[N]], %c0, %[[OH]], %c0]{{.*}} : memref<2x3x3x19xf32>, vector<16xf32>
//       CHECK: vector.transfer_read %arg2[%[[N]], %c0, %[[OH]], %c16]{{.*}} : memref<2x3x3x19xf32>, vector<3xf32>
//       CHECK: vector.transfer_read %arg0[%[[N]], %c0, %[[OH]], %c0]{{.*}} : memref<2x1x4x20xf32>, vector<16xf32>
//       CHECK: vector.transfer_read %arg0[%[[N]], %c0, %[[OH]], %c16]{{.*}} : memref<2x1x4x20xf32>, vector<3xf32>
//       CHECK: memref.load %arg1[%c0, %c0, %c0, %c0]
//       CHECK: vector.broadcast {{.*}} : f32 to vector<16xf32>
//       CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK-COUNT-23: vector.fma
//   CHECK-NOT: vector.fma
//       CHECK: vector.transfer_write {{.*}}, %arg2[%[[N]], %c2, %[[OH]], %c16]{{.*}} : vector<3xf32>, memref<2x3x3x19xf32>
//   PAR-LABEL: func.func @forward(
//   PAR-NOT: scf.parallel
func.func @forward(%x: memref<2x1x4x20xf32>, %w: memref<3x1x2x2xf32>, %out: memref<2x3x3x19xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<2x1x4x20xf32>, memref<3x1x2x2xf32>) outs(%out : memref<2x3x3x19xf32>)
  return
}

// -----

// LeNet's first layer: 8 x 6 x 28 x 28 outputs of 25 taps, over 2^18
// multiply-adds, runs its (n, oh) rows on the cores.
// PAR-LABEL: func.func @lenet_forward(
//       PAR: scf.parallel ({{.*}}) = (%c0, %c0) to (%c8, %c28) step (%c1, %c1)
// PAR-COUNT-300: vector.fma
// CHECK-LABEL: func.func @lenet_forward(
//   CHECK-NOT: scf.parallel
func.func @lenet_forward(%x: memref<8x1x32x32xf32>, %w: memref<6x1x5x5xf32>, %out: memref<8x6x28x28xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<8x1x32x32xf32>, memref<6x1x5x5xf32>) outs(%out : memref<8x6x28x28xf32>)
  return
}

// -----

// Weight gradient: vector partial sums [parts, F, C, KH, KW, lanes]; per
// image, input channel, kernel row and row vector (16 + 3 columns), the 3 x 2
// accumulators (filter, kernel column) run through the output rows with 2
// input loads and 3 gradient loads per row; the partial sums are reduced
// into the output at the end.
// CHECK-LABEL: func.func @weight_grad(
//       CHECK: %[[P:.+]] = memref.alloc() : memref<1x3x1x2x2x16xf32>
//       CHECK: linalg.fill {{.*}} outs(%[[P]]
//       CHECK: scf.for %[[N:.+]] = %c0 to %c2
//       CHECK: scf.for %[[KH:.+]] = %c0 to %c2
//       CHECK: vector.transfer_read %[[P]]{{.*}} vector<16xf32>
//       CHECK: scf.for %[[OH:.+]] = %c0 to %c3 step %c1 iter_args(
//       CHECK:   vector.transfer_read %arg1[%[[N]], %c0, {{.*}}, %c0]{{.*}} vector<16xf32>
//       CHECK:   vector.transfer_read %arg1[%[[N]], %c0, {{.*}}, %c1]{{.*}} vector<16xf32>
//       CHECK:   vector.transfer_read %arg0[%[[N]], %c0, %[[OH]], %c0]{{.*}} vector<16xf32>
//       CHECK:   vector.fma
// CHECK-COUNT-5:   vector.fma {{.*}} : vector<16xf32>
//       CHECK:   scf.yield
//       CHECK: scf.for {{.*}} iter_args(
//       CHECK:   vector.fma {{.*}} : vector<3xf32>
//       CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[P]] : memref<1x3x1x2x2x16xf32>) outs(%arg2 : memref<3x1x2x2xf32>)
//       CHECK: memref.dealloc %[[P]]
//   PAR-LABEL: func.func @weight_grad(
//   PAR-NOT: scf.parallel
func.func @weight_grad(%g: memref<2x3x3x19xf32>, %x: memref<2x1x4x20xf32>, %gw: memref<3x1x2x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, n, oh, ow) -> (n, c, oh + kh, ow + kw)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (n, f, oh, ow)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (f, c, kh, kw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %g : memref<2x1x4x20xf32>, memref<2x3x3x19xf32>) outs(%gw : memref<3x1x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Large enough: the images split into one part per core, each with its own
// partial sums.
// PAR-LABEL: func.func @lenet_weight_grad(
//       PAR: memref.alloc() : memref<2x6x1x5x5x16xf32>
//       PAR: scf.parallel (%[[PART:.+]]) = (%c0) to (%c2) step (%c1)
//       PAR:   arith.muli %[[PART]], %c8
//       PAR:   arith.divui
func.func @lenet_weight_grad(%g: memref<8x6x28x28xf32>, %x: memref<8x1x32x32xf32>, %gw: memref<6x1x5x5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, n, oh, ow) -> (n, c, oh + kh, ow + kw)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (n, f, oh, ow)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (f, c, kh, kw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %g : memref<8x1x32x32xf32>, memref<8x6x28x28xf32>) outs(%gw : memref<6x1x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not ours: a strided convolution and a generic with the weight gradient's
// maps that computes something else.
// CHECK-LABEL: func.func @others(
//       CHECK: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2>
//       CHECK: linalg.generic
//       CHECK:   arith.subf
//   CHECK-NOT: vector.fma
func.func @others(%x: memref<1x1x9x9xf32>, %w: memref<2x1x3x3xf32>, %out: memref<1x2x4x4xf32>,
                  %g: memref<1x2x7x7xf32>, %gw: memref<2x1x3x3xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<1x1x9x9xf32>, memref<2x1x3x3xf32>) outs(%out : memref<1x2x4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, n, oh, ow) -> (n, c, oh + kh, ow + kw)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (n, f, oh, ow)>, affine_map<(f, c, kh, kw, n, oh, ow) -> (f, c, kh, kw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %g : memref<1x1x9x9xf32>, memref<1x2x7x7xf32>) outs(%gw : memref<2x1x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
