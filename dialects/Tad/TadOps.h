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

namespace mlir::tad {
/// What every tad op checks besides its own verifier: no attribute the op
/// does not declare (dialect-prefixed discardable attributes aside), and no
/// tensor whose size in bytes a 64-bit integer cannot hold.
LogicalResult verifyTadOpInvariants(Operation *op);
} // namespace mlir::tad

namespace mlir::OpTrait::tad {
template <typename ConcreteType>
class TadOpInvariants : public TraitBase<ConcreteType, TadOpInvariants> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::tad::verifyTadOpInvariants(op);
  }
};

/// Marks ops whose tensor operands broadcast together into the result's
/// shape (Tad_BroadcastingOperands).
template <typename ConcreteType>
class BroadcastingOperands
    : public TraitBase<ConcreteType, BroadcastingOperands> {};
} // namespace mlir::OpTrait::tad

#define GET_OP_CLASSES
#include "dialects/Tad/TadOps.h.inc"

#endif // TAD_DIALECT_TADOPS_H
