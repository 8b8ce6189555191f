//===- BuiltinRulesTest.cpp - embedded rule files -------------------------===//

#include "compiler/rules/BuiltinRules.h"
#include "compiler/rules/RuleFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir::tad::rules;

TEST(BuiltinRules, HelpersFirstThenDerivatives) {
  llvm::ArrayRef<BuiltinRuleFile> files = getBuiltinRuleFiles();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path.str(), "rules/helpers.yaml");
  EXPECT_EQ(files[1].path.str(), "rules/derivatives.yaml");
}

TEST(BuiltinRules, EmbeddedFilesLoadWithoutErrors) {
  mlir::MLIRContext ctx;
  std::string diags;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diags += d.str() + "\n";
    return mlir::success();
  });
  for (const BuiltinRuleFile &f : getBuiltinRuleFiles()) {
    // The contents are NUL-terminated but the NUL is not part of the file.
    EXPECT_EQ(f.contents.data()[f.contents.size()], '\0');
    EXPECT_TRUE(succeeded(parseRuleFile(&ctx, f.contents, f.path)))
        << f.path.str();
  }
  EXPECT_EQ(diags, "");
}
