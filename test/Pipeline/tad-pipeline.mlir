// tad-opt --tad-pipeline runs the passes tadc runs (buildTadPipeline): for
// each stage, the two print the same module.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tadc %s --vjp=f --jvp=f --emit=mlir -o %t/tadc.mlir
// RUN: tad-opt %s --tad-pipeline="vjp=f jvp=f stage=differentiated" -o %t/opt.mlir
// RUN: diff -B %t/tadc.mlir %t/opt.mlir
// RUN: FileCheck %s --check-prefix=DIFF < %t/opt.mlir
// RUN: tadc %s --vjp=f --keep-ops=none --emit=mlir -o %t/tadc-none.mlir
// RUN: tad-opt %s --tad-pipeline="vjp=f keep-ops=none stage=differentiated" -o %t/opt-none.mlir
// RUN: diff -B %t/tadc-none.mlir %t/opt-none.mlir
// RUN: FileCheck %s --check-prefix=NONE < %t/opt-none.mlir
// RUN: tadc %s --vjp=f --emit=linalg -O1 -o %t/tadc-linalg.mlir
// RUN: tad-opt %s --tad-pipeline="vjp=f stage=linalg opt-level=1" -o %t/opt-linalg.mlir
// RUN: diff -B %t/tadc-linalg.mlir %t/opt-linalg.mlir
// RUN: FileCheck %s --check-prefix=LINALG < %t/opt-linalg.mlir
// RUN: tad-opt %s --tad-pipeline="vjp=f stage=signatures" | FileCheck %s --check-prefix=ABI
// RUN: tadc %s --vjp=f --emit=llvm-mlir -o %t/tadc-llvm.mlir
// RUN: tad-opt %s --tad-pipeline="vjp=f" -o %t/opt-llvm.mlir
// RUN: diff -B %t/tadc-llvm.mlir %t/opt-llvm.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t/opt-llvm.mlir
// RUN: tadc %s --vjp=f --emit=llvm-mlir -O0 --parallel=false -o %t/tadc-o0.mlir
// RUN: tad-opt %s --tad-pipeline="vjp=f opt-level=0 parallel=false" -o %t/opt-o0.mlir
// RUN: diff -B %t/tadc-o0.mlir %t/opt-o0.mlir

// _log_softmax is kept whole through differentiation (its own rule), then
// lowered; keep-ops=none decomposes it first.
// DIFF-LABEL: func.func @f_jvp(
// DIFF-LABEL: func.func @f_vjp(
//       DIFF:   tad._log_softmax
// NONE-LABEL: func.func @f_vjp(
//   NONE-NOT:   tad._log_softmax
//       NONE:   return

// LINALG-LABEL: func.func @f_vjp(
//   LINALG-NOT:   tad.
//       LINALG:   linalg.matmul

// ABI: func.func @f_vjp({{.*}}tad.abi

// LLVM: llvm.func internal @_tad_packed_f_vjp(
// LLVM: llvm.call @_tad_impl_f_vjp(
// LLVM: llvm.func @f_vjp(
// LLVM: llvm.call @__tad_run(
func.func @f(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %h = tad.mm %x, %w : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %y = tad.log_softmax.int %h {dim = 1 : i64} : tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}
