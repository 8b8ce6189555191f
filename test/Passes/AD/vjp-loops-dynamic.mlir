// RUN: tad-opt %s --split-input-file --tad-vjp="functions=f" | FileCheck %s
// RUN: tad-opt %s --split-input-file --tad-vjp="functions=f checkpoint=2" | FileCheck %s --check-prefix=CKPT

// Loops over values of dynamic shape in reverse mode: a stored value's
// dynamic sizes are those of the first iteration, computed before the loop
// (the body's ops it depends on cloned with the initial carried values),
// and size its stack.

// h <- tanh(h * w), 4 times, over a dynamic batch. tanh's result is sized
// by a clone of the product and tanh on the initial value; the carried h by
// the initial value itself.
// CHECK-LABEL: func.func @f_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<?x3xf32>, %[[W:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<?x3xf32>)
//       CHECK:   %[[M0:.*]] = tad.mul.Tensor %[[X]], %[[W]]
//       CHECK:   %[[T0:.*]] = tad.tanh %[[M0]]
//       CHECK:   %[[D0:.*]] = tensor.dim %[[T0]], %{{.*}}
//       CHECK:   %[[D1:.*]] = tensor.dim %[[X]], %{{.*}}
//       CHECK:   %[[S1:.*]] = tensor.empty(%[[D0]]) : tensor<4x?x3xf32>
//       CHECK:   %[[S2:.*]] = tensor.empty(%[[D1]]) : tensor<4x?x3xf32>
//       CHECK:   %[[FWD:.*]]:3 = scf.for %{{.*}} iter_args(%[[H:.*]] = %[[X]], %[[A1:.*]] = %[[S1]], %[[A2:.*]] = %[[S2]])
//       CHECK:     %[[T:.*]] = tad.tanh
//       CHECK:     %[[K:.*]] = arith.divsi
//       CHECK:     tensor.insert_slice %[[T]] into %[[A1]][%[[K]], 0, 0] [1, %[[D0]], 3] [1, 1, 1] : tensor<?x3xf32> into tensor<4x?x3xf32>
//       CHECK:     tensor.insert_slice %[[H]] into %[[A2]][%[[K]], 0, 0] [1, %[[D1]], 3] [1, 1, 1]
//       CHECK:   scf.for
//       CHECK:     tensor.extract_slice %[[FWD]]#1[%{{.*}}, 0, 0] [1, %[[D0]], 3] [1, 1, 1] : tensor<4x?x3xf32> to tensor<?x3xf32>
//       CHECK:     tensor.extract_slice %[[FWD]]#2[%{{.*}}, 0, 0] [1, %[[D1]], 3] [1, 1, 1] : tensor<4x?x3xf32> to tensor<?x3xf32>
//       CHECK:     tad.tanh_backward

// With checkpoints every 2 iterations only the carried value is stored per
// segment, sized by the initial value; the reverse body recomputes a
// segment and stacks its values, sized by the segment's first iteration.
// CKPT-LABEL: func.func @f_vjp
//  CKPT-SAME:   (%[[X:.*]]: tensor<?x3xf32>, %[[W:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<?x3xf32>)
//       CKPT:   %[[D:.*]] = tensor.dim %[[X]], %{{.*}}
//       CKPT:   %[[S:.*]] = tensor.empty(%[[D]]) : tensor<2x?x3xf32>
//       CKPT:   scf.for %{{.*}} iter_args(%{{.*}} = %[[X]], %{{.*}} = %[[S]])
//       CKPT:     scf.for
//       CKPT:   scf.for
//       CKPT:     tensor.extract_slice %{{.*}} [1, %[[D]], 3] [1, 1, 1] : tensor<2x?x3xf32> to tensor<?x3xf32>
//       CKPT:     tensor.empty(%{{.*}}) : tensor<2x?x3xf32>
//       CKPT:     scf.for
//       CKPT:       tensor.insert_slice
//       CKPT:     scf.for
//       CKPT:       tad.tanh_backward
func.func @f(%x: tensor<?x3xf32>, %w: tensor<3xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<?x3xf32>) {
    %m = tad.mul.Tensor %h, %w : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
    %t = tad.tanh %m : tensor<?x3xf32>
    scf.yield %t : tensor<?x3xf32>
  }
  return %r : tensor<?x3xf32>
}

// -----

// A trip count known only at run time: the first iteration is computed
// where the loop runs at all (else the sizes are 0 and never read).
// CHECK-LABEL: func.func @f_vjp
//  CHECK-SAME:   (%[[X:.*]]: tensor<?xf64>, %[[N:.*]]: index, %[[CT:.*]]: tensor<?xf64>)
//       CHECK:   %[[COUNT:.*]] = arith.maxsi
//       CHECK:   %[[RUNS:.*]] = arith.cmpi sgt, %[[COUNT]], %{{.*}}
//       CHECK:   %[[D:.*]] = scf.if %[[RUNS]] -> (index) {
//       CHECK:     %[[E0:.*]] = tad.exp %[[X]]
//       CHECK:     %[[DIM:.*]] = tensor.dim %[[E0]]
//       CHECK:     scf.yield %[[DIM]] : index
//       CHECK:   } else {
//       CHECK:     %[[NONE:.*]] = arith.constant 0 : index
//       CHECK:     scf.yield %[[NONE]] : index
//       CHECK:   %[[S:.*]] = tensor.empty(%[[COUNT]], %[[D]]) : tensor<?x?xf64>
//       CHECK:   scf.for
//       CHECK:     tensor.insert_slice %{{.*}} [1, %[[D]]] [1, 1] : tensor<?xf64> into tensor<?x?xf64>
func.func @f(%x: tensor<?xf64>, %n: index) -> tensor<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<?xf64>) {
    %e = tad.exp %h : tensor<?xf64>
    scf.yield %e : tensor<?xf64>
  }
  return %r : tensor<?xf64>
}

// -----

// A branch keeps a value of dynamic shape as an extra result; the other
// branch yields an empty placeholder.
// CHECK-LABEL: func.func @f_vjp
//       CHECK:   %[[NONE:.*]] = arith.constant 0 : index
//       CHECK:   tensor.empty(%[[NONE]]) : tensor<?x2xf64>
//       CHECK:   scf.yield %{{.*}} : tensor<?x2xf64>, tensor<?x2xf64>
//       CHECK:   tad.tanh_backward
func.func @f(%x: tensor<?x2xf64>, %c: i1) -> tensor<?x2xf64> {
  %r = scf.if %c -> (tensor<?x2xf64>) {
    %t = tad.tanh %x : tensor<?x2xf64>
    scf.yield %t : tensor<?x2xf64>
  } else {
    scf.yield %x : tensor<?x2xf64>
  }
  return %r : tensor<?x2xf64>
}

// -----

// A stack of the steps' outputs carried through the loop (an imported
// nn.LSTM's output sequence): the reverse body needs only its dynamic batch
// size (the size of the gradient slice it cuts), so that size is stored
// per iteration as a scalar, not the whole 4 x batch x 3 stack (which made
// a 4 x 4 x batch x 3 stack of stacks and a copy of the stack every step).
// CHECK-LABEL: func.func @f_vjp
//   CHECK-NOT:   tensor<4x4x?x3xf32>
//       CHECK:   tensor.empty() : tensor<4xindex>
//   CHECK-NOT:   tensor<4x4x?x3xf32>
//       CHECK:   scf.for
//       CHECK:     tensor.insert %{{.*}} into %{{.*}}[%{{.*}}] : tensor<4xindex>
//       CHECK:   scf.for
//       CHECK:     tensor.extract %{{.*}}[%{{.*}}] : tensor<4xindex>
//   CHECK-NOT:   tensor<4x4x?x3xf32>
func.func @f(%x: tensor<?x3xf32>, %stack0: tensor<4x?x3xf32>) -> tensor<4x?x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x, %stack = %stack0) -> (tensor<?x3xf32>, tensor<4x?x3xf32>) {
    %t = tad.tanh %h : tensor<?x3xf32>
    %b = tensor.dim %stack, %c1 : tensor<4x?x3xf32>
    %s = tensor.insert_slice %t into %stack[%i, 0, 0] [1, %b, 3] [1, 1, 1] : tensor<?x3xf32> into tensor<4x?x3xf32>
    scf.yield %t, %s : tensor<?x3xf32>, tensor<4x?x3xf32>
  }
  return %r#1 : tensor<4x?x3xf32>
}
