//===- ObjectEmitter.cpp - LLVM IR and object files for the host ----------===//
#include "compiler/ObjectEmitter.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

static llvm::CodeGenOptLevel getCodeGenOptLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

FailureOr<std::unique_ptr<llvm::TargetMachine>>
tad::createHostTargetMachine(MLIRContext *context, unsigned optLevel) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return emitError(UnknownLoc::get(context))
           << "no LLVM target for host triple '" << triple.str()
           << "': " << error;

  llvm::SubtargetFeatures features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.AddFeature(feature.first(), feature.second);
  // LLVM fully unrolls a kernel's short inner loops (a 2x2 pooling window,
  // a 5-wide output row) and then vectorizes the loop around them, whose
  // stores are strided: scatters, which its cost model finds cheap on
  // AVX-512 and which are not (the max-pooling backward of a LeNet with a
  // dynamic batch ran 3.6x slower so). Without scatters such loops stay
  // scalar or store contiguously; gathers (strided loads of a pooling's
  // forward) stay, where they pay.
  if (triple.isX86())
    features.AddFeature("prefer-no-scatter");

  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), features.getString(),
      llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt,
      getCodeGenOptLevel(optLevel)));
  if (!machine)
    return emitError(UnknownLoc::get(context))
           << "cannot create an LLVM target machine for '" << triple.str()
           << "'";
  return machine;
}

FailureOr<std::unique_ptr<llvm::Module>>
tad::translateAndOptimize(ModuleOp module, llvm::LLVMContext &llvmContext,
                          llvm::TargetMachine &targetMachine,
                          unsigned optLevel) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tad");
  if (!llvmModule)
    return emitError(module.getLoc()) << "cannot translate to LLVM IR";
  llvmModule->setTargetTriple(targetMachine.getTargetTriple());
  llvmModule->setDataLayout(targetMachine.createDataLayout());

  auto optimize =
      makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, &targetMachine);
  if (llvm::Error error = optimize(llvmModule.get()))
    return emitError(module.getLoc())
           << "LLVM optimization failed: " << llvm::toString(std::move(error));
  return llvmModule;
}

LogicalResult tad::emitObjectFile(MLIRContext *context,
                                  llvm::Module &llvmModule,
                                  llvm::TargetMachine &targetMachine,
                                  llvm::raw_pwrite_stream &os) {
  llvm::legacy::PassManager codegen;
  if (targetMachine.addPassesToEmitFile(codegen, os, nullptr,
                                        llvm::CodeGenFileType::ObjectFile))
    return emitError(UnknownLoc::get(context))
           << "the LLVM target cannot emit object files";
  codegen.run(llvmModule);
  return success();
}
