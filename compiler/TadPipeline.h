//===- TadPipeline.h - the pipeline tadc runs -------------------*- C++ -*-===//
//
// From a module in the tad dialect to the stage tadc's `--emit` asks for:
//
//   tad-decompose, tad-vjp, tad-jvp          (differentiated tad dialect)
//   tad-decompose of the composites kept for their own rules
//   buildTadToLinalgPipeline                 (linalg on tensors)
//   buildLinalgToLLVMPipeline (CPU) or
//   buildLinalgToGpuPipeline (CUDA)          (LLVM dialect, C ABI)
//
// tadc builds it from its command line; tad-opt runs the same passes as
// `--tad-pipeline="..."`.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_TADPIPELINE_H
#define TAD_COMPILER_TADPIPELINE_H

#include "compiler/Pipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir::tad {

enum class PipelineTarget { CPU, CUDA };

/// Where the pipeline stops.
enum class PipelineStage {
  /// The tad dialect after differentiation (tadc --emit=mlir).
  Differentiated,
  /// Linalg on tensors (--emit=linalg).
  Linalg,
  /// Linalg on tensors with the C ABI signature of each exported function
  /// recorded (--emit=header writes the C header from them).
  Signatures,
  /// The LLVM dialect with the C ABI entry points (and the PTX of the
  /// kernels for CUDA): what LLVM IR, objects and shared objects come from.
  LLVM
};

/// Options of the whole pipeline (also `tad-pipeline{...}` in tad-opt).
struct TadPipelineOptions : public PassPipelineOptions<TadPipelineOptions> {
  PassOptions::ListOption<std::string> vjp{
      *this, "vjp",
      llvm::cl::desc("Functions f to generate reverse-mode derivatives "
                     "@f_vjp of")};
  PassOptions::ListOption<std::string> jvp{
      *this, "jvp",
      llvm::cl::desc("Functions f to generate forward-mode derivatives "
                     "@f_jvp of")};
  PassOptions::ListOption<std::string> ruleFiles{
      *this, "rule-files",
      llvm::cl::desc("Derivative rule files adding or overriding rules")};
  PassOptions::Option<std::string> checkpoint{
      *this, "checkpoint",
      llvm::cl::desc("How the reverse sweep of scf.for loops without a "
                     "tad.checkpoint attribute keeps forward values: store, "
                     "sqrt, a segment length k, levels:L or revolve:S "
                     "(docs/loops.md)"),
      llvm::cl::init("store")};
  PassOptions::ListOption<std::string> keepOps{
      *this, "keep-ops",
      llvm::cl::desc("Ops that tad-decompose keeps whole, so that their own "
                     "rules apply (default: _softmax,_log_softmax; 'none' "
                     "decomposes all)")};
  PassOptions::Option<PipelineTarget> target{
      *this, "target", llvm::cl::desc("Code generation target"),
      llvm::cl::init(PipelineTarget::CPU),
      llvm::cl::values(
          clEnumValN(PipelineTarget::CPU, "cpu", "the host CPU"),
          clEnumValN(PipelineTarget::CUDA, "cuda", "NVIDIA GPUs (PTX)"))};
  PassOptions::Option<PipelineStage> stage{
      *this, "stage", llvm::cl::desc("Where to stop"),
      llvm::cl::init(PipelineStage::LLVM),
      llvm::cl::values(
          clEnumValN(PipelineStage::Differentiated, "differentiated",
                     "the tad dialect after differentiation"),
          clEnumValN(PipelineStage::Linalg, "linalg", "linalg on tensors"),
          clEnumValN(PipelineStage::Signatures, "signatures",
                     "linalg on tensors with the C ABI signatures recorded"),
          clEnumValN(PipelineStage::LLVM, "llvm",
                     "the LLVM dialect with the C ABI entry points"))};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("Optimization level 0-3"),
      llvm::cl::init(2)};

  // CPU code generation (CpuPipelineOptions).
  PassOptions::ListOption<int64_t> matmulCacheTiles{
      *this, "matmul-cache-tiles",
      llvm::cl::desc("Cache tile sizes mc,nc,kc of matmul-like ops")};
  PassOptions::ListOption<int64_t> matmulRegisterTile{
      *this, "matmul-register-tile",
      llvm::cl::desc("Register tile mr,nr of matmul-like ops")};
  PassOptions::ListOption<int64_t> dynamicBlocks{
      *this, "dynamic-blocks",
      llvm::cl::desc("Blocks of ops over a dynamic batch: small and large "
                     "matmul rows, iterations of other ops")};
  PassOptions::Option<bool> matmulPack{
      *this, "matmul-pack",
      llvm::cl::desc("Pack the B operand (and a transposed A) of large "
                     "matmuls"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> im2colLimitMiB{
      *this, "im2col-limit-mib",
      llvm::cl::desc("The largest im2col matrix of a stride-1 convolution "
                     "in MiB before implicit GEMM"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> rowReductions{
      *this, "row-reductions",
      llvm::cl::desc("Vectorize reductions along short rows along the row"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Parallel loops with OpenMP where tad found libomp"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("At -O2+, make each distinct linalg op one shared "
                     "function"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> maxFunctionOps{
      *this, "max-function-ops",
      llvm::cl::desc("At -O1+, split larger functions into pieces of about "
                     "this many ops (0: never)"),
      llvm::cl::init(4000)};
  PassOptions::Option<bool> printSchedule{
      *this, "print-schedule",
      llvm::cl::desc("Print the schedule chosen for each matmul-like op"),
      llvm::cl::init(false)};

  // CUDA code generation (GpuPipelineOptions).
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA architecture (sm_80, sm_90)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit directory, for libdevice (default: "
                     "findCudaToolkit())"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> kernels{
      *this, "kernels",
      llvm::cl::desc("Kernels for matmul/batch_matmul: 'naive' or 'tiled'"),
      llvm::cl::init("naive")};
  PassOptions::Option<bool> emulate{
      *this, "emulate",
      llvm::cl::desc("Run the kernels as loops on the CPU (testing)"),
      llvm::cl::init(false)};
};

/// Adds the passes of `options.stage` and the stages before it to `pm`.
void buildTadPipeline(OpPassManager &pm, const TadPipelineOptions &options);

/// Registers `tad-pipeline` (buildTadPipeline) for tad-opt and
/// `--pass-pipeline` strings.
void registerTadPipeline();

} // namespace mlir::tad

#endif // TAD_COMPILER_TADPIPELINE_H
