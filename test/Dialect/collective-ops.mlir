// RUN: tad-opt %s | tad-opt | FileCheck %s
// RUN: tad-opt %s --mlir-print-op-generic | tad-opt | FileCheck %s

// Round trip of the collective ops (dialects/Tad/TadCollectiveOps.td):
// defaulted attributes (reduction "sum", root 0, bucket_bytes 25 MiB) are
// elided; unused results are kept (the ops are not pure).

// CHECK-LABEL: func.func @collectives(
//  CHECK-NEXT:   {{.*}}:2 = tad.all_reduce %{{.*}}, %{{.*}} {reduction = "mean"} : (tensor<4x3xf64>, tensor<3xf32>) -> (tensor<4x3xf64>, tensor<3xf32>)
//  CHECK-NEXT:   {{.*}} = tad.all_reduce %{{.*}} : (tensor<f64>) -> tensor<f64>
//  CHECK-NEXT:   {{.*}} = tad.all_reduce %{{.*}} {bucket_bytes = 1024 : i64} : (tensor<3xf32>) -> tensor<3xf32>
//  CHECK-NEXT:   {{.*}}:2 = tad.broadcast_from %{{.*}}, %{{.*}} : (tensor<4x3xf64>, tensor<3xf32>) -> (tensor<4x3xf64>, tensor<3xf32>)
//  CHECK-NEXT:   {{.*}} = tad.broadcast_from %{{.*}} {root = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
//  CHECK-NEXT:   tad.barrier
//  CHECK-NEXT:   tad.all_reduce : () -> ()
//  CHECK-NEXT:   return
func.func @collectives(%a: tensor<4x3xf64>, %b: tensor<3xf32>, %s: tensor<f64>) {
  %0:2 = tad.all_reduce %a, %b {reduction = "mean"} : (tensor<4x3xf64>, tensor<3xf32>) -> (tensor<4x3xf64>, tensor<3xf32>)
  %1 = tad.all_reduce %s {reduction = "sum"} : (tensor<f64>) -> tensor<f64>
  %2 = tad.all_reduce %b {bucket_bytes = 1024} : (tensor<3xf32>) -> tensor<3xf32>
  %3:2 = tad.broadcast_from %a, %b {root = 0} : (tensor<4x3xf64>, tensor<3xf32>) -> (tensor<4x3xf64>, tensor<3xf32>)
  %4 = tad.broadcast_from %b {root = 1} : (tensor<3xf32>) -> tensor<3xf32>
  tad.barrier
  tad.all_reduce : () -> ()
  return
}
