//===- GpuPipeline.h - tad's CUDA pipeline ----------------------*- C++ -*-===//
//
// The GPU (NVPTX) counterpart of Pipeline.h, for `tadc --target=cuda`:
//
//   tad dialect --[buildTadToLinalgPipeline]--> linalg on tensors
//     --[buildLinalgToGpuPipeline]--> LLVM dialect host code, C ABI entry
//        points, and one `gpu.binary @tad_kernels` holding the PTX
//
// The host code calls the `mgpu*` functions of the tad CUDA runtime
// (runtime/src/cuda/), which loads the PTX through the CUDA driver API.
// docs/gpu.md describes every step.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_GPUPIPELINE_H
#define TAD_COMPILER_GPUPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>
#include <vector>

namespace mlir::tad {

/// Options of the CUDA pipeline (also `tad-cuda-pipeline{...}` in tad-opt).
struct GpuPipelineOptions : public PassPipelineOptions<GpuPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level 0-3 (tadc -O), host and device"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA architecture (sm_80, sm_90)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit directory, for libdevice (math functions); "
                     "empty: MLIR's default search"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> maxThreads{
      *this, "max-threads",
      llvm::cl::desc("Threads per block of an elementwise kernel"),
      llvm::cl::init(256)};
  PassOptions::Option<std::string> kernels{
      *this, "kernels",
      llvm::cl::desc("Kernels for matmul/batch_matmul: 'naive' (one thread "
                     "per output element) or 'tiled' (shared-memory tiles, "
                     "4x4 register tiles per thread: tad-gpu-tile-matmul)"),
      llvm::cl::init("naive")};
  PassOptions::Option<bool> emulate{
      *this, "emulate",
      llvm::cl::desc("Testing without a GPU: stop before outlining and run "
                     "the kernels as loops on the CPU (tad-gpu-emulate)"),
      llvm::cl::init(false)};
};

/// Whether `chip` names an architecture the pipeline supports.
bool isSupportedGpuArch(llvm::StringRef chip);

/// linalg on tensors -> host LLVM dialect with the tad C ABI plus a
/// `gpu.binary` with the kernels in PTX.
void buildLinalgToGpuPipeline(OpPassManager &pm,
                              const GpuPipelineOptions &options);

/// buildTadToLinalgPipeline, then buildLinalgToGpuPipeline.
void buildTadToGpuPipeline(OpPassManager &pm,
                           const GpuPipelineOptions &options);

/// The PTX of the module's kernels (after buildLinalgToGpuPipeline), ""
/// for a module without kernels; reports an error for anything else.
FailureOr<std::string> getPTX(ModuleOp module);

/// A CUDA toolkit directory with libdevice (nvvm/libdevice/libdevice.10.bc):
/// $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, /usr/lib/cuda,
/// /opt/cuda, the first that has it; "" if none does.
std::string findCudaToolkit();

/// The libdevice functions (`__nv_*`) that `ptx` declares but does not
/// define: non-empty when libdevice was not linked.
std::vector<std::string> getUnresolvedLibdeviceCalls(llvm::StringRef ptx);

/// Registers `tad-cuda-pipeline` for tad-opt.
void registerTadGpuPipelines();

} // namespace mlir::tad

#endif // TAD_COMPILER_GPUPIPELINE_H
