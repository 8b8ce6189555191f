//===- Pipeline.h - tad's pass pipelines -------------------------*- C++
//-*-===//
//
// The CPU pipeline, from the tad dialect (after differentiation) to the LLVM
// dialect with the tad C ABI, in stages that tadc's `--emit` stops after:
//
//   tad dialect --[buildTadToLinalgPipeline]--> linalg on tensors
//     --[buildLinalgToLLVMPipeline]--> LLVM dialect (entry points, metadata)
//
// docs/architecture.md ("Lowering") describes every step.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_PIPELINE_H
#define TAD_COMPILER_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tad {

/// Whether tad was built with an OpenMP runtime to link (Linker.cpp).
bool hasOpenMP();

/// Options of the CPU pipeline (also `tad-cpu-pipeline{...}` in tad-opt).
struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level 0-3 (tadc -O): at 0 only what "
                     "correctness needs, from 1 elementwise fusion on tensors "
                     "and loop cleanups, from 2 matmul kernels "
                     "(tad-vectorize-contractions), OpenMP and polynomial "
                     "f32 math"),
      llvm::cl::init(2)};
  PassOptions::ListOption<int64_t> matmulCacheTiles{
      *this, "matmul-cache-tiles",
      llvm::cl::desc("Cache tile sizes mc,nc,kc of matmul-like ops (default: "
                     "from the host's L1/L2 sizes; docs/performance.md)")};
  PassOptions::ListOption<int64_t> matmulRegisterTile{
      *this, "matmul-register-tile",
      llvm::cl::desc("Register tile mr,nr of matmul-like ops (default: from "
                     "the host's vector width)")};
  PassOptions::ListOption<int64_t> dynamicBlocks{
      *this, "dynamic-blocks",
      llvm::cl::desc("row-block,large-block,block-work of "
                     "tad-block-dynamic-rows (default: the pass's)")};
  PassOptions::Option<bool> matmulPack{
      *this, "matmul-pack",
      llvm::cl::desc("Copy the B operand of large matmuls into register-"
                     "tile-wide panels, a transposed A into cache-tile-wide "
                     "ones, first (default: on)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> im2colLimitMiB{
      *this, "im2col-limit-mib",
      llvm::cl::desc("Compute 2-D stride-1 convolutions whose im2col matrix "
                     "would exceed this many MiB as implicit GEMM at -O2+ "
                     "(default: 256; 0: wherever implicit GEMM applies)"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> rowReductions{
      *this, "row-reductions",
      llvm::cl::desc("Vectorize reductions along short contiguous rows "
                     "along the row (tad-vectorize-row-reductions; default: "
                     "on)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run the outer loops of large matmul-like ops on all "
                     "cores (OpenMP; default: on where tad found libomp)"),
      llvm::cl::init(tad::hasOpenMP())};
  PassOptions::Option<bool> outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("At -O2+, make each distinct linalg op one shared "
                     "function (tad-outline-kernels; docs/performance.md)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> maxFunctionOps{
      *this, "max-function-ops",
      llvm::cl::desc("At -O1+, split functions of more ops than this into "
                     "calls of pieces of about this many "
                     "(tad-split-large-functions; 0: never)"),
      llvm::cl::init(4000)};
  PassOptions::Option<bool> printSchedule{
      *this, "print-schedule",
      llvm::cl::desc("Print the schedule chosen for each matmul-like op"),
      llvm::cl::init(false)};
};

/// tad dialect -> linalg, tensor, arith and math on tensors. From `optLevel`
/// 2 on, sums of thin matmuls become one (tad-combine-matmul-sums).
/// `directConvolutions`: tad-to-linalg's option of that name (the CPU
/// pipeline sets it from -O2 on, for tad-vectorize-convolutions).
/// `runtimeCalls`: tad-to-linalg's option of that name (false for the GPU
/// target, which rejects the linear-algebra ops). `im2colLimitMiB`:
/// tad-to-linalg's option of that name.
void buildTadToLinalgPipeline(OpPassManager &pm, unsigned optLevel,
                              bool directConvolutions = false,
                              bool runtimeCalls = true,
                              int64_t im2colLimitMiB = 256);

/// The start of the CPU and GPU pipelines on linalg on tensors: records the
/// C ABI signature of each public function (tad-record-abi), inlines and
/// drops everything private (one function per entry point) and turns
/// elementwise arith/math ops on whole tensors into linalg.
void buildEntryPointsPipeline(OpPassManager &pm);

/// Bufferization shared by the CPU and GPU pipelines: identity layouts at
/// function boundaries (static shapes become bare pointers), results
/// written into caller-provided out-parameters, temporaries freed before
/// returning, one tensor.empty per use (docs/architecture.md).
void buildBufferizationPipeline(OpPassManager &pm);

/// What host code holds besides scalar, control-flow and memref ops; each
/// adds its conversion to buildHostToLLVMPipeline.
struct HostToLLVMOptions {
  /// Temporaries come from the runtime's caching allocator
  /// (runtime/src/cpu/alloc_cache.c) rather than straight from malloc.
  bool cachingAllocator = false;
  /// Vector ops (the CPU kernels).
  bool vectors = false;
  /// OpenMP ops (parallel loops on the CPU).
  bool openMP = false;
  /// gpu dialect host ops: launches and device buffers become calls to the
  /// `mgpu*` functions of the tad CUDA runtime.
  bool gpuRuntime = false;
};

/// scf -> cf, rewriting in place. The conversion's default journals every
/// op each block split moves so that it could roll back, which is quadratic
/// in the loops of a function: 27k loops (a dynamic-batch program of 4k ops)
/// took 7.4 GB and 16 s instead of 0.2 GB and 3 s. Its patterns never fail
/// halfway, so nothing needs rolling back.
void addSCFToControlFlow(OpPassManager &pm);

/// Host code on buffers, after scf-to-cf -> LLVM dialect: expands the ops
/// that have no direct LLVM lowering (arith, memref, strided metadata,
/// affine), runs `beforeConversion` (e.g. the device side of GPU code), then
/// converts everything with the bare-pointer calling convention. Math ops
/// become LLVM intrinsics where LLVM has them (the backend calls libm for
/// those it cannot expand) and libm calls otherwise.
void buildHostToLLVMPipeline(
    OpPassManager &pm, const HostToLLVMOptions &options,
    llvm::function_ref<void(OpPassManager &)> beforeConversion = nullptr);

/// linalg on tensors -> LLVM dialect: records the C ABI signatures, inlines
/// private functions, bufferizes with results as out-parameters, frees
/// temporaries, lowers to loops and to LLVM (bare-pointer calling
/// convention) and wraps exported functions in the C ABI.
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const CpuPipelineOptions &options);

/// The whole CPU pipeline: buildTadToLinalgPipeline, then
/// buildLinalgToLLVMPipeline. Differentiation (tad-vjp, tad-jvp) comes
/// before it.
void buildTadToLLVMPipeline(OpPassManager &pm,
                            const CpuPipelineOptions &options);

/// Registers `tad-cpu-pipeline` (buildTadToLLVMPipeline) for tad-opt and
/// `--pass-pipeline` strings.
void registerTadPipelines();

} // namespace mlir::tad

#endif // TAD_COMPILER_PIPELINE_H
