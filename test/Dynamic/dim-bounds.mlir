// RUN: tad-opt --tad-check-shapes %s --split-input-file --verify-diagnostics | FileCheck %s

// A dimension's minimum (tad.dim_min, one entry per dimension, 0 for
// none) and maximum (tad.dim_max, -1 for none): at the function's entry,
// the size against them and a call of __tad_fail_minimum or
// __tad_fail_maximum (actual, bound, argument, dimension, the size's
// description) outside them; the entry points return TAD_ERROR_SHAPE.

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
// CHECK:           %[[SIZE:.*]] = memref.get_global @__tad_bound_site
// CHECK:           func.call @__tad_fail_minimum(%[[A]], %[[MIN]], %[[ARG]], %[[DIM]], %[[SIZE]])
// CHECK:         tad.t
func.func @gram(%w: tensor<3xf64>, %x: tensor<?x2xf64> {tad.dim_names = ["B", ""], tad.dim_min = array<i64: 2, 0>}) -> tensor<2x2xf64> {
  %t = tad.t %x : (tensor<?x2xf64>) -> tensor<2x?xf64>
  %g = tad.mm %t, %x : (tensor<2x?xf64>, tensor<?x2xf64>) -> tensor<2x2xf64>
  return %g : tensor<2x2xf64>
}

// A minimum and a maximum.
// CHECK-LABEL: func.func @window
// CHECK:         arith.cmpi slt, %{{.*}}, %c3_i64
// CHECK:           func.call @__tad_fail_minimum
// CHECK:         %[[MAX:.*]] = arith.constant 64 : i64
// CHECK:         arith.cmpi sgt, %{{.*}}, %[[MAX]]
// CHECK:           func.call @__tad_fail_maximum
func.func @window(%x: tensor<?x2xf64> {tad.dim_min = array<i64: 3, 0>, tad.dim_max = array<i64: 64, -1>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}

// No minimum, no check.
// CHECK-LABEL: func.func @none
// CHECK-NOT:     __tad_fail_minimum
// The description of @gram's size, "the dynamic size 'B'":
// CHECK:       memref.global "private" constant @__tad_bound_site : memref<96xi8> = dense<[116, 104, 101, 32, 100, 121, 110, 97, 109, 105, 99, 32, 115, 105, 122, 101, 32, 39, 66, 39, 0,
func.func @none(%x: tensor<?x2xf64> {tad.dim_names = ["B", ""], tad.dim_min = array<i64: 0, 0>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}

// -----

// expected-error @below {{argument #0 of 'f' has 'tad.dim_min' 2 in dimension 1; a bound is a non-negative size of a dynamic dimension (0 for none)}}
func.func @f(%x: tensor<?x2xf64> {tad.dim_min = array<i64: 0, 2>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}

// -----

// expected-error @below {{argument #0 of 'f' has 'tad.dim_min' array<i64: 2>; it takes an array<i64> with one entry per dimension of a ranked tensor}}
func.func @f(%x: tensor<?x2xf64> {tad.dim_min = array<i64: 2>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}

// -----

// expected-error @below {{argument #0 of 'f' has the maximum 2 in dimension 0 below its minimum 3}}
func.func @f(%x: tensor<?x2xf64> {tad.dim_min = array<i64: 3, 0>, tad.dim_max = array<i64: 2, -1>}) -> tensor<?x2xf64> {
  return %x : tensor<?x2xf64>
}
