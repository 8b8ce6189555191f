// RUN: tad-opt %s --tad-gpu-place | FileCheck %s
// RUN: tad-opt %s --tad-gpu-place --gpu-map-parallel-loops=mapping-policy=innermost-first --convert-parallel-loops-to-gpu --gpu-kernel-outlining --tad-gpu-merge-modules | FileCheck %s --check-prefix=KERNELS

// Arguments and results are device buffers already (the entry point stages
// host tensors around the call); temporaries are device buffers; the
// parallel loop is tiled (blocks of tiles, threads within a tile, guarded);
// the sequential full reduction runs in a single-thread launch.

// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:.*]]: memref<3x4xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK-NOT:     gpu.memcpy
// CHECK:         %[[T:.*]] = gpu.alloc () : memref<3x4xf32>
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.if
// CHECK:               memref.load %[[X]]
// CHECK:               memref.store %{{.*}}, %[[T]]
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE:.*]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// CHECK:           memref.store %{{.*}}, %[[OUT]][]
// CHECK:           scf.for
// CHECK:           gpu.terminator
// CHECK:         gpu.dealloc %[[T]]
// CHECK-NOT:     gpu.memcpy
// CHECK-NEXT:    return

// One gpu.module, kernels named after the function.
// KERNELS:     gpu.launch_func @tad_kernels::@f_kernel blocks
// KERNELS:     gpu.launch_func @tad_kernels::@f_kernel_0 blocks
// KERNELS:     gpu.module @tad_kernels
// KERNELS-DAG:   gpu.func @f_kernel(
// KERNELS-DAG:   gpu.func @f_kernel_0(
// KERNELS-NOT: gpu.module
func.func @f(%x: memref<3x4xf32>, %out: memref<f32>) attributes {tad.abi = {args = [tensor<3x4xf32>], results = [tensor<f32>]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<3x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<3x4xf32>
    %e = math.exp %v : f32
    memref.store %e, %t[%i, %j] : memref<3x4xf32>
    scf.reduce
  }
  memref.store %zero, %out[] : memref<f32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %t[%i, %j] : memref<3x4xf32>
      %a = memref.load %out[] : memref<f32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %out[] : memref<f32>
    }
  }
  memref.dealloc %t : memref<3x4xf32>
  return
}
