// RUN: tad-opt %s --tad-to-linalg --canonicalize --tad-record-abi --split-input-file --verify-diagnostics | FileCheck %s

// Dynamic sizes become symbols: one per dynamic argument dimension (named
// by tad.dim_names, else s<k>; one name, one symbol), and each dynamic
// result dimension takes the symbol of the argument dimension it is traced
// back to. In `sizes`, -1 - k stands for symbol k.

// CHECK-LABEL: func.func @mlp
//  CHECK-SAME:   tad.abi = {args = [tensor<?x4xf32>, tensor<3x4xf32>, tensor<?x3xf32>], results = [tensor<?x3xf32>, tensor<f32>], sizes = [array<i64: -1, 4>, array<i64: 3, 4>, array<i64: -1, 3>, array<i64: -1, 3>, array<i64>], symbols = ["B"]}
//   CHECK-NOT:   tad.dim_names
func.func @mlp(%x: tensor<?x4xf32> {tad.dim_names = ["B", ""]}, %w: tensor<3x4xf32>, %y: tensor<?x3xf32> {tad.dim_names = ["B", ""]}) -> (tensor<?x3xf32>, tensor<f32>) {
  %wt = tad.t %w : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %p = tad.mm %x, %wt : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %r = tad.relu %p : tensor<?x3xf32>
  %l = tad.mse_loss %r, %y {reduction = 1 : i64} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<f32>
  return %r, %l : tensor<?x3xf32>, tensor<f32>
}

// Unnamed dimensions get a symbol each; results through transposes and
// views keep theirs.
// CHECK-LABEL: func.func @unnamed
//  CHECK-SAME:   sizes = [array<i64: -1, 6>, array<i64: 2, -2>, array<i64: 6, -1>, array<i64: -1, 3, 2>], symbols = ["s0", "s1"]
func.func @unnamed(%a: tensor<?x6xf32>, %b: tensor<2x?xf32>) -> (tensor<6x?xf32>, tensor<?x3x2xf32>) {
  %0 = tad.t %a : (tensor<?x6xf32>) -> tensor<6x?xf32>
  %1 = tad.view %a {size = array<i64: -1, 3, 2>} : (tensor<?x6xf32>) -> tensor<?x3x2xf32>
  return %0, %1 : tensor<6x?xf32>, tensor<?x3x2xf32>
}

// -----

// A loop's carried value keeps its size where each iteration's new value
// has the size of the carried one (here through two elementwise ops that
// meet an argument of the same size): by induction, the initial value's.
// CHECK-LABEL: func.func @carried
//  CHECK-SAME:   sizes = [array<i64: -1, 3>, array<i64: -1, 3>, array<i64: -1, 3>], symbols = ["B"]
func.func @carried(%x: tensor<?x3xf32> {tad.dim_names = ["B", ""]}, %w: tensor<?x3xf32> {tad.dim_names = ["B", ""]}) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<?x3xf32>) {
    %m = tad.mul.Tensor %h, %w : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %t = tad.tanh %m : tensor<?x3xf32>
    scf.yield %t : tensor<?x3xf32>
  }
  return %r : tensor<?x3xf32>
}

// -----

// The new value of the carried one has the size of another argument's
// dimension of the same name (one symbol), or of both branches' values.
// CHECK-LABEL: func.func @named
//  CHECK-SAME:   sizes = [array<i64: 4, -1, 2>, array<i64: -1, 2>, array<i64>, array<i64: -1, 2>], symbols = ["B"]
func.func @named(%xs: tensor<4x?x2xf64> {tad.dim_names = ["", "B", ""]}, %h0: tensor<?x2xf64> {tad.dim_names = ["B", ""]}, %flag: tensor<i1>) -> tensor<?x2xf64> {
  %c = tensor.extract %flag[] : tensor<i1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = tensor.dim %xs, %c1 : tensor<4x?x2xf64>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %h0) -> (tensor<?x2xf64>) {
    %x = tensor.extract_slice %xs[%i, 0, 0] [1, %b, 2] [1, 1, 1] : tensor<4x?x2xf64> to tensor<?x2xf64>
    %p = tad.mul.Tensor %x, %h : (tensor<?x2xf64>, tensor<?x2xf64>) -> tensor<?x2xf64>
    %n = scf.if %c -> (tensor<?x2xf64>) {
      %t = tad.tanh %p : tensor<?x2xf64>
      scf.yield %t : tensor<?x2xf64>
    } else {
      scf.yield %h : tensor<?x2xf64>
    }
    scf.yield %n : tensor<?x2xf64>
  }
  return %r : tensor<?x2xf64>
}

// -----

// Without the name, the two sizes are two symbols: the loop's result has
// either.
// expected-error @+1 {{result #0 of 'unnamed' has a dynamic size in dimension 0 that is not the size of an argument's dimension}}
func.func @unnamed(%xs: tensor<4x?x2xf64>, %h0: tensor<?x2xf64>) -> tensor<?x2xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = tensor.dim %xs, %c1 : tensor<4x?x2xf64>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %h0) -> (tensor<?x2xf64>) {
    %x = tensor.extract_slice %xs[%i, 0, 0] [1, %b, 2] [1, 1, 1] : tensor<4x?x2xf64> to tensor<?x2xf64>
    %p = tad.mul.Tensor %x, %h : (tensor<?x2xf64>, tensor<?x2xf64>) -> tensor<?x2xf64>
    scf.yield %p : tensor<?x2xf64>
  }
  return %r : tensor<?x2xf64>
}

// -----

// A carried value whose new value has another size (a prefix as long as
// the iteration number): the loop's result cannot be sized from the
// arguments.
// expected-error @+1 {{result #0 of 'shrinking' has a dynamic size in dimension 0 that is not the size of an argument's dimension}}
func.func @shrinking(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<?xf32>) {
    %p = tensor.extract_slice %h[0] [%i] [1] : tensor<?xf32> to tensor<?xf32>
    scf.yield %p : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A result size that no argument dimension has cannot cross the boundary.
// expected-error @+1 {{result #0 of 'flat' has a dynamic size in dimension 0 that is not the size of an argument's dimension; the tad C ABI computes result shapes from argument shapes}}
func.func @flat(%a: tensor<?x6xf32>) -> tensor<?xf32> {
  %0 = tad.view %a {size = array<i64: -1>} : (tensor<?x6xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// expected-error @+1 {{argument #0 of 'named' names dimension 0 '2x'; dimension names must be C identifiers}}
func.func @named(%a: tensor<?xf32> {tad.dim_names = ["2x"]}) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

// -----

// A view of a view over a dynamic batch (group norm's [N, G, C/G * HxW]
// and back): the size is traced through both collapses. Reading the
// collapse's groups once crashed tad-record-abi (a reference into a
// temporary).
// CHECK-LABEL: func.func @regroup
//  CHECK-SAME:   sizes = [array<i64: -1, 4, 5, 3>, array<i64: -1, 4, 5, 3>], symbols = ["N"]
func.func @regroup(%x: tensor<?x4x5x3xf64> {tad.dim_names = ["N", "", "", ""]}) -> tensor<?x4x5x3xf64> {
  %0 = tad.view %x {size = array<i64: -1, 2, 30>} : (tensor<?x4x5x3xf64>) -> tensor<?x2x30xf64>
  %1 = tad.tanh %0 : tensor<?x2x30xf64>
  %2 = tad.view %1 {size = array<i64: -1, 4, 5, 3>} : (tensor<?x2x30xf64>) -> tensor<?x4x5x3xf64>
  return %2 : tensor<?x4x5x3xf64>
}

// -----

// The batch merged with static sizes and split again (multi-head
// attention's [L, B, E] -> [L, B * H, E / H] -> [L * B, E] -> [L, B, E]): the
// sizes between are multiples of the batch, and the result's is the batch.
// CHECK-LABEL: func.func @heads
//  CHECK-SAME:   sizes = [array<i64: 6, -1, 16>, array<i64: 6, -1, 16>], symbols = ["B"]
func.func @heads(%x: tensor<6x?x16xf64> {tad.dim_names = ["", "B", ""]}) -> tensor<6x?x16xf64> {
  %0 = tad.view %x {size = array<i64: 6, -1, 4>} : (tensor<6x?x16xf64>) -> tensor<6x?x4xf64>
  %1 = tad.tanh %0 : tensor<6x?x4xf64>
  %2 = tad.view %1 {size = array<i64: -1, 16>} : (tensor<6x?x4xf64>) -> tensor<?x16xf64>
  %3 = tad.exp %2 : tensor<?x16xf64>
  %4 = tad.view %3 {size = array<i64: 6, -1, 16>} : (tensor<?x16xf64>) -> tensor<6x?x16xf64>
  return %4 : tensor<6x?x16xf64>
}

// -----

// Four times the batch is not the batch.
// expected-error @+1 {{result #0 of 'quadruple' has a dynamic size in dimension 0 that is not the size of an argument's dimension}}
func.func @quadruple(%x: tensor<?x4xf64> {tad.dim_names = ["B", ""]}) -> tensor<?xf64> {
  %0 = tad.view %x {size = array<i64: -1>} : (tensor<?x4xf64>) -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
