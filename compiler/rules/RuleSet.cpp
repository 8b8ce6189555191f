//===- RuleSet.cpp - derivative rules by op, applied by the Binder --------===//
#include "compiler/rules/RuleSet.h"

#include "compiler/rules/BuiltinRules.h"
#include "compiler/rules/Decomposer.h"
#include "compiler/rules/RuleChecker.h"
#include "compiler/rules/SavedValues.h"
#include "dialects/Tad/TadOps.h"
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
  // A user's rules are checked completely before anything is compiled:
  // every call must resolve to a builtin, a helper or a tad op overload of
  // that arity (the built-in files are checked by test/Rules).
  for (size_t i = getBuiltinRuleFiles().size(); i < set->files.size(); ++i) {
    auto report = [&](const SourceLoc &loc, const std::string &message) {
      emitError(loc.toLocation(context)) << message;
      ok = false;
    };
    const RuleFile &file = *set->files[i];
    for (const RuleEntry &entry : file.entries)
      for (const auto *keys : {&entry.backward, &entry.forward})
        for (const DerivativeKey &key : *keys)
          if (key.kind == FormulaKind::Expression)
            resolveFormulaCalls(key.formula, set->catalog, set->helpers,
                                report);
    for (const HelperEntry &helper : file.helpers)
      resolveFormulaCalls(helper.body, set->catalog, set->helpers, report);
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

FailureOr<OpLayout> RuleSet::layoutOf(const CatalogOp &info,
                                     Operation *op) const {
  FailureOr<SmallVector<ValueGroup>> operands = info.operandGroups(op);
  FailureOr<SmallVector<ValueGroup>> results = info.resultGroups(op);
  if (failed(operands) || failed(results))
    return op->emitOpError("operands and results do not match the schema '")
           << info.schema.str() << "'";
  return OpLayout{*operands, *results};
}

/// The group that value `index` belongs to.
static const ValueGroup *groupOf(ArrayRef<ValueGroup> groups, unsigned index) {
  for (const ValueGroup &group : groups)
    if (index >= group.start && index < group.start + group.size)
      return &group;
  return nullptr;
}

/// A group as a formula value: a tensor, None for an absent `Tensor?`, a
/// tuple for `Tensor[]`.
static FormulaValue groupValue(const SchemaType &type, ValueRange values,
                               const ValueGroup &group,
                               function_ref<FormulaValue(Value)> wrap) {
  if (type.stripOptional().isList()) {
    std::vector<FormulaValue> elements;
    for (Value value : values.slice(group.start, group.size))
      elements.push_back(wrap(value));
    return FormulaValue::tuple(std::move(elements));
  }
  if (group.size == 0)
    return FormulaValue::none();
  return wrap(values[group.start]);
}

StringRef RuleSet::operandName(const CatalogOp &info, const OpLayout &layout,
                               unsigned index) const {
  const ValueGroup *group = groupOf(layout.operands, index);
  return group ? StringRef(info.schema.arguments[group->position].name)
               : StringRef();
}

Bindings RuleSet::bindInputs(const CatalogOp &info, Operation *op,
                             const OpLayout &layout) const {
  Bindings bindings;
  auto asTensor = [](Value v) { return FormulaValue::ofTensor(v); };
  for (const ValueGroup &group : layout.operands) {
    const SchemaArgument &arg = info.schema.arguments[group.position];
    bindings[arg.name] =
        groupValue(arg.type, op->getOperands(), group, asTensor);
  }
  for (const SchemaArgument &arg : info.schema.arguments)
    if (!arg.type.isTensorLike())
      bindings[arg.name] = Binder::fromAttribute(arg, op->getAttr(arg.name));
  std::vector<std::string> outputs = info.schema.outputNames();
  for (const ValueGroup &group : layout.results)
    if (group.position < outputs.size())
      bindings[outputs[group.position]] =
          groupValue(info.schema.returns[group.position].type,
                     op->getResults(), group, asTensor);
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
  FailureOr<OpLayout> layout = layoutOf(*info, op);
  if (failed(layout))
    return false;
  const DerivativeKey *key =
      entry->findBackward(operandName(*info, *layout, index));
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

  FailureOr<OpLayout> layout = layoutOf(*info, op);
  if (failed(layout))
    return failure();
  Bindings bindings = bindInputs(*info, op, *layout);
  std::vector<FormulaValue> grads;
  for (auto [result, cotangent] :
       llvm::zip_equal(op->getResults(), resultCotangents))
    // A missing cotangent is a zero of the result's sizes (read off the
    // result where they are dynamic).
    grads.push_back(cotangent ? FormulaValue::ofTensor(cotangent)
                              : FormulaValue::zero(cast<RankedTensorType>(
                                                       result.getType()),
                                                   result));
  // `grad` is the cotangent of the single output, or, as upstream, of the
  // only differentiable one (max.dim's values, native_dropout's output).
  SmallVector<unsigned> differentiableResults;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    if (isDifferentiableResult(op, i))
      differentiableResults.push_back(i);
  bool singleList =
      grads.size() == 1 && !layout->results.empty() &&
      info->schema.returns[layout->results[0].position].type.isList();
  if (grads.size() == 1 && !singleList)
    bindings["grad"] = grads[0];
  else if (differentiableResults.size() == 1 && grads.size() > 1)
    bindings["grad"] = grads[differentiableResults.front()];
  std::vector<std::string> outputs = info->schema.outputNames();
  for (const ValueGroup &group : layout->results) {
    if (group.position >= outputs.size())
      continue;
    std::vector<FormulaValue> part(grads.begin() + group.start,
                                   grads.begin() + group.start + group.size);
    bindings["grad_" + outputs[group.position]] =
        info->schema.returns[group.position].type.isList()
            ? FormulaValue::tuple(part)
            : part.front();
  }
  bindings["grads"] = FormulaValue::tuple(grads);

  llvm::StringMap<const ValueGroup *> groupByName;
  for (const ValueGroup &group : layout->operands)
    groupByName[info->schema.arguments[group.position].name] = &group;
  auto anyWanted = [&](const ValueGroup &group) {
    for (unsigned i = group.start; i < group.start + group.size; ++i)
      if (wanted[i])
        return true;
    return false;
  };

  SmallVector<Value> contributions(op->getNumOperands());
  Binder binder(b, op->getLoc(), catalog, helpers);
  Operation *before = b.getInsertionPoint() == b.getInsertionBlock()->begin()
                          ? nullptr
                          : &*std::prev(b.getInsertionPoint());
  for (const DerivativeKey &key : entry->backward) {
    SmallVector<const ValueGroup *> keyGroups;
    std::vector<FormulaValue> mask;
    bool keyWanted = false;
    for (const std::string &name : key.names) {
      const ValueGroup *group = groupByName.lookup(name);
      bool want = group && anyWanted(*group);
      keyWanted |= want;
      keyGroups.push_back(group);
      mask.push_back(FormulaValue::boolean(want));
    }
    if (!keyWanted || key.kind == FormulaKind::NonDifferentiable)
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
    for (auto [group, part] : llvm::zip_equal(keyGroups, parts)) {
      if (!group || !anyWanted(*group))
        continue;
      // A Tensor[] input gets a list of gradients, one per element.
      bool isList =
          info->schema.arguments[group->position].type.stripOptional().isList();
      std::vector<FormulaValue> elements;
      if (isList && part.kind == Kind::Tuple)
        elements = part.elements;
      else if (isList && (part.kind == Kind::None || part.kind == Kind::Zero))
        continue;
      else
        elements.push_back(part);
      if (elements.size() != group->size)
        return emitError(key.formula.loc.toLocation(context))
               << "gradient formula returned " << elements.size()
               << " values for '" << info->schema.arguments[group->position].name
               << "', which has " << group->size;
      for (auto [offset, element] : llvm::enumerate(elements)) {
        unsigned index = group->start + offset;
        if (!wanted[index])
          continue;
        if (element.kind == Kind::Tensor)
          contributions[index] = element.tensor;
        else if (element.kind != Kind::Zero && element.kind != Kind::None)
          return emitError(key.formula.loc.toLocation(context))
                 << "gradient formula returned a " << element.kindName()
                 << ", expected a tensor";
      }
    }
  }
  if (failed(checkSavedValues(*info, *entry, op, *layout, wanted, b, before)))
    return failure();
  return contributions;
}

LogicalResult RuleSet::checkSavedValues(const CatalogOp &info,
                                        const RuleEntry &entry, Operation *op,
                                        const OpLayout &layout,
                                        ArrayRef<bool> wanted, OpBuilder &b,
                                        Operation *before) const {
  // What the rule needs for these gradients (compiler/rules/SavedValues.h).
  llvm::StringSet<> wantedNames;
  for (const ValueGroup &group : layout.operands)
    for (unsigned i = group.start; i < group.start + group.size; ++i)
      if (wanted[i])
        wantedNames.insert(info.schema.arguments[group.position].name);
  SavedValues saved = analyzeSavedValues(entry, helpers, &wantedNames);
  // The primal values of `op` by the names formulas give them.
  DenseMap<Value, SmallVector<StringRef, 1>> names;
  for (const ValueGroup &group : layout.operands)
    for (unsigned i = group.start; i < group.start + group.size; ++i)
      names[op->getOperand(i)].push_back(
          info.schema.arguments[group.position].name);
  std::vector<std::string> outputs = info.schema.outputNames();
  for (const ValueGroup &group : layout.results)
    for (unsigned i = group.start; i < group.start + group.size; ++i)
      if (group.position < outputs.size())
        names[op->getResult(i)].push_back(outputs[group.position]);
  // Every primal value the emitted backward reads must be one the analysis
  // keeps: the VJP saves exactly what the formulas need as values, metadata
  // having folded to constants. A dynamic size is metadata read at run
  // time: the ops that read only a tensor's sizes may take one read for
  // its metadata.
  auto readsSizesOnly = [](Operation *user, unsigned operand) {
    return isa<tad::ShapeAsTensorOp, tad::ZerosLikeOp>(user) ||
           (isa<tad::ExpandAsOp>(user) && operand == 1);
  };
  Block *block = b.getInsertionBlock();
  Block::iterator it = before ? std::next(before->getIterator()) : block->begin();
  for (; it != b.getInsertionPoint(); ++it) {
    WalkResult walk = it->walk([&](Operation *emitted) {
      for (OpOperand &use : emitted->getOpOperands()) {
        auto found = names.find(use.get());
        ValueUse needed = readsSizesOnly(emitted, use.getOperandNumber())
                              ? ValueUse::Metadata
                              : ValueUse::Value;
        if (found == names.end() ||
            llvm::any_of(found->second, [&](StringRef name) {
              return saved.lookup(name) >= needed;
            }))
          continue;
        emitted->emitError("the VJP of 'tad.")
            << info.schema.fullName() << "' reads '" << found->second.front()
            << "', which the saved-value analysis of its rule does not keep";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

/// The JVP of a function linear in its differentiable inputs: the op itself
/// applied to the tangents.
static FailureOr<SmallVector<FormulaValue>>
emitAutoLinear(OpBuilder &b, Binder &binder, Operation *op,
               ArrayRef<FormulaValue> tangents, ArrayRef<bool> differentiable) {
  SmallVector<Value> operands;
  for (auto [index, tangent] : llvm::enumerate(tangents)) {
    if (!differentiable[index]) {
      operands.push_back(op->getOperand(index));
      continue;
    }
    // A zero tangent of a dynamic shape is zeros_like(the operand).
    FailureOr<Value> value = binder.materialize(tangent, op->getOperand(index));
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  Operation *clone = b.clone(*op);
  clone->setOperands(operands);
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

  FailureOr<OpLayout> layout = layoutOf(*info, op);
  if (failed(layout))
    return failure();
  Bindings bindings = bindInputs(*info, op, *layout);
  SmallVector<FormulaValue> tangents;
  SmallVector<bool> differentiable;
  bool anyTangent = false;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    bool diff = isDifferentiableOperand(op, index);
    Value tangent = diff ? operandTangents[index] : Value();
    anyTangent |= static_cast<bool>(tangent);
    tangents.push_back(tangent ? FormulaValue::ofTensor(tangent)
                               : FormulaValue::zero(cast<RankedTensorType>(
                                                        operand.getType()),
                                                    operand));
    differentiable.push_back(diff);
  }
  for (const ValueGroup &group : layout->operands) {
    const SchemaArgument &arg = info->schema.arguments[group.position];
    bindings[arg.name + "_p"] = groupValue(
        arg.type, op->getOperands(), group,
        [](Value v) { return FormulaValue::ofTensor(v); });
    unsigned next = group.start;
    bindings[arg.name + "_t"] =
        groupValue(arg.type, op->getOperands(), group,
                   [&](Value) { return tangents[next++]; });
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
      FailureOr<SmallVector<FormulaValue>> linear =
          emitAutoLinear(b, binder, op, tangents, differentiable);
      if (failed(linear))
        return failure();
      values = std::move(*linear);
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
    if (key.kind == FormulaKind::AutoLinear) {
      for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
        covered[i] = true;
        if (values[i].kind == Kind::Tensor)
          resultTangents[i] = values[i].tensor;
      }
      continue;
    }
    for (auto [position, name] : llvm::enumerate(key.names)) {
      auto it = llvm::find(outputs, name);
      if (it == outputs.end())
        continue;
      unsigned returnIndex = it - outputs.begin();
      const ValueGroup *group = nullptr;
      for (const ValueGroup &g : layout->results)
        if (g.position == returnIndex)
          group = &g;
      if (!group)
        continue;
      const FormulaValue &value = values[position];
      std::vector<FormulaValue> elements;
      if (info->schema.returns[returnIndex].type.isList() &&
          value.kind == Kind::Tuple)
        elements = value.elements;
      else
        elements.push_back(value);
      for (unsigned i = 0; i < group->size && i < elements.size(); ++i) {
        covered[group->start + i] = true;
        if (elements[i].kind == Kind::Tensor)
          resultTangents[group->start + i] = elements[i].tensor;
      }
    }
  }
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    if (!covered[i] && isDifferentiableResult(op, i))
      return missingRule(op, "forward-mode (JVP)");
  return resultTangents;
}

void mlir::tad::rules::registerDefaultRuleLoader() {
  registerDefaultDecompositionsLoader();
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
