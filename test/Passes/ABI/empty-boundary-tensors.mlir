// RUN: tad-opt %s --tad-record-abi --tad-empty-boundary-tensors --allow-unregistered-dialect | FileCheck %s

// Zero-size arguments and results of exported functions cross the boundary
// as tensor<0xT>; the recorded signature keeps their shapes. Inside, an
// argument is an empty tensor of its type and a result an empty tensor<0xT>.
// CHECK-LABEL: func.func @f
//  CHECK-SAME:   (%[[X:.*]]: tensor<0xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<2x3xf32> {bufferization.writable = false}, %[[Z:.*]]: tensor<0xi64> {bufferization.writable = false})
//  CHECK-SAME:   -> (tensor<0xf64>, tensor<2x3xf32>)
//  CHECK-SAME:   tad.abi = {args = [tensor<2x0xf32>, tensor<2x3xf32>, tensor<0xi64>], results = [tensor<1x0x3xf64>, tensor<2x3xf32>]}
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<2x0xf32>
//       CHECK:   "test.use"(%[[E]], %[[Z]])
//       CHECK:   %[[R:.*]] = tensor.empty() : tensor<0xf64>
//       CHECK:   return %[[R]], %[[Y]] : tensor<0xf64>, tensor<2x3xf32>
func.func @f(%x: tensor<2x0xf32>, %y: tensor<2x3xf32>, %z: tensor<0xi64>) -> (tensor<1x0x3xf64>, tensor<2x3xf32>) {
  %r = "test.use"(%x, %z) : (tensor<2x0xf32>, tensor<0xi64>) -> tensor<1x0x3xf64>
  return %r, %y : tensor<1x0x3xf64>, tensor<2x3xf32>
}

// Calls pass and receive the stand-ins (@caller, exported too, also
// returns one).
// CHECK-LABEL: func.func @caller
//       CHECK:   %[[A:.*]] = tensor.empty() : tensor<0xf32>
//       CHECK:   %[[C:.*]]:2 = call @f(%[[A]], %{{.*}}, %{{.*}}) : (tensor<0xf32>, tensor<2x3xf32>, tensor<0xi64>) -> (tensor<0xf64>, tensor<2x3xf32>)
//       CHECK:   return %{{.*}}, %[[C]]#1 : tensor<0xf64>, tensor<2x3xf32>
func.func @caller(%x: tensor<2x0xf32>, %y: tensor<2x3xf32>, %z: tensor<0xi64>) -> (tensor<1x0x3xf64>, tensor<2x3xf32>) {
  %r:2 = call @f(%x, %y, %z) : (tensor<2x0xf32>, tensor<2x3xf32>, tensor<0xi64>) -> (tensor<1x0x3xf64>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<1x0x3xf64>, tensor<2x3xf32>
}

// Private functions keep their signatures.
// CHECK-LABEL: func.func private @helper
//  CHECK-SAME:   (%{{.*}}: tensor<2x0xf32>) -> tensor<2x0xf32>
func.func private @helper(%x: tensor<2x0xf32>) -> tensor<2x0xf32> {
  return %x : tensor<2x0xf32>
}
