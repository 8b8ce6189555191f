// RUN: tad-opt %s --tad-vjp=functions=mean_dim,mean,broadcast | FileCheck %s

// How derivative rules use a dynamic size: mean's count is read at run time
// (tad._shape_as_tensor, one element, as f64), and the gradient of a full
// reduction is broadcast to the input's run-time sizes (tad.expand_as).

// CHECK-LABEL: func.func @mean_dim_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf64>, %[[G:.*]]: tensor<3xf64>)
// CHECK: %[[S:.*]] = tad._shape_as_tensor %[[X]] : (tensor<?x3xf64>) -> tensor<2xi64>
// CHECK: %[[N:.*]] = tad.select.int %[[S]] {dim = 0 : i64, index = 0 : i64} : (tensor<2xi64>) -> tensor<i64>
// CHECK: %[[F:.*]] = tad._to_copy %[[N]] {dtype = f64} : (tensor<i64>) -> tensor<f64>
// CHECK: %[[V:.*]] = tad.view %[[G]] {size = array<i64: 1, 3>}
// CHECK: %[[E:.*]] = tad.expand_as %[[V]], %[[X]] : (tensor<1x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
// CHECK: tad.floor
// CHECK: tad.div.Tensor %[[E]], %{{.*}} : (tensor<?x3xf64>, tensor<f64>) -> tensor<?x3xf64>
func.func @mean_dim(%x: tensor<?x3xf64>) -> tensor<3xf64> {
  %0 = tad.mean.dim %x {dim = array<i64: 0>, keepdim = false} : (tensor<?x3xf64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// f32: the count is cast to the gradient's element type.
// CHECK-LABEL: func.func @mean_vjp(
// CHECK: %[[E:.*]] = tad.expand_as %{{.*}}, %{{.*}} : (tensor<f32>, tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
// CHECK: tad.mul.Tensor {{.*}} : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK: tad.mul.Scalar {{.*}} 4.000000e+00 : tensor<f64>
// CHECK: %[[C:.*]] = tad._to_copy %{{.*}} {dtype = f32} : (tensor<f64>) -> tensor<f32>
// CHECK: tad.div.Tensor %[[E]], %[[C]] : (tensor<?x4x?xf32>, tensor<f32>) -> tensor<?x4x?xf32>
func.func @mean(%x: tensor<?x4x?xf32>) -> tensor<f32> {
  %0 = tad.mean %x : (tensor<?x4x?xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// A size 1 against a dynamic one is a broadcast (a dynamic size never is):
// the gradient is summed to [1, 3], not given that type by expand_as.
// CHECK-LABEL: func.func @broadcast_vjp(
// CHECK-NOT: expand_as
// CHECK: tad.sum_to_size %{{.*}} {size = array<i64: 1, 3>} : (tensor<?x3xf64>) -> tensor<1x3xf64>
func.func @broadcast(%a: tensor<1x3xf64>, %b: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = tad.add.Tensor %a, %b : (tensor<1x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}
