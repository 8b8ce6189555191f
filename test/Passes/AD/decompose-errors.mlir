// RUN: not tad-opt %s --tad-decompose 2>&1 | FileCheck %s

// tad's dropout takes an explicit key (native_dropout.key): the composite
// decomposes only when it is the identity.
// CHECK: rules/decompositions.yaml:{{[0-9]+}}:{{[0-9]+}}: error: not implemented: dropout with train=True: use native_dropout.key (an explicit RNG key)
// CHECK: note: while decomposing this op
func.func @dropout_train(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tad.dropout %x {p = 0.5 : f64, train = true} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
