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
