// RUN: tad-opt %s --tad-to-linalg | FileCheck %s
// RUN: not tad-opt %s --tad-to-linalg=runtime-calls=false 2>&1 | FileCheck %s --check-prefix=GPU

// The collectives become calls of the runtime's MPI layer on 1-D buckets
// (TadToLinalgCollectives.cpp): operands grouped by element type, packed in
// the order they are computed into buckets (the first of at most
// first_bucket_bytes, the others of at most bucket_bytes), each bucket one
// start (kind, dtype, root, signature, bucket index, in, out) returning a
// handle; after all starts, one wait per bucket and the slices back. The
// signature (a hash of the op and its operand types) is the same for every
// bucket of an op.

// CHECK-DAG: func.func private @_tad_mpi_start_f64(i64, i64, i64, i64, i64, memref<*xf64>, memref<*xf64>) -> i64
// CHECK-DAG: func.func private @_tad_mpi_start_f32(i64, i64, i64, i64, i64, memref<*xf32>, memref<*xf32>) -> i64
// CHECK-DAG: func.func private @_tad_mpi_wait_f32(i64, memref<*xf32>)
// CHECK-DAG: func.func private @_tad_mpi_wait_f64(i64, memref<*xf64>)
// CHECK-DAG: func.func private @_tad_mpi_barrier()

// Two f64 tensors (96 + 24 bytes) fit one bucket; the f32 one is another.
// Buckets are numbered over the op: f32 ones first, then f64 ones.
// CHECK-LABEL: func.func @mean(
//       CHECK:   %[[H0:.*]] = call @_tad_mpi_start_f32(%c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %[[SIG:c-?[0-9]+_i64]]{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, memref<*xf32>, memref<*xf32>) -> i64
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<15xf64>
//       CHECK:   %[[FA:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x3xf64> into tensor<12xf64>
//       CHECK:   %[[B0:.*]] = tensor.insert_slice %[[FA]] into %[[E]][0] [12] [1]
//       CHECK:   %[[B1:.*]] = tensor.insert_slice %{{.*}} into %[[B0]][12] [3] [1]
//       CHECK:   %[[IN:.*]] = bufferization.to_buffer %[[B1]] read_only : tensor<15xf64> to memref<15xf64>
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<15xf64>
//       CHECK:   %[[H1:.*]] = call @_tad_mpi_start_f64(%c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %[[SIG]]{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, memref<*xf64>, memref<*xf64>) -> i64
//       CHECK:   call @_tad_mpi_wait_f32(%[[H0]], %{{.*}}) : (i64, memref<*xf32>) -> ()
//       CHECK:   %[[OUTU:.*]] = memref.cast %[[OUT]] : memref<15xf64> to memref<*xf64>
//       CHECK:   call @_tad_mpi_wait_f64(%[[H1]], %[[OUTU]]) : (i64, memref<*xf64>) -> ()
//       CHECK:   %[[R:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
//       CHECK:   tensor.extract_slice %[[R]][0] [12] [1] : tensor<15xf64> to tensor<12xf64>
//       CHECK:   tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 3] : tensor<12xf64> into tensor<4x3xf64>
//       CHECK:   tensor.extract_slice %[[R]][12] [3] [1] : tensor<15xf64> to tensor<3xf64>
//   CHECK-NOT:   call @_tad_mpi_start
//       CHECK:   return
func.func @mean(%a: tensor<4x3xf64>, %b: tensor<3xf64>, %c: tensor<2xf32>) -> (tensor<4x3xf64>, tensor<3xf64>, tensor<2xf32>) {
  %0:3 = tad.all_reduce %a, %b, %c {reduction = "mean"} : (tensor<4x3xf64>, tensor<3xf64>, tensor<2xf32>) -> (tensor<4x3xf64>, tensor<3xf64>, tensor<2xf32>)
  return %0#0, %0#1, %0#2 : tensor<4x3xf64>, tensor<3xf64>, tensor<2xf32>
}

// With a 100-byte cap, the 96-byte tensor and the 24-byte one are two
// buckets (indices 0 and 1, sum: kind 0); a scalar is flattened to
// tensor<1xf64>.
// CHECK-LABEL: func.func @buckets(
//       CHECK:   call @_tad_mpi_start_f64(%c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c{{-?[0-9]+}}_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, memref<*xf64>, memref<*xf64>) -> i64
//       CHECK:   call @_tad_mpi_start_f64(%c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c{{-?[0-9]+}}_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, memref<*xf64>, memref<*xf64>) -> i64
//       CHECK:   tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f64> into tensor<1xf64>
//       CHECK:   call @_tad_mpi_start_f64(
//       CHECK:   call @_tad_mpi_wait_{{f32|f64}}(
//       CHECK:   tensor.collapse_shape %{{.*}} [] : tensor<1xf64> into tensor<f64>
func.func @buckets(%a: tensor<4x3xf64>, %b: tensor<3xf64>, %s: tensor<f64>) -> (tensor<4x3xf64>, tensor<3xf64>, tensor<f64>) {
  %0:2 = tad.all_reduce %a, %b {bucket_bytes = 100} : (tensor<4x3xf64>, tensor<3xf64>) -> (tensor<4x3xf64>, tensor<3xf64>)
  %1 = tad.all_reduce %s : (tensor<f64>) -> tensor<f64>
  return %0#0, %0#1, %1 : tensor<4x3xf64>, tensor<3xf64>, tensor<f64>
}

// Buckets follow the order the operands are computed, not the operand
// order: %late (computed last) is in bucket 1. The first bucket holds at
// most first_bucket_bytes (here 50: %early alone), the next ones
// bucket_bytes (here 200: %mid and %late together).
// CHECK-LABEL: func.func @computed_order(
//       CHECK:   %[[EARLY:.*]] = linalg.generic
//       CHECK:   %[[MID:.*]] = linalg.generic
//       CHECK:   %[[LATE:.*]] = linalg.generic
//       CHECK:   bufferization.to_buffer %[[EARLY]]
//       CHECK:   call @_tad_mpi_start_f64({{.*}}, %c0_i64{{[_0-9]*}}, %{{.*}}, %{{.*}}) :
//       CHECK:   tensor.empty() : tensor<15xf64>
//       CHECK:   tensor.collapse_shape %[[MID]]
//       CHECK:   tensor.insert_slice %{{.*}}[0] [12] [1]
//       CHECK:   tensor.insert_slice %[[LATE]] into %{{.*}}[12] [3] [1]
//       CHECK:   call @_tad_mpi_start_f64({{.*}}, %c1_i64{{[_0-9]*}}, %{{.*}}, %{{.*}}) :
func.func @computed_order(%x: tensor<4x3xf64>, %y: tensor<3xf64>) -> (tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>) {
  %early = tad.neg %y : tensor<3xf64>
  %mid = tad.neg %x : tensor<4x3xf64>
  %late = tad.exp %y : tensor<3xf64>
  %0:3 = tad.all_reduce %late, %mid, %early {bucket_bytes = 200, first_bucket_bytes = 50} : (tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>) -> (tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>)
  return %0#0, %0#1, %0#2 : tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>
}

// Broadcast is kind 2 with its root; the barrier a call.
// CHECK-LABEL: func.func @broadcast(
//       CHECK:   call @_tad_mpi_start_f32(%c2_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}},
//       CHECK:   call @_tad_mpi_wait_{{f32|f64}}(
//       CHECK:   call @_tad_mpi_barrier() : () -> ()
func.func @broadcast(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tad.broadcast_from %a {root = 1} : (tensor<2xf32>) -> tensor<2xf32>
  tad.barrier
  return %0 : tensor<2xf32>
}

// The conversion stops at the first op it cannot lower.
// GPU: error: 'tad.all_reduce' op is not supported on the GPU target (it calls the CPU runtime's MPI layer)
