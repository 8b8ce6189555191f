//===- RecordABI.cpp - record exported signatures (tad.abi) ---------------===//
//
// Bufferization and the lowering to LLVM turn `tensor<4x8xf32>` arguments
// and results into bare pointers; the entry points of the C ABI still need
// the tensor types to check calls and to describe the module. This pass
// stores them, before anything changes the signatures, as the `tad.abi`
// attribute of each exported function (see passes/ABI.h), and marks the
// arguments read-only for bufferization. Dynamic sizes become symbols
// (tad::abi::Signature): those of results are traced back to the argument
// dimensions they come from.
//
//===----------------------------------------------------------------------===//
#include "passes/ABI/ABI.h"
#include "passes/ABI/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include <numeric>
#include <tuple>

namespace mlir::tad {
#define GEN_PASS_DEF_TADRECORDABIPASS
#include "passes/ABI/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Checks that `type`, the `kind` #`index` of `fn`, can cross the C boundary.
LogicalResult checkBoundaryType(func::FuncOp fn, StringRef kind, unsigned index,
                                Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return fn.emitError("exported function '")
           << fn.getSymName() << "' has " << kind << " #" << index
           << " of type " << type
           << "; the tad C ABI passes only ranked tensors";
  if (!tad::abi::getDType(tensor.getElementType()))
    return fn.emitError("exported function '")
           << fn.getSymName() << "' has " << kind << " #" << index
           << " with element type " << tensor.getElementType()
           << "; the tad C ABI supports f32, f64, bf16, f16, i64, i32 and i1";
  if (tensor.getEncoding())
    return fn.emitError("exported function '")
           << fn.getSymName() << "' has " << kind << " #" << index
           << " with a tensor encoding " << type
           << "; the tad C ABI passes dense row-major tensors";
  return success();
}

/// An argument of the function and one of its dimensions.
using ArgumentDim = std::pair<unsigned, int64_t>;

/// A size as a multiple of an argument dimension's: `num / den` times it
/// (in lowest terms). A view that splits a batch into blocks or merges it
/// with static sizes scales it; the views are checked to divide evenly at
/// run time (tad-check-shapes), so the scales compose exactly.
struct ScaledDim {
  ArgumentDim dim;
  int64_t num = 1, den = 1;

  ScaledDim scaled(int64_t mul, int64_t div) const {
    int64_t n = num * mul, d = den * div;
    int64_t g = std::gcd(n, d);
    return {dim, n / g, d / g};
  }
  bool isUnscaled() const { return num == 1 && den == 1; }
};

/// Finds the argument dimension whose size (times a constant factor)
/// dimension `dim` of `value` has, following the value back through the
/// ops that keep sizes (destination-style ops to their inits, tensor.empty
/// to its size operands, casts, reshapes, slices, loops whose carried
/// values keep their sizes, branches that yield one size) and through the
/// size arithmetic of views (products and quotients by constants);
/// nullopt where the size is computed some other way.
class SizeTracer {
public:
  /// `argumentSizes` are the sizes of fn's arguments, static or a symbol
  /// (tad::abi::Signature): two argument dimensions of one symbol are one
  /// size.
  SizeTracer(func::FuncOp fn, ArrayRef<SmallVector<int64_t>> argumentSizes)
      : fn(fn), argumentSizes(argumentSizes) {}

  std::optional<ScaledDim> trace(Value value, int64_t dim);

private:
  /// Like trace, for an index value that is a size.
  std::optional<ScaledDim> traceIndex(Value size);

  /// A size of a value that `loop` carries (its `index`th), by induction
  /// over the iterations: the initial value's size, if the yielded value
  /// has that size whenever the carried one has it.
  std::optional<ScaledDim> traceCarried(scf::ForOp loop, unsigned index,
                                        int64_t dim);

  bool sameSize(const ScaledDim &a, const ScaledDim &b) const {
    return argumentSizes[a.dim.first][a.dim.second] ==
               argumentSizes[b.dim.first][b.dim.second] &&
           a.num == b.num && a.den == b.den;
  }

  func::FuncOp fn;
  ArrayRef<SmallVector<int64_t>> argumentSizes;
  /// The carried values (block argument, dimension) whose size is being
  /// proved, each with the size assumed for it meanwhile.
  SmallVector<std::tuple<Value, int64_t, ScaledDim>> assumed;
};

std::optional<ScaledDim> SizeTracer::traceIndex(Value size) {
  // Views compute their dynamic sizes from their source's: the product of
  // a collapsed group, that divided by the static sizes of an expanded one
  // (reshapeTo; exact, since the view's element count is checked).
  if (isa_and_present<arith::DivUIOp, arith::MulIOp>(size.getDefiningOp())) {
    Operation *op = size.getDefiningOp();
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    std::optional<int64_t> factor = getConstantIntValue(rhs);
    if (!factor && isa<arith::MulIOp>(op)) {
      std::swap(lhs, rhs);
      factor = getConstantIntValue(rhs);
    }
    if (!factor || *factor <= 0)
      return std::nullopt;
    std::optional<ScaledDim> traced = traceIndex(lhs);
    if (!traced)
      return std::nullopt;
    return isa<arith::MulIOp>(op) ? traced->scaled(*factor, 1)
                                  : traced->scaled(1, *factor);
  }
  auto dimOp = size.getDefiningOp<tensor::DimOp>();
  std::optional<int64_t> index = dimOp ? dimOp.getConstantIndex() : std::nullopt;
  if (!index)
    return std::nullopt;
  return trace(dimOp.getSource(), *index);
}

std::optional<ScaledDim> SizeTracer::traceCarried(scf::ForOp loop,
                                                  unsigned index, int64_t dim) {
  Value carried = loop.getRegionIterArgs()[index];
  for (auto &[value, d, size] : assumed)
    if (value == carried && d == dim)
      return size;
  std::optional<ScaledDim> initial = trace(loop.getInits()[index], dim);
  if (!initial)
    return std::nullopt;
  assumed.push_back({carried, dim, *initial});
  std::optional<ScaledDim> yielded =
      trace(loop.getYieldedValues()[index], dim);
  assumed.pop_back();
  if (!yielded || !sameSize(*yielded, *initial))
    return std::nullopt;
  return initial;
}

std::optional<ScaledDim> SizeTracer::trace(Value value, int64_t dim) {
  // Each step moves to an operand of the defining op: the walk ends at an
  // argument of the entry block or at an op it does not follow.
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &fn.getBody().front())
        return ScaledDim{{arg.getArgNumber(), dim}};
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg == loop.getInductionVar())
        return std::nullopt;
      return traceCarried(loop, arg.getArgNumber() - 1, dim);
    }
    Operation *op = value.getDefiningOp();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
      continue;
    }
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return traceIndex(empty.getDynamicSize(dim));
    if (auto cast = dyn_cast<tensor::CastOp>(op)) {
      if (!cast.getSource().getType().isDynamicDim(dim))
        return std::nullopt;
      value = cast.getSource();
      continue;
    }
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      OpFoldResult size = expand.getMixedOutputShape()[dim];
      auto sizeValue = dyn_cast<Value>(size);
      return sizeValue ? traceIndex(sizeValue) : std::nullopt;
    }
    // A branch's result has the size that both branches yield.
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (branch.getElseRegion().empty())
        return std::nullopt;
      unsigned i = cast<OpResult>(value).getResultNumber();
      std::optional<ScaledDim> thenSize =
          trace(branch.thenYield().getOperand(i), dim);
      std::optional<ScaledDim> elseSize =
          trace(branch.elseYield().getOperand(i), dim);
      if (!thenSize || !elseSize || !sameSize(*thenSize, *elseSize))
        return std::nullopt;
      return thenSize;
    }
    // A loop's result has the size that its carried value keeps.
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return traceCarried(loop, cast<OpResult>(value).getResultNumber(), dim);
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      value = insert.getDest();
      continue;
    }
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
      // The result's sizes are the slice's without the dropped unit sizes
      // of a rank-reducing slice.
      llvm::SmallBitVector dropped = extract.getDroppedDims();
      SmallVector<OpFoldResult> sizes = extract.getMixedSizes();
      int64_t kept = -1;
      for (auto [d, size] : llvm::enumerate(sizes)) {
        if (dropped.test(d) || ++kept != dim)
          continue;
        auto sizeValue = dyn_cast<Value>(size);
        return sizeValue ? traceIndex(sizeValue) : std::nullopt;
      }
      return std::nullopt;
    }
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      // A group of one dynamic size and static ones: that size times the
      // static ones.
      std::optional<int64_t> member;
      int64_t known = 1;
      auto source = collapse.getSrcType();
      SmallVector<ReassociationIndices> groups =
          collapse.getReassociationIndices();
      for (int64_t d : groups[dim]) {
        if (!source.isDynamicDim(d))
          known *= source.getDimSize(d);
        else if (member)
          return std::nullopt;
        else
          member = d;
      }
      if (!member || known == 0)
        return std::nullopt;
      std::optional<ScaledDim> traced = trace(collapse.getSrc(), *member);
      return traced ? std::optional(traced->scaled(known, 1)) : std::nullopt;
    }
    return std::nullopt;
  }
}

/// The symbols of `fn`'s dynamic sizes (see tad::abi::Signature): one per
/// dynamic argument dimension, named by the argument's `tad.dim_names`
/// (dimensions with one name share a symbol) or `s<k>`; each dynamic result
/// dimension takes the symbol of the argument dimension it is traced to.
FailureOr<std::pair<SmallVector<SmallVector<int64_t>>, SmallVector<std::string>>>
assignSymbols(func::FuncOp fn) {
  SmallVector<SmallVector<int64_t>> sizes;
  SmallVector<std::string> symbols;
  auto symbolOf = [&](StringRef name) {
    auto it = llvm::find(symbols, name);
    if (it == symbols.end()) {
      symbols.push_back(name.str());
      it = std::prev(symbols.end());
    }
    return -1 - static_cast<int64_t>(it - symbols.begin());
  };
  FunctionType type = fn.getFunctionType();
  for (auto [i, input] : llvm::enumerate(type.getInputs())) {
    auto tensor = cast<RankedTensorType>(input);
    auto names = fn.getArgAttrOfType<ArrayAttr>(i, "tad.dim_names");
    if (names && names.size() != static_cast<size_t>(tensor.getRank()))
      return fn.emitError("argument #")
             << i << " of '" << fn.getSymName() << "' has 'tad.dim_names' "
             << names << " of " << names.size() << " names for rank "
             << tensor.getRank();
    SmallVector<int64_t> dims;
    for (auto [d, size] : llvm::enumerate(tensor.getShape())) {
      if (!ShapedType::isDynamic(size)) {
        dims.push_back(size);
        continue;
      }
      auto name = names ? dyn_cast<StringAttr>(names[d]) : StringAttr();
      std::string text =
          name && !name.getValue().empty()
              ? name.str()
              : ("s" + Twine(symbols.size())).str();
      if (!tad::abi::isCIdentifier(text))
        return fn.emitError("argument #")
               << i << " of '" << fn.getSymName() << "' names dimension " << d
               << " '" << text << "'; dimension names must be C identifiers";
      dims.push_back(symbolOf(text));
    }
    sizes.push_back(std::move(dims));
  }
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  for (auto [j, result] : llvm::enumerate(ret.getOperands())) {
    auto tensor = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> dims;
    for (auto [d, size] : llvm::enumerate(tensor.getShape())) {
      if (!ShapedType::isDynamic(size)) {
        dims.push_back(size);
        continue;
      }
      std::optional<ScaledDim> source =
          SizeTracer(fn, sizes).trace(result, d);
      if (!source || !source->isUnscaled())
        return fn.emitError("result #")
               << j << " of '" << fn.getSymName()
               << "' has a dynamic size in dimension " << d
               << " that is not the size of an argument's dimension; the tad "
                  "C ABI computes result shapes from argument shapes";
      dims.push_back(sizes[source->dim.first][source->dim.second]);
    }
    sizes.push_back(std::move(dims));
  }
  if (symbols.size() > tad::abi::kMaxSymbols)
    return fn.emitError("'")
           << fn.getSymName() << "' has " << symbols.size()
           << " dynamic sizes; the tad C ABI allows at most "
           << tad::abi::kMaxSymbols;
  return std::pair(std::move(sizes), std::move(symbols));
}

struct TadRecordABIPass : tad::impl::TadRecordABIPassBase<TadRecordABIPass> {
  void runOnOperation() override {
    bool failed = false;
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn.isPublic() || fn.isExternal())
        continue;
      StringRef name = fn.getSymName();
      if (!tad::abi::isCIdentifier(name)) {
        fn.emitError("exported function '")
            << name << "' needs a name that is a C identifier";
        failed = true;
        continue;
      }
      if (tad::abi::isReservedName(name)) {
        fn.emitError("exported function '")
            << name << "' uses a name reserved for tad ('tad_', '_tad_', "
            << "'__tad' prefixes)";
        failed = true;
        continue;
      }
      FunctionType type = fn.getFunctionType();
      bool ok = true;
      for (auto [index, arg] : llvm::enumerate(type.getInputs()))
        ok &= succeeded(checkBoundaryType(fn, "argument", index, arg));
      for (auto [index, result] : llvm::enumerate(type.getResults()))
        ok &= succeeded(checkBoundaryType(fn, "result", index, result));
      if (!ok) {
        failed = true;
        continue;
      }
      auto symbols = assignSymbols(fn);
      if (mlir::failed(symbols)) {
        failed = true;
        continue;
      }
      fn->setAttr(tad::abi::kSignatureAttrName,
                  tad::abi::buildSignatureAttr(
                      &getContext(), type.getInputs(), type.getResults(),
                      symbols->second.empty() ? ArrayRef<SmallVector<int64_t>>()
                                              : symbols->first,
                      symbols->second));
      // Names are in the signature now; bounds were checked at the entry
      // (tad-check-shapes).
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
        fn.removeArgAttr(i, "tad.dim_names");
        fn.removeArgAttr(i, "tad.dim_min");
        fn.removeArgAttr(i, "tad.dim_max");
      }
      // `const tad_tensor *args`: never bufferize in place into an argument.
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
        fn.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                      BoolAttr::get(&getContext(), false));
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
