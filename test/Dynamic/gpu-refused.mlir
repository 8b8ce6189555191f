// RUN: not tadc %s --target=cuda --vjp=f -o %t.so 2>&1 | FileCheck %s

// The GPU target refuses dynamic signatures, for the function and its VJP,
// at the function.

// CHECK: gpu-refused.mlir:[[@LINE+2]]:1: error: function 'f' has dynamic sizes, which the GPU target does not support yet (docs/dynamic-shapes.md); compile it for the CPU or with static shapes
// CHECK: error: function 'f_vjp' has dynamic sizes
func.func @f(%x: tensor<?x8xf32>, %w: tensor<4x8xf32>) -> tensor<?x4xf32> {
  %wt = tad.t %w : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %y = tad.mm %x, %wt : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  %r = tad.relu %y : tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
