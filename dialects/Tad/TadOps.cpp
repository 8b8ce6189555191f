//===- TadOps.cpp - tad dialect ops ---------------------------------------===//
//
// Result-type inference implements ATen's shape rules; the verifier that
// InferTypeOpInterface installs compares the inferred and declared types,
// so a wrong shape, rank or attribute is reported where the op is written.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TensorInference.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tad;

#include "dialects/Tad/TadInterfaces.cpp.inc"

/// The size in bytes of `type`'s static dimensions, or nullopt where it
/// overflows int64 (a program with such a tensor cannot be allocated, and
/// the size computations of the generated code would wrap).
static std::optional<int64_t> tensorByteSize(RankedTensorType type) {
  int64_t bytes = llvm::divideCeil(
      std::max<unsigned>(type.getElementTypeBitWidth(), 1), 8);
  for (int64_t dim : type.getShape()) {
    if (ShapedType::isDynamic(dim))
      continue;
    if (llvm::MulOverflow(bytes, dim, bytes))
      return std::nullopt;
  }
  return bytes;
}

LogicalResult mlir::tad::verifyTadOpInvariants(Operation *op) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (info) {
    ArrayRef<StringAttr> declared = info->getAttributeNames();
    for (NamedAttribute attr : op->getAttrs()) {
      // Dialect attributes (`tad.saved`, `llvm.noalias`...) may ride along.
      if (attr.getName().getValue().contains('.') ||
          llvm::is_contained(declared, attr.getName()))
        continue;
      return op->emitOpError("has no attribute '")
             << attr.getName().getValue() << "'";
    }
  }
  for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                            op->getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (tensor && tensor.getElementType().isIntOrFloat() &&
        !tensorByteSize(tensor))
      return op->emitOpError("uses ")
             << tensor << ", whose size in bytes overflows a 64-bit integer";
  }
  return success();
}

namespace {
/// Inference over explicit operand ranges (the base class's diagnostics).
struct TypeInference : TensorInference {
  using TensorInference::tensor;

  /// The ranked tensor type of an operand, or an error.
  FailureOr<RankedTensorType> tensor(ValueRange operands, unsigned index) const {
    return TensorInference{loc, opName, operands}.tensor(index);
  }

  /// Broadcast type of operands `i` and `j`.
  FailureOr<RankedTensorType> broadcast(ValueRange operands, unsigned i,
                                        unsigned j) const {
    FailureOr<RankedTensorType> a = tensor(operands, i), b = tensor(operands, j);
    if (failed(a) || failed(b) || failed(sameElementType(*a, *b)))
      return failure();
    std::optional<SmallVector<int64_t>> shape =
        broadcastShapes(a->getShape(), b->getShape());
    if (!shape) {
      (void)fail("shapes ", shapeToString(a->getShape()), " and ",
                 shapeToString(b->getShape()),
                 " are not broadcast-compatible");
      return failure();
    }
    return RankedTensorType::get(*shape, a->getElementType());
  }
};
} // namespace

template <typename OpTy>
static TypeInference inference(std::optional<Location> loc) {
  return TypeInference{{loc, OpTy::getOperationName(), {}}};
}

/// Result type = broadcast of operands 0 and 1.
template <typename OpTy>
static LogicalResult inferBroadcast(std::optional<Location> loc,
                                    ValueRange operands,
                                    SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> type =
      inference<OpTy>(loc).broadcast(operands, 0, 1);
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

#define TAD_INFER_SIGNATURE(OP)                                                \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> loc, ValueRange operands,  \
      DictionaryAttr attributes, OpaqueProperties properties,                  \
      RegionRange regions, SmallVectorImpl<Type> &results)

// Ops with AllTypesMatch<["self", "result"]> get their inference from ODS.

// Elementwise ops on two broadcast tensors.
#define TAD_INFER_BROADCAST(OP)                                                \
  TAD_INFER_SIGNATURE(OP) { return inferBroadcast<OP>(loc, operands, results); }
TAD_INFER_BROADCAST(AddTensorOp)
TAD_INFER_BROADCAST(SubTensorOp)
TAD_INFER_BROADCAST(MulTensorOp)
TAD_INFER_BROADCAST(DivTensorOp)
TAD_INFER_BROADCAST(ThresholdBackwardOp)
TAD_INFER_BROADCAST(TanhBackwardOp)
TAD_INFER_BROADCAST(SigmoidBackwardOp)
#undef TAD_INFER_BROADCAST

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// [n, k] x [k, m] -> [n, m].
static FailureOr<RankedTensorType> inferMatmul(const TypeInference &infer,
                                               ValueRange operands,
                                               unsigned lhsIndex) {
  FailureOr<RankedTensorType> lhs = infer.tensor(operands, lhsIndex);
  FailureOr<RankedTensorType> rhs = infer.tensor(operands, lhsIndex + 1);
  if (failed(lhs) || failed(rhs) || failed(infer.sameElementType(*lhs, *rhs)))
    return failure();
  if (lhs->getRank() != 2 || rhs->getRank() != 2) {
    (void)infer.fail("expects 2-D matrices, got shapes ",
                     shapeToString(lhs->getShape()), " and ",
                     shapeToString(rhs->getShape()));
    return failure();
  }
  if (!dimsCompatible(lhs->getDimSize(1), rhs->getDimSize(0))) {
    (void)infer.fail("cannot multiply shapes ",
                     shapeToString(lhs->getShape()), " and ",
                     shapeToString(rhs->getShape()),
                     ": inner dimensions differ");
    return failure();
  }
  return RankedTensorType::get({lhs->getDimSize(0), rhs->getDimSize(1)},
                               lhs->getElementType());
}

TAD_INFER_SIGNATURE(MmOp) {
  FailureOr<RankedTensorType> type =
      inferMatmul(inference<MmOp>(loc), operands, 0);
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

TAD_INFER_SIGNATURE(AddmmOp) {
  TypeInference infer = inference<AddmmOp>(loc);
  FailureOr<RankedTensorType> product = inferMatmul(infer, operands, 1);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(product) || failed(self) ||
      failed(infer.sameElementType(*self, *product)))
    return failure();
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(self->getShape(), product->getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != product->getShape())
    return infer.fail("self of shape ", shapeToString(self->getShape()),
                      " does not broadcast to the product's shape ",
                      shapeToString(product->getShape()));
  results.push_back(*product);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

TAD_INFER_SIGNATURE(SumOp) {
  FailureOr<RankedTensorType> self = inference<SumOp>(loc).tensor(operands, 0);
  if (failed(self))
    return failure();
  results.push_back(RankedTensorType::get({}, self->getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(MeanOp) {
  FailureOr<RankedTensorType> self = inference<MeanOp>(loc).tensor(operands, 0);
  if (failed(self))
    return failure();
  results.push_back(RankedTensorType::get({}, self->getElementType()));
  return success();
}

template <typename OpTy>
static LogicalResult inferDimReduction(std::optional<Location> loc,
                                       ValueRange operands,
                                       DictionaryAttr attributes,
                                       OpaqueProperties properties,
                                       RegionRange regions,
                                       SmallVectorImpl<Type> &results) {
  TypeInference infer = inference<OpTy>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  typename OpTy::Adaptor adaptor(operands, attributes, properties, regions);
  ArrayRef<int64_t> dim;
  if (std::optional<ArrayRef<int64_t>> given = adaptor.getDim())
    dim = *given;
  std::optional<SmallVector<int64_t>> dims = wrapDims(dim, self->getRank());
  if (!dims)
    return infer.fail("'dim' ", shapeToString(dim),
                      " is out of range or repeated for rank ",
                      self->getRank());
  results.push_back(RankedTensorType::get(
      reducedShape(self->getShape(), *dims, adaptor.getKeepdim()),
      self->getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(SumDimIntListOp) {
  return inferDimReduction<SumDimIntListOp>(loc, operands, attributes,
                                            properties, regions, results);
}

TAD_INFER_SIGNATURE(MeanDimOp) {
  return inferDimReduction<MeanDimOp>(loc, operands, attributes, properties,
                                      regions, results);
}

TAD_INFER_SIGNATURE(SumToSizeOp) {
  TypeInference infer = inference<SumToSizeOp>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getSizeAttr())
    return infer.fail("requires attribute 'size'");
  ArrayRef<int64_t> size = adaptor.getSize();
  if (!sumToSizeDims(self->getShape(), size))
    return infer.fail("shape ", shapeToString(self->getShape()),
                      " cannot be summed to size ", shapeToString(size));
  results.push_back(RankedTensorType::get(size, self->getElementType()));
  return success();
}

OpFoldResult SumToSizeOp::fold(FoldAdaptor) {
  if (getSelf().getType() == getType())
    return getSelf();
  return {};
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

TAD_INFER_SIGNATURE(TOp) {
  TypeInference infer = inference<TOp>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  if (self->getRank() > 2)
    return infer.fail("expects a tensor of rank <= 2, got rank ",
                      self->getRank());
  SmallVector<int64_t> shape(llvm::reverse(self->getShape()));
  results.push_back(RankedTensorType::get(shape, self->getElementType()));
  return success();
}

OpFoldResult TOp::fold(FoldAdaptor) {
  Type type = getType();
  if (auto inner = getSelf().getDefiningOp<TOp>())
    if (inner.getSelf().getType() == type)
      return inner.getSelf();
  if (getSelf().getType() == type && cast<ShapedType>(type).getRank() <= 1)
    return getSelf();
  return {};
}

namespace {
/// t(mm(a, b)) -> mm(t(b), t(a)) where a or b is a transpose, so that it
/// cancels (see TOp's description).
struct TransposeOfProduct : OpRewritePattern<TOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TOp op,
                                PatternRewriter &rewriter) const override {
    auto mm = op.getSelf().getDefiningOp<MmOp>();
    if (!mm || !mm->hasOneUse())
      return failure();
    Value a = mm.getSelf(), b = mm.getMat2();
    if (!a.getDefiningOp<TOp>() && !b.getDefiningOp<TOp>())
      return failure();
    Location loc = op.getLoc();
    Value bt = rewriter.createOrFold<TOp>(loc, b);
    Value at = rewriter.createOrFold<TOp>(loc, a);
    Value product = MmOp::create(rewriter, loc, bt, at);
    if (product.getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, product);
    return success();
  }
};
} // namespace

void TOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                      MLIRContext *context) {
  patterns.add<TransposeOfProduct>(context);
}

TAD_INFER_SIGNATURE(TransposeIntOp) {
  TypeInference infer = inference<TransposeIntOp>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDim0Attr() || !adaptor.getDim1Attr())
    return infer.fail("requires attributes 'dim0' and 'dim1'");
  int64_t rank = self->getRank();
  std::optional<int64_t> dim0 = wrapDim(adaptor.getDim0(), rank);
  std::optional<int64_t> dim1 = wrapDim(adaptor.getDim1(), rank);
  if (!dim0 || !dim1)
    return infer.fail("dimensions (", static_cast<int64_t>(adaptor.getDim0()),
                      ", ", static_cast<int64_t>(adaptor.getDim1()),
                      ") are out of range for rank ", rank);
  SmallVector<int64_t> shape(self->getShape());
  if (rank > 0)
    std::swap(shape[*dim0], shape[*dim1]);
  results.push_back(RankedTensorType::get(shape, self->getElementType()));
  return success();
}

OpFoldResult TransposeIntOp::fold(FoldAdaptor) {
  int64_t rank = getSelf().getType().getRank();
  std::optional<int64_t> dim0 = wrapDim(getDim0(), rank);
  std::optional<int64_t> dim1 = wrapDim(getDim1(), rank);
  if (dim0 && dim1 && *dim0 == *dim1)
    return getSelf();
  return {};
}

TAD_INFER_SIGNATURE(ExpandOp) {
  TypeInference infer = inference<ExpandOp>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getSizeAttr())
    return infer.fail("requires attribute 'size'");
  std::optional<SmallVector<int64_t>> shape =
      inferExpandShape(self->getShape(), adaptor.getSize());
  if (!shape)
    return infer.fail("cannot expand shape ", shapeToString(self->getShape()),
                      " to size ", shapeToString(adaptor.getSize()));
  results.push_back(RankedTensorType::get(*shape, self->getElementType()));
  return success();
}

OpFoldResult ExpandOp::fold(FoldAdaptor) {
  if (getSelf().getType() == getType())
    return getSelf();
  return {};
}

template <typename OpTy>
static LogicalResult inferView(std::optional<Location> loc,
                               ValueRange operands, ArrayRef<int64_t> size,
                               bool hasSize, StringRef attrName,
                               SmallVectorImpl<Type> &results) {
  TypeInference infer = inference<OpTy>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  if (!hasSize)
    return infer.fail("requires attribute '", attrName, "'");
  // The element count of a dynamic shape is known at run time only: the
  // size -1 becomes a dynamic size, the rest must be valid sizes, and
  // tad-check-shapes compares the element counts.
  if (!self->hasStaticShape()) {
    if (llvm::count(size, -1) > 1 ||
        llvm::any_of(size, [](int64_t s) { return s < -1; }))
      return infer.fail("'", attrName, "' ", shapeToString(size),
                        " is invalid for a tensor of shape ",
                        shapeToString(self->getShape()));
    SmallVector<int64_t> result(size);
    for (int64_t &s : result)
      if (s == -1)
        s = ShapedType::kDynamic;
    results.push_back(RankedTensorType::get(result, self->getElementType()));
    return success();
  }
  std::optional<SmallVector<int64_t>> shape =
      inferViewShape(size, self->getNumElements());
  if (!shape)
    return infer.fail("'", attrName, "' ", shapeToString(size),
                      " is invalid for a tensor of ", self->getNumElements(),
                      " elements");
  results.push_back(RankedTensorType::get(*shape, self->getElementType()));
  return success();
}

// _unsafe_view is view under value semantics (TadShapeOps.td).
TAD_INFER_SIGNATURE(UnsafeViewOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  bool hasSize = static_cast<bool>(adaptor.getSizeAttr());
  return inferView<UnsafeViewOp>(
      loc, operands, hasSize ? adaptor.getSize() : ArrayRef<int64_t>(),
      hasSize, "size", results);
}

TAD_INFER_SIGNATURE(ViewOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  bool hasSize = static_cast<bool>(adaptor.getSizeAttr());
  return inferView<ViewOp>(loc, operands,
                           hasSize ? adaptor.getSize() : ArrayRef<int64_t>(),
                           hasSize, "size", results);
}

TAD_INFER_SIGNATURE(ReshapeOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  bool hasShape = static_cast<bool>(adaptor.getShapeAttr());
  return inferView<ReshapeOp>(
      loc, operands, hasShape ? adaptor.getShape() : ArrayRef<int64_t>(),
      hasShape, "shape", results);
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  if (getSelf().getType() == getType())
    return getSelf();
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getSelf().getType() == getType())
    return getSelf();
  return {};
}

TAD_INFER_SIGNATURE(UnsqueezeOp) {
  TypeInference infer = inference<UnsqueezeOp>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr())
    return infer.fail("requires attribute 'dim'");
  // The new dimension may be placed after the last one.
  std::optional<int64_t> dim = wrapDim(adaptor.getDim(), self->getRank() + 1);
  if (!dim)
    return infer.fail("'dim' ", static_cast<int64_t>(adaptor.getDim()),
                      " is out of range for rank ", self->getRank());
  SmallVector<int64_t> shape(self->getShape());
  shape.insert(shape.begin() + *dim, 1);
  results.push_back(RankedTensorType::get(shape, self->getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(SqueezeDimOp) {
  TypeInference infer = inference<SqueezeDimOp>(loc);
  FailureOr<RankedTensorType> self = infer.tensor(operands, 0);
  if (failed(self))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getDimAttr())
    return infer.fail("requires attribute 'dim'");
  std::optional<int64_t> dim = wrapDim(adaptor.getDim(), self->getRank());
  if (!dim)
    return infer.fail("'dim' ", static_cast<int64_t>(adaptor.getDim()),
                      " is out of range for rank ", self->getRank());
  SmallVector<int64_t> shape(self->getShape());
  if (self->getRank() > 0 && ShapedType::isDynamic(shape[*dim]))
    return infer.fail("cannot squeeze dimension ", *dim, " of ",
                      shapeToString(shape), ": whether its size is 1 is "
                      "known at run time only");
  // ATen leaves a dimension whose size is not 1 in place.
  if (self->getRank() > 0 && shape[*dim] == 1)
    shape.erase(shape.begin() + *dim);
  results.push_back(RankedTensorType::get(shape, self->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

static LogicalResult checkReduction(const TypeInference &infer,
                                    int64_t reduction) {
  if (reduction < 0 || reduction > 2)
    return infer.fail("'reduction' must be 0 (none), 1 (mean) or 2 (sum), got ",
                      reduction);
  return success();
}

TAD_INFER_SIGNATURE(MseLossOp) {
  TypeInference infer = inference<MseLossOp>(loc);
  FailureOr<RankedTensorType> type = infer.broadcast(operands, 0, 1);
  if (failed(type))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (failed(checkReduction(infer, adaptor.getReduction())))
    return failure();
  if (adaptor.getReduction() == 0)
    results.push_back(*type);
  else
    results.push_back(RankedTensorType::get({}, type->getElementType()));
  return success();
}

TAD_INFER_SIGNATURE(MseLossBackwardOp) {
  TypeInference infer = inference<MseLossBackwardOp>(loc);
  FailureOr<RankedTensorType> type = infer.broadcast(operands, 1, 2);
  FailureOr<RankedTensorType> grad = infer.tensor(operands, 0);
  if (failed(type) || failed(grad) ||
      failed(infer.sameElementType(*grad, *type)))
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getReductionAttr())
    return infer.fail("requires attribute 'reduction'");
  if (failed(checkReduction(infer, adaptor.getReduction())))
    return failure();
  // grad_output broadcasts to the result; it may not enlarge it.
  std::optional<SmallVector<int64_t>> gradShape =
      broadcastShapes(grad->getShape(), type->getShape());
  if (!gradShape || ArrayRef<int64_t>(*gradShape) != type->getShape())
    return infer.fail("grad_output of shape ", shapeToString(grad->getShape()),
                      " does not broadcast to ",
                      shapeToString(type->getShape()));
  results.push_back(*type);
  return success();
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

TAD_INFER_SIGNATURE(ConstantOp) {
  Adaptor adaptor(operands, attributes, properties, regions);
  auto value = dyn_cast_or_null<ElementsAttr>(adaptor.getValueAttr());
  if (!value)
    return emitOptionalError(loc, "'tad.constant' op requires an elements "
                                  "attribute 'value'");
  results.push_back(value.getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

#undef TAD_INFER_SIGNATURE

#define GET_OP_CLASSES
// TadOps.cpp.inc with a tblgen quoting bug fixed (FixOpDefs.cmake).
#include "dialects/Tad/TadOps.fixed.cpp.inc"
