//===- SplitLargeFunctions.cpp - large functions as calls of pieces -------===//
//
// See TadSplitLargeFunctionsPass in Passes.td: the top-level ops of a
// function with very many ops move into private functions of about
// `max-ops` ops each, so that LLVM's passes, whose time grows faster than
// the size of a function, see only small ones.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADSPLITLARGEFUNCTIONSPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// The number of ops in `op`, itself included.
int64_t countOps(Operation *op) {
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

/// Whether `op` is cheaper to clone into a piece than to pass: a constant,
/// or a global's address (which would cross a call as the descriptor's
/// placeholder allocated pointer, not the address).
bool isRematerializable(Operation *op) {
  return (op->hasTrait<OpTrait::ConstantLike>() && op->getNumOperands() == 0 &&
          op->getNumRegions() == 0) ||
         isa<memref::GetGlobalOp>(op);
}

/// Whether a value of `type` can be passed to a call: a scalar, or a
/// strided memref (as its base buffer and the dynamic parts of its layout).
bool canPass(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.isStrided();
  return type.isIntOrIndexOrFloat();
}

/// The buffer whose memory `value` views.
Value memoryOf(Value value) {
  while (true) {
    if (auto view = value.getDefiningOp<ViewLikeOpInterface>())
      value = view.getViewSource();
    else if (auto cast = value.getDefiningOp<memref::ReinterpretCastOp>())
      value = cast.getSource();
    else
      return value;
  }
}

/// Whether `value`, defined in `body`, may go from one piece to a later
/// one: as an argument anything passable, as a result only a memref on the
/// heap (its one bare pointer is the allocated pointer too) or one `body`
/// was given. A stack buffer dies with its piece, and a global's
/// descriptor holds a placeholder allocated pointer.
bool canCross(Value value, Block &body) {
  if (!canPass(value.getType()))
    return false;
  if (!isa<MemRefType>(value.getType()))
    return true;
  Value memory = memoryOf(value);
  if (auto arg = dyn_cast<BlockArgument>(memory))
    return arg.getOwner() == &body;
  return memory.getDefiningOp<memref::AllocOp>() != nullptr;
}

/// The types `value` crosses a call as: itself, or a memref's base buffer
/// (`memref<T>`) and an index for its dynamic offset, sizes and strides.
void appendCrossingTypes(Value value, SmallVectorImpl<Type> &types) {
  auto memref = dyn_cast<MemRefType>(value.getType());
  if (!memref) {
    types.push_back(value.getType());
    return;
  }
  types.push_back(MemRefType::get({}, memref.getElementType(),
                                  MemRefLayoutAttrInterface(),
                                  memref.getMemorySpace()));
  auto [strides, offset] = memref.getStridesAndOffset();
  Type index = IndexType::get(value.getContext());
  int64_t dynamic = ShapedType::isDynamic(offset) + memref.getNumDynamicDims() +
                    llvm::count_if(strides, ShapedType::isDynamic);
  types.append(dynamic, index);
}

/// The values `value` crosses a call as (see appendCrossingTypes).
void appendCrossingValues(OpBuilder &b, Location loc, Value value,
                          SmallVectorImpl<Value> &values) {
  auto memref = dyn_cast<MemRefType>(value.getType());
  if (!memref) {
    values.push_back(value);
    return;
  }
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, value);
  values.push_back(metadata.getBaseBuffer());
  auto [strides, offset] = memref.getStridesAndOffset();
  if (ShapedType::isDynamic(offset))
    values.push_back(metadata.getOffset());
  for (auto [d, size] : llvm::enumerate(metadata.getSizes()))
    if (memref.isDynamicDim(d))
      values.push_back(size);
  for (auto [stride, strideValue] : llvm::zip(strides, metadata.getStrides()))
    if (ShapedType::isDynamic(stride))
      values.push_back(strideValue);
}

/// Rebuilds a value of `type` from the values it crossed a call as,
/// consuming them from the front of `values`.
Value rebuildCrossing(OpBuilder &b, Location loc, Type type,
                      ValueRange &values) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref) {
    Value value = values.front();
    values = values.drop_front();
    return value;
  }
  Value base = values.front();
  values = values.drop_front();
  auto next = [&](int64_t size) -> OpFoldResult {
    if (!ShapedType::isDynamic(size))
      return b.getIndexAttr(size);
    Value value = values.front();
    values = values.drop_front();
    return value;
  };
  auto [strides, offset] = memref.getStridesAndOffset();
  OpFoldResult rebuiltOffset = next(offset);
  SmallVector<OpFoldResult> sizes, rebuiltStrides;
  for (int64_t size : memref.getShape())
    sizes.push_back(next(size));
  for (int64_t stride : strides)
    rebuiltStrides.push_back(next(stride));
  return memref::ReinterpretCastOp::create(b, loc, memref, base, rebuiltOffset,
                                           sizes, rebuiltStrides);
}

/// A run of consecutive top-level ops of a function and the values it
/// exchanges with the rest of the function.
struct Piece {
  SmallVector<Operation *> ops;
  llvm::SetVector<Value> inputs;    // defined before the run, used in it
  llvm::SetVector<Value> constants; // rematerializable ones, cloned
  SmallVector<Value> outputs;       // defined in the run, used after it
};

/// Fills in what `piece` exchanges with the function around it; false
/// where a value cannot be passed.
bool analyze(Piece &piece, Block &body) {
  llvm::DenseSet<Operation *> members(piece.ops.begin(), piece.ops.end());
  auto isInside = [&](Operation *op) {
    Operation *top = body.findAncestorOpInBlock(*op);
    return top && members.contains(top);
  };
  auto isDefinedInside = [&](Value value) {
    if (Operation *def = value.getDefiningOp())
      return isInside(def);
    Operation *owner = cast<BlockArgument>(value).getOwner()->getParentOp();
    return owner != body.getParentOp() && isInside(owner);
  };
  for (Operation *op : piece.ops)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        if (isDefinedInside(operand))
          continue;
        Operation *def = operand.getDefiningOp();
        if (def && isRematerializable(def))
          piece.constants.insert(operand);
        else
          piece.inputs.insert(operand);
      }
    });
  for (Operation *op : piece.ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !isInside(user); }))
        piece.outputs.push_back(result);
  auto passable = [](Value v) { return canPass(v.getType()); };
  return llvm::all_of(piece.inputs, passable) &&
         llvm::all_of(piece.outputs, passable);
}

/// Moves `piece` out of `fn` into a new private function, inserted after
/// `previous`, that `fn` calls in its place; returns the function.
func::FuncOp outline(Piece &piece, func::FuncOp fn, Operation *previous,
                     SymbolTable &symbols, unsigned number) {
  MLIRContext *ctx = fn.getContext();
  Location loc = piece.ops.front()->getLoc();
  SmallVector<Type> argTypes, resultTypes;
  for (Value input : piece.inputs)
    appendCrossingTypes(input, argTypes);
  for (Value output : piece.outputs)
    appendCrossingTypes(output, resultTypes);

  OpBuilder detached(ctx);
  auto callee = func::FuncOp::create(
      detached, loc, (fn.getSymName() + "_part" + Twine(number)).str(),
      FunctionType::get(ctx, argTypes, resultTypes));
  callee.setPrivate();
  // Inlined back, LLVM would see one large function again.
  callee->setAttr("passthrough",
                  detached.getArrayAttr({detached.getStringAttr("noinline")}));
  symbols.insert(callee, std::next(Block::iterator(previous)));

  // The caller: the call and the outputs rebuilt from its results.
  OpBuilder b(piece.ops.front());
  SmallVector<Value> args;
  for (Value input : piece.inputs)
    appendCrossingValues(b, loc, input, args);
  auto call = func::CallOp::create(b, loc, callee, args);
  b.setInsertionPointAfter(call);
  ValueRange results = call.getResults();
  SmallVector<Value> rebuiltOutputs;
  for (Value output : piece.outputs)
    rebuiltOutputs.push_back(
        rebuildCrossing(b, loc, output.getType(), results));

  // The callee: constants, inputs rebuilt from its arguments, the ops.
  Block *entry = callee.addEntryBlock();
  OpBuilder body = OpBuilder::atBlockEnd(entry);
  SmallVector<Value> clonedConstants, rebuiltInputs;
  for (Value constant : piece.constants)
    clonedConstants.push_back(
        body.clone(*constant.getDefiningOp())->getResult(0));
  ValueRange arguments = entry->getArguments();
  for (Value input : piece.inputs)
    rebuiltInputs.push_back(
        rebuildCrossing(body, loc, input.getType(), arguments));
  for (Operation *op : piece.ops)
    op->moveBefore(entry, entry->end());
  auto isInCallee = [&](OpOperand &use) {
    return callee->isProperAncestor(use.getOwner());
  };
  for (auto [constant, clone] : llvm::zip(piece.constants, clonedConstants))
    Value(constant).replaceUsesWithIf(clone, isInCallee);
  for (auto [input, rebuilt] : llvm::zip(piece.inputs, rebuiltInputs))
    Value(input).replaceUsesWithIf(rebuilt, isInCallee);
  body.setInsertionPointToEnd(entry);
  SmallVector<Value> returned;
  for (Value output : piece.outputs)
    appendCrossingValues(body, loc, output, returned);
  func::ReturnOp::create(body, loc, returned);
  for (auto [output, rebuilt] : llvm::zip(piece.outputs, rebuiltOutputs))
    output.replaceUsesWithIf(rebuilt, [&](OpOperand &use) {
      return !callee->isProperAncestor(use.getOwner());
    });
  return callee;
}

struct TadSplitLargeFunctionsPass
    : tad::impl::TadSplitLargeFunctionsPassBase<TadSplitLargeFunctionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> large;
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal() && fn.getBody().hasOneBlock() &&
          countOps(fn) > static_cast<int64_t>(maxOps))
        large.push_back(fn);
    for (func::FuncOp fn : large)
      split(fn, symbols);
  }

  void split(func::FuncOp fn, SymbolTable &symbols) {
    Block &body = fn.getBody().front();
    // The position of the last top-level op that uses a value of each op
    // that cannot cross: no cut before it.
    DenseMap<Operation *, unsigned> position;
    for (auto [i, op] : llvm::enumerate(body))
      position[&op] = i;
    SmallVector<unsigned> reach;
    for (auto [i, op] : llvm::enumerate(body)) {
      reach.push_back(i);
      if (isRematerializable(&op))
        continue;
      for (Value result : op.getResults())
        if (!canCross(result, body))
          for (Operation *user : result.getUsers())
            reach.back() = std::max(
                reach.back(), position[body.findAncestorOpInBlock(*user)]);
    }

    // Runs of about maxOps ops, cut where nothing uncrossable is live;
    // what is left after the last run stays.
    SmallVector<SmallVector<Operation *>> runs(1);
    int64_t count = 0;
    unsigned live = 0;
    for (auto [i, op] : llvm::enumerate(body.without_terminator())) {
      live = std::max(live, reach[i]);
      if (isRematerializable(&op))
        continue; // stays; pieces clone it
      runs.back().push_back(&op);
      count += countOps(&op);
      if (count >= static_cast<int64_t>(maxOps) && live <= i) {
        runs.emplace_back();
        count = 0;
      }
    }
    runs.pop_back();
    Operation *previous = fn;
    unsigned number = 0;
    for (SmallVector<Operation *> &run : runs) {
      Piece piece;
      piece.ops = std::move(run);
      if (analyze(piece, body))
        previous = outline(piece, fn, previous, symbols, number++);
    }
  }
};

} // namespace
