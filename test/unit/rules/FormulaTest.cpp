//===- FormulaTest.cpp - formula parser tests -----------------------------===//

#include "compiler/rules/Formula.h"

#include <gtest/gtest.h>

using namespace mlir::tad::rules;
using Kind = Expr::Kind;

namespace {
ExprPtr parseOk(llvm::StringRef text) {
  std::string error;
  size_t offset = 0;
  llvm::FailureOr<ExprPtr> e = parseFormula(text, error, offset);
  EXPECT_TRUE(succeeded(e)) << text.str() << ": " << offset << ": " << error;
  return succeeded(e) ? std::move(*e) : std::make_unique<Expr>();
}

/// Parses `text`, expects failure, and returns "offset: message".
std::string parseError(llvm::StringRef text) {
  std::string error;
  size_t offset = ~size_t(0);
  llvm::FailureOr<ExprPtr> e = parseFormula(text, error, offset);
  EXPECT_TRUE(failed(e)) << text.str();
  return std::to_string(offset) + ": " + error;
}

std::string reprint(llvm::StringRef text) { return printExpr(*parseOk(text)); }

// Canonical texts: each prints back unchanged, and re-parsing the print gives
// the same tree.
const char *const kCanonical[] = {
    "grad * other.conj()",
    "-grad * self.sin().conj()",
    "grad.defined() ? atan2_backward(grad, self, other, grad_input_mask) : "
    "std::tuple<Tensor, Tensor>()",
    "bias->sym_sizes()",
    "sum_to(grad, {})",
    "at::max_pool_double_backward(grad, indices, 2).view({{1, 1}})",
    "grad.expand_symint({batch1.sym_size(0), batch2.sym_size(2)})",
    "std::get<0>(f(grad, self))",
    "at::Reduction::Mean",
    "2.0 / sqrt(M_PI) * exp(-self.pow(2)) * grad",
    "fmap(reverse_list_symint(shifts), [](c10::SymInt i){return -i;})",
    "grads[0] + grads[1]",
    "(self == 0.) & (other <= 0.)",
    "a && b || !c",
    "p == 1 ? 0.0 : 1.0 / (1.0 - p)",
    "*dtype",
    "div(grad, \"trunc\")",
    "x / (y * z)",
    "x - (y - z)",
    "a - b - c",
    "(-1).pow(2)",
    "(a ? b : c).sum()",
    "(a ? b : c) ? d : e",
    "a ? b : c ? d : e",
    "-(a + b)",
    "- -a",
    "!(a && b)",
    "x[i][j]",
    "(a + b)[0]",
    "std::vector<int64_t>(n, 0)",
    "self.to<double>()",
    "true && false",
    "\"quote\\\" backslash\\\\ nl\\n tab\\t\"",
    "a < b",
    "a <= b != c > d",
    "GradMode::is_enabled() ? x : y",
    "{true, false, false}",
};
} // namespace

TEST(Formula, CanonicalRoundTrip) {
  for (const char *text : kCanonical) {
    ExprPtr e = parseOk(text);
    std::string printed = printExpr(*e);
    EXPECT_EQ(printed, text);
    ExprPtr again = parseOk(printed);
    EXPECT_TRUE(exprEqual(*e, *again)) << text;
    ExprPtr clone = cloneExpr(*e);
    EXPECT_TRUE(exprEqual(*e, *clone)) << text;
    EXPECT_EQ(printExpr(*clone), text);
  }
}

TEST(Formula, NonCanonicalInputs) {
  // Comments before arguments are skipped; redundant parentheses and spacing
  // are normalized.
  EXPECT_EQ(reprint("div(grad, /*rounding_mode=*/\"trunc\")"),
            "div(grad, \"trunc\")");
  EXPECT_EQ(reprint("f(x, /* is_result */ false)"), "f(x, false)");
  EXPECT_EQ(reprint("((a))+(b*c)"), "a + b * c");
  EXPECT_EQ(reprint("(a - b) - c"), "a - b - c");
  EXPECT_EQ(reprint("a == b & c"), "(a == b) & c");
  EXPECT_EQ(reprint("-(-a)"), "- -a");
  EXPECT_EQ(reprint("{ x , y }"), "{x, y}");
  EXPECT_EQ(reprint("std::tuple< Tensor,Tensor >()"),
            "std::tuple<Tensor, Tensor>()");
  EXPECT_EQ(reprint("x\n  .sum()"), "x.sum()");
  EXPECT_EQ(reprint("[]( int i ){ return i ; }"), "[](int i){return i;}");
}

TEST(Formula, Literals) {
  ExprPtr e = parseOk("f(0, 2.5, 1., true, false, \"s\", -1, .5, 1e3, 2E-2)");
  ASSERT_EQ(e->kind, Kind::Call);
  ASSERT_EQ(e->operands.size(), 10u);
  EXPECT_EQ(e->operands[0]->kind, Kind::Integer);
  EXPECT_EQ(e->operands[0]->intValue(), 0);
  EXPECT_EQ(e->operands[1]->kind, Kind::Float);
  EXPECT_EQ(e->operands[1]->floatValue(), 2.5);
  EXPECT_EQ(e->operands[2]->kind, Kind::Float);
  EXPECT_EQ(e->operands[2]->name, "1.");
  EXPECT_EQ(e->operands[2]->floatValue(), 1.0);
  EXPECT_EQ(e->operands[3]->kind, Kind::Bool);
  EXPECT_TRUE(e->operands[3]->boolValue());
  EXPECT_FALSE(e->operands[4]->boolValue());
  EXPECT_EQ(e->operands[5]->kind, Kind::String);
  EXPECT_EQ(e->operands[5]->name, "s");
  // Unary minus on a literal stays a Unary node.
  const Expr &neg = *e->operands[6];
  EXPECT_EQ(neg.kind, Kind::Unary);
  EXPECT_EQ(neg.name, "-");
  EXPECT_EQ(neg.operands[0]->kind, Kind::Integer);
  EXPECT_EQ(neg.operands[0]->intValue(), 1);
  EXPECT_EQ(e->operands[7]->floatValue(), 0.5);
  EXPECT_EQ(e->operands[8]->kind, Kind::Float);
  EXPECT_EQ(e->operands[8]->floatValue(), 1000.0);
  EXPECT_EQ(e->operands[9]->floatValue(), 0.02);
  EXPECT_EQ(e->operands[9]->intValue(), 0); // not an integer literal
  EXPECT_EQ(parseOk("\"a\\\"b\"")->name, "a\"b");
}

TEST(Formula, CallsAndQualifiedNames) {
  ExprPtr e = parseOk("at::sum(x, GradMode::is_enabled(), at::Reduction::Mean, "
                      "M_PI)");
  EXPECT_TRUE(e->isCall("at::sum"));
  ASSERT_EQ(e->callArgs().size(), 4u);
  EXPECT_TRUE(e->operands[1]->isCall("GradMode::is_enabled"));
  EXPECT_TRUE(e->operands[1]->operands.empty());
  EXPECT_TRUE(e->operands[2]->isIdentifier("at::Reduction::Mean"));
  EXPECT_TRUE(e->operands[3]->isIdentifier("M_PI"));

  ExprPtr g = parseOk("std::get<0>(t)");
  EXPECT_TRUE(g->isCall("std::get"));
  EXPECT_EQ(g->templateArgs, std::vector<std::string>{"0"});
  ExprPtr t = parseOk("std::tuple<Tensor, Tensor>()");
  EXPECT_EQ(t->templateArgs, (std::vector<std::string>{"Tensor", "Tensor"}));
  EXPECT_TRUE(t->operands.empty());
  ExprPtr n = parseOk("std::vector<std::vector<int64_t>>(n, {})");
  EXPECT_EQ(n->templateArgs, std::vector<std::string>{"std::vector<int64_t>"});
}

TEST(Formula, MethodArrowIndex) {
  ExprPtr e = parseOk("grad.sum(0, true)");
  ASSERT_EQ(e->kind, Kind::MethodCall);
  EXPECT_EQ(e->name, "sum");
  ASSERT_EQ(e->operands.size(), 3u);
  EXPECT_TRUE(e->operands[0]->isIdentifier("grad"));
  EXPECT_EQ(e->callArgs().size(), 2u);

  ExprPtr a = parseOk("bias->sym_sizes()");
  EXPECT_EQ(a->kind, Kind::ArrowCall);
  EXPECT_EQ(a->name, "sym_sizes");
  EXPECT_TRUE(a->callArgs().empty());

  ExprPtr i = parseOk("grads[1]");
  EXPECT_EQ(i->kind, Kind::Index);
  EXPECT_TRUE(i->operands[0]->isIdentifier("grads"));
  EXPECT_EQ(i->operands[1]->intValue(), 1);
}

TEST(Formula, Precedence) {
  ExprPtr e = parseOk("a + b * c");
  ASSERT_EQ(e->kind, Kind::Binary);
  EXPECT_EQ(e->name, "+");
  EXPECT_EQ(e->operands[1]->name, "*");

  ExprPtr l = parseOk("a - b - c"); // left associative
  EXPECT_EQ(l->operands[0]->name, "-");
  EXPECT_TRUE(l->operands[1]->isIdentifier("c"));

  ExprPtr r = parseOk("a < b == c < d");
  EXPECT_EQ(r->name, "==");
  EXPECT_EQ(r->operands[0]->name, "<");
  EXPECT_EQ(r->operands[1]->name, "<");

  ExprPtr b = parseOk("a & b && c || d");
  EXPECT_EQ(b->name, "||");
  EXPECT_EQ(b->operands[0]->name, "&&");
  EXPECT_EQ(b->operands[0]->operands[0]->name, "&");

  // '|' binds looser than '&' and tighter than '&&', as in C++.
  ExprPtr o = parseOk("a | b & c && d");
  EXPECT_EQ(o->name, "&&");
  EXPECT_EQ(o->operands[0]->name, "|");
  EXPECT_EQ(o->operands[0]->operands[1]->name, "&");

  ExprPtr t = parseOk("a ? b : c ? d : e");
  ASSERT_EQ(t->kind, Kind::Ternary);
  EXPECT_EQ(t->operands[2]->kind, Kind::Ternary);

  ExprPtr u = parseOk("-a.pow(2)"); // postfix binds tighter than unary
  EXPECT_EQ(u->kind, Kind::Unary);
  EXPECT_EQ(u->operands[0]->kind, Kind::MethodCall);

  ExprPtr d = parseOk("*dtype == x");
  EXPECT_EQ(d->name, "==");
  EXPECT_EQ(d->operands[0]->kind, Kind::Unary);
  EXPECT_EQ(d->operands[0]->name, "*");

  // '<' is a comparison unless a template argument list and '(' follow.
  ExprPtr c = parseOk("x < y ? a : b");
  EXPECT_EQ(c->operands[0]->name, "<");
  ExprPtr c2 = parseOk("x < f(y)");
  EXPECT_EQ(c2->name, "<");
  EXPECT_TRUE(c2->operands[1]->isCall("f"));
  ExprPtr c3 = parseOk("x < y > z");
  EXPECT_EQ(c3->name, ">");
}

TEST(Formula, BraceListsAndLambda) {
  ExprPtr e = parseOk("{}");
  EXPECT_EQ(e->kind, Kind::BraceList);
  EXPECT_TRUE(e->operands.empty());
  ExprPtr n = parseOk("{{1, 1}}");
  ASSERT_EQ(n->operands.size(), 1u);
  EXPECT_EQ(n->operands[0]->kind, Kind::BraceList);
  EXPECT_EQ(n->operands[0]->operands.size(), 2u);

  ExprPtr l = parseOk("[](c10::SymInt i){return -i;}");
  ASSERT_EQ(l->kind, Kind::Lambda);
  EXPECT_EQ(l->name, "c10::SymInt i");
  ASSERT_EQ(l->operands.size(), 1u);
  EXPECT_EQ(l->operands[0]->kind, Kind::Unary);
}

TEST(Formula, Offsets) {
  ExprPtr e = parseOk("grad * other.conj()");
  EXPECT_EQ(e->offset, 0u);
  EXPECT_EQ(e->operands[0]->offset, 0u);
  EXPECT_EQ(e->operands[1]->offset, 7u); // method call starts at receiver
  ExprPtr f = parseOk("f(a, /*x=*/ bb)");
  EXPECT_EQ(f->operands[1]->offset, 12u);
  ExprPtr u = parseOk("  -x");
  EXPECT_EQ(u->offset, 2u);
  EXPECT_EQ(u->operands[0]->offset, 3u);
}

TEST(Formula, RenameIdentifiers) {
  ExprPtr e = parseOk("self.self_fn(self_p, self) + at::self(self) + "
                      "myself * grad + grad_self + at::Reduction::self");
  llvm::StringMap<std::string> renames;
  renames["self"] = "self_p";
  renames["grad"] = "self_t";
  ExprPtr r = renameIdentifiers(*e, renames);
  EXPECT_EQ(printExpr(*r), "self_p.self_fn(self_p, self_p) + at::self(self_p) "
                           "+ myself * self_t + grad_self + "
                           "at::Reduction::self");
  // The original is untouched.
  EXPECT_EQ(printExpr(*e), "self.self_fn(self_p, self) + at::self(self) + "
                           "myself * grad + grad_self + at::Reduction::self");
  // Lambda parameters are bound, not renamed.
  llvm::StringMap<std::string> ri;
  ri["i"] = "j";
  ri["shifts"] = "shifts_t";
  EXPECT_EQ(
      printExpr(*renameIdentifiers(
          *parseOk("fmap(shifts, [](c10::SymInt i){return -i;}) + i"), ri)),
      "fmap(shifts_t, [](c10::SymInt i){return -i;}) + j");
}

TEST(Formula, SubstituteIdentifiers) {
  // auto_element_wise: grad -> self_t.conj(), self -> self_p, then conj.
  ExprPtr backward = parseOk("grad * self.sgn() + -grad");
  ExprPtr tangent = parseOk("self_t.conj()");
  ExprPtr sum = parseOk("a + b");
  ExprPtr primal = parseOk("self_p");
  llvm::StringMap<const Expr *> repl;
  repl["grad"] = tangent.get();
  repl["self"] = primal.get();
  EXPECT_EQ(printExpr(*substituteIdentifiers(*backward, repl)),
            "self_t.conj() * self_p.sgn() + -self_t.conj()");
  // Parentheses are added where the replacement needs them.
  llvm::StringMap<const Expr *> repl2;
  repl2["x"] = sum.get();
  EXPECT_EQ(
      printExpr(*substituteIdentifiers(*parseOk("x * 2 + x.exp()"), repl2)),
      "(a + b) * 2 + (a + b).exp()");
  llvm::StringMap<const Expr *> repl3;
  repl3["i"] = sum.get();
  EXPECT_EQ(printExpr(*substituteIdentifiers(*parseOk("[](int i){return i;}"),
                                             repl3)),
            "[](int i){return i;}");
}

TEST(Formula, CollectIdentifiers) {
  ExprPtr e = parseOk("at::where(mask, grad, self.sum(dim)) * M_PI + "
                      "fmap(l, [](int i){return i * k;}) + grads[0]");
  llvm::SmallVector<std::string> ids;
  collectIdentifiers(*e, ids);
  EXPECT_EQ(std::vector<std::string>(ids.begin(), ids.end()),
            (std::vector<std::string>{"mask", "grad", "self", "dim", "M_PI",
                                      "l", "k", "grads"}));
  unsigned count = 0;
  walkExpr(*e, [&](const Expr &) { ++count; });
  EXPECT_EQ(count, 19u);
}

TEST(Formula, Errors) {
  EXPECT_EQ(parseError(""), "0: expected an expression, found end of formula");
  EXPECT_EQ(parseError("grad *"),
            "6: expected an expression, found end of formula");
  EXPECT_EQ(parseError(")"), "0: expected an expression, found ')'");
  EXPECT_EQ(parseError("f(a, b"),
            "6: expected ')' after call arguments, found 'end of formula'");
  EXPECT_EQ(parseError("f(a b)"),
            "4: expected ')' after call arguments, found 'b'");
  EXPECT_EQ(parseError("a $ b"), "2: unexpected character '$'");
  EXPECT_EQ(parseError("f(\"abc)"), "2: unterminated string literal");
  EXPECT_EQ(parseError("f(a, /* x)"), "5: unterminated comment");
  EXPECT_EQ(parseError("1x + 2"), "0: invalid number '1x'");
  EXPECT_EQ(parseError("a b"),
            "2: unexpected 'b' after the end of the expression");
  EXPECT_EQ(parseError("a \"s\""),
            "2: unexpected '\"s\"' after the end of the expression");
  EXPECT_EQ(parseError("x."),
            "2: expected a method name after '.', found 'end of formula'");
  EXPECT_EQ(parseError("x->at::f()"),
            "3: expected a method name after '->', found 'at::f'");
  EXPECT_EQ(parseError("x.foo"), "2: expected '(' after method name 'foo'");
  EXPECT_EQ(parseError("x.foo + 1"), "6: expected '(' after method name 'foo'");
  EXPECT_EQ(parseError("x[1"),
            "3: expected ']' after index, found 'end of formula'");
  EXPECT_EQ(parseError("{1, 2"),
            "5: expected '}' to close brace list, found 'end of formula'");
  EXPECT_EQ(parseError("(a"), "2: expected ')' to close parenthesized "
                              "expression, found 'end of formula'");
  EXPECT_EQ(parseError("c ? a"),
            "5: expected ':' in conditional expression, found 'end of "
            "formula'");
  EXPECT_EQ(parseError("[x](int i){return i;}"),
            "1: expected ']' in lambda (captures are not supported), found "
            "'x'");
  EXPECT_EQ(parseError("[]{return 1;}"),
            "2: expected '(' after '[]' in lambda");
  EXPECT_EQ(parseError("[](int i"), "2: unterminated lambda parameter list");
  EXPECT_EQ(parseError("[](int i) return i;"),
            "10: expected '{' before lambda body, found 'return'");
  EXPECT_EQ(parseError("[](int i){i;}"),
            "10: expected 'return' in lambda body");
  EXPECT_EQ(parseError("[](int i){return i}"),
            "18: expected ';' after lambda return expression, found '}'");
  EXPECT_EQ(parseError("[](int i){return i;"),
            "19: expected '}' after lambda body, found 'end of formula'");
  EXPECT_EQ(parseError("f(a,)"), "4: expected an expression, found ')'");
  EXPECT_EQ(parseError("-"), "1: expected an expression, found end of formula");
  EXPECT_EQ(parseError("f(1x)"), "2: invalid number '1x'");
}

// Hostile nesting is an error, not a stack overflow (found by fuzzing).
TEST(Formula, DepthLimits) {
  std::string parens = std::string(300, '(') + "x" + std::string(300, ')');
  EXPECT_EQ(parseError(parens), "128: formula nests more than 256 levels deep");
  std::string unary = std::string(300, '-') + "x";
  EXPECT_EQ(parseError(unary), "255: formula nests more than 256 levels deep");
  std::string chain = "a";
  for (int i = 0; i < 300; ++i)
    chain += " + a";
  EXPECT_EQ(parseError(chain), "0: formula nests more than 256 levels deep");
  std::string methods = "x";
  for (int i = 0; i < 300; ++i)
    methods += ".f()";
  EXPECT_EQ(parseError(methods), "0: formula nests more than 256 levels deep");
  // Upstream-sized formulas are far below the limit.
  std::string ok = std::string(100, '(') + "x" + std::string(100, ')');
  std::string error;
  size_t offset = 0;
  EXPECT_TRUE(succeeded(parseFormula(ok, error, offset)));
}

TEST(Formula, CollectFreeIdentifiers) {
  std::string error;
  size_t offset = 0;
  auto e = parseFormula("f(a, [](int i){return i + b;}) + a.g(c)", error,
                        offset);
  ASSERT_TRUE(succeeded(e));
  llvm::SmallVector<const Expr *> ids;
  collectFreeIdentifiers(**e, ids);
  std::vector<std::string> names;
  std::vector<size_t> offsets;
  for (const Expr *id : ids) {
    names.push_back(id->name);
    offsets.push_back(id->offset);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "a", "c"}));
  EXPECT_EQ(offsets, (std::vector<size_t>{2, 26, 33, 37}));
}
