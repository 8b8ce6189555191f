//===- TadCollectiveOps.cpp - verifiers of the collective ops -------------===//
//
// tad.all_reduce and tad.broadcast_from (TadCollectiveOps.td): as many
// results as operands, each of its operand's type; a known reduction; a
// positive bucket size; a non-negative root.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tad/TadOps.h"

using namespace mlir;
using namespace mlir::tad;

static LogicalResult verifyCollective(Operation *op, int64_t bucketBytes) {
  if (op->getNumOperands() != op->getNumResults())
    return op->emitOpError("expected as many results as operands, got ")
           << op->getNumResults() << " results for " << op->getNumOperands()
           << " operands";
  for (auto [i, types] : llvm::enumerate(
           llvm::zip(op->getOperandTypes(), op->getResultTypes()))) {
    auto [in, out] = types;
    if (in != out)
      return op->emitOpError("result ")
             << i << " has type " << out << ", expected its operand's type "
             << in;
    if (!cast<RankedTensorType>(in).hasStaticShape())
      return op->emitOpError("operand ")
             << i << " has type " << in
             << ": collectives need static shapes";
  }
  if (bucketBytes <= 0)
    return op->emitOpError("bucket_bytes must be positive, got ")
           << bucketBytes;
  return success();
}

LogicalResult AllReduceOp::verify() {
  StringRef reduction = getReduction();
  if (reduction != "sum" && reduction != "mean")
    return emitOpError("reduction must be \"sum\" or \"mean\", got \"")
           << reduction << "\"";
  if (static_cast<int64_t>(getFirstBucketBytes()) <= 0)
    return emitOpError("first_bucket_bytes must be positive, got ")
           << static_cast<int64_t>(getFirstBucketBytes());
  return verifyCollective(*this, static_cast<int64_t>(getBucketBytes()));
}

LogicalResult BroadcastFromOp::verify() {
  // I64Attr's accessor is unsigned.
  auto root = static_cast<int64_t>(getRoot());
  if (root < 0)
    return emitOpError("root must be a rank (>= 0), got ") << root;
  return verifyCollective(*this, static_cast<int64_t>(getBucketBytes()));
}
