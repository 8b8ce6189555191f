//===- CheckShapes.cpp - run-time checks of dynamic sizes -----------------===//
//
// See TadCheckShapesPass in Passes.td. A dynamic size (`?`) is inferred
// under the assumption that it agrees with the sizes it meets: it never
// broadcasts, the inner dimensions of a product are equal, a view keeps the
// element count. This pass makes each such assumption a check before the op.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/CheckSites.h"
#include "passes/ABI/Passes.h"

#include "dialects/Tad/ShapeUtils.h"
#include "dialects/Tad/TadOps.h"
#include "dialects/Tad/TensorShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include <variant>

namespace mlir::tad {
#define GEN_PASS_DEF_TADCHECKSHAPESPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

namespace {

/// The runtime function that ends the call (runtime/src/cpu/call.c).
constexpr StringLiteral kFailShape = "__tad_fail_shape";
/// `dim` arguments of __tad_fail_shape that compare element counts.
constexpr int64_t kElementCount = -1;
constexpr int64_t kElementCountMultiple = -2;
/// The argument attributes that bound dynamic sizes: per dimension, the
/// least size it admits (0: any) and the largest (-1: any).
constexpr StringLiteral kDimMinAttr = "tad.dim_min";
constexpr StringLiteral kDimMaxAttr = "tad.dim_max";
/// The runtime functions that end a call whose argument is outside them.
constexpr StringLiteral kFailMinimum = "__tad_fail_minimum";
constexpr StringLiteral kFailMaximum = "__tad_fail_maximum";
constexpr StringLiteral kDimNamesAttr = "tad.dim_names";

/// One dimension of one operand of the op being checked.
struct OperandDim {
  unsigned operand;
  int64_t dim;
};

/// What one check compares: an operand's dimension (or, for views, its
/// element count) with a constant, another operand's dimension or an index
/// value.
struct SizeCheck {
  OperandDim actual;
  std::variant<int64_t, OperandDim, Value> expected;
};

RankedTensorType tensorType(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// Checks that the operands `group` broadcast together: in each dimension
/// of the broadcast (aligned from the last), every dynamic size equals the
/// static size other than 1 if there is one, else the first dynamic size.
void broadcastChecks(Operation *op, ArrayRef<unsigned> group,
                     SmallVectorImpl<SizeCheck> &checks) {
  int64_t rank = 0;
  for (unsigned i : group)
    rank = std::max(rank, tensorType(op->getOperand(i)).getRank());
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<int64_t> fixed;
    SmallVector<OperandDim> dynamic;
    for (unsigned i : group) {
      auto type = tensorType(op->getOperand(i));
      int64_t dim = d - (rank - type.getRank());
      if (dim < 0)
        continue;
      int64_t size = type.getDimSize(dim);
      if (ShapedType::isDynamic(size))
        dynamic.push_back({i, dim});
      else if (size != 1)
        fixed = size;
    }
    if (dynamic.empty() || (!fixed && dynamic.size() == 1))
      continue;
    for (auto [k, operandDim] : llvm::enumerate(dynamic)) {
      if (fixed)
        checks.push_back({operandDim, *fixed});
      else if (k > 0)
        checks.push_back({operandDim, dynamic.front()});
    }
  }
}

/// Checks that dimension `a` of operand `i` equals dimension `b` of
/// operand `j` where either is dynamic.
void equalChecks(Operation *op, unsigned i, int64_t a, unsigned j, int64_t b,
                 SmallVectorImpl<SizeCheck> &checks) {
  int64_t sizeA = tensorType(op->getOperand(i)).getDimSize(a);
  int64_t sizeB = tensorType(op->getOperand(j)).getDimSize(b);
  if (ShapedType::isDynamic(sizeB))
    checks.push_back({{j, b}, ShapedType::isDynamic(sizeA)
                                  ? std::variant<int64_t, OperandDim, Value>(
                                        OperandDim{i, a})
                                  : sizeA});
  else if (ShapedType::isDynamic(sizeA))
    checks.push_back({{i, a}, sizeB});
}

/// A view's element count: equal to the result's where the result is
/// static, a multiple of the result's static sizes where one is dynamic.
void viewChecks(Operation *op, SmallVectorImpl<SizeCheck> &checks) {
  auto self = tensorType(op->getOperand(0));
  auto result = tensorType(op->getResult(0));
  if (self.hasStaticShape())
    return;
  int64_t known = 1;
  for (int64_t size : result.getShape())
    if (!ShapedType::isDynamic(size))
      known *= size;
  if (result.hasStaticShape()) {
    checks.push_back({{0, kElementCount}, known});
    return;
  }
  // self's static sizes may make its count a multiple already ([?, 5, 5]
  // viewed as [?, 25]): no check then. A differentiated batched SVD had
  // thousands of these, whose branches made scf-to-cf take minutes.
  int64_t fixed = 1;
  for (int64_t size : self.getShape())
    if (!ShapedType::isDynamic(size))
      fixed *= size;
  if (known != 1 && fixed % known != 0)
    checks.push_back({{0, kElementCountMultiple}, known});
}

/// The source of a tensor.insert_slice has the sizes of the slice (but for
/// the dimensions of size 1 that it drops); the verifier has checked the
/// static ones, and a dynamic source size meets a size given as a value.
SmallVector<SizeCheck> insertSliceChecks(tensor::InsertSliceOp op) {
  SmallVector<SizeCheck> checks;
  RankedTensorType source = op.getSourceType();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  int64_t dim = 0;
  for (auto [index, size] : llvm::enumerate(op.getMixedSizes())) {
    if (dropped.test(index))
      continue;
    if (source.isDynamicDim(dim))
      if (auto value = dyn_cast<Value>(size))
        checks.push_back({{0, dim}, value});
    ++dim;
  }
  return checks;
}

/// The size checks `op` needs; none for ops whose dynamic sizes meet no
/// other size.
SmallVector<SizeCheck> getSizeChecks(Operation *op) {
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return insertSliceChecks(insert);
  SmallVector<SizeCheck> checks;
  bool dynamic = llvm::any_of(op->getOperandTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && !tensor.hasStaticShape();
  });
  if (!dynamic)
    return checks;
  if (op->hasTrait<OpTrait::tad::BroadcastingOperands>()) {
    SmallVector<unsigned> group;
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (tensorType(operand))
        group.push_back(i);
    broadcastChecks(op, group, checks);
    return checks;
  }
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](MmOp) { equalChecks(op, 0, 1, 1, 0, checks); })
      .Case([&](AddmmOp o) {
        equalChecks(op, 1, 1, 2, 0, checks);
        // self broadcasts to [mat1 rows, mat2 columns].
        auto self = tensorType(o.getSelf());
        int64_t rank = self.getRank();
        if (rank >= 1 && self.getDimSize(rank - 1) != 1)
          equalChecks(op, 0, rank - 1, 2, 1, checks);
        if (rank == 2 && self.getDimSize(0) != 1)
          equalChecks(op, 0, 0, 1, 0, checks);
      })
      .Case([&](BmmOp) {
        equalChecks(op, 0, 0, 1, 0, checks);
        equalChecks(op, 0, 2, 1, 1, checks);
      })
      .Case([&](MvOp) { equalChecks(op, 0, 1, 1, 0, checks); })
      .Case([&](DotOp) { equalChecks(op, 0, 0, 1, 0, checks); })
      .Case([&](MseLossOp) { broadcastChecks(op, {0, 1}, checks); })
      .Case([&](MseLossBackwardOp) { broadcastChecks(op, {0, 1, 2}, checks); })
      // The target has self's shape without the class dimension (1).
      .Case([&](NllLossForwardOp o) {
        if (o.getSelf().getType().getRank() == 2)
          equalChecks(op, 1, 0, 0, 0, checks);
      })
      .Case([&](NllLossBackwardOp o) {
        if (o.getSelf().getType().getRank() == 2)
          equalChecks(op, 2, 0, 1, 0, checks);
        if (o.getReduction() == 0 && o.getGradOutput().getType().getRank() == 1)
          equalChecks(op, 0, 0, 1, 0, checks);
      })
      // self's sizes (aligned from the last) are 1 or other's.
      .Case([&](ExpandAsOp o) {
        auto self = tensorType(o.getSelf());
        int64_t lead = tensorType(o.getOther()).getRank() - self.getRank();
        for (int64_t d = 0; d < self.getRank(); ++d)
          if (self.getDimSize(d) != 1)
            equalChecks(op, 0, d, 1, d + lead, checks);
      })
      // The gradient has the result's sizes but at the sliced dimension
      // (select_backward: without it); the lowering casts it to them.
      .Case([&](SliceBackwardOp o) {
        auto result = tensorType(o.getResult());
        auto grad = tensorType(o.getGradOutput());
        int64_t dim = *wrapDim(o.getDim(), result.getRank());
        SmallVector<int64_t> expected(result.getShape());
        expected[dim] =
            sliceBounds(expected[dim], static_cast<int64_t>(o.getStart()),
                        static_cast<int64_t>(o.getEnd()), o.getStep())
                .length;
        for (int64_t d = 0; d < grad.getRank(); ++d)
          if (grad.isDynamicDim(d) && !ShapedType::isDynamic(expected[d]))
            checks.push_back({{0, d}, expected[d]});
      })
      .Case([&](SelectBackwardOp o) {
        auto result = tensorType(o.getResult());
        auto grad = tensorType(o.getGradOutput());
        int64_t dim = *wrapDim(o.getDim(), result.getRank());
        for (int64_t d = 0; d < grad.getRank(); ++d) {
          int64_t r = d < dim ? d : d + 1;
          if (grad.isDynamicDim(d) && !result.isDynamicDim(r))
            checks.push_back({{0, d}, result.getDimSize(r)});
        }
      })
      // source has self's sizes but at `dim`, where it has the index's
      // length.
      .Case([&](IndexAddOp o) {
        auto self = tensorType(o.getSelf());
        auto source = tensorType(o.getSource());
        if (self.getRank() == 0 || source.getRank() != self.getRank())
          return;
        int64_t dim = *wrapDim(o.getDim(), self.getRank());
        for (int64_t d = 0; d < self.getRank(); ++d)
          if (d != dim)
            equalChecks(op, 0, d, 2, d, checks);
        auto index = tensorType(o.getIndex());
        if (source.isDynamicDim(dim) && index.hasStaticShape())
          checks.push_back({{2, dim}, index.getNumElements()});
      })
      // A gather's index has self's dynamic sizes (other than along
      // `dim`): the lowering reads self at the index's positions.
      .Case([&](GatherOp o) {
        auto self = tensorType(o.getSelf());
        auto index = tensorType(o.getIndex());
        if (self.getRank() == 0 || index.getRank() != self.getRank())
          return;
        std::optional<int64_t> dim = wrapDim(o.getDim(), self.getRank());
        for (int64_t d = 0; d < self.getRank(); ++d)
          if (self.isDynamicDim(d) && index.isDynamicDim(d) && d != dim)
            checks.push_back({{1, d}, OperandDim{0, d}});
      })
      // A scatter's corner: index and src have self's dynamic sizes (other
      // than along `dim`), src the index's (the lowering assumes equal
      // where it allows dynamic sizes).
      .Case<ScatterAddOp, ScatterSrcOp, ScatterValueOp>([&](auto o) {
        auto self = tensorType(o.getSelf());
        auto index = tensorType(o.getIndex());
        if (self.getRank() == 0 || index.getRank() != self.getRank())
          return;
        std::optional<int64_t> dim = wrapDim(o.getDim(), self.getRank());
        bool hasSrc = op->getNumOperands() > 2;
        for (int64_t d = 0; d < self.getRank(); ++d) {
          if (self.isDynamicDim(d) && index.isDynamicDim(d) && d != dim)
            checks.push_back({{1, d}, OperandDim{0, d}});
          if (hasSrc && index.isDynamicDim(d) &&
              tensorType(op->getOperand(2)).getRank() == index.getRank() &&
              tensorType(op->getOperand(2)).isDynamicDim(d))
            checks.push_back({{2, d}, OperandDim{1, d}});
        }
      })
      // The gradient of embedding's rows has the indices' sizes and then
      // the row width.
      .Case([&](EmbeddingDenseBackwardOp o) {
        int64_t rank = tensorType(o.getIndices()).getRank();
        if (tensorType(o.getGradOutput()).getRank() != rank + 1)
          return;
        for (int64_t d = 0; d < rank; ++d)
          equalChecks(op, 1, d, 0, d, checks);
      })
      // The batches of a convolution's or pooling's backward op agree:
      // tad-split-dynamic-batch slices them alike (the gradient, then the
      // input and the pooling's indices).
      .Case<ConvolutionBackwardOp, AvgPool2dBackwardOp,
            AdaptiveAvgPool2dBackwardOp>(
          [&](Operation *) { equalChecks(op, 0, 0, 1, 0, checks); })
      .Case([&](MaxPool2dWithIndicesBackwardOp) {
        equalChecks(op, 0, 0, 1, 0, checks);
        equalChecks(op, 0, 0, 2, 0, checks);
      })
      .Case<ViewOp, ReshapeOp, UnsafeViewOp>(
          [&](Operation *) { viewChecks(op, checks); })
      // The pieces of a join agree in every dimension but the joined one
      // (stack: in every dimension).
      .Case([&](CatOp o) {
        int64_t rank = o.getType().getRank();
        std::optional<int64_t> dim = wrapDim(o.getDim(), rank);
        for (unsigned i = 1, e = op->getNumOperands(); i < e; ++i)
          for (int64_t d = 0; d < rank; ++d)
            if (d != dim)
              equalChecks(op, 0, d, i, d, checks);
      })
      .Case([&](StackOp o) {
        int64_t rank = tensorType(op->getOperand(0)).getRank();
        for (unsigned i = 1, e = op->getNumOperands(); i < e; ++i)
          for (int64_t d = 0; d < rank; ++d)
            equalChecks(op, 0, d, i, d, checks);
      });
  return checks;
}

/// An operand's size in `dim`, or its element count, as an i64.
Value sizeOf(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, i64, index).getResult();
  };
  if (dim >= 0)
    return toI64(tensor::DimOp::create(b, loc, tensor, dim));
  Value count = arith::ConstantIntOp::create(b, loc, i64, 1);
  for (int64_t d = 0, e = tensorType(tensor).getRank(); d < e; ++d)
    count = arith::MulIOp::create(
        b, loc, count, toI64(tensor::DimOp::create(b, loc, tensor, d)));
  return count;
}

/// The bounds `fn`'s argument `i` declares in `attrName` (`tad.dim_min`
/// or `tad.dim_max`, one entry per dimension; `none` where there is none),
/// or failure with an error where they do not fit its type: a bound applies
/// to a dynamic dimension.
FailureOr<ArrayRef<int64_t>> dimensionBounds(func::FuncOp fn, unsigned i,
                                             StringRef attrName, int64_t none) {
  Attribute attr = fn.getArgAttr(i, attrName);
  if (!attr)
    return ArrayRef<int64_t>();
  auto type = tensorType(fn.getArgument(i));
  auto bounds = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!type || !bounds || bounds.size() != type.getRank())
    return fn.emitError("argument #")
           << i << " of '" << fn.getSymName() << "' has '" << attrName << "' "
           << attr
           << "; it takes an array<i64> with one entry per dimension of a "
              "ranked tensor";
  auto minimums = fn.getArgAttrOfType<DenseI64ArrayAttr>(i, kDimMinAttr);
  for (auto [d, bound] : llvm::enumerate(bounds.asArrayRef())) {
    if (bound == none)
      continue;
    if (bound < 0 || !type.isDynamicDim(d))
      return fn.emitError("argument #")
             << i << " of '" << fn.getSymName() << "' has '" << attrName
             << "' " << bound << " in dimension " << d
             << "; a bound is a non-negative size of a dynamic dimension ("
             << none << " for none)";
    if (attrName == kDimMaxAttr && minimums &&
        minimums.size() == bounds.size() && minimums[d] > bound)
      return fn.emitError("argument #")
             << i << " of '" << fn.getSymName() << "' has the maximum "
             << bound << " in dimension " << d << " below its minimum "
             << minimums[d];
  }
  return bounds.asArrayRef();
}

/// "the dynamic size 'B'" (from `tad.dim_names`) or "a dynamic size".
std::string describeSize(func::FuncOp fn, unsigned i, int64_t d) {
  auto names = fn.getArgAttrOfType<ArrayAttr>(i, kDimNamesAttr);
  if (names && d < static_cast<int64_t>(names.size()))
    if (auto name = dyn_cast<StringAttr>(names[d]); name && !name.empty())
      return ("the dynamic size '" + name.getValue() + "'").str();
  return "a dynamic size";
}

/// At the entry of each function, the check of each argument dimension
/// with a minimum or a maximum: outside them, a call that ends the call
/// with TAD_ERROR_SHAPE. A program that holds only from some size up (the
/// importer traced it there, docs/dynamic-shapes.md) says so, and a smaller
/// size is an error rather than a wrong result.
LogicalResult emitBoundChecks(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  Type site = MemRefType::get({kCheckSiteBytes}, IntegerType::get(ctx, 8));
  SymbolTable symbols(module);
  bool ok = true;
  for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (fn.isExternal())
      continue;
    OpBuilder b = OpBuilder::atBlockBegin(&fn.getBody().front());
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
      for (auto [attrName, none, fail, predicate] :
           {std::tuple(kDimMinAttr, int64_t(0), kFailMinimum,
                       arith::CmpIPredicate::slt),
            std::tuple(kDimMaxAttr, int64_t(-1), kFailMaximum,
                       arith::CmpIPredicate::sgt)}) {
        FailureOr<ArrayRef<int64_t>> bounds =
            dimensionBounds(fn, i, attrName, none);
        if (failed(bounds)) {
          ok = false;
          continue;
        }
        for (auto [d, bound] : llvm::enumerate(*bounds)) {
          if (bound == none)
            continue;
          declareFailFunction(module, fail, {i64, i64, i64, i64, site});
          Location loc = fn.getLoc();
          memref::GlobalOp what = createCheckSite(
              module, symbols, loc, describeSize(fn, i, d), "__tad_bound_site");
          Value actual = sizeOf(b, loc, fn.getArgument(i), d);
          Value limit = arith::ConstantIntOp::create(b, loc, i64, bound);
          Value outside =
              arith::CmpIOp::create(b, loc, predicate, actual, limit);
          scf::IfOp::create(b, loc, outside, [&](OpBuilder &tb, Location tl) {
            Value argument = arith::ConstantIntOp::create(tb, tl, i64, i);
            Value dim = arith::ConstantIntOp::create(tb, tl, i64, d);
            Value size = memref::GetGlobalOp::create(tb, tl, what.getType(),
                                                     what.getSymName());
            func::CallOp::create(tb, tl, fail, TypeRange{},
                                 ValueRange{actual, limit, argument, dim, size});
            scf::YieldOp::create(tb, tl);
          });
        }
      }
    }
  }
  return success(ok);
}

class CheckShapesPass
    : public tad::impl::TadCheckShapesPassBase<CheckShapesPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(emitBoundChecks(module)))
      return signalPassFailure();
    SmallVector<std::pair<Operation *, SmallVector<SizeCheck>>> sites;
    module.walk([&](Operation *op) {
      if (!isa_and_present<TadDialect>(op->getDialect()) &&
          !isa<tensor::InsertSliceOp>(op))
        return;
      SmallVector<SizeCheck> checks = getSizeChecks(op);
      if (!checks.empty())
        sites.push_back({op, std::move(checks)});
    });
    if (sites.empty())
      return;
    MLIRContext *ctx = module.getContext();
    Type i64 = IntegerType::get(ctx, 64);
    declareFailFunction(
        module, kFailShape,
        {i64, i64, i64, i64,
         MemRefType::get({kCheckSiteBytes}, IntegerType::get(ctx, 8))});
    SymbolTable symbols(module);
    for (auto &[op, checks] : sites) {
      memref::GlobalOp site =
          createCheckSite(module, symbols, op, "__tad_shape_site");
      OpBuilder b(op);
      for (const SizeCheck &check : checks)
        emitCheck(b, op, check, site);
    }
  }

private:
  /// Before `op`: if the sizes differ (or the element count is no
  /// multiple), a call that ends the call with TAD_ERROR_SHAPE.
  void emitCheck(OpBuilder &b, Operation *op, const SizeCheck &check,
                 memref::GlobalOp site) {
    Location loc = op->getLoc();
    Type i64 = b.getI64Type();
    Value actual =
        sizeOf(b, loc, op->getOperand(check.actual.operand), check.actual.dim);
    Value expected;
    if (auto *constant = std::get_if<int64_t>(&check.expected)) {
      expected = arith::ConstantIntOp::create(b, loc, i64, *constant);
    } else if (auto *index = std::get_if<Value>(&check.expected)) {
      expected = arith::IndexCastOp::create(b, loc, i64, *index);
    } else {
      OperandDim other = std::get<OperandDim>(check.expected);
      expected = sizeOf(b, loc, op->getOperand(other.operand), other.dim);
    }
    Value bad;
    if (check.actual.dim == kElementCountMultiple) {
      Value rem = arith::RemSIOp::create(b, loc, actual, expected);
      Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
      bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
    } else {
      bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, actual,
                                  expected);
    }
    scf::IfOp::create(b, loc, bad, [&](OpBuilder &tb, Location tl) {
      Value operand =
          arith::ConstantIntOp::create(tb, tl, i64, check.actual.operand);
      Value dim = arith::ConstantIntOp::create(tb, tl, i64, check.actual.dim);
      Value where = memref::GetGlobalOp::create(tb, tl, site.getType(),
                                                site.getSymName());
      func::CallOp::create(tb, tl, kFailShape, TypeRange{},
                           ValueRange{actual, expected, operand, dim, where});
      scf::YieldOp::create(tb, tl);
    });
  }
};

} // namespace
