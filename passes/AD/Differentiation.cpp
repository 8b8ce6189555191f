//===- Differentiation.cpp - shared pieces of the VJP and JVP passes ------===//
#include "passes/AD/Differentiation.h"
#include "passes/AD/Activity.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::tad;

bool mlir::tad::isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool mlir::tad::carriesDerivative(Type type) {
  if (!isFloatTensor(type))
    return false;
  auto tensor = cast<RankedTensorType>(type);
  return !tensor.hasStaticShape() || tensor.getNumElements() > 0;
}

bool mlir::tad::isDifferentiableArgument(func::FuncOp func, unsigned index) {
  return isFloatTensor(func.getArgument(index).getType()) &&
         !func.getArgAttr(index, kNonDifferentiableAttr);
}

SmallVector<std::string>
mlir::tad::collectDerivativeTargets(ModuleOp module, ArrayRef<std::string> names,
                                    StringRef suffix) {
  SmallVector<std::string> targets;
  for (const std::string &name : names) {
    if (llvm::is_contained(targets, name))
      continue;
    // A target may be a derivative generated earlier in this same pass
    // (`--vjp=f,f_vjp`), so existence is checked when it is processed.
    targets.push_back(name);
  }
  for (auto func : module.getOps<func::FuncOp>()) {
    StringRef name = func.getSymName();
    if (!func.isExternal() || !name.ends_with(suffix))
      continue;
    std::string primal = name.drop_back(suffix.size()).str();
    auto primalFunc = module.lookupSymbol<func::FuncOp>(primal);
    if (primalFunc && !primalFunc.isExternal() &&
        !llvm::is_contained(targets, primal))
      targets.push_back(primal);
  }
  return targets;
}

LogicalResult mlir::tad::differentiateTargets(
    ModuleOp module, ArrayRef<std::string> names, StringRef suffix,
    function_ref<LogicalResult(SymbolTable &, func::FuncOp)> differentiate) {
  SymbolTable symbols(module);
  for (const std::string &name :
       collectDerivativeTargets(module, names, suffix)) {
    auto primal = symbols.lookup<func::FuncOp>(name);
    if (!primal)
      return module.emitError("--")
             << suffix.drop_front() << ": no function named '" << name << "'";
    if (failed(differentiate(symbols, primal)))
      return failure();
  }
  return success();
}

DerivativeSignature DerivativeSignature::of(func::FuncOp primal) {
  DerivativeSignature signature;
  for (unsigned i = 0, e = primal.getNumArguments(); i < e; ++i)
    if (isDifferentiableArgument(primal, i))
      signature.args.push_back(i);
  for (auto [i, type] : llvm::enumerate(primal.getResultTypes()))
    if (isFloatTensor(type))
      signature.results.push_back(i);
  return signature;
}

LogicalResult mlir::tad::checkDifferentiable(func::FuncOp primal) {
  if (primal.isExternal())
    return primal.emitError("cannot differentiate '")
           << primal.getSymName() << "': it has no body";
  if (!primal.getBody().hasOneBlock())
    return primal.emitError("cannot differentiate '")
           << primal.getSymName() << "': it has more than one block";
  WalkResult walk = primal.getBody().walk([&](Operation *op) {
    if (isa<AllReduceOp, BroadcastFromOp, BarrierOp>(op)) {
      op->emitError("cannot differentiate through '")
          << op->getName()
          << "': collectives are not differentiable; differentiate the "
             "per-rank function and all-reduce its gradients (see "
             "docs/distributed.md)";
      return WalkResult::interrupt();
    }
    if (isa<CallOpInterface>(op)) {
      op->emitError("cannot differentiate through a call yet; inline the "
                    "callee into '")
          << primal.getSymName() << "' first";
      return WalkResult::interrupt();
    }
    if (op->getNumRegions() != 0 &&
        !isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op)) {
      op->emitError("cannot differentiate through '")
          << op->getName()
          << "': the control flow tad differentiates is scf.for, scf.while "
             "and scf.if";
      return WalkResult::interrupt();
    }
    auto isMemRef = [](Type type) { return isa<BaseMemRefType>(type); };
    if (llvm::any_of(op->getOperandTypes(), isMemRef) ||
        llvm::any_of(op->getResultTypes(), isMemRef)) {
      op->emitError("cannot differentiate through '")
          << op->getName() << "': it works on memrefs, tad differentiates "
          << "tensors";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Creates the empty function `name` of `type` next to `primal` (see
/// createDerivativeFunction).
static FailureOr<func::FuncOp> createFunction(SymbolTable &symbols,
                                              func::FuncOp primal,
                                              StringRef name,
                                              FunctionType type,
                                              bool requested) {
  SymbolTable::Visibility visibility = SymbolTable::Visibility::Public;
  if (auto existing = symbols.lookup<func::FuncOp>(name)) {
    if (!existing.isExternal())
      return existing.emitError("cannot generate '")
             << name << "': a function with that name already exists";
    if (existing.getFunctionType() != type)
      return existing.emitError("declaration of '")
             << name << "' has type " << existing.getFunctionType()
             << ", but the derivative of '" << primal.getSymName()
             << "' has type " << type;
    visibility = existing.getVisibility();
    symbols.erase(existing);
  }
  OpBuilder b(primal.getContext());
  b.setInsertionPointAfter(primal);
  auto func = func::FuncOp::create(b, primal.getLoc(), name, type);
  func.setVisibility(requested ? SymbolTable::Visibility::Public
                               : visibility);
  // Primal arguments keep their attributes (tad.nondiff), so derivatives of
  // derivatives respect them.
  for (unsigned i = 0, e = primal.getNumArguments(); i < e; ++i)
    if (DictionaryAttr attrs = primal.getArgAttrDict(i))
      func.setArgAttrs(i, attrs);
  symbols.insert(func);
  func.addEntryBlock();
  return func;
}

FailureOr<DerivativeFunction>
mlir::tad::createDerivativeFunction(SymbolTable &symbols, func::FuncOp primal,
                                    DerivativeMode mode, bool requested) {
  if (failed(checkDifferentiable(primal)))
    return failure();
  DerivativeFunction derivative;
  derivative.signature = DerivativeSignature::of(primal);
  derivative.mode = mode;
  bool reverse = mode == DerivativeMode::Reverse;
  FunctionType primalType = primal.getFunctionType();
  ArrayRef<unsigned> args = derivative.signature.args;
  ArrayRef<unsigned> results = derivative.signature.results;
  SmallVector<Type> inputs(primalType.getInputs());
  for (unsigned i : reverse ? results : args)
    inputs.push_back(reverse ? primalType.getResult(i)
                             : primalType.getInput(i));
  SmallVector<Type> outputs(primalType.getResults());
  for (unsigned i : reverse ? args : results)
    outputs.push_back(reverse ? primalType.getInput(i)
                              : primalType.getResult(i));
  StringRef suffix = reverse ? "_vjp" : "_jvp";
  FailureOr<func::FuncOp> func = createFunction(
      symbols, primal, (primal.getSymName() + suffix).str(),
      FunctionType::get(primal.getContext(), inputs, outputs), requested);
  if (failed(func))
    return failure();
  derivative.func = *func;
  derivative.numPrimalArguments = primalType.getNumInputs();
  Block &entry = derivative.getEntryBlock();
  for (unsigned i = 0, e = primalType.getNumInputs(); i < e; ++i)
    derivative.mapping.map(primal.getArgument(i), entry.getArgument(i));
  return derivative;
}

void DerivativeFunction::finish(OpBuilder &b, ArrayRef<Value> results) {
  // A symbolic zero of dynamic shape takes its sizes from the value it is
  // the derivative of: the differentiable argument (a gradient) or the
  // primal result (a tangent); a constant has a static shape.
  bool reverse = mode == DerivativeMode::Reverse;
  ArrayRef<unsigned> positions = reverse ? signature.args : signature.results;
  size_t numPrimalResults = results.size() - positions.size();
  auto sameShape = [&](size_t i) -> Value {
    if (i < numPrimalResults)
      return Value();
    unsigned position = positions[i - numPrimalResults];
    return reverse ? getEntryBlock().getArgument(position)
                   : results[position];
  };
  SmallVector<Value> returned;
  for (auto [i, value, type] :
       llvm::enumerate(results, func.getResultTypes())) {
    Value like = sameShape(i);
    if (value)
      returned.push_back(value);
    else if (!cast<RankedTensorType>(type).hasStaticShape() && like &&
             like.getType() == type)
      returned.push_back(createZerosLike(b, func.getLoc(), like));
    else
      returned.push_back(createZeros(b, func.getLoc(), type));
  }
  func::ReturnOp::create(b, func.getLoc(), returned);
}

Value mlir::tad::createZeros(OpBuilder &b, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(tensor,
                             b.getFloatAttr(tensor.getElementType(), 0.0)));
}

Value mlir::tad::createZerosLike(OpBuilder &b, Location loc, Value like) {
  if (cast<RankedTensorType>(like.getType()).hasStaticShape())
    return createZeros(b, loc, like.getType());
  return ZerosLikeOp::create(b, loc, like.getType(), like);
}

LogicalResult mlir::tad::checkActiveValues(Block &block,
                                           const Activity &activity) {
  WalkResult walk = block.walk([&](Operation *op) {
    if (llvm::none_of(op->getOperands(),
                      [&](Value v) { return activity.isActive(v); }))
      return WalkResult::advance();
    for (Value result : op->getResults())
      // A comparison has no derivative: a scalar that only decides control
      // flow loses nothing.
      if (isa<FloatType>(result.getType()) &&
          !llvm::all_of(result.getUsers(),
                        [](Operation *user) { return isa<arith::CmpFOp>(user); })) {
        op->emitError("cannot differentiate through '")
            << op->getName() << "': its result of type " << result.getType()
            << " depends on a differentiable argument, and derivatives "
            << "flow only through float tensors";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
