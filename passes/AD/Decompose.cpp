//===- Decompose.cpp - replace composite ops by their decompositions ------===//
//
// tad-decompose replaces every op that has an entry in the decomposition
// files (rules/decompositions.yaml and `rules=` files) by the evaluated
// formula, repeatedly, since a decomposition may produce other composites.
// Ops named in `keep` stay whole (their own derivative rule then applies,
// e.g. keep=_softmax). tadc runs it before differentiation.
//
//===----------------------------------------------------------------------===//
#include "passes/AD/Decompositions.h"
#include "passes/AD/Passes.h"

#include "dialects/Tad/TadDialect.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADDECOMPOSEPASS
#include "passes/AD/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;
using namespace mlir::tad;

Decompositions::~Decompositions() = default;

static DecompositionsLoader &installedLoader() {
  static DecompositionsLoader loader;
  return loader;
}

void mlir::tad::setDecompositionsLoader(DecompositionsLoader loader) {
  installedLoader() = std::move(loader);
}

FailureOr<std::shared_ptr<Decompositions>>
mlir::tad::loadDecompositions(MLIRContext *context,
                              ArrayRef<std::string> extraFiles) {
  if (!installedLoader())
    return emitError(UnknownLoc::get(context),
                     "no decomposition loader is installed in this tool");
  return installedLoader()(context, extraFiles);
}

namespace {

/// A decomposition that keeps producing composites would not terminate.
constexpr unsigned kMaxRounds = 16;

struct TadDecomposePass : tad::impl::TadDecomposePassBase<TadDecomposePass> {
  using TadDecomposePassBase::TadDecomposePassBase;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<std::shared_ptr<Decompositions>> loaded = loadDecompositions(
        context, std::vector<std::string>(ruleFiles.begin(), ruleFiles.end()));
    if (failed(loaded))
      return failure();
    decompositions = *loaded;
    return success();
  }

  /// Whether `op` is named in `keep` (by full name, `_softmax` or
  /// `softmax.int`, or by base name, `softmax`).
  bool kept(Operation *op) const {
    StringRef name = op->getName().getStringRef();
    name.consume_front("tad.");
    StringRef base = name.split('.').first;
    return llvm::any_of(keep, [&](const std::string &k) {
      return k == name || k == base;
    });
  }

  void runOnOperation() override {
    for (unsigned round = 0; round < kMaxRounds; ++round) {
      SmallVector<Operation *> todo;
      getOperation()->walk([&](Operation *op) {
        if (isa_and_present<TadDialect>(op->getDialect()) && !kept(op) &&
            decompositions->hasDecomposition(op))
          todo.push_back(op);
      });
      if (todo.empty())
        return;
      for (Operation *op : todo) {
        OpBuilder b(op);
        FailureOr<SmallVector<Value>> values = decompositions->decompose(b, op);
        if (failed(values))
          return signalPassFailure();
        op->replaceAllUsesWith(*values);
        op->erase();
      }
    }
    getOperation()->emitError("tad-decompose: decompositions did not reach a "
                              "fixed point after ")
        << kMaxRounds << " rounds (a cycle in the decomposition files?)";
    signalPassFailure();
  }

  std::shared_ptr<Decompositions> decompositions;
};

} // namespace
