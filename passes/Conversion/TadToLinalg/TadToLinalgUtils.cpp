//===- TadToLinalgUtils.cpp - IR builders for tad-to-linalg ---------------===//
//
// The few shapes of IR that every tad op lowers to: broadcasting elementwise
// generics, sum generics with reduction iterators, fills and reshapes. Keeping
// elementwise work in plain all-parallel generics whose broadcasts live in
// the indexing maps lets linalg-fuse-elementwise-ops fuse chains of them.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/ShapeUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

Value lowering::floatConstant(OpBuilder &b, Location loc, Type type,
                              double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value lowering::scaleBy(OpBuilder &b, Location loc, Value value,
                        double factor) {
  if (factor == 1.0)
    return value;
  Value c = floatConstant(b, loc, value.getType(), factor);
  return arith::MulFOp::create(b, loc, value, c);
}

Value lowering::zeroConstant(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
}

AffineMap lowering::broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> input,
                                 ArrayRef<int64_t> domain) {
  size_t lead = domain.size() - input.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(input)) {
    size_t dim = lead + i;
    if (size == 1 && domain[dim] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(dim, ctx));
  }
  return AffineMap::get(domain.size(), /*symbolCount=*/0, exprs, ctx);
}

Value lowering::filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                             Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType());
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

/// Maps for `inputs` broadcast into `domain`.
static SmallVector<AffineMap> inputMaps(MLIRContext *ctx, ValueRange inputs,
                                        ArrayRef<int64_t> domain) {
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(broadcastMap(
        ctx, cast<RankedTensorType>(input.getType()).getShape(), domain));
  return maps;
}

Value lowering::buildElementwise(OpBuilder &b, Location loc,
                                 RankedTensorType resultType, ValueRange inputs,
                                 ScalarFn body) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = resultType.getRank();
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  SmallVector<AffineMap> maps = inputMaps(ctx, inputs, resultType.getShape());
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value element = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, element);
      });
  return generic.getResult(0);
}

Value lowering::buildSum(OpBuilder &b, Location loc, ArrayRef<int64_t> domain,
                         Type elementType, ValueRange inputs,
                         ArrayRef<int64_t> dims, ScalarFn body) {
  MLIRContext *ctx = b.getContext();
  auto resultType = RankedTensorType::get(
      reducedShape(domain, dims, /*keepdim=*/false), elementType);
  Value init =
      filledTensor(b, loc, resultType, zeroConstant(b, loc, elementType));

  SmallVector<AffineMap> maps = inputMaps(ctx, inputs, domain);
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0, e = domain.size(); d < e; ++d) {
    if (llvm::is_contained(dims, d)) {
      iterators.push_back(utils::IteratorType::reduction);
    } else {
      iterators.push_back(utils::IteratorType::parallel);
      kept.push_back(getAffineDimExpr(d, ctx));
    }
  }
  maps.push_back(AffineMap::get(domain.size(), /*symbolCount=*/0, kept, ctx));

  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value element = body(nested, nestedLoc, args.drop_back());
        Value sum =
            arith::AddFOp::create(nested, nestedLoc, element, args.back());
        linalg::YieldOp::create(nested, nestedLoc, sum);
      });
  return generic.getResult(0);
}

Value lowering::divideBy(OpBuilder &b, Location loc, Value value,
                         double divisor) {
  auto type = cast<RankedTensorType>(value.getType());
  return buildElementwise(
      b, loc, type, value, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value d = floatConstant(nb, nl, type.getElementType(), divisor);
        return arith::DivFOp::create(nb, nl, args[0], d).getResult();
      });
}

/// Reassociation that groups all `rank` dimensions into one (none for rank 0).
static SmallVector<ReassociationIndices> groupAll(int64_t rank) {
  if (rank == 0)
    return {};
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  return {all};
}

Value lowering::reshapeTo(OpBuilder &b, Location loc, Value value,
                          RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source == type)
    return value;
  ArrayRef<int64_t> from = source.getShape(), to = type.getShape();
  if (from.size() > to.size())
    if (auto groups = getReassociationIndicesForCollapse(from, to))
      return tensor::CollapseShapeOp::create(b, loc, type, value, *groups);
  if (from.size() < to.size())
    if (auto groups = getReassociationIndicesForCollapse(to, from))
      return tensor::ExpandShapeOp::create(b, loc, type, value, *groups);

  // No direct reassociation: every static reshape factors through 1-D.
  auto flat =
      RankedTensorType::get({source.getNumElements()}, type.getElementType());
  Value flatValue = value;
  if (source.getRank() > 1)
    flatValue = tensor::CollapseShapeOp::create(b, loc, flat, value,
                                                groupAll(source.getRank()));
  else if (source.getRank() == 0)
    flatValue = tensor::ExpandShapeOp::create(b, loc, flat, value,
                                              SmallVector<ReassociationIndices>{});
  if (type.getRank() == 1)
    return flatValue;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flatValue,
                                           SmallVector<ReassociationIndices>{});
  return tensor::ExpandShapeOp::create(b, loc, type, flatValue,
                                       groupAll(type.getRank()));
}

int64_t lowering::numElements(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims)
    count *= shape[d];
  return count;
}

bool lowering::hasStaticShapes(Operation *op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}
