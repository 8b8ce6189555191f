//===- Checkpoint.cpp - segmented loops for checkpointed reverse ----------===//
#include "passes/AD/Checkpoint.h"
#include "passes/AD/ReverseSweep.h"
#include "passes/AD/Revolve.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <algorithm>
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
  if (text.consume_front("levels:")) {
    if (text.getAsInteger(10, scheme.levels) || scheme.levels < 1 ||
        scheme.levels > 16)
      return std::nullopt;
    if (scheme.levels == 1)
      return CheckpointScheme();
    scheme.kind = scheme.levels == 2 ? Kind::Sqrt : Kind::Levels;
    return scheme;
  }
  if (text.consume_front("revolve:")) {
    if (text.getAsInteger(10, scheme.snapshots) || scheme.snapshots < 1 ||
        scheme.snapshots > kMaxSnapshots)
      return std::nullopt;
    scheme.kind = Kind::Revolve;
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
         << "' must be \"store\", \"sqrt\", \"levels:L\" (1 <= L <= 16), "
            "\"revolve:S\" (1 <= S <= "
         << kMaxSnapshots << ") or a positive integer, not "
         << attr;
}

/// k^levels, saturated at n (enough for comparisons with n).
static int64_t powAtMost(int64_t k, int64_t levels, int64_t n) {
  int64_t p = 1;
  for (int64_t i = 0; i < levels && p < n; ++i)
    p = p > n / k ? n : p * k;
  return p;
}

/// The smallest k >= 1 with k^levels >= n.
static int64_t ceilRoot(int64_t n, int64_t levels) {
  auto k = static_cast<int64_t>(
      std::pow(static_cast<double>(std::max<int64_t>(n, 1)), 1.0 / levels));
  k = std::max<int64_t>(k, 1);
  while (powAtMost(k, levels, n) < n)
    ++k;
  while (k > 1 && powAtMost(k - 1, levels, n) >= n)
    --k;
  return k;
}

static int64_t ceilSqrt(int64_t n) { return ceilRoot(n, 2); }

/// The segment length of a loop of `n` iterations under `levels` levels:
/// ceil(n / k) for k = ceil(n^(1/levels)) segments.
static int64_t levelLength(int64_t n, int64_t levels) {
  int64_t k = ceilRoot(n, levels);
  return std::max<int64_t>((n + k - 1) / k, 1);
}

namespace {
/// Builds the segmented form of one loop.
class Segmenter {
public:
  explicit Segmenter(scf::ForOp loop)
      : loop(loop), b(loop), loc(loop.getLoc()),
        type(loop.getInductionVar().getType()) {}

  /// Rewrites the loop; leaves it alone when it has fewer than two segments.
  /// Returns the loops it made that checkpoint further (a multi-level
  /// scheme's segments and remainder, with one level less).
  SmallVector<std::pair<scf::ForOp, CheckpointScheme>>
  run(CheckpointScheme scheme) {
    std::optional<int64_t> count;
    if (std::optional<APInt> trips = loop.getStaticTripCount())
      count = trips->getSExtValue();
    std::optional<int64_t> length;
    if (scheme.kind == CheckpointScheme::Kind::Every)
      length = scheme.every;
    else if (count && scheme.kind == CheckpointScheme::Kind::Levels)
      length = levelLength(*count, scheme.levels);
    else if (count)
      length = ceilSqrt(*count);
    if (count && length && *count / *length < 2)
      return {};

    // Static counts stay constants, so that the stacks have static shapes.
    Value k, segments, covered, rest;
    if (count && length) {
      k = constant(*length);
      segments = constant(*count / *length);
      covered = constant(*count / *length * *length);
      rest = constant(*count % *length);
    } else {
      Value tripCount = buildTripCount(b, loop);
      k = length ? constant(*length)
                 : rootLength(tripCount, scheme.kind == CheckpointScheme::Kind::Levels
                                             ? scheme.levels
                                             : 2);
      segments = arith::DivSIOp::create(b, loc, tripCount, k);
      covered = arith::MulIOp::create(b, loc, segments, k);
      rest = arith::SubIOp::create(b, loc, tripCount, covered);
    }

    Value zero = constant(0), one = constant(1);
    scf::ForOp segmentLoop;
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
          segmentLoop = inner;
          scf::YieldOp::create(ob, l, inner.getResults());
        });
    outer->setAttr(kRecomputeAttr, b.getUnitAttr());
    ValueRange results = outer.getResults();
    std::optional<int64_t> staticRest =
        count && length ? std::optional(*count % *length) : std::nullopt;
    scf::ForOp remainder;
    if (staticRest != 0) {
      remainder = scf::ForOp::create(
          b, loc, zero, rest, one, results,
          [&](OpBuilder &rb, Location l, Value j, ValueRange carried) {
            Value iteration = arith::AddIOp::create(rb, l, covered, j);
            scf::YieldOp::create(rb, l, iterate(rb, iteration, carried));
          });
      results = remainder.getResults();
    }
    loop->replaceAllUsesWith(results);
    loop.erase();

    SmallVector<std::pair<scf::ForOp, CheckpointScheme>> further;
    if (scheme.kind != CheckpointScheme::Kind::Levels)
      return further;
    CheckpointScheme next = scheme;
    next.levels = scheme.levels - 1;
    next.kind = next.levels == 2 ? CheckpointScheme::Kind::Sqrt
                                 : CheckpointScheme::Kind::Levels;
    further.emplace_back(segmentLoop, next);
    if (remainder)
      further.emplace_back(remainder, next);
    return further;
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
  }

  /// The segment length at run time: max(1, ceil(sqrt(n))) for two levels,
  /// else ceil(n / max(1, ceil(n^(1/levels)))); computed in i64 and f64.
  Value rootLength(Value tripCount, int64_t levels) {
    Type i64 = b.getI64Type(), f64 = b.getF64Type();
    Value n = tripCount;
    if (type.isIndex())
      n = arith::IndexCastOp::create(b, loc, i64, n);
    else if (type.getIntOrFloatBitWidth() < 64)
      n = arith::ExtSIOp::create(b, loc, i64, n);
    Value real = arith::SIToFPOp::create(b, loc, f64, n);
    Value root =
        levels == 2
            ? math::SqrtOp::create(b, loc, real).getResult()
            : math::PowFOp::create(
                  b, loc, real,
                  arith::ConstantFloatOp::create(
                      b, loc, cast<FloatType>(f64), APFloat(1.0 / levels))
                      .getResult())
                  .getResult();
    Value oneI64 = arith::ConstantIntOp::create(b, loc, 1, 64);
    Value k = arith::FPToSIOp::create(
        b, loc, i64, math::CeilOp::create(b, loc, root).getResult());
    k = arith::MaxSIOp::create(b, loc, k, oneI64);
    if (levels != 2) {
      // ceil(n / k) iterations per segment, so that about k segments run.
      k = arith::CeilDivSIOp::create(b, loc, n, k);
      k = arith::MaxSIOp::create(b, loc, k, oneI64);
    }
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
    return cloneIteration(ib, loop, iteration, carried);
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
  // A multi-level scheme segments the loops it makes again, one level less,
  // before any loop around them clones them.
  std::reverse(loops.begin(), loops.end());
  while (!loops.empty()) {
    auto [loop, scheme] = loops.pop_back_val();
    if (scheme.kind != CheckpointScheme::Kind::Revolve) {
      loops.append(Segmenter(loop).run(scheme));
      continue;
    }
    // A loop of fewer than two iterations is cheaper stored.
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips || trips->getSExtValue() >= 2)
      loop->setAttr(kRevolveAttr,
                    IntegerAttr::get(IntegerType::get(loop.getContext(), 64),
                                     scheme.snapshots));
  }
  return success();
}
