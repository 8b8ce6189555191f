//===- TadToLinalgMatmul2.cpp - bmm, baddbmm, dot, mv to linalg -----------===//
//
// bmm is linalg.batch_matmul, dot linalg.dot, mv linalg.matvec, each into a
// zero-filled init. baddbmm adds beta * self (broadcast through its
// indexing map) in one elementwise generic, as addmm does; beta == 0
// ignores self.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgTensorUtils.h"

#include "dialects/Tad/TadOps.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

Value zeros(OpBuilder &b, Location loc, RankedTensorType type) {
  return filledTensor(b, loc, type, zeroConstant(b, loc, type.getElementType()));
}

Value buildBmm(OpBuilder &b, Location loc, RankedTensorType type, Value lhs,
               Value rhs) {
  return linalg::BatchMatmulOp::create(b, loc, TypeRange{type},
                                       ValueRange{lhs, rhs},
                                       ValueRange{zeros(b, loc, type)})
      .getResult(0);
}

Value lowerBmm(BmmOp op, BmmOp::Adaptor adaptor, OpBuilder &b) {
  return buildBmm(b, op.getLoc(), cast<RankedTensorType>(op.getType()),
                  adaptor.getSelf(), adaptor.getMat2());
}

Value lowerBaddbmm(BaddbmmOp op, BaddbmmOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  Location loc = op.getLoc();
  Value product =
      buildBmm(b, loc, type, adaptor.getBatch1(), adaptor.getBatch2());
  return addScaledProduct(b, loc, type, adaptor.getSelf(), product,
                          op.getBeta(), op.getAlpha());
}

Value lowerDot(DotOp op, DotOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  return linalg::DotOp::create(b, op.getLoc(), TypeRange{type},
                               ValueRange{adaptor.getSelf(), adaptor.getTensor()},
                               ValueRange{zeros(b, op.getLoc(), type)})
      .getResult(0);
}

Value lowerMv(MvOp op, MvOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  return linalg::MatvecOp::create(b, op.getLoc(), TypeRange{type},
                                  ValueRange{adaptor.getSelf(), adaptor.getVec()},
                                  ValueRange{zeros(b, op.getLoc(), type)})
      .getResult(0);
}

} // namespace

void lowering::populateMatmul2Patterns(RewritePatternSet &patterns) {
  addLowering<BmmOp>(patterns, lowerBmm);
  addLowering<BaddbmmOp>(patterns, lowerBaddbmm);
  addLowering<DotOp>(patterns, lowerDot);
  addLowering<MvOp>(patterns, lowerMv);
}
