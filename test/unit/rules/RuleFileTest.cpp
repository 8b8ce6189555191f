//===- RuleFileTest.cpp - rule-file loader tests --------------------------===//

#include "compiler/rules/RuleFile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir::tad::rules;

namespace {
/// Loads YAML text and captures the diagnostics as "file:line:col: message".
struct Loaded {
  llvm::FailureOr<RuleFile> file = llvm::failure();
  std::vector<std::string> diags;
};

class RuleFileTest : public ::testing::Test {
protected:
  Loaded load(llvm::StringRef yaml, llvm::StringRef path = "t.yaml") {
    Loaded l;
    mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
      std::string s;
      llvm::raw_string_ostream os(s);
      if (auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(d.getLocation()))
        os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
           << loc.getColumn();
      os << ": " << d.str();
      l.diags.push_back(s);
      return mlir::success();
    });
    l.file = parseRuleFile(&ctx, yaml, path);
    return l;
  }

  /// Expects `yaml` to fail with exactly the diagnostics `expected`.
  void expectErrors(llvm::StringRef yaml, std::vector<std::string> expected) {
    Loaded l = load(yaml);
    EXPECT_TRUE(failed(l.file)) << yaml.str();
    EXPECT_EQ(l.diags, expected) << yaml.str();
  }

  RuleFile loadOk(llvm::StringRef yaml) {
    Loaded l = load(yaml);
    EXPECT_TRUE(succeeded(l.file)) << yaml.str();
    EXPECT_EQ(l.diags, std::vector<std::string>{}) << yaml.str();
    return succeeded(l.file) ? std::move(*l.file) : RuleFile();
  }

  mlir::MLIRContext ctx;
};

const char kValid[] = R"yaml(# A small rule file in derivatives.yaml format.
- name: mul.Tensor(Tensor self, Tensor other) -> Tensor
  self: mul_tensor_backward(grad, other, self.scalar_type())
  other: mul_tensor_backward(grad, self, other.scalar_type())  # a comment
  result: other_t * self_p + self_t * other_p

- name: atan2(Tensor self, Tensor other) -> Tensor
  self, other: atan2_backward(grad, self, other, grad_input_mask)
  result: "other_p.defined() ? self_t : other_t"

- name: exp(Tensor self) -> Tensor
  self: grad * result.conj()
  result: auto_element_wise

- name: gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
  self: gather_backward(grad, self, dim, index, sparse_grad)
  index: non_differentiable
  result: auto_linear

- name: igamma(Tensor self, Tensor other) -> Tensor
  self: 'not_implemented("igamma: input")'
  other: grad * exp((self - 1) * log(other) - other - lgamma(self))

- name: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  self: value_selecting_reduction_backward_symint(grad, dim, indices, self.sym_sizes(), keepdim)
  values: gather_with_keepdimed_indices(self_t, dim, indices, keepdim)

- name: eq.Tensor(Tensor self, Tensor other) -> Tensor
  output_differentiability: [False]

- name: pair(Tensor self) -> (Tensor, Tensor)
  output_differentiability: [True, false]
  self: grads[0] * 2 + grads[1]

- name: cast(Tensor self, ScalarType? dtype=None) -> Tensor
  output_differentiability: ["!dtype || isDifferentiableType(*dtype)"]
  self: grad

- name: select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)
  dispatch:
    Default:
      self: select_backward_symint(grad, self.sym_sizes(), dim, index)
      result: auto_linear
    AutogradNestedTensor:
      self: _nested_select_backward_symint(grad, self, dim, index)

- name: qr_like(Tensor A) -> (Tensor Q, Tensor R)
  A: qr_backward(grad_Q, grad_R, A, Q, R)
  Q, R: "qr_jvp(A_t, Q, R)"

- name: folded(Tensor self, Tensor other) -> Tensor
  self: "grad *
    other"
  other: grad * self

- name: mm_helper(Tensor grad, Tensor mat2) -> Tensor
  formula: grad.mm(mat2.t())
)yaml";
} // namespace

TEST_F(RuleFileTest, ValidFile) {
  RuleFile f = loadOk(kValid);
  EXPECT_EQ(f.path, "t.yaml");
  ASSERT_EQ(f.entries.size(), 12u);
  ASSERT_EQ(f.helpers.size(), 1u);

  const RuleEntry &mul = f.entries[0];
  EXPECT_EQ(mul.schema.fullName(), "mul.Tensor");
  EXPECT_EQ(mul.loc.file, "t.yaml");
  EXPECT_EQ(mul.loc.line, 2u);
  EXPECT_EQ(mul.loc.col, 3u);
  ASSERT_EQ(mul.backward.size(), 2u);
  ASSERT_EQ(mul.forward.size(), 1u);
  EXPECT_EQ(mul.backward[0].names, std::vector<std::string>{"self"});
  EXPECT_EQ(mul.backward[0].kind, FormulaKind::Expression);
  EXPECT_EQ(mul.backward[0].loc.line, 3u);
  EXPECT_EQ(mul.backward[0].loc.col, 3u);
  EXPECT_EQ(mul.backward[0].formula.loc.line, 3u);
  EXPECT_EQ(mul.backward[0].formula.loc.col, 9u);
  EXPECT_EQ(mul.backward[1].formula.text,
            "mul_tensor_backward(grad, self, other.scalar_type())");
  ASSERT_TRUE(mul.backward[1].formula.expr);
  EXPECT_TRUE(mul.backward[1].formula.expr->isCall("mul_tensor_backward"));
  EXPECT_EQ(mul.forward[0].names, std::vector<std::string>{"result"});
  EXPECT_EQ(mul.findBackward("other"), &mul.backward[1]);
  EXPECT_EQ(mul.findForward("result"), &mul.forward[0]);
  EXPECT_EQ(mul.findBackward("missing"), nullptr);
  EXPECT_EQ(mul.findForward("missing"), nullptr);
  EXPECT_TRUE(mul.outputDifferentiability.empty());
  EXPECT_TRUE(mul.otherDispatchKeys.empty());

  const RuleEntry &atan2 = f.entries[1];
  EXPECT_EQ(atan2.backward[0].names,
            (std::vector<std::string>{"self", "other"}));
  // Quoted formula: the location is after the opening quote.
  EXPECT_EQ(atan2.forward[0].formula.loc.line, 9u);
  EXPECT_EQ(atan2.forward[0].formula.loc.col, 12u);
  EXPECT_EQ(atan2.forward[0].formula.expr->kind, Expr::Kind::Ternary);

  EXPECT_EQ(f.entries[2].forward[0].kind, FormulaKind::AutoElementWise);
  EXPECT_EQ(f.entries[2].forward[0].formula.expr, nullptr);
  EXPECT_EQ(f.entries[2].forward[0].formula.text, "auto_element_wise");

  const RuleEntry &gather = f.entries[3];
  EXPECT_EQ(gather.backward[1].kind, FormulaKind::NonDifferentiable);
  EXPECT_EQ(gather.backward[1].formula.expr, nullptr);
  EXPECT_EQ(gather.forward[0].kind, FormulaKind::AutoLinear);

  const RuleEntry &igamma = f.entries[4];
  EXPECT_EQ(igamma.backward[0].kind, FormulaKind::NotImplemented);
  EXPECT_EQ(igamma.backward[0].formula.text, "igamma: input");
  ASSERT_TRUE(igamma.backward[0].formula.expr);

  const RuleEntry &max = f.entries[5];
  EXPECT_EQ(max.forward[0].names, std::vector<std::string>{"values"});

  const RuleEntry &eq = f.entries[6];
  EXPECT_EQ(eq.outputDifferentiability,
            std::vector<std::optional<bool>>{false});
  EXPECT_TRUE(eq.backward.empty());
  EXPECT_TRUE(eq.forward.empty());

  EXPECT_EQ(f.entries[7].outputDifferentiability,
            (std::vector<std::optional<bool>>{true, false}));

  const RuleEntry &cast = f.entries[8];
  ASSERT_EQ(cast.outputDifferentiability.size(), 1u);
  EXPECT_FALSE(cast.outputDifferentiability[0].has_value());
  EXPECT_EQ(cast.outputDifferentiabilityConditions[0],
            "!dtype || isDifferentiableType(*dtype)");

  const RuleEntry &select = f.entries[9];
  EXPECT_EQ(select.backward.size(), 1u);
  EXPECT_EQ(select.forward.size(), 1u);
  EXPECT_EQ(select.otherDispatchKeys,
            std::vector<std::string>{"AutogradNestedTensor"});
  EXPECT_TRUE(
      select.backward[0].formula.expr->isCall("select_backward_symint"));

  const RuleEntry &qr = f.entries[10];
  EXPECT_EQ(qr.forward[0].names, (std::vector<std::string>{"Q", "R"}));

  const RuleEntry &folded = f.entries[11];
  EXPECT_EQ(folded.backward[0].formula.text, "grad * other");

  const HelperEntry &h = f.helpers[0];
  EXPECT_EQ(h.signature.fullName(), "mm_helper");
  EXPECT_EQ(h.loc.line, 56u);
  EXPECT_EQ(h.body.text, "grad.mm(mat2.t())");
  EXPECT_EQ(h.body.loc.line, 57u);
  EXPECT_EQ(h.body.loc.col, 12u);
  EXPECT_EQ(printExpr(*h.body.expr), "grad.mm(mat2.t())");
}

TEST_F(RuleFileTest, EmptyFiles) {
  EXPECT_TRUE(loadOk("").entries.empty());
  EXPECT_TRUE(loadOk("# only a comment\n").entries.empty());
  EXPECT_TRUE(loadOk("[]\n").entries.empty());
}

TEST_F(RuleFileTest, LoadFromDisk) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("rules", "yaml", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "- name: neg(Tensor self) -> Tensor\n  self: -grad\n";
  }
  llvm::FailureOr<RuleFile> f = loadRuleFile(&ctx, path);
  ASSERT_TRUE(succeeded(f));
  EXPECT_EQ(f->path, path.str().str());
  ASSERT_EQ(f->entries.size(), 1u);
  EXPECT_EQ(f->entries[0].backward[0].formula.loc.file, path.str().str());
  llvm::sys::fs::remove(path);

  std::vector<std::string> diags;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diags.push_back(d.str());
    return mlir::success();
  });
  EXPECT_TRUE(failed(loadRuleFile(&ctx, "/nonexistent/rules.yaml")));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(llvm::StringRef(diags[0]).split(':').first,
            "cannot open rule file '/nonexistent/rules.yaml'");
}

TEST_F(RuleFileTest, SourceLocToLocation) {
  SourceLoc l{"f.yaml", 3, 7};
  auto loc = llvm::cast<mlir::FileLineColLoc>(l.toLocation(&ctx));
  EXPECT_EQ(loc.getFilename().getValue(), "f.yaml");
  EXPECT_EQ(loc.getLine(), 3u);
  EXPECT_EQ(loc.getColumn(), 7u);
}

TEST_F(RuleFileTest, DispatchKeys) {
  EXPECT_TRUE(isKnownDispatchKey("Default"));
  EXPECT_TRUE(isKnownDispatchKey("AutogradCUDA"));
  EXPECT_TRUE(isKnownDispatchKey("AutogradPrivateUse3"));
  EXPECT_FALSE(isKnownDispatchKey("CUDA"));
}

//===----------------------------------------------------------------------===//
// YAML structure errors
//===----------------------------------------------------------------------===//

TEST_F(RuleFileTest, MalformedYaml) {
  Loaded l = load("- name: f(Tensor self) -> Tensor\n  self: [grad\n");
  EXPECT_TRUE(failed(l.file));
  ASSERT_EQ(l.diags.size(), 1u);
  EXPECT_EQ(l.diags[0], "t.yaml:3:1: end of sequence flow not found");
}

TEST_F(RuleFileTest, StructureErrors) {
  expectErrors("name: f(Tensor self) -> Tensor\n",
               {"t.yaml:1:1: a rule file must be a YAML sequence of entries"});
  expectErrors("- just a string\n",
               {"t.yaml:1:3: expected a mapping for each rule entry"});
  expectErrors("- self: grad\n", {"t.yaml:1:3: rule entry has no 'name' key"});
  expectErrors("- name: [f]\n  self: grad\n",
               {"t.yaml:1:9: 'name' must be a schema string"});
  expectErrors("- name: f(Tensor self) -> Tensor\n  ? [self]\n  : grad\n",
               {"t.yaml:2:5: expected a string key"});
  expectErrors("- name: f(Tensor self) -> Tensor\n  self: [grad]\n",
               {"t.yaml:2:9: formula for 'self' must be a string"});
  expectErrors("- name: f(Tensor self) -> Tensor\n  'self, ': grad\n",
               {"t.yaml:2:3: empty name in key 'self, '"});
}

TEST_F(RuleFileTest, SchemaErrors) {
  expectErrors("- name: relu(Tensor self) -> Tensorx\n",
               {"t.yaml:1:30: invalid schema 'relu(Tensor self) -> Tensorx': "
                "unknown type 'Tensorx'"});
  expectErrors("- name: \"relu_(Tensor self) -> Tensor\"\n",
               {"t.yaml:1:10: invalid schema 'relu_(Tensor self) -> Tensor': "
                "inplace operator 'relu_' must have a mutable 'self' "
                "argument"});
  expectErrors("- name: f(Tensor self, Tensor grad_input_mask) -> Tensor\n",
               {"t.yaml:1:9: schema 'f' may not have an argument named "
                "'grad_input_mask'"});
  expectErrors("- name: f(Tensor self, Tensor result) -> Tensor\n",
               {"t.yaml:1:9: schema 'f' may not have an argument named "
                "'result'"});
}

//===----------------------------------------------------------------------===//
// Formula errors, mapped into the file
//===----------------------------------------------------------------------===//

TEST_F(RuleFileTest, FormulaParseErrorLocations) {
  // Plain scalar: offset maps directly.
  expectErrors("- name: f(Tensor self) -> Tensor\n  self: grad * $\n",
               {"t.yaml:2:16: unexpected character '$'"});
  // Double-quoted: after the opening quote.
  expectErrors("- name: f(Tensor self) -> Tensor\n  self: \"grad * $\"\n",
               {"t.yaml:2:17: unexpected character '$'"});
  // Escapes in double-quoted scalars are followed.
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: \"f(\\\"a\\\") $\"\n",
               {"t.yaml:2:19: unexpected character '$'"});
  // Single-quoted with a doubled quote.
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: 'f(\"it''s\") $'\n",
               {"t.yaml:2:21: unexpected character '$'"});
  // Folded multi-line scalar: the error is on the continuation line.
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: \"grad *\n"
               "    self $ 2\"\n",
               {"t.yaml:3:10: unexpected character '$'"});
  // Helper bodies are mapped the same way.
  expectErrors("- name: h(Tensor grad) -> Tensor\n  formula: grad.mm(\n",
               {"t.yaml:2:20: expected an expression, found end of formula"});
}

TEST_F(RuleFileTest, SizesAndStrides) {
  expectErrors(
      "- name: f(Tensor self, Tensor? bias) -> Tensor\n"
      "  self: grad.expand(self.sizes()) + self.size(0) + bias->sizes()\n"
      "  bias: \"grad.as_strided(self.sym_sizes(), self.strides())\"\n",
      {"t.yaml:2:21: use 'sym_sizes()' instead of 'sizes(...)' in "
       "derivative formulas",
       "t.yaml:2:37: use 'sym_size(i)' instead of 'size(...)' in derivative "
       "formulas",
       "t.yaml:2:52: use 'sym_sizes()' instead of 'sizes(...)' in derivative "
       "formulas",
       "t.yaml:3:44: use 'sym_strides()' instead of 'strides(...)' in "
       "derivative formulas"});
  // sym_* and size() without an index are fine.
  loadOk("- name: f(Tensor self) -> Tensor\n"
         "  self: grad.expand_symint(self.sym_sizes(), self.size())\n");
}

//===----------------------------------------------------------------------===//
// Semantic checks
//===----------------------------------------------------------------------===//

TEST_F(RuleFileTest, OutputDifferentiabilityErrors) {
  expectErrors("- name: f(Tensor self) -> (Tensor, Tensor)\n"
               "  output_differentiability: [\"a\", \"b\"]\n",
               {"t.yaml:2:3: a condition string in 'output_differentiability' "
                "is allowed only in a one-element list"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  output_differentiability: True\n",
               {"t.yaml:2:29: 'output_differentiability' must be a list of "
                "True/False"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  output_differentiability: [Maybe]\n",
               {"t.yaml:2:30: expected True or False in "
                "'output_differentiability', found 'Maybe'"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  output_differentiability: [[True]]\n",
               {"t.yaml:2:30: expected True, False or a condition string"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  output_differentiability: [True, False]\n",
               {"t.yaml:2:3: 'output_differentiability' has 2 elements but "
                "'f' has 1 outputs"});
}

TEST_F(RuleFileTest, DispatchErrors) {
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  dispatch:\n"
               "    Default:\n"
               "      self: grad\n"
               "    AutogradFoo:\n"
               "      self: grad\n",
               {"t.yaml:5:5: unknown dispatch key 'AutogradFoo'"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  dispatch: [Default]\n",
               {"t.yaml:2:13: 'dispatch' must map dispatch keys to formula "
                "blocks"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  dispatch:\n"
               "    Default: grad\n",
               {"t.yaml:3:14: dispatch key 'Default' must map to formula "
                "keys"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: grad\n"
               "  dispatch:\n"
               "    Default:\n"
               "      self: grad\n",
               {"t.yaml:2:3: formula keys must go under 'dispatch' when it "
                "is present"});
  // Formulas under other dispatch keys are checked too.
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  dispatch:\n"
               "    AutogradNestedTensor:\n"
               "      self: grad.sizes()\n",
               {"t.yaml:4:13: use 'sym_sizes()' instead of 'sizes(...)' in "
                "derivative formulas"});
}

TEST_F(RuleFileTest, KeyErrors) {
  expectErrors("- name: f(Tensor self, Tensor values) -> (Tensor values, "
               "Tensor indices)\n"
               "  values: grad\n",
               {"t.yaml:2:3: 'values' is both an input and an output of 'f'"});
  expectErrors("- name: f(Tensor self) -> Tensor\n  self, bogus: grad\n",
               {"t.yaml:2:3: 'bogus' is not an input of 'f'"});
  expectErrors("- name: f(Tensor self) -> Tensor\n  bogus: grad\n",
               {"t.yaml:2:3: 'bogus' is neither an input nor an output of "
                "'f'"});
  expectErrors("- name: f(Tensor self) -> Tensor\n  result, self: self_t\n",
               {"t.yaml:2:3: key 'result, self' mixes outputs and inputs of "
                "'f'"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: non_differentiable\n"
               "  self: grad\n",
               {"t.yaml:3:3: input 'self' is both non_differentiable and has "
                "a formula"});
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self, other: g(grad)\n"
               "  other: non_differentiable\n",
               {"t.yaml:3:3: input 'other' is both non_differentiable and has "
                "a formula"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: grad\n"
               "  self: 2 * grad\n",
               {"t.yaml:3:3: 'self' has more than one formula"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: grad\n"
               "  result: self_t\n"
               "  result: auto_linear\n",
               {"t.yaml:4:3: 'result' has more than one formula"});
  expectErrors("- name: f(Tensor self) -> Tensor\n  self: auto_linear\n",
               {"t.yaml:2:9: 'auto_linear' is only allowed for output "
                "(forward) keys"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  result: non_differentiable\n",
               {"t.yaml:2:11: 'non_differentiable' is only allowed for input "
                "keys"});
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self, other: non_differentiable\n",
               {"t.yaml:2:16: 'non_differentiable' key must name a single "
                "input"});
}

TEST_F(RuleFileTest, GradUsageErrors) {
  expectErrors("- name: f(Tensor self) -> (Tensor, Tensor)\n"
               "  self: grads[0] + grads[2]\n",
               {"t.yaml:2:20: 'grads[2]' is out of range: 'f' has 2 outputs"});
  expectErrors("- name: f(Tensor self, Tensor other) -> (Tensor, Tensor)\n"
               "  self: grad\n"
               "  other: grads[1]\n",
               {"t.yaml:2:3: derivative formulas of 'f' mix 'grad' and "
                "'grads'; use 'grads[0]' instead of 'grad'"});
  expectErrors("- name: f(Tensor self) -> (Tensor a, Tensor b)\n"
               "  self: grad_a + grads[1]\n",
               {"t.yaml:2:3: derivative formulas of 'f' mix 'grad_<output>' "
                "with 'grad' or 'grads'; use one way to name output "
                "gradients"});
  expectErrors("- name: f(Tensor self) -> (Tensor, Tensor)\n"
               "  self: grads[0] * 2\n",
               {"t.yaml:2:3: derivative formulas of 'f' use only 'grads[0]'; "
                "use 'grad' instead"});
  // Whole-list uses of grads, and named gradients alone, are fine.
  loadOk("- name: f(Tensor self) -> (Tensor, Tensor)\n"
         "  self: split_backward(grads, self) + grads[0]\n"
         "- name: g(Tensor self) -> (Tensor a, Tensor b)\n"
         "  self: grad_a + grad_b\n");
}

TEST_F(RuleFileTest, ForwardFormulaErrors) {
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self: grad\n"
               "  other: grad\n"
               "  result: auto_element_wise\n",
               {"t.yaml:4:11: 'auto_element_wise' requires a single "
                "differentiable input and a single differentiable output"});
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  result: auto_element_wise\n",
               {"t.yaml:2:11: 'auto_element_wise' requires a single "
                "differentiable input and a single differentiable output"});
  expectErrors("- name: f_(Tensor(a!) self) -> Tensor(a!)\n"
               "  self: grad\n"
               "  result: auto_element_wise\n",
               {"t.yaml:3:11: 'auto_element_wise' cannot be used for the "
                "inplace operator 'f_'"});
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self, other: g(grad, grad_input_mask)\n"
               "  result: auto_element_wise\n",
               {"t.yaml:3:11: 'auto_element_wise' requires a single "
                "differentiable input and a single differentiable output"});
  expectErrors("- name: f(Tensor self) -> (Tensor, Tensor)\n"
               "  self: grads[0] + grads[1]\n"
               "  result0, result1: auto_linear\n",
               {"t.yaml:3:21: 'auto_linear' requires a single differentiable "
                "output"});
  expectErrors("- name: f(Tensor self, Tensor other, int dim) -> Tensor\n"
               "  self: grad\n"
               "  other: non_differentiable\n"
               "  result: self_t.sum(dim) + self * other\n",
               {"t.yaml:4:29: forward formula uses the input name 'self', "
                "which is ambiguous; use 'self_p' (primal) or 'self_t' "
                "(tangent)"});
  // Non-differentiable inputs, non-tensors and tensor lists may be used.
  loadOk("- name: f(Tensor self, Tensor other, Tensor[] ts, int dim) -> "
         "Tensor\n"
         "  self: grad\n"
         "  ts: grad\n"
         "  other: non_differentiable\n"
         "  result: self_t.sum(dim) * other + cat_jvp(ts, dim)\n");
}

TEST_F(RuleFileTest, HelperErrors) {
  expectErrors("- name: h(Tensor grad) -> Tensor\n"
               "  formula: grad\n"
               "  extra: 1\n",
               {"t.yaml:3:3: unknown key 'extra' in helper definition"});
  expectErrors("- name: [h]\n  formula: grad\n",
               {"t.yaml:1:9: 'name' must be a string"});
  expectErrors("- name: h(Tensor grad) -> Tensor\n  formula: [grad]\n",
               {"t.yaml:2:12: 'formula' must be a string"});
  expectErrors("- name: h(Tensor grad) Tensor\n  formula: grad\n",
               {"t.yaml:1:23: invalid schema 'h(Tensor grad) Tensor': "
                "expected ' -> ' after the argument list"});
}

TEST_F(RuleFileTest, ReportsEveryError) {
  Loaded l = load("- name: f(Tensor self) -> Tensor\n"
                  "  self: grad.sizes()\n"
                  "- name: g(Tensor self) -> Tensor\n"
                  "  self: $\n"
                  "- name: h(Tensor self) -> Tensor\n"
                  "  self: grad\n");
  EXPECT_TRUE(failed(l.file));
  EXPECT_EQ(l.diags.size(), 2u);
}

TEST_F(RuleFileTest, UnknownIdentifiers) {
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self: grad * bogus\n",
               {"t.yaml:2:16: unknown identifier 'bogus' in a backward "
                "formula of 'f': not an argument, output or gradient of the "
                "op, nor a named constant"});
  // x_t is bound only in forward formulas, grad only in backward ones.
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: grad * self_t\n"
               "  result: grad * self_p\n",
               {"t.yaml:2:16: unknown identifier 'self_t' in a backward "
                "formula of 'f': it is bound only in forward formulas",
                "t.yaml:3:11: unknown identifier 'grad' in a forward formula "
                "of 'f': it is bound only in backward formulas"});
  expectErrors("- name: \"h(Tensor x) -> Tensor\"\n"
               "  formula: x * y\n",
               {"t.yaml:2:16: unknown identifier 'y' in helper 'h': not an "
                "argument of the helper nor a named constant"});
  // Everything a formula may name: arguments, outputs, their gradients,
  // grad_input_mask, retain_variables, constants, lambda parameters, and
  // anything inside not_implemented(...).
  loadOk("- name: f(Tensor self, Tensor other, int dim) -> (Tensor a, Tensor b)\n"
         "  self, other: \"g(grad_a, grad_b, a, b, dim, "
         "grad_input_mask[1], retain_variables, M_PI, at::Reduction::Mean, "
         "c10::MemoryFormat::Contiguous, [](c10::SymInt i){return -i;})\"\n"
         "  a: self_t * other_p + b + dim\n"
         "- name: g_(Tensor(a!) self) -> Tensor(a!)\n"
         "  self: not_implemented(\"g_\", kSomeMessage)\n"
         "  result: original_self_p * original_self_t\n"
         "- name: _foreach_f(Tensor[] self) -> Tensor[]\n"
         "  self: grads[i] * self[i]\n"
         "  result: self_t[i]\n");
}

TEST_F(RuleFileTest, ArityErrors) {
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self, other: \"grad.defined() ? g(grad) : "
               "std::tuple<Tensor>()\"\n",
               {"t.yaml:2:44: formula for 'self, other' returns 1 value but "
                "the key names 2 inputs"});
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self, other: \"{grad, grad, grad}\"\n",
               {"t.yaml:2:17: formula for 'self, other' returns 3 values but "
                "the key names 2 inputs"});
  expectErrors("- name: f(Tensor self, Tensor other) -> Tensor\n"
               "  self, other: g(grad, grad_input_mask[2])\n",
               {"t.yaml:2:24: 'grad_input_mask[2]' is out of range: the key "
                "'self, other' names 2 inputs"});
}

TEST_F(RuleFileTest, MultiLineFormulaPositions) {
  // A double-quoted formula folded over three lines: errors and every
  // sub-expression map back to their own line and column.
  expectErrors("- name: f(Tensor self) -> Tensor\n"
               "  self: \"g(grad,\n"
               "          self,\n"
               "          nope)\"\n",
               {"t.yaml:4:11: unknown identifier 'nope' in a backward formula "
                "of 'f': not an argument, output or gradient of the op, nor a "
                "named constant"});
  RuleFile f = loadOk("- name: f(Tensor self) -> Tensor\n"
                      "  self: \"g(grad,\n"
                      "          self)\"\n");
  ASSERT_EQ(f.entries.size(), 1u);
  const Formula &formula = f.entries[0].backward[0].formula;
  const Expr &self = *formula.expr->operands[1];
  SourceLoc loc = formula.locOf(self.offset);
  EXPECT_EQ(loc.line, 3u);
  EXPECT_EQ(loc.col, 11u);
  EXPECT_EQ(formula.locOf(0).col, 10u);
}

TEST_F(RuleFileTest, ReportKeepsWhatLoaded) {
  RuleFile file;
  RuleFileReport report;
  mlir::ScopedDiagnosticHandler handler(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::StringRef yaml = "- name: f(Tensor self, Tensor other) -> Tensor\n"
                         "  self: grad * other\n"
                         "  other: g(\n"
                         "  result: auto_linear\n"
                         "- name: f(Tensor self) -> Bad\n"
                         "  self: grad\n"
                         "  other: non_differentiable\n"
                         "- name: \"h(Tensor x) -> Tensor\"\n"
                         "  formula: x\n";
  EXPECT_TRUE(failed(parseRuleFileInto(&ctx, yaml, "r.yaml", file, &report)));
  ASSERT_EQ(report.entries.size(), 3u);
  const EntryReport &a = report.entries[0];
  EXPECT_TRUE(a.schemaParsed);
  EXPECT_EQ(a.formulasTotal, 3u);
  EXPECT_EQ(a.formulasParsed, 2u);
  EXPECT_EQ(a.errors, 1u);
  EXPECT_EQ(a.index, 0);
  EXPECT_EQ(a.loc.line, 1u);
  EXPECT_EQ(a.loc.col, 3u);
  const EntryReport &b = report.entries[1];
  EXPECT_FALSE(b.schemaParsed);
  EXPECT_EQ(b.formulasTotal, 1u); // non_differentiable is not a formula
  EXPECT_EQ(b.formulasParsed, 1u);
  EXPECT_EQ(b.index, -1);
  const EntryReport &c = report.entries[2];
  EXPECT_TRUE(c.isHelper);
  EXPECT_EQ(c.index, 0);
  EXPECT_EQ(report.fileErrors, 0u);
  // The valid keys of the first entry were kept.
  ASSERT_EQ(file.entries.size(), 1u);
  EXPECT_EQ(file.entries[0].backward.size(), 1u);
  EXPECT_EQ(file.entries[0].forward.size(), 1u);
  EXPECT_EQ(file.helpers.size(), 1u);
}

TEST_F(RuleFileTest, FormulaConstants) {
  for (const char *name : {"M_PI", "M_LN2", "M_SQRT2", "M_2_SQRTPI",
                           "at::Reduction::None", "at::Reduction::Mean",
                           "at::Reduction::Sum", "c10::MemoryFormat::Contiguous",
                           "at::MemoryFormat::Preserve"})
    EXPECT_TRUE(isFormulaConstant(name)) << name;
  for (const char *name : {"M_E", "at::Reduction::Max", "pi", ""})
    EXPECT_FALSE(isFormulaConstant(name)) << name;
}
