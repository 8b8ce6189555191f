//===- Pipeline.cpp - tad's pass pipelines --------------------------------===//
//
// See Pipeline.h and docs/architecture.md ("Lowering"). The stages are
// built from upstream passes plus tad-record-abi, tad-lower-copies and
// tad-export-abi; hooks mark where tiling and vectorization will go
// (docs/architecture.md, "Code generation").
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"

#include "passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

static void addCleanups(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// Optimizations on linalg on tensors, before bufferization: elementwise
/// fusion, and transposed matmul operands read in place.
static void addTensorOptimizations(OpPassManager &pm,
                                   const tad::CpuPipelineOptions &options) {
  if (options.optLevel == 0)
    return;
  // Gradients accumulated over a loop's iterations: dW += h^T dz in place.
  if (options.optLevel >= 2) {
    pm.addPass(tad::createTadAccumulateProductsPass());
    addCleanups(pm);
  }
  // Transposes past narrowing casts and into products (weight gradients in
  // the weight's layout), before fusion joins what they separated.
  if (options.optLevel >= 2) {
    pm.addPass(tad::createTadPropagateTransposesPass());
    addCleanups(pm);
  }
  // Fuses producer/consumer elementwise linalg ops: fewer temporaries; never
  // into a matmul (tad-vectorize-contractions schedules those).
  pm.addPass(tad::createTadFuseElementwisePass());
  addCleanups(pm);
  // The VJP's X^T @ dY reads X in place (no transposed copy).
  if (options.optLevel >= 2) {
    pm.addPass(tad::createTadFoldMatmulTransposesPass());
    addCleanups(pm);
  }
}

/// Hook: optimizations on buffers, before the lowering to loops. Matmul-like
/// ops get cache and register tiles and outer-product FMA kernels,
/// transposes register tiles transposed by shuffles; each distinct linalg op
/// becomes one shared function (docs/performance.md).
static void addBufferOptimizations(OpPassManager &pm,
                                   const tad::CpuPipelineOptions &options) {
  if (options.optLevel < 2)
    return;
  pm.addPass(tad::createTadRowWindowMatmulsPass());
  pm.addPass(tad::createTadCollapseDimsPass());
  // Ops over a dynamic batch: static blocks for the kernels below.
  tad::TadBlockDynamicRowsPassOptions blocks;
  if (options.dynamicBlocks.size() == 3) {
    blocks.rowBlock = options.dynamicBlocks[0];
    blocks.largeBlock = options.dynamicBlocks[1];
    blocks.blockWork = options.dynamicBlocks[2];
  }
  pm.addPass(tad::createTadBlockDynamicRowsPass(blocks));
  // Strided copies (a padded buffer's interior, a slice) as linalg.copy
  // before outlining: in a kernel of their own their operands are noalias,
  // so LLVM vectorizes them; in the caller they stayed scalar loops.
  pm.addNestedPass<func::FuncOp>(tad::createTadLowerCopiesPass());
  if (options.outlineKernels)
    pm.addPass(tad::createTadOutlineKernelsPass());
  tad::TadVectorizeContractionsPassOptions contractions;
  contractions.cacheTiles = llvm::to_vector(options.matmulCacheTiles);
  contractions.registerTile = llvm::to_vector(options.matmulRegisterTile);
  contractions.printSchedule = options.printSchedule;
  contractions.pack = options.matmulPack;
  contractions.parallel = options.parallel && options.optLevel >= 2;
  pm.addNestedPass<func::FuncOp>(
      tad::createTadVectorizeContractionsPass(contractions));
  tad::TadVectorizeConvolutionsPassOptions convolutions;
  convolutions.parallel = contractions.parallel;
  pm.addNestedPass<func::FuncOp>(
      tad::createTadVectorizeConvolutionsPass(convolutions));
  tad::TadVectorizeTransposesPassOptions transposes;
  transposes.parallel = contractions.parallel;
  pm.addNestedPass<func::FuncOp>(
      tad::createTadVectorizeTransposesPass(transposes));
  if (contractions.parallel)
    pm.addNestedPass<func::FuncOp>(tad::createTadParallelizeLoopsPass());
  pm.addPass(tad::createTadReassociateReductionsPass());
  // After reassociation: a short row's reduction is vectorized along the
  // row only if its combiner may be reordered.
  if (options.rowReductions)
    pm.addNestedPass<func::FuncOp>(tad::createTadVectorizeRowReductionsPass());
  addCleanups(pm);
}

bool tad::hasOpenMP() {
#ifdef TAD_OPENMP_LIBDIR
  return true;
#else
  return false;
#endif
}

void tad::buildTadToLinalgPipeline(OpPassManager &pm, unsigned optLevel,
                                   bool directConvolutions,
                                   bool runtimeCalls,
                                   int64_t im2colLimitMiB) {
  // tad-level folds and canonicalizations first (e.g. the transposes the
  // VJP's matmul rules introduce cancel: see tad.t).
  addCleanups(pm);
  if (optLevel >= 1) {
    // The reverse sweep of a loop recomputes what depends only on captured
    // values (the transpose of a recurrent weight for every step): once,
    // before the loop.
    pm.addPass(createLoopInvariantCodeMotionPass());
  }
  if (optLevel >= 2) {
    pm.addPass(tad::createTadCombineMatmulSumsPass());
    addCleanups(pm);
  }
  pm.addPass(tad::createTadSplitDynamicBatchPass());
  pm.addPass(tad::createTadWidenLowPrecisionPass());
  tad::ConvertTadToLinalgPassOptions lowering;
  lowering.directConvolutions = directConvolutions;
  lowering.im2colLimitMiB = im2colLimitMiB;
  lowering.runtimeCalls = runtimeCalls;
  // The CPU target runs loops; the GPU target runs none yet.
  lowering.serialScatters = runtimeCalls;
  pm.addPass(tad::createConvertTadToLinalgPass(lowering));
  addCleanups(pm);
}

void tad::buildEntryPointsPipeline(OpPassManager &pm) {
  // The C boundary: record the tensor signature of each public function
  // before bufferization changes it. Then everything private is inlined and
  // dropped: one function per entry point.
  pm.addPass(tad::createTadRecordABIPass());
  // Zero-size tensors cross it as tensor<0xT> (no data, any shape).
  pm.addPass(tad::createTadEmptyBoundaryTensorsPass());
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  // Elementwise arith/math ops on whole tensors (valid input, but
  // bufferization only handles them as linalg).
  pm.addPass(createConvertElementwiseToLinalgPass());
  addCleanups(pm);
  // Dynamic sizes read from the arguments (tensor.dim of a result becomes
  // the dim of the operand it comes from, down to the arguments): with one
  // SSA value per size, bufferization's slice comparisons are immediate;
  // with a tensor.dim of each op's own operand they built value-bounds
  // systems over the whole function (a differentiated batched SVD took
  // more than 10 minutes to bufferize). No-op for static shapes.
  pm.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
  addCleanups(pm);
}

void tad::buildBufferizationPipeline(OpPassManager &pm) {
  // Each result becomes a caller's buffer: a value returned twice needs two.
  pm.addNestedPass<func::FuncOp>(tad::createTadDistinctResultsPass());
  pm.addNestedPass<func::FuncOp>(tad::createTadSplatConstantsToFillsPass());
  pm.addNestedPass<func::FuncOp>(tad::createTadDuplicateEmptyTensorsPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.unknownTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop's carried tensor is a new value each iteration (h = tanh(W h)),
  // not an in-place update of its iter_arg: let it be a new buffer.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  addCleanups(pm);
  bufferization::buildBufferDeallocationPipeline(pm);
  // Lowering `bufferization.dealloc` may create a private helper function
  // with dynamically shaped memref arguments, which the bare-pointer calling
  // convention cannot express: inline it and drop it.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  addCleanups(pm);
}

void tad::addSCFToControlFlow(OpPassManager &pm) {
  SCFToControlFlowPassOptions options;
  options.allowPatternRollback = false;
  pm.addPass(createSCFToControlFlowPass(options));
}

void tad::buildHostToLLVMPipeline(
    OpPassManager &pm, const HostToLLVMOptions &options,
    function_ref<void(OpPassManager &)> beforeConversion) {
  pm.addPass(tad::createTadExpandArithPass());
  pm.addPass(memref::createExpandOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (beforeConversion)
    beforeConversion(pm);
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = options.cachingAllocator;
  // The allocated pointer is the aligned one, so that a buffer can cross a
  // call as one bare pointer and be freed on the other side
  // (tad-split-large-functions).
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  // expm1 and log1p as libm calls: upstream lowers them to exp(x) - 1 and
  // log(1 + x), which lose the digits of a small x.
  pm.addPass(tad::createTadMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  if (options.vectors) {
    ConvertVectorToLLVMPassOptions vectorToLLVM;
    // bf16 matmuls on AMX or AVX512-BF16 (passes/CPU/Bf16Matmul.cpp).
    vectorToLLVM.amx = true;
    vectorToLLVM.x86Vector = true;
    pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  }
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  pm.addPass(tad::createTadControlFlowToLLVMPass());
  if (options.openMP)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  if (options.gpuRuntime)
    pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  addCleanups(pm);
}

void tad::buildLinalgToLLVMPipeline(OpPassManager &pm,
                                    const CpuPipelineOptions &options) {
  buildEntryPointsPipeline(pm);
  addTensorOptimizations(pm, options);
  // Collectives start as soon as their buckets are complete, at every
  // level (-O0 and -O3 run the same schedule of collectives).
  pm.addNestedPass<func::FuncOp>(tad::createTadOverlapCollectivesPass());
  buildBufferizationPipeline(pm);
  // Exported dynamic memrefs: their sizes as arguments, their data as bare
  // pointers (the GPU target refuses dynamic signatures).
  pm.addPass(tad::createTadBindDynamicSizesPass());
  // Sizes are now the symbols' arguments: run-time checks of one condition
  // (a gradient's size against the input's, before each op) are tested once.
  addCleanups(pm);
  pm.addNestedPass<func::FuncOp>(tad::createTadDropRepeatedChecksPass());
  addBufferOptimizations(pm, options);
  // LLVM's loop passes (-O1+) take time quadratic in a function's size.
  if (options.optLevel >= 1 && options.maxFunctionOps > 0) {
    tad::TadSplitLargeFunctionsPassOptions split;
    split.maxOps = options.maxFunctionOps;
    pm.addPass(tad::createTadSplitLargeFunctionsPass(split));
  }

  // Loops.
  pm.addNestedPass<func::FuncOp>(tad::createTadLowerCopiesPass());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  if (options.optLevel > 0) {
    pm.addPass(createLoopInvariantCodeMotionPass());
    addCleanups(pm);
  }
  if (options.parallel && options.optLevel >= 2) {
    // scf.parallel (only tad-vectorize-contractions makes them) -> omp.
    // The canonicalizer inlines the memref.alloca_scope that the conversion
    // wraps each body in (there are no allocas in it); after scf-to-cf it
    // would have several blocks, which its verifier rejects.
    pm.addPass(createConvertSCFToOpenMPPass());
    addCleanups(pm);
  }
  pm.addPass(createConvertVectorToSCFPass());
  addSCFToControlFlow(pm);

  // f32 tanh/exp/log/erf... as polynomials: loops over them vectorize.
  if (options.optLevel >= 2)
    pm.addPass(tad::createTadApproximateMathPass());

  HostToLLVMOptions host;
  host.cachingAllocator = true;
  host.vectors = true;
  host.openMP = true;
  buildHostToLLVMPipeline(pm, host);
  // noalias arguments as alias scopes: they outlive OpenMP's outlining.
  if (options.optLevel >= 2)
    pm.addNestedPass<LLVM::LLVMFuncOp>(tad::createTadAliasScopesPass());

  // Entry points, metadata, internal linkage for the rest.
  pm.addPass(tad::createTadExportABIPass());
}

void tad::buildTadToLLVMPipeline(OpPassManager &pm,
                                 const CpuPipelineOptions &options) {
  // Index operands are checked at run time: an index out of range ends the
  // call with TAD_ERROR_INDEX instead of reading outside a tensor.
  pm.addPass(tad::createTadCheckIndicesPass());
  // Dynamic sizes that must agree are compared at run time: a mismatch ends
  // the call with TAD_ERROR_SHAPE.
  pm.addPass(tad::createTadCheckShapesPass());
  buildTadToLinalgPipeline(pm, options.optLevel,
                           /*directConvolutions=*/options.optLevel >= 2,
                           /*runtimeCalls=*/true, options.im2colLimitMiB);
  buildLinalgToLLVMPipeline(pm, options);
}

void tad::registerTadPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "tad-cpu-pipeline",
      "Lower the tad dialect (or linalg on tensors) to the LLVM dialect with "
      "the tad C ABI",
      buildTadToLLVMPipeline);
}
