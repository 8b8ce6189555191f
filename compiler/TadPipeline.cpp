//===- TadPipeline.cpp - the pipeline tadc runs ---------------------------===//
//
// See TadPipeline.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/TadPipeline.h"

#include "compiler/GpuPipeline.h"
#include "compiler/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// The composites that tad-decompose keeps whole by default: primitives
/// with a lowering of their own, differentiated by their own rules.
static const char *const kKeptComposites[] = {"_softmax", "_log_softmax"};

void tad::buildTadPipeline(OpPassManager &pm,
                           const TadPipelineOptions &options) {
  SmallVector<std::string> ruleFiles(options.ruleFiles.begin(),
                                     options.ruleFiles.end());
  SmallVector<std::string> keptComposites(std::begin(kKeptComposites),
                                          std::end(kKeptComposites));

  // Composite ops become their decompositions before differentiation.
  {
    TadDecomposePassOptions decompose;
    if (options.keepOps.empty())
      decompose.keep = keptComposites;
    else
      for (const std::string &op : options.keepOps)
        if (op != "none")
          decompose.keep.push_back(op);
    decompose.ruleFiles = ruleFiles;
    pm.addPass(createTadDecomposePass(decompose));
  }
  // Differentiation always runs: besides the named functions, a program can
  // ask for a derivative by declaring it (`func.func private @f_vjp(...)`)
  // and calling it, as a training step does.
  {
    TadVJPPassOptions vjp;
    vjp.functions.assign(options.vjp.begin(), options.vjp.end());
    vjp.ruleFiles = ruleFiles;
    vjp.checkpoint = options.checkpoint;
    pm.addPass(createTadVJPPass(vjp));
  }
  {
    TadJVPPassOptions jvp;
    jvp.functions.assign(options.jvp.begin(), options.jvp.end());
    jvp.ruleFiles = ruleFiles;
    pm.addPass(createTadJVPPass(jvp));
  }
  if (options.stage == PipelineStage::Differentiated)
    return;

  // Composites kept whole for their own rules have no lowering: decompose
  // them now (the primitives _softmax/_log_softmax have one and stay).
  {
    TadDecomposePassOptions decompose;
    decompose.keep = keptComposites;
    decompose.ruleFiles = ruleFiles;
    pm.addPass(createTadDecomposePass(decompose));
  }

  bool cuda = options.target == PipelineTarget::CUDA;
  switch (options.stage) {
  case PipelineStage::Differentiated:
    llvm_unreachable("handled above");
  case PipelineStage::Linalg:
    // As the CPU pipeline lowers it (the GPU one keeps im2col).
    buildTadToLinalgPipeline(pm, options.optLevel,
                             /*directConvolutions=*/!cuda &&
                                 options.optLevel >= 2,
                             /*runtimeCalls=*/!cuda, options.im2colLimitMiB);
    return;
  case PipelineStage::Signatures:
    buildTadToLinalgPipeline(pm, options.optLevel);
    pm.addPass(createTadRecordABIPass());
    return;
  case PipelineStage::LLVM:
    break;
  }

  if (cuda) {
    GpuPipelineOptions gpu;
    gpu.optLevel = options.optLevel;
    gpu.chip = options.chip.getValue();
    gpu.emulate = options.emulate;
    gpu.kernels = options.kernels.getValue();
    gpu.cudaPath = options.cudaPath.empty() ? findCudaToolkit()
                                            : options.cudaPath.getValue();
    buildTadToGpuPipeline(pm, gpu);
    return;
  }
  CpuPipelineOptions cpu;
  cpu.optLevel = options.optLevel;
  cpu.matmulCacheTiles =
      ArrayRef<int64_t>(llvm::to_vector(options.matmulCacheTiles));
  cpu.matmulRegisterTile =
      ArrayRef<int64_t>(llvm::to_vector(options.matmulRegisterTile));
  cpu.dynamicBlocks = ArrayRef<int64_t>(llvm::to_vector(options.dynamicBlocks));
  cpu.printSchedule = options.printSchedule;
  cpu.matmulPack = options.matmulPack;
  cpu.im2colLimitMiB = options.im2colLimitMiB;
  cpu.rowReductions = options.rowReductions;
  cpu.outlineKernels = options.outlineKernels;
  cpu.maxFunctionOps = options.maxFunctionOps;
  cpu.parallel = options.parallel && hasOpenMP();
  buildTadToLLVMPipeline(pm, cpu);
}

void tad::registerTadPipeline() {
  PassPipelineRegistration<TadPipelineOptions>(
      "tad-pipeline",
      "What tadc runs: decompose and differentiate the tad dialect, then "
      "lower it to the stage `stage` for the target `target`",
      buildTadPipeline);
}
