//===- TadToLinalgMatmul.cpp - tad matrix and vector products to linalg ---===//
//
// mm, bmm, dot and mv are linalg.matmul, linalg.batch_matmul, linalg.dot and
// linalg.matvec into a zero-filled tensor.empty. addmm and baddbmm are that
// product followed by one elementwise generic computing
// beta * self + alpha * product with self broadcast through its indexing
// map; as in ATen, beta == 0 ignores self entirely (NaN and inf in it do not
// propagate).
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

/// Where each dimension of a product of `lhs` and `rhs` comes from: the
/// rows of `lhs` (all of its dimensions but the last for bmm's batch and
/// rows) and the columns of `rhs` (its last dimension, when it has more
/// than one).
SmallVector<SizeSource> productSources(Value lhs, Value rhs) {
  SmallVector<SizeSource> sources;
  int64_t lhsRank = cast<RankedTensorType>(lhs.getType()).getRank();
  int64_t rhsRank = cast<RankedTensorType>(rhs.getType()).getRank();
  for (int64_t d = 0; d + 1 < lhsRank; ++d)
    sources.push_back({lhs, d});
  if (rhsRank >= 2)
    sources.push_back({rhs, rhsRank - 1});
  return sources;
}

/// The product `ProductOp(lhs, rhs)` into a zero-filled init of `type`.
template <typename ProductOp>
Value buildProduct(OpBuilder &b, Location loc, RankedTensorType type,
                   Value lhs, Value rhs) {
  Value init =
      filledTensor(b, loc, type, zeroConstant(b, loc, type.getElementType()),
                   productSources(lhs, rhs));
  return ProductOp::create(b, loc, TypeRange{type}, ValueRange{lhs, rhs},
                           ValueRange{init})
      .getResult(0);
}

Value lowerMm(MmOp op, MmOp::Adaptor adaptor, OpBuilder &b) {
  return buildProduct<linalg::MatmulOp>(
      b, op.getLoc(), cast<RankedTensorType>(op.getType()), adaptor.getSelf(),
      adaptor.getMat2());
}

Value lowerAddmm(AddmmOp op, AddmmOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  Location loc = op.getLoc();
  Value product = buildProduct<linalg::MatmulOp>(
      b, loc, type, adaptor.getMat1(), adaptor.getMat2());
  return addScaledProduct(b, loc, type, adaptor.getSelf(), product,
                          op.getBeta(), op.getAlpha());
}

Value lowerBmm(BmmOp op, BmmOp::Adaptor adaptor, OpBuilder &b) {
  return buildProduct<linalg::BatchMatmulOp>(
      b, op.getLoc(), cast<RankedTensorType>(op.getType()), adaptor.getSelf(),
      adaptor.getMat2());
}

Value lowerBaddbmm(BaddbmmOp op, BaddbmmOp::Adaptor adaptor, OpBuilder &b) {
  auto type = cast<RankedTensorType>(op.getType());
  Location loc = op.getLoc();
  Value product = buildProduct<linalg::BatchMatmulOp>(
      b, loc, type, adaptor.getBatch1(), adaptor.getBatch2());
  return addScaledProduct(b, loc, type, adaptor.getSelf(), product,
                          op.getBeta(), op.getAlpha());
}

Value lowerDot(DotOp op, DotOp::Adaptor adaptor, OpBuilder &b) {
  return buildProduct<linalg::DotOp>(
      b, op.getLoc(), cast<RankedTensorType>(op.getType()), adaptor.getSelf(),
      adaptor.getTensor());
}

Value lowerMv(MvOp op, MvOp::Adaptor adaptor, OpBuilder &b) {
  return buildProduct<linalg::MatvecOp>(
      b, op.getLoc(), cast<RankedTensorType>(op.getType()), adaptor.getSelf(),
      adaptor.getVec());
}

} // namespace

Value lowering::addScaledProduct(OpBuilder &b, Location loc,
                                RankedTensorType type, Value self,
                                Value product, double beta, double alpha) {
  if (beta == 0.0) {
    if (alpha == 1.0)
      return product;
    return buildElementwise(b, loc, type, product,
                            [&](OpBuilder &nb, Location nl, ValueRange args) {
                              return scaleBy(nb, nl, args[0], alpha);
                            });
  }
  return buildElementwise(
      b, loc, type, {self, product},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value scaledSelf = scaleBy(nb, nl, args[0], beta);
        Value scaledProduct = scaleBy(nb, nl, args[1], alpha);
        return arith::AddFOp::create(nb, nl, scaledSelf, scaledProduct);
      });
}

void lowering::populateMatmulPatterns(RewritePatternSet &patterns) {
  addLowering<MmOp>(patterns, lowerMm);
  addLowering<AddmmOp>(patterns, lowerAddmm);
  addLowering<BmmOp>(patterns, lowerBmm);
  addLowering<BaddbmmOp>(patterns, lowerBaddbmm);
  addLowering<DotOp>(patterns, lowerDot);
  addLowering<MvOp>(patterns, lowerMv);
}
