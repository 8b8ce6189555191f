//===- SavedValues.cpp - what a VJP needs from the forward ----------------===//
#include "compiler/rules/SavedValues.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

using namespace mlir::tad::rules;
using llvm::StringRef;
using Kind = Expr::Kind;

StringRef mlir::tad::rules::stringifyValueUse(ValueUse use) {
  switch (use) {
  case ValueUse::None:
    return "unused";
  case ValueUse::Metadata:
    return "metadata";
  case ValueUse::Value:
    return "value";
  }
  return "?";
}

ValueUse SavedValues::lookup(StringRef name) const {
  for (const auto &[n, use] : uses)
    if (n == name)
      return use;
  return ValueUse::None;
}

std::vector<std::string> SavedValues::saved() const {
  std::vector<std::string> names;
  for (const auto &[n, use] : uses)
    if (use == ValueUse::Value)
      names.push_back(n);
  return names;
}

std::vector<std::string> SavedValues::metadataOnly() const {
  std::vector<std::string> names;
  for (const auto &[n, use] : uses)
    if (use == ValueUse::Metadata)
      names.push_back(n);
  return names;
}

/// The callee as the binder resolves it: without at::/std:: and _symint.
static StringRef normalizeCallee(StringRef name) {
  name.consume_front("at::");
  name.consume_front("std::");
  name.consume_back("_symint");
  return name;
}

bool mlir::tad::rules::isMetadataMethod(StringRef name) {
  return llvm::is_contained(
      {"sym_sizes", "sizes", "sym_size", "size", "dim", "numel", "sym_numel",
       "scalar_type", "options", "dtype", "layout", "device",
       "suggest_memory_format", "sym_strides", "strides", "is_conj",
       "is_complex", "defined"},
      normalizeCallee(name));
}

bool mlir::tad::rules::isMetadataFunction(StringRef name) {
  return llvm::is_contained({"zeros_like", "TensorGeometry", "to_args_sizes",
                             "to_args_scalartypes"},
                            normalizeCallee(name));
}

bool mlir::tad::rules::isShapeOfArgumentMethod(StringRef name) {
  return llvm::is_contained({"expand_as", "view_as", "reshape_as"},
                            normalizeCallee(name));
}

namespace {
/// The names a formula can read, the strongest use of each, and what is
/// statically known about grad_input_mask.
struct Scope {
  llvm::StringMap<unsigned> slots; // name -> index into uses
  std::vector<ValueUse> uses;
  /// grad_input_mask of the key being analyzed (top level only).
  std::optional<std::vector<bool>> mask;

  void mark(StringRef name, ValueUse use) {
    auto it = slots.find(name);
    if (it != slots.end())
      uses[it->second] = std::max(uses[it->second], use);
  }
};

class Analyzer {
public:
  explicit Analyzer(const HelperMap &helpers) : helpers(helpers) {}

  void visit(const Expr &e, Scope &scope) {
    switch (e.kind) {
    case Kind::Identifier:
      scope.mark(e.name, ValueUse::Value);
      return;
    case Kind::Integer:
    case Kind::Float:
    case Kind::Bool:
    case Kind::String:
      return;
    case Kind::Ternary: {
      visit(*e.operands[0], scope);
      std::optional<bool> cond = staticBool(*e.operands[0], scope);
      if (!cond || *cond)
        visit(*e.operands[1], scope);
      if (!cond || !*cond)
        visit(*e.operands[2], scope);
      return;
    }
    case Kind::MethodCall:
    case Kind::ArrowCall:
      visitMethod(e, scope);
      return;
    case Kind::Call:
      visitCall(e, scope);
      return;
    case Kind::Lambda: {
      // Parameters shadow outer names: analyze the body without them.
      Scope inner = scope;
      for (StringRef param : lambdaParamNames(e.name))
        inner.slots.erase(param);
      visit(*e.operands[0], inner);
      for (auto &[name, slot] : inner.slots)
        scope.uses[slot] = std::max(scope.uses[slot], inner.uses[slot]);
      return;
    }
    case Kind::Index:
    case Kind::Unary:
    case Kind::Binary:
    case Kind::BraceList:
      for (const ExprPtr &op : e.operands)
        visit(*op, scope);
      return;
    }
  }

  /// The use each parameter of `helper` gets from its body.
  std::vector<ValueUse> helperUses(const HelperEntry &helper) {
    const std::string &name = helper.signature.baseName;
    auto it = memo.find(name);
    if (it != memo.end())
      return it->second;
    const auto &params = helper.signature.arguments;
    // A recursive helper: assume every parameter is read.
    if (!inProgress.insert(name).second || !helper.body.expr)
      return std::vector<ValueUse>(params.size(), ValueUse::Value);
    Scope scope;
    for (auto [index, param] : llvm::enumerate(params)) {
      scope.slots[param.name] = index;
      scope.uses.push_back(ValueUse::None);
    }
    visit(*helper.body.expr, scope);
    inProgress.erase(name);
    memo[name] = scope.uses;
    return scope.uses;
  }

private:
  static llvm::SmallVector<StringRef> lambdaParamNames(StringRef params) {
    llvm::SmallVector<StringRef> parts, names;
    params.split(parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef p : parts) {
      p = p.trim();
      size_t space = p.find_last_of(" \t*&");
      names.push_back(space == StringRef::npos ? p : p.drop_front(space + 1));
    }
    return names;
  }

  /// A receiver or argument that is a plain name gets `use`; anything else
  /// is computed by the binder and so reads its operands as values.
  void visitAs(const Expr &e, Scope &scope, ValueUse use) {
    if (e.kind == Kind::Identifier) {
      if (use != ValueUse::None)
        scope.mark(e.name, use);
      return;
    }
    visit(e, scope);
  }

  void visitMethod(const Expr &e, Scope &scope) {
    const Expr &receiver = *e.operands[0];
    if (isMetadataMethod(e.name)) {
      visitAs(receiver, scope, ValueUse::Metadata);
    } else {
      visit(receiver, scope);
    }
    auto args = e.callArgs();
    for (auto [index, arg] : llvm::enumerate(args)) {
      if (index == 0 && isShapeOfArgumentMethod(e.name))
        visitAs(*arg, scope, ValueUse::Metadata);
      else
        visit(*arg, scope);
    }
  }

  void visitCall(const Expr &e, Scope &scope) {
    StringRef callee = e.name;
    if (callee == "not_implemented" || callee == "not_implemented_list")
      return; // an error if it runs; reads nothing
    if (callee == "wrap_opt_if" && e.operands.size() == 2) {
      // The value only when the condition holds (statically: else None).
      visit(*e.operands[1], scope);
      std::optional<bool> cond = staticBool(*e.operands[1], scope);
      if (!cond || *cond)
        visit(*e.operands[0], scope);
      return;
    }
    StringRef name = normalizeCallee(callee);
    if (isMetadataFunction(name) && !e.operands.empty()) {
      visitAs(*e.operands[0], scope, ValueUse::Metadata);
      for (const ExprPtr &arg : llvm::drop_begin(e.operands))
        visit(*arg, scope);
      return;
    }
    if (const HelperEntry *helper = helpers.lookup(name)) {
      std::vector<ValueUse> params = helperUses(*helper);
      for (auto [index, arg] : llvm::enumerate(e.operands))
        visitAs(*arg, scope,
                index < params.size() ? params[index] : ValueUse::Value);
      return;
    }
    for (const ExprPtr &arg : e.operands)
      visit(*arg, scope);
  }

  /// The value of a condition if it is known without the op.
  std::optional<bool> staticBool(const Expr &e, const Scope &scope) {
    switch (e.kind) {
    case Kind::Bool:
      return e.boolValue();
    case Kind::Identifier:
      if (e.name == "retain_variables" && !scope.slots.count(e.name))
        return true;
      return std::nullopt;
    case Kind::Call:
      if (e.operands.empty() && (e.name == "GradMode::is_enabled" ||
                                 e.name == "at::GradMode::is_enabled"))
        return true;
      return std::nullopt;
    case Kind::Index:
      if (scope.mask && e.operands[0]->isIdentifier("grad_input_mask") &&
          e.operands[1]->kind == Kind::Integer) {
        int64_t i = e.operands[1]->intValue();
        if (i >= 0 && static_cast<size_t>(i) < scope.mask->size())
          return (*scope.mask)[i];
      }
      return std::nullopt;
    case Kind::Unary:
      if (e.name == "!")
        if (std::optional<bool> x = staticBool(*e.operands[0], scope))
          return !*x;
      return std::nullopt;
    case Kind::Binary: {
      if (e.name != "&&" && e.name != "||")
        return std::nullopt;
      std::optional<bool> l = staticBool(*e.operands[0], scope);
      std::optional<bool> r = staticBool(*e.operands[1], scope);
      bool isAnd = e.name == "&&";
      if ((l && *l != isAnd) || (r && *r != isAnd))
        return !isAnd; // false && _, true || _
      if (l && r)
        return isAnd;
      return std::nullopt;
    }
    default:
      return std::nullopt;
    }
  }

  const HelperMap &helpers;
  llvm::StringMap<std::vector<ValueUse>> memo;
  llvm::StringSet<> inProgress;
};
} // namespace

SavedValues mlir::tad::rules::analyzeSavedValues(
    const RuleEntry &entry, const HelperMap &helpers,
    const llvm::StringSet<> *wanted) {
  const Schema &schema = entry.schema;
  Scope top;
  SavedValues result;
  auto track = [&](const std::string &name) {
    if (top.slots.count(name))
      return;
    top.slots[name] = top.uses.size();
    top.uses.push_back(ValueUse::None);
    result.uses.emplace_back(name, ValueUse::None);
  };
  for (const SchemaArgument &arg : schema.arguments)
    if (arg.type.isTensorLike())
      track(arg.name);
  std::vector<std::string> outputs = schema.outputNames();
  for (auto [index, ret] : llvm::enumerate(schema.returns))
    if (ret.type.isTensorLike() && index < outputs.size())
      track(outputs[index]);

  // The gradients of all outputs, `grads`: one an output did not get is
  // zeros of that output's sizes, which the VJP reads from the output where
  // they are dynamic.
  bool gradsNamed = top.slots.count("grads");
  unsigned gradsSlot = top.uses.size();
  if (!gradsNamed) {
    top.slots["grads"] = gradsSlot;
    top.uses.push_back(ValueUse::None);
  }

  Analyzer analyzer(helpers);
  for (const DerivativeKey &key : entry.backward) {
    if (key.kind != FormulaKind::Expression || !key.formula.expr)
      continue;
    std::vector<bool> mask;
    bool any = false;
    for (const std::string &name : key.names) {
      bool want = !wanted || wanted->contains(name);
      mask.push_back(want);
      any |= want;
    }
    if (!any)
      continue;
    top.mask = std::move(mask);
    analyzer.visit(*key.formula.expr, top);
  }
  if (!gradsNamed && top.uses[gradsSlot] != ValueUse::None)
    for (const std::string &output : outputs)
      top.mark(output, ValueUse::Metadata);
  for (auto &[name, use] : result.uses)
    use = top.uses[top.slots[name]];
  return result;
}
