//===- GpuPipeline.cpp - tad's CUDA pipeline ------------------------------===//
//
// See GpuPipeline.h and docs/gpu.md. Upstream passes plus tad-gpu-place and
// tad-gpu-merge-modules (passes/GPU/GpuPlacement.cpp):
//
//   linalg on tensors
//     -> bufferized like the CPU pipeline (results as out-parameters)
//     -> [--gpu-kernels=tiled: matmuls as tiled shared-memory kernels]
//     -> scf.parallel loops (convert-linalg-to-parallel-loops)
//     -> device buffers, tiled loops, single-thread launches (tad-gpu-place;
//        arguments and results are device pointers, staged by the runtime)
//     -> gpu.launch (gpu-map-parallel-loops, convert-parallel-loops-to-gpu)
//     -> kernels in one gpu.module (gpu-kernel-outlining, merge)
//     -> async host code on one stream (gpu-async-region)
//     -> NVVM (convert-gpu-to-nvvm), host LLVM (gpu-to-llvm)
//     -> PTX through LLVM's NVPTX backend (gpu-module-to-binary format=isa)
//     -> C ABI entry points that stage host tensors to and from the device
//        and report device errors (tad-export-abi device=cuda).
//
//===----------------------------------------------------------------------===//
#include "compiler/GpuPipeline.h"

#include "compiler/Pipeline.h"
#include "passes/GPU/GpuMatmul.h"
#include "passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <set>

using namespace mlir;

static void addCleanups(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

bool tad::isSupportedGpuArch(StringRef chip) {
  return chip == "sm_80" || chip == "sm_90";
}

/// Linalg on tensors to loops on buffers, as in the CPU pipeline
/// (compiler/Pipeline.cpp), but with parallel loops.
static void addBufferization(OpPassManager &pm,
                             const tad::GpuPipelineOptions &options) {
  tad::buildEntryPointsPipeline(pm);
  if (options.optLevel > 0) {
    // Fused elementwise chains: one kernel instead of one per op.
    pm.addPass(createLinalgElementwiseOpFusionPass());
    addCleanups(pm);
  }
  tad::buildBufferizationPipeline(pm);
  // Dynamic sizes as leading index arguments, as on the CPU; the host
  // passes them to the kernels.
  pm.addPass(tad::createTadBindDynamicSizesPass());
  addCleanups(pm);
  pm.addNestedPass<func::FuncOp>(tad::createTadDropRepeatedChecksPass());
  pm.addNestedPass<func::FuncOp>(tad::createTadLowerCopiesPass());
  pm.addNestedPass<func::FuncOp>(tad::createTadParallelLoopsFirstPass());
  if (options.kernels == "tiled")
    pm.addNestedPass<func::FuncOp>(
        tad::createTadGpuTileMatmulPass(options.emulate));
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  addCleanups(pm);
}

/// Loops on buffers to kernels and host code in the gpu dialect.
static void addKernelFormation(OpPassManager &pm,
                               const tad::GpuPipelineOptions &options) {
  tad::TadGpuPlacePassOptions place;
  place.maxThreads = options.maxThreads;
  pm.addNestedPass<func::FuncOp>(tad::createTadGpuPlacePass(place));
  GpuMapParallelLoopsPassOptions mapping;
  mapping.mappingPolicyStr = "innermost-first";
  pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass(mapping));
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createLowerAffinePass());
  addCleanups(pm);
}

/// gpu.launch to kernels in one gpu.module, host code async on one stream.
static void addOutlining(OpPassManager &pm) {
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(tad::createTadGpuMergeModulesPass());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  addCleanups(pm);
}

/// Kernels to NVVM and PTX, host code to LLVM with mgpu* calls.
static void addLowering(OpPassManager &pm,
                        const tad::GpuPipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  tad::addSCFToControlFlow(pm);
  // Host side: as the CPU pipeline, plus gpu-to-llvm for the runtime calls;
  // the device side first, from the same expanded ops.
  tad::HostToLLVMOptions host;
  host.gpuRuntime = true;
  tad::buildHostToLLVMPipeline(pm, host, [](OpPassManager &modulePm) {
    OpPassManager &device = modulePm.nest<gpu::GPUModuleOp>();
    device.addPass(createConvertGpuOpsToNVVMOps());
    device.addPass(LLVM::createNVVMOptimizeForTargetPass());
    device.addPass(createCanonicalizerPass());
    device.addPass(createCSEPass());
    device.addPass(createReconcileUnrealizedCastsPass());
  });

  // PTX through LLVM's NVPTX backend (no CUDA toolkit needed, except
  // libdevice for math functions).
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  binary.toolkitPath = options.cudaPath;
  pm.addPass(createGpuModuleToBinaryPass(binary));

  tad::TadExportABIPassOptions exportABI;
  exportABI.device = "cuda";
  pm.addPass(tad::createTadExportABIPass(exportABI));
}

/// Testing without a GPU: the kernels as loops on the CPU, then the CPU
/// pipeline's lowering to LLVM (compiler/Pipeline.cpp).
static void addEmulation(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(tad::createTadGpuEmulatePass());
  addCleanups(pm);
  tad::addSCFToControlFlow(pm);
  tad::buildHostToLLVMPipeline(pm, tad::HostToLLVMOptions());
  tad::TadExportABIPassOptions exportABI;
  exportABI.device = "emulated";
  pm.addPass(tad::createTadExportABIPass(exportABI));
}

void tad::buildLinalgToGpuPipeline(OpPassManager &pm,
                                   const GpuPipelineOptions &options) {
  addBufferization(pm, options);
  addKernelFormation(pm, options);
  if (options.emulate) {
    addEmulation(pm);
    return;
  }
  addOutlining(pm);
  addLowering(pm, options);
}

void tad::buildTadToGpuPipeline(OpPassManager &pm,
                                const GpuPipelineOptions &options) {
  // Dynamic sizes that must agree are compared at run time, on the host
  // before any kernel (tad-gpu-place moves the checks first).
  pm.addPass(tad::createTadCheckShapesPass());
  buildTadToLinalgPipeline(pm, options.optLevel, /*directConvolutions=*/false,
                           /*runtimeCalls=*/false);
  buildLinalgToGpuPipeline(pm, options);
}

FailureOr<std::string> tad::getPTX(ModuleOp module) {
  std::string ptx;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        return binary.emitError("expected PTX (format=isa) in gpu.binary @")
               << binary.getSymName();
      ptx += object.getObject().getValue();
    }
  }
  return ptx;
}

std::string tad::findCudaToolkit() {
  SmallVector<std::string> candidates;
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(var))
      if (*value)
        candidates.push_back(value);
  for (const char *dir : {"/usr/local/cuda", "/usr/lib/cuda", "/opt/cuda"})
    candidates.push_back(dir);
  for (const std::string &dir : candidates) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::is_regular_file(path))
      return dir;
  }
  return "";
}

std::vector<std::string> tad::getUnresolvedLibdeviceCalls(StringRef ptx) {
  // Declarations read `.extern .func (...) __nv_expf(`.
  std::set<std::string> names;
  size_t pos = 0;
  while ((pos = ptx.find(".extern .func", pos)) != StringRef::npos) {
    size_t end = ptx.find('\n', pos);
    StringRef line = ptx.slice(pos, end);
    size_t nv = line.find("__nv_");
    if (nv != StringRef::npos)
      names.insert(
          line.drop_front(nv).take_while([](char c) {
            return llvm::isAlnum(c) || c == '_';
          }).str());
    pos = end == StringRef::npos ? ptx.size() : end;
  }
  return std::vector<std::string>(names.begin(), names.end());
}

void tad::registerTadGpuPipelines() {
  PassPipelineRegistration<GpuPipelineOptions>(
      "tad-cuda-pipeline",
      "Lower the tad dialect (or linalg on tensors) to host LLVM code with "
      "the tad C ABI and PTX kernels",
      buildTadToGpuPipeline);
}
