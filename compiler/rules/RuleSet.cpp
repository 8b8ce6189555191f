//===- RuleSet.cpp - derivative rules by op, applied by the Binder --------===//
#include "compiler/rules/RuleSet.h"

#include "compiler/rules/BuiltinRules.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::rules;

using Kind = FormulaValue::Kind;

static bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

FailureOr<std::shared_ptr<RuleSet>>
RuleSet::load(MLIRContext *context, ArrayRef<std::string> extraFiles) {
  FailureOr<OpCatalog> catalog = OpCatalog::build(context);
  if (failed(catalog))
    return failure();
  std::shared_ptr<RuleSet> set(new RuleSet(context, std::move(*catalog)));
  bool ok = true;
  for (const BuiltinRuleFile &builtin : getBuiltinRuleFiles()) {
    FailureOr<RuleFile> file =
        parseRuleFile(context, builtin.contents, builtin.path);
    ok &= succeeded(file) && succeeded(set->addFile(std::move(*file)));
  }
  for (const std::string &path : extraFiles) {
    FailureOr<RuleFile> file = loadRuleFile(context, path);
    ok &= succeeded(file) && succeeded(set->addFile(std::move(*file)));
  }
  if (!ok)
    return failure();
  return set;
}

LogicalResult RuleSet::addFile(RuleFile parsed) {
  files.push_back(std::make_unique<RuleFile>(std::move(parsed)));
  const RuleFile &file = *files.back();
  bool ok = true;
  for (const RuleEntry &entry : file.entries) {
    std::string name = entry.schema.fullName();
    const CatalogOp *op = catalog.lookup(name);
    if (!op) {
      emitError(entry.loc.toLocation(context))
          << "rule for '" << name << "' names an op that tad does not have";
      ok = false;
      continue;
    }
    if (op->schema.str() != entry.schema.str()) {
      emitError(entry.loc.toLocation(context))
          << "schema of the rule for '" << name << "' differs from 'tad."
          << name << "': rule has '" << entry.schema.str()
          << "', the op implements '" << op->schema.str() << "'";
      ok = false;
      continue;
    }
    entries[name] = &entry;
  }
  for (const HelperEntry &helper : file.helpers)
    helpers[helper.signature.baseName] = &helper;
  return success(ok);
}

const RuleEntry *RuleSet::lookup(StringRef fullName) const {
  return entries.lookup(fullName);
}

const RuleEntry *RuleSet::lookup(Operation *op) const {
  const CatalogOp *info = catalog.lookup(op);
  return info ? lookup(info->schema.fullName()) : nullptr;
}

//===----------------------------------------------------------------------===//
// Binding an op
//===----------------------------------------------------------------------===//

StringRef RuleSet::operandName(const CatalogOp &info, unsigned index) const {
  return info.schema.arguments[info.operandArguments[index]].name;
}

Bindings RuleSet::bindInputs(const CatalogOp &info, Operation *op) const {
  Bindings bindings;
  unsigned operand = 0;
  for (const SchemaArgument &arg : info.schema.arguments) {
    if (arg.type.isTensorLike()) {
      bindings[arg.name] = FormulaValue::ofTensor(op->getOperand(operand++));
      continue;
    }
    bindings[arg.name] = Binder::fromAttribute(arg, op->getAttr(arg.name));
  }
  std::vector<std::string> outputs = info.schema.outputNames();
  for (auto [index, result] : llvm::enumerate(op->getResults()))
    if (index < outputs.size())
      bindings[outputs[index]] = FormulaValue::ofTensor(result);
  bindings["retain_variables"] = FormulaValue::boolean(true);
  return bindings;
}

InFlightDiagnostic RuleSet::missingRule(Operation *op, StringRef mode) const {
  return op->emitOpError() << "has no " << mode
                           << " derivative rule (add one with --rules)";
}

bool RuleSet::isDifferentiableOperand(Operation *op, unsigned index) {
  if (!isFloatTensor(op->getOperand(index).getType()))
    return false;
  const CatalogOp *info = catalog.lookup(op);
  const RuleEntry *entry = info ? lookup(info->schema.fullName()) : nullptr;
  // Without a rule, say yes: the pass then reports the missing rule if this
  // gradient is actually needed.
  if (!entry)
    return true;
  const DerivativeKey *key = entry->findBackward(operandName(*info, index));
  return key && key->kind != FormulaKind::NonDifferentiable;
}

bool RuleSet::isDifferentiableResult(Operation *op, unsigned index) {
  if (!isFloatTensor(op->getResult(index).getType()))
    return false;
  const RuleEntry *entry = lookup(op);
  if (!entry || entry->outputDifferentiability.empty())
    return true;
  if (index >= entry->outputDifferentiability.size())
    return false;
  return entry->outputDifferentiability[index].value_or(true);
}

//===----------------------------------------------------------------------===//
// Reverse mode
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>>
RuleSet::emitVJP(OpBuilder &b, Operation *op, ArrayRef<Value> resultCotangents,
                 ArrayRef<bool> wanted) {
  const CatalogOp *info = catalog.lookup(op);
  const RuleEntry *entry = info ? lookup(info->schema.fullName()) : nullptr;
  if (!entry)
    return missingRule(op, "reverse-mode (VJP)");

  Bindings bindings = bindInputs(*info, op);
  std::vector<FormulaValue> grads;
  for (auto [result, cotangent] :
       llvm::zip_equal(op->getResults(), resultCotangents))
    grads.push_back(cotangent ? FormulaValue::ofTensor(cotangent)
                              : FormulaValue::zero(cast<RankedTensorType>(
                                    result.getType())));
  if (grads.size() == 1)
    bindings["grad"] = grads[0];
  for (auto [name, grad] : llvm::zip(info->schema.outputNames(), grads))
    bindings["grad_" + name] = grad;
  bindings["grads"] = FormulaValue::tuple(grads);

  llvm::StringMap<unsigned> operandIndex;
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    operandIndex[operandName(*info, i)] = i;

  SmallVector<Value> contributions(op->getNumOperands());
  Binder binder(b, op->getLoc(), catalog, helpers);
  for (const DerivativeKey &key : entry->backward) {
    SmallVector<std::optional<unsigned>> indices;
    std::vector<FormulaValue> mask;
    bool anyWanted = false;
    for (const std::string &name : key.names) {
      auto it = operandIndex.find(name);
      std::optional<unsigned> index;
      if (it != operandIndex.end())
        index = it->second;
      bool want = index && wanted[*index];
      anyWanted |= want;
      indices.push_back(index);
      mask.push_back(FormulaValue::boolean(want));
    }
    if (!anyWanted || key.kind == FormulaKind::NonDifferentiable)
      continue;
    if (key.kind == FormulaKind::NotImplemented) {
      InFlightDiagnostic diag = emitError(key.loc.toLocation(context))
                                << "the derivative of 'tad."
                                << info->schema.fullName()
                                << "' with respect to '" << key.names.front()
                                << "' is not implemented";
      diag.attachNote(op->getLoc()) << "needed to differentiate this op";
      return diag;
    }
    if (key.kind != FormulaKind::Expression || !key.formula.expr)
      continue;
    bindings["grad_input_mask"] = FormulaValue::tuple(mask);
    FailureOr<FormulaValue> value =
        binder.evaluate(*key.formula.expr, key.formula.loc, bindings);
    if (failed(value))
      return failure();
    std::vector<FormulaValue> parts;
    if (key.names.size() == 1) {
      parts.push_back(*value);
    } else if (value->kind == Kind::Tuple &&
               value->elements.size() == key.names.size()) {
      parts = value->elements;
    } else {
      return emitError(key.formula.loc.toLocation(context))
             << "formula for '" << key.names.size()
             << " inputs must return a tuple of " << key.names.size()
             << " gradients";
    }
    for (auto [index, part] : llvm::zip_equal(indices, parts)) {
      if (!index || !wanted[*index])
        continue;
      if (part.kind == Kind::Tensor)
        contributions[*index] = part.tensor;
      else if (part.kind != Kind::Zero && part.kind != Kind::None)
        return emitError(key.formula.loc.toLocation(context))
               << "gradient formula returned a " << part.kindName()
               << ", expected a tensor";
    }
  }
  return contributions;
}

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

/// The JVP of a function linear in its differentiable inputs: the op itself
/// applied to the tangents.
static SmallVector<FormulaValue> emitAutoLinear(OpBuilder &b, Binder &binder,
                                                Operation *op,
                                                ArrayRef<FormulaValue> tangents,
                                                ArrayRef<bool> differentiable) {
  Operation *clone = b.clone(*op);
  for (auto [index, tangent] : llvm::enumerate(tangents))
    if (differentiable[index])
      clone->setOperand(index, binder.materialize(tangent));
  SmallVector<FormulaValue> results;
  for (Value result : clone->getResults())
    results.push_back(FormulaValue::ofTensor(result));
  return results;
}

FailureOr<SmallVector<Value>>
RuleSet::emitJVP(OpBuilder &b, Operation *op, ArrayRef<Value> operandTangents) {
  const CatalogOp *info = catalog.lookup(op);
  const RuleEntry *entry = info ? lookup(info->schema.fullName()) : nullptr;
  if (!entry)
    return missingRule(op, "forward-mode (JVP)");

  Bindings bindings = bindInputs(*info, op);
  SmallVector<FormulaValue> tangents;
  SmallVector<bool> differentiable;
  bool anyTangent = false;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    StringRef name = operandName(*info, index);
    bool diff = isDifferentiableOperand(op, index);
    Value tangent = diff ? operandTangents[index] : Value();
    anyTangent |= static_cast<bool>(tangent);
    FormulaValue t = tangent ? FormulaValue::ofTensor(tangent)
                             : FormulaValue::zero(
                                   cast<RankedTensorType>(operand.getType()));
    bindings[(name + "_p").str()] = FormulaValue::ofTensor(operand);
    bindings[(name + "_t").str()] = t;
    tangents.push_back(t);
    differentiable.push_back(diff);
  }
  SmallVector<Value> resultTangents(op->getNumResults());
  if (!anyTangent)
    return resultTangents;

  std::vector<std::string> outputs = info->schema.outputNames();
  Binder binder(b, op->getLoc(), catalog, helpers);
  SmallVector<bool> covered(op->getNumResults(), false);
  for (const DerivativeKey &key : entry->forward) {
    SmallVector<FormulaValue> values;
    if (key.kind == FormulaKind::AutoLinear) {
      values = emitAutoLinear(b, binder, op, tangents, differentiable);
    } else if (key.kind == FormulaKind::AutoElementWise) {
      // Derived from the single backward formula: grad -> x_t, x -> x_p.
      const DerivativeKey *backward = nullptr;
      for (const DerivativeKey &k : entry->backward)
        if (k.kind == FormulaKind::Expression)
          backward = &k;
      if (!backward || backward->names.size() != 1 || !backward->formula.expr)
        return emitError(key.loc.toLocation(context))
               << "auto_element_wise needs exactly one backward formula";
      const std::string &input = backward->names.front();
      llvm::StringMap<std::string> renames;
      renames["grad"] = input + "_t";
      renames[input] = input + "_p";
      ExprPtr derived = renameIdentifiers(*backward->formula.expr, renames);
      FailureOr<FormulaValue> value =
          binder.evaluate(*derived, backward->formula.loc, bindings);
      if (failed(value))
        return failure();
      values.push_back(*value);
    } else if (key.kind == FormulaKind::Expression && key.formula.expr) {
      FailureOr<FormulaValue> value =
          binder.evaluate(*key.formula.expr, key.formula.loc, bindings);
      if (failed(value))
        return failure();
      if (key.names.size() == 1)
        values.push_back(*value);
      else if (value->kind == Kind::Tuple)
        values.assign(value->elements.begin(), value->elements.end());
    } else {
      continue;
    }
    if (values.size() < key.names.size() && key.kind != FormulaKind::AutoLinear)
      return emitError(key.formula.loc.toLocation(context))
             << "forward formula must return " << key.names.size()
             << " tangents";
    for (auto [position, name] : llvm::enumerate(key.names)) {
      auto it = llvm::find(outputs, name);
      if (it == outputs.end())
        continue;
      unsigned index = it - outputs.begin();
      // auto_linear yields every result of the re-run op.
      const FormulaValue &value =
          key.kind == FormulaKind::AutoLinear ? values[index] : values[position];
      covered[index] = true;
      if (value.kind == Kind::Tensor)
        resultTangents[index] = value.tensor;
    }
  }
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    if (!covered[i] && isDifferentiableResult(op, i))
      return missingRule(op, "forward-mode (JVP)");
  return resultTangents;
}

void mlir::tad::rules::registerDefaultRuleLoader() {
  setDerivativeRulesLoader(
      [](MLIRContext *context, ArrayRef<std::string> extraFiles)
          -> FailureOr<std::shared_ptr<DerivativeRules>> {
        FailureOr<std::shared_ptr<RuleSet>> set =
            RuleSet::load(context, extraFiles);
        if (failed(set))
          return failure();
        return std::shared_ptr<DerivativeRules>(*set);
      });
}
