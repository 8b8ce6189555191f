//===- CollapseDims.cpp - merge loops that walk contiguous memory ---------===//
//
// See TadCollapseDimsPass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADCOLLAPSEDIMSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Whether loops `dim` - 1 and `dim` of `op` can become one: the same kind
/// of iterator, and in every operand either both absent or adjacent (in
/// this order) and contiguous in memory.
bool mergesWithPrevious(linalg::GenericOp op, unsigned dim) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[dim - 1] != iterators[dim])
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> outer = map.getResultPosition(
        getAffineDimExpr(dim - 1, op.getContext()));
    std::optional<unsigned> inner =
        map.getResultPosition(getAffineDimExpr(dim, op.getContext()));
    if (!outer && !inner)
      continue;
    if (!outer || !inner || *inner != *outer + 1)
      return false;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(strides[*outer]) ||
        ShapedType::isDynamic(strides[*inner]) ||
        strides[*outer] != strides[*inner] * type.getDimSize(*inner))
      return false;
  }
  return true;
}

/// Maximal runs of adjacent loops of `op` that can be merged (two or more).
SmallVector<ReassociationIndices> collapsibleRuns(linalg::GenericOp op) {
  SmallVector<ReassociationIndices> runs;
  ReassociationIndices run{0};
  auto flush = [&] {
    if (run.size() > 1)
      runs.push_back(run);
  };
  for (unsigned dim = 1; dim < op.getNumLoops(); ++dim) {
    if (mergesWithPrevious(op, dim)) {
      run.push_back(dim);
      continue;
    }
    flush();
    run = {static_cast<int64_t>(dim)};
  }
  flush();
  return runs;
}

struct TadCollapseDimsPass
    : tad::impl::TadCollapseDimsPassBase<TadCollapseDimsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      // A linalg.index of a merged loop would need a division per element.
      if (op.hasPureBufferSemantics() && !op.hasIndexSemantics() && llvm::all_of(op.getIndexingMapsArray(),
                       [](AffineMap map) { return map.isProjectedPermutation(); }) &&
          llvm::all_of(op->getOperandTypes(), [](Type type) {
            auto memref = dyn_cast<MemRefType>(type);
            return !memref || memref.hasStaticShape();
          }))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      SmallVector<ReassociationIndices> runs = collapsibleRuns(op);
      if (runs.empty())
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::collapseOpIterationDims(op, runs, rewriter)))
        continue;
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
