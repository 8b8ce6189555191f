//===- Checkpoint.cpp - segmented loops for checkpointed reverse ----------===//
#include "passes/AD/Checkpoint.h"
#include "passes/AD/ReverseSweep.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tad;

std::optional<CheckpointScheme> CheckpointScheme::parse(StringRef text) {
  CheckpointScheme scheme;
  if (text == "store")
    return scheme;
  if (text == "sqrt") {
    scheme.kind = Kind::Sqrt;
    return scheme;
  }
  if (text.getAsInteger(10, scheme.every) || scheme.every < 1)
    return std::nullopt;
  scheme.kind = Kind::Every;
  return scheme;
}

/// The loop's own scheme, or `global` when it has no attribute.
static FailureOr<CheckpointScheme> schemeOf(scf::ForOp loop,
                                            CheckpointScheme global) {
  Attribute attr = loop->getAttr(kCheckpointAttr);
  if (!attr)
    return global;
  if (auto text = dyn_cast<StringAttr>(attr))
    if (std::optional<CheckpointScheme> scheme =
            CheckpointScheme::parse(text.getValue()))
      return *scheme;
  if (auto integer = dyn_cast<IntegerAttr>(attr);
      integer && integer.getType().isSignlessInteger() && integer.getInt() > 0)
    return CheckpointScheme{CheckpointScheme::Kind::Every, integer.getInt()};
  return loop.emitError("'")
         << kCheckpointAttr
         << "' must be \"store\", \"sqrt\" or a positive integer, not "
         << attr;
}

/// The smallest k with k * k >= n.
static int64_t ceilSqrt(int64_t n) {
  auto k = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  while (k * k < n)
    ++k;
  while (k > 1 && (k - 1) * (k - 1) >= n)
    --k;
  return std::max<int64_t>(k, 1);
}

namespace {
/// Builds the segmented form of one loop.
class Segmenter {
public:
  explicit Segmenter(scf::ForOp loop)
      : loop(loop), b(loop), loc(loop.getLoc()),
        type(loop.getInductionVar().getType()) {}

  /// Rewrites the loop; leaves it alone when it has fewer than two segments.
  void run(CheckpointScheme scheme) {
    std::optional<int64_t> count;
    if (std::optional<APInt> trips = loop.getStaticTripCount())
      count = trips->getSExtValue();
    std::optional<int64_t> length;
    if (scheme.kind == CheckpointScheme::Kind::Every)
      length = scheme.every;
    else if (count)
      length = ceilSqrt(*count);
    if (count && length && *count / *length < 2)
      return;

    // Static counts stay constants, so that the stacks have static shapes.
    Value k, segments, covered, rest;
    if (count && length) {
      k = constant(*length);
      segments = constant(*count / *length);
      covered = constant(*count / *length * *length);
      rest = constant(*count % *length);
    } else {
      Value tripCount = buildTripCount(b, loop);
      k = length ? constant(*length) : sqrtLength(tripCount);
      segments = arith::DivSIOp::create(b, loc, tripCount, k);
      covered = arith::MulIOp::create(b, loc, segments, k);
      rest = arith::SubIOp::create(b, loc, tripCount, covered);
    }

    Value zero = constant(0), one = constant(1);
    auto outer = scf::ForOp::create(
        b, loc, zero, segments, one, loop.getInitArgs(),
        [&](OpBuilder &ob, Location l, Value segment, ValueRange state) {
          Value start = arith::MulIOp::create(ob, l, segment, k);
          auto inner = scf::ForOp::create(
              ob, l, zero, k, one, state,
              [&](OpBuilder &ib, Location il, Value j, ValueRange carried) {
                Value iteration = arith::AddIOp::create(ib, il, start, j);
                scf::YieldOp::create(ib, il, iterate(ib, iteration, carried));
              });
          scf::YieldOp::create(ob, l, inner.getResults());
        });
    outer->setAttr(kRecomputeAttr, b.getUnitAttr());
    ValueRange results = outer.getResults();
    std::optional<int64_t> staticRest =
        count && length ? std::optional(*count % *length) : std::nullopt;
    if (staticRest != 0) {
      auto remainder = scf::ForOp::create(
          b, loc, zero, rest, one, results,
          [&](OpBuilder &rb, Location l, Value j, ValueRange carried) {
            Value iteration = arith::AddIOp::create(rb, l, covered, j);
            scf::YieldOp::create(rb, l, iterate(rb, iteration, carried));
          });
      results = remainder.getResults();
    }
    loop->replaceAllUsesWith(results);
    loop.erase();
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
  }

  /// max(1, ceil(sqrt(n))) at run time, computed in i64 and f64.
  Value sqrtLength(Value tripCount) {
    Type i64 = b.getI64Type(), f64 = b.getF64Type();
    Value n = tripCount;
    if (type.isIndex())
      n = arith::IndexCastOp::create(b, loc, i64, n);
    else if (type.getIntOrFloatBitWidth() < 64)
      n = arith::ExtSIOp::create(b, loc, i64, n);
    Value root = math::SqrtOp::create(
        b, loc, arith::SIToFPOp::create(b, loc, f64, n).getResult());
    Value k = arith::FPToSIOp::create(
        b, loc, i64, math::CeilOp::create(b, loc, root).getResult());
    k = arith::MaxSIOp::create(
        b, loc, k, arith::ConstantIntOp::create(b, loc, 1, 64).getResult());
    if (type.isIndex())
      return arith::IndexCastOp::create(b, loc, type, k);
    if (type.getIntOrFloatBitWidth() < 64)
      return arith::TruncIOp::create(b, loc, type, k);
    return k;
  }

  /// One iteration of the original body, the `iteration`-th (from 0), on
  /// `carried`; returns the values it yields.
  SmallVector<Value> iterate(OpBuilder &ib, Value iteration,
                             ValueRange carried) {
    Location l = loop.getLoc();
    Value offset = arith::MulIOp::create(ib, l, iteration, loop.getStep());
    Value iv = arith::AddIOp::create(ib, l, loop.getLowerBound(), offset);
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), iv);
    mapping.map(loop.getRegionIterArgs(), carried);
    Block *body = loop.getBody();
    for (Operation &op : body->without_terminator())
      ib.clone(op, mapping);
    return llvm::map_to_vector(body->getTerminator()->getOperands(),
                               [&](Value v) { return mapping.lookupOrDefault(v); });
  }

  scf::ForOp loop;
  OpBuilder b;
  Location loc;
  Type type;
};
} // namespace

LogicalResult mlir::tad::segmentCheckpointedLoops(Operation *root,
                                                  CheckpointScheme global) {
  // Post-order: an inner loop is segmented before the loop that holds it,
  // whose segmented body then clones the segmented form.
  SmallVector<std::pair<scf::ForOp, CheckpointScheme>> loops;
  WalkResult walk = root->walk([&](scf::ForOp loop) {
    FailureOr<CheckpointScheme> scheme = schemeOf(loop, global);
    if (failed(scheme))
      return WalkResult::interrupt();
    if (scheme->kind != CheckpointScheme::Kind::Store &&
        !loop.getUnsignedCmp())
      loops.emplace_back(loop, *scheme);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (auto [loop, scheme] : loops)
    Segmenter(loop).run(scheme);
  return success();
}
