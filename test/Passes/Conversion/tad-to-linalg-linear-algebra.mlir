// RUN: tad-opt %s --tad-to-linalg | FileCheck %s
// RUN: not tad-opt %s --tad-to-linalg=runtime-calls=false 2>&1 | FileCheck %s --check-prefix=GPU

// The linear-algebra ops become calls of the runtime's kernels on unranked
// memrefs: inputs as read-only buffers, results as fresh allocations turned
// back into tensors (TadToLinalgLinearAlgebra.cpp).

// CHECK-DAG: func.func private @_tad_linalg_inv_f64(memref<*xf64>, memref<*xf64>, memref<*xi32>)
// CHECK-DAG: func.func private @_tad_linalg_slogdet_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi32>)
// CHECK-DAG: func.func private @_tad_linalg_cholesky_f64(i64, memref<*xf64>, memref<*xf64>, memref<*xi32>)

// CHECK-LABEL: func.func @inv(
//       CHECK:   %[[A:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<2x3x3xf64> to memref<2x3x3xf64>
//       CHECK:   %[[UA:.*]] = memref.cast %[[A]] : memref<2x3x3xf64> to memref<*xf64>
//       CHECK:   %[[I:.*]] = memref.alloc() : memref<2x3x3xf64>
//       CHECK:   %[[UI:.*]] = memref.cast %[[I]] : memref<2x3x3xf64> to memref<*xf64>
//       CHECK:   %[[N:.*]] = memref.alloc() : memref<2xi32>
//       CHECK:   %[[UN:.*]] = memref.cast %[[N]] : memref<2xi32> to memref<*xi32>
//       CHECK:   call @_tad_linalg_inv_f64(%[[UA]], %[[UI]], %[[UN]])
//       CHECK:   %[[R:.*]] = bufferization.to_tensor %[[I]] restrict writable : memref<2x3x3xf64> to tensor<2x3x3xf64>
//       CHECK:   return %[[R]]
func.func @inv(%a: tensor<2x3x3xf64>) -> tensor<2x3x3xf64> {
  %0:2 = tad.linalg_inv_ex %a : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
  return %0#0 : tensor<2x3x3xf64>
}

// CHECK-LABEL: func.func @slogdet(
//       CHECK:   call @_tad_linalg_slogdet_f32(
func.func @slogdet(%a: tensor<3x3xf32>) -> tensor<f32> {
  %0:4 = tad._linalg_slogdet %a : (tensor<3x3xf32>) -> (tensor<f32>, tensor<f32>, tensor<3x3xf32>, tensor<3xi32>)
  return %0#1 : tensor<f32>
}

// The `upper` flag is the leading i64 argument.
// CHECK-LABEL: func.func @cholesky(
//       CHECK:   %[[UP:.*]] = arith.constant 1 : i64
//       CHECK:   call @_tad_linalg_cholesky_f64(%[[UP]],
func.func @cholesky(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0:2 = tad.linalg_cholesky_ex %a {upper = true} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
  return %0#0 : tensor<3x3xf64>
}

// With runtime-calls=false (the GPU target) each op is a located error.
// GPU: tad-to-linalg-linear-algebra.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'tad.linalg_inv_ex' op is not supported on the GPU target (it calls a CPU runtime kernel)
