//===- TadDialect.cpp - the tad dialect -----------------------------------===//
#include "dialects/Tad/TadDialect.h"
#include "dialects/Tad/TadOps.h"

using namespace mlir;
using namespace mlir::tad;

#include "dialects/Tad/TadDialect.cpp.inc"

void TadDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Tad/TadOps.cpp.inc"
      >();
}

Operation *TadDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
