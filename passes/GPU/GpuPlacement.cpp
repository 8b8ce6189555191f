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
#include "passes/GPU/Passes.h"

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

/// Whether `op` may stay in host code: it does not touch buffer contents.
/// Device allocation and copies, views, the terminator, and side-effect
/// free ops (constants, index arithmetic, metadata queries) qualify; so do
/// region ops (scf.if around a dealloc) whose bodies only hold such ops.
bool isHostOp(Operation *op) {
  if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::LaunchOp,
          func::ReturnOp, memref::GetGlobalOp, ViewLikeOpInterface,
          memref::ExtractStridedMetadataOp, memref::DimOp>(op))
    return true;
  if (op->getNumRegions() == 0)
    return isMemoryEffectFree(op);
  if (isa<scf::ParallelOp>(op))
    return false;
  if (!isa<scf::IfOp, scf::ExecuteRegionOp>(op))
    return false;
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps())
      if (!isa<scf::YieldOp>(nested) && !isHostOp(&nested))
        return false;
  return true;
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
  /// Checks the boundary (device pointers already) and copies the
  /// constants (host globals) to device buffers.
  LogicalResult moveBoundaryToDevice(func::FuncOp fn,
                                     const tad::abi::Signature &signature);
  /// memref.alloc/alloca/dealloc/copy to their gpu counterparts.
  LogicalResult convertAllocations(func::FuncOp fn);
  /// Wraps the top-level ops that touch memory outside scf.parallel into
  /// single-thread gpu.launch ops.
  LogicalResult wrapSequentialCode(func::FuncOp fn);
  /// Tiles each top-level scf.parallel for the block/thread mapping.
  void tileParallelLoops(func::FuncOp fn);
};

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
  size_t numArgs = signature.args.size();
  if (fn.getNumArguments() != numArgs + signature.results.size())
    return fn.emitError("function '")
           << fn.getSymName() << "' has " << fn.getNumArguments()
           << " arguments; its tad.abi signature expects "
           << numArgs + signature.results.size();

  // Arguments and results are device pointers already: the entry point
  // stages host tensors around the call (tad-export-abi device=cuda).
  for (BlockArgument arg : fn.getArguments()) {
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
  SmallVector<memref::GetGlobalOp> globals;
  fn.walk([&](memref::GetGlobalOp op) { globals.push_back(op); });
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

LogicalResult TadGpuPlacePass::convertAllocations(func::FuncOp fn) {
  Block &entry = fn.getBody().front();
  Operation *returnOp = entry.getTerminator();
  bool failed = false;
  SmallVector<Operation *> allocations;
  fn.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
            memref::CopyOp>(op))
      allocations.push_back(op);
  });
  for (Operation *op : allocations) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      // Contiguous copies between whole buffers: device to device.
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (op->getBlock() == &entry && source.getLayout().isIdentity() &&
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
    if (op->getBlock() != &entry) {
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
      b.setInsertionPoint(returnOp);
      gpu::DeallocOp::create(b, loc, TypeRange(), ValueRange(),
                             alloc.getMemref());
    }
  }
  return failure(failed);
}

LogicalResult TadGpuPlacePass::wrapSequentialCode(func::FuncOp fn) {
  Block &entry = fn.getBody().front();
  SmallVector<SmallVector<Operation *>> groups;
  SmallVector<Operation *> group;
  llvm::SmallPtrSet<Operation *, 16> inGroup;
  auto closeGroup = [&]() {
    if (!group.empty())
      groups.push_back(std::move(group));
    group.clear();
  };
  for (Operation &op : llvm::make_early_inc_range(entry)) {
    // The terminator ends the last group (never hoisted above it).
    if (isa<scf::ParallelOp>(op) || op.hasTrait<OpTrait::IsTerminator>()) {
      closeGroup();
      continue;
    }
    if (isHostOp(&op)) {
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
          Operation *top = entry.findAncestorOpInBlock(*user);
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

void TadGpuPlacePass::tileParallelLoops(func::FuncOp fn) {
  Block &entry = fn.getBody().front();
  SmallVector<scf::ParallelOp> loops(entry.getOps<scf::ParallelOp>());
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
  if (*signature && (*signature)->isDynamic()) {
    fn.emitError("function '")
        << fn.getSymName()
        << "' has dynamic sizes, which the GPU target does not support yet "
           "(docs/dynamic-shapes.md); compile it for the CPU or with static "
           "shapes";
    return signalPassFailure();
  }
  if (!fn.getBody().hasOneBlock()) {
    fn.emitError("function '")
        << fn.getSymName()
        << "' has unstructured control flow, which the GPU placement does "
           "not support";
    return signalPassFailure();
  }
  if (*signature && failed(moveBoundaryToDevice(fn, **signature)))
    return signalPassFailure();
  if (failed(convertAllocations(fn)) || failed(wrapSequentialCode(fn)))
    return signalPassFailure();
  tileParallelLoops(fn);
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
