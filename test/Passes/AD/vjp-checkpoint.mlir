// RUN: tad-opt %s --split-input-file --tad-vjp="functions=f" | FileCheck %s
// RUN: tad-opt %s --split-input-file --tad-vjp="functions=f checkpoint=sqrt" | FileCheck %s --check-prefix=SQRT
// RUN: tad-opt %s --split-input-file --tad-vjp="functions=f checkpoint=store" | FileCheck %s --check-prefix=STORE
// RUN: tad-opt %s --split-input-file --tad-vjp="functions=f checkpoint=revolve:3" | FileCheck %s --check-prefix=REVOLVE

// h <- tanh(h w), 10 times, checkpointed every 3 iterations by the loop's
// attribute: the forward runs 3 segments of 3, storing only h at the start
// of each segment (tensor<3x...>), then the last iteration, stored as
// usual. The reverse first reverses that iteration, then, per segment,
// recomputes its 3 iterations from the checkpoint (storing what tanh and mm
// read) and reverses them. Nothing is stored per iteration of all 10.

// CHECK-LABEL: func.func @f_vjp
// CHECK-NOT: tensor<10x
// CHECK: %[[CKPT:.*]] = tensor.empty() : tensor<3x1x4xf64>
// CHECK: %[[FWD:.*]]:2 = scf.for %[[SEG:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[H:.*]] = %arg0, %[[STACK:.*]] = %[[CKPT]])
// CHECK:   scf.for
// CHECK:     tad.mm
// CHECK:     tad.tanh
// CHECK:   tensor.insert_slice %[[H]] into %[[STACK]]
// CHECK: %[[REST:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %[[FWD]]#0, {{.*}}) -> (tensor<1x4xf64>, tensor<1x1x4xf64>, tensor<1x1x4xf64>)
// CHECK: scf.for
// CHECK:   tad.tanh_backward
// CHECK: scf.for
// CHECK:   %[[FROM:.*]] = tensor.extract_slice %[[FWD]]#1
// CHECK:   %[[SEGMENT:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %[[FROM]], {{.*}}) -> (tensor<1x4xf64>, tensor<3x1x4xf64>, tensor<3x1x4xf64>)
// CHECK:     tad.mm
// CHECK:     tad.tanh
// CHECK:   scf.for
// CHECK:     tensor.extract_slice %[[SEGMENT]]#1
// CHECK:     tad.tanh_backward
// CHECK-NOT: tad.recompute
// CHECK: return

// The option does not override the attribute.
// SQRT-LABEL: func.func @f_vjp
// SQRT: tensor.empty() : tensor<3x1x4xf64>
// STORE-LABEL: func.func @f_vjp
// STORE: tensor.empty() : tensor<3x1x4xf64>
// REVOLVE-LABEL: func.func @f_vjp
// REVOLVE: tensor.empty() : tensor<3x1x4xf64>
// REVOLVE-NOT: scf.while
// REVOLVE: return

func.func @f(%h0: tensor<1x4xf64>, %w: tensor<4x4xf64>) -> tensor<1x4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r = scf.for %t = %c0 to %c10 step %c1 iter_args(%h = %h0) -> (tensor<1x4xf64>) {
    %a = tad.mm %h, %w : (tensor<1x4xf64>, tensor<4x4xf64>) -> tensor<1x4xf64>
    %n = tad.tanh %a : tensor<1x4xf64>
    scf.yield %n : tensor<1x4xf64>
  } {tad.checkpoint = 3 : i64}
  return %r : tensor<1x4xf64>
}

// -----

// Without an attribute the option decides: "store" keeps all 16
// iterations; "sqrt" checkpoints every 4 (4 segments, no remainder).

// CHECK-LABEL: func.func @f_vjp
// CHECK: tensor.empty() : tensor<16x3xf64>
// SQRT-LABEL: func.func @f_vjp
// SQRT-NOT: tensor<16x
// SQRT: tensor.empty() : tensor<4x3xf64>
// SQRT-NOT: tensor<16x
// SQRT: return
// STORE-LABEL: func.func @f_vjp
// STORE: tensor.empty() : tensor<16x3xf64>

// "revolve:3" (binomial checkpointing, 3 snapshots of h): nothing is
// stored per iteration. The forward loop takes the snapshots that the
// first reverse iteration needs (slot 0 is x); each reverse iteration drops
// the snapshots taken after the iteration it reverses, restores the latest
// one, and runs sin from it up to that iteration, taking snapshots on the
// way, before cos reads the restored h.
// REVOLVE-LABEL: func.func @f_vjp
// REVOLVE-NOT: tensor<16x
// REVOLVE: %[[SLOTS:.*]] = tensor.empty() : tensor<3x3xf64>
// REVOLVE: %[[FIRST:.*]] = tensor.insert_slice %arg0 into %[[SLOTS]]
// REVOLVE: %[[FWD:.*]]:5 = scf.for {{.*}} iter_args(%[[H:.*]] = %arg0, %[[S:.*]] = %[[FIRST]], %{{.*}}, %{{.*}}, %{{.*}}) -> (tensor<3xf64>, tensor<3x3xf64>, tensor<3xindex>, index, index)
// REVOLVE:   scf.if
// REVOLVE:     tensor.insert_slice %[[H]] into %[[S]]
// REVOLVE:   tad.sin %[[H]]
// REVOLVE: scf.for {{.*}} iter_args(%{{.*}} = %arg1, %{{.*}} = %[[FWD]]#1, %{{.*}} = %[[FWD]]#2, %{{.*}} = %[[FWD]]#3)
// REVOLVE:   scf.while
// REVOLVE:   tensor.extract_slice
// REVOLVE:   %[[AT:.*]]:5 = scf.while
// REVOLVE:     scf.for
// REVOLVE:       tad.sin
// REVOLVE:     scf.if
// REVOLVE:       tensor.insert_slice
// REVOLVE:   tad.cos %[[AT]]#4
// REVOLVE-NOT: tensor<16x
// REVOLVE: return

func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  }
  return %r : tensor<3xf64>
}

// -----

// A dynamic trip count under "sqrt": the segment length is computed at run
// time (ceil(sqrt(n)), at least 1).

// SQRT-LABEL: func.func @f_vjp
// SQRT: math.sqrt
// SQRT: math.ceil
// SQRT: tensor.empty(%{{.*}}) : tensor<?x3xf64>

// Under "revolve:3" the snapshots need no trip count: tensor<3x3xf64>.
// REVOLVE-LABEL: func.func @f_vjp
// REVOLVE-NOT: tensor<?x
// REVOLVE: tensor.empty() : tensor<3x3xf64>
// REVOLVE-NOT: tensor<?x
// REVOLVE: return

func.func @f(%x: tensor<3xf64>, %n: index) -> tensor<3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<3xf64>) {
    %s = tad.sin %h : tensor<3xf64>
    scf.yield %s : tensor<3xf64>
  }
  return %r : tensor<3xf64>
}
