//===- OpCatalog.cpp - tad ops indexed by their ATen schemas --------------===//
#include "compiler/rules/OpCatalog.h"

#include "dialects/Tad/TadDialect.h"
#include "dialects/Tad/TadOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::rules;

bool CatalogOp::hasAttribute(StringRef argName) const {
  return llvm::any_of(name.getAttributeNames(), [&](StringAttr attr) {
    return attr.getValue() == argName;
  });
}

/// Whether a schema type stands for a variable number of values.
static bool isVariable(const SchemaType &type) {
  return type.isOptional() || type.isList();
}

/// Splits `total` values into groups of the given types: fixed ones take one
/// value, the single variable one takes the rest. `segments`, when present,
/// gives the sizes directly.
static FailureOr<SmallVector<ValueGroup>>
splitGroups(ArrayRef<std::pair<unsigned, const SchemaType *>> groups,
            unsigned total, DenseI32ArrayAttr segments) {
  SmallVector<ValueGroup> result;
  if (segments) {
    if (segments.size() != static_cast<int64_t>(groups.size()))
      return failure();
    unsigned start = 0;
    for (auto [group, size] : llvm::zip(groups, segments.asArrayRef())) {
      result.push_back({group.first, start, static_cast<unsigned>(size)});
      start += size;
    }
    if (start != total)
      return failure();
    return result;
  }
  unsigned variable = llvm::count_if(
      groups, [](auto &group) { return isVariable(*group.second); });
  if (variable > 1 || groups.size() - variable > total)
    return failure();
  unsigned rest = total - (groups.size() - variable);
  if (variable == 0 && rest != 0)
    return failure();
  unsigned start = 0;
  for (auto [position, type] : groups) {
    unsigned size = isVariable(*type) ? rest : 1;
    result.push_back({position, start, size});
    start += size;
  }
  return result;
}

FailureOr<SmallVector<ValueGroup>>
CatalogOp::operandGroups(Operation *op) const {
  SmallVector<std::pair<unsigned, const SchemaType *>> groups;
  for (unsigned index : operandArguments)
    groups.push_back({index, &schema.arguments[index].type});
  return splitGroups(groups, op->getNumOperands(),
                     op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes"));
}

FailureOr<SmallVector<ValueGroup>>
CatalogOp::resultGroups(Operation *op) const {
  SmallVector<std::pair<unsigned, const SchemaType *>> groups;
  for (auto [index, ret] : llvm::enumerate(schema.returns))
    if (ret.type.isTensorLike())
      groups.push_back({static_cast<unsigned>(index), &ret.type});
  return splitGroups(groups, op->getNumResults(),
                     op->getAttrOfType<DenseI32ArrayAttr>("resultSegmentSizes"));
}

FailureOr<OpCatalog> OpCatalog::build(MLIRContext *context) {
  context->getOrLoadDialect<TadDialect>();
  OpCatalog catalog;
  for (RegisteredOperationName name : context->getRegisteredOperations()) {
    if (name.getDialectNamespace() != TadDialect::getDialectNamespace())
      continue;
    auto *aten = name.getInterface<AtenOpInterface>();
    if (!aten)
      continue;
    std::string error;
    FailureOr<Schema> schema = parseSchema(aten->getAtenSchema(), error);
    if (failed(schema))
      return emitError(UnknownLoc::get(context))
             << "op '" << name.getStringRef()
             << "' declares an invalid ATen schema: " << error;
    auto entry = std::make_unique<CatalogOp>(CatalogOp{name, *schema, {}});
    for (auto [index, arg] : llvm::enumerate(schema->arguments))
      if (arg.type.isTensorLike())
        entry->operandArguments.push_back(index);
    catalog.byFullName[schema->fullName()] = entry.get();
    catalog.byBaseName[schema->baseName].push_back(entry.get());
    catalog.ops.push_back(std::move(entry));
  }
  return catalog;
}

const CatalogOp *OpCatalog::lookup(StringRef fullName) const {
  return byFullName.lookup(fullName);
}

const CatalogOp *OpCatalog::lookup(Operation *op) const {
  StringRef name = op->getName().getStringRef();
  if (!name.consume_front("tad."))
    return nullptr;
  const CatalogOp *entry = lookup(name);
  return entry && entry->name == op->getName() ? entry : nullptr;
}

ArrayRef<const CatalogOp *> OpCatalog::overloads(StringRef baseName) const {
  auto it = byBaseName.find(baseName);
  if (it == byBaseName.end())
    return {};
  return it->second;
}
