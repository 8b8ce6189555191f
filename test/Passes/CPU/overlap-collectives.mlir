// RUN: tad-opt %s --tad-check-indices --tad-to-linalg --tad-overlap-collectives | FileCheck %s

// Each bucket's start moves up to right after the op computing its last
// tensor (with its packing and result buffer); the waits stay where the
// collective was. Here the buckets follow the backward pass: %g1 first
// (alone: first_bucket_bytes = 8), then %g0, with more work after both.
// CHECK-LABEL: func.func @backward(
//       CHECK:   %[[G1:.*]] = linalg.generic
//  CHECK-SAME:   outs(%{{.*}} : tensor<3xf64>)
//       CHECK:   bufferization.to_buffer %[[G1]] read_only
//       CHECK:   %[[H0:.*]] = call @_tad_mpi_start_f64(
//       CHECK:   %[[G0:.*]] = linalg.generic
//  CHECK-SAME:   outs(%{{.*}} : tensor<4x3xf64>)
//       CHECK:   tensor.collapse_shape %[[G0]]
//       CHECK:   %[[H1:.*]] = call @_tad_mpi_start_f64(
//       CHECK:   linalg.generic
//       CHECK:   call @_tad_mpi_wait_{{f32|f64}}(%[[H0]],
//       CHECK:   call @_tad_mpi_wait_{{f32|f64}}(%[[H1]],
func.func @backward(%x: tensor<4x3xf64>, %y: tensor<3xf64>) -> (tensor<3xf64>, tensor<4x3xf64>, tensor<4x3xf64>) {
  %g1 = tad.exp %y : tensor<3xf64>
  %g0 = tad.neg %x : tensor<4x3xf64>
  %t = tad.mul.Tensor %g0, %g0 : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %r:2 = tad.all_reduce %g1, %g0 {first_bucket_bytes = 8} : (tensor<3xf64>, tensor<4x3xf64>) -> (tensor<3xf64>, tensor<4x3xf64>)
  return %r#0, %r#1, %t : tensor<3xf64>, tensor<4x3xf64>, tensor<4x3xf64>
}

// A start does not move above another collective: the ranks run theirs in
// one order (the broadcast's start, of an argument, moves to the top).
// CHECK-LABEL: func.func @after_collective(
//       CHECK:   call @_tad_mpi_start_f32(%c2_i64
//       CHECK:   linalg.generic
//       CHECK:   call @_tad_mpi_wait_{{f32|f64}}(
//       CHECK:   call @_tad_mpi_start_f64(%c0_i64
//       CHECK:   call @_tad_mpi_wait_{{f32|f64}}(
func.func @after_collective(%x: tensor<2xf32>, %y: tensor<3xf64>) -> (tensor<2xf32>, tensor<3xf64>) {
  %g = tad.exp %y : tensor<3xf64>
  %b = tad.broadcast_from %x : (tensor<2xf32>) -> tensor<2xf32>
  %r = tad.all_reduce %g : (tensor<3xf64>) -> tensor<3xf64>
  return %b, %r : tensor<2xf32>, tensor<3xf64>
}

// It moves above a run-time check (here the embedding's index check):
// should the check fail, the runtime lets the collective finish first.
// CHECK-LABEL: func.func @across_check(
//       CHECK:   call @_tad_mpi_start_f64(
//       CHECK:   call @__tad_fail_index(
//       CHECK:   call @_tad_mpi_wait_{{f32|f64}}(
func.func @across_check(%g: tensor<3xf64>, %w: tensor<5x3xf64>, %i: tensor<2xi64>) -> (tensor<3xf64>, tensor<2x3xf64>) {
  %e = tad.embedding %w, %i : (tensor<5x3xf64>, tensor<2xi64>) -> tensor<2x3xf64>
  %r = tad.all_reduce %g : (tensor<3xf64>) -> tensor<3xf64>
  return %r, %e : tensor<3xf64>, tensor<2x3xf64>
}
