//===- ProgramFuzzer.cpp - libFuzzer target for tad programs --------------===//
//
// Feeds arbitrary bytes through the front of tadc: its parser
// (compiler/ParseInput.h) and the verifiers (the tad dialect's included),
// then, on each program that parses, one of three pipelines (picked by the
// input's size, so that mutations visit all three):
//   - tad-decompose;
//   - tad-decompose, tad-vjp of every public function;
//   - tad-decompose, tad-jvp of every public function;
// as tadc runs them (buildTadPipeline, stopping after differentiation).
// Besides memory errors and UB (ASan, UBSan), it checks that
//   - a pipeline that fails has reported an error;
//   - what a pipeline that succeeds leaves verifies, and prints and parses
//     back.
// Any violation aborts, which libFuzzer reports as a crash.
//
// Build: test/fuzz/CMakeLists.txt (clang-22 -fsanitize=fuzzer,address,
// undefined). The tad libraries it links are instrumented only in a build
// whose compiler is clang with TAD_SANITIZE including fuzzer-no-link (see
// docs/contributing.md); otherwise coverage comes from this file only and
// the fuzzer mutates the seed corpus (test/fuzz/tadc-seeds) blindly.
//
//===----------------------------------------------------------------------===//

#include "compiler/ParseInput.h"
#include "compiler/TadPipeline.h"
#include "compiler/rules/RuleSet.h"
#include "dialects/Tad/TadDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

[[noreturn]] void fail(const char *what, llvm::StringRef input,
                       llvm::StringRef detail) {
  llvm::errs() << "invariant violated: " << what << "\n  input:\n"
               << input << "\n  " << detail << "\n";
  std::abort();
}

/// The context every input is parsed in, with the dialects tadc registers.
MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registry.insert<tad::TadDialect>();
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    tad::registerDefaultRuleLoader();
    return c;
  }();
  return *ctx;
}

/// Runs tad-decompose, then tad-vjp or tad-jvp of `functions` (neither when
/// both are null), on a copy of `module`.
void differentiate(ModuleOp module, llvm::StringRef input,
                   ArrayRef<std::string> vjp, ArrayRef<std::string> jvp,
                   unsigned &errors) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(&context());
  tad::TadPipelineOptions options;
  options.stage = tad::PipelineStage::Differentiated;
  options.vjp = vjp;
  options.jvp = jvp;
  tad::buildTadPipeline(pm, options);
  unsigned before = errors;
  if (failed(pm.run(*copy))) {
    if (errors == before)
      fail("a pipeline failed without reporting an error", input, "");
    return;
  }
  if (errors != before)
    fail("a pipeline reported an error and succeeded", input, "");
  if (failed(verify(*copy)))
    fail("the differentiated module does not verify", input, "");
  std::string printed;
  llvm::raw_string_ostream os(printed);
  copy->print(os);
  if (!parseSourceString<ModuleOp>(printed, &context()))
    fail("the differentiated module does not parse back", input, printed);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = context();
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  // Errors are expected (and counted); crashes are the findings.
  unsigned errors = 0;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return success();
  });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      // A copy: the lexer reads up to a terminating null, which libFuzzer's
      // data does not have.
      llvm::MemoryBuffer::getMemBufferCopy(input, "input.mlir"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = tad::parseInput(sourceMgr, &ctx);
  if (!module) {
    if (errors == 0)
      fail("the parser failed without reporting an error", input, "");
    return 0;
  }

  SmallVector<std::string> functions;
  for (auto fn : module->getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      functions.push_back(fn.getSymName().str());
  switch (functions.empty() ? 0 : size % 3) {
  case 0:
    differentiate(*module, input, {}, {}, errors);
    break;
  case 1:
    differentiate(*module, input, functions, {}, errors);
    break;
  default:
    differentiate(*module, input, {}, functions, errors);
    break;
  }
  return 0;
}
