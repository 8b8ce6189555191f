// RUN: tad-opt %s --tad-vjp="functions=carried,dynamic,branch,nested,counted,invariant" | FileCheck %s

// h <- tanh(h * w), 4 times. The forward loop stacks what the rules read
// (tanh's result and the carried h, not the product); the reverse loop runs
// over the descending iteration 3 - k, reads them back, and carries the
// adjoints of h and of the captured w.
// CHECK-LABEL: func.func @carried_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[W:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<3xf32>)
//       CHECK:   %[[S1:.*]] = tensor.empty() : tensor<4x3xf32>
//       CHECK:   %[[S2:.*]] = tensor.empty() : tensor<4x3xf32>
//       CHECK:   %[[FWD:.*]]:3 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[H:.*]] = %[[X]], %[[A1:.*]] = %[[S1]], %[[A2:.*]] = %[[S2]])
//       CHECK:     %[[M:.*]] = tad.mul.Tensor %[[H]], %[[W]]
//       CHECK:     %[[T:.*]] = tad.tanh %[[M]]
//       CHECK:     %[[K:.*]] = arith.divsi
//       CHECK:     %[[P1:.*]] = tensor.insert_slice %[[T]] into %[[A1]][%[[K]], 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<4x3xf32>
//       CHECK:     %[[P2:.*]] = tensor.insert_slice %[[H]] into %[[A2]][%[[K]], 0] [1, 3] [1, 1]
//       CHECK:     scf.yield %[[T]], %[[P1]], %[[P2]]
//       CHECK:   %[[ZERO:.*]] = tad.constant dense<0.000000e+00> : tensor<3xf32>
//       CHECK:   %[[REV:.*]]:2 = scf.for %[[R:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args(%[[DH:.*]] = %[[CT]], %[[DW:.*]] = %[[ZERO]])
//       CHECK:     %[[LAST:.*]] = arith.subi %[[N]], %{{.*}}
//       CHECK:     %[[J:.*]] = arith.subi %[[LAST]], %[[R]]
//       CHECK:     %[[TJ:.*]] = tensor.extract_slice %[[FWD]]#1[%[[J]], 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
//       CHECK:     %[[HJ:.*]] = tensor.extract_slice %[[FWD]]#2[%[[J]], 0] [1, 3] [1, 1]
//       CHECK:     %[[DM:.*]] = tad.tanh_backward %[[DH]], %[[TJ]]
//       CHECK:     %[[DH2:.*]] = tad.mul.Tensor %[[DM]], %[[W]]
//       CHECK:     %[[C:.*]] = tad.mul.Tensor %[[DM]], %[[HJ]]
//       CHECK:     %[[DW2:.*]] = tad.add.Tensor %[[DW]], %[[C]]
//       CHECK:     scf.yield %[[DH2]], %[[DW2]]
//       CHECK:   return %[[FWD]]#0, %[[REV]]#0, %[[REV]]#1
func.func @carried(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<3xf32>) {
    %m = tad.mul.Tensor %h, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %t = tad.tanh %m : tensor<3xf32>
    scf.yield %t : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// Bounds given as values: the trip count max(0, ceildiv(ub - lb, step)) is
// computed before the forward loop and sizes the stack; the forward loop
// writes iteration (i - lb) / step, the reverse one recomputes i.
// CHECK-LABEL: func.func @dynamic_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index, %[[CT:.*]]: tensor<3xf32>)
//       CHECK:   %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]]
//       CHECK:   %[[CEIL:.*]] = arith.ceildivsi %[[SPAN]], %[[STEP]]
//       CHECK:   %[[N:.*]] = arith.maxsi %[[CEIL]], %{{.*}}
//       CHECK:   %[[S:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
//       CHECK:   %[[FWD:.*]]:2 = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%{{.*}} = %[[X]], %[[A:.*]] = %[[S]])
//       CHECK:     %[[E:.*]] = tad.exp
//       CHECK:     %[[OFF:.*]] = arith.subi %[[I]], %[[LB]]
//       CHECK:     %[[K:.*]] = arith.divsi %[[OFF]], %[[STEP]]
//       CHECK:     tensor.insert_slice %[[E]] into %[[A]][%[[K]], 0]
//       CHECK:   %[[REV:.*]] = scf.for %[[R:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[D:.*]] = %[[CT]])
//       CHECK:     %[[J:.*]] = arith.subi %{{.*}}, %[[R]]
//       CHECK:     %[[EJ:.*]] = tensor.extract_slice %[[FWD]]#1[%[[J]], 0] [1, 3] [1, 1] : tensor<?x3xf32> to tensor<3xf32>
//       CHECK:     %[[D2:.*]] = tad.mul.Tensor %[[D]], %[[EJ]]
//       CHECK:     scf.yield %[[D2]]
//       CHECK:   return %[[FWD]]#0, %[[REV]]
func.func @dynamic(%x: tensor<3xf32>, %lb: index, %ub: index, %step: index) -> tensor<3xf32> {
  %r = scf.for %i = %lb to %ub step %step iter_args(%h = %x) -> (tensor<3xf32>) {
    %e = tad.exp %h : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// The reverse branch is an scf.if on the same condition; exp's result,
// which its VJP reads, becomes an extra result of the forward scf.if (the
// other branch yields a placeholder); sin's VJP reads only x.
// CHECK-LABEL: func.func @branch_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<3xf32>, %[[C:.*]]: i1, %[[CT:.*]]: tensor<3xf32>)
//       CHECK:   %[[FWD:.*]]:2 = scf.if %[[C]] -> (tensor<3xf32>, tensor<3xf32>) {
//       CHECK:     %[[E:.*]] = tad.exp %[[X]]
//       CHECK:     scf.yield %[[E]], %[[E]]
//       CHECK:   } else {
//       CHECK:     %[[S:.*]] = tad.sin %[[X]]
//       CHECK:     %[[P:.*]] = tensor.empty() : tensor<3xf32>
//       CHECK:     scf.yield %[[S]], %[[P]]
//       CHECK:   %[[REV:.*]] = scf.if %[[C]] -> (tensor<3xf32>) {
//       CHECK:     %[[G1:.*]] = tad.mul.Tensor %[[CT]], %[[FWD]]#1
//       CHECK:     scf.yield %[[G1]]
//       CHECK:   } else {
//       CHECK:     %[[COS:.*]] = tad.cos %[[X]]
//       CHECK:     %[[G2:.*]] = tad.mul.Tensor %[[CT]], %[[COS]]
//       CHECK:     scf.yield %[[G2]]
//       CHECK:   return %[[FWD]]#0, %[[REV]]
func.func @branch(%x: tensor<3xf32>, %c: i1) -> tensor<3xf32> {
  %r = scf.if %c -> (tensor<3xf32>) {
    %e = tad.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  } else {
    %s = tad.sin %x : tensor<3xf32>
    scf.yield %s : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// Nested loops: the inner loop's stacks (tensor<4x4xf32>) are values of the
// outer body, stacked again by the outer loop (tensor<3x4x4xf32>); the
// inner reverse loop reads the outer iteration's slice.
// CHECK-LABEL: func.func @nested_vjp
//       CHECK:   scf.for {{.*}} -> (tensor<4xf32>, {{.*}}tensor<3x4x4xf32>
//       CHECK:     scf.for {{.*}} -> (tensor<4xf32>, tensor<4x4xf32>
//       CHECK:   scf.for
//       CHECK:     %[[OUTER:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<3x4x4xf32> to tensor<4x4xf32>
//       CHECK:     scf.for
//       CHECK:       tensor.extract_slice %[[OUTER]][%{{.*}}, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<4xf32>
func.func @nested(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%g = %x) -> (tensor<4xf32>) {
    %inner = scf.for %j = %c0 to %c4 step %c1 iter_args(%h = %g) -> (tensor<4xf32>) {
      %m = tad.mul.Tensor %h, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %s = tad.sin %m : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    scf.yield %inner : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// scf.while: a counting run, then an scf.for replay of that many
// iterations (before region, then after region) and the last check; the
// replay is what is reversed, its stacks sized by the count.
// CHECK-LABEL: func.func @counted_vjp
//       CHECK:   %[[COUNT:.*]]:2 = scf.while
//       CHECK:     scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : tensor<3xf32>, index
//       CHECK:     arith.addi
//       CHECK:   tensor.empty(%{{.*}}) : tensor<?x3xf32>
//       CHECK:   %[[REPLAY:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[COUNT]]#1 step
//       CHECK:     tad.exp
//       CHECK:   scf.for
//       CHECK:     tensor.extract_slice %[[REPLAY]]#1
func.func @counted(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = scf.while (%h = %x) : (tensor<3xf32>) -> tensor<3xf32> {
    %s = tad.sum %h : (tensor<3xf32>) -> tensor<f32>
    %lt = tad.lt.Scalar %s, 20.0 : (tensor<f32>) -> tensor<i1>
    %go = tensor.extract %lt[] : tensor<i1>
    scf.condition(%go) %h : tensor<3xf32>
  } do {
  ^bb0(%g: tensor<3xf32>):
    %e = tad.exp %g : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// A loop body that transposes a captured weight (a tad.scan step's
// `w.t()`): the transpose depends on nothing of the loop, so it is computed
// once before the loop, and the reverse reads it from there. Stored per
// iteration, it was a tensor<6x8x8xf64> (32 MB for an LSTM's weights over
// 32 steps).
// CHECK-LABEL: func.func @invariant_vjp
// CHECK-NOT: tensor<6x8x8xf64>
// CHECK: %[[WT:.*]] = tad.t %arg1 : (tensor<8x8xf64>) -> tensor<8x8xf64>
// CHECK: scf.for
// CHECK:   tad.mm %{{.*}}, %[[WT]]
// CHECK: scf.for
// CHECK-NOT: tensor<6x8x8xf64>
// CHECK: return
func.func @invariant(%h0: tensor<2x8xf64>, %w: tensor<8x8xf64>) -> tensor<2x8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%h = %h0) -> (tensor<2x8xf64>) {
    %wt = tad.t %w : (tensor<8x8xf64>) -> tensor<8x8xf64>
    %p = tad.mm %h, %wt : (tensor<2x8xf64>, tensor<8x8xf64>) -> tensor<2x8xf64>
    %s = tad.sin %p : tensor<2x8xf64>
    scf.yield %s : tensor<2x8xf64>
  }
  return %r : tensor<2x8xf64>
}
