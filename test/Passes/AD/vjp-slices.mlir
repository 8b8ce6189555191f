// RUN: tad-opt %s --tad-vjp="functions=f" | FileCheck %s

// A loop reads x one row per iteration and writes each h into an output
// stack. The reverse loop carries x's adjoint and updates only the row the
// iteration read (extract the row, add, insert it back: in place after
// bufferization), takes the row of the stack's cotangent for h, and zeroes
// that row of the cotangent for the earlier stack.

// CHECK-LABEL: func.func @f_vjp
// CHECK: scf.for
// CHECK: scf.for {{.*}} iter_args([[CTH:%[a-z0-9_]+]] = %{{[a-z0-9_]+}}, [[CTYS:%[a-z0-9_]+]] = %arg2, [[GX:%[a-z0-9_]+]] = %{{[a-z0-9_]+}})
// CHECK:   %[[ROW:.*]] = tensor.extract_slice [[CTYS]][[[T:%[a-z0-9_]+]], 0] [1, 3] [1, 1] : tensor<4x3xf64> to tensor<3xf64>
// CHECK:   %[[G:.*]] = tad.add.Tensor [[CTH]], %[[ROW]]
// CHECK:   %[[Z:.*]] = tad.constant dense<0.000000e+00> : tensor<3xf64>
// CHECK:   %[[REST:.*]] = tensor.insert_slice %[[Z]] into [[CTYS]][[[T]], 0] [1, 3] [1, 1]
// CHECK:   %[[D:.*]] = tad.tanh_backward %[[G]]
// CHECK:   %[[OLD:.*]] = tensor.extract_slice [[GX]][[[T]], 0] [1, 3] [1, 1]
// CHECK:   %[[NEW:.*]] = tad.add.Tensor %[[OLD]], %[[D]]
// CHECK:   %[[GX2:.*]] = tensor.insert_slice %[[NEW]] into [[GX]][[[T]], 0] [1, 3] [1, 1]
// CHECK:   scf.yield %{{.*}}, %[[REST]], %[[GX2]]

func.func @f(%x: tensor<4x3xf64>, %h0: tensor<3xf64>) -> tensor<4x3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ys0 = tad.constant dense<0.0> : tensor<4x3xf64>
  %r:2 = scf.for %t = %c0 to %c4 step %c1 iter_args(%h = %h0, %ys = %ys0) -> (tensor<3xf64>, tensor<4x3xf64>) {
    %xt = tensor.extract_slice %x[%t, 0] [1, 3] [1, 1] : tensor<4x3xf64> to tensor<3xf64>
    %s = tad.add.Tensor %h, %xt : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %n = tad.tanh %s : tensor<3xf64>
    %ys2 = tensor.insert_slice %n into %ys[%t, 0] [1, 3] [1, 1] : tensor<3xf64> into tensor<4x3xf64>
    scf.yield %n, %ys2 : tensor<3xf64>, tensor<4x3xf64>
  }
  return %r#1 : tensor<4x3xf64>
}
