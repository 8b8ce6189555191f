// RUN: tad-opt --tad-check-shapes %s --split-input-file --verify-diagnostics | FileCheck %s

// A dimension's minimum (tad.dim_min, one entry per dimension, 0 for
// none): at the function's entry, the size against it and a call of
// __tad_fail_minimum (actual, minimum, argument, dimension, the size's
// description) below it; the entry points return TAD_ERROR_SHAPE.

// CHECK:       func.func private @__tad_fail_minimum(i64, i64, i64, i64, memref<96xi8>)
// CHECK-LABEL: func.func @gram
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %arg1, %[[C0]]
// CHECK-NEXT:    %[[A:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK-NEXT:    %[[MIN:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[BELOW:.*]] = arith.cmpi slt, %[[A]], %[[MIN]]
// CHECK-NEXT:    scf.if %[[BELOW]] {
// CHECK-DAG:       %[[ARG:.*]] = arith.constant 1 : i64
// CHECK-DAG:       %[[DIM:.*]] = arith.constant 0 : i64
// CHECK:           %[[SIZE:.*]] = memref.get_global @__tad_minimum_site
// CHECK:           func.call @__tad_fail_minimum(%[[A]], %[[MIN]], %[[ARG]], %[[DIM]], %[[SIZE]])
// CHECK:         tad.t
func.func @gram(%w: tensor<3xf64>, %x: tensor<?x2xf64> {tad.dim_names = ["B", ""], tad.dim_min = array<i64: 2, 0>}) -> tensor<2x2xf64> {
  %t = tad.t %x : (tensor<?x2xf64>) -> tensor<2x?xf64>
  %g = tad.mm %t, %x : (tensor<2x?xf64>, tensor<?x2xf64>) -> tensor<2x2xf64>
  return %g : tensor<2x2xf64>
}

// No minimum, no check.
// CHECK-LABEL: func.func @none
// CHECK-NOT:     __tad_fail_minimum
// The description of @gram's size, "the dynamic size 'B'":
// CHECK:       memref.global "private" constant @__tad_minimum_site : memref<96xi8> = dense<[116, 104, 101, 32, 100, 121, 110, 97, 109, 105, 99, 32, 115, 105, 122, 101, 32, 39, 66, 39, 0,
func.func @none(%x: tensor<?x2xf64> {tad.dim_names = ["B", ""], tad.dim_min = array<i64: 0, 0>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}

// -----

// expected-error @below {{argument #0 of 'f' has 'tad.dim_min' 2 in dimension 1; a minimum is a non-negative size of a dynamic dimension}}
func.func @f(%x: tensor<?x2xf64> {tad.dim_min = array<i64: 0, 2>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}

// -----

// expected-error @below {{argument #0 of 'f' has 'tad.dim_min' array<i64: 2>; it takes an array<i64> with one entry per dimension of a ranked tensor}}
func.func @f(%x: tensor<?x2xf64> {tad.dim_min = array<i64: 2>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}
