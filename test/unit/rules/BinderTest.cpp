//===- BinderTest.cpp - formula evaluation and its errors -----------------===//
//
// Evaluates formulas against tensors of a function under construction and
// checks results and every kind of error the binder reports (at the formula
// column, with a note at the op being differentiated).
//
//===----------------------------------------------------------------------===//

#include "compiler/rules/Binder.h"
#include "compiler/rules/OpCatalog.h"

#include "dialects/Tad/TadDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tad::rules;
using Kind = FormulaValue::Kind;

namespace {
class BinderTest : public ::testing::Test {
protected:
  void SetUp() override {
    ctx.loadDialect<tad::TadDialect, func::FuncDialect>();
    auto built = OpCatalog::build(&ctx);
    ASSERT_TRUE(succeeded(built));
    catalog = std::make_unique<OpCatalog>(std::move(*built));
    OpBuilder b(&ctx);
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    b.setInsertionPointToEnd(module->getBody());
    Type f32 = b.getF32Type();
    auto x = RankedTensorType::get({2, 3}, f32);
    auto y = RankedTensorType::get({3}, f32);
    auto z = RankedTensorType::get({4}, f32);
    auto fn = func::FuncOp::create(b, UnknownLoc::get(&ctx), "f",
                                   b.getFunctionType({x, y, z}, {}));
    Block *block = fn.addEntryBlock();
    builder = std::make_unique<OpBuilder>(OpBuilder::atBlockEnd(block));
    bindings["self"] = FormulaValue::ofTensor(block->getArgument(0));
    bindings["grad"] = FormulaValue::ofTensor(block->getArgument(0));
    bindings["other"] = FormulaValue::ofTensor(block->getArgument(1));
    bindings["z"] = FormulaValue::ofTensor(block->getArgument(2));
    bindings["bias"] = FormulaValue::none();
    bindings["dim"] = FormulaValue::scalar(1, /*isInteger=*/true);
    bindings["grads"] = FormulaValue::tuple(
        {bindings["grad"], FormulaValue::zero(y)});
    bindings["grad_input_mask"] = FormulaValue::tuple(
        {FormulaValue::boolean(true), FormulaValue::boolean(false)});
  }

  /// Evaluates `formula` (written at f.yaml:1:1); on failure returns
  /// "col: message" of the first error, else "".
  std::string evaluate(llvm::StringRef formula, FormulaValue *out = nullptr) {
    std::string error;
    size_t offset = 0;
    auto expr = parseFormula(formula, error, offset);
    EXPECT_TRUE(succeeded(expr)) << error;
    if (failed(expr))
      return "parse error";
    std::vector<std::string> diags;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      std::string s;
      if (auto loc = dyn_cast<FileLineColLoc>(d.getLocation()))
        s = std::to_string(loc.getColumn()) + ": ";
      s += d.str();
      for (const Diagnostic &note : d.getNotes())
        s += " [note: " + note.str() + "]";
      diags.push_back(s);
      return success();
    });
    Binder binder(*builder, UnknownLoc::get(&ctx), *catalog, helpers);
    FailureOr<FormulaValue> value =
        binder.evaluate(**expr, SourceLoc{"f.yaml", 1, 1}, bindings);
    if (succeeded(value)) {
      EXPECT_TRUE(diags.empty());
      if (out)
        *out = *value;
      return "";
    }
    EXPECT_FALSE(diags.empty()) << "failure without a diagnostic";
    return diags.empty() ? "?" : diags.front();
  }

  /// Adds helpers from YAML text.
  void addHelpers(llvm::StringRef yaml) {
    auto file = parseRuleFile(&ctx, yaml, "h.yaml");
    ASSERT_TRUE(succeeded(file));
    helperFiles.push_back(std::make_unique<RuleFile>(std::move(*file)));
    for (const HelperEntry &h : helperFiles.back()->helpers)
      helpers[h.signature.baseName] = &h;
  }

  MLIRContext ctx;
  std::unique_ptr<OpCatalog> catalog;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<OpBuilder> builder;
  Bindings bindings;
  HelperTable helpers;
  std::vector<std::unique_ptr<RuleFile>> helperFiles;
};
} // namespace

TEST_F(BinderTest, CompileTimeFolds) {
  FormulaValue v;
  EXPECT_EQ(evaluate("self.sym_sizes()", &v), "");
  EXPECT_EQ(v.kind, Kind::IntList);
  EXPECT_EQ(v.ints, (SmallVector<int64_t>{2, 3}));
  EXPECT_EQ(evaluate("grad.defined() && GradMode::is_enabled() ? "
                     "self.sym_size(-1) : 0",
                     &v),
            "");
  EXPECT_EQ(v.number, 3);
  EXPECT_EQ(evaluate("grad_input_mask[1] ? self : Tensor()", &v), "");
  EXPECT_EQ(v.kind, Kind::None);
  EXPECT_EQ(evaluate("std::get<1>(grads)", &v), "");
  EXPECT_EQ(v.kind, Kind::Zero);
  EXPECT_EQ(evaluate("maybe_multiply(self.conj(), 1)", &v), "");
  EXPECT_EQ(v.tensor, bindings["self"].tensor);
  EXPECT_EQ(evaluate("handle_r_to_c(self, other)", &v), "");
  EXPECT_EQ(v.tensor, bindings["other"].tensor);
  EXPECT_EQ(evaluate("std::tuple<Tensor, Tensor>()", &v), "");
  EXPECT_EQ(v.elements.size(), 2u);
  EXPECT_EQ(evaluate("zeros_like(self) * other", &v), "");
  EXPECT_EQ(v.kind, Kind::Zero);
}

TEST_F(BinderTest, FormatBuiltins) {
  FormulaValue v;
  EXPECT_EQ(evaluate("wrap_opt_if(self, grad_input_mask[0])", &v), "");
  EXPECT_EQ(v.kind, Kind::Tensor);
  EXPECT_EQ(evaluate("wrap_opt_if(self, grad_input_mask[1])", &v), "");
  EXPECT_EQ(v.kind, Kind::None);
  EXPECT_EQ(evaluate("std::vector<int64_t>(self.dim(), 7)", &v), "");
  EXPECT_EQ(v.ints, (SmallVector<int64_t>{7, 7}));
  EXPECT_EQ(evaluate("self.sym_sizes().back()", &v), "");
  EXPECT_EQ(v.number, 3);
  EXPECT_EQ(evaluate("self.sym_strides()", &v), "");
  EXPECT_EQ(v.ints, (SmallVector<int64_t>{3, 1}));
  EXPECT_EQ(evaluate("self.is_complex() || dim.isComplex() || self.is_conj()",
                     &v),
            "");
  EXPECT_EQ(v.kind, Kind::Bool);
  EXPECT_FALSE(v.flag);
  EXPECT_EQ(evaluate("TensorGeometry(self)", &v), "");
  EXPECT_EQ(v.kind, Kind::Metadata);
  EXPECT_EQ(v.type, bindings["self"].type);
  EXPECT_EQ(evaluate("dim.toDouble() + dim.toComplexDouble()", &v), "");
  EXPECT_EQ(v.number, 2);
  EXPECT_EQ(evaluate("bias->sym_sizes()", &v), "");
  EXPECT_EQ(v.kind, Kind::None);
  EXPECT_EQ(evaluate("bias.value_or(other)", &v), "");
  EXPECT_EQ(v.tensor, bindings["other"].tensor);
  EXPECT_TRUE(Binder::isBuiltinFunction("at::wrap_opt_if"));
  EXPECT_TRUE(Binder::isBuiltinFunction("sym_sizes"));
  EXPECT_TRUE(Binder::isBuiltinFunction("std::vector"));
  EXPECT_FALSE(Binder::isBuiltinFunction("mul"));
}

TEST_F(BinderTest, BuildsOps) {
  FormulaValue v;
  EXPECT_EQ(evaluate("grad * other + 1 - self", &v), "");
  ASSERT_EQ(v.kind, Kind::Tensor);
  EXPECT_EQ(v.type.getShape(), (ArrayRef<int64_t>{2, 3}));
}

TEST_F(BinderTest, Errors) {
  const std::string note = " [note: while differentiating this op]";
  EXPECT_EQ(evaluate("grad * nope"), "8: unknown identifier 'nope'" + note);
  EXPECT_EQ(evaluate("nope_fn(self)"),
            "1: unknown function 'nope_fn': not a tad op, a helper or a "
            "builtin" + note);
  EXPECT_EQ(evaluate("self ? self : other"),
            "1: condition must be known at compile time, got a Tensor" + note);
  EXPECT_EQ(evaluate("!self"),
            "1: '!' needs a compile-time bool, got a Tensor" + note);
  EXPECT_EQ(evaluate("-true"), "1: unsupported unary '-' on a bool" + note);
  EXPECT_EQ(evaluate("self + true"),
            "1: unsupported operands of '+': Tensor and bool" + note);
  EXPECT_EQ(evaluate("grads[self]"),
            "1: index must be a compile-time integer" + note);
  EXPECT_EQ(evaluate("grads[2]"), "1: index 2 is out of range [0, 2)" + note);
  EXPECT_EQ(evaluate("{1, 2}[-3]"),
            "1: index -3 is out of range for a list of 2" + note);
  EXPECT_EQ(evaluate("dim[0]"), "1: cannot index a int" + note);
  EXPECT_EQ(evaluate("std::get<5>(grads)"), "1: std::get<5> of a tuple" + note);
  EXPECT_EQ(evaluate("std::get<0>(self)"), "1: std::get<0> of a Tensor" + note);
  EXPECT_EQ(evaluate("not_implemented(\"f\")"),
            "1: not implemented: f" + note);
  EXPECT_EQ(evaluate("[](int i){return i;}"),
            "1: lambdas are not supported in tad formulas" + note);
  EXPECT_EQ(evaluate("grads.sym_sizes()"),
            "1: 'sym_sizes' needs a tensor" + note);
  EXPECT_EQ(evaluate("self.sym_size(2)"), "1: dimension out of range" + note);
  EXPECT_EQ(evaluate("zeros_like(self) * zeros_like(z)"),
            "1: shapes [2, 3] and [4] are not broadcast-compatible" + note);
  EXPECT_EQ(evaluate("wrap_opt_if(self, self)"),
            "1: the condition of 'wrap_opt_if' must be known at compile "
            "time, got a Tensor" + note);
  EXPECT_EQ(evaluate("std::vector<int64_t>(-1, 0)"),
            "1: invalid vector length -1" + note);
  EXPECT_EQ(evaluate("std::vector<int64_t>(0, 0).back()"),
            "1: 'back()' of an empty list" + note);
  std::string overload = evaluate("mul(self, true)");
  EXPECT_EQ(overload.substr(0, overload.find(" [note")),
            "1: no overload of 'mul' accepts (Tensor, bool)");
}

TEST_F(BinderTest, HelperErrors) {
  addHelpers("- name: \"twice(Tensor x, Scalar s=2) -> Tensor\"\n"
             "  formula: x * s\n"
             "- name: \"loop(Tensor x) -> Tensor\"\n"
             "  formula: loop(x)\n");
  FormulaValue v;
  EXPECT_EQ(evaluate("twice(self)", &v), "");
  EXPECT_EQ(v.kind, Kind::Tensor);
  const std::string note = " [note: while differentiating this op]";
  EXPECT_EQ(evaluate("twice(self, 1, 2)"),
            "1: helper 'twice' takes 2 arguments, got 3" + note);
  EXPECT_EQ(evaluate("twice(true)"),
            "1: argument 'x' of helper 'twice' must be Tensor, got a bool" +
                note);
  // Reported inside the helper's body (h.yaml), where the cycle is.
  EXPECT_NE(evaluate("loop(self)").find(
                ": helper 'loop' nests deeper than 32 calls (a cycle in the "
                "helpers?)"),
            std::string::npos);
}
