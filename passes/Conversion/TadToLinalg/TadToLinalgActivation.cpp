//===- TadToLinalgActivation.cpp - elementwise families to linalg ---------===//
//
// The ops of TadElementwiseOps.td: unary math, activations and their
// backward ops, binary/ternary selects and clamps, comparisons and logical
// ops (i1 results) and dropout. Each becomes one all-parallel linalg.generic
// whose operands broadcast through their indexing maps (buildElementwise);
// dropout builds two, the mask and the masked input.
//
// Numerics follow ATen's CPU kernels, including at the points where the
// derivative is a convention (docs/rules.md, "Non-differentiable points"):
//  - max/min/clamp use arith.maximumf/minimumf, which propagate NaN;
//  - sign is (0 < x) - (x < 0): 0 at 0 and for NaN;
//  - comparisons of floats are ordered (false with a NaN) except `ne`;
//  - hardtanh_backward passes the gradient on the open interval only,
//    hardswish_backward is 0 below -3 and grad for x > 3;
//  - native_dropout_backward is grad * float(mask) * scale, so a NaN
//    gradient stays NaN where the mask is false, as in ATen.
//
// Dropout's randomness is Philox-4x32-10 (Salmon et al., SC'11) keyed by
// the op's 0-d i64 key with the element's row-major index as the counter,
// computed with 32-bit integer arithmetic inside the generic: the mask is a
// pure function of (key, index), so it needs no state (docs/dropout.md).
//
//===----------------------------------------------------------------------===//
#include "passes/Conversion/TadToLinalg/TadToLinalgPatterns.h"

#include "dialects/Tad/TadOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tad;
using namespace mlir::tad::lowering;

namespace {

RankedTensorType resultTypeOf(Operation *op, unsigned index = 0) {
  return cast<RankedTensorType>(op->getResult(index).getType());
}

/// Small scalar-IR vocabulary for element bodies.
struct E {
  OpBuilder &b;
  Location loc;

  Value c(Type type, double v) const { return floatConstant(b, loc, type, v); }
  Value add(Value x, Value y) const { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) const { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) const { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) const { return arith::DivFOp::create(b, loc, x, y); }
  Value mul(Value x, double y) const { return mul(x, c(x.getType(), y)); }
  Value add(Value x, double y) const { return add(x, c(x.getType(), y)); }
  Value neg(Value x) const { return arith::NegFOp::create(b, loc, x); }
  Value exp(Value x) const { return math::ExpOp::create(b, loc, x); }
  Value tanh(Value x) const { return math::TanhOp::create(b, loc, x); }
  Value log1p(Value x) const { return math::Log1pOp::create(b, loc, x); }
  Value erf(Value x) const { return math::ErfOp::create(b, loc, x); }
  Value max(Value x, Value y) const {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value min(Value x, Value y) const {
    return arith::MinimumFOp::create(b, loc, x, y);
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) const {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value cmp(arith::CmpFPredicate p, Value x, double y) const {
    return cmp(p, x, c(x.getType(), y));
  }
  Value select(Value cond, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value andi(Value x, Value y) const { return arith::AndIOp::create(b, loc, x, y); }
  Value ori(Value x, Value y) const { return arith::OrIOp::create(b, loc, x, y); }
  /// i1 -> 0.0 / 1.0 of `type`.
  Value toFloat(Value flag, Type type) const {
    return arith::UIToFPOp::create(b, loc, type, flag);
  }
  Value sigmoid(Value x) const {
    Value one = c(x.getType(), 1.0);
    return div(one, add(one, exp(neg(x))));
  }
};

//===----------------------------------------------------------------------===//
// Unary math and activations
//===----------------------------------------------------------------------===//

/// Lowers a unary op whose element function is `Fn(e, x)`.
template <typename OpTy, Value (*Fn)(const E &, Value)>
Value lowerUnary(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
                          [](OpBuilder &nb, Location nl, ValueRange args) {
                            return Fn(E{nb, nl}, args[0]);
                          });
}

Value log1pElement(const E &e, Value x) { return e.log1p(x); }
Value sqrtElement(const E &e, Value x) { return math::SqrtOp::create(e.b, e.loc, x); }
Value rsqrtElement(const E &e, Value x) { return math::RsqrtOp::create(e.b, e.loc, x); }
Value reciprocalElement(const E &e, Value x) {
  return e.div(e.c(x.getType(), 1.0), x);
}
Value absElement(const E &e, Value x) { return math::AbsFOp::create(e.b, e.loc, x); }
Value erfElement(const E &e, Value x) { return e.erf(x); }
Value sinElement(const E &e, Value x) { return math::SinOp::create(e.b, e.loc, x); }
Value erfcElement(const E &e, Value x) { return math::ErfcOp::create(e.b, e.loc, x); }
Value expm1Element(const E &e, Value x) { return math::ExpM1Op::create(e.b, e.loc, x); }
Value atanElement(const E &e, Value x) { return math::AtanOp::create(e.b, e.loc, x); }
Value asinElement(const E &e, Value x) { return math::AsinOp::create(e.b, e.loc, x); }
Value acosElement(const E &e, Value x) { return math::AcosOp::create(e.b, e.loc, x); }
Value cosElement(const E &e, Value x) { return math::CosOp::create(e.b, e.loc, x); }
Value floorElement(const E &e, Value x) { return math::FloorOp::create(e.b, e.loc, x); }
Value signElement(const E &e, Value x) {
  Type t = x.getType();
  Value positive = e.cmp(arith::CmpFPredicate::OGT, x, 0.0);
  Value negative = e.cmp(arith::CmpFPredicate::OLT, x, 0.0);
  return e.sub(e.toFloat(positive, t), e.toFloat(negative, t));
}
Value siluElement(const E &e, Value x) { return e.mul(x, e.sigmoid(x)); }
/// log(1 + exp(x)); exp overflows to inf, and log1p(inf) = inf = x's limit.
Value mishElement(const E &e, Value x) {
  return e.mul(x, e.tanh(e.log1p(e.exp(x))));
}
Value relu6Of(const E &e, Value x) {
  Type t = x.getType();
  return e.min(e.max(e.add(x, 3.0), e.c(t, 0.0)), e.c(t, 6.0));
}
Value hardswishElement(const E &e, Value x) {
  return e.mul(e.mul(x, relu6Of(e, x)), 1.0 / 6.0);
}
Value hardsigmoidElement(const E &e, Value x) {
  return e.mul(relu6Of(e, x), 1.0 / 6.0);
}

Value lowerPowTensorScalar(PowTensorScalarOp op,
                           PowTensorScalarOp::Adaptor adaptor, OpBuilder &b) {
  double exponent = op.getExponent();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0];
        // ATen special-cases small exponents the same way.
        if (exponent == 1.0)
          return x;
        if (exponent == 2.0)
          return e.mul(x, x);
        return math::PowFOp::create(nb, nl, x, e.c(x.getType(), exponent));
      });
}

Value lowerPowTensorTensor(PowTensorTensorOp op,
                           PowTensorTensorOp::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getSelf(), adaptor.getExponent()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return math::PowFOp::create(nb, nl, args[0], args[1]);
      });
}

Value lowerAtan2(Atan2Op op, Atan2Op::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getOther()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return math::Atan2Op::create(nb, nl, args[0], args[1]);
      });
}

Value lowerThreshold(ThresholdOp op, ThresholdOp::Adaptor adaptor,
                     OpBuilder &b) {
  double threshold = op.getThreshold(), value = op.getValue();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0];
        return e.select(e.cmp(arith::CmpFPredicate::OLE, x, threshold),
                        e.c(x.getType(), value), x);
      });
}

/// gelu'(x) for approximate = 'none' or 'tanh'.
Value geluDerivative(const E &e, Value x, bool tanhApprox) {
  Type t = x.getType();
  if (!tanhApprox) {
    // Phi(x) + x * phi(x).
    Value cdf = e.mul(e.add(e.erf(e.mul(x, M_SQRT1_2)), 1.0), 0.5);
    Value pdf = e.mul(e.exp(e.mul(e.mul(x, x), -0.5)),
                      1.0 / std::sqrt(2.0 * M_PI));
    return e.add(cdf, e.mul(x, pdf));
  }
  // u = k (x + c x^3), t = tanh(u):
  // 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2).
  const double k = std::sqrt(2.0 / M_PI), c = 0.044715;
  Value x2 = e.mul(x, x);
  Value inner = e.mul(e.add(x, e.mul(e.mul(x2, x), c)), k);
  Value th = e.tanh(inner);
  Value one = e.c(t, 1.0);
  Value left = e.mul(e.add(th, 1.0), 0.5);
  Value du = e.mul(e.add(e.mul(x2, 3.0 * c), 1.0), k);
  Value right = e.mul(e.mul(e.mul(x, 0.5), e.sub(one, e.mul(th, th))), du);
  return e.add(left, right);
}

Value lowerGelu(GeluOp op, GeluOp::Adaptor adaptor, OpBuilder &b) {
  bool tanhApprox = op.getApproximate() == "tanh";
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0];
        Value gate;
        if (tanhApprox) {
          const double k = std::sqrt(2.0 / M_PI), c = 0.044715;
          Value inner = e.mul(e.add(x, e.mul(e.mul(e.mul(x, x), x), c)), k);
          gate = e.tanh(inner);
        } else {
          gate = e.erf(e.mul(x, M_SQRT1_2));
        }
        return e.mul(e.mul(x, 0.5), e.add(gate, 1.0));
      });
}

Value lowerLeakyRelu(LeakyReluOp op, LeakyReluOp::Adaptor adaptor,
                     OpBuilder &b) {
  double slope = op.getNegativeSlope();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0];
        return e.select(e.cmp(arith::CmpFPredicate::OGT, x, 0.0), x,
                        e.mul(x, slope));
      });
}

Value lowerElu(EluOp op, EluOp::Adaptor adaptor, OpBuilder &b) {
  double alpha = op.getAlpha(), scale = op.getScale(),
         inputScale = op.getInputScale();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0];
        Value negative =
            e.mul(e.add(e.exp(e.mul(x, inputScale)), -1.0), alpha * scale);
        return e.select(e.cmp(arith::CmpFPredicate::OLE, x, 0.0), negative,
                        e.mul(x, scale));
      });
}

Value lowerSoftplus(SoftplusOp op, SoftplusOp::Adaptor adaptor, OpBuilder &b) {
  double beta = op.getBeta(), threshold = op.getThreshold();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0];
        Value bx = e.mul(x, beta);
        Value smooth = e.mul(e.log1p(e.exp(bx)), 1.0 / beta);
        return e.select(e.cmp(arith::CmpFPredicate::OGT, bx, threshold), x,
                        smooth);
      });
}

Value lowerHardtanh(HardtanhOp op, HardtanhOp::Adaptor adaptor, OpBuilder &b) {
  double lo = op.getMinVal(), hi = op.getMaxVal();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Type t = args[0].getType();
        return e.min(e.max(args[0], e.c(t, lo)), e.c(t, hi));
      });
}

Value lowerPreluKernel(PreluKernelOp op, PreluKernelOp::Adaptor adaptor,
                       OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getWeight()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0], w = args[1];
        return e.select(e.cmp(arith::CmpFPredicate::OGT, x, 0.0), x,
                        e.mul(w, x));
      });
}

//===----------------------------------------------------------------------===//
// Activation backward ops
//===----------------------------------------------------------------------===//

/// Lowers `grad_output, self -> Fn(op, e, grad, self)`.
template <typename OpTy>
Value lowerBackward(OpTy op, Value grad, Value self, OpBuilder &b,
                    function_ref<Value(const E &, Value, Value)> fn) {
  return buildElementwise(b, op.getLoc(), resultTypeOf(op), {grad, self},
                          [&](OpBuilder &nb, Location nl, ValueRange args) {
                            return fn(E{nb, nl}, args[0], args[1]);
                          });
}

Value lowerGeluBackward(GeluBackwardOp op, GeluBackwardOp::Adaptor adaptor,
                        OpBuilder &b) {
  bool tanhApprox = op.getApproximate() == "tanh";
  return lowerBackward(op, adaptor.getGradOutput(), adaptor.getSelf(), b,
                       [&](const E &e, Value g, Value x) {
                         return e.mul(g, geluDerivative(e, x, tanhApprox));
                       });
}

Value lowerLeakyReluBackward(LeakyReluBackwardOp op,
                             LeakyReluBackwardOp::Adaptor adaptor,
                             OpBuilder &b) {
  double slope = op.getNegativeSlope();
  return lowerBackward(op, adaptor.getGradOutput(), adaptor.getSelf(), b,
                       [&](const E &e, Value g, Value x) {
                         return e.select(
                             e.cmp(arith::CmpFPredicate::OGT, x, 0.0), g,
                             e.mul(g, slope));
                       });
}

Value lowerSoftplusBackward(SoftplusBackwardOp op,
                            SoftplusBackwardOp::Adaptor adaptor, OpBuilder &b) {
  double beta = op.getBeta(), threshold = op.getThreshold();
  return lowerBackward(op, adaptor.getGradOutput(), adaptor.getSelf(), b,
                       [&](const E &e, Value g, Value x) {
                         Value bx = e.mul(x, beta);
                         Value z = e.exp(bx);
                         Value smooth = e.div(e.mul(g, z), e.add(z, 1.0));
                         return e.select(
                             e.cmp(arith::CmpFPredicate::OGT, bx, threshold),
                             g, smooth);
                       });
}

Value lowerHardtanhBackward(HardtanhBackwardOp op,
                            HardtanhBackwardOp::Adaptor adaptor, OpBuilder &b) {
  double lo = op.getMinVal(), hi = op.getMaxVal();
  return lowerBackward(op, adaptor.getGradOutput(), adaptor.getSelf(), b,
                       [&](const E &e, Value g, Value x) {
                         Value outside = e.ori(
                             e.cmp(arith::CmpFPredicate::OLE, x, lo),
                             e.cmp(arith::CmpFPredicate::OGE, x, hi));
                         return e.select(outside, e.c(g.getType(), 0.0), g);
                       });
}

Value lowerHardswishBackward(HardswishBackwardOp op,
                             HardswishBackwardOp::Adaptor adaptor,
                             OpBuilder &b) {
  return lowerBackward(op, adaptor.getGradOutput(), adaptor.getSelf(), b,
                       [](const E &e, Value g, Value x) {
                         Value middle =
                             e.mul(g, e.add(e.mul(x, 1.0 / 3.0), 0.5));
                         Value upper = e.select(
                             e.cmp(arith::CmpFPredicate::OLE, x, 3.0), middle,
                             g);
                         return e.select(
                             e.cmp(arith::CmpFPredicate::OLT, x, -3.0),
                             e.c(g.getType(), 0.0), upper);
                       });
}

Value lowerHardsigmoidBackward(HardsigmoidBackwardOp op,
                               HardsigmoidBackwardOp::Adaptor adaptor,
                               OpBuilder &b) {
  return lowerBackward(op, adaptor.getGradOutput(), adaptor.getSelf(), b,
                       [](const E &e, Value g, Value x) {
                         Value inside = e.andi(
                             e.cmp(arith::CmpFPredicate::OGT, x, -3.0),
                             e.cmp(arith::CmpFPredicate::OLT, x, 3.0));
                         return e.select(inside, e.mul(g, 1.0 / 6.0),
                                         e.c(g.getType(), 0.0));
                       });
}

Value lowerEluBackward(EluBackwardOp op, EluBackwardOp::Adaptor adaptor,
                       OpBuilder &b) {
  double alpha = op.getAlpha(), scale = op.getScale(),
         inputScale = op.getInputScale();
  bool isResult = op.getIsResult();
  return lowerBackward(
      op, adaptor.getGradOutput(), adaptor.getSelfOrResult(), b,
      [&](const E &e, Value g, Value v) {
        Value negative =
            isResult
                ? e.mul(e.mul(g, inputScale), e.add(v, alpha * scale))
                : e.mul(e.mul(g, inputScale * alpha * scale),
                        e.exp(e.mul(v, inputScale)));
        return e.select(e.cmp(arith::CmpFPredicate::OLE, v, 0.0), negative,
                        e.mul(g, scale));
      });
}

//===----------------------------------------------------------------------===//
// Binary and ternary ops
//===----------------------------------------------------------------------===//

template <typename OpTy, typename ArithOp>
Value lowerMinMax(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getOther()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return ArithOp::create(nb, nl, args[0], args[1]);
      });
}

Value lowerLerp(LerpTensorOp op, LerpTensorOp::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getSelf(), adaptor.getEnd(), adaptor.getWeight()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0], end = args[1], w = args[2];
        Type t = x.getType();
        // ATen's two-sided form, exact at both ends.
        Value diff = e.sub(end, x);
        Value small = e.cmp(arith::CmpFPredicate::OLT,
                            math::AbsFOp::create(nb, nl, w), 0.5);
        Value fromStart = e.add(x, e.mul(w, diff));
        Value fromEnd = e.sub(end, e.mul(diff, e.sub(e.c(t, 1.0), w)));
        return e.select(small, fromStart, fromEnd);
      });
}

template <typename OpTy, bool Divide>
Value lowerAddc(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  double value = op.getValue();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getSelf(), adaptor.getTensor1(), adaptor.getTensor2()},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value term = Divide ? e.div(args[1], args[2]) : e.mul(args[1], args[2]);
        return e.add(args[0], scaleBy(nb, nl, term, value));
      });
}

Value clampElement(const E &e, Value x, std::optional<double> lo,
                   std::optional<double> hi) {
  Type t = x.getType();
  if (lo)
    x = e.max(x, e.c(t, *lo));
  if (hi)
    x = e.min(x, e.c(t, *hi));
  return x;
}

Value lowerClamp(ClampOp op, ClampOp::Adaptor adaptor, OpBuilder &b) {
  std::optional<double> lo = op.getMin(), hi = op.getMax();
  return buildElementwise(b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
                          [&](OpBuilder &nb, Location nl, ValueRange args) {
                            return clampElement(E{nb, nl}, args[0], lo, hi);
                          });
}

Value lowerClampTensor(ClampTensorOp op, ClampTensorOp::Adaptor adaptor,
                       OpBuilder &b) {
  bool hasMin = static_cast<bool>(adaptor.getMin());
  SmallVector<Value> inputs{adaptor.getSelf()};
  if (hasMin)
    inputs.push_back(adaptor.getMin());
  if (adaptor.getMax())
    inputs.push_back(adaptor.getMax());
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), inputs,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value x = args[0];
        if (hasMin)
          x = e.max(x, args[1]);
        if (args.size() > (hasMin ? 2u : 1u))
          x = e.min(x, args.back());
        return x;
      });
}

Value lowerClampMin(ClampMinOp op, ClampMinOp::Adaptor adaptor, OpBuilder &b) {
  double lo = op.getMin();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        return clampElement(E{nb, nl}, args[0], lo, std::nullopt);
      });
}

Value lowerClampMax(ClampMaxOp op, ClampMaxOp::Adaptor adaptor, OpBuilder &b) {
  double hi = op.getMax();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        return clampElement(E{nb, nl}, args[0], std::nullopt, hi);
      });
}

Value lowerWhereSelf(WhereSelfOp op, WhereSelfOp::Adaptor adaptor,
                     OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getCondition(), adaptor.getSelf(), adaptor.getOther()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return arith::SelectOp::create(nb, nl, args[0], args[1], args[2]);
      });
}

/// `condition ? x : c` (or `condition ? c : x` with `scalarFirst`).
Value selectWithScalar(OpBuilder &b, Location loc, RankedTensorType type,
                       Value condition, Value x, double c, bool scalarFirst) {
  return buildElementwise(
      b, loc, type, {condition, x},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value cst = floatConstant(nb, nl, args[1].getType(), c);
        return scalarFirst
                   ? arith::SelectOp::create(nb, nl, args[0], cst, args[1])
                   : arith::SelectOp::create(nb, nl, args[0], args[1], cst);
      });
}

Value lowerWhereScalarOther(WhereScalarOtherOp op,
                            WhereScalarOtherOp::Adaptor adaptor, OpBuilder &b) {
  return selectWithScalar(b, op.getLoc(), resultTypeOf(op),
                          adaptor.getCondition(), adaptor.getSelf(),
                          op.getOther(), /*scalarFirst=*/false);
}

Value lowerWhereScalarSelf(WhereScalarSelfOp op,
                           WhereScalarSelfOp::Adaptor adaptor, OpBuilder &b) {
  return selectWithScalar(b, op.getLoc(), resultTypeOf(op),
                          adaptor.getCondition(), adaptor.getOther(),
                          op.getSelf(), /*scalarFirst=*/true);
}

Value lowerMaskedFillScalar(MaskedFillScalarOp op,
                            MaskedFillScalarOp::Adaptor adaptor, OpBuilder &b) {
  return selectWithScalar(b, op.getLoc(), resultTypeOf(op), adaptor.getMask(),
                          adaptor.getSelf(), op.getValue(),
                          /*scalarFirst=*/true);
}

Value lowerMaskedFillTensor(MaskedFillTensorOp op,
                            MaskedFillTensorOp::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getSelf(), adaptor.getMask(), adaptor.getValue()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return arith::SelectOp::create(nb, nl, args[1], args[2], args[0]);
      });
}

//===----------------------------------------------------------------------===//
// Comparisons and logical ops
//===----------------------------------------------------------------------===//

/// `x pred y` for two elements of one type, float or integer.
Value compareElements(OpBuilder &b, Location loc, arith::CmpFPredicate fpred,
                      arith::CmpIPredicate ipred, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::CmpFOp::create(b, loc, fpred, x, y);
  return arith::CmpIOp::create(b, loc, ipred, x, y);
}

template <typename OpTy, arith::CmpFPredicate FPred, arith::CmpIPredicate IPred>
Value lowerCompareTensor(OpTy op, typename OpTy::Adaptor adaptor,
                         OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getOther()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return compareElements(nb, nl, FPred, IPred, args[0], args[1]);
      });
}

/// Against an ATen Scalar: integer tensors compare in f64, so a
/// non-integral scalar compares as ATen's type promotion does.
template <typename OpTy, arith::CmpFPredicate FPred>
Value lowerCompareScalar(OpTy op, typename OpTy::Adaptor adaptor,
                         OpBuilder &b) {
  double other = op.getOther();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value x = args[0];
        if (!isa<FloatType>(x.getType()))
          x = arith::SIToFPOp::create(nb, nl, nb.getF64Type(), x);
        return arith::CmpFOp::create(nb, nl, FPred, x,
                                     floatConstant(nb, nl, x.getType(), other));
      });
}

Value lowerIsnan(IsnanOp op, IsnanOp::Adaptor adaptor, OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO,
                                     args[0], args[0]);
      });
}

/// The truth value of an element: x != 0 (NaN is true, as in C++).
Value truth(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  if (type.isInteger(1))
    return x;
  Value zero = zeroConstant(b, loc, type);
  if (isa<FloatType>(type))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
}

Value lowerLogicalNot(LogicalNotOp op, LogicalNotOp::Adaptor adaptor,
                      OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), adaptor.getSelf(),
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value one = arith::ConstantIntOp::create(nb, nl, 1, 1);
        return arith::XOrIOp::create(nb, nl, truth(nb, nl, args[0]), one);
      });
}

template <typename OpTy, typename ArithOp>
Value lowerLogicalBinary(OpTy op, typename OpTy::Adaptor adaptor,
                         OpBuilder &b) {
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op), {adaptor.getSelf(), adaptor.getOther()},
      [](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return ArithOp::create(nb, nl, truth(nb, nl, args[0]),
                               truth(nb, nl, args[1]));
      });
}

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

/// Philox-4x32-10 of counter (c0, c1, 0, 0) under key (k0, k1), all i32;
/// returns the first two output words.
std::pair<Value, Value> philox4x32(OpBuilder &b, Location loc, Value c0,
                                   Value c1, Value k0, Value k1) {
  Type i32 = b.getI32Type();
  auto constant = [&](uint32_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(i32, static_cast<int64_t>(v)));
  };
  Value m0 = constant(0xD2511F53u), m1 = constant(0xCD9E8D57u);
  Value w0 = constant(0x9E3779B9u), w1 = constant(0xBB67AE85u);
  Value c2 = constant(0), c3 = constant(0);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 = arith::AddIOp::create(b, loc, k0, w0);
      k1 = arith::AddIOp::create(b, loc, k1, w1);
    }
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, c0);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, c2);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), c1), k0);
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), c3), k1);
    c0 = n0;
    c1 = p1.getLow();
    c2 = n2;
    c3 = p0.getLow();
  }
  return {c0, c1};
}

/// Uniform in [0, 1) as f64 from 53 bits of Philox output for element
/// `index` (i64) under `key` (i64).
Value philoxUniform(OpBuilder &b, Location loc, Value key, Value index) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value thirtyTwo = arith::ConstantIntOp::create(b, loc, i64, 32);
  auto low = [&](Value v) { return arith::TruncIOp::create(b, loc, i32, v); };
  auto high = [&](Value v) {
    return arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, v, thirtyTwo));
  };
  auto [r0, r1] =
      philox4x32(b, loc, low(index), high(index), low(key), high(key));
  Value bits = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, r0),
                            thirtyTwo),
      arith::ExtUIOp::create(b, loc, i64, r1));
  Value top53 = arith::ShRUIOp::create(
      b, loc, bits, arith::ConstantIntOp::create(b, loc, i64, 11));
  Value asFloat = arith::UIToFPOp::create(b, loc, b.getF64Type(), top53);
  return arith::MulFOp::create(
      b, loc, asFloat, floatConstant(b, loc, b.getF64Type(), std::ldexp(1.0, -53)));
}

/// Row-major index of the current element of a generic over `shape`;
/// `sizes` holds an i64 value for each dimension that is dynamic there.
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  ArrayRef<Value> sizes) {
  Type i64 = b.getI64Type();
  Value index = arith::ConstantIntOp::create(b, loc, i64, 0);
  for (auto [dim, size] : llvm::enumerate(shape)) {
    Value i = arith::IndexCastOp::create(
        b, loc, i64, linalg::IndexOp::create(b, loc, dim));
    Value extent = ShapedType::isDynamic(size)
                       ? sizes[dim]
                       : arith::ConstantIntOp::create(b, loc, i64, size);
    Value scaled = arith::MulIOp::create(b, loc, index, extent);
    index = arith::AddIOp::create(b, loc, scaled, i);
  }
  return index;
}

struct LowerNativeDropoutKey : OpConversionPattern<NativeDropoutKeyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NativeDropoutKeyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType outType = resultTypeOf(op, 0),
                     maskType = resultTypeOf(op, 1);
    double p = op.getP().convertToDouble();
    bool train = op.getTrain().value_or(true);
    Value input = adaptor.getInput();
    ArrayRef<int64_t> shape = maskType.getShape();
    // Dynamic sizes are the input's.
    SmallVector<SizeSource> sources;
    SmallVector<Value> sizes(shape.size());
    for (auto [dim, size] : llvm::enumerate(shape)) {
      sources.push_back({input, static_cast<int64_t>(dim)});
      if (ShapedType::isDynamic(size))
        sizes[dim] = arith::IndexCastOp::create(
            rewriter, loc, rewriter.getI64Type(),
            tensor::DimOp::create(rewriter, loc, input, dim));
    }
    if (!train) {
      Value all =
          filledTensor(rewriter, loc, maskType,
                       arith::ConstantIntOp::create(rewriter, loc, 1, 1),
                       sources);
      rewriter.replaceOp(op, {input, all});
      return success();
    }
    double keep = 1.0 - p;
    // A mask of dynamic shape takes its sizes from the input, which its
    // generic reads for nothing else (canonicalization drops it).
    SmallVector<Value> maskInputs{adaptor.getKey()};
    if (!maskType.hasStaticShape())
      maskInputs.insert(maskInputs.begin(), input);
    Value mask = buildElementwise(
        rewriter, loc, maskType, maskInputs,
        [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
          Value u = philoxUniform(nb, nl, args.back(),
                                  linearIndex(nb, nl, shape, sizes));
          return arith::CmpFOp::create(
              nb, nl, arith::CmpFPredicate::OLT, u,
              floatConstant(nb, nl, nb.getF64Type(), keep));
        });
    double scale = p == 1.0 ? 0.0 : 1.0 / (1.0 - p);
    Value out = buildElementwise(
        rewriter, loc, outType, {adaptor.getInput(), mask},
        [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
          E e{nb, nl};
          Value x = args[0];
          return e.mul(e.mul(x, e.toFloat(args[1], x.getType())), scale);
        });
    rewriter.replaceOp(op, {out, mask});
    return success();
  }
};

Value lowerNativeDropoutBackward(NativeDropoutBackwardOp op,
                                 NativeDropoutBackwardOp::Adaptor adaptor,
                                 OpBuilder &b) {
  double scale = op.getScale().convertToDouble();
  return buildElementwise(
      b, op.getLoc(), resultTypeOf(op),
      {adaptor.getGradOutput(), adaptor.getMask()},
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        E e{nb, nl};
        Value g = args[0];
        return e.mul(e.mul(g, e.toFloat(args[1], g.getType())), scale);
      });
}

} // namespace

void lowering::populateActivationPatterns(RewritePatternSet &patterns) {
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;

  addLowering<Log1pOp>(patterns, lowerUnary<Log1pOp, log1pElement>);
  addLowering<SqrtOp>(patterns, lowerUnary<SqrtOp, sqrtElement>);
  addLowering<RsqrtOp>(patterns, lowerUnary<RsqrtOp, rsqrtElement>);
  addLowering<ReciprocalOp>(patterns,
                            lowerUnary<ReciprocalOp, reciprocalElement>);
  addLowering<AbsOp>(patterns, lowerUnary<AbsOp, absElement>);
  addLowering<ErfOp>(patterns, lowerUnary<ErfOp, erfElement>);
  addLowering<SinOp>(patterns, lowerUnary<SinOp, sinElement>);
  addLowering<ErfcOp>(patterns, lowerUnary<ErfcOp, erfcElement>);
  addLowering<Expm1Op>(patterns, lowerUnary<Expm1Op, expm1Element>);
  addLowering<AtanOp>(patterns, lowerUnary<AtanOp, atanElement>);
  addLowering<AsinOp>(patterns, lowerUnary<AsinOp, asinElement>);
  addLowering<AcosOp>(patterns, lowerUnary<AcosOp, acosElement>);
  addLowering<Atan2Op>(patterns, lowerAtan2);
  addLowering<CosOp>(patterns, lowerUnary<CosOp, cosElement>);
  addLowering<SignOp>(patterns, lowerUnary<SignOp, signElement>);
  addLowering<FloorOp>(patterns, lowerUnary<FloorOp, floorElement>);
  addLowering<PowTensorScalarOp>(patterns, lowerPowTensorScalar);
  addLowering<PowTensorTensorOp>(patterns, lowerPowTensorTensor);

  addLowering<ThresholdOp>(patterns, lowerThreshold);
  addLowering<GeluOp>(patterns, lowerGelu);
  addLowering<SiluOp>(patterns, lowerUnary<SiluOp, siluElement>);
  addLowering<MishOp>(patterns, lowerUnary<MishOp, mishElement>);
  addLowering<HardswishOp>(patterns, lowerUnary<HardswishOp, hardswishElement>);
  addLowering<HardsigmoidOp>(patterns,
                             lowerUnary<HardsigmoidOp, hardsigmoidElement>);
  addLowering<LeakyReluOp>(patterns, lowerLeakyRelu);
  addLowering<EluOp>(patterns, lowerElu);
  addLowering<SoftplusOp>(patterns, lowerSoftplus);
  addLowering<HardtanhOp>(patterns, lowerHardtanh);
  addLowering<PreluKernelOp>(patterns, lowerPreluKernel);

  addLowering<GeluBackwardOp>(patterns, lowerGeluBackward);
  addLowering<LeakyReluBackwardOp>(patterns, lowerLeakyReluBackward);
  addLowering<SoftplusBackwardOp>(patterns, lowerSoftplusBackward);
  addLowering<HardtanhBackwardOp>(patterns, lowerHardtanhBackward);
  addLowering<HardswishBackwardOp>(patterns, lowerHardswishBackward);
  addLowering<HardsigmoidBackwardOp>(patterns, lowerHardsigmoidBackward);
  addLowering<EluBackwardOp>(patterns, lowerEluBackward);

  addLowering<MaximumOp>(patterns, lowerMinMax<MaximumOp, arith::MaximumFOp>);
  addLowering<MinimumOp>(patterns, lowerMinMax<MinimumOp, arith::MinimumFOp>);
  addLowering<LerpTensorOp>(patterns, lowerLerp);
  addLowering<AddcmulOp>(patterns, lowerAddc<AddcmulOp, false>);
  addLowering<AddcdivOp>(patterns, lowerAddc<AddcdivOp, true>);
  addLowering<ClampOp>(patterns, lowerClamp);
  addLowering<ClampTensorOp>(patterns, lowerClampTensor);
  addLowering<ClampMinOp>(patterns, lowerClampMin);
  addLowering<ClampMaxOp>(patterns, lowerClampMax);
  addLowering<WhereSelfOp>(patterns, lowerWhereSelf);
  addLowering<WhereScalarOtherOp>(patterns, lowerWhereScalarOther);
  addLowering<WhereScalarSelfOp>(patterns, lowerWhereScalarSelf);
  addLowering<MaskedFillScalarOp>(patterns, lowerMaskedFillScalar);
  addLowering<MaskedFillTensorOp>(patterns, lowerMaskedFillTensor);

  addLowering<EqTensorOp>(patterns,
                          lowerCompareTensor<EqTensorOp, FP::OEQ, IP::eq>);
  addLowering<NeTensorOp>(patterns,
                          lowerCompareTensor<NeTensorOp, FP::UNE, IP::ne>);
  addLowering<LtTensorOp>(patterns,
                          lowerCompareTensor<LtTensorOp, FP::OLT, IP::slt>);
  addLowering<LeTensorOp>(patterns,
                          lowerCompareTensor<LeTensorOp, FP::OLE, IP::sle>);
  addLowering<GtTensorOp>(patterns,
                          lowerCompareTensor<GtTensorOp, FP::OGT, IP::sgt>);
  addLowering<GeTensorOp>(patterns,
                          lowerCompareTensor<GeTensorOp, FP::OGE, IP::sge>);
  addLowering<EqScalarOp>(patterns, lowerCompareScalar<EqScalarOp, FP::OEQ>);
  addLowering<NeScalarOp>(patterns, lowerCompareScalar<NeScalarOp, FP::UNE>);
  addLowering<LtScalarOp>(patterns, lowerCompareScalar<LtScalarOp, FP::OLT>);
  addLowering<LeScalarOp>(patterns, lowerCompareScalar<LeScalarOp, FP::OLE>);
  addLowering<GtScalarOp>(patterns, lowerCompareScalar<GtScalarOp, FP::OGT>);
  addLowering<GeScalarOp>(patterns, lowerCompareScalar<GeScalarOp, FP::OGE>);
  addLowering<IsnanOp>(patterns, lowerIsnan);
  addLowering<LogicalNotOp>(patterns, lowerLogicalNot);
  addLowering<LogicalAndOp>(patterns,
                            lowerLogicalBinary<LogicalAndOp, arith::AndIOp>);
  addLowering<LogicalOrOp>(patterns,
                           lowerLogicalBinary<LogicalOrOp, arith::OrIOp>);

  patterns.add<LowerNativeDropoutKey>(patterns.getContext());
  addLowering<NativeDropoutBackwardOp>(patterns, lowerNativeDropoutBackward);
}
