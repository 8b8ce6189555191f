//===- tad-opt.cpp - mlir-opt with the tad dialect and passes -------------===//
//
// For lit tests and users: every upstream dialect, extension and pass, the
// tad dialect, tad's passes (passes/Passes.h) and pipelines
// (`tad-pipeline`, what tadc runs, compiler/TadPipeline.h;
// `tad-cpu-pipeline`, compiler/Pipeline.h; `tad-cuda-pipeline`,
// compiler/GpuPipeline.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/GpuPipeline.h"
#include "compiler/ParseInput.h"
#include "compiler/Pipeline.h"
#include "compiler/TadPipeline.h"
#include "compiler/rules/RuleSet.h"
#include "dialects/Tad/TadDialect.h"
#include "passes/Passes.h"
#include "tad/version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  // --version: LLVM's lines, then tad's release and C ABI version.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tad-opt (tad) " TAD_VERSION_STRING ", C ABI version "
       << TAD_ABI_VERSION << "\n";
  });
  mlir::registerAllPasses();
  mlir::tad::registerTadPasses();
  mlir::tad::registerTadPipelines();
  mlir::tad::registerTadGpuPipelines();
  mlir::tad::registerTadPipeline();
  mlir::tad::registerDefaultRuleLoader();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::tad::TadDialect>();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tad optimizer driver\n", registry);
  // An input file is first checked for what crashes MLIR's parser
  // (compiler/ParseInput.h); standard input goes to the parser unchecked.
  if (inputFilename != "-") {
    std::string message;
    std::unique_ptr<llvm::MemoryBuffer> input =
        mlir::openInputFile(inputFilename, &message);
    if (!input) {
      llvm::errs() << message << "\n";
      return EXIT_FAILURE;
    }
    if (std::optional<mlir::tad::ParserHazard> hazard =
            mlir::tad::findParserHazard(input->getBuffer())) {
      llvm::SourceMgr sourceMgr;
      const char *start = input->getBufferStart() + hazard->offset;
      sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
      sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(start),
                             llvm::SourceMgr::DK_Error, hazard->message);
      return EXIT_FAILURE;
    }
  }
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, inputFilename, outputFilename, registry));
}
