//===- RuleFileFuzzer.cpp - libFuzzer target for the rule-file front end --===//
//
// Feeds arbitrary bytes through YAML -> entries -> schemas -> formulas (the
// loader, with all its checks) and, separately, through the schema and
// formula parsers on their own. Besides memory errors and UB (ASan, UBSan),
// it checks the parsers' invariants:
//   - a parsed schema prints back to its text and re-parses to the same print;
//   - a parsed formula prints canonically and re-parses to an equal AST;
//   - the saved-value analysis runs on every entry that loaded.
// Any violation aborts, which libFuzzer reports as a crash.
//
// Build: test/fuzz/CMakeLists.txt (clang-22 -fsanitize=fuzzer,address,undefined).
//
//===----------------------------------------------------------------------===//

#include "compiler/rules/Formula.h"
#include "compiler/rules/RuleFile.h"
#include "compiler/rules/SavedValues.h"
#include "compiler/rules/Schema.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::tad::rules;

static void fail(const char *what, llvm::StringRef input,
                 llvm::StringRef detail) {
  llvm::errs() << "invariant violated: " << what << "\n  input: '" << input
               << "'\n  " << detail << "\n";
  std::abort();
}

static void checkSchema(llvm::StringRef text) {
  std::string error;
  size_t offset = 0;
  llvm::FailureOr<Schema> schema = parseSchema(text, error, &offset);
  if (failed(schema)) {
    if (error.empty())
      fail("schema error without a message", text, "");
    if (offset > text.size())
      fail("schema error offset past the end", text, error);
    return;
  }
  std::string printed = schema->str();
  if (printed != text)
    fail("schema does not round-trip", text, printed);
  (void)schema->outputNames();
  (void)schema->fullName();
  (void)schema->isView();
  (void)schema->tensorLikeArguments();
}

static void checkFormula(llvm::StringRef text) {
  std::string error;
  size_t offset = 0;
  llvm::FailureOr<ExprPtr> expr = parseFormula(text, error, offset);
  if (failed(expr)) {
    if (error.empty())
      fail("formula error without a message", text, "");
    if (offset > text.size())
      fail("formula error offset past the end", text, error);
    return;
  }
  std::string printed = printExpr(**expr);
  llvm::FailureOr<ExprPtr> again = parseFormula(printed, error, offset);
  if (failed(again))
    fail("printed formula does not parse", text, printed + ": " + error);
  if (!exprEqual(**expr, **again))
    fail("printed formula parses to a different AST", text, printed);
  if (printExpr(**again) != printed)
    fail("printing is not idempotent", text, printed);
  ExprPtr clone = cloneExpr(**expr);
  if (!exprEqual(**expr, *clone))
    fail("clone differs", text, printed);
  llvm::SmallVector<std::string> ids;
  collectIdentifiers(**expr, ids);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *ctx = [] {
    auto *c = new mlir::MLIRContext();
    // Swallow diagnostics: errors are expected; crashes are the findings.
    c->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    return c;
  }();
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);

  // The whole input as a rule file.
  RuleFile file;
  RuleFileReport report;
  (void)parseRuleFileInto(ctx, input, "fuzz.yaml", file, &report);
  HelperMap helpers;
  for (const HelperEntry &helper : file.helpers)
    helpers[helper.signature.baseName] = &helper;
  for (const RuleEntry &entry : file.entries) {
    checkSchema(entry.schema.str());
    (void)analyzeSavedValues(entry, helpers);
  }
  if (report.entries.size() < file.entries.size() + file.helpers.size())
    fail("report misses items", input, "");

  // The whole input as a schema and as a formula, and each line as both.
  checkSchema(input);
  checkFormula(input);
  llvm::SmallVector<llvm::StringRef> lines;
  input.split(lines, '\n');
  if (lines.size() > 1)
    for (llvm::StringRef line : lines) {
      checkSchema(line);
      checkFormula(line);
    }
  return 0;
}
