//===- RuleCommands.h - tadc's rule-file modes ------------------*- C++ -*-===//
//
//   tadc --check-rules FILE [--check-rules FILE]... [--json]
//   tadc --explain-rule OP [--rules FILE]...
//
// Modes of tadc that read rule files instead of compiling a module
// (compiler/rules/RuleChecker.h).
//
//===----------------------------------------------------------------------===//
#ifndef TAD_TOOLS_TADC_RULECOMMANDS_H
#define TAD_TOOLS_TADC_RULECOMMANDS_H

#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mlir::tad {

/// Registers --check-rules, --json and --explain-rule in `category`; call
/// before parsing the command line.
void registerRuleCommandOptions(llvm::cl::OptionCategory &category);

/// Runs the requested rule-file mode, if any, and returns tadc's exit code;
/// std::nullopt when none was requested (compile as usual). `ruleFiles` are
/// the --rules files (for --explain-rule).
std::optional<int> runRuleCommands(MLIRContext &context,
                                   const std::vector<std::string> &ruleFiles);

} // namespace mlir::tad

#endif // TAD_TOOLS_TADC_RULECOMMANDS_H
