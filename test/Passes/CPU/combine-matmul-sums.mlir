// RUN: tad-opt %s --tad-combine-matmul-sums --canonicalize --split-input-file | FileCheck %s

// The weight gradient of a recurrent cell, sum_t t(g_t) @ h_t: one product
// over the concatenated steps, its lhs one transpose of the stacked g_t.
// CHECK-LABEL: func.func @rnn_weight_grad(
// CHECK-SAME: %[[G0:[^:]*]]: tensor<16x1024xf32>, %[[H0:[^:]*]]: tensor<16x256xf32>, %[[G1:[^:]*]]: tensor<16x1024xf32>, %[[H1:[^:]*]]: tensor<16x256xf32>, %[[G2:[^:]*]]: tensor<16x1024xf32>, %[[H2:[^:]*]]: tensor<16x256xf32>)
// CHECK: %[[G:.*]] = tad.cat %[[G0]], %[[G1]], %[[G2]] : {{.*}} -> tensor<48x1024xf32>
// CHECK: %[[GT:.*]] = tad.t %[[G]] : (tensor<48x1024xf32>) -> tensor<1024x48xf32>
// CHECK: %[[H:.*]] = tad.cat %[[H0]], %[[H1]], %[[H2]] : {{.*}} -> tensor<48x256xf32>
// CHECK: %[[P:.*]] = tad.mm %[[GT]], %[[H]] : (tensor<1024x48xf32>, tensor<48x256xf32>) -> tensor<1024x256xf32>
// CHECK-NOT: tad.add.Tensor
// CHECK: return %[[P]]
func.func @rnn_weight_grad(%g0: tensor<16x1024xf32>, %h0: tensor<16x256xf32>,
                           %g1: tensor<16x1024xf32>, %h1: tensor<16x256xf32>,
                           %g2: tensor<16x1024xf32>, %h2: tensor<16x256xf32>) -> tensor<1024x256xf32> {
  %t0 = tad.t %g0 : (tensor<16x1024xf32>) -> tensor<1024x16xf32>
  %p0 = tad.mm %t0, %h0 : (tensor<1024x16xf32>, tensor<16x256xf32>) -> tensor<1024x256xf32>
  %t1 = tad.t %g1 : (tensor<16x1024xf32>) -> tensor<1024x16xf32>
  %p1 = tad.mm %t1, %h1 : (tensor<1024x16xf32>, tensor<16x256xf32>) -> tensor<1024x256xf32>
  %s1 = tad.add.Tensor %p0, %p1 : (tensor<1024x256xf32>, tensor<1024x256xf32>) -> tensor<1024x256xf32>
  %t2 = tad.t %g2 : (tensor<16x1024xf32>) -> tensor<1024x16xf32>
  %p2 = tad.mm %t2, %h2 : (tensor<1024x16xf32>, tensor<16x256xf32>) -> tensor<1024x256xf32>
  %s2 = tad.add.Tensor %s1, %p2 : (tensor<1024x256xf32>, tensor<1024x256xf32>) -> tensor<1024x256xf32>
  return %s2 : tensor<1024x256xf32>
}

// -----

// Plain lhs operands are concatenated along k (dimension 1).
// CHECK-LABEL: func.func @plain_lhs(
// CHECK-SAME: %[[A0:[^:]*]]: tensor<64x8xf64>, %[[B0:[^:]*]]: tensor<8x32xf64>, %[[A1:[^:]*]]: tensor<64x4xf64>, %[[B1:[^:]*]]: tensor<4x32xf64>)
// CHECK: %[[A:.*]] = tad.cat %[[A0]], %[[A1]] {dim = 1 : i64} : {{.*}} -> tensor<64x12xf64>
// CHECK: %[[B:.*]] = tad.cat %[[B0]], %[[B1]] : {{.*}} -> tensor<12x32xf64>
// CHECK: tad.mm %[[A]], %[[B]] : (tensor<64x12xf64>, tensor<12x32xf64>) -> tensor<64x32xf64>
func.func @plain_lhs(%a0: tensor<64x8xf64>, %b0: tensor<8x32xf64>,
                     %a1: tensor<64x4xf64>, %b1: tensor<4x32xf64>) -> tensor<64x32xf64> {
  %p0 = tad.mm %a0, %b0 : (tensor<64x8xf64>, tensor<8x32xf64>) -> tensor<64x32xf64>
  %p1 = tad.mm %a1, %b1 : (tensor<64x4xf64>, tensor<4x32xf64>) -> tensor<64x32xf64>
  %s = tad.add.Tensor %p0, %p1 : (tensor<64x32xf64>, tensor<64x32xf64>) -> tensor<64x32xf64>
  return %s : tensor<64x32xf64>
}

// -----

// Not combined: products thick in k (copying their operands would cost more
// than the sum saves), a product also used elsewhere, alpha != 1.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: tad.cat
// CHECK-COUNT-3: tad.add.Tensor
// CHECK-NOT: tad.cat
func.func @kept(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>,
                %c: tensor<64x4xf32>, %d: tensor<4x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %thick0 = tad.mm %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %thick1 = tad.mm %b, %a : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s0 = tad.add.Tensor %thick0, %thick1 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %thin0 = tad.mm %c, %d : (tensor<64x4xf32>, tensor<4x64xf32>) -> tensor<64x64xf32>
  %thin1 = tad.mm %c, %d : (tensor<64x4xf32>, tensor<4x64xf32>) -> tensor<64x64xf32>
  %s1 = tad.add.Tensor %thin0, %thin1 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %thin3 = tad.mm %c, %d : (tensor<64x4xf32>, tensor<4x64xf32>) -> tensor<64x64xf32>
  %thin4 = tad.mm %c, %d : (tensor<64x4xf32>, tensor<4x64xf32>) -> tensor<64x64xf32>
  %s2 = tad.add.Tensor %thin3, %thin4 {alpha = 2.0 : f64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s0, %s1, %s2, %thin1 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// A weight gradient over a dynamic batch (k dynamic): merged, and chosen at
// run time: the merged product where the three pieces average at most
// 64 * 32 / (2 * 96) (k <= 3 * 2048 / 192 = 32), the sum of the pieces'
// products otherwise, with the pieces' transposes in that branch only.
// CHECK-LABEL: func.func @dynamic_k(
// CHECK:         %[[A:.*]] = tad.t
// CHECK:         %[[B:.*]] = tad.cat %arg1, %arg3, %arg5 :
// CHECK:         %[[K:.*]] = tensor.dim %[[A]], %c1
// CHECK:         %[[THIN:.*]] = arith.cmpi ule, %[[K]], %c32
// CHECK:         %[[R:.*]] = scf.if %[[THIN]] -> (tensor<64x32xf64>) {
// CHECK-NEXT:      %[[M:.*]] = tad.mm %[[A]], %[[B]] : (tensor<64x?xf64>, tensor<?x32xf64>)
// CHECK-NEXT:      scf.yield %[[M]]
// CHECK-NEXT:    } else {
// CHECK-COUNT-3:   tad.t
// CHECK-NEXT:      tad.mm
// CHECK-NEXT:      tad.mm
// CHECK-NEXT:      tad.add.Tensor
// CHECK-NEXT:      tad.mm
// CHECK-NEXT:      tad.add.Tensor
// CHECK:         return %[[R]]
func.func @dynamic_k(%g0: tensor<?x64xf64>, %h0: tensor<?x32xf64>,
                     %g1: tensor<?x64xf64>, %h1: tensor<?x32xf64>,
                     %g2: tensor<?x64xf64>, %h2: tensor<?x32xf64>) -> tensor<64x32xf64> {
  %t0 = tad.t %g0 : (tensor<?x64xf64>) -> tensor<64x?xf64>
  %t1 = tad.t %g1 : (tensor<?x64xf64>) -> tensor<64x?xf64>
  %t2 = tad.t %g2 : (tensor<?x64xf64>) -> tensor<64x?xf64>
  %p0 = tad.mm %t0, %h0 : (tensor<64x?xf64>, tensor<?x32xf64>) -> tensor<64x32xf64>
  %p1 = tad.mm %t1, %h1 : (tensor<64x?xf64>, tensor<?x32xf64>) -> tensor<64x32xf64>
  %p2 = tad.mm %t2, %h2 : (tensor<64x?xf64>, tensor<?x32xf64>) -> tensor<64x32xf64>
  %s0 = tad.add.Tensor %p0, %p1 : (tensor<64x32xf64>, tensor<64x32xf64>) -> tensor<64x32xf64>
  %s1 = tad.add.Tensor %s0, %p2 : (tensor<64x32xf64>, tensor<64x32xf64>) -> tensor<64x32xf64>
  return %s1 : tensor<64x32xf64>
}

// -----

// The same sum carried by a loop (a recurrent weight's gradient in the
// reverse loop of a layer imported as a loop): the loop stacks each
// iteration's h_t and g_t (slot (iv - lb) / step) instead, and one
// product of the stacks is added to the initial value after it. The
// accumulator passes through the loop (the canonicalizer drops it).
// CHECK-LABEL: func.func @loop_carried(
// CHECK-DAG:     %[[SH:.*]] = tensor.empty() : tensor<4x16x256xf32>
// CHECK-DAG:     %[[SG:.*]] = tensor.empty() : tensor<4x16x1024xf32>
// CHECK:         %[[L:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} iter_args(%[[H:.*]] = %[[SH]], %[[G:.*]] = %[[SG]])
// CHECK-NOT:       tad.mm
// CHECK:           %[[SLOT:.*]] = arith.divsi
// CHECK:           tensor.insert_slice %{{.*}} into %[[H]][%[[SLOT]], 0, 0] [1, 16, 256]
// CHECK:           tensor.insert_slice %{{.*}} into %[[G]][%[[SLOT]], 0, 0] [1, 16, 1024]
// CHECK:         }
// CHECK:         %[[X:.*]] = tad.reshape %[[L]]#0 {shape = array<i64: 64, 256>}
// CHECK:         %[[B:.*]] = tad.reshape %[[L]]#1 {shape = array<i64: 64, 1024>}
// CHECK:         %[[XT:.*]] = tad.t %[[X]] : (tensor<64x256xf32>) -> tensor<256x64xf32>
// CHECK:         %[[P:.*]] = tad.mm %[[XT]], %[[B]] : (tensor<256x64xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
// CHECK:         %[[S:.*]] = tad.add.Tensor %arg2, %[[P]]
// CHECK:         return %[[S]]
func.func @loop_carried(%h: tensor<4x16x256xf32>, %g: tensor<4x16x1024xf32>, %w0: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %w0) -> (tensor<256x1024xf32>) {
    %j = arith.divui %i, %c2 : index
    %hi = tensor.extract_slice %h[%j, 0, 0] [1, 16, 256] [1, 1, 1] : tensor<4x16x256xf32> to tensor<16x256xf32>
    %gi = tensor.extract_slice %g[%j, 0, 0] [1, 16, 1024] [1, 1, 1] : tensor<4x16x1024xf32> to tensor<16x1024xf32>
    %t = tad.t %hi : (tensor<16x256xf32>) -> tensor<256x16xf32>
    %p = tad.mm %t, %gi : (tensor<256x16xf32>, tensor<16x1024xf32>) -> tensor<256x1024xf32>
    %s = tad.add.Tensor %acc, %p : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
    scf.yield %s : tensor<256x1024xf32>
  }
  return %r : tensor<256x1024xf32>
}

// -----

// Left alone: a dynamic trip count (the stacks' size), a product that is
// not thin (k = 128 for 256x256: stacking costs more than the passes over
// the result), an accumulator the body also reads.
// CHECK-LABEL: func.func @loop_left_alone(
// CHECK-COUNT-3: tad.mm
// CHECK-NOT:     tensor.empty
func.func @loop_left_alone(%a: tensor<256x16xf32>, %b: tensor<16x256xf32>, %c: tensor<256x128xf32>, %d: tensor<128x256xf32>, %w0: tensor<256x256xf32>, %n: index) -> (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %w0) -> (tensor<256x256xf32>) {
    %p = tad.mm %a, %b : (tensor<256x16xf32>, tensor<16x256xf32>) -> tensor<256x256xf32>
    %s = tad.add.Tensor %acc, %p : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    scf.yield %s : tensor<256x256xf32>
  }
  %r1 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %w0) -> (tensor<256x256xf32>) {
    %p = tad.mm %c, %d : (tensor<256x128xf32>, tensor<128x256xf32>) -> tensor<256x256xf32>
    %s = tad.add.Tensor %acc, %p : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    scf.yield %s : tensor<256x256xf32>
  }
  %r2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %w0) -> (tensor<256x256xf32>) {
    %p = tad.mm %a, %b : (tensor<256x16xf32>, tensor<16x256xf32>) -> tensor<256x256xf32>
    %q = tad.mul.Tensor %acc, %p : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %s = tad.add.Tensor %acc, %q : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    scf.yield %s : tensor<256x256xf32>
  }
  return %r0, %r1, %r2 : tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>
}
