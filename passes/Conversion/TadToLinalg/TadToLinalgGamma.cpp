//===- TadToLinalgGamma.cpp - lgamma, digamma, polygamma to linalg --------===//
//
// The log-gamma family of TadElementwiseOps.td as elementwise linalg.generic
// ops on arith and math (the math dialect has none of them). Each element:
//
//  - lgamma(x): for x < 1/2 the reflection log(pi / |sin(pi x)|) -
//    lgamma(1 - x), with sin(pi x) taken at x - round(x) so that it is
//    exactly 0 at the poles (0 and the negative integers give +inf, as
//    ATen); for y >= 1/2, y is shifted up to z >= 10 (lgamma(y) =
//    lgamma(z) - log(y (y + 1) ... (z - 1))) and Stirling's series with
//    seven correction terms gives lgamma(z); +-inf give +inf;
//  - digamma(x): for x < 0 the reflection digamma(1 - x) - pi / tan(pi x)
//    (tan at x - round(x)); digamma(+-0) = -+inf and NaN at the negative
//    integers, as ATen; for y >= 0 the recurrence digamma(y) =
//    digamma(y + 1) - 1/y up to z >= 10 and the asymptotic series;
//  - polygamma(n, x), n >= 1: (-1)^(n+1) n! zeta(n + 1, x), the Hurwitz
//    zeta function as a sum of (x + k)^-(n+1) while x + k < 10 (at most 20
//    terms: full precision for x >= -10), plus the Euler-Maclaurin formula
//    at the shifted point with eight Bernoulli terms; +inf at the poles.
//
// The shifts are unrolled selects (no loops in the element body). All
// series reach double precision at z >= 10.
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

/// Scalar IR for one element of type `type`.
struct Scalar {
  OpBuilder &b;
  Location loc;
  Type type;

  Value c(double v) const { return floatConstant(b, loc, type, v); }
  Value add(Value x, Value y) const { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) const { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) const { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) const { return arith::DivFOp::create(b, loc, x, y); }
  Value add(Value x, double y) const { return add(x, c(y)); }
  Value mul(Value x, double y) const { return mul(x, c(y)); }
  Value log(Value x) const { return math::LogOp::create(b, loc, x); }
  Value abs(Value x) const { return math::AbsFOp::create(b, loc, x); }
  Value lt(Value x, double y) const {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, c(y));
  }
  Value eq(Value x, Value y) const {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  }
  Value eq(Value x, double y) const { return eq(x, c(y)); }
  Value select(Value cond, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value andi(Value x, Value y) const { return arith::AndIOp::create(b, loc, x, y); }
  /// x - round(x), in [-1/2, 1/2]: sin(pi x) and tan(pi x) are evaluated
  /// there, exactly 0 at the integers.
  Value reduced(Value x) const {
    return sub(x, math::RoundEvenOp::create(b, loc, x));
  }
  /// Horner: coefficients[0] + w (coefficients[1] + w (...)).
  Value polynomial(Value w, ArrayRef<double> coefficients) const {
    Value acc = c(coefficients.back());
    for (double coefficient : llvm::reverse(coefficients.drop_back()))
      acc = add(mul(acc, w), coefficient);
    return acc;
  }
};

/// Shifts reaching z >= 10 from y >= 0 (one per unit).
constexpr int kShifts = 10;

/// lgamma(y) for y >= 1/2.
Value lgammaPositive(const Scalar &s, Value y) {
  Value z = y, product = s.c(1.0);
  for (int i = 0; i < kShifts; ++i) {
    Value low = s.lt(z, 10.0);
    product = s.select(low, s.mul(product, z), product);
    z = s.select(low, s.add(z, 1.0), z);
  }
  // (z - 1/2) log z - z + log(2 pi) / 2 + sum B_2k / (2k (2k - 1) z^(2k-1)).
  Value w = s.div(s.c(1.0), z);
  Value series = s.mul(
      w, s.polynomial(s.mul(w, w),
                      {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680,
                       1.0 / 1188, -691.0 / 360360, 1.0 / 156}));
  Value stirling =
      s.add(s.add(s.sub(s.mul(s.add(z, -0.5), s.log(z)), z),
                  0.5 * std::log(2 * M_PI)),
            series);
  return s.sub(stirling, s.log(product));
}

Value lgammaElement(const Scalar &s, Value x) {
  Value reflect = s.lt(x, 0.5);
  Value y = s.select(reflect, s.sub(s.c(1.0), x), x);
  Value positive = lgammaPositive(s, y);
  Value sine =
      s.abs(math::SinOp::create(s.b, s.loc, s.mul(s.reduced(x), M_PI)));
  Value reflected =
      s.sub(s.sub(s.c(std::log(M_PI)), s.log(sine)), positive);
  Value result = s.select(reflect, reflected, positive);
  Value infinite = s.eq(s.abs(x), INFINITY);
  return s.select(infinite, s.c(INFINITY), result);
}

/// digamma(y) for y >= 0 (y > 0 gives finite values).
Value digammaPositive(const Scalar &s, Value y) {
  Value z = y, sum = s.c(0.0);
  for (int i = 0; i < kShifts; ++i) {
    Value low = s.lt(z, 10.0);
    sum = s.select(low, s.add(sum, s.div(s.c(1.0), z)), sum);
    z = s.select(low, s.add(z, 1.0), z);
  }
  // log z - 1/(2z) - sum B_2k / (2k z^2k).
  Value w = s.div(s.c(1.0), z);
  Value w2 = s.mul(w, w);
  Value series = s.mul(
      w2, s.polynomial(w2, {1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240,
                            1.0 / 132, -691.0 / 32760, 1.0 / 12}));
  Value asymptotic = s.sub(s.sub(s.log(z), s.mul(w, 0.5)), series);
  return s.sub(asymptotic, sum);
}

Value digammaElement(const Scalar &s, Value x) {
  Value negative = s.lt(x, 0.0);
  Value y = s.select(negative, s.sub(s.c(1.0), x), x);
  Value positive = digammaPositive(s, y);
  Value tangent =
      math::TanOp::create(s.b, s.loc, s.mul(s.reduced(x), M_PI));
  Value reflected = s.sub(positive, s.div(s.c(M_PI), tangent));
  Value result = s.select(negative, reflected, positive);
  // -0 -> +inf, +0 -> -inf; NaN at the negative integers.
  Value zero = s.eq(x, 0.0);
  Value signedInfinity = math::CopySignOp::create(
      s.b, s.loc, s.c(INFINITY), arith::NegFOp::create(s.b, s.loc, x));
  Value pole =
      s.andi(negative, s.eq(x, math::FloorOp::create(s.b, s.loc, x)));
  result = s.select(pole, s.c(NAN), result);
  return s.select(zero, signedInfinity, result);
}

/// w^k for k >= 1 by repeated multiplication.
Value power(const Scalar &s, Value w, int64_t k) {
  Value result = w;
  for (int64_t i = 1; i < k; ++i)
    result = s.mul(result, w);
  return result;
}

/// polygamma(n, x) for n >= 1.
Value polygammaElement(const Scalar &s, Value x, int64_t n) {
  int64_t order = n + 1; // zeta(order, x)
  constexpr int kZetaShifts = 20;
  Value z = x, sum = s.c(0.0);
  for (int i = 0; i < kZetaShifts; ++i) {
    Value low = s.lt(z, 10.0);
    Value term = power(s, s.div(s.c(1.0), z), order);
    sum = s.select(low, s.add(sum, term), sum);
    z = s.select(low, s.add(z, 1.0), z);
  }
  // Euler-Maclaurin: z^(1-s)/(s-1) + z^-s/2 + sum_j B_2j/(2j)! (s)_(2j-1)
  // z^(-s-2j+1), with (s)_m the rising factorial.
  static constexpr double kBernoulli[] = {1.0 / 6,     -1.0 / 30,  1.0 / 42,
                                          -1.0 / 30,   5.0 / 66,   -691.0 / 2730,
                                          7.0 / 6,     -3617.0 / 510};
  SmallVector<double> coefficients;
  double rising = static_cast<double>(order), factorial = 2.0;
  for (auto [j, bernoulli] : llvm::enumerate(kBernoulli)) {
    // rising = (s)_(2j+1), factorial = (2j+2)!, for j from 0.
    coefficients.push_back(bernoulli / factorial * rising);
    double next = static_cast<double>(order) + 2.0 * j + 1.0;
    rising *= next * (next + 1.0);
    factorial *= (2.0 * j + 3.0) * (2.0 * j + 4.0);
  }
  Value w = s.div(s.c(1.0), z);
  Value ws = power(s, w, order);
  Value tail = s.mul(s.mul(ws, w), s.polynomial(s.mul(w, w), coefficients));
  Value zeta = s.add(sum, s.add(s.add(s.div(s.mul(ws, z), s.c(order - 1.0)),
                                      s.mul(ws, 0.5)),
                                tail));
  double scale = std::tgamma(static_cast<double>(n) + 1.0);
  return s.mul(zeta, n % 2 == 1 ? scale : -scale);
}

template <typename OpTy>
Value lowerGammaFamily(OpTy op, Value self, OpBuilder &b,
                       function_ref<Value(const Scalar &, Value)> element) {
  auto type = cast<RankedTensorType>(op.getType());
  return buildElementwise(b, op.getLoc(), type, self,
                          [&](OpBuilder &nb, Location nl, ValueRange args) {
                            Scalar s{nb, nl, type.getElementType()};
                            return element(s, args[0]);
                          });
}

Value lowerLgamma(LgammaOp op, LgammaOp::Adaptor adaptor, OpBuilder &b) {
  return lowerGammaFamily(op, adaptor.getSelf(), b, lgammaElement);
}

Value lowerDigamma(DigammaOp op, DigammaOp::Adaptor adaptor, OpBuilder &b) {
  return lowerGammaFamily(op, adaptor.getSelf(), b, digammaElement);
}

Value lowerPolygamma(PolygammaOp op, PolygammaOp::Adaptor adaptor,
                     OpBuilder &b) {
  int64_t n = op.getN();
  if (n == 0)
    return lowerGammaFamily(op, adaptor.getSelf(), b, digammaElement);
  return lowerGammaFamily(op, adaptor.getSelf(), b,
                          [n](const Scalar &s, Value x) {
                            return polygammaElement(s, x, n);
                          });
}

} // namespace

void lowering::populateGammaPatterns(RewritePatternSet &patterns) {
  addLowering<LgammaOp>(patterns, lowerLgamma);
  addLowering<DigammaOp>(patterns, lowerDigamma);
  addLowering<PolygammaOp>(patterns, lowerPolygamma);
}
