// RUN: not tad-opt %s --tad-decompose --split-input-file 2>&1 | FileCheck %s

// A rule reads a dynamic size at run time (tad._shape_as_tensor) where it
// computes with it as a number (counts, ratios); where it needs the number
// at compile time (an attribute, a decision) it is an error at the op, the
// formula in a note, never a number made of the dynamic marker.

// narrow from the end of a dynamic dimension: the slice's start would be
// an attribute computed from the size.
// CHECK: decompose-errors.mlir:[[@LINE+3]]:8: error: 'slice' takes a number known at compile time here, and this one is computed from a dynamic size (dynamic sizes are not supported by this rule yet)
// CHECK: rules/decompositions.yaml:{{[0-9]+}}:{{[0-9]+}}: note: in this rule formula, while decomposing the op
func.func @from_end(%x: tensor<?x3xf64>) -> tensor<2x3xf64> {
  %0 = tad.narrow %x {dim = 0 : i64, start = -2 : i64, length = 2 : i64} : (tensor<?x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// glu halves a dynamic dimension: its decomposition's narrow lengths are
// sizes known at run time in a size list.
// CHECK: decompose-errors.mlir:[[@LINE+4]]:8: error:
// CHECK-SAME: dynamic sizes are not supported by this rule yet
// CHECK: note: in this rule formula, while decomposing the op
func.func @glu(%x: tensor<3x?xf64>) -> tensor<3x?xf64> {
  %0 = tad.glu %x {dim = 1 : i64} : (tensor<3x?xf64>) -> tensor<3x?xf64>
  return %0 : tensor<3x?xf64>
}
