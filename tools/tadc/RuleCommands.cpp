//===- RuleCommands.cpp - tadc's rule-file modes --------------------------===//
#include "tools/tadc/RuleCommands.h"

#include "compiler/rules/RuleChecker.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
struct Options {
  explicit Options(cl::OptionCategory &category)
      : checkRules("check-rules",
                   cl::desc("Check a derivative rule file and report per "
                            "entry (repeatable); exits 1 on parse or "
                            "validation errors"),
                   cl::value_desc("file.yaml"), cl::cat(category)),
        json("json", cl::desc("With --check-rules: print a JSON summary"),
             cl::cat(category)),
        explainRule("explain-rule",
                    cl::desc("Print the rule of an op: parsed, derived JVP, "
                             "and what its VJP saves"),
                    cl::value_desc("op"), cl::cat(category)) {}

  cl::list<std::string> checkRules;
  cl::opt<bool> json;
  cl::opt<std::string> explainRule;
};
} // namespace

static Options *options = nullptr;

void mlir::tad::registerRuleCommandOptions(cl::OptionCategory &category) {
  static Options registered(category);
  options = &registered;
}

std::optional<int>
mlir::tad::runRuleCommands(MLIRContext &context,
                           const std::vector<std::string> &ruleFiles) {
  if (!options ||
      (options->checkRules.empty() && options->explainRule.empty()))
    return std::nullopt;
  if (!options->checkRules.empty()) {
    rules::RuleCheckResult result = rules::checkRuleFiles(
        &context, std::vector<std::string>(options->checkRules.begin(),
                                           options->checkRules.end()));
    if (options->json)
      rules::printRuleCheckJSON(result, llvm::outs());
    else
      rules::printRuleCheck(result, llvm::outs());
    llvm::outs().flush();
    return result.errors.empty() ? 0 : 1;
  }
  // --explain-rule: errors in rule files are printed with file:line:col.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  ScopedDiagnosticHandler toolErrors(&context, [](Diagnostic &diag) {
    if (!isa<UnknownLoc>(diag.getLocation()))
      return failure(); // printed with file:line:col by the SourceMgr handler
    llvm::WithColor::error(llvm::errs(), "tadc") << diag << "\n";
    return success();
  });
  if (failed(rules::explainRule(&context, options->explainRule, ruleFiles,
                                llvm::outs())))
    return 1;
  llvm::outs().flush();
  return 0;
}
