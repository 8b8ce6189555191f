//===- LowerCopies.cpp - strided memref.copy to linalg.copy ---------------===//
//
// See TadLowerCopiesPass in Passes.td: keeps the generated code free of
// calls to MLIR's `memrefCopy` runtime helper.
//
//===----------------------------------------------------------------------===//
#include "passes/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir::tad {
#define GEN_PASS_DEF_TADLOWERCOPIESPASS
#include "passes/CPU/Passes.h.inc"
} // namespace mlir::tad

using namespace mlir;

namespace {

/// Whether the LLVM lowering turns a copy of `type` into a plain memcpy.
bool lowersToMemcpy(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref::isStaticShapeAndContiguousRowMajor(memref);
}

struct TadLowerCopiesPass
    : tad::impl::TadLowerCopiesPassBase<TadLowerCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!lowersToMemcpy(copy.getSource().getType()) ||
          !lowersToMemcpy(copy.getTarget().getType()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
