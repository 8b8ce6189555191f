//===- Decomposer.cpp - composite ops by formula (decompositions.yaml) ----===//
#include "compiler/rules/Decomposer.h"

#include "compiler/rules/Binder.h"
#include "compiler/rules/BuiltinRules.h"
#include "compiler/rules/OpCatalog.h"
#include "compiler/rules/RuleFile.h"
#include "passes/AD/Decompositions.h"

#include "mlir/IR/Diagnostics.h"

#include <memory>
#include <vector>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::rules;

namespace {

class RuleDecompositions : public Decompositions {
public:
  static FailureOr<std::shared_ptr<RuleDecompositions>>
  load(MLIRContext *context, ArrayRef<std::string> extraFiles);

  bool hasDecomposition(Operation *op) override {
    const CatalogOp *info = catalog.lookup(op);
    return info && entries.count(info->schema.fullName());
  }

  FailureOr<SmallVector<Value>> decompose(OpBuilder &b, Operation *op) override;

private:
  explicit RuleDecompositions(OpCatalog catalog) : catalog(std::move(catalog)) {}

  /// Adds the entries of a decomposition file (its helper-format entries).
  LogicalResult addDecompositions(MLIRContext *context, RuleFile file);

  OpCatalog catalog;
  std::vector<std::unique_ptr<RuleFile>> files;
  HelperTable helpers; // helpers.yaml and non-op entries
  llvm::StringMap<const HelperEntry *> entries;       // by op full name
};

} // namespace

FailureOr<std::shared_ptr<RuleDecompositions>>
RuleDecompositions::load(MLIRContext *context, ArrayRef<std::string> extraFiles) {
  FailureOr<OpCatalog> catalog = OpCatalog::build(context);
  if (failed(catalog))
    return failure();
  std::shared_ptr<RuleDecompositions> set(new RuleDecompositions(std::move(*catalog)));
  bool ok = true;
  // Decomposition formulas may call the helpers of the derivative rules.
  for (const BuiltinRuleFile &builtin : getBuiltinRuleFiles()) {
    FailureOr<RuleFile> file = parseRuleFile(context, builtin.contents, builtin.path);
    if (failed(file)) {
      ok = false;
      continue;
    }
    set->files.push_back(std::make_unique<RuleFile>(std::move(*file)));
    for (const HelperEntry &helper : set->files.back()->helpers)
      set->helpers[helper.signature.baseName] = &helper;
  }
  BuiltinRuleFile decompositions = getBuiltinDecompositionFile();
  FailureOr<RuleFile> builtin =
      parseRuleFile(context, decompositions.contents, decompositions.path);
  ok &= succeeded(builtin) && succeeded(set->addDecompositions(context, std::move(*builtin)));
  for (const std::string &path : extraFiles) {
    FailureOr<RuleFile> file = loadRuleFile(context, path);
    // A `rules=` file may hold derivative rules too; only its helper-format
    // entries that name an op are decompositions.
    ok &= succeeded(file) && succeeded(set->addDecompositions(context, std::move(*file)));
  }
  if (!ok)
    return failure();
  return set;
}

LogicalResult RuleDecompositions::addDecompositions(MLIRContext *context,
                                                    RuleFile parsed) {
  files.push_back(std::make_unique<RuleFile>(std::move(parsed)));
  bool ok = true;
  for (const HelperEntry &entry : files.back()->helpers) {
    std::string name = entry.signature.fullName();
    const CatalogOp *op = catalog.lookup(name);
    if (!op) {
      // Not an op: a helper of the decomposition formulas.
      helpers[entry.signature.baseName] = &entry;
      continue;
    }
    if (op->schema.str() != entry.signature.str()) {
      emitError(entry.loc.toLocation(context))
          << "schema of the decomposition of '" << name << "' differs from 'tad."
          << name << "': it has '" << entry.signature.str()
          << "', the op implements '" << op->schema.str() << "'";
      ok = false;
      continue;
    }
    entries[name] = &entry;
  }
  return success(ok);
}

FailureOr<SmallVector<Value>> RuleDecompositions::decompose(OpBuilder &b,
                                                            Operation *op) {
  const CatalogOp *info = catalog.lookup(op);
  const HelperEntry *entry = info ? entries.lookup(info->schema.fullName()) : nullptr;
  if (!entry || !entry->body.expr)
    return op->emitOpError("has no decomposition");
  FailureOr<SmallVector<ValueGroup>> groups = info->operandGroups(op);
  if (failed(groups))
    return op->emitOpError("operands do not match the schema '")
           << info->schema.str() << "'";

  // Tensor arguments by name (None for an absent Tensor?, a tuple for
  // Tensor[]), the others from the attributes or the schema's defaults.
  Bindings bindings;
  for (const ValueGroup &group : *groups) {
    const SchemaArgument &arg = info->schema.arguments[group.position];
    ValueRange values = op->getOperands().slice(group.start, group.size);
    if (arg.type.stripOptional().isList()) {
      std::vector<FormulaValue> elements;
      for (Value v : values)
        elements.push_back(FormulaValue::ofTensor(v));
      bindings[arg.name] = FormulaValue::tuple(std::move(elements));
    } else {
      bindings[arg.name] =
          values.empty() ? FormulaValue::none() : FormulaValue::ofTensor(values.front());
    }
  }
  for (const SchemaArgument &arg : info->schema.arguments)
    if (!arg.type.isTensorLike())
      bindings[arg.name] = Binder::fromAttribute(arg, op->getAttr(arg.name));

  Binder binder(b, op->getLoc(), catalog, helpers, "decomposing");
  FailureOr<FormulaValue> value =
      binder.evaluate(*entry->body.expr, entry->body.loc, bindings);
  if (failed(value))
    return failure();
  std::vector<FormulaValue> parts;
  if (value->kind == FormulaValue::Kind::Tuple)
    parts = value->elements;
  else
    parts.push_back(*value);
  if (parts.size() != op->getNumResults())
    return op->emitOpError("decomposition returned ")
           << parts.size() << " values for " << op->getNumResults() << " results";
  SmallVector<Value> results;
  for (auto [part, result] : llvm::zip_equal(parts, op->getResults())) {
    if (!part.isTensorLike())
      return op->emitOpError("decomposition returned a ")
             << part.kindName() << " for a tensor result";
    // A zero of a dynamic shape takes its sizes from an operand of the
    // result's type, where the op has one.
    Value like;
    for (Value operand : op->getOperands())
      if (operand.getType() == result.getType())
        like = operand;
    FailureOr<Value> materialized = binder.materialize(part, like);
    if (failed(materialized))
      return failure();
    Value v = *materialized;
    if (v.getType() != result.getType())
      return op->emitOpError("decomposition returned a value of type ")
             << v.getType() << " for a result of type " << result.getType();
    results.push_back(v);
  }
  return results;
}

void mlir::tad::rules::registerDefaultDecompositionsLoader() {
  setDecompositionsLoader([](MLIRContext *context, ArrayRef<std::string> extraFiles)
                              -> FailureOr<std::shared_ptr<Decompositions>> {
    FailureOr<std::shared_ptr<RuleDecompositions>> set =
        RuleDecompositions::load(context, extraFiles);
    if (failed(set))
      return failure();
    return std::shared_ptr<Decompositions>(*set);
  });
}
