// RUN: tad-opt %s -split-input-file -verify-diagnostics

// What every tad op checks besides its own verifier: only the attributes it
// declares, and tensors whose size in bytes fits in a 64-bit integer.

func.func @unknown_attribute(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tad.tanh' op has no attribute 'dim'}}
  %0 = tad.tanh %x {dim = 7} : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @misspelled_attribute(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tad.sum.dim_IntList' op has no attribute 'keep_dim'}}
  %0 = tad.sum.dim_IntList %x {dim = array<i64: 1>, keep_dim = true} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Dialect attributes (a namespace and a dot) may ride along on any op.
func.func @dialect_attribute(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tad.tanh %x {tad.note = "kept"} : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// 2^62 x 4 f32 elements are 2^66 bytes.
func.func @size_overflow(%x: tensor<4xf32>) -> tensor<4611686018427387904x4xf32> {
  // expected-error @+1 {{'tad.expand' op uses 'tensor<4611686018427387904x4xf32>', whose size in bytes overflows a 64-bit integer}}
  %e = tad.expand %x {size = array<i64: 4611686018427387904, 4>} : (tensor<4xf32>) -> tensor<4611686018427387904x4xf32>
  return %e : tensor<4611686018427387904x4xf32>
}

// -----

// 2^40 elements (4 TiB) are a valid type: whether it can be allocated is a
// question for the run time.
func.func @large_but_representable(%x: tensor<4xf32>) -> tensor<1099511627776x4xf32> {
  %e = tad.expand %x {size = array<i64: 1099511627776, 4>} : (tensor<4xf32>) -> tensor<1099511627776x4xf32>
  return %e : tensor<1099511627776x4xf32>
}
