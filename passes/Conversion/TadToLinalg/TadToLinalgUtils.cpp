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
#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "llvm/ADT/TypeSwitch.h"

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

Value lowering::emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                            ArrayRef<SizeSource> sources) {
  SmallVector<Value> sizes;
  for (auto [i, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      sizes.push_back(tensor::DimOp::create(b, loc, sources[i].value,
                                            sources[i].dim));
  return tensor::EmptyOp::create(b, loc, type, sizes);
}

SmallVector<SizeSource> lowering::broadcastSources(ArrayRef<int64_t> shape,
                                                   ValueRange inputs) {
  SmallVector<SizeSource> sources(shape.size());
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    // A dynamic size never broadcasts (tad-check-shapes): any input that
    // is dynamic in this dimension has the result's size there.
    for (Value input : inputs) {
      auto type = cast<RankedTensorType>(input.getType());
      int64_t dim = static_cast<int64_t>(i) -
                    static_cast<int64_t>(shape.size() - type.getRank());
      if (dim >= 0 && type.isDynamicDim(dim)) {
        sources[i] = {input, dim};
        break;
      }
    }
    assert(sources[i].value && "a dynamic size without a dynamic input");
  }
  return sources;
}

SmallVector<OpFoldResult> lowering::indexAttrs(OpBuilder &b,
                                               ArrayRef<int64_t> values) {
  return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
    return b.getIndexAttr(v);
  });
}

SmallVector<OpFoldResult> lowering::mixedSizes(OpBuilder &b, Location loc,
                                               ArrayRef<int64_t> sizes,
                                               Value like) {
  SmallVector<OpFoldResult> mixed;
  for (auto [d, size] : llvm::enumerate(sizes))
    mixed.push_back(ShapedType::isDynamic(size)
                        ? OpFoldResult(tensor::DimOp::create(b, loc, like, d)
                                           .getResult())
                        : b.getIndexAttr(size));
  return mixed;
}

Value lowering::filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                             Value value, ArrayRef<SizeSource> sources) {
  Value empty = emptyTensor(b, loc, type, sources);
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
  Value init = emptyTensor(b, loc, resultType,
                           broadcastSources(resultType.getShape(), inputs));
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
  SmallVector<SizeSource> sources;
  for (auto [d, source] : llvm::enumerate(broadcastSources(domain, inputs)))
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      sources.push_back(source);
  Value init = filledTensor(b, loc, resultType,
                            zeroConstant(b, loc, elementType), sources);

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

Value lowering::divideBy(OpBuilder &b, Location loc, Value value,
                         Value divisor) {
  auto type = cast<RankedTensorType>(value.getType());
  return buildElementwise(
      b, loc, type, value, [&](OpBuilder &nb, Location nl, ValueRange args) {
        return arith::DivFOp::create(nb, nl, args[0], divisor).getResult();
      });
}

Value lowering::elementCount(OpBuilder &b, Location loc,
                             ArrayRef<int64_t> shape, ArrayRef<int64_t> dims,
                             ArrayRef<SizeSource> sources, Type floatType) {
  int64_t known = 1;
  Value count;
  for (int64_t d : dims) {
    if (!ShapedType::isDynamic(shape[d])) {
      known *= shape[d];
      continue;
    }
    Value size = tensor::DimOp::create(b, loc, sources[d].value, sources[d].dim);
    count = count ? arith::MulIOp::create(b, loc, count, size).getResult()
                  : size;
  }
  if (!count)
    return floatConstant(b, loc, floatType, static_cast<double>(known));
  Value asInt = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count);
  Value asFloat = arith::UIToFPOp::create(b, loc, floatType, asInt);
  if (known == 1)
    return asFloat;
  return arith::MulFOp::create(
      b, loc, asFloat,
      floatConstant(b, loc, floatType, static_cast<double>(known)));
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

/// Sizes of `to`'s dynamic dimensions when `value` (of the same element
/// count) expands into it by `groups`: each group has at most one dynamic
/// size, the source's size divided by the group's static sizes.
static SmallVector<OpFoldResult>
expandedSizes(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> to,
              ArrayRef<ReassociationIndices> groups) {
  SmallVector<OpFoldResult> sizes;
  for (auto [sourceDim, group] : llvm::enumerate(groups)) {
    int64_t known = 1;
    for (int64_t d : group)
      if (!ShapedType::isDynamic(to[d]))
        known *= to[d];
    for (int64_t d : group) {
      if (!ShapedType::isDynamic(to[d])) {
        sizes.push_back(b.getIndexAttr(to[d]));
        continue;
      }
      Value size = tensor::DimOp::create(b, loc, value, sourceDim);
      if (known != 1)
        size = arith::DivUIOp::create(
            b, loc, size, arith::ConstantIndexOp::create(b, loc, known));
      sizes.push_back(size);
    }
  }
  return sizes;
}

Value lowering::reshapeTo(OpBuilder &b, Location loc, Value value,
                          RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source == type)
    return value;
  ArrayRef<int64_t> from = source.getShape(), to = type.getShape();
  if (!source.hasStaticShape() || !type.hasStaticShape())
    return reshapeDynamic(b, loc, value, type);
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

Value lowering::reshapeDynamic(OpBuilder &b, Location loc, Value value,
                               RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> from = source.getShape(), to = type.getShape();
  // Direct reassociations first: their groups hold at most one dynamic
  // size each ([?, 784] -> [?, 28, 28] and back).
  if (from.size() > to.size())
    if (auto groups = getReassociationIndicesForCollapse(from, to))
      return tensor::CollapseShapeOp::create(b, loc, type, value, *groups);
  if (from.size() < to.size())
    if (auto groups = getReassociationIndicesForCollapse(to, from))
      if (llvm::all_of(*groups, [&](const ReassociationIndices &group) {
            return llvm::count_if(group, [&](int64_t d) {
                     return ShapedType::isDynamic(to[d]);
                   }) <= 1;
          }))
        return tensor::ExpandShapeOp::create(
            b, loc, type, value, *groups,
            expandedSizes(b, loc, value, to, *groups));
  // Otherwise through 1-D: [?] holds every shape.
  auto flat = RankedTensorType::get({ShapedType::kDynamic},
                                    type.getElementType());
  Value flatValue = value;
  if (source.getRank() > 1)
    flatValue = tensor::CollapseShapeOp::create(b, loc, flat, value,
                                                groupAll(source.getRank()));
  else if (source.getRank() == 1 && source != flat)
    flatValue = tensor::CastOp::create(b, loc, flat, value);
  if (type.getRank() == 1)
    return flatValue.getType() == type
               ? flatValue
               : tensor::CastOp::create(b, loc, type, flatValue).getResult();
  if (type.getRank() == 0) {
    Value one = tensor::CastOp::create(
        b, loc, RankedTensorType::get({1}, type.getElementType()), flatValue);
    return tensor::CollapseShapeOp::create(b, loc, type, one,
                                           SmallVector<ReassociationIndices>{});
  }
  // A static target needs a static collapsed size (the element count,
  // which tad-check-shapes compares at run time).
  if (type.hasStaticShape())
    flatValue = tensor::CastOp::create(
        b, loc,
        RankedTensorType::get({type.getNumElements()}, type.getElementType()),
        flatValue);
  SmallVector<ReassociationIndices> groups = groupAll(type.getRank());
  return tensor::ExpandShapeOp::create(
      b, loc, type, flatValue, groups,
      expandedSizes(b, loc, flatValue, to, groups));
}

int64_t lowering::numElements(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims)
    count *= shape[d];
  return count;
}

/// Whether dimension `dim` (of a rank-`rank` tensor, may be negative) is
/// static in `type`.
static bool isStaticDim(Type type, int64_t dim) {
  auto tensor = cast<RankedTensorType>(type);
  std::optional<int64_t> d = wrapDim(dim, tensor.getRank());
  return d && !tensor.isDynamicDim(*d);
}

/// Whether all of `types` are static in dimension `dim`.
static bool staticIn(TypeRange types, int64_t dim) {
  return llvm::all_of(types, [&](Type type) { return isStaticDim(type, dim); });
}

bool lowering::lowersDynamicShapes(Operation *op) {
  // Each of these lowerings reads dynamic sizes from its operands, and
  // tad-check-shapes checks the sizes it assumes equal.
  if (isa<
          // Elementwise (buildElementwise).
          NegOp, ExpOp, LogOp, TanhOp, SigmoidOp, ReluOp, AddTensorOp,
          SubTensorOp, MulTensorOp, DivTensorOp, ThresholdBackwardOp,
          TanhBackwardOp, SigmoidBackwardOp, AddScalarOp, SubScalarOp,
          RsubScalarOp, MulScalarOp, DivScalarOp,
          // Math and activations (TadToLinalgActivation.cpp, all through
          // buildElementwise; the ops of several operands broadcast them).
          Log1pOp, SqrtOp, RsqrtOp, ReciprocalOp, AbsOp, ErfOp, SinOp, ErfcOp,
          Expm1Op, AtanOp, AsinOp, AcosOp, Atan2Op, CosOp, SignOp, FloorOp,
          PowTensorScalarOp, PowTensorTensorOp, ThresholdOp, GeluOp, SiluOp,
          MishOp, HardswishOp, HardsigmoidOp, LeakyReluOp, EluOp, SoftplusOp,
          HardtanhOp, GeluBackwardOp, LeakyReluBackwardOp,
          SoftplusBackwardOp, HardtanhBackwardOp, HardswishBackwardOp,
          HardsigmoidBackwardOp, EluBackwardOp, MaximumOp, MinimumOp,
          LerpTensorOp, AddcmulOp, AddcdivOp, ClampOp, ClampMinOp, ClampMaxOp,
          ClampTensorOp, WhereSelfOp, WhereScalarOtherOp, WhereScalarSelfOp,
          MaskedFillScalarOp, MaskedFillTensorOp,
          // Comparisons and logical ops (buildElementwise, i1 results).
          EqTensorOp, NeTensorOp, LtTensorOp, LeTensorOp, GtTensorOp,
          GeTensorOp, EqScalarOp, NeScalarOp, LtScalarOp, LeScalarOp,
          GtScalarOp, GeScalarOp, IsnanOp, LogicalNotOp, LogicalAndOp,
          LogicalOrOp,
          // The gamma family (buildElementwise).
          LgammaOp, DigammaOp, PolygammaOp,
          // Conversions (buildElementwise; tad-widen-low-precision's too);
          // detach is its operand.
          ToCopyOp, DetachOp,
          // Dropout (the element index reads the input's sizes).
          NativeDropoutKeyOp, NativeDropoutBackwardOp,
          // Products (buildProduct, addScaledProduct).
          MmOp, AddmmOp, BmmOp, BaddbmmOp, MvOp, DotOp,
          // Reductions and losses (buildSum, elementCount).
          SumOp, MeanOp, SumDimIntListOp, MeanDimOp, SumToSizeOp, MseLossOp,
          MseLossBackwardOp, VarCorrectionOp, StdCorrectionOp,
          VarMeanCorrectionOp,
          // Extrema, norms and scans (buildReduction, buildSum; the
          // accumulators' sizes are self's).
          AmaxOp, AminOp, MaxOp, MinOp, MaxDimOp, MinDimOp, LogsumexpOp,
          LinalgVectorNormOp,
          CumsumOp,
          // Triangles (the mask reads the last two loop indices).
          TrilOp,
          // Creation (self's sizes).
          FullLikeOp,
          // Shapes (reshapeTo, buildTranspose).
          TOp, TransposeIntOp, ExpandOp, ExpandAsOp, ShapeAsTensorOp, ViewOp,
          UnsafeViewOp, ReshapeOp, UnsqueezeOp, SqueezeDimOp, PermuteOp,
          // Classification and the elementwise losses (TadToLinalgNN.cpp;
          // reduceLoss counts the elements at run time).
          SoftmaxOp, LogSoftmaxOp, NllLossForwardOp, NllLossBackwardOp,
          BinaryCrossEntropyOp, BinaryCrossEntropyWithLogitsOp,
          SmoothL1LossOp, HuberLossOp>(op))
    return true;
  // Layer norm over static normalized sizes (its count is a constant);
  // the leading sizes may be dynamic.
  if (auto norm = dyn_cast<NativeLayerNormOp>(op)) {
    auto type = norm.getInput().getType();
    int64_t axis = type.getRank() - norm.getNormalizedShape().size();
    return llvm::none_of(type.getShape().drop_front(axis),
                         ShapedType::isDynamic);
  }
  // Batch norm over a static channel count (its statistics are per
  // channel; their count is read at run time).
  if (isa<NativeBatchNormOp, NativeBatchNormLegitOp,
          NativeBatchNormLegitNoTrainingOp>(op)) {
    auto type = cast<RankedTensorType>(op->getOperand(0).getType());
    return type.getRank() >= 2 && !type.isDynamicDim(1);
  }
  // Slices and joins along a static dimension (TadToLinalgViewsAndSlices.cpp:
  // their other sizes are read from the operands, and tad-check-shapes
  // checks that the pieces of a join agree in them).
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([](SliceTensorOp) { return true; }) // clamped at run time
      .Case<SplitTensorOp, SplitWithSizesOp, UnbindIntOp>(
          [](auto slice) {
            return staticIn(slice.getSelf().getType(), slice.getDim());
          })
      .Case([](SliceBackwardOp slice) {
        return staticIn(slice.getType(), slice.getDim());
      })
      .Case([](SelectIntOp select) {
        return staticIn(select.getSelf().getType(), select.getDim());
      })
      .Case([](SelectBackwardOp select) {
        return staticIn(select.getType(), select.getDim());
      })
      // Repeats of the static sizes only.
      .Case([](RepeatOp repeat) {
        ArrayRef<int64_t> shape = repeat.getSelf().getType().getShape();
        ArrayRef<int64_t> repeats =
            repeat.getRepeats().take_back(shape.size());
        return llvm::all_of(llvm::zip_equal(shape, repeats), [](auto pair) {
          auto [size, times] = pair;
          return !ShapedType::isDynamic(size) || times == 1;
        });
      })
      // Reads and sums at a static index: the other sizes are self's
      // (tad-check-shapes checks index_add's source against them).
      .Case<IndexSelectOp, IndexAddOp>([](auto index) {
        return index.getIndex().getType().hasStaticShape();
      })
      // Rows of a static table at indices of any size (the gradient's
      // leading sizes are the indices', checked by tad-check-shapes).
      .Case([](EmbeddingOp embedding) {
        return embedding.getWeight().getType().hasStaticShape();
      })
      .Case([](EmbeddingDenseBackwardOp backward) {
        return backward.getType().hasStaticShape();
      })
      // The VJP of max.dim/min.dim: the reduced size must be static (the
      // others are the gradient's).
      .Case([](ValueSelectingReductionBackwardOp backward) {
        auto type = backward.getType();
        std::optional<int64_t> dim = wrapDim(backward.getDim(), type.getRank());
        return type.getRank() == 0 || (dim && !type.isDynamicDim(*dim));
      })
      // A gather reads self at the index's positions (and at the index's
      // values along `dim`, range-checked by tad-check-indices): where the
      // two are dynamic alike in the other dimensions, tad-check-shapes
      // checks that they agree there.
      .Case([](GatherOp gather) {
        auto self = gather.getSelf().getType();
        auto index = gather.getIndex().getType();
        if (self.getRank() == 0 || index.getRank() != self.getRank())
          return self.getRank() == 0;
        std::optional<int64_t> dim = wrapDim(gather.getDim(), self.getRank());
        if (!dim)
          return false;
        for (int64_t d = 0; d < self.getRank(); ++d)
          if (d != *dim && self.isDynamicDim(d) != index.isDynamicDim(d))
            return false;
        return true;
      })
      // Scatters whose operands are dynamic in the same dimensions other
      // than `dim` (tad-check-shapes checks that they agree there), and src
      // where the index is (checked alike): the scattered corner keeps
      // those sizes. Along `dim` self's size bounds the written positions
      // (tad-check-indices checks the index's values against it, dynamic
      // or not) and the index's size the read ones.
      .Case<ScatterAddOp, ScatterSrcOp, ScatterValueOp>([](auto scatter) {
        auto self = scatter.getSelf().getType();
        auto index = scatter.getIndex().getType();
        if (self.getRank() == 0 || index.getRank() != self.getRank())
          return self.getRank() == 0;
        std::optional<int64_t> dim = wrapDim(scatter.getDim(), self.getRank());
        if (!dim)
          return false;
        RankedTensorType src;
        if constexpr (!std::is_same_v<decltype(scatter), ScatterValueOp>)
          src = scatter.getSrc().getType();
        for (int64_t d = 0; d < self.getRank(); ++d) {
          if (d != *dim && self.isDynamicDim(d) != index.isDynamicDim(d))
            return false;
          if (src && (src.getRank() != self.getRank() ||
                      src.isDynamicDim(d) != index.isDynamicDim(d)))
            return false;
        }
        return true;
      })
      // Padding of static dimensions (the others keep self's sizes).
      .Case([](ConstantPadNdOp pad) {
        auto type = pad.getSelf().getType();
        ArrayRef<int64_t> amounts = pad.getPad();
        for (size_t i = 0; i < amounts.size() / 2; ++i) {
          int64_t d = type.getRank() - 1 - static_cast<int64_t>(i);
          if (d >= 0 && type.isDynamicDim(d) &&
              (amounts[2 * i] != 0 || amounts[2 * i + 1] != 0))
            return false;
        }
        return true;
      })
      .Case([](CatOp) { return true; }) // offsets summed at run time
      .Case([](FlipOp) { return true; }) // n - 1 - i read at run time
      .Case([](StackOp) { return true; }) // the new dimension is static
      .Default(false);
}

bool lowering::hasStaticShapes(Operation *op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

Value lowering::extendedTensor(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return nullptr;
  Block &body = generic.getRegion().front();
  auto extend = dyn_cast<arith::ExtFOp>(body.front());
  if (!extend || extend.getIn() != body.getArgument(0) ||
      body.getTerminator()->getOperand(0) != extend.getResult())
    return nullptr;
  return generic.getDpsInputs()[0];
}
