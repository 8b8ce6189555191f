//===- TadOps.h - tad dialect ops --------------------------------*- C++ -*-===//
#ifndef TAD_DIALECT_TADOPS_H
#define TAD_DIALECT_TADOPS_H

#include "dialects/Tad/TadDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Tad/TadInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/Tad/TadOps.h.inc"

#endif // TAD_DIALECT_TADOPS_H
