// RUN: tad-opt %s --tad-vjp="functions=to_copy,max_dim,cat" --tad-jvp="functions=to_copy" | FileCheck %s

// The gradient of a dtype cast is cast back to the input's element type
// (_to_copy_backward reads it from self.options()); its JVP re-runs the cast.
// CHECK-LABEL: func.func @to_copy_jvp(
//  CHECK-SAME:     %{{.+}}: tensor<3xf32>, %[[T:.+]]: tensor<3xf32>) -> (tensor<3xf64>, tensor<3xf64>)
//       CHECK:   %[[TT:.+]] = tad._to_copy %[[T]] {dtype = f64} : (tensor<3xf32>) -> tensor<3xf64>
//       CHECK:   return %{{.+}}, %[[TT]]
// CHECK-LABEL: func.func @to_copy_vjp(
//  CHECK-SAME:     %{{.+}}: tensor<3xf32>, %[[CT:.+]]: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf32>)
//       CHECK:   %[[G:.+]] = tad._to_copy %[[CT]] {dtype = f32} : (tensor<3xf64>) -> tensor<3xf32>
//       CHECK:   return %{{.+}}, %[[G]]
func.func @to_copy(%x: tensor<3xf32>) -> tensor<3xf64> {
  %0 = tad._to_copy %x {dtype = f64} : (tensor<3xf32>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// max.dim: only the values are differentiable (one cotangent); the gradient
// scatters it back at the indices.
// CHECK-LABEL: func.func @max_dim_vjp(
//  CHECK-SAME:     %[[X:.+]]: tensor<4x3xf32>, %[[CT:.+]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi64>, tensor<4x3xf32>)
//       CHECK:   %[[V:.+]], %[[I:.+]] = tad.max.dim %[[X]]
//       CHECK:   %[[G:.+]] = tad.value_selecting_reduction_backward %[[CT]], %[[I]] {dim = 1 : i64, keepdim = false, sizes = array<i64: 4, 3>}
//       CHECK:   return %[[V]], %[[I]], %[[G]]
func.func @max_dim(%x: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %v, %i = tad.max.dim %x {dim = 1 : i64} : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi64>)
  return %v, %i : tensor<4xf32>, tensor<4xi64>
}

// cat: a Tensor[] input gets one gradient per element (split_with_sizes).
// CHECK-LABEL: func.func @cat_vjp(
//  CHECK-SAME:     %{{.+}}: tensor<2x3xf32>, %{{.+}}: tensor<2x1xf32>, %[[CT:.+]]: tensor<2x4xf32>)
//       CHECK:   %[[G:.+]]:2 = tad.split_with_sizes %[[CT]] {dim = 1 : i64, split_sizes = array<i64: 3, 1>}
//       CHECK:   return %{{.+}}, %[[G]]#0, %[[G]]#1
func.func @cat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %0 = tad.cat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
