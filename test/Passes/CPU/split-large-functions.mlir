// RUN: tad-opt %s --tad-split-large-functions=max-ops=3 | FileCheck %s
// RUN: tad-opt %s --tad-split-large-functions | FileCheck %s --check-prefix=SMALL

// Functions of more than max-ops ops: runs of about max-ops ops move into
// noinline pieces. Under the default (4000) nothing here is split.
// SMALL-NOT: _part

func.func private @kernel(memref<f32>, index)
func.func private @use(index)

// Buffers cross as their base buffer and the dynamic parts of their layout;
// constants and globals are cloned, not passed. What is left after the
// last full run stays.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[ARG:.*]]: memref<?x4xf32>, %[[N:.*]]: index)
// CHECK: %[[AB:.*]], %{{.*}}, %[[AS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[ARG]]
// CHECK: %[[P0:.*]]:2 = call @chain_part0(%[[AB]], %[[AS]]#0, %[[N]]) : (memref<f32>, index, index) -> (memref<f32>, index)
// CHECK: %[[T:.*]] = memref.reinterpret_cast %[[P0]]#0 to offset: [0], sizes: [%[[P0]]#1, 4], strides: [4, 1] : memref<f32> to memref<?x4xf32>
// CHECK: %[[TB:.*]], %{{.*}}, %[[TS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[T]]
// CHECK: call @chain_part1(%{{.*}}, %{{.*}}, %[[TB]], %[[TS]]#0) : (memref<f32>, index, memref<f32>, index) -> ()
// CHECK-NEXT: call @use(%[[N]])
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: return

// CHECK: func.func private @chain_part0(%[[B:.*]]: memref<f32>, %[[D:.*]]: index, %[[M:.*]]: index) -> (memref<f32>, index)
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[X:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[D]], 4], strides: [4, 1]
// CHECK-NEXT: %[[DIM:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK-NEXT: %[[A:.*]] = memref.alloc(%[[DIM]])
// CHECK-NEXT: call @use(%[[M]])
// CHECK-NEXT: %[[RB:.*]], %{{.*}}, %[[RS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK-NEXT: return %[[RB]], %[[RS]]#0 : memref<f32>, index

// CHECK: func.func private @chain_part1(
// CHECK-NEXT: %[[G:.*]] = memref.get_global @table
// CHECK: memref.copy
// CHECK-NEXT: %[[GB:.*]], %[[GO:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[G]]
// CHECK-NEXT: call @kernel(%[[GB]], %[[GO]])
// CHECK-NEXT: return
memref.global "private" constant @table : memref<4xf32> = dense<1.0>

func.func @chain(%x: memref<?x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @table : memref<4xf32>
  %d = memref.dim %x, %c0 : memref<?x4xf32>
  %t = memref.alloc(%d) : memref<?x4xf32>
  func.call @use(%n) : (index) -> ()
  memref.copy %x, %t : memref<?x4xf32> to memref<?x4xf32>
  %gb, %go, %gs, %gt = memref.extract_strided_metadata %g : memref<4xf32> -> memref<f32>, index, index, index
  func.call @kernel(%gb, %go) : (memref<f32>, index) -> ()
  func.call @use(%n) : (index) -> ()
  memref.dealloc %t : memref<?x4xf32>
  return
}

// No cut while a global's view or a stack buffer is live: each run grows
// until it is dead.
// CHECK-LABEL: func.func @uncrossable(
// CHECK: call @uncrossable_part0(%{{.*}}) : (index) -> ()
// CHECK-NEXT: call @uncrossable_part1(%{{.*}}) : (index) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @uncrossable_part0(
// CHECK: memref.extract_strided_metadata
// CHECK-NEXT: call @use
// CHECK-NEXT: call @use
// CHECK-NEXT: call @kernel
// CHECK-NEXT: return
// CHECK: func.func private @uncrossable_part1(
// CHECK-NEXT: memref.alloca
// CHECK-NEXT: call @use
// CHECK-NEXT: call @use
// CHECK-NEXT: call @kernel
// CHECK-NEXT: return
func.func @uncrossable(%n: index) {
  %g = memref.get_global @table : memref<4xf32>
  %gb, %go, %gs, %gt = memref.extract_strided_metadata %g : memref<4xf32> -> memref<f32>, index, index, index
  func.call @use(%n) : (index) -> ()
  func.call @use(%n) : (index) -> ()
  func.call @kernel(%gb, %go) : (memref<f32>, index) -> ()
  %s = memref.alloca() : memref<f32>
  func.call @use(%n) : (index) -> ()
  func.call @use(%n) : (index) -> ()
  func.call @kernel(%s, %n) : (memref<f32>, index) -> ()
  return
}
