//===- GpuPlacement.cpp - buffers and loops of a function onto the GPU ----===//
//
// tad-gpu-place and tad-gpu-merge-modules, the tad-specific steps of the
// GPU pipeline (compiler/GpuPipeline.cpp, docs/gpu.md). tad-gpu-place runs
// on buffers after `convert-linalg-to-parallel-loops`:
//
//   func.func @f(%x: memref<4x8xf32>, %out: memref<4xf32>) {tad.abi = ...}
//
// becomes a host function whose arguments and results are device buffers
// (the entry point stages host tensors in and out around it: tad-export-abi
// device=cuda, runtime/src/cuda/staging.h), that runs every loop nest on the
// device (tiled scf.parallel for the upstream mapping passes, single-thread
// gpu.launch for the rest). The host never dereferences a device buffer.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/ABI.h"
#include "passes/ABI/CheckSites.h"
#include "passes/GPU/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADGPUPLACEPASS
#define GEN_PASS_DEF_TADGPUMERGEMODULESPASS
#define GEN_PASS_DEF_TADPARALLELLOOPSFIRSTPASS
#define GEN_PASS_DEF_TADGPUEMULATEPASS
#include "passes/GPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Buffers that only host code reads and writes (see findHostBuffers).
using HostBuffers = llvm::SmallDenseSet<Value>;

/// Whether `op` may stay in host code: it does not touch buffer contents,
/// or only those of host buffers. Device allocation and copies, views, the
/// terminator, and side-effect free ops (constants, index arithmetic,
/// metadata queries) qualify; so do region ops (scf.if around a dealloc, a
/// loop over host buffers) whose bodies only hold such ops.
bool isHostOp(Operation *op, const HostBuffers &hostBuffers) {
  if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::LaunchOp,
          func::ReturnOp, memref::GetGlobalOp, ViewLikeOpInterface,
          memref::ExtractStridedMetadataOp, memref::DimOp>(op))
    return true;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return hostBuffers.contains(load.getMemRef());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return hostBuffers.contains(store.getMemRef());
  if (isa<memref::AllocOp, memref::AllocaOp>(op))
    return hostBuffers.contains(op->getResult(0));
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
    return hostBuffers.contains(dealloc.getMemref());
  if (op->getNumRegions() == 0)
    return isMemoryEffectFree(op);
  // A run-time size check calls the runtime, on the host (tad-gpu-place
  // has moved it ahead of all device work).
  if (auto check = dyn_cast<scf::IfOp>(op); check && tad::isRunTimeCheck(check))
    return true;
  if (!isa<scf::IfOp, scf::ExecuteRegionOp, scf::ForOp>(op))
    return false;
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps())
      if (!isa<scf::YieldOp>(nested) && !isHostOp(&nested, hostBuffers))
        return false;
  return true;
}

/// Whether `op` is a loop or branch that stays on the host and launches
/// the kernels of its body: a loop over blocks of work (the blocks of
/// samples of tad-split-dynamic-batch, the steps of a differentiated loop)
/// or a choice between two schedules (tad-combine-matmul-sums with a
/// dynamic size) holds buffers, parallel loops or kernels, and carries
/// only buffers, sizes and flags (the ownership flags of buffer
/// deallocation). A loop of scalar code (a full reduction) holds none of
/// them and runs in one device thread instead.
bool isHostControlFlow(Operation *op) {
  if (!isa<scf::ForOp, scf::IfOp>(op) ||
      !llvm::all_of(op->getResultTypes(), [](Type type) {
        return isa<MemRefType, IndexType, IntegerType>(type);
      }))
    return false;
  return llvm::any_of(op->getRegions(), [](Region &region) {
    return region
        .walk([](Operation *inner) {
          return isa<scf::ParallelOp, gpu::LaunchOp, memref::AllocOp,
                     memref::AllocaOp, memref::DeallocOp, memref::CopyOp,
                     gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp>(inner)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  });
}

/// The blocks of `fn` whose ops run on the host: its body and the blocks of
/// its host loops and branches, outer blocks first.
SmallVector<Block *> getHostBlocks(func::FuncOp fn) {
  SmallVector<Block *> blocks = {&fn.getBody().front()};
  for (size_t i = 0; i < blocks.size(); ++i)
    for (Operation &op : *blocks[i])
      if (isHostControlFlow(&op))
        for (Region &region : op.getRegions())
          for (Block &block : region)
            blocks.push_back(&block);
  return blocks;
}

/// The buffers allocated in host blocks that only host code uses: scalar
/// loads and stores outside kernels. Buffer deallocation's bookkeeping is
/// such (arrays of pointers and ownership flags, compared in host loops to
/// decide which buffers to free); they stay in host memory. A buffer whose
/// use cannot run on the host (in a kernel, or beside device work in one
/// loop) is device memory, and so, in turn, may be another one that
/// shares a loop with that use.
HostBuffers findHostBuffers(ArrayRef<Block *> hostBlocks) {
  HostBuffers buffers;
  for (Block *block : hostBlocks)
    for (Operation &op : *block) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        continue;
      Value buffer = op.getResult(0);
      bool scalarUses = llvm::all_of(buffer.getUsers(), [&](Operation *user) {
        if (auto store = dyn_cast<memref::StoreOp>(user))
          return store.getValueToStore() != buffer;
        return isa<memref::LoadOp, memref::DeallocOp>(user);
      });
      if (scalarUses)
        buffers.insert(buffer);
    }
  // Whether `op` runs on the host: the op that holds it in a host block
  // does (the results of host loops and branches, buffers and flags, are
  // host values).
  auto runsOnHost = [&](Operation *op) {
    Operation *top = op;
    while (top && !llvm::is_contained(hostBlocks, top->getBlock()))
      top = top->getParentOp();
    return top && (isHostControlFlow(top) || isHostOp(top, buffers));
  };
  // Whether the host has `value` without reading device memory: sizes,
  // buffer handles, flags, and what host code computes from them and from
  // host buffers (memoized per round: the set of host buffers shrinks).
  llvm::DenseMap<Value, bool> knownValues;
  llvm::DenseMap<Operation *, bool> knownOps;
  std::function<bool(Value)> isHostValue;
  // Whether `op` runs on the host on values the host has (its operands and,
  // in its regions, the values it uses from above).
  auto computesOnHost = [&](Operation *op) -> bool {
    auto [it, inserted] = knownOps.try_emplace(op, false);
    if (!inserted)
      return it->second;
    bool host = runsOnHost(op);
    if (host) {
      llvm::SetVector<Value> used(op->getOperands().begin(),
                                  op->getOperands().end());
      for (Region &region : op->getRegions())
        getUsedValuesDefinedAbove(region, used);
      host = llvm::all_of(used, isHostValue);
    }
    knownOps[op] = host;
    return host;
  };
  isHostValue = [&](Value value) -> bool {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return llvm::is_contained(hostBlocks, arg.getOwner()) ||
             computesOnHost(arg.getOwner()->getParentOp());
    auto [it, inserted] = knownValues.try_emplace(value, false);
    if (!inserted)
      return it->second;
    Operation *def = value.getDefiningOp();
    bool host;
    if (isHostControlFlow(def) ||
        isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp,
            memref::GetGlobalOp, ViewLikeOpInterface, memref::DimOp,
            memref::ExtractStridedMetadataOp>(def))
      host = true; // handles and metadata; host control flow yields those
    else if (auto load = dyn_cast<memref::LoadOp>(def))
      host = buffers.contains(load.getMemRef()) &&
             llvm::all_of(load.getIndices(), isHostValue);
    else
      host = computesOnHost(def);
    knownValues[value] = host;
    return host;
  };
  // A use of a host buffer runs on the host, with indices (and a stored
  // value) that the host has.
  auto hostUse = [&](Operation *user) {
    if (!runsOnHost(user))
      return false;
    if (auto load = dyn_cast<memref::LoadOp>(user))
      return llvm::all_of(load.getIndices(), isHostValue);
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return isHostValue(store.getValueToStore()) &&
             llvm::all_of(store.getIndices(), isHostValue);
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    knownValues.clear();
    knownOps.clear();
    for (Value buffer : llvm::to_vector(buffers))
      if (!llvm::all_of(buffer.getUsers(), hostUse)) {
        buffers.erase(buffer);
        changed = true;
      }
  }
  return buffers;
}

/// Replaces a parallel loop (without reductions) by a nest of sequential
/// loops: for parallel loops inside code that runs on a single thread.
LogicalResult sequentialize(scf::ParallelOp loop) {
  if (loop.getNumReductions() != 0)
    return loop.emitError("a parallel loop with reductions cannot be placed "
                          "on the GPU yet");
  OpBuilder b(loop);
  Block *body = loop.getBody();
  scf::buildLoopNest(
      b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), [&](OpBuilder &nested, Location, ValueRange ivs) {
        IRMapping mapping;
        mapping.map(loop.getInductionVars(), ivs);
        for (Operation &op : body->without_terminator())
          nested.clone(op, mapping);
      });
  loop.erase();
  return success();
}

struct TadGpuPlacePass : tad::impl::TadGpuPlacePassBase<TadGpuPlacePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Moves the run-time size checks (tad-check-shapes) and the sizes they
  /// compare to the start of the function: a failing check then ends the
  /// call before any device buffer exists, and never runs in a kernel.
  LogicalResult hoistRunTimeChecks(func::FuncOp fn);
  /// Checks the boundary (device pointers already) and copies the
  /// constants (host globals) to device buffers.
  LogicalResult moveBoundaryToDevice(func::FuncOp fn,
                                     const tad::abi::Signature &signature);
  /// memref.alloc/alloca/dealloc/copy to their gpu counterparts.
  LogicalResult convertAllocations(func::FuncOp fn,
                                   ArrayRef<Block *> hostBlocks,
                                   const HostBuffers &hostBuffers);
  /// Wraps the ops of a host block that touch memory outside scf.parallel
  /// and host loops into single-thread gpu.launch ops.
  LogicalResult wrapSequentialCode(Block &block,
                                   const HostBuffers &hostBuffers);
  /// Tiles each scf.parallel of a host block for the block/thread mapping.
  void tileParallelLoops(Block &block);
};

LogicalResult TadGpuPlacePass::hoistRunTimeChecks(func::FuncOp fn) {
  Block &entry = fn.getBody().front();
  // Where the next check goes: after the ones already moved.
  Operation *insertionPoint = &entry.front();
  SmallVector<scf::IfOp> checks;
  fn.walk([&](scf::IfOp check) {
    if (tad::isRunTimeCheck(check))
      checks.push_back(check);
  });
  for (scf::IfOp check : checks) {
    if (check->getBlock() != &entry)
      return check.emitError("a run-time size check inside a loop or branch "
                             "cannot run on the GPU yet");
    // The check and what it reads (sizes: arithmetic on the dynamic sizes
    // and on metadata of the arguments), in order.
    SetVector<Operation *> slice;
    BackwardSliceOptions options;
    options.omitBlockArguments = true;
    options.omitUsesFromAbove = false;
    options.inclusive = true;
    options.filter = [&](Operation *op) { return op->getBlock() == &entry; };
    if (failed(getBackwardSlice(check.getOperation(), &slice, options)))
      return failure();
    for (Operation *op : slice) {
      if (op == check.getOperation() || isa<memref::DimOp>(op) ||
          (op->getNumRegions() == 0 && isMemoryEffectFree(op)))
        continue;
      return check.emitError("a run-time size check that depends on '")
             << op->getName() << "' cannot run before the GPU code";
    }
    // (The slice lists definitions before their uses.)
    for (Operation *op : slice) {
      if (op == insertionPoint) {
        insertionPoint = op->getNextNode();
        continue;
      }
      // Moved already, for an earlier check.
      if (op->isBeforeInBlock(insertionPoint))
        continue;
      op->moveBefore(insertionPoint);
    }
  }
  return success();
}

LogicalResult
TadGpuPlacePass::moveBoundaryToDevice(func::FuncOp fn,
                                      const tad::abi::Signature &signature) {
  Block &entry = fn.getBody().front();
  auto returnOp = dyn_cast<func::ReturnOp>(entry.getTerminator());
  if (!returnOp || returnOp.getNumOperands() != 0)
    return fn.emitError("function '")
           << fn.getSymName()
           << "' must return its results through out-parameters to run on "
              "the GPU (after buffer-results-to-out-params)";
  size_t numSymbols = signature.symbols.size();
  size_t numTensors = signature.args.size() + signature.results.size();
  if (fn.getNumArguments() != numSymbols + numTensors)
    return fn.emitError("function '")
           << fn.getSymName() << "' has " << fn.getNumArguments()
           << " arguments; its tad.abi signature expects "
           << numSymbols + numTensors;

  // Dynamic sizes come first, as host integers (tad-bind-dynamic-sizes).
  // Arguments and results are device pointers already: the entry point
  // stages host tensors around the call (tad-export-abi device=cuda).
  for (BlockArgument arg : fn.getArguments()) {
    if (arg.getArgNumber() < numSymbols) {
      if (!arg.getType().isIndex())
        return fn.emitError("function '")
               << fn.getSymName() << "' has argument #" << arg.getArgNumber()
               << " of type " << arg.getType()
               << "; expected the index size of a dynamic dimension";
      continue;
    }
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
      return fn.emitError("function '")
             << fn.getSymName() << "' has argument #" << arg.getArgNumber()
             << " of type " << arg.getType()
             << "; the GPU boundary expects static memrefs with the "
                "identity layout";
  }

  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  SmallVector<Value> deviceBuffers;
  // Constants (memref.get_global of bufferized dense tensors) live in host
  // memory: copy each to the device once, at entry.
  // (Not the descriptions of check sites, which the host passes to the
  // runtime.)
  SmallVector<memref::GetGlobalOp> globals;
  fn.walk([&](memref::GetGlobalOp op) {
    auto check = dyn_cast<scf::IfOp>(op->getParentOp());
    if (!check || !tad::isRunTimeCheck(check))
      globals.push_back(op);
  });
  for (memref::GetGlobalOp global : globals) {
    auto type = global.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return global.emitError("global ")
             << global.getName() << " of type " << type
             << " cannot be copied to the GPU";
    global->moveBefore(&entry, b.getInsertionPoint());
    b.setInsertionPointAfter(global);
    Value device = gpu::AllocOp::create(b, global.getLoc(), type, Type(),
                                        ValueRange(), ValueRange(),
                                        ValueRange())
                       .getMemref();
    auto copy = gpu::MemcpyOp::create(b, global.getLoc(), TypeRange(),
                                      ValueRange(), device, global);
    global.getResult().replaceAllUsesExcept(device, copy);
    deviceBuffers.push_back(device);
  }

  b.setInsertionPoint(returnOp);
  for (Value device : deviceBuffers)
    gpu::DeallocOp::create(b, returnOp.getLoc(), TypeRange(), ValueRange(),
                           device);
  return success();
}

LogicalResult
TadGpuPlacePass::convertAllocations(func::FuncOp fn,
                                   ArrayRef<Block *> hostBlocks,
                                   const HostBuffers &hostBuffers) {
  bool failed = false;
  SmallVector<Operation *> allocations;
  fn.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
            memref::CopyOp>(op) &&
        !isHostOp(op, hostBuffers))
      allocations.push_back(op);
  });
  for (Operation *op : allocations) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      // Contiguous copies between whole buffers: device to device.
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (llvm::is_contained(hostBlocks, op->getBlock()) &&
          source.getLayout().isIdentity() &&
          target.getLayout().isIdentity() && source == target) {
        gpu::MemcpyOp::create(b, loc, TypeRange(), ValueRange(),
                              copy.getTarget(), copy.getSource());
        op->erase();
      }
      continue;
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      gpu::DeallocOp::create(b, loc, TypeRange(), ValueRange(),
                             dealloc.getMemref());
      op->erase();
      continue;
    }
    if (!llvm::is_contained(hostBlocks, op->getBlock())) {
      op->emitError("allocation inside a loop nest cannot be placed on the "
                    "GPU yet");
      failed = true;
      continue;
    }
    auto type = cast<MemRefType>(op->getResult(0).getType());
    auto alloc = gpu::AllocOp::create(b, loc, type, Type(), ValueRange(),
                                      op->getOperands(), ValueRange());
    op->getResult(0).replaceAllUsesWith(alloc.getMemref());
    bool isAlloca = isa<memref::AllocaOp>(op);
    op->erase();
    if (isAlloca) {
      // Freed where its block ends (the function, or an iteration).
      b.setInsertionPoint(alloc->getBlock()->getTerminator());
      gpu::DeallocOp::create(b, loc, TypeRange(), ValueRange(),
                             alloc.getMemref());
    }
  }
  return failure(failed);
}

LogicalResult
TadGpuPlacePass::wrapSequentialCode(Block &block,
                                   const HostBuffers &hostBuffers) {
  SmallVector<SmallVector<Operation *>> groups;
  SmallVector<Operation *> group;
  llvm::SmallPtrSet<Operation *, 16> inGroup;
  auto closeGroup = [&]() {
    if (!group.empty())
      groups.push_back(std::move(group));
    group.clear();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    // The terminator ends the last group (never hoisted above it).
    if (isa<scf::ParallelOp>(op) || op.hasTrait<OpTrait::IsTerminator>() ||
        isHostControlFlow(&op)) {
      closeGroup();
      continue;
    }
    if (isHostOp(&op, hostBuffers)) {
      bool feedsFromGroup = llvm::any_of(op.getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && inGroup.contains(def);
      });
      if (feedsFromGroup && isMemoryEffectFree(&op) &&
          op.getNumRegions() == 0) {
        group.push_back(&op);
        inGroup.insert(&op);
        continue;
      }
      if (!group.empty() && isMemoryEffectFree(&op) &&
          op.getNumRegions() == 0 && !feedsFromGroup) {
        // Pure and independent of the group: hoist above it.
        op.moveBefore(group.front());
        continue;
      }
      closeGroup();
      continue;
    }
    group.push_back(&op);
    inGroup.insert(&op);
  }
  closeGroup();

  for (SmallVector<Operation *> &ops : groups) {
    // One thread runs all of it, nested parallel loops included.
    SmallVector<scf::ParallelOp> nestedLoops;
    for (Operation *op : ops)
      op->walk([&](scf::ParallelOp loop) { nestedLoops.push_back(loop); });
    for (scf::ParallelOp loop : llvm::reverse(nestedLoops))
      if (failed(sequentialize(loop)))
        return failure();
    // Values computed inside stay inside.
    for (Operation *op : ops)
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers()) {
          Operation *top = block.findAncestorOpInBlock(*user);
          if (!top || !llvm::is_contained(ops, top))
            return op->emitError("a value computed by this op on the GPU is "
                                 "used by host code");
        }
    OpBuilder b(ops.front());
    Location loc = ops.front()->getLoc();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
    Block &body = launch.getBody().front();
    b.setInsertionPointToEnd(&body);
    auto terminator = gpu::TerminatorOp::create(b, loc);
    for (Operation *op : ops)
      op->moveBefore(terminator);
  }
  return success();
}

void TadGpuPlacePass::tileParallelLoops(Block &block) {
  SmallVector<scf::ParallelOp> loops(block.getOps<scf::ParallelOp>());
  for (scf::ParallelOp loop : loops) {
    // Threads go to the innermost dimensions first (contiguous in memory),
    // up to three of them (x, y, z), maxThreads in all, powers of two.
    unsigned numLoops = loop.getNumLoops();
    SmallVector<int64_t> tileSizes(numLoops, 1);
    int64_t budget = std::max<int64_t>(1, maxThreads);
    for (unsigned i = 0; i < numLoops && i < 3; ++i) {
      unsigned dim = numLoops - 1 - i;
      std::optional<int64_t> lower =
          getConstantIntValue(loop.getLowerBound()[dim]);
      std::optional<int64_t> upper =
          getConstantIntValue(loop.getUpperBound()[dim]);
      std::optional<int64_t> step = getConstantIntValue(loop.getStep()[dim]);
      int64_t extent = 1;
      if (lower && upper && step && *step > 0)
        extent = std::max<int64_t>(1, (*upper - *lower + *step - 1) / *step);
      else
        extent = budget;
      int64_t size = std::min<int64_t>(budget, llvm::PowerOf2Ceil(extent));
      tileSizes[dim] = size;
      budget /= size;
      if (budget <= 1)
        break;
    }
    // An outer loop over tiles (blocks) around an inner one (threads),
    // guarded by scf.if where the tile passes the bound.
    scf::tileParallelLoop(loop, tileSizes, /*noMinMaxBounds=*/true);
  }
}

void TadGpuPlacePass::runOnOperation() {
  func::FuncOp fn = getOperation();
  if (fn.isExternal())
    return;
  FailureOr<std::optional<tad::abi::Signature>> signature =
      tad::abi::readSignature(fn);
  if (failed(signature))
    return signalPassFailure();
  if (!fn.getBody().hasOneBlock()) {
    fn.emitError("function '")
        << fn.getSymName()
        << "' has unstructured control flow, which the GPU placement does "
           "not support";
    return signalPassFailure();
  }
  if (failed(hoistRunTimeChecks(fn)))
    return signalPassFailure();
  if (*signature && failed(moveBoundaryToDevice(fn, **signature)))
    return signalPassFailure();
  SmallVector<Block *> hostBlocks = getHostBlocks(fn);
  HostBuffers hostBuffers = findHostBuffers(hostBlocks);
  if (failed(convertAllocations(fn, hostBlocks, hostBuffers)))
    return signalPassFailure();
  for (Block *block : hostBlocks) {
    if (failed(wrapSequentialCode(*block, hostBuffers)))
      return signalPassFailure();
    tileParallelLoops(*block);
  }
}

struct TadGpuMergeModulesPass
    : tad::impl::TadGpuMergeModulesPassBase<TadGpuMergeModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto merged =
        gpu::GPUModuleOp::create(b, module.getLoc(), "tad_kernels");
    symbols.insert(merged);
    SymbolTable mergedSymbols(merged);

    // (old module, old kernel) -> new kernel name.
    llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp kernelModule : kernelModules) {
      for (Operation &op :
           llvm::make_early_inc_range(*kernelModule.getBody())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol) {
          op.emitError("unexpected op in an outlined gpu.module");
          return signalPassFailure();
        }
        auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
        StringAttr oldName = symbol.getNameAttr();
        // Kernels are named after their module (unique); declarations
        // (libdevice functions) are shared by name.
        if (!kernel) {
          if (mergedSymbols.lookup(oldName)) {
            op.erase();
            continue;
          }
          op.moveBefore(merged.getBody(), merged.getBody()->end());
          continue;
        }
        op.moveBefore(merged.getBody(), merged.getBody()->end());
        StringAttr newName = kernelModule.getSymNameAttr();
        if (failed(mergedSymbols.rename(&op, newName))) {
          op.emitError("cannot rename the kernel");
          return signalPassFailure();
        }
        renamed[{kernelModule.getSymNameAttr(), oldName}] = newName;
      }
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr ref = launch.getKernel();
      auto it = renamed.find({ref.getRootReference(), ref.getLeafReference()});
      if (it == renamed.end())
        return;
      launch.setKernelAttr(SymbolRefAttr::get(
          merged.getSymNameAttr(), {FlatSymbolRefAttr::get(it->second)}));
    });
    (void)context;
    for (gpu::GPUModuleOp kernelModule : kernelModules)
      kernelModule.erase();
  }
};

} // namespace

namespace {

struct TadParallelLoopsFirstPass
    : tad::impl::TadParallelLoopsFirstPassBase<TadParallelLoopsFirstPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      SmallVector<unsigned> order;
      for (auto [i, kind] : llvm::enumerate(iterators))
        if (kind == utils::IteratorType::parallel)
          order.push_back(i);
      size_t numParallel = order.size();
      for (auto [i, kind] : llvm::enumerate(iterators))
        if (kind != utils::IteratorType::parallel)
          order.push_back(i);
      bool sorted = true;
      for (auto [i, old] : llvm::enumerate(order))
        sorted &= i == old;
      if (sorted || numParallel == 0)
        continue;
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue; // Correct as it is, only less parallel.
        generic = *generalized;
      }
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace

namespace {

struct TadGpuEmulatePass
    : tad::impl::TadGpuEmulatePassBase<TadGpuEmulatePass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    SmallVector<gpu::LaunchOp> launches;
    fn.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches) {
      if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
          launch.getDynamicSharedMemorySize() ||
          launch.getNumWorkgroupAttributions() ||
          launch.getNumPrivateAttributions() || launch.hasClusterSize() ||
          !launch.getBody().hasOneBlock()) {
        launch.emitError("cannot emulate this gpu.launch on the CPU");
        return signalPassFailure();
      }
      OpBuilder b(launch);
      Location loc = launch.getLoc();
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      SmallVector<Value> lower(6, zero), steps(6, one);
      SmallVector<Value> upper = {grid.z,  grid.y,  grid.x,
                                  block.z, block.y, block.x};
      gpu::KernelDim3 blockIds = launch.getBlockIds();
      gpu::KernelDim3 threadIds = launch.getThreadIds();
      gpu::KernelDim3 gridSize = launch.getGridSize();
      gpu::KernelDim3 blockSize = launch.getBlockSize();
      Block &body = launch.getBody().front();
      scf::buildLoopNest(
          b, loc, lower, upper, steps,
          [&](OpBuilder &nested, Location, ValueRange ivs) {
            IRMapping mapping;
            mapping.map(blockIds.z, ivs[0]);
            mapping.map(blockIds.y, ivs[1]);
            mapping.map(blockIds.x, ivs[2]);
            mapping.map(threadIds.z, ivs[3]);
            mapping.map(threadIds.y, ivs[4]);
            mapping.map(threadIds.x, ivs[5]);
            mapping.map(gridSize.x, grid.x);
            mapping.map(gridSize.y, grid.y);
            mapping.map(gridSize.z, grid.z);
            mapping.map(blockSize.x, block.x);
            mapping.map(blockSize.y, block.y);
            mapping.map(blockSize.z, block.z);
            for (Operation &op : body.without_terminator())
              nested.clone(op, mapping);
          });
      launch.erase();
    }

    bool failed = false;
    fn.walk([&](Operation *op) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
        if (alloc.getAsyncToken()) {
          failed = true;
          op->emitError("cannot emulate an async gpu.alloc");
          return;
        }
        Value memref = memref::AllocOp::create(
            b, loc, alloc.getType(), alloc.getDynamicSizes(),
            alloc.getSymbolOperands(), IntegerAttr());
        alloc.getMemref().replaceAllUsesWith(memref);
        op->erase();
      } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
        memref::DeallocOp::create(b, loc, dealloc.getMemref());
        op->erase();
      } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
        memref::CopyOp::create(b, loc, copy.getSrc(), copy.getDst());
        op->erase();
      } else if (isa<gpu::GPUDialect>(op->getDialect())) {
        failed = true;
        op->emitError("cannot emulate this op on the CPU");
      }
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
