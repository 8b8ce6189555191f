//===- Driver.h - from a parsed module to the file tadc writes --*- C++ -*-===//
//
// The compiler behind tadc's command line: runs the pipeline of
// compiler/TadPipeline.h up to the stage the requested output needs, then
// LLVM's back end (translation, optimization, code generation) and the
// linker, and writes the output with compiler/OutputFile.h. tadc itself only
// parses options and reads the input.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_DRIVER_H
#define TAD_COMPILER_DRIVER_H

#include "compiler/TadPipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"

#include <string>

namespace mlir::tad {

/// What the compiler writes (tadc --emit).
enum class OutputKind {
  /// The tad dialect after differentiation.
  MLIR,
  /// Linalg on tensors.
  Linalg,
  /// The LLVM dialect with the C ABI entry points.
  LLVMDialect,
  /// Optimized LLVM IR for the host.
  LLVMIR,
  /// An object file.
  Object,
  /// A shared object linked with the runtime.
  SharedObject,
  /// The C header of the module's entry points.
  Header,
  /// The PTX of the GPU kernels.
  PTX
};

/// The conventional file extension of `kind` (".so", ".tad.mlir", ...).
StringRef getOutputExtension(OutputKind kind);

/// Whether `kind` is text (and so may go to stdout).
bool isTextualOutput(OutputKind kind);

/// The pipeline stage that `kind` is produced from.
PipelineStage getPipelineStage(OutputKind kind);

/// Where and what to write.
struct OutputOptions {
  OutputKind kind = OutputKind::SharedObject;
  /// The destination; "-" is stdout (textual kinds only).
  std::string path = "-";
  /// The runtime archive linked into a shared object (findRuntimeLibrary).
  std::string runtimeArchive;
  /// The name of the module in its C header (its include guard and types).
  std::string headerName = "module";
};

/// Checks the option values that the pipeline cannot check as it is built
/// (a GPU architecture, the optimization level, a CUDA directory without
/// libdevice, tile lists of the wrong length) and their combination with
/// the output; reports each as an error without a location.
LogicalResult verifyCompileOptions(MLIRContext *context,
                                   const TadPipelineOptions &pipeline,
                                   const OutputOptions &output);

/// Compiles `module` in place with `pipeline` (its stage is set from the
/// output kind) and writes the output. Errors are diagnostics; nothing is
/// left at `output.path` on failure.
LogicalResult compileModule(ModuleOp module, TadPipelineOptions &pipeline,
                            const OutputOptions &output, TimingScope &timing);

} // namespace mlir::tad

#endif // TAD_COMPILER_DRIVER_H
