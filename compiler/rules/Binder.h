//===- Binder.h - evaluate derivative formulas into tad ops -----*- C++ -*-===//
//
// A formula is evaluated against bindings (grad, inputs, result, x_p, x_t,
// attributes) and emits tad ops at a builder's insertion point. Compile-time
// constructs (metadata queries, static ternaries, grad.defined(), tuples)
// fold away during evaluation; tensor arithmetic becomes tad ops chosen by
// ATen overload resolution against the ops' schemas.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_COMPILER_RULES_BINDER_H
#define TAD_COMPILER_RULES_BINDER_H

#include "compiler/rules/OpCatalog.h"
#include "compiler/rules/RuleFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::tad::rules {

/// A value during formula evaluation.
struct FormulaValue {
  enum class Kind {
    None,     // std::nullopt, an undefined Tensor(), an absent optional
    Tensor,   // an SSA tensor
    Zero,     // a symbolic zero tensor of `type`, never materialized unless used
    Scalar,   // a compile-time number
    Bool,     // a compile-time boolean
    IntList,  // a compile-time int list (sizes, dims)
    String,   // a string literal
    Tuple,    // std::tuple / grads / grad_input_mask
    Metadata, // scalar_type(), options(): accepted, carries no data
    RuntimeScalar, // a number known at run time only (a dynamic size, a
                   // count from one): `tensor` holds it as a 0-d f64 tensor
  };
  Kind kind = Kind::None;
  Value tensor;
  RankedTensorType type; // Tensor and Zero
  /// Zero: a tensor of `type` whose sizes a zero of dynamic shape takes
  /// when it must be materialized (null when none is known). IntList: the
  /// tensor whose sizes from `sizesOffset` on the list is, so that a
  /// dynamic element can be read at run time.
  Value sizesOf;
  int64_t sizesOffset = 0;
  double number = 0;
  bool isInteger = false;
  bool flag = false;
  SmallVector<int64_t> ints;
  std::string text;
  std::vector<FormulaValue> elements;

  static FormulaValue none() { return {}; }
  static FormulaValue ofTensor(Value value);
  static FormulaValue zero(RankedTensorType type, Value sizesOf = {});
  /// A zero of `like`'s type (shape and sizes as `like`'s).
  static FormulaValue zeroLike(const FormulaValue &like);
  static FormulaValue scalar(double value, bool isInteger);
  static FormulaValue boolean(bool value);
  static FormulaValue intList(ArrayRef<int64_t> values);
  /// The sizes of the tensor `value` (of `type`, null for a zero without a
  /// tensor to read them from).
  static FormulaValue sizesOfTensor(RankedTensorType type, Value value);
  /// A number computed at run time, held by the 0-d f64 tensor `value`.
  static FormulaValue runtimeScalar(Value value, bool isInteger);
  static FormulaValue string(StringRef value);
  static FormulaValue tuple(std::vector<FormulaValue> values);
  static FormulaValue metadata(StringRef what);

  bool isTensorLike() const { return kind == Kind::Tensor || kind == Kind::Zero; }
  /// A tensor-like value's sizes as a list that knows the tensor to read
  /// its dynamic sizes from (see sizesOf).
  FormulaValue sizes() const {
    return sizesOfTensor(type, kind == Kind::Tensor ? tensor : sizesOf);
  }
  /// "Tensor", "Scalar", ... for diagnostics.
  StringRef kindName() const;
};

using Bindings = llvm::StringMap<FormulaValue>;

/// Formula helpers (rules/helpers.yaml), by name.
using HelperTable = llvm::StringMap<const HelperEntry *>;

class Binder {
public:
  /// `opLoc` is the location of the op being differentiated (or, with
  /// `purpose` "decomposing", decomposed). Errors in a formula point at the
  /// formula and carry a note "while <purpose> this op" at `opLoc`; an op
  /// the formula builds that rejects the user's shapes is reported at
  /// `opLoc`, with the formula as a note.
  Binder(OpBuilder &builder, Location opLoc, const OpCatalog &catalog,
         const HelperTable &helpers, StringRef purpose = "differentiating")
      : builder(builder), opLoc(opLoc), purpose(purpose.str()),
        catalog(catalog), helpers(helpers) {}

  /// Evaluates `expr`, a formula read from `loc`, under `bindings`.
  FailureOr<FormulaValue> evaluate(const Expr &expr, const SourceLoc &loc,
                                   const Bindings &bindings);

  /// The tensor a value stands for: a Zero becomes a splat constant.
  /// The tensor `value` holds; a zero becomes a constant, or, for a
  /// dynamic shape, `zeros_like(like)` (an error at the op without `like`).
  FailureOr<Value> materialize(const FormulaValue &value, Value like = {});

  /// The formula-level value of schema argument `arg` given the op's
  /// attribute (null when absent: the schema default applies).
  static FormulaValue fromAttribute(const SchemaArgument &arg, Attribute attr);

  /// Whether `name` (as called, with or without at::/std::/_symint) is a
  /// builtin of the binder: a call to it resolves without a helper or op.
  /// `tadc --check-rules` resolves calls statically with it.
  static bool isBuiltinFunction(StringRef name);

  /// Builds the tad op `callee` with formula-level arguments (positional, as
  /// in a C++ call); returns its single result or a tuple of results.
  FailureOr<FormulaValue> buildOp(const CatalogOp &callee,
                                  ArrayRef<FormulaValue> args, Location loc);

private:
  struct Frame {
    const SourceLoc *loc;
    const Bindings *bindings;
  };

  FailureOr<FormulaValue> eval(const Expr &expr);
  FailureOr<FormulaValue> evalIdentifier(const Expr &expr);
  FailureOr<FormulaValue> evalUnary(const Expr &expr);
  FailureOr<FormulaValue> evalBinary(const Expr &expr);
  FailureOr<FormulaValue> evalCall(const Expr &expr);
  FailureOr<FormulaValue> evalIndex(const Expr &expr);
  FailureOr<FormulaValue> evalBraceList(const Expr &expr);

  /// Codegen pseudo-functions and C++ idioms (wrap_opt_if, std::vector,
  /// TensorGeometry, .back(), is_complex, `->` on an absent optional...),
  /// tried before callBuiltin (FormatBuiltins.cpp).
  std::optional<FailureOr<FormulaValue>>
  callFormatBuiltin(const Expr &expr, StringRef name,
                    std::vector<FormulaValue> &args);
  /// `name(args)` after builtins: a helper formula or a tad op.
  FailureOr<FormulaValue> callFunction(const Expr &expr, StringRef name,
                                       std::vector<FormulaValue> &args);
  /// Compile-time methods (`sym_sizes()`, `defined()`, `conj()`...); returns
  /// std::nullopt when `name` is not one of them.
  std::optional<FailureOr<FormulaValue>>
  callBuiltin(const Expr &expr, StringRef name,
              std::vector<FormulaValue> &args);
  /// List builtins of the tensor op families (cat_tensors_backward,
  /// permute_backwards, repeat_backward, ...), called from callBuiltin.
  std::optional<FailureOr<FormulaValue>>
  callTensorBuiltin(const Expr &expr, StringRef name,
                    std::vector<FormulaValue> &args);
  FailureOr<FormulaValue> callHelper(const Expr &expr,
                                     const HelperEntry &helper,
                                     ArrayRef<FormulaValue> args);

  /// Tensor arithmetic with symbolic zeros and scalars folded.
  FailureOr<FormulaValue> arithmetic(const Expr &expr, StringRef op,
                                     const FormulaValue &lhs,
                                     const FormulaValue &rhs);
  FailureOr<FormulaValue> callOpByName(const Expr &expr, StringRef base,
                                       ArrayRef<FormulaValue> args);

  /// Arithmetic where an operand is a run-time number: numbers combine
  /// as 0-d f64 tensors; with a tensor, the number is cast to its element
  /// type first.
  FailureOr<FormulaValue> runtimeArithmetic(const Expr &expr, StringRef op,
                                            const FormulaValue &lhs,
                                            const FormulaValue &rhs);
  /// Size `dim` of `sizes`' tensor: a constant where static, else read at
  /// run time through _shape_as_tensor.
  /// Size `d` of `tensor` as an index: an attribute when static, else read
  /// at run time through tad._shape_as_tensor.
  OpFoldResult indexSize(Value tensor, int64_t d);
  /// slice_backward over a dimension of run-time size: the gradient in
  /// zeros of the input's sizes at bounds clamped at run time.
  FailureOr<FormulaValue> sliceBackwardDynamic(
      const Expr &expr, const FormulaValue &grad, const FormulaValue &sizes,
      int64_t dim, const FormulaValue &start, const FormulaValue &end,
      const FormulaValue &step);
  /// cat_tensors_backward with a piece of dynamic extent: slices of the
  /// gradient at offsets computed at run time.
  FailureOr<FormulaValue> catBackwardDynamic(const Expr &expr,
                                             const FormulaValue &grad,
                                             ArrayRef<FormulaValue> pieces,
                                             int64_t dim);
  FailureOr<FormulaValue> sizeAt(const Expr &expr, const FormulaValue &sizes,
                                 int64_t index);
  /// The product of the sizes in `sizes` (a size list).
  FailureOr<FormulaValue> productOf(const Expr &expr,
                                    const FormulaValue &sizes);

  /// The location of `expr` inside the rule file.
  Location locationOf(const Expr &expr) const;
  InFlightDiagnostic error(const Expr &expr);
  /// An error in the user's program that the formula `expr` cannot handle
  /// (a dynamic size it computes with): at the op, the formula in a note.
  InFlightDiagnostic programError(const Expr &expr);

  OpBuilder &builder;
  Location opLoc;
  std::string purpose;
  const OpCatalog &catalog;
  const HelperTable &helpers;
  SmallVector<Frame> frames;
};

} // namespace mlir::tad::rules

#endif // TAD_COMPILER_RULES_BINDER_H
