//===- CheckIndices.cpp - run-time range checks of index operands ---------===//
//
// See TadCheckIndicesPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/CheckSites.h"
#include "passes/ABI/Passes.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADCHECKINDICESPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// The runtime function that ends the call (runtime/src/cpu/call.c).
constexpr StringLiteral kFailIndex = "__tad_fail_index";

/// An index operand of an op and the range its values must lie in: [0,
/// extent), or [-extent, extent) where negative indices wrap. The extent
/// is a dimension of the indexed tensor, read at run time where dynamic.
struct IndexOperand {
  Value indices;
  int64_t extent;                     // ShapedType::kDynamic: read `sized`
  Value sized;                        // the indexed tensor
  int64_t dim = 0;                    // its indexed dimension
  bool wraps = false;
  std::optional<int64_t> ignored;     // a value that is always accepted
};

/// An operand indexing dimension `dim` of `self` (a 0-d tensor is indexed
/// like one of size 1).
IndexOperand indexing(Value indices, Value self, int64_t dim, bool wraps,
                      std::optional<int64_t> ignored = std::nullopt) {
  auto type = cast<RankedTensorType>(self.getType());
  if (type.getRank() == 0)
    return {indices, 1, self, 0, wraps, ignored};
  int64_t d = *wrapDim(dim, type.getRank());
  return {indices, type.getDimSize(d), self, d, wraps, ignored};
}

/// The index operands of `op`, with their ranges; none for other ops.
SmallVector<IndexOperand> getIndexOperands(Operation *op) {
  SmallVector<IndexOperand> result;
  auto along = [&](Value indices, Value self, int64_t dim) {
    result.push_back(indexing(indices, self, dim, /*wraps=*/false));
  };
  // index.Tensor and index_put wrap negative indices, as ATen does.
  auto wrapping = [&](ValueRange indices, Value self) {
    for (auto [j, index] : llvm::enumerate(indices))
      result.push_back(indexing(index, self, j, /*wraps=*/true));
  };
  auto nll = [&](Value self, Value target, int64_t ignoreIndex) {
    int64_t classDim =
        cast<RankedTensorType>(self.getType()).getRank() == 1 ? 0 : 1;
    result.push_back(
        indexing(target, self, classDim, /*wraps=*/false, ignoreIndex));
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](IndexSelectOp o) { along(o.getIndex(), o.getSelf(), o.getDim()); })
      .Case([&](GatherOp o) { along(o.getIndex(), o.getSelf(), o.getDim()); })
      .Case([&](ScatterAddOp o) { along(o.getIndex(), o.getSelf(), o.getDim()); })
      .Case([&](ScatterSrcOp o) { along(o.getIndex(), o.getSelf(), o.getDim()); })
      .Case([&](ScatterValueOp o) { along(o.getIndex(), o.getSelf(), o.getDim()); })
      .Case([&](IndexAddOp o) { along(o.getIndex(), o.getSelf(), o.getDim()); })
      .Case([&](EmbeddingOp o) { along(o.getIndices(), o.getWeight(), 0); })
      // The result's rows, which exist only after the op: their count is
      // the attribute.
      .Case([&](EmbeddingDenseBackwardOp o) {
        result.push_back({o.getIndices(), static_cast<int64_t>(o.getNumWeights()),
                          Value(), 0, false, std::nullopt});
      })
      .Case([&](IndexTensorOp o) { wrapping(o.getIndices(), o.getSelf()); })
      .Case([&](IndexPutOp o) { wrapping(o.getIndices(), o.getSelf()); })
      .Case([&](NllLossForwardOp o) {
        nll(o.getSelf(), o.getTarget(), o.getIgnoreIndex());
      })
      .Case([&](NllLoss2dForwardOp o) {
        nll(o.getSelf(), o.getTarget(), o.getIgnoreIndex());
      })
      .Case([&](NllLossBackwardOp o) {
        nll(o.getSelf(), o.getTarget(), o.getIgnoreIndex());
      })
      .Case([&](NllLoss2dBackwardOp o) {
        nll(o.getSelf(), o.getTarget(), o.getIgnoreIndex());
      });
  // Only integer index tensors with elements are checked (boolean masks
  // are not indices; an empty tensor holds no index).
  llvm::erase_if(result, [](const IndexOperand &operand) {
    auto type = dyn_cast<RankedTensorType>(operand.indices.getType());
    return !type || !type.getElementType().isSignlessInteger() ||
           type.getElementType().isInteger(1) ||
           (type.hasStaticShape() && type.getNumElements() == 0);
  });
  return result;
}

/// The tensor that a tensor.extract_slice or tensor.insert_slice slices,
/// where some of its positions are known only at run time; null otherwise.
Value dynamicallySliced(Operation *op) {
  auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(op);
  Value sliced;
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
    sliced = extract.getSource();
  else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    sliced = insert.getDest();
  if (!sliced)
    return nullptr;
  bool dynamic = !cast<RankedTensorType>(sliced.getType()).hasStaticShape() ||
                 !slice.getOffsets().empty() || !slice.getSizes().empty() ||
                 !slice.getStrides().empty();
  return dynamic ? sliced : nullptr;
}

class CheckIndicesPass
    : public tad::impl::TadCheckIndicesPassBase<CheckIndicesPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<Operation *, SmallVector<IndexOperand>>> sites;
    SmallVector<Operation *> slices;
    module.walk([&](Operation *op) {
      SmallVector<IndexOperand> operands = getIndexOperands(op);
      if (!operands.empty())
        sites.push_back({op, std::move(operands)});
      if (dynamicallySliced(op))
        slices.push_back(op);
    });
    if (sites.empty() && slices.empty())
      return;
    Type i64 = IntegerType::get(module.getContext(), 64);
    declareFailFunction(
        module, kFailIndex,
        {i64, i64, i64,
         MemRefType::get({kCheckSiteBytes},
                         IntegerType::get(module.getContext(), 8))});
    SymbolTable symbols(module);
    for (auto [index, site] : llvm::enumerate(sites)) {
      OpBuilder b(site.first);
      Location loc = site.first->getLoc();
      memref::GlobalOp global =
          createCheckSite(module, symbols, site.first, "__tad_index_site");
      for (const IndexOperand &operand : site.second)
        emitCheck(b, loc, operand, global);
    }
    for (Operation *op : slices) {
      OpBuilder b(op);
      emitSliceChecks(b, op,
                      createCheckSite(module, symbols, op, "__tad_index_site"));
    }
  }

private:
  /// Before a slice: in each dimension of the sliced tensor whose offset,
  /// size, stride or extent is dynamic, a slice of positive size has its
  /// first and last positions in [0, extent); else a call that ends the
  /// call with TAD_ERROR_INDEX, naming the position out of range.
  void emitSliceChecks(OpBuilder &b, Operation *op, memref::GlobalOp site) {
    Location loc = op->getLoc();
    auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
    Value sliced = dynamicallySliced(op);
    auto type = cast<RankedTensorType>(sliced.getType());
    Type i64 = b.getI64Type();
    auto asI64 = [&](OpFoldResult value) -> Value {
      if (auto attr = dyn_cast<Attribute>(value))
        return arith::ConstantIntOp::create(b, loc, i64,
                                            cast<IntegerAttr>(attr).getInt());
      return arith::IndexCastOp::create(b, loc, i64, cast<Value>(value));
    };
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(),
                              sizes = slice.getMixedSizes(),
                              strides = slice.getMixedStrides();
    for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
      if (!type.isDynamicDim(d) && isa<Attribute>(offsets[d]) &&
          isa<Attribute>(sizes[d]) && isa<Attribute>(strides[d]))
        continue;
      Value offset = asI64(offsets[d]), size = asI64(sizes[d]);
      Value stride = asI64(strides[d]);
      Value extent =
          type.isDynamicDim(d)
              ? Value(arith::IndexCastOp::create(
                    b, loc, i64, tensor::DimOp::create(b, loc, sliced, d)))
              : Value(arith::ConstantIntOp::create(b, loc, i64,
                                                   type.getDimSize(d)));
      Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
      Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
      Value last = arith::AddIOp::create(
          b, loc, offset,
          arith::MulIOp::create(
              b, loc, arith::SubIOp::create(b, loc, size, one), stride));
      Value least = arith::MinSIOp::create(b, loc, offset, last);
      Value greatest = arith::MaxSIOp::create(b, loc, offset, last);
      Value below =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, least, zero);
      Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          greatest, extent);
      Value used =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, size, zero);
      Value bad = arith::AndIOp::create(
          b, loc, used, arith::OrIOp::create(b, loc, below, above));
      scf::IfOp::create(b, loc, bad, [&](OpBuilder &tb, Location tl) {
        Value value = arith::SelectOp::create(tb, tl, below, least, greatest);
        Value where = memref::GetGlobalOp::create(tb, tl, site.getType(),
                                                  site.getSymName());
        func::CallOp::create(tb, tl, kFailIndex, TypeRange{},
                             ValueRange{value, zero, extent, where});
        scf::YieldOp::create(tb, tl);
      });
    }
  }

  /// Before the op: the least and the greatest index (a reduction over the
  /// index tensor), and if either is out of range, a call that ends the
  /// call of the entry point with TAD_ERROR_INDEX.
  void emitCheck(OpBuilder &b, Location loc, const IndexOperand &operand,
                 memref::GlobalOp site) {
    MLIRContext *ctx = b.getContext();
    Type i64 = b.getI64Type();
    auto type = cast<RankedTensorType>(operand.indices.getType());
    int64_t rank = type.getRank();
    auto scalar = RankedTensorType::get({}, i64);
    auto filled = [&](int64_t value) {
      Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, i64);
      Value v = arith::ConstantIntOp::create(b, loc, i64, value);
      return linalg::FillOp::create(b, loc, v, empty).getResult(0);
    };
    Value minInit = filled(std::numeric_limits<int64_t>::max());
    Value maxInit = filled(std::numeric_limits<int64_t>::min());
    SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                                AffineMap::get(rank, 0, {}, ctx),
                                AffineMap::get(rank, 0, {}, ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    auto extremes = linalg::GenericOp::create(
        b, loc, TypeRange{scalar, scalar}, ValueRange{operand.indices},
        ValueRange{minInit, maxInit}, maps, iterators,
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value v = args[0];
          if (v.getType() != i64)
            v = arith::ExtSIOp::create(nb, nl, i64, v);
          if (operand.ignored) {
            // counted as 0, which is in range (nll's targets do not wrap)
            Value ignored =
                arith::ConstantIntOp::create(nb, nl, i64, *operand.ignored);
            Value zero = arith::ConstantIntOp::create(nb, nl, i64, 0);
            Value skip = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                               v, ignored);
            v = arith::SelectOp::create(nb, nl, skip, zero, v);
          }
          linalg::YieldOp::create(
              nb, nl,
              ValueRange{arith::MinSIOp::create(nb, nl, args[1], v),
                         arith::MaxSIOp::create(nb, nl, args[2], v)});
        });
    Value least = tensor::ExtractOp::create(b, loc, extremes.getResult(0));
    Value greatest = tensor::ExtractOp::create(b, loc, extremes.getResult(1));
    Value hi =
        ShapedType::isDynamic(operand.extent)
            ? Value(arith::IndexCastOp::create(
                  b, loc, i64,
                  tensor::DimOp::create(b, loc, operand.sized, operand.dim)))
            : Value(arith::ConstantIntOp::create(b, loc, i64, operand.extent));
    Value lo;
    if (!operand.wraps)
      lo = arith::ConstantIntOp::create(b, loc, i64, 0);
    else if (ShapedType::isDynamic(operand.extent))
      lo = arith::SubIOp::create(
          b, loc, arith::ConstantIntOp::create(b, loc, i64, 0), hi);
    else
      lo = arith::ConstantIntOp::create(b, loc, i64, -operand.extent);
    Value below =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, least, lo);
    Value above =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, greatest, hi);
    Value bad = arith::OrIOp::create(b, loc, below, above);
    scf::IfOp::create(b, loc, bad, [&](OpBuilder &tb, Location tl) {
      Value value = arith::SelectOp::create(tb, tl, below, least, greatest);
      Value where = memref::GetGlobalOp::create(
          tb, tl, site.getType(), site.getSymName());
      func::CallOp::create(tb, tl, kFailIndex, TypeRange{},
                           ValueRange{value, lo, hi, where});
      scf::YieldOp::create(tb, tl);
    });
  }
};

} // namespace
