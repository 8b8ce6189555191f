// RUN: tad-opt %s --tad-vjp=functions=floor,unused | FileCheck %s --check-prefix=VJP
// RUN: tad-opt %s --tad-jvp=functions=floor,unused | FileCheck %s --check-prefix=JVP

// A derivative that is zero (floor's, or an argument the result does not
// use) of a dynamic shape is zeros_like of a value of that shape: a
// constant has a static shape (it was a tad.constant of type tensor<?x5xf64>,
// which nothing lowers).

// VJP-LABEL: func.func @floor_vjp(
// VJP-NOT:     tad.constant
// VJP:         %[[Z:.*]] = tad.zeros_like %{{.*}} : tensor<?x5xf64>
// VJP:         return %{{.*}}, %[[Z]]
// JVP-LABEL: func.func @floor_jvp(
// JVP-NOT:     tad.constant
// JVP:         %[[Z:.*]] = tad.zeros_like %{{.*}} : tensor<?x5xf64>
// JVP:         return %{{.*}}, %[[Z]]
func.func @floor(%x: tensor<?x5xf64>) -> tensor<?x5xf64> {
  %0 = tad.floor %x : tensor<?x5xf64>
  return %0 : tensor<?x5xf64>
}

// VJP-LABEL: func.func @unused_vjp(
// VJP-SAME:    %[[X:[^:]*]]: tensor<?x5xf64>, %[[Y:[^:]*]]: tensor<?x3xf64>
// VJP:         %[[Z:.*]] = tad.zeros_like %[[Y]] : tensor<?x3xf64>
// VJP:         return %{{.*}}, %{{.*}}, %[[Z]]
func.func @unused(%x: tensor<?x5xf64>, %y: tensor<?x3xf64>) -> tensor<?x5xf64> {
  %0 = tad.exp %x : tensor<?x5xf64>
  return %0 : tensor<?x5xf64>
}
