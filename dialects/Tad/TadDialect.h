//===- TadDialect.h - the tad dialect ----------------------------*- C++ -*-===//
#ifndef TAD_DIALECT_TADDIALECT_H
#define TAD_DIALECT_TADDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/Tad/TadDialect.h.inc"

#endif // TAD_DIALECT_TADDIALECT_H
