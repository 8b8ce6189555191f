//===- Binder.cpp - evaluate derivative formulas into tad ops -------------===//
#include "compiler/rules/Binder.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/RuntimeSliceBounds.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::rules;

using Kind = FormulaValue::Kind;

/// Helpers may call helpers; a cycle in a rule file must not hang tadc.
static constexpr unsigned kMaxHelperDepth = 32;

/// Why a formula cannot use a dynamic size as a number: the rule engine
/// computes sizes at compile time (docs/dynamic-shapes.md).
static constexpr llvm::StringLiteral kDynamicSizeRule =
    "its value is known at run time only, and this rule computes with it at "
    "compile time (dynamic sizes are not supported by this rule yet)";

//===----------------------------------------------------------------------===//
// FormulaValue
//===----------------------------------------------------------------------===//

FormulaValue FormulaValue::ofTensor(Value value) {
  FormulaValue v;
  v.kind = Kind::Tensor;
  v.tensor = value;
  v.type = cast<RankedTensorType>(value.getType());
  return v;
}

FormulaValue FormulaValue::zero(RankedTensorType type, Value sizesOf) {
  FormulaValue v;
  v.kind = Kind::Zero;
  v.type = type;
  if (sizesOf && sizesOf.getType() == type)
    v.sizesOf = sizesOf;
  return v;
}

FormulaValue FormulaValue::zeroLike(const FormulaValue &like) {
  return zero(like.type, like.kind == Kind::Tensor ? like.tensor : like.sizesOf);
}

FormulaValue FormulaValue::scalar(double value, bool isInteger) {
  FormulaValue v;
  v.kind = Kind::Scalar;
  v.number = value;
  v.isInteger = isInteger;
  return v;
}

FormulaValue FormulaValue::boolean(bool value) {
  FormulaValue v;
  v.kind = Kind::Bool;
  v.flag = value;
  return v;
}

FormulaValue FormulaValue::intList(ArrayRef<int64_t> values) {
  FormulaValue v;
  v.kind = Kind::IntList;
  v.ints.assign(values.begin(), values.end());
  return v;
}

FormulaValue FormulaValue::sizesOfTensor(RankedTensorType type, Value value) {
  FormulaValue v = intList(type.getShape());
  if (value && value.getType() == type)
    v.sizesOf = value;
  return v;
}

FormulaValue FormulaValue::runtimeScalar(Value value, bool isInteger) {
  FormulaValue v;
  v.kind = Kind::RuntimeScalar;
  v.tensor = value;
  v.type = cast<RankedTensorType>(value.getType());
  v.isInteger = isInteger;
  return v;
}

FormulaValue FormulaValue::string(StringRef value) {
  FormulaValue v;
  v.kind = Kind::String;
  v.text = value.str();
  return v;
}

FormulaValue FormulaValue::tuple(std::vector<FormulaValue> values) {
  FormulaValue v;
  v.kind = Kind::Tuple;
  v.elements = std::move(values);
  return v;
}

FormulaValue FormulaValue::metadata(StringRef what) {
  FormulaValue v;
  v.kind = Kind::Metadata;
  v.text = what.str();
  return v;
}

StringRef FormulaValue::kindName() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Tensor:
  case Kind::Zero:
    return "Tensor";
  case Kind::Scalar:
    return isInteger ? "int" : "Scalar";
  case Kind::Bool:
    return "bool";
  case Kind::IntList:
    return "int[]";
  case Kind::String:
    return "str";
  case Kind::Tuple:
    return "tuple";
  case Kind::Metadata:
    return "metadata";
  case Kind::RuntimeScalar:
    return "run-time number";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Schema arguments <-> values and attributes
//===----------------------------------------------------------------------===//

/// Parses a schema default (`None`, `True`, `1`, `0.5`, `[]`, `[0,1]`,
/// `Mean`) into a value of `type`.
static FormulaValue parseDefault(const SchemaArgument &arg) {
  StringRef text = *arg.defaultValue;
  const SchemaType &type = arg.type.stripOptional();
  if (text == "None")
    return FormulaValue::none();
  if (text == "True" || text == "False")
    return FormulaValue::boolean(text == "True");
  if (std::optional<int64_t> reduction = llvm::StringSwitch<std::optional<int64_t>>(text)
                                             .Case("Mean", 1)
                                             .Case("Sum", 2)
                                             .Default(std::nullopt))
    return FormulaValue::scalar(*reduction, /*isInteger=*/true);
  if (text.consume_front("[") && text.consume_back("]")) {
    SmallVector<int64_t> values;
    SmallVector<StringRef> parts;
    text.split(parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      int64_t value = 0;
      (void)part.trim().getAsInteger(10, value);
      values.push_back(value);
    }
    return FormulaValue::intList(values);
  }
  int64_t integer = 0;
  if (!text.getAsInteger(10, integer)) {
    if (type.isList())
      return FormulaValue::intList(
          SmallVector<int64_t>(type.listSize.value_or(1), integer));
    return FormulaValue::scalar(integer, /*isInteger=*/true);
  }
  double real = 0;
  if (!text.getAsDouble(real))
    return FormulaValue::scalar(real, /*isInteger=*/false);
  return FormulaValue::string(text.trim("'\""));
}

FormulaValue Binder::fromAttribute(const SchemaArgument &arg, Attribute attr) {
  if (!attr)
    return arg.defaultValue ? parseDefault(arg) : FormulaValue::none();
  if (auto real = dyn_cast<FloatAttr>(attr))
    return FormulaValue::scalar(real.getValueAsDouble(), /*isInteger=*/false);
  if (auto flag = dyn_cast<BoolAttr>(attr))
    return FormulaValue::boolean(flag.getValue());
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return FormulaValue::scalar(integer.getInt(), /*isInteger=*/true);
  if (auto list = dyn_cast<DenseI64ArrayAttr>(attr))
    return FormulaValue::intList(list.asArrayRef());
  if (auto flags = dyn_cast<DenseBoolArrayAttr>(attr)) {
    std::vector<FormulaValue> elements;
    for (bool flag : flags.asArrayRef())
      elements.push_back(FormulaValue::boolean(flag));
    return FormulaValue::tuple(std::move(elements));
  }
  if (auto text = dyn_cast<StringAttr>(attr))
    return FormulaValue::string(text.getValue());
  return FormulaValue::metadata("attribute");
}

/// Whether `value` can be passed for a parameter of schema type `type`.
/// A run-time number passes for a number only where `runtimeNumbers` (a
/// helper's parameter: the helper's arithmetic handles it); an op's
/// number is an attribute, known at compile time.
static bool accepts(const SchemaType &type, const FormulaValue &value,
                    bool runtimeNumbers = false) {
  if (value.kind == Kind::None)
    return type.isOptional();
  const SchemaType &t = type.stripOptional();
  if (value.kind == Kind::RuntimeScalar)
    return runtimeNumbers && !t.isList() &&
           llvm::is_contained({"Scalar", "float", "int", "SymInt"}, t.base) &&
           (value.isInteger || !llvm::is_contained({"int", "SymInt"}, t.base));
  if (t.isTensorLike()) {
    if (!t.isList())
      return value.isTensorLike();
    return value.kind == Kind::Tuple &&
           llvm::all_of(value.elements,
                        [](const FormulaValue &e) { return e.isTensorLike(); });
  }
  if (t.isList()) {
    StringRef elem = t.innermost().base;
    if (elem == "bool") // bool[3] output_mask: a tuple of compile-time bools
      return value.kind == Kind::Tuple &&
             llvm::all_of(value.elements, [](const FormulaValue &e) {
               return e.kind == Kind::Bool;
             });
    if (elem != "int" && elem != "SymInt")
      return false;
    return value.kind == Kind::IntList ||
           (value.kind == Kind::Scalar && value.isInteger);
  }
  return llvm::StringSwitch<bool>(t.base)
      .Case("Scalar", value.kind == Kind::Scalar)
      .Cases({"int", "SymInt"}, value.kind == Kind::Scalar && value.isInteger)
      .Case("float", value.kind == Kind::Scalar)
      .Case("bool", value.kind == Kind::Bool)
      .Case("str", value.kind == Kind::String)
      .Cases({"ScalarType", "Layout", "Device", "MemoryFormat"},
             value.kind == Kind::Metadata)
      .Default(false);
}

/// A size list (`self.sym_sizes()` of a tensor with dynamic sizes) as the
/// view and expand ops take it: the one dynamic size of a view's list is
/// -1 (the view infers it from the element count), and a dynamic size
/// where expand's input is dynamic too is -1 (kept). Other lists are
/// returned as they are (the op's inference rejects a dynamic size).
static FormulaValue inferredSizes(StringRef op, ArrayRef<Value> operands,
                                  FormulaValue list) {
  auto dynamic = [](int64_t size) { return ShapedType::isDynamic(size); };
  if (llvm::none_of(list.ints, dynamic) || operands.empty())
    return list;
  if (llvm::is_contained({"view", "reshape", "_unsafe_view"}, op) &&
      llvm::count_if(list.ints, dynamic) == 1) {
    for (int64_t &size : list.ints)
      if (dynamic(size))
        size = -1;
    return list;
  }
  auto self = dyn_cast<RankedTensorType>(operands.front().getType());
  if (op == "expand" && self && self.getRank() <= static_cast<int64_t>(list.ints.size())) {
    size_t lead = list.ints.size() - self.getRank();
    for (size_t i = lead; i < list.ints.size(); ++i)
      if (dynamic(list.ints[i]) && self.isDynamicDim(i - lead))
        list.ints[i] = -1;
  }
  return list;
}

/// The attribute for a non-tensor argument, or null when it has no value.
static Attribute toAttribute(Builder &b, const SchemaType &type,
                             const FormulaValue &value) {
  const SchemaType &t = type.stripOptional();
  switch (value.kind) {
  case Kind::Scalar:
    if (t.isList())
      return b.getDenseI64ArrayAttr(SmallVector<int64_t>(
          t.listSize.value_or(1), static_cast<int64_t>(value.number)));
    if (t.base == "int" || t.base == "SymInt")
      return b.getI64IntegerAttr(static_cast<int64_t>(value.number));
    return b.getF64FloatAttr(value.number);
  case Kind::Bool:
    return b.getBoolAttr(value.flag);
  case Kind::IntList:
    return b.getDenseI64ArrayAttr(value.ints);
  case Kind::String:
    return b.getStringAttr(value.text);
  case Kind::Tuple: {
    // bool[N] (output_mask, grad_input_mask).
    SmallVector<bool> flags;
    for (const FormulaValue &element : value.elements) {
      if (element.kind != Kind::Bool)
        return {};
      flags.push_back(element.flag);
    }
    return b.getDenseBoolArrayAttr(flags);
  }
  default:
    return {};
  }
}

//===----------------------------------------------------------------------===//
// Building ops
//===----------------------------------------------------------------------===//

FailureOr<Value> Binder::materialize(const FormulaValue &value, Value like) {
  if (value.kind == Kind::Tensor)
    return value.tensor;
  assert(value.kind == Kind::Zero && "only tensors materialize");
  if (!value.type.hasStaticShape()) {
    // A constant has a static shape; zeros of a dynamic one take their
    // sizes from a tensor of the same type.
    if (!like || like.getType() != value.type)
      like = value.sizesOf;
    if (like && like.getType() == value.type)
      return ZerosLikeOp::create(builder, opLoc, like).getResult();
    return emitError(opLoc)
           << "a zero tensor of dynamic shape " << value.type
           << " is needed here, which this rule cannot build yet "
              "(docs/dynamic-shapes.md)";
  }
  Attribute zero = isa<FloatType>(value.type.getElementType())
                       ? Attribute(builder.getFloatAttr(
                             value.type.getElementType(), 0.0))
                       : Attribute(builder.getIntegerAttr(
                             value.type.getElementType(), 0));
  return ConstantOp::create(builder, opLoc,
                            DenseElementsAttr::get(value.type, zero))
      .getResult();
}

FailureOr<FormulaValue> Binder::buildOp(const CatalogOp &callee,
                                        ArrayRef<FormulaValue> args,
                                        Location loc) {
  const Schema &schema = callee.schema;
  SmallVector<Value> operands;
  SmallVector<int32_t> segments;
  SmallVector<NamedAttribute> attributes;
  for (auto [index, arg] : llvm::enumerate(schema.arguments)) {
    bool given = index < args.size();
    FormulaValue value = given ? args[index]
                         : arg.defaultValue ? parseDefault(arg)
                                            : FormulaValue::none();
    if (arg.type.isTensorLike()) {
      // One operand for Tensor, none for an absent Tensor?, one per element
      // for Tensor[].
      if (arg.type.stripOptional().isList() && value.kind == Kind::Tuple) {
        for (const FormulaValue &element : value.elements) {
          FailureOr<Value> operand = materialize(element);
          if (failed(operand))
            return failure();
          operands.push_back(*operand);
        }
        segments.push_back(value.elements.size());
      } else if (value.kind == Kind::None && arg.type.isOptional()) {
        segments.push_back(0);
      } else if (value.isTensorLike()) {
        FailureOr<Value> operand = materialize(value);
        if (failed(operand))
          return failure();
        operands.push_back(*operand);
        segments.push_back(1);
      } else {
        return emitError(loc) << "argument '" << arg.name << "' of '"
                              << schema.fullName() << "' must be a tensor";
      }
      continue;
    }
    if (value.kind == Kind::IntList)
      value = inferredSizes(schema.baseName, operands, std::move(value));
    Attribute attr = toAttribute(builder, arg.type, value);
    if (!attr)
      continue;
    if (callee.hasAttribute(arg.name)) {
      attributes.push_back(builder.getNamedAttr(arg.name, attr));
    } else if (given) {
      return emitError(loc) << "'tad." << schema.fullName()
                            << "' does not support argument '" << arg.name
                            << "'";
    }
  }

  if (callee.name.hasTrait<OpTrait::AttrSizedOperandSegments>())
    attributes.push_back(builder.getNamedAttr(
        "operandSegmentSizes", builder.getDenseI32ArrayAttr(segments)));

  auto *inference = callee.name.getInterface<InferTypeOpInterface>();
  if (!inference)
    return emitError(loc) << "'tad." << schema.fullName()
                          << "' cannot infer its result types";
  DictionaryAttr attrDict = builder.getDictionaryAttr(attributes);
  SmallVector<Type> resultTypes;
  // An op the formula builds that rejects its operands is a property of
  // the user's program (its shapes), not of the formula: reported at the
  // user's op, with the formula as a note. (Errors in a formula itself,
  // error(), stand at the formula.)
  std::string inferenceError;
  LogicalResult inferred = success();
  {
    ScopedDiagnosticHandler capture(builder.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      inferenceError = d.str();
      return success();
    });
    inferred = inference->inferReturnTypes(
        builder.getContext(), loc, operands, attrDict,
        OpaqueProperties(nullptr), RegionRange(), resultTypes);
  }
  if (failed(inferred)) {
    InFlightDiagnostic diag = emitError(opLoc) << inferenceError;
    diag.attachNote(loc) << "while " << purpose
                         << " this op with this rule formula";
    return failure();
  }

  OperationState state(opLoc, callee.name);
  state.addOperands(operands);
  state.addAttributes(attributes);
  state.addTypes(resultTypes);
  Operation *op = builder.create(state);
  if (failed(verify(op))) {
    op->erase();
    return emitError(loc) << "formula built an invalid 'tad."
                          << schema.fullName() << "'";
  }
  bool returnsList = llvm::any_of(schema.returns, [](const SchemaReturn &r) {
    return r.type.isList();
  });
  if (op->getNumResults() == 1 && !returnsList)
    return FormulaValue::ofTensor(op->getResult(0));
  std::vector<FormulaValue> results;
  for (Value result : op->getResults())
    results.push_back(FormulaValue::ofTensor(result));
  return FormulaValue::tuple(std::move(results));
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

Location Binder::locationOf(const Expr &expr) const {
  const SourceLoc &loc = *frames.back().loc;
  return FileLineColLoc::get(builder.getContext(), loc.file, loc.line,
                             loc.col + expr.offset);
}

InFlightDiagnostic Binder::error(const Expr &expr) {
  InFlightDiagnostic diag = emitError(locationOf(expr));
  diag.attachNote(opLoc) << "while " << purpose << " this op";
  return diag;
}

InFlightDiagnostic Binder::programError(const Expr &expr) {
  InFlightDiagnostic diag = emitError(opLoc);
  diag.attachNote(locationOf(expr)) << "in this rule formula, while " << purpose
                                    << " the op";
  return diag;
}

FailureOr<FormulaValue> Binder::evaluate(const Expr &expr,
                                         const SourceLoc &loc,
                                         const Bindings &bindings) {
  frames.push_back({&loc, &bindings});
  FailureOr<FormulaValue> result = eval(expr);
  frames.pop_back();
  return result;
}

FailureOr<FormulaValue> Binder::eval(const Expr &expr) {
  switch (expr.kind) {
  case Expr::Kind::Identifier:
    return evalIdentifier(expr);
  case Expr::Kind::Integer:
    return FormulaValue::scalar(expr.intValue(), /*isInteger=*/true);
  case Expr::Kind::Float:
    return FormulaValue::scalar(expr.floatValue(), /*isInteger=*/false);
  case Expr::Kind::Bool:
    return FormulaValue::boolean(expr.boolValue());
  case Expr::Kind::String:
    return FormulaValue::string(expr.name);
  case Expr::Kind::Unary:
    return evalUnary(expr);
  case Expr::Kind::Binary:
    return evalBinary(expr);
  case Expr::Kind::Ternary: {
    FailureOr<FormulaValue> cond = eval(*expr.operands[0]);
    if (failed(cond))
      return failure();
    if (cond->kind != Kind::Bool)
      return error(*expr.operands[0])
             << "condition must be known at compile time, got a "
             << cond->kindName();
    return eval(*expr.operands[cond->flag ? 1 : 2]);
  }
  case Expr::Kind::Call:
  case Expr::Kind::MethodCall:
  case Expr::Kind::ArrowCall:
    return evalCall(expr);
  case Expr::Kind::Index:
    return evalIndex(expr);
  case Expr::Kind::BraceList:
    return evalBraceList(expr);
  case Expr::Kind::Lambda:
    return error(expr) << "lambdas are not supported in tad formulas";
  }
  return error(expr) << "unsupported expression";
}

FailureOr<FormulaValue> Binder::evalIdentifier(const Expr &expr) {
  const Bindings &bindings = *frames.back().bindings;
  auto it = bindings.find(expr.name);
  if (it != bindings.end())
    return it->second;
  StringRef name = expr.name;
  if (name == "M_PI")
    return FormulaValue::scalar(M_PI, false);
  if (name == "M_LN2")
    return FormulaValue::scalar(M_LN2, false);
  if (name == "M_SQRT2")
    return FormulaValue::scalar(M_SQRT2, false);
  if (name == "M_2_SQRTPI")
    return FormulaValue::scalar(M_2_SQRTPI, false);
  if (name.consume_front("at::Reduction::")) {
    std::optional<int64_t> value = llvm::StringSwitch<std::optional<int64_t>>(name)
                                       .Case("None", 0)
                                       .Case("Mean", 1)
                                       .Case("Sum", 2)
                                       .Default(std::nullopt);
    if (value)
      return FormulaValue::scalar(*value, /*isInteger=*/true);
  }
  if (name.contains("MemoryFormat::"))
    return FormulaValue::metadata(name);
  return error(expr) << "unknown identifier '" << expr.name << "'";
}

FailureOr<FormulaValue> Binder::evalUnary(const Expr &expr) {
  FailureOr<FormulaValue> x = eval(*expr.operands[0]);
  if (failed(x))
    return failure();
  if (expr.name == "*") // dereferencing an optional
    return x;
  if (expr.name == "!") {
    if (x->kind != Kind::Bool)
      return error(expr) << "'!' needs a compile-time bool, got a "
                         << x->kindName();
    return FormulaValue::boolean(!x->flag);
  }
  if (expr.name == "-") {
    if (x->kind == Kind::Scalar)
      return FormulaValue::scalar(-x->number, x->isInteger);
    if (x->kind == Kind::RuntimeScalar) {
      FailureOr<FormulaValue> negated =
          callOpByName(expr, "neg", {FormulaValue::ofTensor(x->tensor)});
      if (failed(negated))
        return failure();
      return FormulaValue::runtimeScalar(negated->tensor, x->isInteger);
    }
    if (x->kind == Kind::Zero)
      return x;
    if (x->kind == Kind::Tensor)
      return callOpByName(expr, "neg", {*x});
  }
  return error(expr) << "unsupported unary '" << expr.name << "' on a "
                     << x->kindName();
}

FailureOr<FormulaValue> Binder::evalBinary(const Expr &expr) {
  StringRef op = expr.name;
  FailureOr<FormulaValue> lhs = eval(*expr.operands[0]);
  if (failed(lhs))
    return failure();
  // Short-circuit compile-time logic so that `x.defined() && x.f()` works.
  if ((op == "&&" || op == "||") && lhs->kind == Kind::Bool &&
      lhs->flag == (op == "||"))
    return lhs;
  FailureOr<FormulaValue> rhs = eval(*expr.operands[1]);
  if (failed(rhs))
    return failure();
  return arithmetic(expr, op, *lhs, *rhs);
}

/// Folds scalar (and bool) arithmetic.
static std::optional<FormulaValue> foldScalars(StringRef op,
                                               const FormulaValue &l,
                                               const FormulaValue &r) {
  if (l.kind == Kind::Bool && r.kind == Kind::Bool) {
    if (op == "&&" || op == "&")
      return FormulaValue::boolean(l.flag && r.flag);
    if (op == "||" || op == "|")
      return FormulaValue::boolean(l.flag || r.flag);
    if (op == "==")
      return FormulaValue::boolean(l.flag == r.flag);
    if (op == "!=")
      return FormulaValue::boolean(l.flag != r.flag);
    return std::nullopt;
  }
  if (l.kind == Kind::String && r.kind == Kind::String) {
    if (op == "==")
      return FormulaValue::boolean(l.text == r.text);
    if (op == "!=")
      return FormulaValue::boolean(l.text != r.text);
    return std::nullopt;
  }
  // int lists: `+` concatenates, `==` compares.
  if (l.kind == Kind::IntList && r.kind == Kind::IntList) {
    if (op == "+") {
      SmallVector<int64_t> joined(l.ints);
      joined.append(r.ints.begin(), r.ints.end());
      return FormulaValue::intList(joined);
    }
    if (op == "==" || op == "!=")
      return FormulaValue::boolean((l.ints == r.ints) == (op == "=="));
    return std::nullopt;
  }
  if (l.kind != Kind::Scalar || r.kind != Kind::Scalar)
    return std::nullopt;
  bool integer = l.isInteger && r.isInteger;
  double a = l.number, b = r.number;
  if (op == "+")
    return FormulaValue::scalar(a + b, integer);
  if (op == "-")
    return FormulaValue::scalar(a - b, integer);
  if (op == "*")
    return FormulaValue::scalar(a * b, integer);
  if (op == "/")
    return FormulaValue::scalar(integer && b != 0 ? std::trunc(a / b) : a / b,
                                integer);
  if (op == "<")
    return FormulaValue::boolean(a < b);
  if (op == "<=")
    return FormulaValue::boolean(a <= b);
  if (op == ">")
    return FormulaValue::boolean(a > b);
  if (op == ">=")
    return FormulaValue::boolean(a >= b);
  if (op == "==")
    return FormulaValue::boolean(a == b);
  if (op == "!=")
    return FormulaValue::boolean(a != b);
  return std::nullopt;
}

FailureOr<FormulaValue> Binder::arithmetic(const Expr &expr, StringRef op,
                                           const FormulaValue &lhs,
                                           const FormulaValue &rhs) {
  if (std::optional<FormulaValue> folded = foldScalars(op, lhs, rhs))
    return *folded;
  if (lhs.kind == Kind::RuntimeScalar || rhs.kind == Kind::RuntimeScalar)
    return runtimeArithmetic(expr, op, lhs, rhs);

  bool lTensor = lhs.isTensorLike(), rTensor = rhs.isTensorLike();
  bool lScalar = lhs.kind == Kind::Scalar, rScalar = rhs.kind == Kind::Scalar;
  if (!((lTensor || lScalar) && (rTensor || rScalar)))
    return error(expr) << "unsupported operands of '" << op << "': "
                       << lhs.kindName() << " and " << rhs.kindName();

  // Symbolic zeros: x + 0 = x, 0 * x = 0, 0 / x = 0, x - 0 = x, 0 - x = -x.
  auto zeroLike = [&](const FormulaValue &a,
                      const FormulaValue &b) -> FailureOr<FormulaValue> {
    if (!a.isTensorLike() || !b.isTensorLike())
      return FormulaValue::zeroLike(a.isTensorLike() ? a : b);
    std::optional<SmallVector<int64_t>> shape =
        broadcastShapes(a.type.getShape(), b.type.getShape());
    if (!shape)
      return error(expr) << "shapes " << shapeToString(a.type.getShape())
                         << " and " << shapeToString(b.type.getShape())
                         << " are not broadcast-compatible";
    auto type = RankedTensorType::get(*shape, a.type.getElementType());
    // Sizes from an operand of the result's type, if there is one.
    Value sizesOf;
    for (const FormulaValue *operand : {&a, &b})
      if (!sizesOf && operand->type == type)
        sizesOf = FormulaValue::zeroLike(*operand).sizesOf;
    return FormulaValue::zero(type, sizesOf);
  };
  bool lZero = lhs.kind == Kind::Zero, rZero = rhs.kind == Kind::Zero;
  if (op == "*" && (lZero || rZero))
    return zeroLike(lhs, rhs);
  if (op == "/" && lZero)
    return zeroLike(lhs, rhs);
  if ((op == "+" || op == "-") && rZero && lTensor &&
      succeeded(zeroLike(lhs, rhs)) && zeroLike(lhs, rhs)->type == lhs.type)
    return lhs;
  if (op == "+" && lZero && rTensor && zeroLike(lhs, rhs)->type == rhs.type)
    return rhs;
  if (op == "-" && lZero && rTensor && zeroLike(lhs, rhs)->type == rhs.type)
    return callOpByName(expr, "neg", {rhs});

  StringRef base = llvm::StringSwitch<StringRef>(op)
                       .Case("+", "add")
                       .Case("-", "sub")
                       .Case("*", "mul")
                       .Case("/", "div")
                       .Case("<", "lt")
                       .Case("<=", "le")
                       .Case(">", "gt")
                       .Case(">=", "ge")
                       .Case("==", "eq")
                       .Case("!=", "ne")
                       .Case("&", "logical_and")
                       .Case("&&", "logical_and")
                       .Case("|", "logical_or")
                       .Case("||", "logical_or")
                       .Default("");
  if (base.empty())
    return error(expr) << "unsupported operator '" << op << "'";
  if (lTensor)
    return callOpByName(expr, base, {lhs, rhs});

  // scalar (op) tensor: commute, or rewrite through rsub / full_like.
  if (op == "+" || op == "*")
    return callOpByName(expr, base, {rhs, lhs});
  if (op == "-")
    return callOpByName(expr, "rsub", {rhs, lhs});
  if (op == "/") {
    FailureOr<FormulaValue> filled = callOpByName(expr, "full_like", {rhs, lhs});
    if (failed(filled))
      return failure();
    return callOpByName(expr, "div", {*filled, rhs});
  }
  return error(expr) << "unsupported operands of '" << op << "': "
                     << lhs.kindName() << " and " << rhs.kindName();
}

FailureOr<FormulaValue> Binder::runtimeArithmetic(const Expr &expr,
                                                  StringRef op,
                                                  const FormulaValue &lhs,
                                                  const FormulaValue &rhs) {
  auto isNumber = [](const FormulaValue &v) {
    return v.kind == Kind::Scalar || v.kind == Kind::RuntimeScalar;
  };
  if (!(isNumber(lhs) || lhs.isTensorLike()) ||
      !(isNumber(rhs) || rhs.isTensorLike()))
    return error(expr) << "unsupported operands of '" << op << "': "
                       << lhs.kindName() << " and " << rhs.kindName();
  if (!llvm::is_contained({"+", "-", "*", "/"}, op))
    return programError(expr) << "'" << op << "' decides on a size known "
                              << "only at run time; " << kDynamicSizeRule;

  // Two numbers: 0-d f64 tensor arithmetic. Integer division truncates
  // as C++'s does; counts are never negative, so floor does.
  if (isNumber(lhs) && isNumber(rhs)) {
    auto asTensor = [](const FormulaValue &v) {
      return v.kind == Kind::RuntimeScalar ? FormulaValue::ofTensor(v.tensor)
                                           : v;
    };
    FailureOr<FormulaValue> result =
        arithmetic(expr, op, asTensor(lhs), asTensor(rhs));
    if (failed(result))
      return failure();
    bool integer = lhs.isInteger && rhs.isInteger;
    if (integer && op == "/") {
      result = callOpByName(expr, "floor", {*result});
      if (failed(result))
        return failure();
    }
    return FormulaValue::runtimeScalar(result->tensor, integer);
  }

  // A tensor and a number: the number as a 0-d tensor of its element type.
  Type element = (lhs.isTensorLike() ? lhs : rhs).type.getElementType();
  auto asElement = [&](const FormulaValue &v) {
    if (v.kind != Kind::RuntimeScalar)
      return v;
    if (v.type.getElementType() == element)
      return FormulaValue::ofTensor(v.tensor);
    return FormulaValue::ofTensor(
        ToCopyOp::create(builder, opLoc, RankedTensorType(v.type).clone(element), v.tensor,
                         TypeAttr::get(element)));
  };
  return arithmetic(expr, op, asElement(lhs), asElement(rhs));
}

OpFoldResult Binder::indexSize(Value tensor, int64_t d) {
  int64_t size = cast<RankedTensorType>(tensor.getType()).getDimSize(d);
  if (!ShapedType::isDynamic(size))
    return builder.getIndexAttr(size);
  // Through tad._shape_as_tensor, the op the VJP may read a primal's sizes
  // with (metadata it keeps; folds to tensor.dim).
  Value shape = ShapeAsTensorOp::create(builder, opLoc, tensor);
  Value index = arith::ConstantIndexOp::create(builder, opLoc, d);
  Value element = tensor::ExtractOp::create(builder, opLoc, shape, index);
  return arith::IndexCastOp::create(builder, opLoc, builder.getIndexType(),
                                    element)
      .getResult();
}

FailureOr<FormulaValue>
Binder::catBackwardDynamic(const Expr &expr, const FormulaValue &grad,
                           ArrayRef<FormulaValue> pieces, int64_t dim) {
  // A piece of dynamic extent along `dim` has no split_with_sizes (its
  // sizes are attributes): each piece is a tensor.extract_slice of the
  // gradient at the running sum of the extents before it, read at run time
  // from the inputs.
  Value gradient = grad.tensor;
  int64_t rank = grad.type.getRank();
  OpFoldResult offset = builder.getIndexAttr(0);
  std::vector<FormulaValue> results;
  for (const FormulaValue &sizes : pieces) {
    if (!sizes.sizesOf && llvm::any_of(sizes.ints, ShapedType::isDynamic))
      return programError(expr)
             << "cat_tensors_backward: a piece of dynamic size without its "
                "tensor; "
             << kDynamicSizeRule;
    SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
    SmallVector<OpFoldResult> extent, strides(rank, builder.getIndexAttr(1));
    offsets[dim] = offset;
    for (int64_t d = 0; d < rank; ++d)
      extent.push_back(ShapedType::isDynamic(sizes.ints[d])
                           ? indexSize(sizes.sizesOf, d)
                           : builder.getIndexAttr(sizes.ints[d]));
    auto type = RankedTensorType::get(sizes.ints, grad.type.getElementType());
    Value piece = tensor::ExtractSliceOp::create(builder, opLoc, type,
                                                 gradient, offsets, extent,
                                                 strides);
    results.push_back(FormulaValue::ofTensor(piece));
    // The next piece starts after this one.
    offset = arith::AddIOp::create(
                 builder, opLoc,
                 getValueOrCreateConstantIndexOp(builder, opLoc, offset),
                 getValueOrCreateConstantIndexOp(builder, opLoc, extent[dim]))
                 .getResult();
  }
  return FormulaValue::tuple(std::move(results));
}

FailureOr<FormulaValue>
Binder::sliceBackwardDynamic(const Expr &expr, const FormulaValue &grad,
                             const FormulaValue &sizes, int64_t dim,
                             const FormulaValue &start,
                             const FormulaValue &end,
                             const FormulaValue &step) {
  Value input = sizes.sizesOf;
  auto type = cast<RankedTensorType>(input.getType());
  if (grad.kind == Kind::Zero)
    return FormulaValue::zero(type.clone(grad.type.getElementType()), input);
  // A bound is a number, or (an absent end: sizes[dim]) the run-time size.
  // (Numbers are doubles here: INT64_MAX, PyTorch's end of x[1:], would
  // not convert back; clamped first.)
  auto bound = [&](const FormulaValue &v) -> std::optional<int64_t> {
    if (v.kind == Kind::Scalar)
      return static_cast<int64_t>(std::clamp(v.number, -0x1p62, 0x1p62));
    return std::nullopt;
  };
  if (step.kind != Kind::Scalar || start.kind != Kind::Scalar ||
      (end.kind != Kind::Scalar && end.kind != Kind::RuntimeScalar))
    return programError(expr) << "slice_backward over a dynamic dimension "
                                 "needs constant start, end and step";
  int64_t rank = type.getRank();
  auto [offset, length] = buildSliceBounds(
      builder, opLoc,
      getValueOrCreateConstantIndexOp(builder, opLoc, indexSize(input, dim)),
      bound(start), bound(end), static_cast<int64_t>(step.number));
  SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0)),
      extent, strides(rank, builder.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    extent.push_back(d == dim ? OpFoldResult(length) : indexSize(input, d));
  offsets[dim] = offset;
  strides[dim] = builder.getIndexAttr(static_cast<int64_t>(step.number));
  auto resultType = type.clone(grad.type.getElementType());
  Value zeros = ZerosLikeOp::create(builder, opLoc, resultType, input);
  Value placed = tensor::InsertSliceOp::create(builder, opLoc, grad.tensor,
                                               zeros, offsets, extent, strides);
  return FormulaValue::ofTensor(placed);
}

FailureOr<FormulaValue> Binder::sizeAt(const Expr &expr,
                                       const FormulaValue &sizes,
                                       int64_t index) {
  int64_t size = sizes.ints[index];
  if (!ShapedType::isDynamic(size))
    return FormulaValue::scalar(size, true);
  if (!sizes.sizesOf)
    return programError(expr) << "element " << index << " of the sizes is "
                              << "dynamic and no tensor of these sizes is at "
                              << "hand; " << kDynamicSizeRule;
  // size(dim) as a 0-d f64 tensor: exact for any count below 2^53.
  Type f64 = builder.getF64Type();
  Value shape = ShapeAsTensorOp::create(builder, opLoc, sizes.sizesOf);
  Value element = SelectIntOp::create(builder, opLoc, shape, /*dim=*/0,
                                      sizes.sizesOffset + index);
  Value number = ToCopyOp::create(builder, opLoc,
                                  RankedTensorType::get({}, f64), element,
                                  TypeAttr::get(f64));
  return FormulaValue::runtimeScalar(number, /*isInteger=*/true);
}

FailureOr<FormulaValue> Binder::productOf(const Expr &expr,
                                          const FormulaValue &sizes) {
  int64_t known = 1;
  std::optional<FormulaValue> dynamic;
  for (auto [i, size] : llvm::enumerate(sizes.ints)) {
    if (!ShapedType::isDynamic(size)) {
      known *= size;
      continue;
    }
    FailureOr<FormulaValue> factor = sizeAt(expr, sizes, i);
    if (failed(factor))
      return failure();
    if (dynamic)
      factor = arithmetic(expr, "*", *dynamic, *factor);
    if (failed(factor))
      return failure();
    dynamic = *factor;
  }
  FormulaValue constant = FormulaValue::scalar(known, true);
  if (!dynamic)
    return constant;
  if (known == 1)
    return *dynamic;
  return arithmetic(expr, "*", *dynamic, constant);
}

FailureOr<FormulaValue> Binder::evalIndex(const Expr &expr) {
  FailureOr<FormulaValue> base = eval(*expr.operands[0]);
  FailureOr<FormulaValue> index = eval(*expr.operands[1]);
  if (failed(base) || failed(index))
    return failure();
  if (index->kind != Kind::Scalar || !index->isInteger)
    return error(expr) << "index must be a compile-time integer";
  int64_t i = static_cast<int64_t>(index->number);
  if (base->kind == Kind::Tuple) {
    if (i < 0 || i >= static_cast<int64_t>(base->elements.size()))
      return error(expr) << "index " << i << " is out of range [0, "
                         << base->elements.size() << ")";
    return base->elements[i];
  }
  if (base->kind == Kind::IntList) {
    int64_t size = base->ints.size();
    if (i < -size || i >= size)
      return error(expr) << "index " << i << " is out of range for a list of "
                         << size;
    return sizeAt(expr, *base, i < 0 ? i + size : i);
  }
  return error(expr) << "cannot index a " << base->kindName();
}

FailureOr<FormulaValue> Binder::evalBraceList(const Expr &expr) {
  std::vector<FormulaValue> values;
  bool allIntegers = true;
  for (const ExprPtr &element : expr.operands) {
    FailureOr<FormulaValue> value = eval(*element);
    if (failed(value))
      return failure();
    if (value->kind == Kind::RuntimeScalar)
      return programError(*element)
             << "a size known only at run time in a size list; "
             << kDynamicSizeRule;
    allIntegers &= value->kind == Kind::Scalar && value->isInteger;
    values.push_back(*value);
  }
  if (!allIntegers)
    return FormulaValue::tuple(std::move(values));
  SmallVector<int64_t> ints;
  for (const FormulaValue &value : values)
    ints.push_back(static_cast<int64_t>(value.number));
  return FormulaValue::intList(ints);
}

FailureOr<FormulaValue> Binder::evalCall(const Expr &expr) {
  StringRef name = expr.name;
  if (expr.kind == Expr::Kind::Call) {
    if (name == "std::get") {
      if (expr.templateArgs.size() != 1 || expr.operands.size() != 1)
        return error(expr) << "std::get needs one index and one tuple";
      FailureOr<FormulaValue> tuple = eval(*expr.operands[0]);
      if (failed(tuple))
        return failure();
      int64_t index = 0;
      if (tuple->kind != Kind::Tuple ||
          StringRef(expr.templateArgs[0]).getAsInteger(10, index) ||
          index < 0 || index >= static_cast<int64_t>(tuple->elements.size()))
        return error(expr) << "std::get<" << expr.templateArgs[0]
                           << "> of a " << tuple->kindName();
      return tuple->elements[index];
    }
    if (name == "std::tuple" && expr.operands.empty())
      return FormulaValue::tuple(std::vector<FormulaValue>(
          expr.templateArgs.size(), FormulaValue::none()));
    if (name == "Tensor" && expr.operands.empty())
      return FormulaValue::none();
    if (name == "GradMode::is_enabled" || name == "at::GradMode::is_enabled")
      return FormulaValue::boolean(true); // formulas must stay differentiable
    if (name == "not_implemented" || name == "not_implemented_list") {
      // Upstream passes the function's name; our rules pass what is missing.
      if (!expr.operands.empty() && expr.operands[0]->kind == Expr::Kind::String)
        return error(expr) << "not implemented: " << expr.operands[0]->name;
      return error(expr) << "not implemented";
    }
  }

  std::vector<FormulaValue> args;
  for (const ExprPtr &operand : expr.operands) {
    FailureOr<FormulaValue> value = eval(*operand);
    if (failed(value))
      return failure();
    args.push_back(std::move(*value));
  }
  // std::make_tuple(a, b): the results of a multi-result decomposition.
  if (name == "std::make_tuple")
    return FormulaValue::tuple(std::move(args));
  name.consume_front("at::");
  name.consume_front("std::");
  name.consume_front("c10::");
  name.consume_back("_symint");
  if (std::optional<FailureOr<FormulaValue>> builtin =
          callFormatBuiltin(expr, name, args))
    return *builtin;
  if (std::optional<FailureOr<FormulaValue>> builtin =
          callBuiltin(expr, name, args))
    return *builtin;
  return callFunction(expr, name, args);
}

std::optional<FailureOr<FormulaValue>>
Binder::callBuiltin(const Expr &expr, StringRef name,
                    std::vector<FormulaValue> &args) {
  auto fail = [&](const Twine &message) -> FailureOr<FormulaValue> {
    return error(expr) << message;
  };
  if (args.empty())
    return std::nullopt;
  const FormulaValue &self = args[0];
  // range(begin, end): the int list [begin, end), for dimension lists that
  // depend on a rank (normalized dims, all dims but the channel).
  if (name == "range" && args.size() == 2 && args[0].kind == Kind::Scalar &&
      args[1].kind == Kind::Scalar && args[0].isInteger && args[1].isInteger) {
    SmallVector<int64_t> values;
    for (int64_t i = static_cast<int64_t>(args[0].number),
                 e = static_cast<int64_t>(args[1].number);
         i < e; ++i)
      values.push_back(i);
    return FormulaValue::intList(values);
  }
  // list_slice(list, begin, end): elements [begin, end) of an int list;
  // broadcast_shapes(a, b): ATen broadcasting of two size lists. For the
  // decompositions (flatten, linear, matmul) whose sizes depend on a rank.
  if (name == "list_slice" && args.size() == 3 && self.kind == Kind::IntList &&
      args[1].kind == Kind::Scalar && args[2].kind == Kind::Scalar) {
    int64_t size = self.ints.size();
    int64_t begin = std::clamp<int64_t>(static_cast<int64_t>(args[1].number), 0, size);
    int64_t end = std::clamp<int64_t>(static_cast<int64_t>(args[2].number), begin, size);
    FormulaValue slice =
        FormulaValue::intList(ArrayRef<int64_t>(self.ints).slice(begin, end - begin));
    slice.sizesOf = self.sizesOf;
    slice.sizesOffset = self.sizesOffset + begin;
    return slice;
  }
  // multiply_integers(list): the product of a size list (1 for an empty
  // one), e.g. the number of elements a norm reduces over: static where
  // those sizes are, whatever the other sizes of the tensor are.
  if (name == "multiply_integers" && args.size() == 1 &&
      self.kind == Kind::IntList)
    return productOf(expr, self);
  if (name == "broadcast_shapes" && args.size() == 2 && self.kind == Kind::IntList &&
      args[1].kind == Kind::IntList) {
    std::optional<SmallVector<int64_t>> shape = broadcastShapes(self.ints, args[1].ints);
    if (!shape)
      return fail("broadcast_shapes: sizes do not broadcast");
    return FormulaValue::intList(*shape);
  }
  // `bias->sym_sizes()` of an absent optional tensor is an absent list.
  if (llvm::is_contained({"sizes", "sym_sizes"}, name) && args.size() == 1 &&
      self.kind == Kind::None)
    return FormulaValue::none();
  auto needTensor = [&]() { return self.isTensorLike(); };

  // Identities for real tensors and value semantics.
  if (llvm::is_contained({"conj", "contiguous", "resolve_conj", "value",
                          "toDouble", "toFloat", "IntArrayRef", "clone"},
                         name) &&
      (args.size() == 1 || name == "clone"))
    return self;
  if (name == "handle_r_to_c" && args.size() == 2)
    return args[1];
  if (name == "to" && llvm::all_of(ArrayRef(args).drop_front(), [](auto &a) {
        return a.kind == Kind::Metadata || a.kind == Kind::None ||
               a.kind == Kind::Bool;
      }))
    return self;

  // Compile-time metadata.
  if (llvm::is_contained({"sizes", "sym_sizes"}, name) && args.size() == 1) {
    if (!needTensor())
      return fail("'" + name + "' needs a tensor");
    return self.sizes();
  }
  if (llvm::is_contained({"size", "sym_size"}, name) && args.size() == 2) {
    if (!needTensor() || args[1].kind != Kind::Scalar)
      return fail("'" + name + "' needs a tensor and a dimension");
    std::optional<int64_t> dim =
        wrapDim(static_cast<int64_t>(args[1].number), self.type.getRank());
    if (!dim)
      return fail("dimension out of range");
    return sizeAt(expr, self.sizes(), *dim);
  }
  if (name == "size" && args.size() == 1 && self.kind == Kind::IntList)
    return FormulaValue::scalar(self.ints.size(), true);
  // Re-inserts reduced dimensions as size 1; a loop over a dimension list,
  // which the formula language cannot write.
  if (name == "unsqueeze_multiple" && args.size() == 3 && needTensor()) {
    if (args[2].kind != Kind::Scalar ||
        (args[1].kind != Kind::IntList && args[1].kind != Kind::None))
      return fail("unsqueeze_multiple(Tensor, int[]? dims, int n_dims)");
    int64_t rank = static_cast<int64_t>(args[2].number);
    std::optional<SmallVector<int64_t>> dims = wrapDims(args[1].ints, rank);
    if (!dims || self.type.getRank() + static_cast<int64_t>(dims->size()) != rank)
      return fail("unsqueeze_multiple: dims do not match the tensor's rank");
    SmallVector<int64_t> shape;
    ArrayRef<int64_t> kept = self.type.getShape();
    for (int64_t i = 0; i < rank; ++i) {
      if (llvm::is_contained(*dims, i)) {
        shape.push_back(1);
      } else {
        shape.push_back(kept.front());
        kept = kept.drop_front();
      }
    }
    if (self.kind == Kind::Zero)
      return FormulaValue::zero(
          RankedTensorType::get(shape, self.type.getElementType()));
    if (ArrayRef<int64_t>(shape) == self.type.getShape())
      return self;
    return callOpByName(expr, "view", {self, FormulaValue::intList(shape)});
  }
  if (name == "dim" && args.size() == 1 && needTensor())
    return FormulaValue::scalar(self.type.getRank(), true);
  if (llvm::is_contained({"numel", "sym_numel"}, name) && args.size() == 1 &&
      needTensor()) {
    return productOf(expr, self.sizes());
  }
  if (llvm::is_contained({"scalar_type", "options", "dtype", "layout",
                          "device", "suggest_memory_format"},
                         name) &&
      args.size() == 1) {
    // Remembers the tensor's type so that _to_copy_backward can cast back.
    FormulaValue meta = FormulaValue::metadata(name);
    if (self.isTensorLike())
      meta.type = self.type;
    return meta;
  }
  if (name == "defined" && args.size() == 1)
    return FormulaValue::boolean(self.kind == Kind::Tensor);
  if (name == "has_value" && args.size() == 1)
    return FormulaValue::boolean(self.kind != Kind::None);
  if (name == "value_or" && args.size() == 2)
    return self.kind == Kind::None ? args[1] : self;
  if (name == "sqrt" && self.kind == Kind::Scalar)
    return FormulaValue::scalar(std::sqrt(self.number), false);

  // Gradient plumbing that is the engine's business, not an op.
  if (name == "zeros_like" && needTensor())
    return FormulaValue::zeroLike(self);
  if (name == "ones_like" && needTensor() && args.size() == 1)
    return callOpByName(expr, "full_like",
                        {self, FormulaValue::scalar(1.0, false)});
  if (name == "maybe_multiply" && args.size() == 2) {
    if (args[1].kind == Kind::Scalar && args[1].number == 1.0)
      return self;
    return arithmetic(expr, "*", self, args[1]);
  }
  if (name == "sum_to" && args.size() == 2 && args[1].kind == Kind::IntList) {
    if (!needTensor())
      return fail("'sum_to' needs a tensor");
    ArrayRef<int64_t> size = args[1].ints;
    if (self.type.getShape() == size)
      return self;
    if (self.kind == Kind::Zero)
      return FormulaValue::zero(
          RankedTensorType::get(size, self.type.getElementType()));
    // Sizes that agree once the dynamic ones are known take the type of
    // the tensor they are of, after summing to the static sizes that its
    // dynamic ones face (ReverseSweep::accumulate does the same).
    if (args[1].sizesOf && args[1].sizesOffset == 0) {
      FormulaValue summed = self;
      if (std::optional<SmallVector<int64_t>> resolved =
              staticSumTarget(self.type.getShape(), size);
          resolved && self.type.getShape() != ArrayRef<int64_t>(*resolved)) {
        FailureOr<FormulaValue> sum = callOpByName(
            expr, "sum_to_size", {self, FormulaValue::intList(*resolved)});
        if (failed(sum))
          return failure();
        summed = *sum;
      }
      if (refinesTo(summed.type.getShape(), size))
        return callOpByName(expr, "expand_as",
                            {summed, FormulaValue::ofTensor(args[1].sizesOf)});
    }
    return callOpByName(expr, "sum_to_size", {self, args[1]});
  }
  if (llvm::is_contained({"expand_as", "view_as", "reshape_as"}, name) &&
      args.size() == 2 && needTensor() && args[1].isTensorLike()) {
    StringRef op = name == "expand_as" ? "expand"
                   : name == "view_as" ? "view"
                                       : "reshape";
    if (self.type.getShape() == args[1].type.getShape())
      return self;
    if (self.kind == Kind::Zero)
      return FormulaValue::zeroLike(args[1]);
    if (op == "expand" && !args[1].type.hasStaticShape()) {
      std::vector<FormulaValue> expandArgs = {self, args[1].sizes()};
      return callFunction(expr, "expand", expandArgs);
    }
    return callOpByName(expr, op,
                        {self, FormulaValue::intList(args[1].type.getShape())});
  }
  if (std::optional<FailureOr<FormulaValue>> result =
          callTensorBuiltin(expr, name, args))
    return *result;
  return std::nullopt;
}

/// Builtins of the reduction/shape/indexing op families: list
/// computations over dimensions or over the elements of a Tensor[], which
/// the formula language cannot loop over (see docs/rules.md).
std::optional<FailureOr<FormulaValue>>
Binder::callTensorBuiltin(const Expr &expr, StringRef name,
                          std::vector<FormulaValue> &args) {
  auto fail = [&](const Twine &message) -> FailureOr<FormulaValue> {
    return error(expr) << message;
  };
  const FormulaValue &self = args[0];
  auto elementType = [&]() { return self.type.getElementType(); };

  // grad.new_zeros(sizes[, options]): a symbolic zero of `sizes`.
  if (name == "new_zeros" && (args.size() == 2 || args.size() == 3) &&
      self.isTensorLike()) {
    if (args[1].kind != Kind::IntList)
      return fail("new_zeros(Tensor, int[] sizes)");
    // Sizes read off a tensor (self.sym_sizes()) keep it, for the
    // dynamic ones.
    Value sizesOf = args[1].sizesOffset == 0 ? args[1].sizesOf : Value();
    return FormulaValue::zero(RankedTensorType::get(args[1].ints, elementType()),
                              sizesOf);
  }
  // permute_backwards(grad, dims): permute by the inverse permutation.
  if (name == "permute_backwards" && args.size() == 2 && self.isTensorLike()) {
    if (args[1].kind != Kind::IntList)
      return fail("permute_backwards(Tensor, int[] dims)");
    int64_t rank = self.type.getRank();
    SmallVector<int64_t> inverse(rank, 0);
    for (auto [i, d] : llvm::enumerate(args[1].ints)) {
      std::optional<int64_t> wrapped = wrapDim(d, rank);
      if (!wrapped)
        return fail("permute_backwards: dims out of range");
      inverse[*wrapped] = i;
    }
    if (self.kind == Kind::Zero) {
      SmallVector<int64_t> shape;
      for (int64_t d : inverse)
        shape.push_back(self.type.getDimSize(d));
      return FormulaValue::zero(RankedTensorType::get(shape, elementType()));
    }
    return callOpByName(expr, "permute", {self, FormulaValue::intList(inverse)});
  }
  // to_args_sizes(tensors) / to_args_scalartypes(tensors): per element of a
  // Tensor[] (PyTorch's codegen computes these).
  if ((name == "to_args_sizes" || name == "to_args_scalartypes") &&
      args.size() == 1 && self.kind == Kind::Tuple) {
    std::vector<FormulaValue> values;
    for (const FormulaValue &element : self.elements) {
      if (!element.isTensorLike())
        return fail("'" + name + "' needs a list of tensors");
      if (name == "to_args_sizes") {
        // With the tensor, so that a dynamic size can be read at run time.
        values.push_back(FormulaValue::sizesOfTensor(
            element.type, element.kind == Kind::Tensor ? element.tensor
                                                       : element.sizesOf));
      } else {
        FormulaValue meta = FormulaValue::metadata("scalar_type");
        meta.type = element.type;
        values.push_back(meta);
      }
    }
    return FormulaValue::tuple(std::move(values));
  }
  // slice_backward over a dimension of run-time size: the op's sizes are
  // attributes, so the gradient goes into zeros of the input's sizes at
  // bounds clamped at run time (the static case is the op).
  if (name == "slice_backward" && args.size() == 6 && self.isTensorLike() &&
      args[1].kind == Kind::IntList && args[2].kind == Kind::Scalar &&
      args[1].sizesOf) {
    std::optional<int64_t> dim = wrapDim(static_cast<int64_t>(args[2].number),
                                         args[1].ints.size());
    if (dim && ShapedType::isDynamic(args[1].ints[*dim]))
      return sliceBackwardDynamic(expr, self, args[1], *dim, args[3], args[4],
                                  args[5]);
  }
  // cat_tensors_backward(grad, sizes, dtypes, dim): grad split along dim
  // into the extents of the inputs (split_with_sizes).
  if (name == "cat_tensors_backward" && args.size() == 4 &&
      self.isTensorLike()) {
    if (args[1].kind != Kind::Tuple || args[3].kind != Kind::Scalar)
      return fail("cat_tensors_backward(Tensor, int[][] sizes, dtypes, int dim)");
    std::optional<int64_t> dim =
        wrapDim(static_cast<int64_t>(args[3].number), self.type.getRank());
    if (!dim)
      return fail("cat_tensors_backward: dim out of range");
    SmallVector<int64_t> extents;
    std::vector<FormulaValue> zeros;
    for (const FormulaValue &sizes : args[1].elements) {
      if (sizes.kind != Kind::IntList ||
          static_cast<int64_t>(sizes.ints.size()) != self.type.getRank())
        return fail("cat_tensors_backward: sizes do not match the gradient");
      extents.push_back(sizes.ints[*dim]);
      zeros.push_back(FormulaValue::zero(
          RankedTensorType::get(sizes.ints, elementType()), sizes.sizesOf));
    }
    if (self.kind == Kind::Zero)
      return FormulaValue::tuple(std::move(zeros));
    if (llvm::any_of(extents, ShapedType::isDynamic))
      return catBackwardDynamic(expr, self, args[1].elements, *dim);
    return callOpByName(expr, "split_with_sizes",
                        {self, FormulaValue::intList(extents),
                         FormulaValue::scalar(*dim, true)});
  }
  // repeat_backward(grad, repeats, sizes): view every repeated dimension d
  // as [repeats[d], sizes[d]] and sum the repeat axes and the leading ones.
  if (name == "repeat_backward" && args.size() == 3 && self.isTensorLike()) {
    if (args[1].kind != Kind::IntList || args[2].kind != Kind::IntList)
      return fail("repeat_backward(Tensor, int[] repeats, int[] sizes)");
    ArrayRef<int64_t> repeats = args[1].ints, sizes = args[2].ints;
    int64_t lead = repeats.size() - sizes.size();
    if (lead < 0)
      return fail("repeat_backward: fewer repeats than dimensions");
    if (self.kind == Kind::Zero ||
        llvm::is_contained(repeats, 0))
      return FormulaValue::zero(RankedTensorType::get(sizes, elementType()));
    SmallVector<int64_t> shape, dims;
    for (int64_t i = 0; i < lead; ++i) {
      dims.push_back(shape.size());
      shape.push_back(repeats[i]);
    }
    for (auto [j, size] : llvm::enumerate(sizes)) {
      dims.push_back(shape.size());
      shape.push_back(repeats[lead + j]);
      shape.push_back(size);
    }
    FailureOr<FormulaValue> viewed =
        callOpByName(expr, "view", {self, FormulaValue::intList(shape)});
    if (failed(viewed))
      return failure();
    return callOpByName(expr, "sum",
                        {*viewed, FormulaValue::intList(dims),
                         FormulaValue::boolean(false)});
  }
  // constant_pad_nd_backward(grad, pad): cropping is padding by -pad.
  if (name == "constant_pad_nd_backward" && args.size() == 2 &&
      self.isTensorLike()) {
    if (args[1].kind != Kind::IntList)
      return fail("constant_pad_nd_backward(Tensor, int[] pad)");
    SmallVector<int64_t> negated;
    for (int64_t p : args[1].ints)
      negated.push_back(-p);
    return callOpByName(expr, "constant_pad_nd",
                        {self, FormulaValue::intList(negated)});
  }
  // _to_copy_backward(grad, self.options()): grad converted back to the
  // element type that options() recorded.
  if (name == "_to_copy_backward" && args.size() == 2 && self.isTensorLike()) {
    if (args[1].kind != Kind::Metadata || !args[1].type)
      return fail("_to_copy_backward(Tensor, self.options())");
    Type to = args[1].type.getElementType();
    if (to == elementType())
      return self;
    auto type = RankedTensorType::get(self.type.getShape(), to);
    if (self.kind == Kind::Zero)
      return FormulaValue::zero(type);
    auto op = ToCopyOp::create(builder, opLoc, type, self.tensor,
                               TypeAttr::get(to));
    return FormulaValue::ofTensor(op.getResult());
  }
  return std::nullopt;
}

FailureOr<FormulaValue> Binder::callFunction(const Expr &expr, StringRef name,
                                             std::vector<FormulaValue> &args) {
  if (const HelperEntry *helper = helpers.lookup(name))
    return callHelper(expr, *helper, args);
  // expand to a size list with dynamic sizes: the sizes of a tensor,
  // which expand_as reads at run time.
  if (name == "expand" && args.size() == 2 && args[0].isTensorLike() &&
      args[1].kind == Kind::IntList && args[1].sizesOf &&
      args[1].sizesOffset == 0 &&
      llvm::any_of(args[1].ints, ShapedType::isDynamic)) {
    FormulaValue like = FormulaValue::ofTensor(args[1].sizesOf);
    if (args[0].type == like.type)
      return args[0];
    if (args[0].kind == Kind::Zero)
      return FormulaValue::zeroLike(like);
    return callOpByName(expr, "expand_as", {args[0], like});
  }
  return callOpByName(expr, name, args);
}

FailureOr<FormulaValue> Binder::callHelper(const Expr &expr,
                                           const HelperEntry &helper,
                                           ArrayRef<FormulaValue> args) {
  if (frames.size() > kMaxHelperDepth)
    return error(expr) << "helper '" << helper.signature.baseName
                       << "' nests deeper than " << kMaxHelperDepth
                       << " calls (a cycle in the helpers?)";
  const Schema &signature = helper.signature;
  if (args.size() > signature.arguments.size())
    return error(expr) << "helper '" << signature.baseName << "' takes "
                       << signature.arguments.size() << " arguments, got "
                       << args.size();
  Bindings bindings;
  for (auto [index, param] : llvm::enumerate(signature.arguments)) {
    if (index < args.size()) {
      if (!accepts(param.type, args[index], /*runtimeNumbers=*/true))
        return error(expr) << "argument '" << param.name << "' of helper '"
                           << signature.baseName << "' must be "
                           << param.type.str() << ", got a "
                           << args[index].kindName();
      bindings[param.name] = args[index];
    } else if (param.defaultValue) {
      bindings[param.name] = parseDefault(param);
    } else {
      return error(expr) << "helper '" << signature.baseName
                         << "' is missing argument '" << param.name << "'";
    }
  }
  if (!helper.body.expr)
    return error(expr) << "helper '" << signature.baseName << "' has no body";
  return evaluate(*helper.body.expr, helper.body.loc, bindings);
}

FailureOr<FormulaValue> Binder::callOpByName(const Expr &expr, StringRef base,
                                             ArrayRef<FormulaValue> args) {
  ArrayRef<const CatalogOp *> candidates = catalog.overloads(base);
  if (candidates.empty())
    return error(expr) << "unknown function '" << base
                       << "': not a tad op, a helper or a builtin";
  // Symbolic zeros flowing into a linear position of elementwise arithmetic
  // have been folded by the caller; here every tensor becomes an operand.
  for (const CatalogOp *candidate : candidates) {
    const Schema &schema = candidate->schema;
    if (args.size() > schema.arguments.size())
      continue;
    bool matches = true;
    for (auto [index, arg] : llvm::enumerate(schema.arguments)) {
      if (index < args.size())
        matches &= accepts(arg.type, args[index]);
      else
        matches &= arg.defaultValue.has_value();
    }
    if (matches)
      return buildOp(*candidate, args, locationOf(expr));
  }
  bool runtimeNumber = llvm::any_of(args, [](const FormulaValue &v) {
    return v.kind == Kind::RuntimeScalar;
  });
  if (runtimeNumber)
    return programError(expr)
           << "'" << base << "' takes a number known at compile time here, "
           << "and this one is computed from a dynamic size (dynamic sizes "
           << "are not supported by this rule yet)";
  InFlightDiagnostic diag = error(expr);
  diag << "no overload of '" << base << "' accepts (";
  llvm::interleaveComma(args, diag,
                        [&](const FormulaValue &v) { diag << v.kindName(); });
  diag << ")";
  for (const CatalogOp *candidate : candidates)
    diag.attachNote() << "candidate: " << candidate->schema.str();
  return diag;
}
