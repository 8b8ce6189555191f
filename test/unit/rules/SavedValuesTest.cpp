//===- SavedValuesTest.cpp - what a VJP needs from the forward ------------===//

#include "compiler/rules/SavedValues.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir::tad::rules;

namespace {
class SavedValuesTest : public ::testing::Test {
protected:
  /// Loads `yaml` (entries and helpers) and keeps it alive.
  const RuleFile &load(llvm::StringRef yaml) {
    std::string diags;
    mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
      diags += d.str() + "\n";
      return mlir::success();
    });
    auto parsed = parseRuleFile(&ctx, yaml, "t.yaml");
    EXPECT_TRUE(succeeded(parsed)) << diags;
    file = succeeded(parsed) ? std::move(*parsed) : RuleFile();
    helpers.clear();
    for (const HelperEntry &h : file.helpers)
      helpers[h.signature.baseName] = &h;
    return file;
  }

  /// "saved | metadata" for the entry `index` with gradients of `wanted`
  /// ("" = all).
  std::string analyze(size_t index, std::vector<std::string> wanted = {}) {
    llvm::StringSet<> set;
    for (const std::string &w : wanted)
      set.insert(w);
    SavedValues v = analyzeSavedValues(file.entries.at(index), helpers,
                                       wanted.empty() ? nullptr : &set);
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::join(v.saved(), ",") << " | "
       << llvm::join(v.metadataOnly(), ",");
    return s;
  }

  mlir::MLIRContext ctx;
  RuleFile file;
  HelperMap helpers;
};
} // namespace

TEST_F(SavedValuesTest, MetadataDoesNotSave) {
  load("- name: sum(Tensor self, *, ScalarType? dtype=None) -> Tensor\n"
       "  self: grad.expand_symint(self.sym_sizes())\n"
       "- name: f(Tensor self, Tensor other) -> Tensor\n"
       "  self: \"zeros_like(other).to(self.options()) + "
       "grad.expand_as(other) * self.dim() * self.sym_numel()\"\n"
       "  other: TensorGeometry(other).f(self.sym_size(0), "
       "self.scalar_type(), to_args_sizes(other))\n");
  EXPECT_EQ(analyze(0), " | self");
  EXPECT_EQ(analyze(1), " | self,other");
}

TEST_F(SavedValuesTest, PerRequestedGradient) {
  load("- name: \"mul_tensor_backward(Tensor grad, Tensor other, ScalarType "
       "t) -> Tensor\"\n"
       "  formula: grad * other\n"
       "- name: mul.Tensor(Tensor self, Tensor other) -> Tensor\n"
       "  self: mul_tensor_backward(grad, other, self.scalar_type())\n"
       "  other: mul_tensor_backward(grad, self, other.scalar_type())\n");
  EXPECT_EQ(analyze(0, {"self"}), "other | self");
  EXPECT_EQ(analyze(0, {"other"}), "self | other");
  EXPECT_EQ(analyze(0), "self,other | ");
}

TEST_F(SavedValuesTest, OutputsAndHelpersThatIgnoreArguments) {
  load("- name: \"unused(Tensor grad, Tensor x, Tensor y) -> Tensor\"\n"
       "  formula: grad * y.sym_size(0)\n"
       "- name: tanh(Tensor self) -> Tensor\n"
       "  self: unused(grad, self, result)\n"
       "- name: exp(Tensor self) -> Tensor\n"
       "  self: unused(grad, self * 2, result)\n");
  EXPECT_EQ(analyze(0), " | result");
  // An argument that is computed is evaluated, so its operands are read.
  EXPECT_EQ(analyze(1), "self | result");
}

TEST_F(SavedValuesTest, StaticConditions) {
  load("- name: f(Tensor a, Tensor b, Tensor c, int dim) -> Tensor\n"
       "  a, b, c: \"g(grad, wrap_opt_if(a, grad_input_mask[1]), "
       "grad_input_mask[0] ? b : c, GradMode::is_enabled() ? grad : c, "
       "dim == 1 ? a : grad)\"\n");
  // wrap_opt_if keeps `a` only when b's gradient is wanted; grad_input_mask
  // decides the first ternary; `dim == 1` is not static: both branches.
  EXPECT_EQ(analyze(0, {"a"}), "a,b | ");
  EXPECT_EQ(analyze(0, {"c"}), "a,c | ");
  EXPECT_EQ(analyze(0, {"b"}), "a,c | ");
  // A key runs only if one of its inputs is wanted.
  EXPECT_EQ(analyze(0, {"other"}), " | ");
}

TEST_F(SavedValuesTest, LambdaParametersAndRecursiveHelpers) {
  load("- name: \"rec(Tensor x, Tensor y) -> Tensor\"\n"
       "  formula: rec(x.sym_sizes(), y)\n"
       "- name: f(Tensor self, Tensor i) -> Tensor\n"
       "  self: fmap(grad, [](c10::SymInt i){return -i;})\n"
       "- name: g(Tensor self, Tensor other) -> Tensor\n"
       "  self: rec(self, other)\n"
       "  other: non_differentiable\n");
  // The lambda's `i` is not the input `i`.
  EXPECT_EQ(analyze(0), " | ");
  // A recursive call reads every argument (conservatively); the outer
  // call passes `self` to a parameter used only for its sizes.
  EXPECT_EQ(analyze(1), "other | self");
}

TEST(SavedValues, Classification) {
  EXPECT_TRUE(isMetadataMethod("sym_sizes"));
  EXPECT_TRUE(isMetadataMethod("sym_size"));
  EXPECT_TRUE(isMetadataMethod("options"));
  EXPECT_FALSE(isMetadataMethod("sum"));
  EXPECT_TRUE(isMetadataFunction("at::zeros_like"));
  EXPECT_TRUE(isMetadataFunction("to_args_sizes_symint"));
  EXPECT_FALSE(isMetadataFunction("ones_like"));
  EXPECT_TRUE(isShapeOfArgumentMethod("expand_as"));
  EXPECT_EQ(stringifyValueUse(ValueUse::Metadata).str(), "metadata");
}
