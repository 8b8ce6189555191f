//===- Formula.h - Derivative formula expressions ---------------*- C++ -*-===//
//
// The AST of the C++-expression subset used by derivative formulas
// (grad * other.conj(), std::get<0>(f(x)), c ? a : b, {1, 2}, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TAD_COMPILER_RULES_FORMULA_H
#define TAD_COMPILER_RULES_FORMULA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tad::rules {

struct Expr {
  enum class Kind {
    Identifier, // grad, M_PI, at::Reduction::Mean (qualified names kept whole)
    Integer,    // 0, 1, 2 (name = literal text)
    Float,      // 0., 0.5, 2.0 (name = literal text)
    Bool,       // true, false (name = "true"/"false")
    String,     // "trunc" (name = unescaped contents)
    Call,       // f(a, b), at::f(x), std::get<0>(t); name = callee
    MethodCall, // x.f(a): operands = [x, a]; name = "f"
    ArrowCall,  // x->f(a): operands = [x, a]; name = "f"
    Index,      // x[i]: operands = [x, i]
    Unary,      // -x, !x, *x: name = operator
    Binary,     // l op r: name = operator
    Ternary,    // c ? t : f
    BraceList,  // {a, b}, {}
    Lambda      // [](c10::SymInt i){return -i;}: name = parameter list text,
                // operands = [body]
  };
  Kind kind = Kind::Identifier;
  std::string name;
  /// Template arguments of a Call: std::get<0> -> {"0"};
  /// std::tuple<Tensor, Tensor> -> {"Tensor", "Tensor"}.
  std::vector<std::string> templateArgs;
  std::vector<std::unique_ptr<Expr>> operands;
  /// Byte offset of this node's first character in the formula text.
  size_t offset = 0;

  Expr() = default;
  Expr(Kind kind, std::string name, size_t offset)
      : kind(kind), name(std::move(name)), offset(offset) {}

  /// Value of an Integer literal (0 if it does not fit).
  int64_t intValue() const;
  /// Value of a Float or Integer literal.
  double floatValue() const;
  /// Value of a Bool literal.
  bool boolValue() const;

  bool isIdentifier(llvm::StringRef id) const {
    return kind == Kind::Identifier && name == id;
  }
  bool isCall(llvm::StringRef callee) const {
    return kind == Kind::Call && name == callee;
  }
  /// Arguments of a Call (all operands) or MethodCall/ArrowCall (all but the
  /// receiver).
  llvm::ArrayRef<std::unique_ptr<Expr>> callArgs() const;
};

using ExprPtr = std::unique_ptr<Expr>;

/// Parses a formula. On failure returns failure(), sets `error` (lowercase, no
/// period) and `errorOffset` (byte offset in `text`).
llvm::FailureOr<ExprPtr> parseFormula(llvm::StringRef text, std::string &error,
                                      size_t &errorOffset);

/// Canonical re-printing: parse(print(e)) is structurally equal to e.
/// Parentheses are added only where precedence requires them.
std::string printExpr(const Expr &e);

/// Structural equality (ignores offsets).
bool exprEqual(const Expr &a, const Expr &b);

ExprPtr cloneExpr(const Expr &e);

/// Renames identifier tokens (never substrings, method names or callee names)
/// according to `renames`.
ExprPtr renameIdentifiers(const Expr &e,
                          const llvm::StringMap<std::string> &renames);

/// Replaces each free Identifier whose name is in `replacements` with a clone
/// of the mapped expression (e.g. grad -> self_t.conj() for auto_element_wise).
/// Printing adds the parentheses the replacement needs.
ExprPtr
substituteIdentifiers(const Expr &e,
                      const llvm::StringMap<const Expr *> &replacements);

/// Appends the free identifiers used in `e` (each Identifier node, in order,
/// duplicates included). Lambda parameters are not free inside its body.
void collectIdentifiers(const Expr &e, llvm::SmallVectorImpl<std::string> &out);

/// Appends the free Identifier nodes of `e` in order (what collectIdentifiers
/// names), for diagnostics that point at each use.
void collectFreeIdentifiers(const Expr &e,
                            llvm::SmallVectorImpl<const Expr *> &out);

/// Calls `fn` on `e` and every sub-expression in pre-order.
void walkExpr(const Expr &e, llvm::function_ref<void(const Expr &)> fn);

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_FORMULA_H
