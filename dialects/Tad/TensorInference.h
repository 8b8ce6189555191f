//===- TensorInference.h - inference helpers of the tensor ops ---*- C++ -*-===//
//
// Diagnostics and operand access shared by the result-type inference of
// TadReductionOps.cpp, TadMatmulOps.cpp, TadShapeOps.cpp and
// TadIndexingOps.cpp. Errors read "'tad.<op>' op ..." at the op.
//
//===----------------------------------------------------------------------===//
#ifndef TAD_DIALECT_TENSORINFERENCE_H
#define TAD_DIALECT_TENSORINFERENCE_H

#include "dialects/Tad/ShapeUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/ValueRange.h"

namespace mlir::tad {

struct TensorInference {
  std::optional<Location> loc;
  StringRef opName;
  ValueRange operands;

  template <typename... Args>
  LogicalResult fail(Args &&...args) const {
    return emitOptionalError(loc, "'", opName, "' op ",
                             std::forward<Args>(args)...);
  }

  /// The ranked tensor type of operand `index`, or an error.
  FailureOr<RankedTensorType> tensor(unsigned index) const {
    if (index >= operands.size()) {
      (void)fail("expected at least ", index + 1, " operands");
      return failure();
    }
    auto type = dyn_cast<RankedTensorType>(operands[index].getType());
    if (!type) {
      (void)fail("operand #", index, " must be a ranked tensor, got ",
                 operands[index].getType());
      return failure();
    }
    return type;
  }

  /// `dim` wrapped for `rank`, or an error naming `what`.
  FailureOr<int64_t> dim(int64_t dim, int64_t rank,
                         StringRef what = "dim") const {
    std::optional<int64_t> wrapped = wrapDim(dim, rank);
    if (!wrapped) {
      (void)fail("'", what, "' ", dim, " is out of range for rank ", rank);
      return failure();
    }
    return *wrapped;
  }

  LogicalResult sameElementType(RankedTensorType a, RankedTensorType b) const {
    if (a.getElementType() != b.getElementType())
      return fail("operands have different element types: ",
                  a.getElementType(), " and ", b.getElementType());
    return success();
  }
};

template <typename OpTy>
TensorInference tensorInference(std::optional<Location> loc,
                                ValueRange operands) {
  return TensorInference{loc, OpTy::getOperationName(), operands};
}

} // namespace mlir::tad

#define TAD_INFER(OP)                                                          \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> loc, ValueRange operands,  \
      DictionaryAttr attributes, OpaqueProperties properties,                  \
      RegionRange regions, SmallVectorImpl<Type> &results)

#endif // TAD_DIALECT_TENSORINFERENCE_H
