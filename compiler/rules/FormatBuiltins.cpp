//===- FormatBuiltins.cpp - builtins for upstream's formula idioms --------===//
//
// Part of the Binder (compiler/rules/Binder.h): the codegen pseudo-functions
// and C++ idioms that upstream derivatives.yaml formulas use, resolved at
// compile time, and the list of every builtin name for static resolution
// (tadc --check-rules, --rules validation).
//
//===----------------------------------------------------------------------===//
#include "compiler/rules/Binder.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tad::rules;

using Kind = FormulaValue::Kind;

/// Codegen pseudo-functions and C++ idioms of upstream formulas:
/// wrap_opt_if, std::vector<T>(n, v), TensorGeometry, .back(), the
/// complex-number queries of real tensors and scalars, strides.
std::optional<FailureOr<FormulaValue>>
Binder::callFormatBuiltin(const Expr &expr, StringRef name,
                          std::vector<FormulaValue> &args) {
  if (args.empty())
    return std::nullopt;
  const FormulaValue &self = args[0];
  // `opt->f(...)` of an absent optional is absent (bias->sym_sizes() of a
  // convolution without bias).
  if (expr.kind == Expr::Kind::ArrowCall && self.kind == Kind::None)
    return FormulaValue::none();
  // wrap_opt_if(x, cond): x if cond else None; cond is grad_input_mask-based
  // and so known at compile time.
  if (name == "wrap_opt_if" && args.size() == 2) {
    if (args[1].kind != Kind::Bool)
      return FailureOr<FormulaValue>(
          error(expr) << "the condition of 'wrap_opt_if' must be known at "
                         "compile time, got a "
                      << args[1].kindName());
    return args[1].flag ? self : FormulaValue::none();
  }
  // std::vector<int64_t>(n, v): n copies of v.
  if (name == "vector" && args.size() == 2 && self.kind == Kind::Scalar &&
      self.isInteger && args[1].kind == Kind::Scalar && args[1].isInteger) {
    if (self.number < 0 || self.number > (1 << 20))
      return FailureOr<FormulaValue>(error(expr)
                                     << "invalid vector length "
                                     << static_cast<int64_t>(self.number));
    return FormulaValue::intList(SmallVector<int64_t>(
        static_cast<size_t>(self.number), static_cast<int64_t>(args[1].number)));
  }
  // TensorGeometry(x): sizes and strides only; metadata carrying the type.
  if (name == "TensorGeometry" && args.size() == 1 && self.isTensorLike()) {
    FormulaValue meta = FormulaValue::metadata("TensorGeometry");
    meta.type = self.type;
    return meta;
  }
  if (name == "back" && args.size() == 1 && self.kind == Kind::IntList) {
    if (self.ints.empty())
      return FailureOr<FormulaValue>(error(expr) << "'back()' of an empty list");
    return FormulaValue::scalar(self.ints.back(), /*isInteger=*/true);
  }
  // tad's tensors and scalars are real.
  if (llvm::is_contained({"is_complex", "isComplex", "is_conj"}, name) &&
      args.size() == 1)
    return FormulaValue::boolean(false);
  if (name == "toComplexDouble" && args.size() == 1)
    return self;
  if (llvm::is_contained({"strides", "sym_strides"}, name) &&
      args.size() == 1 && self.isTensorLike()) {
    ArrayRef<int64_t> shape = self.type.getShape();
    SmallVector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * std::max<int64_t>(shape[i + 1], 1);
    return FormulaValue::intList(strides);
  }
  return std::nullopt;
}

bool Binder::isBuiltinFunction(StringRef name) {
  name.consume_front("at::");
  name.consume_front("std::");
  name.consume_front("c10::");
  name.consume_back("_symint");
  static const llvm::StringSet<> builtins = {
      // evalCall
      "get", "tuple", "make_tuple", "Tensor", "GradMode::is_enabled", "not_implemented",
      "not_implemented_list",
      // callBuiltin: identities, metadata, folds, gradient plumbing
      "conj", "contiguous", "resolve_conj", "value", "toDouble", "toFloat",
      "IntArrayRef", "clone", "handle_r_to_c", "sizes", "sym_sizes", "size",
      "sym_size", "unsqueeze_multiple", "dim", "numel", "sym_numel",
      "scalar_type", "options", "dtype", "layout", "device",
      "suggest_memory_format", "defined", "has_value", "value_or",
      "zeros_like", "ones_like", "maybe_multiply", "sum_to", "expand_as",
      "view_as", "reshape_as", "range", "to", "sqrt", "list_slice",
      "broadcast_shapes", "multiply_integers",
      // callTensorBuiltin
      "new_zeros", "permute_backwards", "to_args_sizes", "to_args_scalartypes",
      "cat_tensors_backward", "repeat_backward", "constant_pad_nd_backward",
      "_to_copy_backward",
      // callFormatBuiltin
      "wrap_opt_if", "vector", "TensorGeometry", "back", "is_complex",
      "isComplex", "is_conj", "toComplexDouble", "strides", "sym_strides"};
  return builtins.contains(name);
}
