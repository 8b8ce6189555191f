//===- Schema.h - ATen function schema parser -------------------*- C++ -*-===//
//
// Parses and prints the function schemas that name derivative rules, e.g.
//   add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
// The printed form reproduces the parsed text exactly (str(parse(s)) == s).
//
//===----------------------------------------------------------------------===//

#ifndef TAD_COMPILER_RULES_SCHEMA_H
#define TAD_COMPILER_RULES_SCHEMA_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tad::rules {

/// A schema type. Suffixes are right-recursive: `int[1]?` is
/// Optional(List(int, 1)) and `Tensor?[]` is List(Optional(Tensor)).
struct SchemaType {
  enum class Kind { Base, Optional, List };
  Kind kind = Kind::Base;
  /// Base name for Kind::Base: "Tensor", "int", "SymInt", "float", ...
  std::string base;
  /// For Kind::List with a fixed size: int[2] -> 2.
  std::optional<int64_t> listSize;
  /// Element type for Kind::Optional and Kind::List.
  std::shared_ptr<SchemaType> element;

  static SchemaType getBase(llvm::StringRef name);
  static SchemaType getOptional(SchemaType elem);
  static SchemaType getList(SchemaType elem, std::optional<int64_t> size = {});

  /// Prints the type; `annotation` (e.g. "(a!)") is inserted after the
  /// innermost base name, where schemas write it: `Tensor(a!)?`.
  std::string str(llvm::StringRef annotation = "") const;

  /// The innermost base type (through all Optional/List layers).
  const SchemaType &innermost() const;
  /// Exactly `Tensor`.
  bool isTensor() const;
  /// Tensor, Tensor?, Tensor[], Tensor?[].
  bool isTensorLike() const;
  bool isOptional() const { return kind == Kind::Optional; }
  bool isList() const { return kind == Kind::List; }
  /// The element of an Optional type, else *this.
  const SchemaType &stripOptional() const;
  /// True if the base is one of the known schema base types.
  bool hasKnownBase() const;

  friend bool operator==(const SchemaType &a, const SchemaType &b);
  friend bool operator!=(const SchemaType &a, const SchemaType &b) {
    return !(a == b);
  }
};

/// An alias annotation such as `a`, `a!`, `a|b`, `a -> *`.
struct AliasAnnotation {
  std::string text;                  // without the parentheses: "a!"
  bool isWrite = false;              // has '!'
  std::vector<std::string> aliasSet; // {"a"} / {"a", "b"}
  std::vector<std::string> afterSet; // {"*"} for "a -> *"; empty if none
};

struct SchemaArgument {
  std::string name;
  SchemaType type;
  std::optional<AliasAnnotation> annotation;
  std::optional<std::string> defaultValue; // verbatim text
  bool kwOnly = false;

  bool isWrite() const { return annotation && annotation->isWrite; }
  /// "Tensor(a!) out=None"-style text.
  std::string str() const;
};

struct SchemaReturn {
  SchemaType type;
  std::optional<AliasAnnotation> annotation;
  std::optional<std::string> name;

  bool isWrite() const { return annotation && annotation->isWrite; }
  std::string str() const;
};

struct Schema {
  std::string ns;         // "" or e.g. "aten" for "aten::foo"
  std::string baseName;   // as written minus namespace and overload: "add_"
  std::string overload;   // "Tensor" for add.Tensor, "" if none
  bool isInplace = false; // trailing '_' or __iNAME__
  bool isDunder = false;  // __NAME__
  bool isFunctionalVariant = false;      // NAME_functional
  std::vector<SchemaArgument> arguments; // in order
  std::vector<SchemaReturn> returns;
  /// True when the returns were written in parentheses (tuple or "()").
  bool parenthesizedReturns = false;

  /// "add.Tensor", "relu", "aten::add.Tensor".
  std::string fullName() const;
  /// The base name without the inplace '_' (or dunder 'i'): "add_" -> "add".
  std::string functionalBaseName() const;
  /// Lossless print of the parsed text.
  std::string str() const;
  /// Index of the argument called `name`, or -1.
  int findArgument(llvm::StringRef name) const;
  const SchemaArgument *getArgument(llvm::StringRef name) const;
  /// Output names as formulas see them: named returns (a return named
  /// "self" is "result"), else "result" (single) or "result0".."resultN".
  std::vector<std::string> outputNames() const;
  /// Out variant: some kw-only argument has a write annotation.
  bool isOutVariant() const;
  /// Some return has a non-write alias annotation.
  bool isView() const;
  /// Indices of Tensor-like arguments (differentiable candidates).
  std::vector<unsigned> tensorLikeArguments() const;
  /// True if any argument or return mentions SymInt.
  bool hasSymIntArguments() const;
};

/// Parses one schema and checks the single-schema rules (verifySchema). On
/// failure returns failure() and sets `error` (lowercase, no period) and, if
/// non-null, `*errorOffset` to the byte offset of the problem in `text`.
llvm::FailureOr<Schema> parseSchema(llvm::StringRef text, std::string &error,
                                    size_t *errorOffset = nullptr);

/// Parses a type on its own ("Tensor?[]", "int[2]").
llvm::FailureOr<SchemaType> parseSchemaType(llvm::StringRef text,
                                            std::string &error);

/// The torchgen rules that apply to one schema: '*' at most once (checked by
/// the parser), annotations only on Tensor-like types, inplace names return
/// self, out arguments match the returns, returns all mutable or none, etc.
llvm::LogicalResult verifySchema(const Schema &schema, std::string &error);

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_SCHEMA_H
