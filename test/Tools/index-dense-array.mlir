// MLIR 22's parser crashes on a dense array of `index` elements; tadc and
// tad-opt (given a file) report it instead, at its location.
// RUN: not tadc %s --emit=mlir -o - 2>&1 | FileCheck %s
// RUN: not tad-opt %s 2>&1 | FileCheck %s
// RUN: not tad-opt %S/Inputs/index-dense-array-in-reshape.mlir 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RUN: not tadc %S/Inputs/index-dense-array-in-reshape.mlir -o %t.so 2>&1 | FileCheck %s --check-prefix=RESHAPE

// A string or a comment that mentions array<index: 1> is no array.
// CHECK: index-dense-array.mlir:[[@LINE+1]]:89: error: dense arrays of 'index' elements are not supported; use array<i64: ...>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {s = "array<index: 1>", a = array<index: 2>} {
  return %x : tensor<4xf32>
}

// RESHAPE: index-dense-array-in-reshape.mlir:2:32: error: dense arrays of 'index' elements are not supported
