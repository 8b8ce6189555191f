//===- ObjectEmitter.h - LLVM IR and object files for the host ---*- C++
//-*-===//
//
// The last in-process steps of tadc: translate the LLVM dialect into LLVM
// IR for the host (triple, CPU, features, data layout), optimize it with
// LLVM's pass pipeline at -O0..-O3, and emit a PIC object file through the
// host TargetMachine. Failures are MLIR diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_OBJECTEMITTER_H
#define TAD_COMPILER_OBJECTEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include <memory>

namespace mlir::tad {

/// A TargetMachine for the host CPU and its features, position-independent
/// code, codegen at `optLevel` (0-3).
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(MLIRContext *context, unsigned optLevel);

/// Translates `module` (LLVM dialect) into LLVM IR for `targetMachine` and
/// runs LLVM's optimization pipeline at `optLevel` (0-3) on it.
FailureOr<std::unique_ptr<llvm::Module>>
translateAndOptimize(ModuleOp module, llvm::LLVMContext &llvmContext,
                     llvm::TargetMachine &targetMachine, unsigned optLevel);

/// Writes `llvmModule` as an object file to `os`.
LogicalResult emitObjectFile(MLIRContext *context, llvm::Module &llvmModule,
                             llvm::TargetMachine &targetMachine,
                             llvm::raw_pwrite_stream &os);

} // namespace mlir::tad

#endif // TAD_COMPILER_OBJECTEMITTER_H
