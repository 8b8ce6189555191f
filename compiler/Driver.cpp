//===- Driver.cpp - from a parsed module to the file tadc writes ----------===//

#include "compiler/Driver.h"

#include "compiler/GpuPipeline.h"
#include "compiler/HeaderGen.h"
#include "compiler/Linker.h"
#include "compiler/ObjectEmitter.h"
#include "compiler/OutputFile.h"
#include "passes/ABI/ABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace mlir::tad;

StringRef mlir::tad::getOutputExtension(OutputKind kind) {
  switch (kind) {
  case OutputKind::MLIR:
    return ".tad.mlir";
  case OutputKind::Linalg:
    return ".linalg.mlir";
  case OutputKind::LLVMDialect:
    return ".llvm.mlir";
  case OutputKind::LLVMIR:
    return ".ll";
  case OutputKind::Object:
    return ".o";
  case OutputKind::SharedObject:
    return ".so";
  case OutputKind::Header:
    return ".h";
  case OutputKind::PTX:
    return ".ptx";
  }
  llvm_unreachable("unknown output kind");
}

bool mlir::tad::isTextualOutput(OutputKind kind) {
  return kind != OutputKind::Object && kind != OutputKind::SharedObject;
}

PipelineStage mlir::tad::getPipelineStage(OutputKind kind) {
  switch (kind) {
  case OutputKind::MLIR:
    return PipelineStage::Differentiated;
  case OutputKind::Linalg:
    return PipelineStage::Linalg;
  case OutputKind::Header:
    return PipelineStage::Signatures;
  default:
    return PipelineStage::LLVM;
  }
}

LogicalResult mlir::tad::verifyCompileOptions(
    MLIRContext *context, const TadPipelineOptions &pipeline,
    const OutputOptions &output) {
  auto error = [&] { return emitError(UnknownLoc::get(context)); };
  bool cuda = pipeline.target == PipelineTarget::CUDA;
  if (cuda && !isSupportedGpuArch(pipeline.chip))
    return error() << "unsupported --gpu-arch=" << pipeline.chip.getValue()
                   << "; expected sm_80 or sm_90";
  if (pipeline.emulate && output.kind == OutputKind::PTX)
    return error()
           << "--gpu-emulate runs the kernels on the CPU and writes no PTX";
  if (pipeline.optLevel > 3)
    return error() << "invalid optimization level -O"
                   << pipeline.optLevel.getValue()
                   << "; expected -O0, -O1, -O2 or -O3";
  if (cuda && !pipeline.cudaPath.empty()) {
    SmallString<256> libdevice(pipeline.cudaPath.getValue());
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (!llvm::sys::fs::is_regular_file(libdevice))
      return error() << "--cuda-path=" << pipeline.cudaPath.getValue()
                     << " has no libdevice (" << libdevice << ")";
  }
  auto positive = [](int64_t v) { return v > 0; };
  if (!pipeline.matmulCacheTiles.empty() &&
      (pipeline.matmulCacheTiles.size() != 3 ||
       !llvm::all_of(pipeline.matmulCacheTiles, positive)))
    return error()
           << "--matmul-cache-tiles expects three positive sizes mc,nc,kc";
  if (!pipeline.matmulRegisterTile.empty() &&
      (pipeline.matmulRegisterTile.size() != 2 ||
       !llvm::all_of(pipeline.matmulRegisterTile, positive)))
    return error() << "--matmul-register-tile expects two positive sizes mr,nr";
  if (!pipeline.dynamicBlocks.empty() &&
      (pipeline.dynamicBlocks.size() != 3 ||
       !llvm::all_of(pipeline.dynamicBlocks, positive)))
    return error() << "--dynamic-blocks expects three positive sizes "
                      "row-block,large-block,block-work";
  if (output.path == "-" && !isTextualOutput(output.kind))
    return error() << "--emit="
                   << (output.kind == OutputKind::Object ? "obj" : "so")
                   << " cannot write to stdout; use -o FILE";
  return success();
}

/// Math functions on the GPU come from libdevice, which only a CUDA
/// toolkit has: without it the PTX declares them and cannot be loaded.
static LogicalResult warnOnUnresolvedLibdevice(ModuleOp module) {
  FailureOr<std::string> ptx = getPTX(module);
  if (failed(ptx))
    return failure();
  std::vector<std::string> unresolved = getUnresolvedLibdeviceCalls(*ptx);
  if (unresolved.empty())
    return success();
  InFlightDiagnostic warning = emitWarning(UnknownLoc::get(module.getContext()))
                               << "the kernels call libdevice functions (";
  llvm::interleaveComma(unresolved, warning);
  warning << ") but no libdevice was found: pass --cuda-path=DIR (a CUDA "
             "toolkit with nvvm/libdevice/libdevice.10.bc); as it is, "
             "the PTX does not assemble and the module fails to load its "
             "kernels";
  return success();
}

/// The names of the functions that tad-export-abi turned into entry points.
static SmallVector<std::string> getEntryPoints(ModuleOp module) {
  SmallVector<std::string> names;
  for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
    if (fn.getName().starts_with(abi::kImplPrefix))
      names.push_back(fn.getName().drop_front(abi::kImplPrefix.size()).str());
  return names;
}

/// Links `objectPath` with the runtime into the shared object at
/// `output.path`: through a temporary next to it, renamed on success, or
/// (a device or a pipe as the destination, -o /dev/null) written into it.
static LogicalResult writeSharedObject(ModuleOp module, StringRef objectPath,
                                       const TadPipelineOptions &pipeline,
                                       const OutputOptions &output,
                                       TimingScope &timing) {
  MLIRContext *context = module.getContext();
  bool special = isSpecialFile(output.path);
  SmallString<256> linkedPath;
  if (special) {
    int fd;
    if (std::error_code error = llvm::sys::fs::createTemporaryFile(
            "tad", "so", fd, linkedPath))
      return emitError(UnknownLoc::get(context))
             << "cannot create a temporary file: " << error.message();
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  llvm::FileRemover removeLinked(linkedPath);
  FailureOr<std::unique_ptr<AtomicOutput>> atomic =
      special ? FailureOr<std::unique_ptr<AtomicOutput>>(nullptr)
              : AtomicOutput::create(context, output.path);
  if (failed(atomic))
    return failure();
  {
    TimingScope linkTiming = timing.nest("Link");
    StringRef device = pipeline.target != PipelineTarget::CUDA ? ""
                       : pipeline.emulate                      ? "emulated"
                                                               : "cuda";
    if (failed(linkSharedObject(
            context, objectPath, output.runtimeArchive, getEntryPoints(module),
            special ? StringRef(linkedPath) : (*atomic)->getTempPath(),
            device)))
      return failure();
  }
  if (!special)
    return (*atomic)->commit(context);
  return copyToOutputFile(context, linkedPath, output.path);
}

LogicalResult mlir::tad::compileModule(ModuleOp module,
                                       TadPipelineOptions &pipeline,
                                       const OutputOptions &output,
                                       TimingScope &timing) {
  MLIRContext *context = module.getContext();
  PassManager pm(context);
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  pm.enableTiming(timing);
  pipeline.stage = getPipelineStage(output.kind);
  buildTadPipeline(pm, pipeline);
  if (failed(pm.run(module)))
    return failure();

  auto printModule = [&](llvm::raw_pwrite_stream &os) {
    module.print(os);
    return success();
  };
  switch (output.kind) {
  case OutputKind::MLIR:
  case OutputKind::Linalg:
    return writeOutputFile(context, output.path, printModule);
  case OutputKind::Header:
    return writeOutputFile(context, output.path,
                           [&](llvm::raw_pwrite_stream &os) {
                             return emitCHeader(module, output.headerName, os);
                           });
  default:
    break;
  }

  if (pipeline.target == PipelineTarget::CUDA && !pipeline.emulate &&
      failed(warnOnUnresolvedLibdevice(module)))
    return failure();
  if (output.kind == OutputKind::LLVMDialect)
    return writeOutputFile(context, output.path, printModule);
  if (output.kind == OutputKind::PTX) {
    FailureOr<std::string> ptx = getPTX(module);
    if (failed(ptx))
      return failure();
    return writeOutputFile(context, output.path,
                           [&](llvm::raw_pwrite_stream &os) {
                             os << *ptx;
                             return success();
                           });
  }

  // LLVM IR and machine code.
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostTargetMachine(context, pipeline.optLevel);
  if (failed(machine))
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    TimingScope llvmTiming = timing.nest("LLVM IR translation and opt");
    FailureOr<std::unique_ptr<llvm::Module>> translated = translateAndOptimize(
        module, llvmContext, **machine, pipeline.optLevel);
    if (failed(translated))
      return failure();
    llvmModule = std::move(*translated);
  }
  if (output.kind == OutputKind::LLVMIR)
    return writeOutputFile(context, output.path,
                           [&](llvm::raw_pwrite_stream &os) {
                             llvmModule->print(os, nullptr);
                             return success();
                           });

  auto writeObject = [&](llvm::raw_pwrite_stream &os) {
    TimingScope codegenTiming = timing.nest("LLVM code generation");
    return emitObjectFile(context, *llvmModule, **machine, os);
  };
  if (output.kind == OutputKind::Object)
    return writeOutputFile(context, output.path, writeObject);

  // A shared object: the object in a temporary file, then linked.
  SmallString<256> objectPath;
  int fd;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("tad", "o", fd, objectPath))
    return emitError(UnknownLoc::get(context))
           << "cannot create a temporary file: " << error.message();
  llvm::FileRemover removeObject(objectPath);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (failed(writeObject(os)))
      return failure();
    os.close();
    if (os.has_error())
      return emitError(UnknownLoc::get(context))
             << "cannot write '" << objectPath << "'";
  }
  return writeSharedObject(module, objectPath, pipeline, output, timing);
}
