// RUN: tad-opt %s --split-input-file --tad-gpu-place --verify-diagnostics | FileCheck %s

// Dynamic sizes come first, as host integers; the run-time size check (and
// the sizes it compares) moves ahead of every device buffer and kernel, so
// that a failing check ends the call before any device work, on the host.

// CHECK-LABEL: func.func @hoisted(
// CHECK-SAME:    %[[N:.*]]: index, %[[X:.*]]: memref<f32>, %[[OUT:.*]]: memref<f32>)
// CHECK:         %[[SIZE:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:         %[[BAD:.*]] = arith.cmpi slt, %[[SIZE]]
// CHECK:         scf.if %[[BAD]] {
// CHECK-NEXT:      memref.get_global @site
// CHECK-NEXT:      func.call @__tad_fail_minimum
// CHECK:         gpu.alloc (%[[N]]) : memref<?xf32>
// CHECK:         scf.parallel
memref.global "private" constant @site : memref<96xi8> = dense<0>
func.func private @__tad_fail_minimum(i64, i64, i64, i64, memref<96xi8>)
func.func @hoisted(%n: index, %x: memref<f32>, %out: memref<f32>) attributes {tad.abi = {args = [tensor<?xf32>], results = [tensor<?xf32>], sizes = [array<i64: -1>, array<i64: -1>], symbols = ["B"]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %xs = memref.reinterpret_cast %x to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32>
  %os = memref.reinterpret_cast %out to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32>
  %t = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %xs[%i] : memref<?xf32>
    memref.store %v, %t[%i] : memref<?xf32>
    scf.reduce
  }
  %size = arith.index_cast %n : index to i64
  %c2 = arith.constant 2 : i64
  %z = arith.constant 0 : i64
  %bad = arith.cmpi slt, %size, %c2 : i64
  scf.if %bad {
    %site = memref.get_global @site : memref<96xi8>
    func.call @__tad_fail_minimum(%size, %c2, %z, %z, %site) : (i64, i64, i64, i64, memref<96xi8>) -> ()
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %t[%i] : memref<?xf32>
    memref.store %v, %os[%i] : memref<?xf32>
    scf.reduce
  }
  memref.dealloc %t : memref<?xf32>
  return
}

// -----

// A loop over blocks of the batch (tad-split-dynamic-batch) stays on the
// host and launches its body's kernels every iteration: its temporaries are
// device buffers allocated per iteration, its parallel loop is tiled for
// the mapping, and its scalar loop runs on one device thread. Buffer
// deallocation's bookkeeping (an array of pointers, compared in a host
// loop) stays in host memory.

// CHECK-LABEL: func.func @host_loop(
// CHECK:         %[[OWN:.*]] = scf.for {{.*}} iter_args({{.*}}) -> (memref<4xf32>, i1) {
// CHECK:           %[[T:.*]] = gpu.alloc () : memref<8x4xf32>
// CHECK:           scf.parallel
// CHECK:             scf.parallel
// CHECK:           gpu.launch
// CHECK:             scf.for
// CHECK:           gpu.dealloc %[[T]]
// CHECK:           scf.yield
// CHECK:         %[[PTRS:.*]] = memref.alloc() : memref<2xindex>
// CHECK:         memref.store %{{.*}}, %[[PTRS]]
// CHECK:         scf.for
// CHECK-NEXT:      memref.load %[[PTRS]]
// CHECK-NOT:     gpu.launch
// CHECK:         memref.dealloc %[[PTRS]]
// CHECK:         return
func.func @host_loop(%n: index, %x: memref<f32>, %acc0: memref<4xf32>, %out: memref<4xf32>) attributes {tad.abi = {args = [tensor<?x4xf32>, tensor<4xf32>], results = [tensor<4xf32>], sizes = [array<i64: -1, 4>, array<i64: 4>, array<i64: 4>], symbols = ["B"]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %xs = memref.reinterpret_cast %x to offset: [0], sizes: [%n, 4], strides: [4, 1] : memref<f32> to memref<?x4xf32>
  %r:2 = scf.for %b = %c0 to %n step %c8 iter_args(%acc = %acc0, %own = %false) -> (memref<4xf32>, i1) {
    %block = memref.subview %xs[%b, 0] [8, 4] [1, 1] : memref<?x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
    %t = memref.alloc() : memref<8x4xf32>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
      %v = memref.load %block[%i, %j] : memref<8x4xf32, strided<[4, 1], offset: ?>>
      %e = math.exp %v : f32
      memref.store %e, %t[%i, %j] : memref<8x4xf32>
      scf.reduce
    }
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %v = memref.load %t[%i, %j] : memref<8x4xf32>
        %a = memref.load %acc[%j] : memref<4xf32>
        %s = arith.addf %a, %v : f32
        memref.store %s, %acc[%j] : memref<4xf32>
      }
    }
    memref.dealloc %t : memref<8x4xf32>
    scf.yield %acc, %own : memref<4xf32>, i1
  }
  %ptrs = memref.alloc() : memref<2xindex>
  %p0 = memref.extract_aligned_pointer_as_index %r#0 : memref<4xf32> -> index
  %p1 = memref.extract_aligned_pointer_as_index %out : memref<4xf32> -> index
  memref.store %p0, %ptrs[%c0] : memref<2xindex>
  memref.store %p1, %ptrs[%c1] : memref<2xindex>
  %distinct = scf.for %i = %c0 to %c2 step %c1 iter_args(%d = %r#1) -> (i1) {
    %p = memref.load %ptrs[%i] : memref<2xindex>
    %ne = arith.cmpi ne, %p, %p1 : index
    %and = arith.andi %d, %ne : i1
    scf.yield %and : i1
  }
  memref.dealloc %ptrs : memref<2xindex>
  memref.copy %r#0, %out : memref<4xf32> to memref<4xf32>
  scf.if %distinct {
    memref.dealloc %r#0 : memref<4xf32>
  }
  return
}

// -----

// A check inside a loop would call the runtime from a kernel.

memref.global "private" constant @site : memref<96xi8> = dense<0>
func.func private @__tad_fail_shape(i64, i64, i64, i64, memref<96xi8>)
func.func @check_in_loop(%n: index, %x: memref<f32>) attributes {tad.abi = {args = [tensor<?xf32>], results = [], sizes = [array<i64: -1>], symbols = ["B"]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %size = arith.index_cast %i : index to i64
    %bad = arith.cmpi slt, %size, %size : i64
    // expected-error @+1 {{a run-time size check inside a loop or branch cannot run on the GPU yet}}
    scf.if %bad {
      %site = memref.get_global @site : memref<96xi8>
      func.call @__tad_fail_shape(%size, %size, %size, %size, %site) : (i64, i64, i64, i64, memref<96xi8>) -> ()
    }
    %u = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %u : memref<?xf32>
  }
  memref.dealloc %t : memref<?xf32>
  return
}

// -----

// A branch between two schedules (tad-combine-matmul-sums with a dynamic k)
// stays on the host like a host loop: the kernels of the branch taken run.

// CHECK-LABEL: func.func @host_branch(
// CHECK:         %[[R:.*]] = scf.if %{{.*}} -> (memref<4xf32>) {
// CHECK:           %[[T:.*]] = gpu.alloc () : memref<4xf32>
// CHECK:           scf.parallel
// CHECK:           scf.yield %[[T]]
// CHECK:         } else {
// CHECK:           %[[U:.*]] = gpu.alloc () : memref<4xf32>
// CHECK:           gpu.launch
// CHECK:           scf.yield %[[U]]
// CHECK:         gpu.memcpy %{{.*}}, %[[R]]
func.func @host_branch(%n: index, %x: memref<f32>, %out: memref<4xf32>) attributes {tad.abi = {args = [tensor<?xf32>], results = [tensor<4xf32>], sizes = [array<i64: -1>, array<i64: 4>], symbols = ["N"]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %xs = memref.reinterpret_cast %x to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32>
  %small = arith.cmpi ule, %n, %c8 : index
  %r = scf.if %small -> (memref<4xf32>) {
    %t = memref.alloc() : memref<4xf32>
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      %v = memref.load %xs[%i] : memref<?xf32>
      memref.store %v, %t[%i] : memref<4xf32>
      scf.reduce
    }
    scf.yield %t : memref<4xf32>
  } else {
    %u = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %xs[%i] : memref<?xf32>
      memref.store %v, %u[%i] : memref<4xf32>
    }
    scf.yield %u : memref<4xf32>
  }
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return
}
