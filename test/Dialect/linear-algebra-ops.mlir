// RUN: tad-opt %s | tad-opt | FileCheck %s
// RUN: tad-opt %s --mlir-print-op-generic | tad-opt | FileCheck %s

// Round trip of the linear-algebra ops (dialects/Tad/TadLinearAlgebraOps.td):
// defaulted attributes are elided; info and pivots are i32.

// CHECK-LABEL: func.func @factorizations(
//  CHECK-NEXT:   {{.*}} = tad.linalg_inv_ex %{{[a-z0-9_#]+}} : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
//  CHECK-NEXT:   {{.*}} = tad.linalg_inv_ex %{{[a-z0-9_#]+}} {check_errors = true} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
//  CHECK-NEXT:   {{.*}} = tad._linalg_slogdet %{{[a-z0-9_#]+}} : (tensor<2x3x3xf64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2x3x3xf64>, tensor<2x3xi32>)
//  CHECK-NEXT:   {{.*}} = tad.linalg_cholesky_ex %{{[a-z0-9_#]+}} {upper = true} : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
//  CHECK-NEXT:   {{.*}} = tad.linalg_cholesky_ex %{{[a-z0-9_#]+}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
func.func @factorizations(%a: tensor<2x3x3xf64>, %b: tensor<3x3xf32>) {
  %0:2 = tad.linalg_inv_ex %a : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
  %1:2 = tad.linalg_inv_ex %b {check_errors = true} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %2:4 = tad._linalg_slogdet %a : (tensor<2x3x3xf64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2x3x3xf64>, tensor<2x3xi32>)
  %3:2 = tad.linalg_cholesky_ex %a {upper = true} : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
  %4:2 = tad.linalg_cholesky_ex %b : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  return
}
