// RUN: tad-opt %s --tad-record-abi --split-input-file --verify-diagnostics | FileCheck %s

// Public functions with a body are exported: their signature is recorded and
// their arguments become read-only for bufferization.
// CHECK-LABEL: func.func @f
//  CHECK-SAME:   (%{{.*}}: tensor<4x8xf32> {bufferization.writable = false}, %{{.*}}: tensor<i64> {bufferization.writable = false})
//  CHECK-SAME:   attributes {tad.abi = {args = [tensor<4x8xf32>, tensor<i64>], results = [tensor<4x8xf32>, tensor<2xi1>]}}
func.func @f(%x: tensor<4x8xf32>, %n: tensor<i64>) -> (tensor<4x8xf32>, tensor<2xi1>) {
  %c = arith.constant dense<true> : tensor<2xi1>
  return %x, %c : tensor<4x8xf32>, tensor<2xi1>
}

// Private functions and declarations are not.
// CHECK-LABEL: func.func private @helper
//   CHECK-NOT:   tad.abi
//   CHECK-NOT:   bufferization.writable
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// CHECK-LABEL: func.func private @decl
//   CHECK-NOT:   tad.abi
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @no_args()
//  CHECK-SAME:   attributes {tad.abi = {args = [], results = [tensor<3xi32>]}}
func.func @no_args() -> tensor<3xi32> {
  %c = arith.constant dense<1> : tensor<3xi32>
  return %c : tensor<3xi32>
}

// -----

// Dynamic sizes are symbols (more in test/Dynamic/record-abi.mlir).
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   tad.abi = {args = [tensor<?xf32>], results = [tensor<4xf32>], sizes = [array<i64: -1>, array<i64: 4>], symbols = ["s0"]}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// expected-error @+1 {{exported function 'memref' has argument #0 of type 'memref<4xf32>'; the tad C ABI passes only ranked tensors}}
func.func @memref(%x: memref<4xf32>) {
  return
}

// -----

// expected-error @+1 {{exported function 'short' has result #0 with element type 'i16'; the tad C ABI supports f32, f64, bf16, f16, i64, i32 and i1}}
func.func @short() -> tensor<2xi16> {
  %c = arith.constant dense<1> : tensor<2xi16>
  return %c : tensor<2xi16>
}

// -----

// expected-error @+1 {{exported function 'unranked' has argument #0 of type 'tensor<*xf32>'; the tad C ABI passes only ranked tensors}}
func.func @unranked(%x: tensor<*xf32>) {
  return
}

// -----

// expected-error @+1 {{exported function 'a.b' needs a name that is a C identifier}}
func.func @"a.b"() {
  return
}

// -----

// expected-error @+1 {{exported function '__tad_x' uses a name reserved for tad ('tad_', '_tad_', '__tad' prefixes)}}
func.func @__tad_x() {
  return
}
