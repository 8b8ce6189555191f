//===- OutlineKernels.cpp - one shared function per distinct linalg op ----===//
//
// See TadOutlineKernelsPass in Passes.td: linalg ops on buffers that compute
// the same thing become calls to one shared kernel function, so that later
// passes and LLVM optimize each distinct kernel once.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADOUTLINEKERNELSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// The view a kernel rebuilds for an operand of `type`: the same sizes and
/// strides with a dynamic offset (dynamic sizes are arguments of the
/// kernel); null where the strides are not all static.
MemRefType kernelView(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return {};
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return {};
  auto layout = StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic,
                                       strides);
  return MemRefType::get(memref.getShape(), memref.getElementType(), layout,
                         memref.getMemorySpace());
}

/// The allocation or function argument a view is rooted in; null where it
/// is something else (then nothing is known about aliasing).
Value rootOf(Value view) {
  while (auto viewLike = view.getDefiningOp<ViewLikeOpInterface>())
    view = viewLike.getViewSource();
  if (auto arg = dyn_cast<BlockArgument>(view))
    return isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) ? view
                                                                   : Value();
  if (view.getDefiningOp<memref::AllocOp>() ||
      view.getDefiningOp<memref::AllocaOp>() ||
      view.getDefiningOp<memref::GetGlobalOp>())
    return view;
  return {};
}

/// Whether no operand `op` writes can overlap another of its (distinct)
/// memref operands: each written operand has a root of its own. Function
/// arguments of the entry points are `noalias` (ExportABI.cpp),
/// allocations are disjoint; an op that reads and writes the same value
/// in place is fine.
bool writesAreUnaliased(linalg::LinalgOp op, ArrayRef<Value> memrefs) {
  SmallVector<Value> roots;
  for (Value operand : memrefs) {
    Value root = rootOf(operand);
    if (!root)
      return false;
    roots.push_back(root);
  }
  for (Value init : op.getDpsInits())
    if (llvm::count(roots, rootOf(init)) != 1)
      return false;
  return true;
}

/// A readable symbol for the kernel of `op`: `matmul_16x256x1024_f32`,
/// `generic_Nx256_f32` where a size is dynamic.
std::string kernelName(linalg::LinalgOp op) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << op->getName().stripDialect();
  char separator = '_';
  for (int64_t size : op.getStaticLoopRanges()) {
    os << separator;
    if (ShapedType::isDynamic(size))
      os << 'N';
    else
      os << size;
    separator = 'x';
  }
  if (!op->getOperands().empty())
    os << '_' << getElementTypeOrSelf(op->getOperand(0).getType());
  return name;
}

/// A detached private function `(base0, offset0, sizes0..., base1,
/// offset1, sizes1..., ...)` for the distinct memref operands of `ops`
/// (consecutive ops of one block), with an index for each dynamic size of
/// an operand, that rebuilds their views and runs clones of `ops` on them,
/// with constant operands and captured constants cloned; null where an op
/// uses another value from outside or a view of dynamic strides. Named
/// after the last op.
func::FuncOp createKernel(OpBuilder &b, ArrayRef<linalg::LinalgOp> ops) {
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  MLIRContext *ctx = b.getContext();
  SetVector<Value> memrefs;
  SmallVector<Value> constants;
  for (linalg::LinalgOp op : ops) {
    for (Value operand : op->getOperands()) {
      if (isa<MemRefType>(operand.getType())) {
        if (!kernelView(operand.getType()))
          return {};
        memrefs.insert(operand);
      } else if (matchPattern(operand, m_Constant())) {
        constants.push_back(operand);
      } else {
        return {};
      }
    }
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured) {
      if (!matchPattern(value, m_Constant()))
        return {};
      constants.push_back(value);
    }
  }

  bool noalias = llvm::all_of(ops, [&](linalg::LinalgOp op) {
    return writesAreUnaliased(op, memrefs.getArrayRef());
  });
  SmallVector<Type> argTypes;
  SmallVector<unsigned> bases; // the argument number of each base buffer
  for (Value operand : memrefs) {
    auto type = cast<MemRefType>(operand.getType());
    bases.push_back(argTypes.size());
    argTypes.push_back(MemRefType::get({}, type.getElementType(),
                                       MemRefLayoutAttrInterface(),
                                       type.getMemorySpace()));
    argTypes.append(1 + type.getNumDynamicDims(), b.getIndexType());
  }
  OpBuilder detached(ctx);
  auto fn = func::FuncOp::create(detached, loc, kernelName(last),
                                 FunctionType::get(ctx, argTypes, {}));
  fn.setPrivate();
  // Shared kernels stay calls: inlined back, LLVM would optimize every copy.
  fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
  if (noalias)
    for (unsigned base : bases)
      fn.setArgAttr(base, LLVM::LLVMDialect::getNoAliasAttrName(),
                    b.getUnitAttr());

  Block *entry = fn.addEntryBlock();
  OpBuilder body = OpBuilder::atBlockBegin(entry);
  IRMapping mapping;
  for (Value constant : constants)
    if (!mapping.contains(constant))
      body.clone(*constant.getDefiningOp(), mapping);
  for (auto [operand, base] : llvm::zip(memrefs, bases)) {
    MemRefType view = kernelView(operand.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)view.getStridesAndOffset(strides, offset);
    SmallVector<OpFoldResult> sizes;
    unsigned next = base + 2;
    for (int64_t size : view.getShape())
      sizes.push_back(ShapedType::isDynamic(size)
                          ? OpFoldResult(entry->getArgument(next++))
                          : OpFoldResult(body.getIndexAttr(size)));
    Value rebuilt = memref::ReinterpretCastOp::create(
        body, loc, view, entry->getArgument(base),
        OpFoldResult(entry->getArgument(base + 1)), sizes,
        getAsIndexOpFoldResult(ctx, strides));
    mapping.map(operand, rebuilt);
  }
  for (linalg::LinalgOp op : ops)
    body.clone(*op, mapping);
  func::ReturnOp::create(body, loc);
  return fn;
}

/// Where `fill` initializes a buffer that the next op with memory effects,
/// a contraction, accumulates into through reshapes of it (a convolution's
/// matmul on the collapsed output), moves the fill just before that op onto
/// the reshaped view: the same elements, now next to their contraction.
void moveFillToReshapedContraction(linalg::FillOp fill) {
  if (!fill.hasPureBufferSemantics())
    return;
  Operation *next = fill->getNextNode();
  while (next && isMemoryEffectFree(next))
    next = next->getNextNode();
  auto contraction = dyn_cast_or_null<linalg::LinalgOp>(next);
  if (!contraction ||
      !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(contraction) ||
      !contraction.hasPureBufferSemantics())
    return;
  Value init = contraction.getDpsInits()[0];
  Value view = init;
  while (view != fill.getDpsInits()[0]) {
    if (auto collapse = view.getDefiningOp<memref::CollapseShapeOp>())
      view = collapse.getSrc();
    else if (auto expand = view.getDefiningOp<memref::ExpandShapeOp>())
      view = expand.getSrc();
    else
      return;
  }
  fill->moveBefore(contraction);
  fill.getDpsInitsMutable()[0].set(init);
}

/// The contraction that `fill` initializes, where it is the next op and
/// the fill's buffer its output: the two make one kernel, so that
/// tad-vectorize-contractions can start the kernel's accumulators from the
/// fill value instead of filling memory in a separate pass.
linalg::LinalgOp filledContraction(linalg::FillOp fill) {
  auto next = dyn_cast_or_null<linalg::LinalgOp>(fill->getNextNode());
  if (!next || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(next) ||
      !fill.hasPureBufferSemantics() || !next.hasPureBufferSemantics() ||
      next.getDpsInits()[0] != fill.getDpsInits()[0])
    return {};
  return next;
}

/// The text of `kernel`: equal for equal computations (the name is made
/// of the op, its loop ranges and element type).
std::string kernelKey(func::FuncOp kernel) {
  std::string key;
  llvm::raw_string_ostream os(key);
  kernel.print(os, OpPrintingFlags().printGenericOpForm());
  return key;
}

/// Replaces `ops` by a call of `kernel` on the bases, offsets and dynamic
/// sizes of their distinct memref operands.
void replaceByCall(OpBuilder &b, ArrayRef<linalg::LinalgOp> ops,
                   func::FuncOp kernel) {
  b.setInsertionPoint(ops.front());
  SetVector<Value> memrefs;
  for (linalg::LinalgOp op : ops)
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()))
        memrefs.insert(operand);
  SmallVector<Value> args;
  for (Value operand : memrefs) {
    auto metadata =
        memref::ExtractStridedMetadataOp::create(b, ops.front()->getLoc(),
                                                 operand);
    args.push_back(metadata.getBaseBuffer());
    args.push_back(metadata.getOffset());
    auto type = cast<MemRefType>(operand.getType());
    for (auto [d, size] : llvm::enumerate(metadata.getSizes()))
      if (type.isDynamicDim(d))
        args.push_back(size);
  }
  func::CallOp::create(b, ops.back()->getLoc(), kernel, args);
  for (linalg::LinalgOp op : llvm::reverse(ops))
    op->erase();
}

struct TadOutlineKernelsPass
    : tad::impl::TadOutlineKernelsPassBase<TadOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());

    // Candidate kernels, grouped by what they compute.
    struct Group {
      func::FuncOp kernel;
      SmallVector<SmallVector<linalg::LinalgOp, 2>> uses;
    };
    llvm::MapVector<StringRef, Group> groups;
    llvm::StringMap<char> keys; // owns the group keys
    SmallVector<func::FuncOp> candidates;
    module.walk(moveFillToReshapedContraction);
    module.walk([&](linalg::LinalgOp op) {
      if (!op.hasPureBufferSemantics() || op->getNumResults() != 0 ||
          op->getParentOfType<linalg::LinalgOp>())
        return;
      SmallVector<linalg::LinalgOp, 2> ops;
      if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
        if (filledContraction(fill))
          return; // outlined with the contraction
      } else if (auto fill = dyn_cast_or_null<linalg::FillOp>(
                     op->getPrevNode())) {
        if (filledContraction(fill) == op)
          ops.push_back(fill);
      }
      ops.push_back(op);
      func::FuncOp kernel = createKernel(b, ops);
      if (!kernel)
        return;
      candidates.push_back(kernel);
      StringRef key = keys.try_emplace(kernelKey(kernel)).first->first();
      Group &group = groups[key];
      if (!group.kernel)
        group.kernel = kernel;
      group.uses.push_back(ops);
    });

    SymbolTable symbols(module);
    for (auto &[key, group] : groups) {
      if (group.uses.size() < minUses)
        continue;
      symbols.insert(group.kernel); // appends; renames on a clash
      for (ArrayRef<linalg::LinalgOp> ops : group.uses)
        replaceByCall(b, ops, group.kernel);
    }
    for (func::FuncOp kernel : candidates)
      if (!kernel->getParentOp())
        kernel->erase();
  }
};

} // namespace
