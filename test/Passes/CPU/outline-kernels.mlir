// RUN: tad-opt %s --tad-outline-kernels | FileCheck %s
// RUN: tad-opt %s --tad-outline-kernels=min-uses=2 | FileCheck %s --check-prefix=TWICE

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @f(
func.func @f(%x: memref<4x8xf32>, %w: memref<8x16xf32>, %big: memref<2x4x8xf32>,
             %o1: memref<4x16xf32>, %o2: memref<4x16xf32>, %s: f32,
             %t: memref<16x4xf32>) {
  // Two identical matmuls, the second on a view at a non-zero offset: one
  // kernel, called with each operand's base buffer and offset.
  // CHECK: %[[XB:.*]], %[[XO:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
  // CHECK: call @matmul_4x16x8_f32(%[[XB]], %[[XO]],
  // CHECK: %[[V:.*]] = memref.subview %arg2[1, 0, 0]
  // CHECK: %[[VB:.*]], %[[VO:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[V]]
  // CHECK: call @matmul_4x16x8_f32(%[[VB]], %[[VO]],
  linalg.matmul ins(%x, %w : memref<4x8xf32>, memref<8x16xf32>) outs(%o1 : memref<4x16xf32>)
  %v = memref.subview %big[1, 0, 0] [1, 4, 8] [1, 1, 1] : memref<2x4x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 32>>
  linalg.matmul ins(%v, %w : memref<4x8xf32, strided<[8, 1], offset: 32>>, memref<8x16xf32>) outs(%o2 : memref<4x16xf32>)

  // The same in-place generic on two buffers, using a constant from
  // outside: the buffer is passed once, the constant is cloned.
  // CHECK: call @generic_4x16_f32(%{{[^,]*}}, %{{[^,]*}}) : (memref<f32>, index) -> ()
  // CHECK: call @generic_4x16_f32(
  %c = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o1 : memref<4x16xf32>) outs(%o1 : memref<4x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o2 : memref<4x16xf32>) outs(%o2 : memref<4x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  }

  // A scalar from outside that is not a constant: stays inline.
  // CHECK: linalg.fill ins(%arg5 : f32) outs(%arg3
  // CHECK: linalg.fill ins(%arg5 : f32) outs(%arg4
  // TWICE: linalg.fill ins(%arg5
  linalg.fill ins(%s : f32) outs(%o1 : memref<4x16xf32>)
  linalg.fill ins(%s : f32) outs(%o2 : memref<4x16xf32>)

  // Reading and writing overlapping views of one buffer, twice: one kernel
  // without noalias.
  // CHECK: call @copy_2x16_f32(
  // CHECK: call @copy_2x16_f32(
  %r0 = memref.subview %o1[0, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1]>>
  %r1 = memref.subview %o1[1, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1], offset: 16>>
  linalg.copy ins(%r0 : memref<2x16xf32, strided<[16, 1]>>) outs(%r1 : memref<2x16xf32, strided<[16, 1], offset: 16>>)
  linalg.copy ins(%r0 : memref<2x16xf32, strided<[16, 1]>>) outs(%r1 : memref<2x16xf32, strided<[16, 1], offset: 16>>)

  // Used once: a kernel too (for its noalias pointers), but not with
  // min-uses=2.
  // CHECK: call @transpose_16x4_f32(
  // TWICE: linalg.transpose ins(%arg3
  linalg.transpose ins(%o1 : memref<4x16xf32>) outs(%t : memref<16x4xf32>) permutation = [1, 0]
  return
}

// A fill just before the contraction that accumulates into the same buffer
// is outlined with it (tad-vectorize-contractions fills each output tile in
// the kernel); a fill of another buffer stays a kernel of its own.
// CHECK-LABEL: func.func @filled(
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: memref.extract_strided_metadata %arg2
// CHECK: call @matmul_4x32x8_f32(
// CHECK-NOT: linalg.fill
// CHECK: call @fill_4x32_f32(
// CHECK-NEXT: memref.extract_strided_metadata %arg0
// CHECK: call @matmul_4x32x8_f32_0(
func.func @filled(%x: memref<4x8xf32>, %w: memref<8x32xf32>,
                  %o: memref<4x32xf32>, %p: memref<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<4x32xf32>)
  linalg.matmul ins(%x, %w : memref<4x8xf32>, memref<8x32xf32>) outs(%o : memref<4x32xf32>)
  linalg.fill ins(%zero : f32) outs(%p : memref<4x32xf32>)
  linalg.matmul ins(%x, %w : memref<4x8xf32>, memref<8x32xf32>) outs(%o : memref<4x32xf32>)
  return
}

// A fill of a buffer that the contraction writes through a reshape, past
// view ops: the fill moves onto the reshaped view and into the kernel, the
// same kernel as @filled's first fill and matmul.
// CHECK-LABEL: func.func @filled_reshaped(
//   CHECK-NOT: linalg.fill
//       CHECK: %[[VIEW:.*]] = memref.collapse_shape %arg2
//       CHECK: memref.extract_strided_metadata %[[VIEW]]
//       CHECK: call @matmul_4x32x8_f32(
func.func @filled_reshaped(%x: memref<4x8xf32>, %w: memref<8x32xf32>,
                           %o: memref<4x2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<4x2x16xf32>)
  %v = memref.collapse_shape %o [[0], [1, 2]] : memref<4x2x16xf32> into memref<4x32xf32>
  linalg.matmul ins(%x, %w : memref<4x8xf32>, memref<8x32xf32>) outs(%v : memref<4x32xf32>)
  return
}

// Dynamic sizes (the rows that a dynamic batch's blocks leave,
// tad-block-dynamic-rows) are arguments of the kernel after each operand's
// base and offset, read from the operand's metadata: the loop stays
// vectorizable with noalias pointers instead of plain loops in the caller.
// CHECK-LABEL: func.func @dynamic_rows(
//       CHECK: %[[XB:.*]], %[[XO:.*]], %[[XS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
//       CHECK: %[[YB:.*]], %[[YO:.*]], %[[YS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %arg1
//       CHECK: call @generic_Nx16_f32(%[[XB]], %[[XO]], %[[XS]]#0, %[[YB]], %[[YO]], %[[YS]]#0) : (memref<f32>, index, index, memref<f32>, index, index) -> ()
func.func @dynamic_rows(%x: memref<?x16xf32>, %y: memref<?x16xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x16xf32>) outs(%y : memref<?x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// One kernel per distinct computation, private and never inlined; views
// rebuilt with static sizes and strides and the offset passed in.
// CHECK-LABEL: func.func private @matmul_4x16x8_f32(
// CHECK-SAME: %[[A:[^:]*]]: memref<f32> {llvm.noalias}, %[[AO:[^:]*]]: index,
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK: memref.reinterpret_cast %[[A]] to offset: [%[[AO]]], sizes: [4, 8], strides: [8, 1] : memref<f32> to memref<4x8xf32, strided<[8, 1], offset: ?>>
// CHECK: linalg.matmul
// CHECK-NOT: linalg.matmul
// CHECK: return

// CHECK-LABEL: func.func private @generic_4x16_f32(
// CHECK-SAME: %{{.*}}: memref<f32> {llvm.noalias}, %{{.*}}: index)
// CHECK: arith.constant 2.0
// CHECK: linalg.generic

// CHECK-LABEL: func.func private @copy_2x16_f32(
// CHECK-NOT: llvm.noalias
// CHECK-SAME: attributes
// CHECK-NOT: func.func private @matmul
// CHECK: func.func private @transpose_16x4_f32(
// TWICE-NOT: func.func private @transpose

// CHECK-LABEL: func.func private @matmul_4x32x8_f32(
// CHECK: %[[C:.*]] = memref.reinterpret_cast %arg0
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[C]] :
// CHECK-NEXT: linalg.matmul ins({{.*}}) outs(%[[C]] :
// CHECK-LABEL: func.func private @fill_4x32_f32(
// CHECK-LABEL: func.func private @matmul_4x32x8_f32_0(
// CHECK-NOT: linalg.fill
// CHECK: linalg.matmul

// CHECK-LABEL: func.func private @generic_Nx16_f32(
//  CHECK-SAME: %[[X:[^:]*]]: memref<f32> {llvm.noalias}, %[[XO:[^:]*]]: index, %[[XN:[^:]*]]: index, %[[Y:[^:]*]]: memref<f32> {llvm.noalias}, %[[YO:[^:]*]]: index, %[[YN:[^:]*]]: index)
//       CHECK: memref.reinterpret_cast %[[X]] to offset: [%[[XO]]], sizes: [%[[XN]], 16], strides: [16, 1] : memref<f32> to memref<?x16xf32, strided<[16, 1], offset: ?>>
//       CHECK: memref.reinterpret_cast %[[Y]] to offset: [%[[YO]]], sizes: [%[[YN]], 16], strides: [16, 1]
//       CHECK: linalg.generic
