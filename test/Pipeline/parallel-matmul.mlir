// RUN: tad-opt %s --tad-cpu-pipeline="opt-level=3 parallel=true" | FileCheck %s
// RUN: tad-opt %s --tad-cpu-pipeline="opt-level=3 parallel=false" | FileCheck %s --check-prefix=SERIAL

// A large matmul runs its outer cache loop as an OpenMP work-sharing loop
// (scf.parallel -> omp.parallel + omp.wsloop, lowered to LLVM types; the
// translation to LLVM IR outlines it and calls libomp). Its kernel is the
// outer-product FMA loop.
// CHECK-LABEL: llvm.func internal @_tad_impl_mm(
//       CHECK:   omp.parallel
//       CHECK:     omp.wsloop
//       CHECK:       llvm.intr.fmuladd{{.*}}vector<32xf32>
//   CHECK-NOT: memref.alloca_scope
// SERIAL-LABEL: llvm.func internal @_tad_impl_mm(
//   SERIAL-NOT: omp.
//       SERIAL: llvm.intr.fmuladd{{.*}}vector<32xf32>
func.func @mm(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>)
                     outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
